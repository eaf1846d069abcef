// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * umad_init(3), umad_done(3): "umad_init() and umad_done() do nothing."
 * RETURN VALUE: "Always 0."
 *
 * - umad_init returns 0, the first time and again
 * - umad_done returns 0, after umad_init and without it
 */
#include "umad_hdr.h"

#define DOC_NOTHING "umad_init() and umad_done() do nothing."
#define DOC_ZERO "Always 0."

struct init_row {
	struct rc_case c;
	void (*check)(struct rc_ctx *ctx);
};

static void init_returns_zero(struct rc_ctx *ctx);
static void init_again_returns_zero(struct rc_ctx *ctx);
static void done_returns_zero(struct rc_ctx *ctx);
static void done_after_init_returns_zero(struct rc_ctx *ctx);

static const struct init_row init_rows[] = {
	{ .c = { .id = "umad/init/returns-zero",
		 .doc = DOC_ZERO,
		 .basis = RC_BASIS_DOCUMENTED,
		 .contract = { RC_RETURNS(0) } },
	  .check = init_returns_zero },
	{ .c = { .id = "umad/init/twice",
		 .doc = DOC_ZERO,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the second call, after a first one",
		 .contract = { RC_RETURNS(0) } },
	  .check = init_again_returns_zero },
};

static const struct init_row done_rows[] = {
	{ .c = { .id = "umad/done/without-init",
		 .doc = DOC_ZERO,
		 .basis = RC_BASIS_DOCUMENTED,
		 .contract = { RC_RETURNS(0) } },
	  .check = done_returns_zero },
	{ .c = { .id = "umad/done/after-init",
		 .doc = DOC_NOTHING,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "and returns 0",
		 .contract = { RC_RETURNS(0) } },
	  .check = done_after_init_returns_zero },
};

static void init_returns_zero(struct rc_ctx *ctx)
{
	RC_OBSERVE(ctx, ctx->ops->umad_init());
}

static void init_again_returns_zero(struct rc_ctx *ctx)
{
	ctx->ops->umad_init();
	RC_OBSERVE(ctx, ctx->ops->umad_init());
}

static void done_returns_zero(struct rc_ctx *ctx)
{
	RC_OBSERVE(ctx, ctx->ops->umad_done());
}

static void done_after_init_returns_zero(struct rc_ctx *ctx)
{
	ctx->ops->umad_init();
	RC_OBSERVE(ctx, ctx->ops->umad_done());
}

static void run_init(const void *r, struct rc_ctx *ctx)
{
	const struct init_row *row = r;

	if (rc_need_call(ctx, ctx->ops->umad_init, "umad_init"))
		row->check(ctx);
}

static void run_done(const void *r, struct rc_ctx *ctx)
{
	const struct init_row *row = r;

	if (rc_need_call(ctx, ctx->ops->umad_done, "umad_done") &&
	    rc_need_call(ctx, ctx->ops->umad_init, "umad_init"))
		row->check(ctx);
}

RC_TABLE_GROUP(init_group, "umad_init", RC_CONV_VALUE, "umad", init_rows,
	       run_init);

RC_TABLE_GROUP(done_group, "umad_done", RC_CONV_VALUE, "umad", done_rows,
	       run_done);
