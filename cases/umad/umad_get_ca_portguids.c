// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * umad_get_ca_portguids(3): "fills the portguids array with up to max port
 * GUIDs belonging the specified IB device ca_name , or to the default IB
 * device if ca_name is NULL."  "On success, ... returns a non-negative
 * value equal to the number of port GUIDs actually filled.  Not all
 * filled entries may be valid.  Invalid entries will be 0.  For example,
 * on a CA node with only one port, this function returns a value of 2.
 * In this case, the value at index 0 will be invalid as it is reserved
 * for switches.  On failure, a negative value is returned."
 *
 * - the device under test: numports + 1 entries, entry 0 zero, entry N
 *   the GUID of port N (the low half of its GID 0 in sysfs), nothing
 *   written past them
 * - max smaller than that: up to max entries, nothing past max
 * - max exactly numports + 1, and max 0: all of them, or none, and
 *   nothing written before the array or past max
 * - the device under a name that fills a name array with its NUL: its
 *   GUIDs (interpretation)
 * - the device as other drivers show it (umad_attrs.c): a second port
 *   with a GUID of its own, 3 entries (linux); a switch, entry 0 its port
 *   0's GUID, 1 (interpretation)
 * - NULL with the device's ports down and another device ACTIVE: the
 *   other device's (interpretation: the default device has the default
 *   port)
 * - a negative max: a negative value (interpretation)
 * - an unknown device: a negative value
 */
#include <endian.h>
#include <stdlib.h>
#include <string.h>

#include "umad_dev.h"
#include "../../harness/device.h"

#define DOC                                                                    \
	"umad_get_ca_portguids() fills the portguids array with up to "        \
	"max port GUIDs belonging the specified IB device ca_name, or to the " \
	"default IB device if ca_name is NULL."
#define DOC_RET                                                       \
	"On success, umad_get_ca_portguids() returns a non-negative " \
	"value equal to the number of port GUIDs actually filled."
#define DOC_ONE_PORT                                          \
	"For example, on a CA node with only one port, this " \
	"function returns a value of 2."
#define DOC_FAIL "On failure, a negative value is returned."

#define MAX_GUIDS 12
/* .max: numports + 1 as sysfs has the ports, an exact fit */
#define MAX_EXACT (-1000)
#define GUID_FILL 0xa5a5a5a5a5a5a5a5ull

static const struct dev_row rows[] = {
	{ .c = { .id = "umad/get_ca_portguids/target-device",
		 .doc = DOC_ONE_PORT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "numports + 1 entries: 0, then each port's GUID",
		 .needs = NEEDS_CA,
		 .contract = { .ret = RC_RET_OK } },
	  .ca = CA_TARGET,
	  .max = MAX_GUIDS },
	{ .c = { .id = "umad/get_ca_portguids/ca-name-exact-fit",
		 .doc = DOC_ONE_PORT,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = NOTE_AS_FITS "the device's GUIDs, as for its own name",
		 .needs = NEEDS_ATTRS,
		 .contract = { .ret = RC_RET_OK } },
	  .ca = CA_TARGET,
	  .max = MAX_GUIDS,
	  .attrs = ATTRS_AS_FITS },
	{ .c = { .id = "umad/get_ca_portguids/default-device",
		 .doc = DOC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "NULL: the default device's (compared across the "
			 "implementations)",
		 .needs = RC_NEED_DEVICE,
		 .contract = { .ret = RC_RET_OK } },
	  .ca = CA_NULL,
	  .max = MAX_GUIDS },
	{ .c = { .id = "umad/get_ca_portguids/default-device-has-an-active-port",
		 .doc = DOC,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "every port of the device under test down (in the "
			 "row's own mount namespace), a second device ACTIVE, "
			 "and NULL: the default device is the one the default "
			 "port (umad_get_port's) is on, the other one: its "
			 "ports' GUIDs as sysfs has them",
		 .needs = NEEDS_ATTRS | RC_NEED_PEER,
		 .contract = { .ret = RC_RET_OK } },
	  .ca = CA_NULL,
	  .max = MAX_GUIDS,
	  .attrs = ATTRS_PORTS_DOWN },
	{ .c = { .id = "umad/get_ca_portguids/max-one",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "max 1 of a device with more entries: \"up to max\" "
			 "filled, 1 returned, entry 1 untouched",
		 .needs = NEEDS_CA,
		 .contract = { .ret = RC_RET_EQ, .value = 1 } },
	  .ca = CA_TARGET,
	  .max = 1 },
	{ .c = { .id = "umad/get_ca_portguids/max-exact",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "max exactly numports + 1: every entry filled, that "
			 "many returned, nothing written before the array or "
			 "past it",
		 .needs = NEEDS_CA,
		 .contract = { .ret = RC_RET_OK } },
	  .ca = CA_TARGET,
	  .max = MAX_EXACT },
	{ .c = { .id = "umad/get_ca_portguids/max-zero",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "max 0: \"up to max\" is none, 0 returned, nothing "
			 "written",
		 .needs = NEEDS_CA,
		 .contract = { .ret = RC_RET_EQ, .value = 0 } },
	  .ca = CA_TARGET,
	  .max = 0 },
	{ .c = { .id = "umad/get_ca_portguids/negative-max",
		 .doc = DOC_FAIL,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "no array has -1 entries: a failure, and nothing "
			 "written",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_FAILS() } },
	  .ca = CA_TARGET,
	  .max = -1 },
	{ .c = { .id = "umad/get_ca_portguids/second-port-infiniband",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_LINUX,
		 .note = "a port after the last (in the row's own mount "
			 "namespace, of the InfiniBand link layer with a port "
			 "GUID of its own, bytes all distinct): 3 entries, 0 "
			 "and each port's GUID as its GID 0 in sysfs",
		 .needs = NEEDS_ATTRS,
		 .contract = { .ret = RC_RET_OK } },
	  .ca = CA_TARGET,
	  .max = MAX_GUIDS,
	  .attrs = ATTRS_IB_PORT },
	{ .c = { .id = "umad/get_ca_portguids/port-9-the-last-that-fits",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_LINUX,
		 .note = "a port numbered UMAD_CA_MAX_PORTS - 1 beside port 1 "
			 "(in the row's own mount namespace, with a GUID of its "
			 "own): 10 entries, 0, port 1's GUID, 0 for the numbers "
			 "no port has (\"Invalid entries will be 0\"), port "
			 "9's GUID",
		 .needs = NEEDS_ATTRS,
		 .contract = { .ret = RC_RET_OK } },
	  .ca = CA_TARGET,
	  .max = MAX_GUIDS,
	  .attrs = ATTRS_PORT_LAST_FITS },
	{ .c = { .id = "umad/get_ca_portguids/switch",
		 .doc = "In this case, the value at index 0 will be invalid as "
			"it is reserved for switches.",
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "a switch (node_type 2 and port 0 alone, in the row's "
			 "own mount namespace): index 0, reserved for "
			 "switches, is its port 0's GUID, and there is no "
			 "other: 1",
		 .needs = NEEDS_ATTRS,
		 .contract = { .ret = RC_RET_OK } },
	  .ca = CA_TARGET,
	  .max = MAX_GUIDS,
	  .attrs = ATTRS_SWITCH },
	{ .c = { .id = "umad/get_ca_portguids/unknown-device",
		 .doc = DOC_FAIL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_FAILS() } },
	  .ca = CA_BOGUS,
	  .max = MAX_GUIDS },
};

