// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_alloc_parent_domain(3): "returns a pointer to the allocated struct
 * ibv_pd object, or NULL if the request fails (and sets errno to indicate
 * the failure reason)."  "A parent domain is completely interchangeable
 * with the struct ibv_pd used to create it".
 *
 * A parent domain is the provider's (no kernel object); rxe's and siw's
 * providers have none, and no device attribute says which do.
 *
 * - a provider without parent domains: NULL, EOPNOTSUPP (interpretation,
 *   as for ibv_alloc_td); UNSUPPORTED where one is made
 * - where one is made: its context is the PD's, and ibv_dealloc_pd
 *   deallocates it (documented)
 */
#include <errno.h>

#include "verbs_opt.h"

#define DOC_RET                                                         \
	"ibv_alloc_parent_domain() returns a pointer to the allocated " \
	"struct ibv_pd object, or NULL if the request fails (and sets " \
	"errno to indicate the failure reason)."
#define DOC_DEALLOC                                                  \
	"ibv_dealloc_pd() will deallocate the parent domain as its " \
	"exposed as an ibv_pd pd."

static vc_check unsupported, dealloc_by_pd;

static const struct vc_row rows[] = {
	{ .c = { .id = "verbs/alloc_parent_domain/not-supported",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "a provider without parent domains (rxe's, siw's): "
			 "NULL and EOPNOTSUPP, the errno the pages name for a "
			 "device without the verb; UNSUPPORTED where one is "
			 "made",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS(EOPNOTSUPP) } },
	  .check = unsupported,
	  .rung = VL_PD },
	{ .c = { .id = "verbs/alloc_parent_domain/dealloc-as-pd",
		 .doc = DOC_DEALLOC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "its context is the PD's, and ibv_dealloc_pd of it "
			 "returns 0; UNSUPPORTED where none is made",
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = dealloc_by_pd,
	  .rung = VL_PD },
};

static struct ibv_pd *alloc(struct rc_ctx *ctx, struct vl *l)
{
	struct ibv_parent_domain_init_attr a = { .pd = l->pd };

	return ctx->ops->ibv_alloc_parent_domain(l->ctx, &a);
}

static void unsupported(const struct vc_row *row, struct rc_ctx *ctx,
			struct vl *l)
{
	struct ibv_pd *p;

	RC_OBSERVE(ctx, p = alloc(ctx, l));
	vo_made(ctx, p, "parent domains");
	if (p)
		ctx->ops->ibv_dealloc_pd(p);
}

static void dealloc_by_pd(const struct vc_row *row, struct rc_ctx *ctx,
			  struct vl *l)
{
	struct ibv_pd *p = alloc(ctx, l);

	if (!p) {
		rc_obs_state(ctx->obs, RC_STATE_UNSUPPORTED,
			     "the provider makes no parent domain (%m)");
		return;
	}
	ctx->ops->ibv_dealloc_pd(p);
	RC_OBSERVE(ctx, p = alloc(ctx, l));
	if (!p)
		return;
	if (p->context != l->ctx)
		rc_obs_violation(ctx->obs, "context: not the PD's");
	if (ctx->ops->ibv_dealloc_pd(p))
		rc_obs_violation(ctx->obs, "ibv_dealloc_pd of it: %m");
}

VC_GROUP(alloc, ibv_alloc_parent_domain, RC_CONV_NULL_ERRNO, rows);
