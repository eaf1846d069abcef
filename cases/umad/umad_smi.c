// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * umad_open_smi_port(3), umad_get_smi_gsi_pairs(3),
 * umad_get_smi_gsi_pair_by_ca_name(3): documented by rdma-core after 44.0
 * (libibumad IBUMAD_1.3 and 1.4; Debian 13's 56.1 exports them).  On 44.0
 * they are ABSENT, as rdma-core.expect records with the version.  The
 * citations come from the pages of the upstream snapshot in
 * ../shared/fixtures (tests/e2e/test_citations.py).
 *
 * An SMI is the kernel's: ports of the InfiniBand link layer have one
 * (QP0, subnet management), RoCE ports none (rdma_cap_ib_smi()).
 *
 * - open_smi_port: an InfiniBand port opens (an umad device descriptor);
 *   a RoCE device, whose SMI port cannot be resolved, named with a port
 *   or not, and an unknown device: -ENODEV; a port number beyond the
 *   device's or any: -EINVAL.  With umad_attrs.c's InfiniBand port added
 *   after the target's RoCE port and the umad device moved to it, the
 *   InfiniBand port's device, whatever the library selects; the RoCE
 *   port of such a device: -EINVAL, with its umad device or without;
 *   the InfiniBand port without one: -EINVAL
 * - get_smi_gsi_pairs: max 0 fills nothing; a RoCE device is no pair; an
 *   InfiniBand device pairs with itself, on its active port, and so does
 *   a device with a RoCE port and an InfiniBand port, on the latter;
 *   every preferred port is one sysfs shows ACTIVE
 * - get_smi_gsi_pair_by_ca_name: an unknown device, a port beyond the
 *   device: 1; enforce_smi on RoCE: 1; RoCE without it: its GSI only; an
 *   InfiniBand port: SMI and GSI, the device itself, and so for the
 *   InfiniBand port of a device whose other port is RoCE
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "umad_dev.h"

#define DOC_OPEN_RET                                            \
	"umad_open_smi_port() returns 0 or an unique positive " \
	"value of umad device descriptor on success"
#define DOC_OPEN                                                     \
	"umad_open_smi_port() opens the SMI port portnum of the IB " \
	"device ca_name for umad access."
#define DOC_OPEN_SELECTS                                                   \
	"The port is selected by the library if not all parameters are "   \
	"provided (see umad_get_port() for details). Only SMI ports will " \
	"be selected."
#define DOC_OPEN_ENODEV "-ENODEV IB device with SMI port can't be resolved"
#define DOC_OPEN_EINVAL \
	"-EINVAL port is not valid (bad portnum or no umad device)"
#define DOC_PAIRS                                                   \
	"umad_get_smi_gsi_pairs() fills a user-allocated array of " \
	"struct umad_ca_pair. It fills up to max devices."
#define DOC_PAIRS_PORT                                                         \
	"The smi_preferred_port and gsi_preferred_port "                       \
	"fields represent the first ports found active for the corresponding " \
	"SMI/GSI device."
#define DOC_PAIRS_RET                                     \
	"umad_get_smi_gsi_pairs() returns the number of " \
	"devices filled, or -1 on error."
#define DOC_BY_NAME                                                             \
	"umad_get_smi_gsi_pair_by_ca_name() fills the provided "                \
	"ca structure with the SMI and GSI pair information for the specified " \
	"device name and port number."
#define DOC_BY_NAME_NONE "1: If no matching device or port is found."
#define DOC_ENFORCE                                             \
	"enforce_smi parameter if enabled, will look only for " \
	"pairs that has both SMI and GSI interfaces."

#define NOTE_ROCE                                                          \
	"the kernel gives a RoCE port no SMI (no QP0; "                    \
	"rdma_cap_ib_smi() is false, and since Linux 6.11 it has no issm " \
	"device)"

/* umad_attrs.c's InfiniBand port, with the target port's devices */
#define NOTE_MOVED                                                           \
	"which has the umad device that served the RoCE port (in the row's " \
	"own mount namespace; the RoCE port has none)"

/* by_name rows pass their enforce_smi as .max (0 or 1) */

/* more pairs than a test host has CAs */
#define MAX_PAIRS 16

static dev_check opens_smi_port, fills_nothing, no_pair_for_roce,
	pairs_with_itself, preferred_ports_active, by_name, by_name_gsi_only,
	by_name_both;

static const struct dev_row open_rows[] = {
	{ .c = { .id = "umad/open_smi_port/infiniband-port",
		 .doc = DOC_OPEN_RET,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the target port, of the InfiniBand link layer: a "
			 "descriptor umad_close_port closes",
		 .needs = NEEDS_UMAD | RC_NEED_IB,
		 .contract = { RC_SUCCEEDS } },
	  .ca = CA_TARGET,
	  .port = PORT_TARGET,
	  .check = opens_smi_port },
	{ .c = { .id = "umad/open_smi_port/roce-device",
		 .doc = DOC_OPEN_ENODEV,
		 .basis = RC_BASIS_LINUX,
		 .note = NOTE_ROCE
		 ", so the target, "
		 "with no port but RoCE ones, is a device whose SMI port can't "
		 "be resolved",
		 .needs = NEEDS_UMAD | RC_NEED_ROCE,
		 .contract = { RC_FAILS(ENODEV) } },
	  .ca = CA_TARGET,
	  .port = 0,
	  .check = opens_smi_port },
	{ .c = { .id = "umad/open_smi_port/roce-port-named",
		 .doc = DOC_OPEN_ENODEV,
		 .basis = RC_BASIS_LINUX,
		 .note = NOTE_ROCE
		 ", so the target, named with its RoCE port's number, is "
		 "still a device whose SMI port can't be resolved (a GSI port "
		 "is no SMI port)",
		 .needs = NEEDS_UMAD | RC_NEED_ROCE,
		 .contract = { RC_FAILS(ENODEV) } },
	  .ca = CA_TARGET,
	  .port = PORT_TARGET,
	  .check = opens_smi_port },
	{ .c = { .id = "umad/open_smi_port/library-selects-the-infiniband-port",
		 .doc = DOC_OPEN_SELECTS,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "NULL and port 0, the target device with a RoCE port "
			 "and an InfiniBand port after it, " NOTE_MOVED
			 ": the InfiniBand port's umad device",
		 .needs = NEEDS_UMAD | NEEDS_ATTRS,
		 .contract = { RC_SUCCEEDS } },
	  .ca = CA_NULL,
	  .port = 0,
	  .check = opens_smi_port,
	  .attrs = ATTRS_IB_PORT | ATTRS_MAD_MOVED },
	{ .c = { .id = "umad/open_smi_port/library-selects-past-a-roce-device",
		 .doc = DOC_OPEN_SELECTS,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "NULL and port 0 on a host whose first device by name "
			 "has RoCE ports only (" DEV_NAME_ROCE_FIRST "), then "
			 "the target, with an InfiniBand port after its RoCE "
			 "port, " NOTE_MOVED ": the InfiniBand port's umad "
			 "device",
		 .needs = NEEDS_UMAD | NEEDS_ATTRS,
		 .contract = { RC_SUCCEEDS } },
	  .ca = CA_NULL,
	  .port = 0,
	  .check = opens_smi_port,
	  .attrs = ATTRS_IB_PORT | ATTRS_MAD_MOVED | ATTRS_ROCE_FIRST },
	{ .c = { .id = "umad/open_smi_port/port-named-library-selects-past-a-roce-device",
		 .doc = DOC_OPEN_SELECTS,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "NULL and the InfiniBand port's number on a host whose "
			 "first device by name has RoCE ports only (" DEV_NAME_ROCE_FIRST
			 "), then the target, " NOTE_MOVED
			 ": the target's InfiniBand port's umad device",
		 .needs = NEEDS_UMAD | NEEDS_ATTRS,
		 .contract = { RC_SUCCEEDS } },
	  .ca = CA_NULL,
	  .port = PORT_ADDED,
	  .check = opens_smi_port,
	  .attrs = ATTRS_IB_PORT | ATTRS_MAD_MOVED | ATTRS_ROCE_FIRST },
	{ .c = { .id = "umad/open_smi_port/device-named-library-selects-its-port",
		 .doc = DOC_OPEN_SELECTS,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the target device, port 0: of its RoCE port and the "
			 "InfiniBand port after it, " NOTE_MOVED
			 ", the InfiniBand port's umad device",
		 .needs = NEEDS_UMAD | NEEDS_ATTRS,
		 .contract = { RC_SUCCEEDS } },
	  .ca = CA_TARGET,
	  .port = 0,
	  .check = opens_smi_port,
	  .attrs = ATTRS_IB_PORT | ATTRS_MAD_MOVED },
	{ .c = { .id = "umad/open_smi_port/port-named-library-selects-its-device",
		 .doc = DOC_OPEN_SELECTS,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "NULL and the number of the InfiniBand port added "
			 "after the target's RoCE port, " NOTE_MOVED
			 ": the device selected is the target, the descriptor "
			 "its InfiniBand port's umad device",
		 .needs = NEEDS_UMAD | NEEDS_ATTRS,
		 .contract = { RC_SUCCEEDS } },
	  .ca = CA_NULL,
	  .port = PORT_ADDED,
	  .check = opens_smi_port,
	  .attrs = ATTRS_IB_PORT | ATTRS_MAD_MOVED },
	{ .c = { .id = "umad/open_smi_port/infiniband-port-named",
		 .doc = DOC_OPEN,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the target device and the InfiniBand port added "
			 "after its RoCE port, " NOTE_MOVED
			 ": that port's umad device",
		 .needs = NEEDS_UMAD | NEEDS_ATTRS,
		 .contract = { RC_SUCCEEDS } },
	  .ca = CA_TARGET,
	  .port = PORT_ADDED,
	  .check = opens_smi_port,
	  .attrs = ATTRS_IB_PORT | ATTRS_MAD_MOVED },
	{ .c = { .id = "umad/open_smi_port/infiniband-port-without-umad-device",
		 .doc = DOC_OPEN_EINVAL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the InfiniBand port added after the target's RoCE "
			 "port, named, with no umad device of its own (in the "
			 "row's own mount namespace)",
		 .needs = NEEDS_UMAD | NEEDS_ATTRS,
		 .contract = { RC_FAILS(EINVAL) } },
	  .ca = CA_TARGET,
	  .port = PORT_ADDED,
	  .check = opens_smi_port,
	  .attrs = ATTRS_IB_PORT },
	{ .c = { .id = "umad/open_smi_port/roce-port-of-a-device-with-an-smi",
		 .doc = DOC_OPEN,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the target device, whose RoCE port has an InfiniBand "
			 "port after it (in the row's own mount namespace), "
			 "named with the RoCE port's number: that port has a "
			 "umad device but no SMI, so it is not valid as \"the "
			 "SMI port portnum\" (-EINVAL)",
		 .needs = NEEDS_UMAD | NEEDS_ATTRS,
		 .contract = { RC_FAILS(EINVAL) } },
	  .ca = CA_TARGET,
	  .port = PORT_TARGET,
	  .check = opens_smi_port,
	  .attrs = ATTRS_IB_PORT },
	{ .c = { .id = "umad/open_smi_port/port-the-device-lacks",
		 .doc = DOC_OPEN_EINVAL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "port 9 of the target, which has an SMI port (an "
			 "InfiniBand port added after its RoCE port, " NOTE_MOVED
			 ") but no port 9",
		 .needs = NEEDS_UMAD | NEEDS_ATTRS,
		 .contract = { RC_FAILS(EINVAL) } },
	  .ca = CA_TARGET,
	  .port = 9,
	  .check = opens_smi_port,
	  .attrs = ATTRS_IB_PORT | ATTRS_MAD_MOVED },
	{ .c = { .id = "umad/open_smi_port/port-out-of-range",
		 .doc = DOC_OPEN_EINVAL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "port 99, beyond any device's",
		 .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS(EINVAL) } },
	  .ca = CA_TARGET,
	  .port = 99,
	  .check = opens_smi_port },
	{ .c = { .id = "umad/open_smi_port/negative-port",
		 .doc = DOC_OPEN_EINVAL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS(EINVAL) } },
	  .ca = CA_TARGET,
	  .port = -1,
	  .check = opens_smi_port },
	{ .c = { .id = "umad/open_smi_port/unknown-device",
		 .doc = DOC_OPEN_ENODEV,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS(ENODEV) } },
	  .ca = CA_BOGUS,
	  .port = 0,
	  .check = opens_smi_port },
};

