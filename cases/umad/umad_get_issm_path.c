// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * umad_get_issm_path(3): "resolves path to issm device (which used for
 * setting/clearing PortInfo:CapMask IsSM bit) for portnum of the IB device
 * ca_name , it stores resolved path in path array which cannot exceed max
 * bytes in length (including NULL terminator)."  "returns 0 on success
 * and a negative value on error as follows: -ENODEV IB device can't be
 * resolved -EINVAL port is not valid (bad portnum or no umad device)"
 *
 * - the port under test: 0, and a path naming the issm character device
 *   that pairs with the port's umad device (issmN for umadN, user_mad.rst),
 *   which "Opening issm device sets PortInfo:CapMask IsSM bit and closing
 *   clears it": seen in the port's cap_mask (RC_SHARE_ISSM: one row at a
 *   time holds it)
 * - an unknown device: -ENODEV; a port the device lacks: -EINVAL
 * - with umad_attrs.c's InfiniBand port added and the target port's
 *   devices serving it: that port's issm device; the target port, which
 *   has no umad device left, -EINVAL
 * - NULL or port 0, the device's ports down: the path of the port that
 *   umad_open_port would resolve (interpretation), an ACTIVE one
 * - max exactly the path with its NUL: the whole path; a byte short
 *   (interpretation: fails), or too small for any path: not a byte past
 *   max is written
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "umad_dev.h"
#include "../../harness/device.h"

#define DOC                                                                 \
	"umad_get_issm_path() resolves path to issm device (which "         \
	"used for setting/clearing PortInfo:CapMask IsSM bit) for portnum " \
	"of the IB device ca_name, it stores resolved path in path array "  \
	"which cannot exceed max bytes in length (including NULL terminator)."
#define DOC_ENODEV "-ENODEV IB device can't be resolved"
#define DOC_EINVAL "-EINVAL port is not valid (bad portnum or no umad device)"

#define PATH_FILL 0x5a
#define PATH_MAX_ROW 64
/* max as the port's path: its length with the NUL, and without */
#define MAX_EXACT_FIT (-1)
#define MAX_ONE_SHORT (-2)

