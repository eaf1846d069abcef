// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_alloc_dmah(3), documented since rdma-core 59 (IBVERBS_1.15):
 * "ibv_alloc_dmah() allocates an ibv_dmah object that is associated with
 * the given context and the input attr parameter."  "returns a pointer to
 * the allocated dma handle object, or NULL if the request fails."
 * "ibv_dealloc_dmah() returns 0 upon success, otherwise the errno value."
 * 44.0 has neither: ABSENT there, as rdma-core.expect records.
 *
 * rxe and siw make no DMA handle: Linux's DMAH object (6.1 has none at
 * all) needs the driver's alloc_dmah, which neither has.
 *
 * ibv_alloc_dmah:
 * - on rxe or siw, a CPU id: NULL (interpretation: a soft device has no
 *   TPH steering to hint)
 * - a comp_mask bit the page does not name: NULL (interpretation)
 * - a handle of the context (documented; UNSUPPORTED where none is made)
 * ibv_dealloc_dmah:
 * - a handle just made: 0 (documented; UNSUPPORTED where none is made)
 * - of two, the other still deallocates after (documented; UNSUPPORTED
 *   where none is made)
 */
#include <errno.h>
#include <string.h>

#include "verbs_ctl.h"

#define DOC_ALLOC                                                           \
	"ibv_alloc_dmah() allocates an ibv_dmah object that is associated " \
	"with the given context and the input attr parameter."
#define DOC_ALLOC_RET                                                     \
	"ibv_alloc_dmah() returns a pointer to the allocated dma handle " \
	"object, or NULL if the request fails."
#define DOC_DEALLOC                                                     \
	"This call will release resources that were earlier allocated " \
	"using the ibv_alloc_dmah() API."
#define DOC_DEALLOC_RET \
	"ibv_dealloc_dmah() returns 0 upon success, otherwise the errno value."

static vc_check soft_none, unknown_bit, of_context, dealloc_made, dealloc_other;

