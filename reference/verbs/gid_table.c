// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * /sys/class/infiniband/<dev>/ports/<port>/gids/<n> holds a GID as eight
 * colon-separated 16-bit hex groups; gid_attrs/types/<n> says "IB/RoCE v1"
 * or "RoCE v2", and cannot be read (EINVAL) for an unused entry.
 *
 * Reading sysfs file by file is slow (rxe's table has 1024 entries), so
 * what is read is kept: the table's size and the port's link layer never
 * change while the device exists; the used entries do (addresses come and
 * go), so a GID found in the kept copy is read again from sysfs before it
 * is believed, and a GID not in the copy makes the whole table be read
 * again.
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref_verbs.h"
#include "../common/sysfs.h"

#define SYS_IB REF_SYS_IB

struct gid_entry {
	uint8_t gid[16];
	enum ref_gid_type type;
	bool used;
};

#define CACHE_PORTS 4
struct port_cache {
	char dev[64];
	int port;
	int size;		/* entries in the table */
	int nused;		/* entries read: the last used index + 1 */
	bool roce;		/* link layer Ethernet */
	struct gid_entry *e;
};

static struct port_cache cache[CACHE_PORTS];

static int count_entries(const char *path)
{
	struct dirent *d;
	DIR *dir = opendir(path);
	int n = 0;

	if (!dir)
		return -errno;
	while ((d = readdir(dir)))
		n += d->d_name[0] != '.';
	closedir(dir);
	return n;
}

static struct port_cache *lookup(const char *dev, int port);

/* fixed for the device's life: counted once */
int ref_gid_table_size(const char *dev, int port)
{
	struct port_cache *c = lookup(dev, port);

	return c ? c->size : -ENOENT;
}

bool ref_port_is_roce(const char *dev, int port)
{
	struct port_cache *c = lookup(dev, port);

	return c && c->roce;
}

/* One entry from sysfs: 0 used, -ENOENT unused, -errno otherwise. */
static int read_entry(const char *dev, int port, int i, struct gid_entry *e)
{
	char buf[64];

	e->used = false;
	switch (ref_sysfs_read(buf, sizeof(buf),
			       SYS_IB "/%s/ports/%d/gid_attrs/types/%d", dev,
			       port, i)) {
	case 0:
		if (!buf[0])	/* nothing to tell the type by: unused */
			return -ENOENT;
		break;
	case -ENOENT:	/* no types (old kernels, ibsim): IB GIDs */
		snprintf(buf, sizeof(buf), "IB/RoCE v1");
		break;
	default:	/* an unused entry */
		return -ENOENT;
	}
	e->type = strcmp(buf, "RoCE v2") ? REF_GID_IB_ROCE_V1 : REF_GID_ROCE_V2;
	if (ref_sysfs_read(buf, sizeof(buf), SYS_IB "/%s/ports/%d/gids/%d", dev,
			   port, i) || ref_parse_gid(buf, e->gid))
		return -ENOENT;
	e->used = true;
	return 0;
}

static struct port_cache *lookup(const char *dev, int port)
{
	static unsigned int next;
	struct port_cache *c;
	char path[512], buf[32];
	int i;

	for (i = 0; i < CACHE_PORTS; i++)
		if (cache[i].e && cache[i].port == port &&
		    !strcmp(cache[i].dev, dev))
			return &cache[i];
	c = &cache[next++ % CACHE_PORTS];
	free(c->e);
	memset(c, 0, sizeof(*c));
	snprintf(path, sizeof(path), SYS_IB "/%s/ports/%d/gids", dev, port);
	c->size = count_entries(path);
	if (c->size <= 0)
		return NULL;
	c->e = calloc(c->size, sizeof(*c->e));
	if (!c->e)
		return NULL;
	snprintf(c->dev, sizeof(c->dev), "%s", dev);
	c->port = port;
	c->roce = !ref_sysfs_read(buf, sizeof(buf),
				  SYS_IB "/%s/ports/%d/link_layer", dev, port) &&
		  !strcmp(buf, "Ethernet");
	c->nused = -1;		/* not read yet */
	return c;
}

/* Read every entry again; unused ones at the end are not kept. */
static void reread(struct port_cache *c)
{
	int i;

	c->nused = 0;
	for (i = 0; i < c->size; i++)
		if (!read_entry(c->dev, c->port, i, &c->e[i]))
			c->nused = i + 1;
}

static int find_in(const struct port_cache *c, const uint8_t gid[16],
		   enum ref_gid_type type)
{
	int i;

	for (i = 0; i < c->nused; i++)
		if (c->e[i].used && c->e[i].type == type &&
		    !memcmp(c->e[i].gid, gid, 16))
			return i;
	return -ENOENT;
}

int ref_gid_find(const char *dev, int port, const uint8_t gid[16],
		 enum ref_gid_type type)
{
	struct port_cache *c = lookup(dev, port);
	struct gid_entry now;
	int i;

	if (!c)
		return -ENOENT;
	if (c->nused >= 0) {
		i = find_in(c, gid, type);
		/* believed only if sysfs still says so */
		if (i >= 0 && !read_entry(dev, port, i, &now) &&
		    now.type == type && !memcmp(now.gid, gid, 16))
			return i;
	}
	reread(c);
	return find_in(c, gid, type);
}