static const struct dev_row pairs_rows[] = {
	{ .c = { .id = "umad/get_smi_gsi_pairs/max-zero",
		 .doc = DOC_PAIRS,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "up to 0 devices: returns 0 and writes no byte of the "
			 "array",
		 .needs = NEEDS_CA,
		 .contract = { RC_RETURNS(0) } },
	  .max = 0,
	  .check = fills_nothing },
	{ .c = { .id = "umad/get_smi_gsi_pairs/roce-device-is-no-pair",
		 .doc = DOC_PAIRS_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = NOTE_ROCE
		 ": a device with no SMI is no SMI/GSI pair, "
		 "as upstream's \"libibumad: exclude Ethernet ports "
		 "from SMI/GSI pairs\" reads it; no pair names the "
		 "target",
		 .needs = NEEDS_UMAD | RC_NEED_ROCE,
		 .contract = { RC_SUCCEEDS } },
	  .max = MAX_PAIRS,
	  .check = no_pair_for_roce },
	{ .c = { .id = "umad/get_smi_gsi_pairs/infiniband-device-pairs-with-itself",
		 .doc = DOC_PAIRS_PORT,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "a CA that is its own SMI and GSI (no planarized "
			 "device): one pair naming it twice, both preferred "
			 "ports its first active port, the target port",
		 .needs = NEEDS_UMAD | RC_NEED_IB,
		 .contract = { RC_SUCCEEDS } },
	  .max = MAX_PAIRS,
	  .check = pairs_with_itself },

	{ .c = { .id = "umad/get_smi_gsi_pairs/vpi-device-pairs-on-its-infiniband-port",
		 .doc = DOC_PAIRS_PORT,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the target with an InfiniBand port after its RoCE "
			 "port (in the row's own mount namespace), both ACTIVE: "
			 "one pair naming it twice, both preferred ports the "
			 "InfiniBand port (an Ethernet port is no part of an "
			 "SMI/GSI pair, as upstream's \"libibumad: exclude "
			 "Ethernet ports from SMI/GSI pairs\" reads it)",
		 .needs = NEEDS_UMAD | NEEDS_ATTRS,
		 .contract = { RC_SUCCEEDS } },
	  .max = MAX_PAIRS,
	  .check = pairs_with_itself,
	  .attrs = ATTRS_IB_PORT },
	{ .c = { .id = "umad/get_smi_gsi_pairs/preferred-ports-are-active",
		 .doc = DOC_PAIRS_PORT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the target with an InfiniBand port after its RoCE "
			 "port (in the row's own mount namespace): in every "
			 "pair that names it, each preferred port is a port "
			 "of it that sysfs shows ACTIVE",
		 .needs = NEEDS_UMAD | NEEDS_ATTRS,
		 .contract = { RC_SUCCEEDS } },
	  .max = MAX_PAIRS,
	  .check = preferred_ports_active,
	  .attrs = ATTRS_IB_PORT },
};

