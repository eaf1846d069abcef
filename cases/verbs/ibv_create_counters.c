// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_create_counters(3): ERRORS "EOPNOTSUPP ibv_create_counters() is not
 * currently supported on this device (ENOSYS may sometimes be returned by
 * old versions of libibverbs)."  "ibv_destroy_counters() returns 0 on
 * success, or the value of errno on failure".  ibv_attach_counters_point_
 * flow(3) and ibv_read_counters(3): "returns 0 on success, or the value of
 * errno on failure"; "Counters are cleared upon creation".
 *
 * rxe and siw have no counters objects (the kernel's COUNTERS methods
 * need the driver's create_counters).  No device attribute says which
 * devices have them.
 *
 * - ibv_create_counters on a device without them: EOPNOTSUPP (or ENOSYS)
 *   (documented); UNSUPPORTED where they are made
 * - ibv_destroy_counters of counters just made: 0 (documented)
 * - ibv_attach_counters_point_flow, static (flow NULL), PACKETS at index
 *   0: 0 or ENOTSUP (documented)
 * - ibv_read_counters of fresh counters with a point: 0, and zeros
 *   (documented)
 * Each of the last three is UNSUPPORTED where no counters are made.
 */
#include <errno.h>

#include "verbs_opt.h"

#define DOC_ENOTSUPP                                                                  \
	"EOPNOTSUPP ibv_create_counters() is not currently supported on this device " \
	"(ENOSYS may sometimes be returned by old versions of libibverbs)."
#define DOC_DESTROY_RET                                                 \
	"ibv_destroy_counters() returns 0 on success, or the value of " \
	"errno on failure (which indicates the failure reason)"
#define DOC_ATTACH                                                          \
	"Supported capabilities of specific counter_desc values per verbs " \
	"object can be tested by checking the return value for success or " \
	"ENOTSUP errno."
#define DOC_CLEARED \
	"Counters are cleared upon creation and values will be monotonically increasing."

static vc_check create_unsupported, destroy_made, attach_static, read_fresh;

static const struct vc_row create_rows[] = {
	{ .c = { .id = "verbs/create_counters/not-supported",
		 .doc = DOC_ENOTSUPP,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a device without counters objects (rxe, siw): "
			 "NULL, EOPNOTSUPP or ENOSYS; UNSUPPORTED where they "
			 "are made",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS(EOPNOTSUPP, ENOSYS) } },
	  .check = create_unsupported,
	  .rung = VL_CONTEXT },
};

static const struct vc_row destroy_rows[] = {
	{ .c = { .id = "verbs/destroy_counters/made",
		 .doc = DOC_DESTROY_RET,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "counters just made: 0; UNSUPPORTED where none are",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = destroy_made,
	  .rung = VL_CONTEXT },
};

static const struct vc_row attach_rows[] = {
	{ .c = { .id = "verbs/attach_counters_point_flow/static-packets",
		 .doc = DOC_ATTACH,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a static attach (flow NULL) of IBV_COUNTER_PACKETS "
			 "at index 0: 0 or ENOTSUP; UNSUPPORTED where no "
			 "counters are made",
		 .needs = VC_NEEDS,
		 .contract = { .ret = RC_RET_IN,
			       .value = 0,
			       .alt = { ENOTSUP, 0 } } },
	  .check = attach_static,
	  .rung = VL_CONTEXT },
};

static const struct vc_row read_rows[] = {
	{ .c = { .id = "verbs/read_counters/fresh-zero",
		 .doc = DOC_CLEARED,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "fresh counters with one point read 0; UNSUPPORTED "
			 "where no counters (or no point) are made",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = read_fresh,
	  .rung = VL_CONTEXT },
};

static struct ibv_counters *create(struct rc_ctx *ctx, struct vl *l)
{
	struct ibv_counters_init_attr a = { 0 };

	return ctx->ops->ibv_create_counters(l->ctx, &a);
}

static struct ibv_counters *counters(struct rc_ctx *ctx, struct vl *l)
{
	struct ibv_counters *c = create(ctx, l);

	if (!c)
		rc_obs_state(ctx->obs, RC_STATE_UNSUPPORTED,
			     "the device makes no counters (%m)");
	return c;
}

static void create_unsupported(const struct vc_row *row, struct rc_ctx *ctx,
			       struct vl *l)
{
	struct ibv_counters *c;

	RC_OBSERVE(ctx, c = create(ctx, l));
	vo_made(ctx, c, "counters objects");
	if (c)
		ctx->ops->ibv_destroy_counters(c);
}

static void destroy_made(const struct vc_row *row, struct rc_ctx *ctx,
			 struct vl *l)
{
	struct ibv_counters *c = counters(ctx, l);

	if (c)
		RC_OBSERVE(ctx, ctx->ops->ibv_destroy_counters(c));
}

static void attach_static(const struct vc_row *row, struct rc_ctx *ctx,
			  struct vl *l)
{
	struct ibv_counter_attach_attr a = { .counter_desc =
						     IBV_COUNTER_PACKETS };
	struct ibv_counters *c = counters(ctx, l);

	if (!c)
		return;
	RC_OBSERVE(ctx, ctx->ops->ibv_attach_counters_point_flow(c, &a, NULL));
	ctx->ops->ibv_destroy_counters(c);
}

static void read_fresh(const struct vc_row *row, struct rc_ctx *ctx,
		       struct vl *l)
{
	struct ibv_counter_attach_attr a = { .counter_desc =
						     IBV_COUNTER_PACKETS };
	struct ibv_counters *c = counters(ctx, l);
	uint64_t v = ~0ull;
	int ret;

	if (!c)
		return;
	if (ctx->ops->ibv_attach_counters_point_flow(c, &a, NULL)) {
		rc_obs_state(ctx->obs, RC_STATE_UNSUPPORTED,
			     "no PACKETS point to read");
		ctx->ops->ibv_destroy_counters(c);
		return;
	}
	RC_OBSERVE(ctx, ret = ctx->ops->ibv_read_counters(c, &v, 1, 0));
	if (!ret && v)
		rc_obs_violation(ctx->obs, "value %llu, not 0",
				 (unsigned long long)v);
	ctx->ops->ibv_destroy_counters(c);
}

VC_GROUP(create, ibv_create_counters, RC_CONV_NULL_ERRNO, create_rows);
VC_GROUP(destroy, ibv_destroy_counters, RC_CONV_ERRNO_RET, destroy_rows);
VC_GROUP(attach, ibv_attach_counters_point_flow, RC_CONV_ERRNO_RET,
	 attach_rows);
VC_GROUP(read, ibv_read_counters, RC_CONV_ERRNO_RET, read_rows);
