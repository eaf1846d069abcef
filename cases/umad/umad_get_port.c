// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * umad_get_port(3): "fills the port structure with the IB port attributes
 * specified by ca_name and portnum, or the default port if ca_name is NULL
 * and portnum is zero.  If only one of ca_name and portnum are specified,
 * the other is used as a filter."  "return 0 on success, and a negative
 * value on error."
 *
 * - the port under test: state ACTIVE (4), link layer, and the GID table's
 *   entry 0 as gid_prefix and port_guid, as sysfs has them
 * - NULL and 0: a default port; the device named with port 0 is a filter
 * - the port under test, and the one the device named with port 0
 *   resolves to: every field as sysfs has it (linux)
 * - the device as other drivers show it (umad_attrs.c): a port whose rate
 *   cannot be read is still a port (interpretation); a second port of
 *   the InfiniBand link layer, every field as sysfs has it; a switch
 *   named with port 0, its port 0 (linux)
 * - the device under a name that fills ca_name with its NUL: whole
 *   (interpretation)
 * - a port number the device lacks: a negative value
 * - umad_release_port() of a filled structure returns 0
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "umad_dev.h"
#include "../../harness/device.h"

#define DOC                                                                 \
	"umad_get_port() fills the port structure with the IB port "        \
	"attributes specified by ca_name and portnum, or the default port " \
	"if ca_name is NULL and portnum is zero."
#define DOC_FILTER                                               \
	"If only one of ca_name and portnum are specified, the " \
	"other is used as a filter."
#define DOC_RET                                                \
	"umad_get_port() and umad_release_port() return 0 on " \
	"success, and a negative value on error."

#define NOTE_FIELDS                                                           \
	"ca_name, portnum, and the leading number of sysfs's "                \
	"lid, lid_mask_count, sm_lid, sm_sl, state, phys_state, rate and "    \
	"cap_mask (capmask in network order), link_layer, GID 0 as "          \
	"gid_prefix:port_guid, every pkeys/N as pkeys[N] and their count as " \
	"pkeys_size (Documentation/ABI/stable/sysfs-class-infiniband; "       \
	"drivers/infiniband/core/sysfs.c)"

