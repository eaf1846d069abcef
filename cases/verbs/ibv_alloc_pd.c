// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_alloc_pd(3): "allocates a PD for the RDMA device context context."
 * "ibv_dealloc_pd() deallocates the PD pd."  "returns a pointer to the
 * allocated PD, or NULL if the request fails."  "ibv_dealloc_pd() returns
 * 0 on success, or the value of errno on failure".  NOTES:
 * "ibv_dealloc_pd() may fail if any other resource is still associated
 * with the PD being freed."
 *
 * ibv_alloc_pd:
 * - the PD is the context's, and an MR registers on it: the kernel keeps
 *   the MR (documented; the effect where it lands)
 * - two PDs are two: each takes an MR of its own (state across calls)
 * - the command file gone: NULL (interpretation)
 * ibv_dealloc_pd:
 * - a PD with nothing on it: 0 (documented)
 * - a PD an MR is registered on: fails (interpretation of "may fail": the
 *   MR still holds it), and the PD is left as it was: a second MR
 *   registers on it
 * - the errno of that failure is EBUSY (Linux's ABI: uverbs refuses to
 *   destroy an object still in use with it)
 * - after that MR is deregistered: 0 (state across calls)
 * - the command file gone: an errno value (interpretation)
 */
#include <errno.h>

#include "verbs_ctl.h"

#define DOC_ALLOC                                            \
	"ibv_alloc_pd() allocates a PD for the RDMA device " \
	"context context."
#define DOC_ALLOC_RET                                        \
	"ibv_alloc_pd() returns a pointer to the allocated " \
	"PD, or NULL if the request fails."
#define DOC_DEALLOC "ibv_dealloc_pd() deallocates the PD pd."
#define DOC_DEALLOC_RET                                  \
	"ibv_dealloc_pd() returns 0 on success, or the " \
	"value of errno on failure (which indicates the failure reason)."
#define DOC_BUSY                                                    \
	"ibv_dealloc_pd() may fail if any other resource is still " \
	"associated with the PD being freed."

#define MR_LEN 4096

static vc_check alloc_takes_mr, alloc_two, alloc_severed, dealloc_empty,
	dealloc_with_mr, dealloc_after_mr, dealloc_severed;

