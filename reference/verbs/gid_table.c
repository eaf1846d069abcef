// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * /sys/class/infiniband/<dev>/ports/<port>/gids/<n> holds a GID as eight
 * colon-separated 16-bit hex groups; gid_attrs/types/<n> says "IB/RoCE v1"
 * or "RoCE v2", and cannot be read (EINVAL) for an unused entry.
 *
 * Reading sysfs file by file is slow (rxe's table has 1024 entries), so
 * what is read is kept: the table's size and the port's link layer never
 * change while the device exists; the used entries do (addresses come and
 * go), so a GID found in the kept copy is read again before it is
 * believed, and a GID not in the copy makes the whole table be read again.
 *
 * Where the kernel has them (5.10 and later), the uverbs ioctls
 * UVERBS_METHOD_QUERY_GID_ENTRY and _QUERY_GID_TABLE on the context's
 * command descriptor read an entry, or every used entry, in one system
 * call; sysfs is what is read where they fail.  The ioctl header must
 * carry the driver id of the device (enum rdma_driver_id), or the kernel
 * refuses it with EINVAL; nothing in sysfs tells it, so the first table
 * query of a device tries the ids in turn and the one that works is kept.
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <net/if.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/rdma_user_ioctl_cmds.h>

#include "ref_verbs.h"
#include "uverbs.h"
#include "../common/sysfs.h"

#define SYS_IB REF_SYS_IB

struct gid_entry {
	uint8_t gid[16];
	enum ref_gid_type type;
	uint32_t uverbs_type; /* enum ib_uverbs_gid_type: IB, v1 or v2 */
	uint32_t ifindex; /* of the netdev; 0 when there is none */
	bool used;
};

#define CACHE_PORTS 4
struct port_cache {
	char dev[64];
	int port;
	int size; /* entries in the table */
	int nused; /* entries read: the last used index + 1 */
	bool roce; /* link layer Ethernet */
	int driver_id; /* for the ioctls; -1 not known, -2 none works */
	struct gid_entry *e;
};

/* enum rdma_driver_id has fewer; later kernels may add some */
#define MAX_DRIVER_ID 64

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
		if (!buf[0]) /* nothing to tell the type by: unused */
			return -ENOENT;
		break;
	case -ENOENT: /* no types (old kernels, ibsim): IB GIDs */
		snprintf(buf, sizeof(buf), "IB/RoCE v1");
		break;
	default: /* an unused entry */
		return -ENOENT;
	}
	e->type = strcmp(buf, "RoCE v2") ? REF_GID_IB_ROCE_V1 : REF_GID_ROCE_V2;
	e->uverbs_type =
		e->type == REF_GID_ROCE_V2  ? IB_UVERBS_GID_TYPE_ROCE_V2 :
		ref_port_is_roce(dev, port) ? IB_UVERBS_GID_TYPE_ROCE_V1 :
					      IB_UVERBS_GID_TYPE_IB;
	e->ifindex = 0;
	if (!ref_sysfs_read(buf, sizeof(buf),
			    SYS_IB "/%s/ports/%d/gid_attrs/ndevs/%d", dev, port,
			    i))
		e->ifindex = if_nametoindex(buf);
	if (ref_sysfs_read(buf, sizeof(buf), SYS_IB "/%s/ports/%d/gids/%d", dev,
			   port, i) ||
	    ref_parse_gid(buf, e->gid))
		return -ENOENT;
	e->used = true;
	return 0;
}

/* One method of UVERBS_OBJECT_DEVICE: 0 or -errno. */
static int device_ioctl(int fd, int driver_id, int method,
			struct ib_uverbs_attr *attrs, unsigned int n)
{
	if (driver_id < 0)
		return -EBADF;
	return ref_ioctl(fd, driver_id, UVERBS_OBJECT_DEVICE, method, attrs, n);
}

static void from_uverbs(const struct ib_uverbs_gid_entry *u,
			struct gid_entry *e)
{
	memcpy(e->gid, u->gid, 16);
	e->type = u->gid_type == IB_UVERBS_GID_TYPE_ROCE_V2 ?
			  REF_GID_ROCE_V2 :
			  REF_GID_IB_ROCE_V1;
	e->uverbs_type = u->gid_type;
	e->ifindex = u->netdev_ifindex;
	e->used = true;
}

/* Entry @i by UVERBS_METHOD_QUERY_GID_ENTRY: 0, -ENOENT unused, or the
 * ioctl's -errno (no such method: sysfs is asked instead). */
static int query_entry(int fd, const struct port_cache *c, int i,
		       struct gid_entry *e)
{
	struct ib_uverbs_gid_entry u;
	/* the port and the index are "const" attributes: 64 bits inline */
	struct ib_uverbs_attr attrs[] = {
		REF_ATTR(UVERBS_ATTR_QUERY_GID_ENTRY_PORT, 8, c->port),
		REF_ATTR(UVERBS_ATTR_QUERY_GID_ENTRY_GID_INDEX, 8, i),
		REF_ATTR(UVERBS_ATTR_QUERY_GID_ENTRY_FLAGS, 4, 0),
		REF_ATTR(UVERBS_ATTR_QUERY_GID_ENTRY_RESP_ENTRY, sizeof(u),
			 (uintptr_t)&u),
	};
	int err = device_ioctl(fd, c->driver_id, UVERBS_METHOD_QUERY_GID_ENTRY,
			       attrs, sizeof(attrs) / sizeof(attrs[0]));