static const struct dev_row rows[] = {
	{ .c = { .id = "umad/get_port/target-port",
		 .doc = DOC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = NEEDS_CA,
		 .contract = { RC_RETURNS(0) } },
	  .ca = CA_TARGET,
	  .port = PORT_TARGET },
	{ .c = { .id = "umad/get_port/default-port",
		 .doc = DOC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(0) } },
	  .ca = CA_NULL,
	  .port = 0 },
	{ .c = { .id = "umad/get_port/device-as-filter",
		 .doc = DOC_FILTER,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = NEEDS_CA,
		 .contract = { RC_RETURNS(0) } },
	  .ca = CA_TARGET,
	  .port = 0 },
	{ .c = { .id = "umad/get_port/every-field",
		 .doc = DOC,
		 .basis = RC_BASIS_LINUX,
		 .note = NOTE_FIELDS,
		 .needs = NEEDS_CA,
		 .contract = { RC_RETURNS(0) } },
	  .ca = CA_TARGET,
	  .port = PORT_TARGET,
	  .every_field = true },
	{ .c = { .id = "umad/get_port/ca-name-exact-fit",
		 .doc = DOC,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = NOTE_AS_FITS
		 "that name whole in ca_name, every field as sysfs has it",
		 .needs = NEEDS_ATTRS,
		 .contract = { RC_RETURNS(0) } },
	  .ca = CA_TARGET,
	  .port = PORT_TARGET,
	  .every_field = true,
	  .attrs = ATTRS_AS_FITS },
	{ .c = { .id = "umad/get_port/device-as-filter-every-field",
		 .doc = DOC_FILTER,
		 .basis = RC_BASIS_LINUX,
		 .note = "the port the device named with portnum 0 gives: "
			 "every field as sysfs has it for that port number ("
			 "Documentation/ABI/stable/sysfs-class-infiniband)",
		 .needs = NEEDS_CA,
		 .contract = { RC_RETURNS(0) } },
	  .ca = CA_TARGET,
	  .port = 0,
	  .every_field = true },
	{ .c = { .id = "umad/get_port/rate-unreadable",
		 .doc = DOC,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the port's rate cannot be read (read(2) fails, as "
			 "Linux's rate_show refuses, EINVAL, an active width "
			 "it does not know; here, in the row's own mount "
			 "namespace, a directory in its place): the port is "
			 "still there, 0, and every other field as sysfs has "
			 "it (the page has no attribute without which a port "
			 "is none)",
		 .needs = NEEDS_ATTRS,
		 .contract = { RC_RETURNS(0) } },
	  .ca = CA_TARGET,
	  .port = PORT_TARGET,
	  .every_field = true,
	  .attrs = ATTRS_RATE_UNREADABLE },
	{ .c = { .id = "umad/get_port/second-port-infiniband",
		 .doc = DOC,
		 .basis = RC_BASIS_LINUX,
		 .note = "a port after the last, of the InfiniBand link "
			 "layer (in the row's own mount namespace: the "
			 "attributes of the last port but link_layer "
			 "\"InfiniBand\" and an SM-managed port's lid 0x1a28, "
			 "lid_mask_count 3, sm_lid 0x3c4d, sm_sl 5, cap_mask "
			 "0x2651e848, a subnet prefix, a GUID and four P_Keys of its own, bytes "
			 "all distinct), as a VPI adapter's: "
			 "that port, every field as sysfs has it",
		 .needs = NEEDS_ATTRS,
		 .contract = { RC_RETURNS(0) } },
	  .ca = CA_TARGET,
	  .port = PORT_ADDED,
	  .every_field = true,
	  .attrs = ATTRS_IB_PORT },
	{ .c = { .id = "umad/get_port/device-as-filter-vpi",
		 .doc = DOC_FILTER,
		 .basis = RC_BASIS_LINUX,
		 .note = "the device with a second port, of the InfiniBand "
			 "link layer (as second-port-infiniband), both ACTIVE, "
			 "named with portnum 0: one of its ports, every field "
			 "as sysfs has it; which port is the default the page "
			 "does not say, so the implementations' choices are "
			 "compared, not judged",
		 .needs = NEEDS_ATTRS,
		 .contract = { RC_RETURNS(0) } },
	  .ca = CA_TARGET,
	  .port = 0,
	  .every_field = true,
	  .attrs = ATTRS_IB_PORT },
	{ .c = { .id = "umad/get_port/default-port-of-another-device",
		 .doc = DOC,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "every port of the device under test down (\"1: "
			 "DOWN\", in the row's own mount namespace), a second "
			 "device ACTIVE, and NULL and 0: the default port is "
			 "one that can be used, an ACTIVE port of another "
			 "device, as sysfs has it",
		 .needs = NEEDS_ATTRS | RC_NEED_PEER,
		 .contract = { RC_RETURNS(0) } },
	  .ca = CA_NULL,
	  .port = 0,
	  .attrs = ATTRS_PORTS_DOWN },
	{ .c = { .id = "umad/get_port/port-9-the-last-that-fits",
		 .doc = DOC,
		 .basis = RC_BASIS_LINUX,
		 .note = "a port numbered UMAD_CA_MAX_PORTS - 1 (in the row's "
			 "own mount namespace, with the added InfiniBand "
			 "port's attributes), named: that port, every field as "
			 "sysfs has it",
		 .needs = NEEDS_ATTRS,
		 .contract = { RC_RETURNS(0) } },
	  .ca = CA_TARGET,
	  .port = PORT_ADDED,
	  .every_field = true,
	  .attrs = ATTRS_PORT_LAST_FITS },
	{ .c = { .id = "umad/get_port/device-as-filter-first-port-down",
		 .doc = DOC_FILTER,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the device's port 1 down and a port 2 ACTIVE (in the "
			 "row's own mount namespace, the added InfiniBand "
			 "port), named with portnum 0: the port selected is "
			 "one that can be used, port 2, every field as sysfs "
			 "has it",
		 .needs = NEEDS_ATTRS,
		 .contract = { RC_RETURNS(0) } },
	  .ca = CA_TARGET,
	  .port = 0,
	  .every_field = true,
	  .attrs = ATTRS_PORTS_DOWN | ATTRS_IB_PORT },
	{ .c = { .id = "umad/get_port/switch-port-0",
		 .doc = DOC_FILTER,
		 .basis = RC_BASIS_LINUX,
		 .note = "a switch (node_type \"2: switch\", in the row's "
			 "own mount namespace) named with portnum 0: its one "
			 "port, port 0 (rdma_start_port() is 0 for a switch), "
			 "every field as sysfs has it",
		 .needs = NEEDS_ATTRS,
		 .contract = { RC_RETURNS(0) } },
	  .ca = CA_TARGET,
	  .port = 0,
	  .every_field = true,
	  .attrs = ATTRS_SWITCH },
	{ .c = { .id = "umad/get_port/port-out-of-range",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_FAILS() } },
	  .ca = CA_TARGET,
	  .port = 99 },
	{ .c = { .id = "umad/get_port/port-the-device-lacks",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "port 9, UMAD_CA_MAX_PORTS - 1: a number a port may "
			 "have, which the device's has not: a negative value",
		 .needs = NEEDS_CA,
		 .contract = { RC_FAILS() } },
	  .ca = CA_TARGET,
	  .port = UMAD_CA_MAX_PORTS - 1 },
	{ .c = { .id = "umad/get_port/unknown-device",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_FAILS() } },
	  .ca = CA_BOGUS,
	  .port = 1 },
};

