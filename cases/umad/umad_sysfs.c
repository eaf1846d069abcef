// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * What umad_get_port(3) and umad_get_ca(3) fill, field by field, against
 * where Linux keeps it: the attributes of /sys/class/infiniband
 * (Documentation/ABI/stable/sysfs-class-infiniband, written by
 * drivers/infiniband/core/sysfs.c: lid_show, lid_mask_count_show,
 * sm_lid_show, sm_sl_show, state_show, phys_state_show, rate_show,
 * cap_mask_show, link_layer_show, show_port_gid, show_port_pkey; the
 * device's node_type, fw_ver, hca_type, hw_rev, node_guid,
 * sys_image_guid).  The numbers are the leading number of each attribute
 * ("4: ACTIVE" is 4, "0x1" is 1, "100 Gb/sec (4X EDR)" is 100).
 */
#include <dirent.h>
#include <endian.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "umad_dev.h"
#include "../../harness/device.h"

/* the leading number of the port's attribute @attr; -1 when unreadable */
static long long port_num(struct rc_ctx *ctx, int p, const char *attr)
{
	char buf[128];

	if (dev_port_sysfs(ctx, p, attr, buf, sizeof(buf)))
		return -1;
	return strtoull(buf, NULL, 0);
}

/* @name (@value) is the leading number of the port's attribute @attr */
static void num_field(struct rc_ctx *ctx, int p, const char *pre,
		      const char *name, unsigned long long value,
		      const char *attr)
{
	long long v = port_num(ctx, p, attr);

	if (v >= 0 && value != (unsigned long long)v)
		rc_obs_violation(ctx->obs, "%s%s %llu, sysfs %s %lld", pre,
				 name, value, attr, v);
}

#define NUM_FIELD(field, attr) num_field(ctx, p, pre, #field, port->field, attr)

/* The entries of the port's pkeys directory: N for pkeys/0 ... N-1. */
static int pkey_count(struct rc_ctx *ctx, int p)
{
	char path[256];
	struct dirent *d;
	DIR *dir;
	int n = 0;

	snprintf(path, sizeof(path), RC_SYSFS_IB "/%s/ports/%d/pkeys",
		 ctx->target->ca, p);
	dir = opendir(path);
	if (!dir)
		return -1;
	while ((d = readdir(dir)))
		if (d->d_name[0] != '.')
			n++;
	closedir(dir);
	return n;
}

static void check_gid(struct rc_ctx *ctx, int p, const umad_port_t *port,
		      const char *pre)
{
	const uint8_t *a = (const uint8_t *)&port->gid_prefix;
	const uint8_t *g = (const uint8_t *)&port->port_guid;
	char gid[64], want[64];

	if (dev_port_sysfs(ctx, p, "gids/0", gid, sizeof(gid)))
		return;
	snprintf(want, sizeof(want),
		 "%02x%02x:%02x%02x:%02x%02x:%02x%02x:"
		 "%02x%02x:%02x%02x:%02x%02x:%02x%02x",
		 a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], g[0], g[1],
		 g[2], g[3], g[4], g[5], g[6], g[7]);
	if (strcmp(gid, want))
		rc_obs_violation(ctx->obs,
				 "%sgid_prefix:port_guid %s, GID 0 %s", pre,
				 want, gid);
}

static void check_pkeys(struct rc_ctx *ctx, int p, const umad_port_t *port,
			const char *pre)
{
	int n = pkey_count(ctx, p), i;
	char attr[32];

	if (n < 0)
		return;
	if (port->pkeys_size != n) {
		rc_obs_violation(ctx->obs, "%spkeys_size %d, sysfs pkeys %d",
				 pre, port->pkeys_size, n);
		return;
	}
	for (i = 0; i < n; i++) {
		long long v;

		snprintf(attr, sizeof(attr), "pkeys/%d", i);
		v = port_num(ctx, p, attr);
		if (v >= 0 && port->pkeys[i] != v) {
			rc_obs_violation(ctx->obs,
					 "%spkeys[%d] 0x%04x, sysfs "
					 "0x%04llx",
					 pre, i, port->pkeys[i], v);
			return;
		}
	}
}

