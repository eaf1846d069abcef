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
	{ .c = { .id = "umad/size/header-size",
		 .doc = DOC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "read with <infiniband/umad.h>: the ib_user_mad_t "
			 "header, 64 bytes, without the MAD",
		 .contract = { .ret = RC_RET_EQ,
			       .value = REF_UMAD_HDR_SIZE } } },
};

static void run(const void *r, struct rc_ctx *ctx)
{
	if (!rc_need_call(ctx, ctx->ops->umad_size, "umad_size"))
		return;
	RC_OBSERVE(ctx, ctx->ops->umad_size());
}

RC_TABLE_GROUP(group, "umad_size", RC_CONV_VALUE, "umad", rows, run);

/*
 * The same calls after umad_open_port(): libibumad switches its header
 * helpers to the 64-byte header only then (see cases/expect/rdma-core.expect);
 * these rows hold the same documented expectations with a port open.
 */
#include "umad_dev.h"

static const struct size_row open_rows[] = {
	{ .c = { .id = "umad/size/after-open-port",
		 .doc = DOC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = NEEDS_UMAD,
		 .note = "with a port open (IB_USER_MAD_ENABLE_PKEY in effect)",
		 .contract = { .ret = RC_RET_EQ,
			       .value = REF_UMAD_HDR_SIZE } } },
};

static void run_open(const void *r, struct rc_ctx *ctx)
{
	int fd;

	if (!rc_need_call(ctx, ctx->ops->umad_size, "umad_size") ||
	    !rc_need_call(ctx, ctx->ops->umad_open_port, "umad_open_port"))
		return;
	fd = ctx->ops->umad_open_port(ctx->target->ca, ctx->target->port);
	if (fd < 0) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN, "umad_open_port: %d",
			     fd);
		return;
	}
	RC_OBSERVE(ctx, ctx->ops->umad_size());
}

RC_TABLE_GROUP(open_group, "umad_size", RC_CONV_VALUE, "umad", open_rows,
	       run_open);