static void check(struct rc_ctx *ctx, const umad_port_t *port)
{
	char gid[64], want[64];
	const uint8_t *p = (const uint8_t *)&port->gid_prefix;
	const uint8_t *g = (const uint8_t *)&port->port_guid;

	if (port->portnum != ctx->target->port || port->state != 4)
		rc_obs_violation(ctx->obs,
				 "port %d state %u, expected port %d "
				 "ACTIVE (4)",
				 port->portnum, port->state, ctx->target->port);
	if (strcmp(port->link_layer, ctx->target->link_layer))
		rc_obs_violation(ctx->obs, "link_layer '%s', sysfs '%s'",
				 port->link_layer, ctx->target->link_layer);
	/* sysfs "lid" and "sm_lid" are hex, "0x1" */
	if (!dev_sysfs(ctx, ctx->target->port, "lid", want, sizeof(want)) &&
	    strtoul(want, NULL, 16) != port->base_lid)
		rc_obs_violation(ctx->obs, "base_lid %u, sysfs lid %s",
				 port->base_lid, want);
	if (!dev_sysfs(ctx, ctx->target->port, "sm_lid", want, sizeof(want)) &&
	    strtoul(want, NULL, 16) != port->sm_lid)
		rc_obs_violation(ctx->obs, "sm_lid %u, sysfs sm_lid %s",
				 port->sm_lid, want);
	if (dev_sysfs(ctx, ctx->target->port, "gids/0", gid, sizeof(gid)))
		return;
	snprintf(
		want, sizeof(want),
		"%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x",
		p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], g[0], g[1],
		g[2], g[3], g[4], g[5], g[6], g[7]);
	if (strcmp(gid, want))
		rc_obs_violation(ctx->obs, "gid_prefix:port_guid %s, GID 0 %s",
				 want, gid);
}

/* The default port with the device under test's own ports down: an
 * ACTIVE one, as sysfs has it; of another device when the row named none,
 * the port the row added when it named the device. */
static void check_active(const struct dev_row *row, struct rc_ctx *ctx,
			 const umad_port_t *port)
{
	char ca[sizeof(port->ca_name) + 1];

	/* the call's name, terminated whatever it wrote */
	snprintf(ca, sizeof(ca), "%.*s", (int)sizeof(port->ca_name),
		 port->ca_name);
	if (row->ca == CA_NULL && !strcmp(ca, ctx->target->ca))
		rc_obs_violation(ctx->obs, "ca_name %s, whose ports are down",
				 ctx->target->ca);
	else if (!dev_port_active(ca, port->portnum) || port->state != 4)
		rc_obs_violation(ctx->obs, "port %.20s:%d state %u, not ACTIVE",
				 port->ca_name, port->portnum, port->state);
}