void dev_check_port(struct rc_ctx *ctx, int p, const umad_port_t *port,
		    const char *pre)
{
	char ll[UMAD_CA_NAME_LEN];
	long long v;

	if (strcmp(port->ca_name, ctx->target->ca))
		rc_obs_violation(ctx->obs, "%sca_name '%.20s', not %s", pre,
				 port->ca_name, ctx->target->ca);
	if (port->portnum != p)
		rc_obs_violation(ctx->obs, "%sportnum %d, not %d", pre,
				 port->portnum, p);
	/* a port sysfs has not: nothing below could be compared */
	if (dev_port_sysfs(ctx, p, "state", ll, sizeof(ll)))
		rc_obs_violation(ctx->obs,
				 "%sportnum %d: sysfs has no such port", pre,
				 p);
	NUM_FIELD(base_lid, "lid");
	NUM_FIELD(lmc, "lid_mask_count");
	NUM_FIELD(sm_lid, "sm_lid");
	NUM_FIELD(sm_sl, "sm_sl");
	NUM_FIELD(state, "state");
	NUM_FIELD(phys_state, "phys_state");
	NUM_FIELD(rate, "rate");
	v = port_num(ctx, p, "cap_mask");
	if (v >= 0 && be32toh(port->capmask) != v)
		rc_obs_violation(ctx->obs,
				 "%scapmask 0x%08x (network order), "
				 "sysfs cap_mask 0x%08llx",
				 pre, be32toh(port->capmask), v);
	if (!dev_port_sysfs(ctx, p, "link_layer", ll, sizeof(ll)) &&
	    strcmp(port->link_layer, ll))
		rc_obs_violation(ctx->obs, "%slink_layer '%.20s', sysfs '%s'",
				 pre, port->link_layer, ll);
	check_gid(ctx, p, port, pre);
	check_pkeys(ctx, p, port, pre);
}

/* Each port directory's number: @have[p] set, the highest returned. */
static int ports_of(struct rc_ctx *ctx, bool *have)
{
	char path[256];
	struct dirent *d;
	DIR *dir;
	int hi = -1, p;

	memset(have, 0, UMAD_CA_MAX_PORTS * sizeof(*have));
	snprintf(path, sizeof(path), RC_SYSFS_IB "/%s/ports", ctx->target->ca);
	dir = opendir(path);
	if (!dir)
		return -1;
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		p = atoi(d->d_name);
		if (p >= 0 && p < UMAD_CA_MAX_PORTS) {
			have[p] = true;
			if (p > hi)
				hi = p;
		}
	}
	closedir(dir);
	return hi;
}

/* @field (@len bytes) holds the device's attribute @attr, or "" without */
static void check_string(struct rc_ctx *ctx, const char *field, size_t len,
			 const char *name, const char *attr)
{
	char want[128] = "";

	dev_sysfs(ctx, 0, attr, want, sizeof(want));
	if (!memchr(field, 0, len))
		rc_obs_violation(ctx->obs, "%s not terminated", name);
	else if (strncmp(field, want, len - 1))
		rc_obs_violation(ctx->obs, "%s '%s', sysfs %s '%s'", name,
				 field, attr, want);
}

static void check_guid(struct rc_ctx *ctx, __be64 field, const char *name,
		       const char *attr)
{
	char buf[64];
	uint64_t guid;

	if (!dev_sysfs(ctx, 0, attr, buf, sizeof(buf)) &&
	    !rc_guid_parse(buf, &guid) && be64toh(field) != guid)
		rc_obs_violation(ctx->obs, "%s %016llx, sysfs %s %s", name,
				 (unsigned long long)be64toh(field), attr, buf);
}

