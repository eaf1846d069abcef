// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "device.h"
#include <infiniband/verbs.h>

int rc_sysfs_read(char *buf, size_t len, const char *fmt, ...)
{
	char path[512];
	va_list ap;
	ssize_t n;
	int fd;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	buf[0] = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = 0;
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = 0;
	return 0;
}

/* "4: ACTIVE" -> true */
static bool port_active(const char *dev, int port, struct rc_device *d)
{
	char st[32];

	if (rc_sysfs_read(st, sizeof(st), RC_SYSFS_IB "/%s/ports/%d/state", dev,
			  port))
		return false;
	if (d) {
		snprintf(d->state, sizeof(d->state), "%s",
			 strchr(st, ' ') ? strchr(st, ' ') + 1 : st);
		/* no link_layer attribute (kernels before 2.6.37, ibsim's
		 * fake sysfs): InfiniBand, the only one there was */
		if (rc_sysfs_read(d->link_layer, sizeof(d->link_layer),
				  RC_SYSFS_IB "/%s/ports/%d/link_layer", dev,
				  port) ||
		    !d->link_layer[0])
			snprintf(d->link_layer, sizeof(d->link_layer),
				 "InfiniBand");
	}
	return strstr(st, "ACTIVE") != NULL;
}

static int first_active_port(const char *dev, struct rc_device *d)
{
	int port;

	for (port = 1; port <= 32; port++)
		if (port_active(dev, port, d))
			return port;
	return -1;
}

static int find_first(const char * not, struct rc_device *d);

int rc_device_find_other(const char * not, struct rc_device *d)
{
	memset(d, 0, sizeof(*d));
	return find_first(not, d);
}

int rc_device_find(const char *want, struct rc_device *d)
{
	char path[512];
	int port;

	memset(d, 0, sizeof(*d));
	if (want) {
		snprintf(path, sizeof(path), RC_SYSFS_IB "/%s", want);
		if (access(path, F_OK))
			return -ENOENT;
		port = first_active_port(want, d);
		if (port < 0)
			return -ENETDOWN;
		snprintf(d->name, sizeof(d->name), "%s", want);
		d->port = port;
		return 0;
	}
	return find_first(NULL, d);
}

int rc_device_find_peer(const struct rc_device *dev, struct rc_device *peer)
{
	enum rc_link link = rc_device_link(dev);
	struct dirent **names;
	int n, i, port, ret = -ENODEV;

	n = scandir(RC_SYSFS_IB, &names, NULL, alphasort);
	for (i = 0; i < n; i++) {
		if (ret)
			memset(peer, 0, sizeof(*peer));
		if (ret && names[i]->d_name[0] != '.' &&
		    strcmp(dev->name, names[i]->d_name)) {
			port = first_active_port(names[i]->d_name, peer);
			snprintf(peer->name, sizeof(peer->name), "%s",
				 names[i]->d_name);
			peer->port = port;
			if (port > 0 && rc_device_link(peer) == link)
				ret = 0;
		}
		free(names[i]);
	}
	if (n >= 0)
		free(names);
	return ret ? rc_device_find_other(dev->name, peer) : 0;
}

static int find_first(const char * not, struct rc_device *d)
{
	struct dirent **names;
	int n, i, port, ret = -ENODEV;

	n = scandir(RC_SYSFS_IB, &names, NULL, alphasort);
	if (n < 0)
		return -ENODEV;
	for (i = 0; i < n; i++) {
		if (ret && names[i]->d_name[0] != '.' &&
		    (!not || strcmp(not, names[i]->d_name))) {
			port = first_active_port(names[i]->d_name, d);
			if (port > 0) {
				snprintf(d->name, sizeof(d->name), "%s",
					 names[i]->d_name);
				d->port = port;
				ret = 0;
			}
		}
		free(names[i]);
	}
	free(names);
	return ret;
}

