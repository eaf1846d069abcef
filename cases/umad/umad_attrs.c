// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The device's attributes as other drivers present them, for the rows
 * that read them.  rxe and siw show every attribute Linux's core has, in
 * one port; other devices do not:
 * - hw_rev is a driver's own attribute (mlx4, mlx5, hfi1 have one; rxe
 *   and siw none), and fw_ver shows what a driver's get_dev_fw_str gives;
 * - rate_show (drivers/infiniband/core/sysfs.c) refuses, EINVAL, an
 *   active width that ib_width_enum_to_int does not know: the port's rate
 *   cannot be read;
 * - a switch (node_type 2) has one port of its own, port 0, its
 *   management port (rdma_start_port() is 0 for a switch);
 * - a device's name may be as long as 63 characters;
 * - a kernel without ib_core has no /sys/class/infiniband at all;
 * - a device's ports may all be down (no cable);
 * - a host may have RDMA devices of every node type, an iWARP RNIC or a
 *   usNIC beside an HCA;
 * - a host's first device by name may have no SMI (a RoCE NIC before an
 *   InfiniBand HCA);
 * - an HCA has two ports, and a VPI adapter's may be of two link layers;
 *   an InfiniBand port has a LID, an LMC, an SM's LID and SL, which a
 *   RoCE port shows as 0.
 *
 * The row's process (each implementation's own, under its watchdog) gets
 * a mount namespace of its own, in which the device's directory in sysfs
 * (or /sys/class, or /sys/class/infiniband) is a directory of symbolic
 * links to the real entries, through a second mount of sysfs, with the
 * changes asked for.  The libraries under test,
 * and the row's checks against sysfs, read the device as such a driver
 * shows it; nothing else sees it, and it ends with the process.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "umad_dev.h"
#include "../../harness/device.h"

/* where the row's namespace mounts its own tmpfs (FHS: "a temporary
 * mount point"; the host's /mnt is not touched, the mount is private) */
#define ATTRS_TOP "/mnt"
#define ATTRS_SYS ATTRS_TOP "/sys"
#define ATTRS_FARM ATTRS_TOP "/device"
#define ATTRS_TYPES ATTRS_TOP "/types"

/* what this process's overlay added */
static int added_port;

int dev_attrs_added_port(void)
{
	return added_port;
}

static bool attrs_broken(struct rc_ctx *ctx, const char *what, const char *path)
{
	rc_obs_state(ctx->obs, RC_STATE_BROKEN, "attrs %s %s: %m", what, path);
	return false;
}

/* @out (PATH_MAX bytes) as @fmt says; false, the row BROKEN, when the
 * path does not fit */
static __attribute__((format(printf, 3, 4))) bool
path_of(struct rc_ctx *ctx, char *out, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(out, PATH_MAX, fmt, ap);
	va_end(ap);
	if (n >= 0 && n < PATH_MAX)
		return true;
	errno = ENAMETOOLONG;
	return attrs_broken(ctx, "path", out);
}

static bool named(const char *const *names, const char *name)
{
	for (; names && *names; names++)
		if (!strcmp(*names, name))
			return true;
	return false;
}

/* In @dir, a symbolic link to each entry of @src but those @skip names. */
static bool link_entries(struct rc_ctx *ctx, const char *src, const char *dir,
			 const char *const *skip)
{
	char from[PATH_MAX], to[PATH_MAX];
	struct dirent *e;
	DIR *d = opendir(src);
	bool ok = true;

	if (!d)
		return attrs_broken(ctx, "opendir", src);
	while (ok && (e = readdir(d))) {
		if (e->d_name[0] == '.' || named(skip, e->d_name))
			continue;
		ok = path_of(ctx, from, "%s/%s", src, e->d_name) &&
		     path_of(ctx, to, "%s/%s", dir, e->d_name) &&
		     (!symlink(from, to) || attrs_broken(ctx, "symlink", to));
	}
	closedir(d);
	return ok;
}

static bool write_attr(struct rc_ctx *ctx, const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0444);
	ssize_t n;

	if (fd < 0)
		return attrs_broken(ctx, "create", path);
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) || attrs_broken(ctx, "write", path);
}