/*
 * The fields of @p as values: strings up to their NUL, no padding, and no
 * pkeys pointer (an address, not comparable across processes).  A field
 * the call left unwritten keeps OUT_PARAM_FILL and shows.
 */
static void fields(const umad_port_t *p, umad_port_t *f)
{
	memset(f, 0, sizeof(*f));
	strncpy(f->ca_name, p->ca_name, sizeof(f->ca_name));
	f->portnum = p->portnum;
	f->base_lid = p->base_lid;
	f->lmc = p->lmc;
	f->sm_lid = p->sm_lid;
	f->sm_sl = p->sm_sl;
	f->state = p->state;
	f->phys_state = p->phys_state;
	f->rate = p->rate;
	f->capmask = p->capmask;
	f->gid_prefix = p->gid_prefix;
	f->port_guid = p->port_guid;
	f->pkeys_size = p->pkeys_size;
	strncpy(f->link_layer, p->link_layer, sizeof(f->link_layer));
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct dev_row *row = r;
	const struct rc_ops *ops = ctx->ops;
	umad_port_t port, seen;
	int ret;

	if (!rc_need_call(ctx, ops->umad_get_port, "umad_get_port") ||
	    !rc_need_call(ctx, ops->umad_release_port, "umad_release_port"))
		return;
	if (!dev_attrs_overlay(ctx, row->attrs))
		return;
	/* a fill no right answer has: a field left unwritten shows */
	memset(&port, OUT_PARAM_FILL, sizeof(port));
	RC_OBSERVE(ctx,
		   ret = ops->umad_get_port(dev_row_ca(row, ctx),
					    dev_row_port(row, ctx), &port));
	/* the page says nothing of the structure after a failure */
	if (ret)
		return;
	if (row->attrs & ATTRS_PORTS_DOWN)
		check_active(row, ctx, &port);
	if (row->every_field)
		dev_check_port(ctx, port.portnum, &port, "");
	else if (row->ca == CA_TARGET && row->port == PORT_TARGET)
		check(ctx, &port);
	fields(&port, &seen);
	rc_obs_out(ctx->obs, &seen, sizeof(seen));
	ret = ops->umad_release_port(&port);
	if (ret)
		rc_obs_violation(ctx->obs, "umad_release_port returned %d",
				 ret);
}

RC_TABLE_GROUP(group, "umad_get_port", RC_CONV_NEG, "umad", rows, run);

/* umad_release_port(3): "umad_release_port() should be called before the
 * port structure can be deallocated."; 0 on success. */
static const struct dev_row release_rows[] = {
	{ .c = { .id = "umad/release_port/after-get-port",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "of the structure umad_get_port filled: 0",
		 .needs = NEEDS_CA,
		 .contract = { RC_RETURNS(0) } },
	  .ca = CA_TARGET,
	  .port = PORT_TARGET },
	{ .c = { .id = "umad/release_port/null",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "NULL is no structure umad_get_port filled: an error, "
			 "a negative value",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_FAILS() } },
	  .ca = CA_NULL },
};

static void run_release(const void *r, struct rc_ctx *ctx)
{
	const struct dev_row *row = r;
	const struct rc_ops *ops = ctx->ops;
	umad_port_t port;

	if (!rc_need_call(ctx, ops->umad_get_port, "umad_get_port") ||
	    !rc_need_call(ctx, ops->umad_release_port, "umad_release_port"))
		return;
	if (row->ca == CA_NULL) {
		RC_OBSERVE(ctx, ops->umad_release_port(NULL));
		return;
	}
	memset(&port, OUT_PARAM_FILL, sizeof(port));
	if (ops->umad_get_port(ctx->target->ca, ctx->target->port, &port)) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN, "umad_get_port failed");
		return;
	}
	RC_OBSERVE(ctx, ops->umad_release_port(&port));
}

RC_TABLE_GROUP(release_group, "umad_release_port", RC_CONV_NEG, "umad",
	       release_rows, run_release);
