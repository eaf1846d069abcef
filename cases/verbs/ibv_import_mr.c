// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_import_mr(3): "returns a Memory region (MR) that is associated with
 * the given mr_handle in the RDMA context that assosicated with the given
 * pd."  "The input mr_handle value must be a valid kernel handle for an MR
 * object in the assosicated RDMA context."  "ibv_unimport_mr() un import
 * the MR."  "returns a pointer to the allocated MR, or NULL if the request
 * fails."  NOTES: "The addr field in the imported MR is not applicable,
 * NULL value is expected."
 *
 * The handle imported is an MR's of the same context:
 * ibv_import_mr:
 * - the MR has the handle, the original's lkey, rkey and length, the pd
 *   given, and addr NULL (documented)
 * - a handle no MR has: NULL (documented)
 * ibv_unimport_mr:
 * - the kernel's MR stays: the kernel still has it by its lkey, and the
 *   original deregisters (documented: the unimport does not call the
 *   kernel)
 * A provider that imports no MR (EOPNOTSUPP) leaves nothing to unimport:
 * that row is UNSUPPORTED there.
 */
#include <errno.h>

#include "verbs_ctl.h"

#define DOC_IMPORT                                                      \
	"ibv_import_mr() returns a Memory region (MR) that is "         \
	"associated with the given mr_handle in the RDMA context that " \
	"assosicated with the given pd."
#define DOC_ADDR                                                     \
	"The addr field in the imported MR is not applicable, NULL " \
	"value is expected."
#define DOC_VALID                                                  \
	"The input mr_handle value must be a valid kernel handle " \
	"for an MR object in the assosicated RDMA context."
#define DOC_UNIMPORT                                           \
	"The first one will go to the kernel to destroy the "  \
	"object once the second one way cleanup what ever is " \
	"needed/opposite of the import without calling the kernel."

#define LEN 8192
#define BOGUS 0x7ead5eed

static vc_check import_own, import_bogus, unimport_keeps;

static const struct vc_row import_rows[] = {
	{ .c = { .id = "verbs/import_mr/own-handle",
		 .doc = DOC_IMPORT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "an MR of the context: handle, lkey, rkey, length "
			 "the original's, pd the one given",
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = import_own,
	  .rung = VL_PD },
	{ .c = { .id = "verbs/import_mr/addr-null",
		 .doc = DOC_ADDR,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = import_own,
	  .rung = VL_PD,
	  .arg = 1 },
	{ .c = { .id = "verbs/import_mr/handle-of-no-mr",
		 .doc = DOC_VALID,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "0x7ead5eed, no MR's handle: NULL",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = import_bogus,
	  .rung = VL_PD },
};

static const struct vc_row unimport_rows[] = {
	{ .c = { .id = "verbs/unimport_mr/kernel-mr-stays",
		 .doc = DOC_UNIMPORT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "after it, the kernel still has the MR, and the "
			 "original deregisters",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = unimport_keeps,
	  .rung = VL_PD },
};

static void import_own(const struct vc_row *row, struct rc_ctx *ctx,
		       struct vl *l)
{
	struct ibv_mr *orig = vc_mr(ctx, l->pd, LEN, IBV_ACCESS_LOCAL_WRITE);
	struct ibv_mr *mr;

	if (!orig)
		return;
	RC_OBSERVE(ctx, mr = ctx->ops->ibv_import_mr(l->pd, orig->handle));
	if (mr && row->arg && mr->addr)
		rc_obs_violation(ctx->obs, "addr %p, NULL expected", mr->addr);
	else if (mr && !row->arg &&
		 (mr->handle != orig->handle || mr->lkey != orig->lkey ||
		  mr->rkey != orig->rkey || mr->length != orig->length ||
		  mr->pd != l->pd))
		rc_obs_violation(ctx->obs, "handle/lkey/rkey/length/pd: not "
					   "the original's");
	if (mr)
		ctx->ops->ibv_unimport_mr(mr);
	vc_mr_free(ctx, orig);
}

static void import_bogus(const struct vc_row *row, struct rc_ctx *ctx,
			 struct vl *l)
{
	struct ibv_mr *mr;

	RC_OBSERVE(ctx, mr = ctx->ops->ibv_import_mr(l->pd, BOGUS));
	if (mr)
		ctx->ops->ibv_unimport_mr(mr);
}

static void unimport_keeps(const struct vc_row *row, struct rc_ctx *ctx,
			   struct vl *l)
{
	struct ibv_mr *orig, *mr;
	uint64_t len;
	uint32_t rkey;

	if (!rc_need_call(ctx, (const void *)ctx->ops->ibv_import_mr,
			  "ibv_import_mr") ||
	    !(orig = vc_mr(ctx, l->pd, LEN, IBV_ACCESS_LOCAL_WRITE)))
		return;
	mr = ctx->ops->ibv_import_mr(l->pd, orig->handle);
	if (!mr) {
		rc_obs_state(ctx->obs,
			     errno == EOPNOTSUPP ? RC_STATE_UNSUPPORTED :
						   RC_STATE_BROKEN,
			     "ibv_import_mr of the context's own MR: %m");
		vc_mr_free(ctx, orig);
		return;
	}
	RC_OBSERVE(ctx, (ctx->ops->ibv_unimport_mr(mr), 0));
	if (!vc_kernel_mr(ctx, orig->lkey, &len, &rkey) || len != LEN)
		rc_obs_violation(ctx->obs, "kernel: the MR is gone");
	else if (ctx->ops->ibv_dereg_mr(orig))
		rc_obs_violation(ctx->obs, "original: does not deregister: %m");
	else
		orig = NULL;
	vc_mr_free(ctx, orig);
}

VC_GROUP(import, ibv_import_mr, RC_CONV_NULL_ERRNO, import_rows);
VC_GROUP(unimport, ibv_unimport_mr, RC_CONV_VALUE, unimport_rows);