/* An attribute a port of the farm has of its own, not linked: a file
 * of @text, or without one a directory (made before the files in it) */
struct attr_file {
	const char *name, *text;
};

/*
 * The port ATTRS_IB_PORT adds: the last port's attributes but those an
 * InfiniBand port has other than a RoCE port's zeros, as an SM-managed
 * port shows them (lid_show "0x%x", lid_mask_count_show "%u"; a base LID
 * whose low LMC bits are 0), with bytes all distinct, and mlx5's usual
 * cap_mask, a port GUID and a P_Key table of its own.
 */
static const struct attr_file ib_port[] = {
	{ "link_layer", "InfiniBand\n" },
	{ "lid", "0x1a28\n" },
	{ "lid_mask_count", "3\n" },
	{ "sm_lid", "0x3c4d\n" },
	{ "sm_sl", "5\n" },
	{ "cap_mask", "0x2651e848\n" },
	/* a port GUID of its own, bytes all distinct, under a subnet
	 * prefix an SM assigned (GID 0 is the port's GUID under the
	 * port's subnet prefix, fe80:: only by default) */
	{ "gids", NULL },
	{ "gids/0", "fec0:1d2b:3c4a:5e69:1102:c903:47a1:b2c4\n" },
	/* a P_Key table of a partitioned subnet: the default full member
	 * and three partitions, in show_port_pkey's "0x%04x" */
	{ "pkeys", NULL },
	{ "pkeys/0", "0xffff\n" },
	{ "pkeys/1", "0x8001\n" },
	{ "pkeys/2", "0x7fa2\n" },
	{ "pkeys/3", "0x0b3c\n" },
	{ NULL, NULL },
};
#define ATTR_FILES_MAX 16

/* A port whose link is down: no cable, the port polling for a peer
 * (state_show "1: DOWN", phys_state_show "2: Polling") */
static const struct attr_file port_down[] = {
	{ "state", "1: DOWN\n" },
	{ "phys_state", "2: Polling\n" },
	{ NULL, NULL },
};

/*
 * Port @as of the farm (@ports) made of port @p of @src: a link to it, or
 * when anything changes a directory of links to its attributes, with a
 * rate that cannot be read (@no_rate: a directory in its place, which
 * opens and whose read(2) fails, EISDIR) and the attributes @own.
 */
static bool port_of(struct rc_ctx *ctx, const char *src, int p,
		    const char *ports, int as, bool no_rate,
		    const struct attr_file *own)
{
	char from[PATH_MAX], dir[PATH_MAX], path[PATH_MAX];
	const char *skip[ATTR_FILES_MAX + 2] = { NULL };
	int n = 0;

	if (!path_of(ctx, from, "%s/ports/%d", src, p) ||
	    !path_of(ctx, dir, "%s/%d", ports, as))
		return false;
	if (!no_rate && !own)
		return !symlink(from, dir) || attrs_broken(ctx, "symlink", dir);
	if (mkdir(dir, 0755))
		return attrs_broken(ctx, "mkdir", dir);
	if (no_rate)
		skip[n++] = "rate";
	for (; own && own->name && n < ATTR_FILES_MAX; own++) {
		if (!path_of(ctx, path, "%s/%s", dir, own->name))
			return false;
		if (own->text ? !write_attr(ctx, path, own->text) :
				mkdir(path, 0755) &&
					!attrs_broken(ctx, "mkdir", path))
			return false;
		skip[n++] = own->name;
	}
	if (!link_entries(ctx, from, dir, skip))
		return false;
	return !no_rate ||
	       (path_of(ctx, path, "%s/rate", dir) &&
		(!mkdir(path, 0555) || attrs_broken(ctx, "mkdir", path)));
}

/*
 * /sys/class/infiniband with the target as the overlay made it (@real;
 * its entry in the second view of sysfs would show it unchanged), and the
 * devices @names more, each a link to @to (NULL: to its own directory
 * under ATTRS_TYPES).
 */
