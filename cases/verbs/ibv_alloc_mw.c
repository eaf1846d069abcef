// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_alloc_mw(3): "allocates a memory window (MW) associated with the
 * protection domain pd.  The MW's type (1 or 2A/2B) is type."  "The MW is
 * created not bound."  "ibv_dealloc_mw() Unbinds in case was previously
 * bound and deallocates the MW mw."  "returns a pointer to the allocated
 * MW, or NULL if the request fails."  "ibv_dealloc_mw() returns 0 on
 * success, or the value of errno on failure".
 *
 * A device that has no memory windows of a type (device_cap_flags:
 * IBV_DEVICE_MEM_WINDOW, _TYPE_2A, _TYPE_2B; siw has none) is UNSUPPORTED
 * for that type's rows.
 *
 * ibv_alloc_mw:
 * - type 1 and type 2: the MW's pd, context and type are the ones asked
 *   (documented)
 * - the MW is the PD's: the PD refuses to deallocate while it is there
 *   (documented: "associated with the protection domain pd")
 * - on a second PD of the context, that PD is the one held (the effect
 *   in the kernel: the command names the PD given)
 * - two MWs: two rkeys, and each deallocates (state across calls;
 *   interpretation: an R_Key names one MW, IBA 10.6.7)
 * - type 3, which is no type: NULL (interpretation)
 * - the command file gone: NULL (interpretation)
 * ibv_dealloc_mw:
 * - 0, and then the PD deallocates (documented; the effect in the kernel)
 * - of two MWs, the other one still holds the PD (state across calls)
 * - the command file gone: an errno value (interpretation)
 */
#include <errno.h>

#include "verbs_ctl.h"

#define DOC_ALLOC                                                   \
	"ibv_alloc_mw() allocates a memory window (MW) associated " \
	"with the protection domain pd. The MW's type (1 or 2A/2B) is type."
#define DOC_ALLOC_RET                                        \
	"ibv_alloc_mw() returns a pointer to the allocated " \
	"MW, or NULL if the request fails."
#define DOC_DEALLOC                                              \
	"ibv_dealloc_mw() Unbinds in case was previously bound " \
	"and deallocates the MW mw."
#define DOC_DEALLOC_RET                                  \
	"ibv_dealloc_mw() returns 0 on success, or the " \
	"value of errno on failure (which indicates the failure reason)."

static vc_check alloc_type, alloc_holds_pd, alloc_bad_type, alloc_severed,
	dealloc_frees_pd, dealloc_one_of_two, dealloc_severed, alloc_second_pd,
	alloc_two;