static const struct dev_row rows[] = {
	{ .c = { .id = "umad/get_issm_path/target-port",
		 .doc = DOC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the issm device that pairs with the port's umad "
			 "device; opened, the port's cap_mask has IsSM, closed "
			 "not",
		 .needs = NEEDS_UMAD,
		 .shares = RC_SHARE_ISSM,
		 .contract = { RC_RETURNS(0) } },
	  .ca = CA_TARGET,
	  .port = PORT_TARGET,
	  .max = PATH_MAX_ROW },
	{ .c = { .id = "umad/get_issm_path/unknown-device",
		 .doc = DOC_ENODEV,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS(ENODEV) } },
	  .ca = CA_BOGUS,
	  .port = 1,
	  .max = PATH_MAX_ROW },
	{ .c = { .id = "umad/get_issm_path/port-out-of-range",
		 .doc = DOC_EINVAL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS(EINVAL) } },
	  .ca = CA_TARGET,
	  .port = 99,
	  .max = PATH_MAX_ROW },
	{ .c = { .id = "umad/get_issm_path/added-infiniband-port",
		 .doc = DOC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a second port, of InfiniBand, whose umad and issm "
			 "devices sysfs names (the target port's, in the row's "
			 "own mount namespace): the issm device that pairs "
			 "with its umad device",
		 .needs = NEEDS_UMAD | NEEDS_ATTRS,
		 .contract = { RC_RETURNS(0) } },
	  .ca = CA_TARGET,
	  .port = PORT_ADDED,
	  .max = PATH_MAX_ROW,
	  .attrs = ATTRS_IB_PORT | ATTRS_MAD_MOVED },
	{ .c = { .id = "umad/get_issm_path/port-without-umad-device",
		 .doc = DOC_EINVAL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the target port, named, with no umad device (its "
			 "devices serve an InfiniBand port added after it, in "
			 "the row's own mount namespace)",
		 .needs = NEEDS_UMAD | NEEDS_ATTRS,
		 .contract = { RC_FAILS(EINVAL) } },
	  .ca = CA_TARGET,
	  .port = PORT_TARGET,
	  .max = PATH_MAX_ROW,
	  .attrs = ATTRS_IB_PORT | ATTRS_MAD_MOVED },
	{ .c = { .id = "umad/get_issm_path/library-selects-an-active-port-of-another-device",
		 .doc = DOC_ENODEV,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "NULL and 0, every port of the device under test down "
			 "(in the row's own mount namespace) and a second "
			 "device ACTIVE: the device and port are resolved as "
			 "umad_open_port's (SEE ALSO), to an ACTIVE port of the "
			 "other device, and the path is its issm device",
		 .needs = NEEDS_UMAD | NEEDS_ATTRS | RC_NEED_PEER,
		 .contract = { RC_RETURNS(0) } },
	  .ca = CA_NULL,
	  .port = 0,
	  .max = PATH_MAX_ROW,
	  .attrs = ATTRS_PORTS_DOWN },
	{ .c = { .id = "umad/get_issm_path/device-named-selects-its-active-port",
		 .doc = DOC_ENODEV,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the device's port 1 down, with no umad device, and "
			 "an InfiniBand port 2 ACTIVE with port 1's devices (in "
			 "the row's own mount namespace), named with port 0: "
			 "resolved as umad_open_port's, port 2, and the path "
			 "its issm device",
		 .needs = NEEDS_UMAD | NEEDS_ATTRS,
		 .contract = { RC_RETURNS(0) } },
	  .ca = CA_TARGET,
	  .port = 0,
	  .max = PATH_MAX_ROW,
	  .attrs = ATTRS_PORTS_DOWN | ATTRS_IB_PORT | ATTRS_MAD_MOVED },
	{ .c = { .id = "umad/get_issm_path/max-exact-fit",
		 .doc = DOC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "max the length of the port's path with its NUL "
			 "(/dev/infiniband/issmN): 0, the whole path, which "
			 "opened sets the port's IsSM",
		 .needs = NEEDS_UMAD,
		 .shares = RC_SHARE_ISSM,
		 .contract = { RC_RETURNS(0) } },
	  .ca = CA_TARGET,
	  .port = PORT_TARGET,
	  .max = MAX_EXACT_FIT },
	{ .c = { .id = "umad/get_issm_path/max-one-short",
		 .doc = DOC,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "max the length of the port's path without its NUL: "
			 "the path cannot be stored in max bytes with its NUL, "
			 "so the call fails (a cut path is not the resolved "
			 "path) and writes nothing past max",
		 .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS() } },
	  .ca = CA_TARGET,
	  .port = PORT_TARGET,
	  .max = MAX_ONE_SHORT },
	{ .c = { .id = "umad/get_issm_path/max-too-small",
		 .doc = DOC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "max 5: whatever it returns, nothing past 5 bytes",
		 .needs = NEEDS_UMAD,
		 .contract = { RC_ANY_RETURN } },
	  .ca = CA_TARGET,
	  .port = PORT_TARGET,
	  .max = 5 },
};

/* Did the kernel make issm@n (beside umad@n)? */
static bool issm_exists(int n)
{
	char path[64];

	snprintf(path, sizeof(path), RC_SYSFS_MAD "/issm%d", n);
	return !access(path, F_OK);
}

/* IsSM, bit 1 of PortInfo:CapabilityMask (IBA 14.2.5.6) */
#define CAP_IS_SM 0x2

/* the port's capability mask as sysfs shows it; -1 unreadable */
static long long cap_mask(struct rc_ctx *ctx, int port)
{
	char buf[32];

	if (dev_port_sysfs(ctx, port, "cap_mask", buf, sizeof(buf)))
		return -1;
	return strtoll(buf, NULL, 0);
}

/*
 * "Opening issm device sets PortInfo:CapMask IsSM bit and closing clears
 * it": the path resolved is the issm device of port @port, where the
 * effect lands (the kernel's port, as sysfs shows its capability mask).
 */