static const struct vc_row alloc_rows[] = {
	{ .c = { .id = "verbs/alloc_pd/takes-an-mr",
		 .doc = DOC_ALLOC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "pd->context is the context; an MR registered on it "
			 "is in the kernel's records",
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = alloc_takes_mr,
	  .rung = VL_CONTEXT },
	{ .c = { .id = "verbs/alloc_pd/two-pds",
		 .doc = DOC_ALLOC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a second PD: another handle, and an MR of its own",
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = alloc_two,
	  .rung = VL_PD },
	{ .c = { .id = "verbs/alloc_pd/command-file-gone",
		 .doc = DOC_ALLOC_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the context's command file replaced by an O_PATH "
			 "descriptor: no PD can be made",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = alloc_severed,
	  .rung = VL_CONTEXT },
};

static const struct vc_row dealloc_rows[] = {
	{ .c = { .id = "verbs/dealloc_pd/empty",
		 .doc = DOC_DEALLOC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = dealloc_empty,
	  .rung = VL_PD },
	{ .c = { .id = "verbs/dealloc_pd/mr-still-registered",
		 .doc = DOC_BUSY,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "\"may fail\" read as fails: the MR still holds the "
			 "PD; the PD then takes a second MR, as before",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = dealloc_with_mr,
	  .rung = VL_PD },
	{ .c = { .id = "verbs/dealloc_pd/mr-holds-ebusy",
		 .doc = DOC_DEALLOC_RET,
		 .basis = RC_BASIS_LINUX,
		 .note = "the PD an MR is on: EBUSY, the errno Linux's uverbs "
			 "gives for an object still in use",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS(EBUSY) } },
	  .check = dealloc_with_mr,
	  .rung = VL_PD },
	{ .c = { .id = "verbs/dealloc_pd/after-mr-deregistered",
		 .doc = DOC_DEALLOC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "refused while an MR was on it, then the MR "
			 "deregistered: 0",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = dealloc_after_mr,
	  .rung = VL_PD },
	{ .c = { .id = "verbs/dealloc_pd/command-file-gone",
		 .doc = DOC_DEALLOC_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the context's command file replaced by an O_PATH "
			 "descriptor",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = dealloc_severed,
	  .rung = VL_PD },
};

/* An MR on @pd is in the kernel's records; a violation if not. */
static void mr_lands(struct rc_ctx *ctx, struct ibv_pd *pd, const char *what)
{
	static char buf[MR_LEN] __attribute__((aligned(MR_LEN)));
	struct ibv_mr *mr;
	uint64_t len;
	uint32_t rkey;

	mr = (ctx->ops->ibv_reg_mr)(pd, buf, MR_LEN, IBV_ACCESS_LOCAL_WRITE);
	if (!mr) {
		rc_obs_violation(ctx->obs, "%s: no MR registers on it: %m",
				 what);
		return;
	}
	if (mr->pd != pd)
		rc_obs_violation(ctx->obs, "%s: the MR's pd is another", what);
	else if (!vc_kernel_mr(ctx, mr->lkey, &len, &rkey) || len != MR_LEN)
		rc_obs_violation(ctx->obs,
				 "%s: the kernel has no MR of lkey "
				 "0x%x and %d bytes",
				 what, mr->lkey, MR_LEN);
	ctx->ops->ibv_dereg_mr(mr);
}

static void alloc_takes_mr(const struct vc_row *row, struct rc_ctx *ctx,
			   struct vl *l)
{
	RC_OBSERVE(ctx, l->pd = ctx->ops->ibv_alloc_pd(l->ctx));
	if (!l->pd)
		return;
	if (l->pd->context != l->ctx)
		rc_obs_violation(ctx->obs, "context: not the one given");
	else
		mr_lands(ctx, l->pd, "pd");
}

static void alloc_two(const struct vc_row *row, struct rc_ctx *ctx,
		      struct vl *l)
{
	struct ibv_pd *pd;

	RC_OBSERVE(ctx, pd = ctx->ops->ibv_alloc_pd(l->ctx));
	if (!pd)
		return;
	if (pd == l->pd || pd->handle == l->pd->handle)
		rc_obs_violation(ctx->obs, "handle %u: the first PD's",
				 pd->handle);
	else
		mr_lands(ctx, pd, "second pd");
	ctx->ops->ibv_dealloc_pd(pd);
}

static void alloc_severed(const struct vc_row *row, struct rc_ctx *ctx,
			  struct vl *l)
{
	if (vc_sever(ctx, l))
		RC_OBSERVE(ctx, l->pd = ctx->ops->ibv_alloc_pd(l->ctx));
}

static void dealloc_empty(const struct vc_row *row, struct rc_ctx *ctx,
			  struct vl *l)
{
	int ret;

	RC_OBSERVE(ctx, ret = ctx->ops->ibv_dealloc_pd(l->pd));
	if (!ret)
		l->pd = NULL;
}

static void dealloc_with_mr(const struct vc_row *row, struct rc_ctx *ctx,
			    struct vl *l)
{
	struct ibv_mr *mr = vc_mr(ctx, l->pd, MR_LEN, 0);
	int ret;

	if (!mr)
		return;
	RC_OBSERVE(ctx, ret = ctx->ops->ibv_dealloc_pd(l->pd));
	if (!ret) {
		/* gone: the MR is the kernel's to clean up with the context */
		l->pd = NULL;
		return;
	}
	mr_lands(ctx, l->pd, "pd after the refusal");
	vc_mr_free(ctx, mr);
}

static void dealloc_after_mr(const struct vc_row *row, struct rc_ctx *ctx,
			     struct vl *l)
{
	struct ibv_mr *mr = vc_mr(ctx, l->pd, MR_LEN, 0);
	int ret;

	if (!mr)
		return;
	ctx->ops->ibv_dealloc_pd(l->pd);
	vc_mr_free(ctx, mr);
	RC_OBSERVE(ctx, ret = ctx->ops->ibv_dealloc_pd(l->pd));
	if (!ret)
		l->pd = NULL;
}

static void dealloc_severed(const struct vc_row *row, struct rc_ctx *ctx,
			    struct vl *l)
{
	if (vc_sever(ctx, l))
		RC_OBSERVE(ctx, ctx->ops->ibv_dealloc_pd(l->pd));
}

VC_GROUP(alloc, ibv_alloc_pd, RC_CONV_NULL_ERRNO, alloc_rows);
VC_GROUP(dealloc, ibv_dealloc_pd, RC_CONV_ERRNO_RET, dealloc_rows);
