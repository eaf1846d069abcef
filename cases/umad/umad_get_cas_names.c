// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * umad_get_cas_names(3): "fills the cas array with up to max local IB
 * devices (CAs) names."  "returns a non-negative value equal to the number
 * of entries filled, or -1 on errors."
 *
 * - the device under test is among the names; the count is at least 1
 * - max 1 fills exactly one entry; max 0 fills none
 * - the names (sorted) are compared between the implementations
 */
#include <string.h>
#include <stdlib.h>

#include "umad_dev.h"

#define DOC "umad_get_cas_names() fills the cas array with up to max local " \
	"IB devices (CAs) names."
#define DOC_RET "umad_get_cas_names() returns a non-negative value equal to " \
	"the number of entries filled, or -1 on errors."

static const struct dev_row rows[] = {
	{ .c = { .id = "umad/get_cas_names/lists-target-device", .doc = DOC,
		 .basis = RC_BASIS_DOCUMENTED, .needs = NEEDS_CA,
		 .contract = { .ret = RC_RET_OK } },
	  .max = UMAD_MAX_DEVICES },
	{ .c = { .id = "umad/get_cas_names/max-one", .doc = DOC_RET,
		 .basis = RC_BASIS_DOCUMENTED, .needs = RC_NEED_DEVICE,
		 .contract = { .ret = RC_RET_EQ, .value = 1 } },
	  .max = 1 },
	{ .c = { .id = "umad/get_cas_names/max-zero", .doc = DOC_RET,
		 .basis = RC_BASIS_DOCUMENTED, .needs = RC_NEED_DEVICE,
		 .contract = { .ret = RC_RET_EQ, .value = 0 } },
	  .max = 0 },
};

static int cmp(const void *a, const void *b)
{
	return strcmp(a, b);
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct dev_row *row = r;
	/* one spare entry past max: it must stay untouched */
	char names[UMAD_MAX_DEVICES + 1][UMAD_CA_NAME_LEN];
	int n, i;
	bool found = false;

	if (!rc_need_call(ctx, ctx->ops->umad_get_cas_names, "umad_get_cas_names"))
		return;
	memset(names, 0x5a, sizeof(names));
	RC_OBSERVE(ctx, n = ctx->ops->umad_get_cas_names(names, row->max));
	if (n < 0)
		return;
	if (n > row->max || names[row->max][0] != 0x5a)
		rc_obs_violation(ctx->obs, "wrote past max (%d entries)", row->max);
	for (i = 0; i < n && i < row->max; i++)
		found |= !strcmp(names[i], ctx->target->ca);
	if (row->max == UMAD_MAX_DEVICES && !found)
		rc_obs_violation(ctx->obs, "%s is not among the %d names",
				 ctx->target->ca, n);
	if (n > 0 && n <= row->max) {
		qsort(names, n, UMAD_CA_NAME_LEN, cmp);
		rc_obs_out(ctx->obs, names, n * UMAD_CA_NAME_LEN);
	}
}

static const struct rc_group group = {
	.call = "umad_get_cas_names", .conv = RC_CONV_M1_ERRNO,
	.lib = "umad", .rows = rows,
	.row_size = sizeof(rows[0]), .nrows = ARRAY_SIZE(rows), .run = run,
};
RC_GROUP(group);
