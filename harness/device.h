/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#ifndef RDMACONF_DEVICE_H
#define RDMACONF_DEVICE_H

#include <stdbool.h>
#include <stdint.h>
#include "json.h"
#include "need.h"

#define RC_SYSFS_IB "/sys/class/infiniband"
#define RC_SYSFS_MAD "/sys/class/infiniband_mad"

struct rc_device {
	char name[256];
	int port;
	char link_layer[32];
	char state[40];
};

/*
 * Pick the device of the run: @want by name, else the first device with an
 * ACTIVE port.  Returns 0, -ENODEV when there is none, -ENOENT when @want
 * does not exist, -ENETDOWN when @want has no active port.
 */
int rc_device_find(const char *want, struct rc_device *d);
/* The first device other than @not with an ACTIVE port: 0 or -ENODEV. */
int rc_device_find_other(const char * not, struct rc_device *d);
/* The peer of @dev: the first other device with an ACTIVE port whose link
 * is @dev's kind (rxe1 for rxe0, siw1 for siw0), else any other; 0 or
 * -ENODEV. */
int rc_device_find_peer(const struct rc_device *dev, struct rc_device *peer);
/* The "device" object of the results: a fingerprint read from sysfs. */
void rc_device_fingerprint(const struct rc_device *d, struct rc_str *b);
/* The kind of link of the device's port, from sysfs's node_type and
 * link_layer: InfiniBand, RoCE or iWARP (need.h). */
enum rc_link rc_device_link(const struct rc_device *d);
/* Does the port have its umad device (/sys/class/infiniband_mad/umadN of
 * this device and port, and /dev/infiniband/umadN)? */
bool rc_device_umad(const struct rc_device *d);
/* The kernel driver of the device ("rdma_rxe", "mlx5_core"), for profiles. */
int rc_device_driver(const struct rc_device *d, char *buf, size_t len);
/* Read a one-line sysfs attribute, newline stripped; 0 or -errno. */
int rc_sysfs_read(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The GUID of a sysfs node_guid ("0010:0000:0000:0004") or the interface
 * id of a GID (its last four groups): 0, or -EINVAL. */
int rc_guid_parse(const char *s, uint64_t *guid);
/* A GID in sysfs text ("fe80:0000:...", eight groups): 0 or -EINVAL. */
int rc_gid_parse(const char *s, uint8_t gid[16]);
/* The entries of a directory, but . and ..; or -errno. */
int rc_dir_count(const char *path);

/* The kinds of RoCE GID a row addresses a port by */
enum rc_gid_kind {
	RC_GID_IPV4, /* IPv4-mapped (::ffff:a.b.c.d) */
	RC_GID_IPV6, /* IPv6, not link-local */
	RC_GID_LINK_LOCAL, /* fe80::/10 */
};
/*
 * A GID of @kind of @ca port @port, for addressing the port itself.
 * Returns its index, or -1 when the port has none.  Only the first 16
 * entries are looked at: the addresses come first.
 */
int rc_port_gid(const char *ca, int port, enum rc_gid_kind kind,
		uint8_t gid[16]);

#endif