static void sets_is_sm(struct rc_ctx *ctx, const char *path, int port)
{
	long long before = cap_mask(ctx, port), held, after;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		rc_obs_violation(ctx->obs, "open of \"%.40s\": %m", path);
		return;
	}
	held = cap_mask(ctx, port);
	close(fd);
	after = cap_mask(ctx, port);
	if (before < 0 || (before & CAP_IS_SM) || !(held & CAP_IS_SM) ||
	    (after & CAP_IS_SM))
		rc_obs_violation(ctx->obs,
				 "port %d's cap_mask 0x%llx, 0x%llx with "
				 "\"%.40s\" open, 0x%llx after: not IsSM only "
				 "while it was open",
				 port, before, held, path, after);
}

/*
 * The umadN of the port the row's path is of, as sysfs has it: the port
 * named; with the device's ports down, the other device's ACTIVE port
 * when none is named, the added port when the device is named.
 */
static int expected_umad(const struct dev_row *row, struct rc_ctx *ctx)
{
	if (row->ca == CA_NULL && (row->attrs & ATTRS_PORTS_DOWN))
		return ctx->target->peer ?
			       dev_umad_index(ctx->target->peer,
					      ctx->target->peer_port) :
			       -1;
	if (row->ca == CA_TARGET && !row->port)
		return dev_umad_index(ctx->target->ca, dev_attrs_added_port());
	return dev_umad_index(ctx->target->ca, dev_row_port(row, ctx));
}

/* The row's max: its own, or the length of @want with its NUL or not */
static int max_of(const struct dev_row *row, const char *want)
{
	if (row->max == MAX_EXACT_FIT)
		return strlen(want) + 1;
	if (row->max == MAX_ONE_SHORT)
		return strlen(want);
	return row->max;
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct dev_row *row = r;
	char path[PATH_MAX_ROW + 8], want[64];
	struct stat st;
	int ret, n, max;

	if (!rc_need_call(ctx, ctx->ops->umad_get_issm_path,
			  "umad_get_issm_path"))
		return;
	if (!dev_attrs_overlay(ctx, row->attrs))
		return;
	n = expected_umad(row, ctx);
	snprintf(want, sizeof(want), "/dev/infiniband/issm%d", n);
	max = max_of(row, want);
	/* Linux 6.11 and later create an issm device only for a port with
	 * an SMI ("RDMA/core: Create "issm*" device nodes only when SMI is
	 * supported"): on RoCE there is none to resolve.  (On InfiniBand
	 * there always is; a simulator's sysfs may not show it.)  Only a
	 * max too small for any path asks nothing of the device. */
	if (max >= (int)strlen(want) && n >= 0 &&
	    !strcmp(ctx->target->link_layer, "Ethernet") && !issm_exists(n)) {
		rc_obs_state(ctx->obs, RC_STATE_UNSUPPORTED,
			     "the kernel made "
			     "no issm device for umad%d (since Linux 6.11, "
			     "only for a port with an SMI)",
			     n);
		return;
	}
	memset(path, PATH_FILL, sizeof(path));
	RC_OBSERVE(ctx, ret = ctx->ops->umad_get_issm_path(
				dev_row_ca(row, ctx), dev_row_port(row, ctx),
				path, max));
	if (path[max] != PATH_FILL) {
		rc_obs_violation(ctx->obs, "path wrote past max (%d bytes)",
				 max);
		return;
	}
	if (ret || max <= (int)strlen(want))
		return;
	if (!memchr(path, 0, max)) {
		rc_obs_violation(ctx->obs, "path not terminated");
		return;
	}
	if (n >= 0 && strcmp(path, want))
		rc_obs_violation(ctx->obs,
				 "path \"%.40s\", the port's umad "
				 "device is umad%d",
				 path, n);
	else if (stat(path, &st) || !S_ISCHR(st.st_mode))
		rc_obs_violation(ctx->obs,
				 "path \"%.40s\" is no character "
				 "device",
				 path);
	else if (row->c.shares & RC_SHARE_ISSM)
		sets_is_sm(ctx, path, dev_row_port(row, ctx));
	rc_obs_out(ctx->obs, path, strlen(path));
}

RC_TABLE_GROUP(group, "umad_get_issm_path", RC_CONV_NEG_ERRNO, "umad", rows,
	       run);
