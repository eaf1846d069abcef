// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_import_pd(3): "returns a protection domain (PD) that is associated
 * with the given pd_handle in the given context."  "The input pd_handle
 * value must be a valid kernel handle for a PD object in the given
 * context."  "The returned ibv_pd can be used in all verbs that get a
 * protection domain."  "ibv_unimport_pd() unimport the PD."  "The first
 * one will go to the kernel to destroy the object once the second one way
 * cleanup what ever is needed/opposite of the import without calling the
 * kernel."  "returns a pointer to the allocated PD, or NULL if the request
 * fails."
 *
 * The handle imported is a PD's of the same context (its ibv_pd->handle):
 * ibv_import_pd:
 * - the PD has the handle and the context, and an MR registers on it
 *   (documented)
 * - a second PD's handle (a first PD's is 0, what a forgotten copy
 *   leaves): that handle, and an MR on the import holds that PD
 *   (documented; the effect where it lands)
 * - each of 70 PDs, oldest first, more than a first list of 64 handles
 *   holds: its handle (documented; the Nth object)
 * - the handle of a PD deallocated: NULL (documented: "must be a valid
 *   kernel handle"; state across calls)
 * - a handle no PD has: NULL (documented: "must be a valid kernel handle")
 * ibv_unimport_pd:
 * - the kernel's PD stays: the original takes an MR, then deallocates
 *   (documented: "without calling the kernel")
 * - two imports of one handle, one unimported: the other still takes an
 *   MR (state across calls)
 * A provider that imports no PD (EOPNOTSUPP) leaves nothing to unimport:
 * those rows are UNSUPPORTED there.
 */
#include <errno.h>

#include "verbs_ctl.h"

#define DOC_IMPORT                                               \
	"ibv_import_pd() returns a protection domain (PD) that " \
	"is associated with the given pd_handle in the given context."
#define DOC_USE                                                    \
	"The returned ibv_pd can be used in all verbs that get a " \
	"protection domain."
#define DOC_VALID                                                  \
	"The input pd_handle value must be a valid kernel handle " \
	"for a PD object in the given context."
#define DOC_UNIMPORT                                           \
	"The first one will go to the kernel to destroy the "  \
	"object once the second one way cleanup what ever is " \
	"needed/opposite of the import without calling the kernel."
#define DOC_UNIMPORT_PD "ibv_unimport_pd() unimport the PD."

#define BOGUS 0x7ead5eed

static vc_check import_own, import_second, import_among_many, import_bogus,
	import_gone, unimport_keeps, unimport_one;

static const struct vc_row import_rows[] = {
	{ .c = { .id = "verbs/import_pd/own-handle",
		 .doc = DOC_USE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the context's own PD's handle: handle and context as "
			 "given, and an MR registers on it",
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = import_own,
	  .rung = VL_PD },
	{ .c = { .id = "verbs/import_pd/second-pd",
		 .doc = DOC_IMPORT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a second PD's handle (not 0, which a first PD has): "
			 "that handle, and an MR registered on the import "
			 "holds that PD",
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = import_second,
	  .rung = VL_PD },
	{ .c = { .id = "verbs/import_pd/among-many-pds",
		 .doc = DOC_IMPORT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "each of 70 PDs of the context, more than a first "
			 "list of 64 handles holds, oldest first: its handle",
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = import_among_many,
	  .rung = VL_PD },
	{ .c = { .id = "verbs/import_pd/handle-of-a-deallocated-pd",
		 .doc = DOC_VALID,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the handle of the context's only PD after "
			 "ibv_dealloc_pd: no PD has it now, NULL",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = import_gone,
	  .rung = VL_PD },
	{ .c = { .id = "verbs/import_pd/handle-of-no-pd",
		 .doc = DOC_VALID,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "0x7ead5eed, no PD's handle: NULL",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = import_bogus,
	  .rung = VL_PD },
};

static const struct vc_row unimport_rows[] = {
	{ .c = { .id = "verbs/unimport_pd/kernel-pd-stays",
		 .doc = DOC_UNIMPORT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "after it, the original PD takes an MR and then "
			 "deallocates",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = unimport_keeps,
	  .rung = VL_PD },
	{ .c = { .id = "verbs/unimport_pd/one-of-two-imports",
		 .doc = DOC_UNIMPORT_PD,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "two imports of one handle, one unimported: the other "
			 "still takes an MR",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = unimport_one,
	  .rung = VL_PD },
};

/* An MR registers on @pd; a violation naming @what if not. */
static void takes_mr(struct rc_ctx *ctx, struct ibv_pd *pd, const char *what)
{
	static char buf[4096] __attribute__((aligned(4096)));
	struct ibv_mr *mr = (ctx->ops->ibv_reg_mr)(pd, buf, sizeof(buf), 0);

	if (!mr)
		rc_obs_violation(ctx->obs, "%s: no MR registers on it: %m",
				 what);
	else
		ctx->ops->ibv_dereg_mr(mr);
}

/* An import of @l's PD (set-up), or NULL: UNSUPPORTED where the provider
 * imports none, BROKEN otherwise. */
static struct ibv_pd *imported(struct rc_ctx *ctx, struct vl *l)
{
	struct ibv_pd *pd = ctx->ops->ibv_import_pd(l->ctx, l->pd->handle);

	if (!pd)
		rc_obs_state(ctx->obs,
			     errno == EOPNOTSUPP ? RC_STATE_UNSUPPORTED :
						   RC_STATE_BROKEN,
			     "ibv_import_pd of the context's own PD: %m");
	return pd;
}

static void import_own(const struct vc_row *row, struct rc_ctx *ctx,
		       struct vl *l)
{
	struct ibv_pd *pd;

	RC_OBSERVE(ctx, pd = ctx->ops->ibv_import_pd(l->ctx, l->pd->handle));
	if (!pd)
		return;
	if (pd->handle != l->pd->handle || pd->context != l->ctx)
		rc_obs_violation(ctx->obs,
				 "handle/context: %u, not the %u "
				 "given, or another context",
				 pd->handle, l->pd->handle);
	else
		takes_mr(ctx, pd, "imported pd");
	ctx->ops->ibv_unimport_pd(pd);
}

static void import_second(const struct vc_row *row, struct rc_ctx *ctx,
			  struct vl *l)
{
	struct ibv_pd *two = vc_second_pd(ctx, l), *pd;
	struct ibv_mr *mr;
	bool gone = false;

	if (!two)
		return;
	RC_OBSERVE(ctx, pd = ctx->ops->ibv_import_pd(l->ctx, two->handle));
	if (pd && pd->handle != two->handle) {
		rc_obs_violation(ctx->obs, "handle %u, not the %u given",
				 pd->handle, two->handle);
	} else if (pd) {
		mr = vc_mr(ctx, pd, 4096, 0);
		if (mr) {
			gone = !vc_pd_held(ctx, two, "an MR on its import");
			vc_mr_free(ctx, mr);
		}
	}
	if (pd)
		ctx->ops->ibv_unimport_pd(pd);
	if (!gone)
		ctx->ops->ibv_dealloc_pd(two);
}

/* beyond the 64 handles a first INFO_HANDLES list has room for */
#define MANY_PDS 70

static void import_among_many(const struct vc_row *row, struct rc_ctx *ctx,
			      struct vl *l)
{
	struct ibv_pd *many[MANY_PDS], *pd;
	int n, i;

	for (n = 0; n < MANY_PDS; n++)
		if (!(many[n] = vc_second_pd(ctx, l)))
			break;
	/* every one of them, oldest first: the newest alone would be found
	 * wherever the list puts it */
	rc_obs_begin(ctx->obs);
	for (i = 0, pd = l->pd; n == MANY_PDS && i < MANY_PDS && pd; i++) {
		pd = ctx->ops->ibv_import_pd(l->ctx, many[i]->handle);
		if (pd && pd->handle != many[i]->handle)
			rc_obs_violation(ctx->obs,
					 "PD %d: handle %u, not the "
					 "%u given",
					 i, pd->handle, many[i]->handle);
		if (pd)
			ctx->ops->ibv_unimport_pd(pd);
	}
	/* a pointer's convention: non-NULL (1) when every import was made */
	rc_obs_end(ctx->obs, pd ? 1 : 0);
	while (n--)
		ctx->ops->ibv_dealloc_pd(many[n]);
}

static void import_gone(const struct vc_row *row, struct rc_ctx *ctx,
			struct vl *l)
{
	uint32_t handle = l->pd->handle;
	struct ibv_pd *pd;

	if (ctx->ops->ibv_dealloc_pd(l->pd)) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_dealloc_pd (set-up): %m");
		return;
	}
	l->pd = NULL;
	RC_OBSERVE(ctx, pd = ctx->ops->ibv_import_pd(l->ctx, handle));
	if (pd)
		ctx->ops->ibv_unimport_pd(pd);
}

static void import_bogus(const struct vc_row *row, struct rc_ctx *ctx,
			 struct vl *l)
{
	struct ibv_pd *pd;

	RC_OBSERVE(ctx, pd = ctx->ops->ibv_import_pd(l->ctx, BOGUS));
	if (pd)
		ctx->ops->ibv_unimport_pd(pd);
}

static void unimport_keeps(const struct vc_row *row, struct rc_ctx *ctx,
			   struct vl *l)
{
	struct ibv_pd *pd;

	if (!rc_need_call(ctx, (const void *)ctx->ops->ibv_import_pd,
			  "ibv_import_pd") ||
	    !(pd = imported(ctx, l)))
		return;
	RC_OBSERVE(ctx, (ctx->ops->ibv_unimport_pd(pd), 0));
	takes_mr(ctx, l->pd, "original pd");
	if (ctx->ops->ibv_dealloc_pd(l->pd))
		rc_obs_violation(ctx->obs, "original pd: does not deallocate: "
					   "%m");
	else
		l->pd = NULL;
}

static void unimport_one(const struct vc_row *row, struct rc_ctx *ctx,
			 struct vl *l)
{
	struct ibv_pd *a, *b;

	if (!rc_need_call(ctx, (const void *)ctx->ops->ibv_import_pd,
			  "ibv_import_pd") ||
	    !(a = imported(ctx, l)))
		return;
	if (!(b = imported(ctx, l))) {
		ctx->ops->ibv_unimport_pd(a);
		return;
	}
	RC_OBSERVE(ctx, (ctx->ops->ibv_unimport_pd(a), 0));
	takes_mr(ctx, b, "other import");
	ctx->ops->ibv_unimport_pd(b);
}

VC_GROUP(import, ibv_import_pd, RC_CONV_NULL_ERRNO, import_rows);
VC_GROUP(unimport, ibv_unimport_pd, RC_CONV_VALUE, unimport_rows);