void dev_check_ca(struct rc_ctx *ctx, const umad_ca_t *ca)
{
	bool have[UMAD_CA_MAX_PORTS];
	char buf[64], pre[16];
	int hi = ports_of(ctx, have), p;

	if (strcmp(ca->ca_name, ctx->target->ca))
		rc_obs_violation(ctx->obs, "ca_name '%.20s', not %s",
				 ca->ca_name, ctx->target->ca);
	if (!dev_sysfs(ctx, 0, "node_type", buf, sizeof(buf)) &&
	    ca->node_type != strtoul(buf, NULL, 0))
		rc_obs_violation(ctx->obs, "node_type %u, sysfs %s",
				 ca->node_type, buf);
	check_string(ctx, ca->fw_ver, sizeof(ca->fw_ver), "fw_ver", "fw_ver");
	check_string(ctx, ca->ca_type, sizeof(ca->ca_type), "ca_type",
		     "hca_type");
	check_string(ctx, ca->hw_ver, sizeof(ca->hw_ver), "hw_ver", "hw_rev");
	check_guid(ctx, ca->node_guid, "node_guid", "node_guid");
	check_guid(ctx, ca->system_guid, "system_guid", "sys_image_guid");
	if (hi < 0)
		return;
	if (ca->numports != hi)
		rc_obs_violation(ctx->obs, "numports %d, sysfs ports up to %d",
				 ca->numports, hi);
	for (p = 0; p < UMAD_CA_MAX_PORTS; p++) {
		if (!have[p] != !ca->ports[p]) {
			rc_obs_violation(ctx->obs, "ports[%d] %s", p,
					 have[p] ? "NULL, sysfs has the port" :
						   "set, sysfs has no port");
			continue;
		}
		snprintf(pre, sizeof(pre), "ports[%d].", p);
		if (ca->ports[p])
			dev_check_port(ctx, p, ca->ports[p], pre);
	}
}

/*
 * The umad character devices: /sys/class/infiniband_mad/umadN (and issmN)
 * names its port by ibdev and port, and /dev/infiniband/umadN is the node
 * (Documentation/infiniband/user_mad.rst).
 */
int dev_mad_entry(const char *name, char *ca, size_t len)
{
	char buf[64];

	if ((strncmp(name, "umad", 4) && strncmp(name, "issm", 4)) ||
	    rc_sysfs_read(ca, len, RC_SYSFS_MAD "/%s/ibdev", name) ||
	    rc_sysfs_read(buf, sizeof(buf), RC_SYSFS_MAD "/%s/port", name))
		return -1;
	return atoi(buf);
}

int dev_mad_port(const char *name, const char *ca)
{
	char dev[64];
	int port = dev_mad_entry(name, dev, sizeof(dev));

	return port >= 0 && !strcmp(dev, ca) ? port : -1;
}

bool dev_port_active(const char *ca, int port)
{
	char buf[32];

	return !rc_sysfs_read(buf, sizeof(buf),
			      RC_SYSFS_IB "/%s/ports/%d/state", ca, port) &&
	       strtoul(buf, NULL, 0) == 4;
}

void dev_close_each(struct rc_ctx *ctx, const int *fd, int n)
{
	int i, ret;

	for (i = 0; i < n; i++) {
		ret = ctx->ops->umad_close_port(fd[i]);
		if (ret)
			rc_obs_violation(ctx->obs,
					 "umad_close_port of handle %d: %d",
					 fd[i], ret);
	}
}

int dev_umad_index(const char *ca, int port)
{
	DIR *dir = opendir(RC_SYSFS_MAD);
	struct dirent *d;
	int n = -1;

	if (!dir)
		return -1;
	while (n < 0 && (d = readdir(dir)))
		if (!strncmp(d->d_name, "umad", 4) &&
		    dev_mad_port(d->d_name, ca) == port)
			n = atoi(d->d_name + 4);
	closedir(dir);
	return n;
}

void dev_check_umad_fd(struct rc_ctx *ctx, int fd, const char *ca, int port)
{
	char link[64], target[256], want[64];
	int n = dev_umad_index(ca, port), fl;
	ssize_t len;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	snprintf(want, sizeof(want), "/dev/infiniband/umad%d", n);
	len = readlink(link, target, sizeof(target) - 1);
	target[len > 0 ? len : 0] = 0;
	if (n < 0 || strcmp(target, want))
		rc_obs_violation(ctx->obs,
				 "descriptor %d is '%s', not %s (port %d of "
				 "%s)",
				 fd, target, n < 0 ? "-" : want, port, ca);
	fl = fcntl(fd, F_GETFL);
	if (fl < 0 || (fl & O_ACCMODE) != O_RDWR)
		rc_obs_violation(ctx->obs, "flags of %s 0x%x, not O_RDWR", want,
				 fl);
}