	e->used = false;
	if (err == -ENODATA || err == -EINVAL) /* an unused entry */
		return -ENOENT;
	if (err)
		return err;
	from_uverbs(&u, e);
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
				  SYS_IB "/%s/ports/%d/link_layer", dev,
				  port) &&
		  !strcmp(buf, "Ethernet");
	c->nused = -1; /* not read yet */
	c->driver_id = -1;
	return c;
}

/* The largest table one query can return: the attribute's length is 16 bits. */
#define TABLE_MAX (UINT16_MAX / sizeof(struct ib_uverbs_gid_entry))

/* Every used entry of the device by UVERBS_METHOD_QUERY_GID_TABLE, the
 * port's into @c: 0 or the ioctl's -errno. */
static int query_table(int fd, struct port_cache *c)
{
	/* the table of every port: room for a few ports of this size */
	size_t max = 4 * (size_t)c->size < TABLE_MAX ? 4 * (size_t)c->size :
						       TABLE_MAX;
	struct ib_uverbs_gid_entry *u;
	uint64_t n = 0, i;
	struct ib_uverbs_attr attrs[] = {
		REF_ATTR(UVERBS_ATTR_QUERY_GID_TABLE_ENTRY_SIZE, 8, sizeof(*u)),
		REF_ATTR(UVERBS_ATTR_QUERY_GID_TABLE_FLAGS, 4, 0),
		REF_ATTR(UVERBS_ATTR_QUERY_GID_TABLE_RESP_ENTRIES,
			 max * sizeof(*u), 0),
		REF_ATTR(UVERBS_ATTR_QUERY_GID_TABLE_RESP_NUM_ENTRIES, 8,
			 (uintptr_t)&n),
	};
	int err = -ENOMEM, id;

	/* no id worked for this device: neither asked again nor allocated */
	if (c->driver_id == -2)
		return -EOPNOTSUPP;
	u = calloc(max, sizeof(*u));
	attrs[2].data = (uintptr_t)u;

	if (u && c->driver_id >= 0)
		err = device_ioctl(fd, c->driver_id,
				   UVERBS_METHOD_QUERY_GID_TABLE, attrs,
				   sizeof(attrs) / sizeof(attrs[0]));
	/* the device's driver id: the one the kernel takes */
	for (id = 0; u && fd >= 0 && c->driver_id == -1 && id < MAX_DRIVER_ID;
	     id++) {
		err = device_ioctl(fd, id, UVERBS_METHOD_QUERY_GID_TABLE, attrs,
				   sizeof(attrs) / sizeof(attrs[0]));
		if (!err)
			c->driver_id = id;
		else if (err != -EINVAL)
			break; /* no such method here: sysfs */
	}
	if (c->driver_id == -1 && u && fd >= 0) /* tried them all */
		c->driver_id = -2;
	if (!err) {
		memset(c->e, 0, c->size * sizeof(*c->e));
		c->nused = 0;
		for (i = 0; i < n && i < max; i++)
			if (u[i].port_num == (uint32_t)c->port &&
			    u[i].gid_index < (uint32_t)c->size) {
				from_uverbs(&u[i], &c->e[u[i].gid_index]);
				if ((int)u[i].gid_index >= c->nused)
					c->nused = u[i].gid_index + 1;
			}
	}
	free(u);
	return err;
}

/* Read every entry again; unused ones at the end are not kept. */
static void reread(int fd, struct port_cache *c)
{
	int i;

	if (!query_table(fd, c))
		return;
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

int ref_gid_find(int cmd_fd, const char *dev, int port, const uint8_t gid[16],
		 enum ref_gid_type type)
{
	struct port_cache *c = lookup(dev, port);
	struct gid_entry now;
	int i, err;

	if (!c)
		return -ENOENT;
	if (c->nused >= 0) {
		i = find_in(c, gid, type);
		/* believed only if the kernel still says so */
		err = i < 0 ? -ENOENT : query_entry(cmd_fd, c, i, &now);
		if (err && err != -ENOENT)
			err = read_entry(dev, port, i, &now);
		if (!err && now.type == type && !memcmp(now.gid, gid, 16))
			return i;
	}
	reread(cmd_fd, c);
	return find_in(c, gid, type);
}

static void to_ref(const struct port_cache *c, int i, struct ref_gid *out)
{
	memcpy(out->gid, c->e[i].gid, 16);
	out->index = i;
	out->port = c->port;
	out->type = c->e[i].uverbs_type;
	out->ifindex = c->e[i].ifindex;
}

int ref_gid_entry(int cmd_fd, const char *dev, int port, int index,
		  struct ref_gid *out)
{
	struct port_cache *c = lookup(dev, port);

	if (!c || index < 0 || index >= c->size)
		return -EINVAL;
	/* the table as the kernel has it now: no kept copy is believed */
	reread(cmd_fd, c);
	if (index >= c->nused || !c->e[index].used)
		return -ENODATA;
	to_ref(c, index, out);
	return 0;
}

ssize_t ref_gid_entries(int cmd_fd, const char *dev, int port,
			struct ref_gid *out, size_t max)
{
	struct port_cache *c = lookup(dev, port);
	size_t n = 0;
	int i;

	if (!c)
		return -EINVAL;
	reread(cmd_fd, c);
	for (i = 0; i < c->nused; i++) {
		if (!c->e[i].used)
			continue;
		if (n < max)
			to_ref(c, i, &out[n]);
		n++;
	}
	return n;
}