static bool class_with(struct rc_ctx *ctx, const char *real,
		       const char *const *names, const char *to)
{
	const char *class = ATTRS_TOP "/class";
	const char *skip[] = { ctx->target->ca, NULL };
	char path[PATH_MAX], own[PATH_MAX];

	if (mkdir(class, 0755))
		return attrs_broken(ctx, "mkdir", class);
	if (!link_entries(ctx, ATTRS_SYS "/class/infiniband", class, skip))
		return false;
	if (!path_of(ctx, path, "%s/%s", class, ctx->target->ca))
		return false;
	if (symlink(real, path))
		return attrs_broken(ctx, "symlink", path);
	for (; *names; names++) {
		if (!to && !path_of(ctx, own, ATTRS_TYPES "/%s", *names))
			return false;
		if (!path_of(ctx, path, "%s/%s", class, *names) ||
		    (symlink(to ? to : own, path) &&
		     !attrs_broken(ctx, "symlink", path)))
			return false;
	}
	return !mount(class, RC_SYSFS_IB, NULL, MS_BIND, NULL) ||
	       attrs_broken(ctx, "bind mount over", RC_SYSFS_IB);
}

/*
 * The device under three names more: one of UMAD_CA_NAME_LEN - 1
 * characters, which fits a name array with its NUL, one a character
 * longer, and one of 63, as long as Linux's go.
 */
static const char *const long_names[] = { DEV_NAME_FITS, DEV_NAME_TOO_LONG,
					  DEV_NAME_LONGEST, NULL };

/*
 * One device more, DEV_NAME_ROCE_FIRST, whose name sorts before the
 * target's: the target as it really is (the second view of sysfs), RoCE
 * ports only, whatever the overlay made of the target itself.  A host's
 * first device is then one without an SMI.  Its GUIDs are the target's:
 * for rows that read names and link layers (two devices of one port GUID
 * are what upstream libibumad takes for a planarized device's SMI and
 * GSI halves).
 */
static const char *const roce_first[] = { DEV_NAME_ROCE_FIRST, NULL };

/*
 * ATTRS_NODE_TYPES: node_type as node_type_show (drivers/infiniband/core/
 * sysfs.c) prints each value of enum rdma_node_type, and the values
 * beyond it as it prints those ("<unknown>").
 */
static const char *const node_type_text[DEV_NODE_TYPES] = {
	"0: <unknown>\n", "1: CA\n",	      "2: switch\n",
	"3: router\n",	  "4: RNIC\n",	      "5: usNIC\n",
	"6: usNIC UDP\n", "7: unspecified\n", "8: <unknown>\n",
};

void dev_node_type_names(char names[][DEV_NODE_TYPE_NAME_LEN],
			 const char **list)
{
	int t;

	for (t = 0; t < DEV_NODE_TYPES; t++) {
		snprintf(names[t], DEV_NODE_TYPE_NAME_LEN,
			 DEV_NAME_NODE_TYPE "%d", t);
		list[t] = names[t];
	}
	list[DEV_NODE_TYPES] = DEV_NAME_NO_NODE_TYPE;
}

static bool node_type_devices(struct rc_ctx *ctx, const char *real)
{
	char names[DEV_NODE_TYPES][DEV_NODE_TYPE_NAME_LEN];
	const char *list[DEV_NODE_TYPES + 2] = { NULL };
	char path[PATH_MAX];
	int t;

	if (mkdir(ATTRS_TYPES, 0755))
		return attrs_broken(ctx, "mkdir", ATTRS_TYPES);
	dev_node_type_names(names, list);
	for (t = 0; t <= DEV_NODE_TYPES; t++) {
		if (!path_of(ctx, path, ATTRS_TYPES "/%s", list[t]) ||
		    (mkdir(path, 0755) && !attrs_broken(ctx, "mkdir", path)))
			return false;
		if (t < DEV_NODE_TYPES &&
		    (!path_of(ctx, path, ATTRS_TYPES "/%s/node_type",
			      list[t]) ||
		     !write_attr(ctx, path, node_type_text[t])))
			return false;
	}
	return class_with(ctx, real, list, NULL);
}

/* ATTRS_AS_FITS: this process's target is the device DEV_NAME_FITS; the
 * copy lives as long as the row's process */
static bool as_fits(struct rc_ctx *ctx)
{
	static struct rc_target fits;

	fits = *ctx->target;
	fits.ca = DEV_NAME_FITS;
	ctx->target = &fits;
	return true;
}