static const struct vc_row alloc_rows[] = {
	{ .c = { .id = "verbs/alloc_dmah/soft-device-has-none",
		 .doc = DOC_ALLOC_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "rxe and siw steer no DMA by CPU (Linux's DMAH object "
			 "needs the driver's alloc_dmah): a handle for CPU 0 "
			 "cannot be made, so NULL; UNSUPPORTED on another "
			 "device",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = soft_none,
	  .rung = VL_CONTEXT },
	{ .c = { .id = "verbs/alloc_dmah/unknown-comp-mask-bit",
		 .doc = DOC_ALLOC_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "comp_mask 1 << 3, beyond the three the page names: "
			 "the request cannot be what the caller meant",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = unknown_bit,
	  .rung = VL_CONTEXT },
	{ .c = { .id = "verbs/alloc_dmah/of-the-context",
		 .doc = DOC_ALLOC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "CPU 0: a handle whose context is the one given; "
			 "UNSUPPORTED where the device makes none",
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = of_context,
	  .rung = VL_CONTEXT },
};

static const struct vc_row dealloc_rows[] = {
	{ .c = { .id = "verbs/dealloc_dmah/made",
		 .doc = DOC_DEALLOC_RET,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a handle just made: 0; UNSUPPORTED where the device "
			 "makes none",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = dealloc_made,
	  .rung = VL_CONTEXT },
	{ .c = { .id = "verbs/dealloc_dmah/other-handle-kept",
		 .doc = DOC_DEALLOC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "of two handles, the first deallocated (0) leaves the "
			 "second, which deallocates after it; UNSUPPORTED where "
			 "the device makes none",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = dealloc_other,
	  .rung = VL_CONTEXT },
};

static struct ibv_dmah *alloc(struct rc_ctx *ctx, struct vl *l)
{
	struct rc_ibv_dmah_init_attr a = {
		.comp_mask = RC_IBV_DMAH_INIT_ATTR_MASK_CPU_ID,
	};

	return ctx->ops->ibv_alloc_dmah(l->ctx, &a);
}

/* A handle (set-up), or NULL and the row UNSUPPORTED (the device makes
 * none), BROKEN or ABSENT */
static struct ibv_dmah *dmah(struct rc_ctx *ctx, struct vl *l)
{
	struct ibv_dmah *d;

	if (!rc_need_call(ctx, (const void *)ctx->ops->ibv_alloc_dmah,
			  "ibv_alloc_dmah"))
		return NULL;
	if ((d = alloc(ctx, l)))
		return d;
	rc_obs_state(ctx->obs,
		     errno == EOPNOTSUPP || errno == EPROTONOSUPPORT ?
			     RC_STATE_UNSUPPORTED :
			     RC_STATE_BROKEN,
		     "ibv_alloc_dmah (set-up): %m");
	return NULL;
}

static bool soft(struct rc_ctx *ctx)
{
	const char *ca = ctx->target->ca;

	return !strncmp(ca, "rxe", 3) || !strncmp(ca, "siw", 3);
}

static void soft_none(const struct vc_row *row, struct rc_ctx *ctx,
		      struct vl *l)
{
	struct ibv_dmah *d;

	if (!soft(ctx)) {
		rc_obs_state(ctx->obs, RC_STATE_UNSUPPORTED,
			     "%s: not rxe or siw", ctx->target->ca);
		return;
	}
	RC_OBSERVE(ctx, d = alloc(ctx, l));
	if (d)
		ctx->ops->ibv_dealloc_dmah(d);
}

static void unknown_bit(const struct vc_row *row, struct rc_ctx *ctx,
			struct vl *l)
{
	struct rc_ibv_dmah_init_attr a = { .comp_mask = 1 << 3 };
	struct ibv_dmah *d;

	RC_OBSERVE(ctx, d = ctx->ops->ibv_alloc_dmah(l->ctx, &a));
	if (d)
		ctx->ops->ibv_dealloc_dmah(d);
}

static void of_context(const struct vc_row *row, struct rc_ctx *ctx,
		       struct vl *l)
{
	struct ibv_dmah *d;

	RC_OBSERVE(ctx, d = alloc(ctx, l));
	if (!d) {
		if (errno == EOPNOTSUPP || errno == EPROTONOSUPPORT)
			rc_obs_state(ctx->obs, RC_STATE_UNSUPPORTED,
				     "the device makes no DMA handle: %m");
		return;
	}
	if (((struct rc_ibv_dmah *)d)->context != l->ctx)
		rc_obs_violation(ctx->obs, "context: not the one given");
	ctx->ops->ibv_dealloc_dmah(d);
}

static void dealloc_made(const struct vc_row *row, struct rc_ctx *ctx,
			 struct vl *l)
{
	struct ibv_dmah *d = dmah(ctx, l);

	if (d)
		RC_OBSERVE(ctx, ctx->ops->ibv_dealloc_dmah(d));
}

static void dealloc_other(const struct vc_row *row, struct rc_ctx *ctx,
			  struct vl *l)
{
	struct ibv_dmah *a, *b;
	int ret;

	if (!(a = dmah(ctx, l)))
		return;
	if (!(b = dmah(ctx, l))) {
		ctx->ops->ibv_dealloc_dmah(a);
		return;
	}
	RC_OBSERVE(ctx, ret = ctx->ops->ibv_dealloc_dmah(a));
	if (ret)
		ctx->ops->ibv_dealloc_dmah(a);
	ret = ctx->ops->ibv_dealloc_dmah(b);
	if (ret)
		rc_obs_violation(ctx->obs, "second handle: %s",
				 rc_errno_name(ret));
}

VC_GROUP(alloc, ibv_alloc_dmah, RC_CONV_NULL_ERRNO, alloc_rows);
VC_GROUP(dealloc, ibv_dealloc_dmah, RC_CONV_ERRNO_RET, dealloc_rows);
