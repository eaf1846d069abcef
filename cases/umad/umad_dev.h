/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Shared by the device rows of libibumad (discovery, ports, open/close). */
#ifndef RDMACONF_CASES_UMAD_DEV_H
#define RDMACONF_CASES_UMAD_DEV_H

#include <errno.h>

#include "umad_hdr.h"

#define NEEDS_UMAD (RC_NEED_DEVICE | RC_NEED_UMAD)
/* A row about the target device itself as libibumad sees it: a CA, which
 * an iWARP RNIC is not (libibumad's discovery reads the port's P_Keys,
 * which iWARP ports have none of) */
#define NEEDS_CA (RC_NEED_DEVICE | RC_NEED_CA)

/* Which CA name a row passes. */
enum ca_arg { CA_TARGET, CA_NULL, CA_BOGUS };
#define BOGUS_CA "rdmaconf_nosuchdev"
/* what out-parameters hold before a call: no right answer is all 0xa5 */
#define OUT_PARAM_FILL 0xa5
/* Which port number a row passes; others are literal. */
#define PORT_TARGET (-1000)
/* the port ATTRS_IB_PORT added (dev_attrs_overlay) */
#define PORT_ADDED (-1001)

/* The device's attributes as other drivers present them (umad_attrs.c),
 * bits of dev_row.attrs: no fw_ver and no hw_rev; each port's rate
 * unreadable; a port more, after the last, of the InfiniBand link layer;
 * a switch, whose only port is port 0; names of the device that fit
 * UMAD_CA_NAME_LEN exactly, by one character not, and as long as Linux
 * allows; no /sys/class/infiniband at all (no device needed); every
 * port of the device down; ATTRS_IB_PORT's port numbered
 * UMAD_CA_MAX_PORTS - 1, the last umad_ca_t's ports[] holds; with
 * ATTRS_IB_PORT, the target port's umad and issm devices serving the
 * added port, the target port left with none; a device more, whose name
 * sorts first, the target as it really is; a device more for each
 * node_type and one without it; the target by the name that fits. */
enum dev_attrs {
	ATTRS_NO_VERSIONS = 1 << 0,
	ATTRS_RATE_UNREADABLE = 1 << 1,
	ATTRS_IB_PORT = 1 << 2,
	ATTRS_SWITCH = 1 << 3,
	ATTRS_LONG_NAMES = 1 << 4,
	ATTRS_NO_CLASS = 1 << 5,
	ATTRS_PORTS_DOWN = 1 << 6,
	ATTRS_PORT_LAST_FITS = 1 << 7,
	ATTRS_MAD_MOVED = 1 << 8,
	ATTRS_ROCE_FIRST = 1 << 9,
	ATTRS_NODE_TYPES = 1 << 10,
	ATTRS_AS_FITS = 1 << 11,
};
/* ATTRS_NODE_TYPES: a device more for each node_type from 0 to
 * DEV_NODE_TYPES - 1, named DEV_NAME_NODE_TYPE and the number, and one,
 * DEV_NAME_NO_NODE_TYPE, without the attribute: each a directory of that
 * one file.  Those of 1 to 3 (IBA NodeInfo:NodeType: CA, switch,
 * router) are the IB devices among them. */
#define DEV_NODE_TYPES 9
#define DEV_NAME_NODE_TYPE "rdmaconf_nt"
#define DEV_NAME_NO_NODE_TYPE "rdmaconf_nt_none"
#define DEV_NODE_TYPE_NAME_LEN (sizeof(DEV_NAME_NODE_TYPE) + 4)
/* The devices' names in @names, and in @list the DEV_NODE_TYPES + 1 of
 * them: those of node_type 0 up, then the one without */
void dev_node_type_names(char names[][DEV_NODE_TYPE_NAME_LEN],
			 const char **list);
/* ATTRS_AS_FITS (ATTRS_LONG_NAMES with it): the row's process names the
 * target DEV_NAME_FITS from then on, as the call under test and the
 * checks against sysfs; a name that fills UMAD_CA_NAME_LEN with its NUL.
 * Its umad devices still name the target by its own name (ibdev). */
#define NOTE_AS_FITS                                                          \
	"the device under a name of UMAD_CA_NAME_LEN - 1 characters (in the " \
	"row's own mount namespace), which fills a name array with its NUL: "
/* ATTRS_ROCE_FIRST: a device more, before the target by name, that is the
 * target as it really is (RoCE ports only) */
