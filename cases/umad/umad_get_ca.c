// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * umad_get_ca(3): "gets the attributes of the InfiniBand device ca_name.
 * It fills the ca structure with the device attributes specified by the
 * ca_name or with the default device attributes if ca_name is NULL."
 * "return 0 on success, and a negative value on error."
 *
 * - the device under test: its name, node GUID and ports as sysfs has them
 * - NULL: some device's attributes (which one is compared across the
 *   implementations)
 * - an unknown device: a negative value
 * - umad_release_ca() of a filled structure returns 0
 */
#include <endian.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "umad_dev.h"
#include "../../harness/device.h"

#define DOC "umad_get_ca() gets the attributes of the InfiniBand device " \
	"ca_name. It fills the ca structure with the device attributes " \
	"specified by the ca_name or with the default device attributes if " \
	"ca_name is NULL."
#define DOC_RET "umad_get_ca() and umad_release_ca() return 0 on success, " \
	"and a negative value on error."

static const struct dev_row rows[] = {
	{ .c = { .id = "umad/get_ca/target-device", .doc = DOC,
		 .basis = RC_BASIS_DOCUMENTED, .needs = RC_NEED_DEVICE,
		 .expect = { .conv = RC_CONV_NEG, .ret = RC_RET_EQ, .value = 0 } },
	  .ca = CA_TARGET },
	{ .c = { .id = "umad/get_ca/default-device", .doc = DOC,
		 .basis = RC_BASIS_DOCUMENTED, .needs = RC_NEED_DEVICE,
		 .expect = { .conv = RC_CONV_NEG, .ret = RC_RET_EQ, .value = 0 } },
	  .ca = CA_NULL },
	{ .c = { .id = "umad/get_ca/unknown-device", .doc = DOC_RET,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = RC_NEED_DEVICE, .expect = { ANYNEG } },
	  .ca = CA_BOGUS },
};

static void check(struct rc_ctx *ctx, const umad_ca_t *ca)
{
	char buf[64];
	uint64_t guid;
	int p = ctx->target->port;

	if (strcmp(ca->ca_name, ctx->target->ca)) {
		rc_obs_violation(ctx->obs, "ca_name '%s', not %s", ca->ca_name,
				 ctx->target->ca);
		return;
	}
	if (!dev_sysfs(ctx, 0, "node_guid", buf, sizeof(buf)) &&
	    !rc_guid_parse(buf, &guid)) {
		if (be64toh(ca->node_guid) != guid)
			rc_obs_violation(ctx->obs, "node_guid %016llx, sysfs %s",
					 (unsigned long long)be64toh(ca->node_guid),
					 buf);
	}
	if (ca->numports < p || !ca->ports[p] || ca->ports[p]->portnum != p)
		rc_obs_violation(ctx->obs, "port %d missing (numports %d)", p,
				 ca->numports);
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct dev_row *row = r;
	const struct rc_ops *ops = ctx->ops;
	umad_ca_t ca;
	int ret;

	if (!rc_need_call(ctx, ops->umad_get_ca, "umad_get_ca") ||
	    !rc_need_call(ctx, ops->umad_release_ca, "umad_release_ca"))
		return;
	memset(&ca, 0, sizeof(ca));
	RC_OBSERVE(ctx, ret = ops->umad_get_ca(dev_row_ca(row, ctx), &ca));
	if (ret)
		return;
	if (row->ca == CA_TARGET)
		check(ctx, &ca);
	/* everything up to the port pointers, for the comparison */
	rc_obs_out(ctx->obs, &ca, offsetof(umad_ca_t, ports));
	ret = ops->umad_release_ca(&ca);
	if (ret)
		rc_obs_violation(ctx->obs, "umad_release_ca returned %d", ret);
}

static const struct rc_group group = {
	.call = "umad_get_ca", .lib = "umad", .rows = rows,
	.row_size = sizeof(rows[0]), .nrows = ARRAY_SIZE(rows), .run = run,
};
RC_GROUP(group);
