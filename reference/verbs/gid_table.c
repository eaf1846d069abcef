// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * /sys/class/infiniband/<dev>/ports/<port>/gids/<n> holds a GID as eight
 * colon-separated 16-bit hex groups; gid_attrs/types/<n> says "IB/RoCE v1"
 * or "RoCE v2", and cannot be read (EINVAL) for an unused entry.
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "ref_verbs.h"

#define SYS_IB "/sys/class/infiniband"

static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	bool ok;

	if (!f)
		return -errno;
	ok = fgets(buf, len, f);
	fclose(f);
	if (!ok)
		return -EIO;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

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

int ref_gid_table_size(const char *dev, int port)
{
	char path[512];

	snprintf(path, sizeof(path), SYS_IB "/%s/ports/%d/gids", dev, port);
	return count_entries(path);
}

int ref_port_count(const char *dev)
{
	char path[512];

	snprintf(path, sizeof(path), SYS_IB "/%s/ports", dev);
	return count_entries(path);
}

bool ref_port_is_roce(const char *dev, int port)
{
	char path[512], buf[32];

	snprintf(path, sizeof(path), SYS_IB "/%s/ports/%d/link_layer", dev,
		 port);
	return !read_line(path, buf, sizeof(buf)) && !strcmp(buf, "Ethernet");
}

static bool parse_gid(const char *s, uint8_t gid[16])
{
	unsigned int w[8], i;

	if (sscanf(s, "%x:%x:%x:%x:%x:%x:%x:%x", &w[0], &w[1], &w[2], &w[3],
		   &w[4], &w[5], &w[6], &w[7]) != 8)
		return false;
	for (i = 0; i < 8; i++) {
		gid[2 * i] = w[i] >> 8;
		gid[2 * i + 1] = w[i] & 0xff;
	}
	return true;
}

int ref_gid_find(const char *dev, int port, const uint8_t gid[16],
		 enum ref_gid_type type)
{
	const char *want = type == REF_GID_ROCE_V2 ? "RoCE v2" : "IB/RoCE v1";
	char path[512], buf[64];
	uint8_t entry[16];
	int n = ref_gid_table_size(dev, port), i;

	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), SYS_IB "/%s/ports/%d/gids/%d",
			 dev, port, i);
		if (read_line(path, buf, sizeof(buf)) || !parse_gid(buf, entry) ||
		    memcmp(entry, gid, 16))
			continue;
		snprintf(path, sizeof(path),
			 SYS_IB "/%s/ports/%d/gid_attrs/types/%d", dev, port, i);
		switch (read_line(path, buf, sizeof(buf))) {
		case 0:
			break;
		case -ENOENT:	/* no types (old kernels): IB GIDs */
			snprintf(buf, sizeof(buf), "IB/RoCE v1");
			break;
		default:	/* an unused entry */
			continue;
		}
		if (!strcmp(buf, want))
			return i;
	}
	return -ENOENT;
}