static void json_attr(struct rc_str *b, const char *key, const char *dev,
		      const char *attr)
{
	char v[256];

	rc_str_printf(b, ", \"%s\": ", key);
	if (rc_sysfs_read(v, sizeof(v), RC_SYSFS_IB "/%s/%s", dev, attr))
		rc_str_printf(b, "null");
	else
		rc_str_json(b, v);
}

enum rc_link rc_device_link(const struct rc_device *d)
{
	char type[32];

	if (!d || !d->name[0])
		return RC_LINK_NONE;
	/* node_type "4: RNIC": iWARP, whose link layer reads Ethernet too */
	if (!rc_sysfs_read(type, sizeof(type), RC_SYSFS_IB "/%s/node_type",
			   d->name) &&
	    atoi(type) == 4)
		return RC_LINK_IWARP;
	return strcmp(d->link_layer, "Ethernet") ? RC_LINK_IB : RC_LINK_ROCE;
}

bool rc_device_umad(const struct rc_device *d)
{
	DIR *dir = opendir(RC_SYSFS_MAD);
	char buf[256], path[300];
	struct dirent *e;
	bool found = false;

	while (dir && !found && (e = readdir(dir))) {
		if (strncmp(e->d_name, "umad", 4) ||
		    rc_sysfs_read(buf, sizeof(buf), RC_SYSFS_MAD "/%s/ibdev",
				  e->d_name) ||
		    strcmp(buf, d->name) ||
		    rc_sysfs_read(buf, sizeof(buf), RC_SYSFS_MAD "/%s/port",
				  e->d_name) ||
		    atoi(buf) != d->port)
			continue;
		snprintf(path, sizeof(path), "/dev/infiniband/%s", e->d_name);
		found = !access(path, F_OK);
	}
	if (dir)
		closedir(dir);
	return found;
}

/* The kernel driver behind the device: the bus driver, else the parent. */
static void driver_name(const char *dev, char *buf, size_t len)
{
	char link[512], target[512];
	ssize_t n;

	snprintf(link, sizeof(link), RC_SYSFS_IB "/%s/device/driver", dev);
	n = readlink(link, target, sizeof(target) - 1);
	if (n > 0) {
		target[n] = 0;
		snprintf(buf, len, "%s", basename(target));
		return;
	}
	/* software devices (rxe, siw) have no bus device, only a netdev */
	if (!strncmp(dev, "rxe", 3))
		snprintf(buf, len, "rdma_rxe");
	else if (!strncmp(dev, "siw", 3))
		snprintf(buf, len, "siw");
	else if (!strncmp(dev, "ibsim", 5)) /* ibsim's umad2sim */
		snprintf(buf, len, "ibsim");
	else
		buf[0] = 0;
}

int rc_device_driver(const struct rc_device *d, char *buf, size_t len)
{
	driver_name(d->name, buf, len);
	return buf[0] ? 0 : -ENOENT;
}

/*
 * Vendor, part, hardware and firmware as the device reports them
 * (ibv_query_device: rdma-core as a resource, not a call under test); the
 * PCI ids in sysfs where it cannot be opened.  Software devices (rxe, siw)
 * have no PCI ids but do have these.
 */
static void query_ids(struct rc_str *b, const char *name)
{
	struct ibv_device **list = ibv_get_device_list(NULL);
	struct ibv_device_attr a;
	struct ibv_context *c = NULL;
	int i;

	for (i = 0; list && list[i] && !c; i++)
		if (!strcmp(ibv_get_device_name(list[i]), name))
			c = ibv_open_device(list[i]);
	if (list)
		ibv_free_device_list(list);
	if (!c || ibv_query_device(c, &a)) {
		json_attr(b, "vendor_id", name, "device/vendor");
		json_attr(b, "vendor_part_id", name, "device/device");
		json_attr(b, "fw_ver", name, "fw_ver");
	} else {
		rc_str_printf(b,
			      ", \"vendor_id\": \"0x%06x\", "
			      "\"vendor_part_id\": \"%u\", \"hw_ver\": \"%u\", "
			      "\"fw_ver\": ",
			      a.vendor_id, a.vendor_part_id, a.hw_ver);
		rc_str_json(b, a.fw_ver[0] ? a.fw_ver : NULL);
	}
	if (c)
		ibv_close_device(c);
}

