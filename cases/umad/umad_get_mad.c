// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * umad_get_mad(3): "returns a pointer to the MAD contained within the
 * supplied umad buffer."
 *
 * - the MAD starts right after the 64-byte ib_user_mad header (the data[]
 *   member of <infiniband/umad.h>), whatever the header holds
 * - reads only: the buffer is unchanged
 */
#include "umad_dev.h"
#include "umad_hdr.h"

#define DOC                                                             \
	"umad_get_mad() returns a pointer to the MAD contained within " \
	"the supplied umad buffer."

static const struct accessor_row rows[] = {
	{ .c = { .id = "umad/get_mad/after-header",
		 .doc = DOC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "recorded as the offset from the buffer: the data[] "
			 "member follows the 64-byte header",
		 .contract = { .ret = RC_RET_EQ,
			       .value = REF_UMAD_HDR_SIZE,
			       .layout = &umad_hdr_layout,
			       .out = UMAD_OUT() } } },
	{ .c = { .id = "umad/get_mad/independent-of-length-field",
		 .doc = DOC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the header's length word does not move the MAD",
		 .contract = { .ret = RC_RET_EQ,
			       .value = REF_UMAD_HDR_SIZE,
			       .layout = &umad_hdr_layout,
			       .out = UMAD_OUT(
				       RC_PATCH_HOST(OFF(LENGTH), 4, 0)) } },
	  .preset = { .patch = { RC_PATCH_HOST(OFF(LENGTH), 4, 0) } } },
};

static long long get_mad(const struct rc_ops *ops,
			 const struct accessor_row *row, uint8_t *buf)
{
	return (uint8_t *)ops->umad_get_mad(buf) - buf;
}

static void run(const void *r, struct rc_ctx *ctx)
{
	accessor_row_run(r, ctx, ctx->ops->umad_get_mad, "umad_get_mad",
			 get_mad);
}

RC_TABLE_GROUP(group, "umad_get_mad", RC_CONV_OFFSET, "umad", rows, run);

static const struct accessor_row open_rows[] = {
	{ .c = { .id = "umad/get_mad/after-open-port",
		 .doc = DOC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = NEEDS_UMAD,
		 .note = "with a port open (IB_USER_MAD_ENABLE_PKEY in "
			 "effect): the MAD after the 64-byte header",
		 .contract = { .ret = RC_RET_EQ,
			       .value = REF_UMAD_HDR_SIZE,
			       .layout = &umad_hdr_layout,
			       .out = UMAD_OUT() } } },
};

static void run_open(const void *r, struct rc_ctx *ctx)
{
	accessor_row_run_open(r, ctx, ctx->ops->umad_get_mad, "umad_get_mad",
			      get_mad);
}

RC_TABLE_GROUP(open_group, "umad_get_mad", RC_CONV_OFFSET, "umad", open_rows,
	       run_open);