/* The highest port number in the ports directory @path, -1 for none. */
static int top_port(const char *path)
{
	struct dirent *e;
	DIR *d = opendir(path);
	int hi = -1;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.' && atoi(e->d_name) > hi)
			hi = atoi(e->d_name);
	closedir(d);
	return hi;
}

/*
 * The device's own directory (@real, under /sys; @src, the same in the
 * second view of sysfs) as @attrs says, bind-mounted over @real.
 */
static bool device_farm(struct rc_ctx *ctx, unsigned int attrs,
			const char *real, const char *src)
{
	/* what is not linked: the ports, made below, and what changes */
	const char *skip[5] = { "ports" };
	const char *ports = ATTRS_FARM "/ports";
	char path[PATH_MAX];
	int n = 1, hi, p;

	if (!path_of(ctx, path, "%s/ports", src))
		return false;
	hi = top_port(path);
	if (hi < 0)
		return attrs_broken(ctx, "no port in", src);
	if (mkdir(ATTRS_FARM, 0755) || mkdir(ports, 0755))
		return attrs_broken(ctx, "mkdir", ports);
	if (attrs & ATTRS_NO_VERSIONS) {
		skip[n++] = "fw_ver";
		skip[n++] = "hw_rev";
	}
	if (attrs & ATTRS_SWITCH)
		skip[n++] = "node_type";
	if (!link_entries(ctx, src, ATTRS_FARM, skip))
		return false;
	if (attrs & ATTRS_SWITCH) {
		/* the device's last port as the switch's port 0 */
		if (!write_attr(ctx, ATTRS_FARM "/node_type", "2: switch\n") ||
		    !port_of(ctx, src, hi, ports, 0, false, NULL))
			return false;
		hi = -1;
	}
	for (p = 0; p <= hi; p++) {
		if (!path_of(ctx, path, "%s/ports/%d", src, p))
			return false;
		if (!access(path, F_OK) &&
		    !port_of(ctx, src, p, ports, p,
			     attrs & ATTRS_RATE_UNREADABLE,
			     attrs & ATTRS_PORTS_DOWN ? port_down : NULL))
			return false;
	}
	if (attrs & (ATTRS_IB_PORT | ATTRS_PORT_LAST_FITS)) {
		/* after the last, or the last that umad_ca_t's ports[] holds */
		int as = attrs & ATTRS_IB_PORT ? hi + 1 : UMAD_CA_MAX_PORTS - 1;

		if (as <= hi) {
			errno = EEXIST;
			return attrs_broken(ctx, "the added port's number in",
					    ports);
		}
		if (!port_of(ctx, src, hi, ports, as, false, ib_port))
			return false;
		added_port = as;
	}
	return !mount(ATTRS_FARM, real, NULL, MS_BIND, NULL) ||
	       attrs_broken(ctx, "bind mount over", real);
}

/* the entries a port has in /sys/class/infiniband_mad: umadN, issmN */
#define MAD_ENTRIES_MAX 2

/* Entry @name of @src (of the target port) as a directory in @mad of
 * links to its attributes but port, which says @as. */
static bool mad_entry_moved(struct rc_ctx *ctx, const char *src,
			    const char *mad, const char *name, int as)
{
	static const char *const port[] = { "port", NULL };
	char from[PATH_MAX], dir[PATH_MAX], path[PATH_MAX], text[16];

	snprintf(text, sizeof(text), "%d\n", as);
	return path_of(ctx, from, "%s/%s", src, name) &&
	       path_of(ctx, dir, "%s/%s", mad, name) &&
	       (!mkdir(dir, 0755) || attrs_broken(ctx, "mkdir", dir)) &&
	       link_entries(ctx, from, dir, port) &&
	       path_of(ctx, path, "%s/port", dir) &&
	       write_attr(ctx, path, text);
}

/*
 * /sys/class/infiniband_mad in which the umad and issm devices of the
 * target port serve port @as (ATTRS_IB_PORT's) instead: each entry whose
 * ibdev and port name the target port is a directory of links to its
 * attributes with a port of its own; the device nodes stay the kernel's.
 * The target port is then one without a umad device, as an iWARP port
 * is (ib_umad makes one only for a port with MADs).
 */