void rc_device_fingerprint(const struct rc_device *d, struct rc_str *b)
{
	char v[256];
	int i;

	if (!d || !d->name[0]) {
		rc_str_printf(b, "null");
		return;
	}
	rc_str_printf(b, "{\"name\": ");
	rc_str_json(b, d->name);
	driver_name(d->name, v, sizeof(v));
	rc_str_printf(b, ", \"driver\": ");
	rc_str_json(b, v[0] ? v : NULL);
	query_ids(b, d->name);
	json_attr(b, "node_guid", d->name, "node_guid");
	json_attr(b, "node_type", d->name, "node_type");
	json_attr(b, "hca_type", d->name, "hca_type");
	json_attr(b, "parent", d->name, "parent");
	rc_str_printf(b, ", \"port\": %d, \"link_layer\": ", d->port);
	rc_str_json(b, d->link_layer);
	rc_str_printf(b, ", \"port_state\": ");
	rc_str_json(b, d->state);
	/* Only the first entries: every GID read costs a lot under TCG. */
	rc_str_printf(b, ", \"gids\": [");
	for (i = 0; i < 4; i++) {
		if (rc_sysfs_read(v, sizeof(v),
				  RC_SYSFS_IB "/%s/ports/%d/gids/%d", d->name,
				  d->port, i))
			break;
		rc_str_printf(b, "%s", i ? ", " : "");
		rc_str_json(b, v);
	}
	rc_str_printf(b, "]}");
}

int rc_guid_parse(const char *s, uint64_t *guid)
{
	unsigned int w[8], n;

	n = sscanf(s, "%x:%x:%x:%x:%x:%x:%x:%x", &w[0], &w[1], &w[2], &w[3],
		   &w[4], &w[5], &w[6], &w[7]);
	if (n != 4 && n != 8)
		return -EINVAL;
	*guid = (uint64_t)w[n - 4] << 48 | (uint64_t)w[n - 3] << 32 |
		(uint64_t)w[n - 2] << 16 | w[n - 1];
	return 0;
}

int rc_gid_parse(const char *s, uint8_t gid[16])
{
	unsigned int w[8], i;

	if (sscanf(s, "%x:%x:%x:%x:%x:%x:%x:%x", &w[0], &w[1], &w[2], &w[3],
		   &w[4], &w[5], &w[6], &w[7]) != 8)
		return -EINVAL;
	for (i = 0; i < 8; i++) {
		gid[2 * i] = w[i] >> 8;
		gid[2 * i + 1] = w[i];
	}
	return 0;
}

int rc_dir_count(const char *path)
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

static enum rc_gid_kind gid_kind(const uint8_t gid[16])
{
	static const uint8_t v4map[12] = { [10] = 0xff, [11] = 0xff };

	if (!memcmp(gid, v4map, 12))
		return RC_GID_IPV4;
	if (gid[0] == 0xfe && (gid[1] & 0xc0) == 0x80)
		return RC_GID_LINK_LOCAL;
	return RC_GID_IPV6;
}

int rc_port_gid(const char *ca, int port, enum rc_gid_kind kind,
		uint8_t gid[16])
{
	static const uint8_t zero[16];
	char buf[64];
	int idx;

	for (idx = 0; idx < 16; idx++) {
		if (rc_sysfs_read(buf, sizeof(buf),
				  RC_SYSFS_IB "/%s/ports/%d/gids/%d", ca, port,
				  idx) ||
		    rc_gid_parse(buf, gid))
			continue;
		if (memcmp(gid, zero, 16) && gid_kind(gid) == kind)
			return idx;
	}
	return -1;
}