#define DEV_NAME_ROCE_FIRST "rdmaconf_roce0"
/* ATTRS_LONG_NAMES: the device under three names more, one that fits
 * char [UMAD_CA_NAME_LEN] with its NUL, exactly, and two that do not */
#define DEV_NAME_FITS "rdmaconf_name_fits1"
#define DEV_NAME_TOO_LONG "rdmaconf_name_is_20c"
/* and one as long as Linux's go (IB_DEVICE_NAME_MAX, 64 with the NUL) */
#define DEV_NAME_LONGEST                                                \
	"rdmaconf_name_as_long_as_linux_allows_sixty_three_characters_" \
	"xy"
_Static_assert(sizeof(DEV_NAME_FITS) == UMAD_CA_NAME_LEN, "an exact fit");
_Static_assert(sizeof(DEV_NAME_TOO_LONG) == UMAD_CA_NAME_LEN + 1,
	       "one character too long");
_Static_assert(sizeof(DEV_NAME_LONGEST) == 64, "Linux's longest");
/* Rows that change what the device shows: root, for a mount namespace,
 * and the kernel's sysfs to change */
#define NEEDS_ATTRS (NEEDS_CA | RC_NEED_ROOT | RC_NEED_SYSFS)
/* and ATTRS_NO_CLASS, which hides every device, needs none */
#define NEEDS_NO_CLASS (RC_NEED_ROOT | RC_NEED_SYSFS)

struct dev_row;
/* A row's behaviour, in the files whose rows differ in more than their
 * arguments (umad_open_port, umad_close_port). */
typedef void dev_check(const struct dev_row *row, struct rc_ctx *ctx);

struct dev_row {
	struct rc_case c;
	enum ca_arg ca;
	int port;
	int max; /* umad_get_cas_names' max */
	dev_check *check;
	bool every_field; /* umad_get_port, umad_get_ca: all of sysfs */
	unsigned int attrs; /* enum dev_attrs: what the device shows */
};

const char *dev_row_ca(const struct dev_row *row, struct rc_ctx *ctx);
int dev_row_port(const struct dev_row *row, struct rc_ctx *ctx);
/* sysfs attribute of the target device (port 0: of the device) */
int dev_sysfs(struct rc_ctx *ctx, int port, const char *attr, char *buf,
	      size_t len);
/* sysfs attribute of port @port of the target device, port 0 a switch's */
int dev_port_sysfs(struct rc_ctx *ctx, int port, const char *attr, char *buf,
		   size_t len);
/* Every field of @port (port @p of the target device; @pre names it in
 * the violations) or of @ca, against sysfs (umad_sysfs.c). */
void dev_check_port(struct rc_ctx *ctx, int p, const umad_port_t *port,
		    const char *pre);
void dev_check_ca(struct rc_ctx *ctx, const umad_ca_t *ca);
/* The port whose umad or issm device /sys/class/infiniband_mad/@name is,
 * its device's name into @ca (@len bytes); -1 when @name is none. */
int dev_mad_entry(const char *name, char *ca, size_t len);
/* The same port when the entry is one of device @ca; -1 otherwise. */
int dev_mad_port(const char *name, const char *ca);
/* Port @port of device @ca is ACTIVE ("4: ACTIVE") in sysfs. */
bool dev_port_active(const char *ca, int port);
/* umad_close_port of the implementation under test on each of the @n
 * handles @fd, each of which must close with 0 */
void dev_close_each(struct rc_ctx *ctx, const int *fd, int n);
/* Fill the stack below the caller with OUT_PARAM_FILL: a local the next
 * call reads before it writes holds that, not what an earlier call left
 * (a verdict that would change with the build) */
void dev_dirty_stack(void);
/* The N of the umadN of port @port of device @ca, by sysfs; -1: none. */
int dev_umad_index(const char *ca, int port);
/* @fd is the umad device of port @port of @ca (/dev/infiniband/umadN, N
 * as sysfs says), open for reading and writing. */
void dev_check_umad_fd(struct rc_ctx *ctx, int fd, const char *ca, int port);
/* In the row's process only: the target device's sysfs as @attrs says
 * (umad_attrs.c; nothing for 0); false, and the row BROKEN, when it
 * cannot be made. */
bool dev_attrs_overlay(struct rc_ctx *ctx, unsigned int attrs);
/* The number of the port ATTRS_IB_PORT added, 0 before. */
int dev_attrs_added_port(void);

#endif
