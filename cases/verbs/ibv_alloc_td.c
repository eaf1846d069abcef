// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_alloc_td(3): "allocates a thread domain object for the RDMA device
 * context context."  "returns a pointer to the allocated struct ibv_td
 * object, or NULL if the request fails (and sets errno to indicate the
 * failure reason)."  "ibv_dealloc_td() returns 0 on success, or the value
 * of errno on failure".
 *
 * A thread domain is the provider's alone (no kernel object); rxe's and
 * siw's providers have none.  No device attribute says whether a device
 * has them, so the "not supported" row is UNSUPPORTED where one is made.
 *
 * ibv_alloc_td:
 * - a provider without thread domains: NULL, errno EOPNOTSUPP
 *   (interpretation: the errno the pages name for a device without a
 *   verb, ibv_create_counters(3))
 * - where one is made: its context is the one asked (documented)
 * ibv_dealloc_td:
 * - a thread domain made: 0 (documented)
 */
#include <errno.h>

#include "verbs_opt.h"

#define DOC_ALLOC_RET                                                       \
	"ibv_alloc_td() returns a pointer to the allocated struct ibv_td "  \
	"object, or NULL if the request fails (and sets errno to indicate " \
	"the failure reason)."
#define DOC_ALLOC                                                       \
	"ibv_alloc_td() allocates a thread domain object for the RDMA " \
	"device context context."
#define DOC_DEALLOC_RET                                                    \
	"ibv_dealloc_td() returns 0 on success, or the value of errno on " \
	"failure (which indicates the failure reason)."

static vc_check alloc_unsupported, alloc_context, dealloc_made;

static const struct vc_row alloc_rows[] = {
	{ .c = { .id = "verbs/alloc_td/not-supported",
		 .doc = DOC_ALLOC_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "a provider without thread domains (rxe's, siw's): "
			 "NULL and EOPNOTSUPP, the errno the pages name for a "
			 "device without the verb; UNSUPPORTED where one is "
			 "made",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS(EOPNOTSUPP) } },
	  .check = alloc_unsupported,
	  .rung = VL_CONTEXT },
	{ .c = { .id = "verbs/alloc_td/its-context",
		 .doc = DOC_ALLOC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the TD's context is the one asked; UNSUPPORTED "
			 "where the provider makes none",
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = alloc_context,
	  .rung = VL_CONTEXT },
};

static const struct vc_row dealloc_rows[] = {
	{ .c = { .id = "verbs/dealloc_td/made",
		 .doc = DOC_DEALLOC_RET,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a TD just made deallocates: 0; UNSUPPORTED where "
			 "the provider makes none",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = dealloc_made,
	  .rung = VL_CONTEXT },
};

/* A TD (set-up), or NULL and the row UNSUPPORTED with the cause */
static struct ibv_td *td(struct rc_ctx *ctx, struct vl *l)
{
	struct ibv_td_init_attr a = { 0 };
	struct ibv_td *t = ctx->ops->ibv_alloc_td(l->ctx, &a);

	if (!t)
		rc_obs_state(ctx->obs, RC_STATE_UNSUPPORTED,
			     "the provider makes no thread domain "
			     "(ibv_alloc_td: %m)");
	return t;
}

static void alloc_unsupported(const struct vc_row *row, struct rc_ctx *ctx,
			      struct vl *l)
{
	struct ibv_td_init_attr a = { 0 };
	struct ibv_td *t;

	RC_OBSERVE(ctx, t = ctx->ops->ibv_alloc_td(l->ctx, &a));
	vo_made(ctx, t, "thread domains");
	if (t)
		ctx->ops->ibv_dealloc_td(t);
}

static void alloc_context(const struct vc_row *row, struct rc_ctx *ctx,
			  struct vl *l)
{
	struct ibv_td_init_attr a = { 0 };
	struct ibv_td *t;

	if (!(t = td(ctx, l)))
		return;
	ctx->ops->ibv_dealloc_td(t);
	RC_OBSERVE(ctx, t = ctx->ops->ibv_alloc_td(l->ctx, &a));
	if (!t)
		return;
	if (t->context != l->ctx)
		rc_obs_violation(ctx->obs, "context: not the one asked");
	ctx->ops->ibv_dealloc_td(t);
}

static void dealloc_made(const struct vc_row *row, struct rc_ctx *ctx,
			 struct vl *l)
{
	struct ibv_td *t = td(ctx, l);

	if (t)
		RC_OBSERVE(ctx, ctx->ops->ibv_dealloc_td(t));
}

VC_GROUP(alloc, ibv_alloc_td, RC_CONV_NULL_ERRNO, alloc_rows);
VC_GROUP(dealloc, ibv_dealloc_td, RC_CONV_ERRNO_RET, dealloc_rows);