/* The entries must be what sysfs says of device @ca. */
static void check(struct rc_ctx *ctx, const char *ca, const __be64 *g, int n,
		  int max)
{
	char buf[128];
	uint64_t want;
	int p, ports = 0;

	/* a switch's entry 0 is its port 0's; a CA's is 0, reserved */
	bool sw = !rc_sysfs_read(buf, sizeof(buf), RC_SYSFS_IB "/%s/node_type",
				 ca) &&
		  strtoul(buf, NULL, 0) == 2;

	for (p = 1; p < UMAD_CA_MAX_PORTS; p++)
		if (!rc_sysfs_read(buf, sizeof(buf),
				   RC_SYSFS_IB "/%s/ports/%d/state", ca, p))
			ports = p;
	if (max > ports && n != ports + 1)
		rc_obs_violation(ctx->obs,
				 "count %d entries for %d ports, not "
				 "%d",
				 n, ports, ports + 1);
	if (n > 0 && g[0] && !sw)
		rc_obs_violation(ctx->obs,
				 "entry 0 is %016llx, not 0 (reserved "
				 "for switches)",
				 (unsigned long long)g[0]);
	for (p = sw ? 0 : 1; p < n; p++) {
		/* a number no port has: "Invalid entries will be 0" */
		if (rc_sysfs_read(buf, sizeof(buf),
				  RC_SYSFS_IB "/%s/ports/%d/gids/0", ca, p)) {
			if (g[p])
				rc_obs_violation(
					ctx->obs,
					"entry %d %016llx for no "
					"port, not 0",
					p, (unsigned long long)be64toh(g[p]));
			continue;
		}
		if (rc_guid_parse(buf + 20, &want))
			continue;
		if (be64toh(g[p]) != want)
			rc_obs_violation(ctx->obs,
					 "entry %d %016llx, sysfs port "
					 "GUID %016llx",
					 p, (unsigned long long)be64toh(g[p]),
					 (unsigned long long)want);
	}
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct dev_row *row = r;
	/* a guard entry before the array, and one past max */
	__be64 buf[MAX_GUIDS + 2], *guids = buf + 1;
	int n, i, max = row->max;
	char state[64];

	if (!rc_need_call(ctx, ctx->ops->umad_get_ca_portguids,
			  "umad_get_ca_portguids"))
		return;
	if (!dev_attrs_overlay(ctx, row->attrs))
		return;
	if (max == MAX_EXACT)
		for (max = 1, i = 1; i < UMAD_CA_MAX_PORTS && i < MAX_GUIDS;
		     i++)
			if (!dev_sysfs(ctx, i, "state", state, sizeof(state)))
				max = i + 1;
	for (i = 0; i < MAX_GUIDS + 2; i++)
		buf[i] = GUID_FILL;
	/* the call's own locals (libibumad's umad_ca_t) start as OUT_PARAM_FILL */
	dev_dirty_stack();
	RC_OBSERVE(ctx, n = ctx->ops->umad_get_ca_portguids(
				dev_row_ca(row, ctx), guids, max));
	if (buf[0] != GUID_FILL)
		rc_obs_violation(ctx->obs, "wrote before the array");
	if (n < 0) {
		for (i = 0; i < MAX_GUIDS + 1; i++)
			if (guids[i] != GUID_FILL) {
				rc_obs_violation(ctx->obs,
						 "entry %d written by "
						 "a call that failed",
						 i);
				break;
			}
		return;
	}
	if (n > max || guids[max] != GUID_FILL)
		rc_obs_violation(ctx->obs, "wrote past max (%d entries)", max);
	else if (row->ca == CA_TARGET)
		check(ctx, ctx->target->ca, guids, n, max);
	else if (row->attrs & ATTRS_PORTS_DOWN)
		check(ctx, ctx->target->peer ?: BOGUS_CA, guids, n, max);
	rc_obs_out(ctx->obs, guids, (n < max ? n : max) * sizeof(guids[0]));
}

RC_TABLE_GROUP(group, "umad_get_ca_portguids", RC_CONV_NEG, "umad", rows, run);
