// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * umad_size(3): "returns the size of umad buffer (in bytes)."
 *
 * - the umad buffer's fixed part is struct ib_user_mad: 64 bytes, the MAD
 *   (umad_get_mad(3)) follows it; umad_size() + MAD length is what
 *   umad_send(3) and umad_recv(3) are given
 */
#include "umad_hdr.h"

#define DOC "umad_size() returns the size of umad buffer (in bytes)."

struct size_row {
	struct rc_case c;
};

static const struct size_row rows[] = {
	{ .c = { .id = "umad/size/header-size", .doc = DOC,
		 .note = "read with <infiniband/umad.h>: the ib_user_mad_t "
			 "header, 64 bytes, without the MAD",
		 .expect = { .conv = RC_CONV_VALUE, .ret = RC_RET_EQ,
			     .value = REF_UMAD_HDR_SIZE } } },
};

static void run(const void *r, struct rc_ctx *ctx)
{
	if (!rc_need_call(ctx, ctx->ops->umad_size, "umad_size"))
		return;
	RC_OBSERVE(ctx, ctx->ops->umad_size());
}

static const struct rc_group group = {
	.call = "umad_size", .lib = "umad", .rows = rows,
	.row_size = sizeof(rows[0]), .nrows = ARRAY_SIZE(rows), .run = run,
};
RC_GROUP(group);