static const struct dev_row by_name_rows[] = {
	{ .c = { .id = "umad/get_smi_gsi_pair_by_ca_name/unknown-device",
		 .doc = DOC_BY_NAME_NONE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the pair untouched",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(1) } },
	  .ca = CA_BOGUS,
	  .port = 1,
	  .check = by_name },
	{ .c = { .id = "umad/get_smi_gsi_pair_by_ca_name/port-beyond-device",
		 .doc = DOC_BY_NAME_NONE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "port 9 of a device of one or two ports: no such port",
		 .needs = NEEDS_CA,
		 .contract = { RC_RETURNS(1) } },
	  .ca = CA_TARGET,
	  .port = 9,
	  .check = by_name },
	{ .c = { .id = "umad/get_smi_gsi_pair_by_ca_name/enforce-smi-on-roce",
		 .doc = DOC_ENFORCE,
		 .basis = RC_BASIS_LINUX,
		 .note = NOTE_ROCE ": with enforce_smi, no pair has both, so "
				   "none matches (1)",
		 .needs = NEEDS_UMAD | RC_NEED_ROCE,
		 .contract = { RC_RETURNS(1) } },
	  .ca = CA_TARGET,
	  .port = PORT_TARGET,
	  .max = 1,
	  .check = by_name },
	{ .c = { .id = "umad/get_smi_gsi_pair_by_ca_name/roce-gsi-only",
		 .doc = DOC_BY_NAME,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = NOTE_ROCE
		 ": without enforce_smi, the GSI is the "
		 "target on the target port, the SMI name empty and its "
		 "port 0",
		 .needs = NEEDS_UMAD | RC_NEED_ROCE,
		 .contract = { RC_RETURNS(0) } },
	  .ca = CA_TARGET,
	  .port = PORT_TARGET,
	  .check = by_name_gsi_only },
	{ .c = { .id = "umad/get_smi_gsi_pair_by_ca_name/infiniband-port",
		 .doc = DOC_BY_NAME,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "an InfiniBand port of a CA that is its own SMI and "
			 "GSI, with enforce_smi: both names the target, both "
			 "ports the target port",
		 .needs = NEEDS_UMAD | RC_NEED_IB,
		 .contract = { RC_RETURNS(0) } },
	  .ca = CA_TARGET,
	  .port = PORT_TARGET,
	  .max = 1,
	  .check = by_name_both },
	{ .c = { .id = "umad/get_smi_gsi_pair_by_ca_name/vpi-infiniband-port",
		 .doc = DOC_BY_NAME,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the InfiniBand port added after the target's RoCE "
			 "port (in the row's own mount namespace), with "
			 "enforce_smi: both names the target, both ports that "
			 "port",
		 .needs = NEEDS_UMAD | NEEDS_ATTRS,
		 .contract = { RC_RETURNS(0) } },
	  .ca = CA_TARGET,
	  .port = PORT_ADDED,
	  .max = 1,
	  .check = by_name_both,
	  .attrs = ATTRS_IB_PORT },
};

static void opens_smi_port(const struct dev_row *row, struct rc_ctx *ctx)
{
	char name[UMAD_CA_NAME_LEN] = "";
	const char *ca = dev_row_ca(row, ctx);
	int fd;

	if (!rc_need_call(ctx, ctx->ops->umad_open_smi_port,
			  "umad_open_smi_port"))
		return;
	if (ca)
		snprintf(name, sizeof(name), "%s", ca);
	RC_OBSERVE(ctx, fd = ctx->ops->umad_open_smi_port(
				ca ? name : NULL, dev_row_port(row, ctx)));
	/* with the target port's devices moved to the InfiniBand port, it
	 * is the one SMI port there is, whichever parameters were given */
	if (fd >= 0 && (row->attrs & ATTRS_MAD_MOVED))
		dev_check_umad_fd(ctx, fd, ctx->target->ca,
				  dev_attrs_added_port());
	/* a umad device descriptor is one umad_close_port closes (under
	 * ibsim it is umad2sim's, no open file of the process) */
	if (fd >= 0 && ctx->ops->umad_close_port(fd))
		rc_obs_violation(ctx->obs, "umad_close_port(%d) failed", fd);
}

static int pairs(struct rc_ctx *ctx, struct rc_umad_ca_pair *p, int max)
{
	int n;

	if (!rc_need_call(ctx, ctx->ops->umad_get_smi_gsi_pairs,
			  "umad_get_smi_gsi_pairs"))
		return -1;
	memset(p, 0xa5, sizeof(*p) * MAX_PAIRS);
	RC_OBSERVE(ctx, n = ctx->ops->umad_get_smi_gsi_pairs(p, max));
	return n;
}

static void fills_nothing(const struct dev_row *row, struct rc_ctx *ctx)
{
	struct rc_umad_ca_pair p[MAX_PAIRS], fill;

	if (pairs(ctx, p, row->max) < 0)
		return;
	memset(&fill, 0xa5, sizeof(fill));
	if (memcmp(&p[0], &fill, sizeof(fill)))
		rc_obs_violation(ctx->obs, "wrote into the array");
}

static void no_pair_for_roce(const struct dev_row *row, struct rc_ctx *ctx)
{
	struct rc_umad_ca_pair p[MAX_PAIRS];
	int n = pairs(ctx, p, row->max), i;

	for (i = 0; i < n && i < MAX_PAIRS; i++)
		if (!strcmp(p[i].smi_name, ctx->target->ca) ||
		    !strcmp(p[i].gsi_name, ctx->target->ca))
			rc_obs_violation(ctx->obs,
					 "pair %d names %s (SMI '%.20s', "
					 "port %u)",
					 i, ctx->target->ca, p[i].smi_name,
					 p[i].smi_preferred_port);
}

/* The port a pair row is about: the InfiniBand port the overlay added,
 * or the target port */
static int pair_port(const struct dev_row *row, struct rc_ctx *ctx)
{
	return row->attrs & ATTRS_IB_PORT ? dev_attrs_added_port() :
					    ctx->target->port;
}

/* @p names the target as SMI (when @smi) and GSI on port @port */
static void is_target_pair(struct rc_ctx *ctx, const struct rc_umad_ca_pair *p,
			   bool smi, int port)
{
	struct rc_umad_ca_pair want = { 0 };

	snprintf(want.gsi_name, sizeof(want.gsi_name), "%s", ctx->target->ca);
	want.gsi_preferred_port = port;
	if (smi) {
		snprintf(want.smi_name, sizeof(want.smi_name), "%s",
			 ctx->target->ca);
		want.smi_preferred_port = port;
	}
	if (strcmp(p->gsi_name, want.gsi_name) ||
	    strcmp(p->smi_name, want.smi_name) ||
	    p->gsi_preferred_port != want.gsi_preferred_port ||
	    p->smi_preferred_port != want.smi_preferred_port)
		rc_obs_violation(ctx->obs,
				 "SMI '%.20s' port %u, GSI '%.20s' "
				 "port %u; want SMI '%s' port %u, GSI '%s' "
				 "port %u",
				 p->smi_name, p->smi_preferred_port,
				 p->gsi_name, p->gsi_preferred_port,
				 want.smi_name, want.smi_preferred_port,
				 want.gsi_name, want.gsi_preferred_port);
}

static void pairs_with_itself(const struct dev_row *row, struct rc_ctx *ctx)
{
	struct rc_umad_ca_pair p[MAX_PAIRS];
	int n = pairs(ctx, p, row->max), i;

	for (i = 0; i < n && i < MAX_PAIRS; i++)
		if (!strcmp(p[i].gsi_name, ctx->target->ca)) {
			is_target_pair(ctx, &p[i], true, pair_port(row, ctx));
			return;
		}
	if (n >= 0)
		rc_obs_violation(ctx->obs, "no pair of the %d names %s", n,
				 ctx->target->ca);
}

static void preferred_ports_active(const struct dev_row *row,
				   struct rc_ctx *ctx)
{
	struct rc_umad_ca_pair p[MAX_PAIRS];
	int n = pairs(ctx, p, row->max), i;

	for (i = 0; i < n && i < MAX_PAIRS; i++) {
		if (!strcmp(p[i].smi_name, ctx->target->ca) &&
		    !dev_port_active(ctx->target->ca, p[i].smi_preferred_port))
			rc_obs_violation(ctx->obs,
					 "pair %d: SMI %s's preferred port "
					 "%u is no ACTIVE port of it",
					 i, ctx->target->ca,
					 p[i].smi_preferred_port);
		if (!strcmp(p[i].gsi_name, ctx->target->ca) &&
		    !dev_port_active(ctx->target->ca, p[i].gsi_preferred_port))
			rc_obs_violation(ctx->obs,
					 "pair %d: GSI %s's preferred port "
					 "%u is no ACTIVE port of it",
					 i, ctx->target->ca,
					 p[i].gsi_preferred_port);
	}
}

static int pair_by_name(const struct dev_row *row, struct rc_ctx *ctx,
			struct rc_umad_ca_pair *p)
{
	int ret;

	if (!rc_need_call(ctx, ctx->ops->umad_get_smi_gsi_pair_by_ca_name,
			  "umad_get_smi_gsi_pair_by_ca_name"))
		return -1;
	memset(p, 0xa5, sizeof(*p));
	RC_OBSERVE(ctx, ret = ctx->ops->umad_get_smi_gsi_pair_by_ca_name(
				dev_row_ca(row, ctx), dev_row_port(row, ctx), p,
				row->max));
	return ret;
}

static void by_name(const struct dev_row *row, struct rc_ctx *ctx)
{
	struct rc_umad_ca_pair p;

	pair_by_name(row, ctx, &p);
}

static void by_name_gsi_only(const struct dev_row *row, struct rc_ctx *ctx)
{
	struct rc_umad_ca_pair p;

	if (!pair_by_name(row, ctx, &p))
		is_target_pair(ctx, &p, false, pair_port(row, ctx));
}

static void by_name_both(const struct dev_row *row, struct rc_ctx *ctx)
{
	struct rc_umad_ca_pair p;

	if (!pair_by_name(row, ctx, &p))
		is_target_pair(ctx, &p, true, pair_port(row, ctx));
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct dev_row *row = r;
	const struct rc_ops *ops = ctx->ops;

	/* each check needs its own call: one the library lacks is ABSENT
	 * by its name */
	if (!rc_need_call(ctx, ops->umad_close_port, "umad_close_port") ||
	    !dev_attrs_overlay(ctx, row->attrs))
		return;
	row->check(row, ctx);
}

RC_TABLE_GROUP(open_group, "umad_open_smi_port", RC_CONV_NEG_ERRNO, "umad",
	       open_rows, run);

RC_TABLE_GROUP(pairs_group, "umad_get_smi_gsi_pairs", RC_CONV_NEG, "umad",
	       pairs_rows, run);

/* 0 found, 1 not found: a plain value */
RC_TABLE_GROUP(by_name_group, "umad_get_smi_gsi_pair_by_ca_name", RC_CONV_VALUE,
	       "umad", by_name_rows, run);