static const struct vc_row alloc_rows[] = {
	{ .c = { .id = "verbs/alloc_mw/type-1",
		 .doc = DOC_ALLOC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "pd, context and type as asked",
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = alloc_type,
	  .rung = VL_PD,
	  .arg = IBV_MW_TYPE_1 },
	{ .c = { .id = "verbs/alloc_mw/type-2",
		 .doc = DOC_ALLOC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "pd, context and type as asked",
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = alloc_type,
	  .rung = VL_PD,
	  .arg = IBV_MW_TYPE_2 },
	{ .c = { .id = "verbs/alloc_mw/holds-its-pd",
		 .doc = DOC_ALLOC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "while the MW is there, ibv_dealloc_pd of its PD "
			 "fails",
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = alloc_holds_pd,
	  .rung = VL_PD },
	{ .c = { .id = "verbs/alloc_mw/second-pd-held",
		 .doc = DOC_ALLOC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "an MW on a second PD of the context: ibv_dealloc_pd "
			 "of that PD fails while the MW is there",
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = alloc_second_pd,
	  .rung = VL_PD },
	{ .c = { .id = "verbs/alloc_mw/two-rkeys",
		 .doc = DOC_ALLOC,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "two type 1 MWs on the PD: their rkeys differ, and "
			 "ibv_dealloc_mw takes each (0)",
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = alloc_two,
	  .rung = VL_PD },
	{ .c = { .id = "verbs/alloc_mw/type-3",
		 .doc = DOC_ALLOC_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "3 is no type of MW: no MW can be made",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = alloc_bad_type,
	  .rung = VL_PD },
	{ .c = { .id = "verbs/alloc_mw/command-file-gone",
		 .doc = DOC_ALLOC_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the context's command file replaced by an O_PATH "
			 "descriptor",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = alloc_severed,
	  .rung = VL_PD },
};

static const struct vc_row dealloc_rows[] = {
	{ .c = { .id = "verbs/dealloc_mw/frees-its-pd",
		 .doc = DOC_DEALLOC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "0, and the PD then deallocates",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = dealloc_frees_pd,
	  .rung = VL_PD },
	{ .c = { .id = "verbs/dealloc_mw/one-of-two",
		 .doc = DOC_DEALLOC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "of two MWs, the one not deallocated still holds the "
			 "PD",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = dealloc_one_of_two,
	  .rung = VL_PD },
	{ .c = { .id = "verbs/dealloc_mw/command-file-gone",
		 .doc = DOC_DEALLOC_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the context's command file replaced by an O_PATH "
			 "descriptor",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = dealloc_severed,
	  .rung = VL_PD },
};

/* Does the device have MWs of @type?  UNSUPPORTED when not. */
static bool has_mw(struct rc_ctx *ctx, struct vl *l, enum ibv_mw_type type)
{
	struct ibv_device_attr a;
	unsigned int want = type == IBV_MW_TYPE_1 ?
				    IBV_DEVICE_MEM_WINDOW :
				    IBV_DEVICE_MEM_WINDOW_TYPE_2A |
					    IBV_DEVICE_MEM_WINDOW_TYPE_2B;

	if (!vc_attr(ctx, l, &a))
		return false;
	if (a.device_cap_flags & want)
		return true;
	rc_obs_state(ctx->obs, RC_STATE_UNSUPPORTED,
		     "the device has no "
		     "memory windows of type %d (device_cap_flags 0x%x)",
		     type, a.device_cap_flags);
	return false;
}

/* An MW of type 1 (set-up), or NULL and the row BROKEN */
static struct ibv_mw *mw(struct rc_ctx *ctx, struct vl *l)
{
	struct ibv_mw *w = ctx->ops->ibv_alloc_mw(l->pd, IBV_MW_TYPE_1);

	if (!w)
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_alloc_mw "
			     "(set-up): %m");
	return w;
}

static void alloc_type(const struct vc_row *row, struct rc_ctx *ctx,
		       struct vl *l)
{
	struct ibv_mw *w;

	if (!has_mw(ctx, l, row->arg))
		return;
	RC_OBSERVE(ctx, w = ctx->ops->ibv_alloc_mw(l->pd, row->arg));
	if (!w)
		return;
	if (w->pd != l->pd || w->context != l->ctx)
		rc_obs_violation(ctx->obs, "pd/context: not the PD's");
	else if (w->type != (enum ibv_mw_type)row->arg)
		rc_obs_violation(ctx->obs, "type %d, asked %ld", w->type,
				 row->arg);
	rc_obs_out(ctx->obs, &w->type, sizeof(w->type));
	ctx->ops->ibv_dealloc_mw(w);
}

static void alloc_holds_pd(const struct vc_row *row, struct rc_ctx *ctx,
			   struct vl *l)
{
	struct ibv_mw *w;

	if (!has_mw(ctx, l, IBV_MW_TYPE_1))
		return;
	RC_OBSERVE(ctx, w = ctx->ops->ibv_alloc_mw(l->pd, IBV_MW_TYPE_1));
	if (!w)
		return;
	if (!vc_pd_held(ctx, l->pd, "the MW")) {
		l->pd = NULL;
		return;
	}
	ctx->ops->ibv_dealloc_mw(w);
}

static void alloc_second_pd(const struct vc_row *row, struct rc_ctx *ctx,
			    struct vl *l)
{
	struct ibv_pd *pd;
	struct ibv_mw *w;

	if (!has_mw(ctx, l, IBV_MW_TYPE_1) || !(pd = vc_second_pd(ctx, l)))
		return;
	RC_OBSERVE(ctx, w = ctx->ops->ibv_alloc_mw(pd, IBV_MW_TYPE_1));
	if (w && !vc_pd_held(ctx, pd, "the MW"))
		return;
	if (w)
		ctx->ops->ibv_dealloc_mw(w);
	ctx->ops->ibv_dealloc_pd(pd);
}

static void alloc_two(const struct vc_row *row, struct rc_ctx *ctx,
		      struct vl *l)
{
	struct ibv_mw *a, *b;
	int ea, eb;

	if (!has_mw(ctx, l, IBV_MW_TYPE_1) || !(a = mw(ctx, l)))
		return;
	RC_OBSERVE(ctx, b = ctx->ops->ibv_alloc_mw(l->pd, IBV_MW_TYPE_1));
	if (!b) {
		ctx->ops->ibv_dealloc_mw(a);
		return;
	}
	if (a->rkey == b->rkey)
		rc_obs_violation(ctx->obs, "rkey: 0x%x for both MWs", a->rkey);
	eb = ctx->ops->ibv_dealloc_mw(b);
	ea = ctx->ops->ibv_dealloc_mw(a);
	if (ea || eb)
		rc_obs_violation(ctx->obs,
				 "ibv_dealloc_mw: %s for the first, %s for the "
				 "second",
				 rc_errno_name(ea), rc_errno_name(eb));
}

static void alloc_bad_type(const struct vc_row *row, struct rc_ctx *ctx,
			   struct vl *l)
{
	struct ibv_mw *w;

	RC_OBSERVE(ctx, w = ctx->ops->ibv_alloc_mw(l->pd, (enum ibv_mw_type)3));
	if (w)
		ctx->ops->ibv_dealloc_mw(w);
}

static void alloc_severed(const struct vc_row *row, struct rc_ctx *ctx,
			  struct vl *l)
{
	if (has_mw(ctx, l, IBV_MW_TYPE_1) && vc_sever(ctx, l))
		RC_OBSERVE(ctx, ctx->ops->ibv_alloc_mw(l->pd, IBV_MW_TYPE_1));
}

static void dealloc_frees_pd(const struct vc_row *row, struct rc_ctx *ctx,
			     struct vl *l)
{
	struct ibv_mw *w;
	int ret;

	if (!has_mw(ctx, l, IBV_MW_TYPE_1) || !(w = mw(ctx, l)))
		return;
	RC_OBSERVE(ctx, ret = ctx->ops->ibv_dealloc_mw(w));
	if (ret)
		return;
	if (ctx->ops->ibv_dealloc_pd(l->pd))
		rc_obs_violation(ctx->obs, "pd: still held after the MW went");
	else
		l->pd = NULL;
}

static void dealloc_one_of_two(const struct vc_row *row, struct rc_ctx *ctx,
			       struct vl *l)
{
	struct ibv_mw *a, *b;

	if (!has_mw(ctx, l, IBV_MW_TYPE_1) || !(a = mw(ctx, l)))
		return;
	if (!(b = mw(ctx, l))) {
		ctx->ops->ibv_dealloc_mw(a);
		return;
	}
	RC_OBSERVE(ctx, ctx->ops->ibv_dealloc_mw(a));
	if (!ctx->ops->ibv_dealloc_pd(l->pd)) {
		rc_obs_violation(ctx->obs, "pd: deallocated with an MW on it");
		l->pd = NULL;
		return;
	}
	ctx->ops->ibv_dealloc_mw(b);
}

static void dealloc_severed(const struct vc_row *row, struct rc_ctx *ctx,
			    struct vl *l)
{
	struct ibv_mw *w;

	if (has_mw(ctx, l, IBV_MW_TYPE_1) && (w = mw(ctx, l)) &&
	    vc_sever(ctx, l))
		RC_OBSERVE(ctx, ctx->ops->ibv_dealloc_mw(w));
}

VC_GROUP(alloc, ibv_alloc_mw, RC_CONV_NULL_ERRNO, alloc_rows);
VC_GROUP(dealloc, ibv_dealloc_mw, RC_CONV_ERRNO_RET, dealloc_rows);