static bool mad_moved(struct rc_ctx *ctx, int as)
{
	static const char *const mad = ATTRS_TOP "/mad";
	static const char *const src = ATTRS_SYS "/class/infiniband_mad";
	char names[MAD_ENTRIES_MAX][NAME_MAX + 1];
	const char *moved[MAD_ENTRIES_MAX + 1] = { NULL };
	struct dirent *e;
	int n = 0, i;
	DIR *d;

	if (!as) {
		errno = EINVAL;
		return attrs_broken(ctx, "no port added for", mad);
	}
	if (mkdir(mad, 0755))
		return attrs_broken(ctx, "mkdir", mad);
	d = opendir(src);
	if (!d)
		return attrs_broken(ctx, "opendir", src);
	while ((e = readdir(d)) && n < MAD_ENTRIES_MAX)
		if (dev_mad_port(e->d_name, ctx->target->ca) ==
		    ctx->target->port) {
			snprintf(names[n], sizeof(names[n]), "%s", e->d_name);
			moved[n] = names[n];
			n++;
		}
	closedir(d);
	if (!n) {
		errno = ENOENT;
		return attrs_broken(ctx, "no entry of the port in", src);
	}
	if (!link_entries(ctx, src, mad, moved))
		return false;
	for (i = 0; i < n; i++)
		if (!mad_entry_moved(ctx, src, mad, moved[i], as))
			return false;
	return !mount(mad, RC_SYSFS_MAD, NULL, MS_BIND, NULL) ||
	       attrs_broken(ctx, "bind mount over", RC_SYSFS_MAD);
}

/* /sys/class without infiniband, as a kernel without ib_core has it */
static bool no_class(struct rc_ctx *ctx)
{
	static const char *const skip[] = { "infiniband", NULL };
	const char *class = ATTRS_TOP "/sysclass";

	if (mkdir(class, 0755))
		return attrs_broken(ctx, "mkdir", class);
	return link_entries(ctx, ATTRS_SYS "/class", class, skip) &&
	       (!mount(class, "/sys/class", NULL, MS_BIND, NULL) ||
		attrs_broken(ctx, "bind mount over", "/sys/class"));
}

bool dev_attrs_overlay(struct rc_ctx *ctx, unsigned int attrs)
{
	char link[PATH_MAX], real[PATH_MAX], src[PATH_MAX];
	bool device = attrs & ~ATTRS_NO_CLASS;

	/* a row that changes nothing keeps the host's view */
	if (!attrs)
		return true;
	if (device) {
		if (!path_of(ctx, link, RC_SYSFS_IB "/%s", ctx->target->ca))
			return false;
		if (!realpath(link, real) || strncmp(real, "/sys/", 5))
			return attrs_broken(ctx, "realpath", link);
	}
	if (unshare(CLONE_NEWNS))
		return attrs_broken(ctx, "unshare", "CLONE_NEWNS");
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return attrs_broken(ctx, "make private", "/");
	if (mount("rdmaconf-attrs", ATTRS_TOP, "tmpfs", 0, "mode=0755"))
		return attrs_broken(ctx, "mount tmpfs", ATTRS_TOP);
	if (mkdir(ATTRS_SYS, 0755) || mount("sysfs", ATTRS_SYS, "sysfs", 0, 0))
		return attrs_broken(ctx, "mount sysfs", ATTRS_SYS);
	if (attrs & ATTRS_NO_CLASS)
		return no_class(ctx);
	return path_of(ctx, src, ATTRS_SYS "%s", real + 4) &&
	       device_farm(ctx, attrs, real, src) &&
	       (!(attrs & (ATTRS_LONG_NAMES | ATTRS_AS_FITS)) ||
		class_with(ctx, real, long_names, real)) &&
	       (!(attrs & ATTRS_ROCE_FIRST) ||
		class_with(ctx, real, roce_first, src)) &&
	       (!(attrs & ATTRS_NODE_TYPES) || node_type_devices(ctx, real)) &&
	       (!(attrs & ATTRS_AS_FITS) || as_fits(ctx)) &&
	       (!(attrs & ATTRS_MAD_MOVED) || mad_moved(ctx, added_port));
}
