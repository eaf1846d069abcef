// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_rereg_mr(3): "Modifies the attributes of an existing memory region
 * (MR) mr."  IBV_REREG_MR_CHANGE_TRANSLATION "Change translation (location
 * and length)", IBV_REREG_MR_CHANGE_PD, IBV_REREG_MR_CHANGE_ACCESS.
 * "returns 0 on success, otherwise an error has occurred, enum
 * ibv_rereg_mr_err_code represents the error": "IBV_REREG_MR_ERR_INPUT -
 * Old MR is valid, an input error was detected by libibverbs."  NOTES:
 * "Even on a failure, the user still needs to call ibv_dereg_mr on this
 * MR."
 *
 * What each flag may change, where it lands (a device that re-registers
 * nothing, IBV_REREG_MR_ERR_CMD with EOPNOTSUPP, is UNSUPPORTED):
 * - CHANGE_TRANSLATION: mr->addr and mr->length are the new ones, and so
 *   is the kernel's record of the MR (documented)
 * - CHANGE_PD: mr->pd is the new PD; the old one deallocates now, the new
 *   one refuses while the MR is on it (documented)
 * - CHANGE_ACCESS to LOCAL_WRITE | REMOTE_READ (documented)
 * What must not happen:
 * - a flag bit beyond the three: ERR_INPUT, and the old MR is valid: its
 *   fields and the kernel's record as they were, and ibv_dereg_mr takes
 *   it (documented)
 * - CHANGE_TRANSLATION to length 0: ERR_INPUT, old MR valid
 *   (interpretation: no translation to change to)
 * - CHANGE_ACCESS that breaks ibv_reg_mr(3)'s rule (REMOTE_WRITE without
 *   LOCAL_WRITE): ERR_INPUT, old MR valid (interpretation: an input error
 *   libibverbs can detect)
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include "verbs_ctl.h"

#define DOC_REREG                                                \
	"ibv_rereg_mr() Modifies the attributes of an existing " \
	"memory region (MR) mr."
#define DOC_TRANS                                                             \
	"When IBV_REREG_MR_CHANGE_TRANSLATION is used, addr. "                \
	"represents the virtual address (user-space pointer) of the new MR, " \
	"while length represents its length."
#define DOC_PD                                                        \
	"When IBV_REREG_MR_CHANGE_PD is used, pd represents the new " \
	"PD this MR should be registered to."
#define DOC_ACCESS                                           \
	"The access and other flags are represented in the " \
	"field access."
#define DOC_INPUT                                                   \
	"IBV_REREG_MR_ERR_INPUT - Old MR is valid, an input error " \
	"was detected by libibverbs."
#define DOC_FLAGS                                            \
	"flags is a bit-mask used to indicate which of the " \
	"following properties of the memory region are being modified."

#define LEN 4096
#define NEW_LEN 8192

static vc_check change_translation, change_pd, change_access, input_error;

/* input_error's: what is wrong with the input */
enum { BAD_FLAG, ZERO_LENGTH, BAD_ACCESS };

static const struct vc_row rows[] = {
	{ .c = { .id = "verbs/rereg_mr/change-translation",
		 .doc = DOC_TRANS,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "4096 bytes to 8192 elsewhere: mr->addr and length, "
			 "and the kernel's MR, are the new ones",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = change_translation,
	  .rung = VL_PD },
	{ .c = { .id = "verbs/rereg_mr/change-pd",
		 .doc = DOC_PD,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "mr->pd is the new PD; the old one deallocates, the "
			 "new one refuses while the MR is on it",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = change_pd,
	  .rung = VL_PD },
	{ .c = { .id = "verbs/rereg_mr/change-access",
		 .doc = DOC_ACCESS,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "LOCAL_WRITE to LOCAL_WRITE | REMOTE_READ: 0, and the "
			 "kernel still has the MR by its new lkey",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = change_access,
	  .rung = VL_PD },
	{ .c = { .id = "verbs/rereg_mr/unknown-flag",
		 .doc = DOC_INPUT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "flags 1 << 3, beyond the three: ERR_INPUT; the MR's "
			 "fields and the kernel's record unchanged, and "
			 "ibv_dereg_mr takes it",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = input_error,
	  .rung = VL_PD,
	  .arg = BAD_FLAG },
	{ .c = { .id = "verbs/rereg_mr/translation-length-0",
		 .doc = DOC_INPUT,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "CHANGE_TRANSLATION to 0 bytes: no translation to "
			 "change to, an input error; old MR valid",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = input_error,
	  .rung = VL_PD,
	  .arg = ZERO_LENGTH },
	{ .c = { .id = "verbs/rereg_mr/access-breaks-rule",
		 .doc = DOC_INPUT,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "CHANGE_ACCESS to REMOTE_WRITE without LOCAL_WRITE, "
			 "which ibv_reg_mr(3) forbids: an input error "
			 "libibverbs can detect; old MR valid",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = input_error,
	  .rung = VL_PD,
	  .arg = BAD_ACCESS },
};

/* ERR_CMD with EOPNOTSUPP: the device re-registers nothing (rxe's
 * kernel driver has no rereg_user_mr) */
static bool cannot(struct rc_ctx *ctx, int ret)
{
	if (ret != IBV_REREG_MR_ERR_CMD || errno != EOPNOTSUPP)
		return false;
	rc_obs_state(ctx->obs, RC_STATE_UNSUPPORTED,
		     "the device cannot "
		     "re-register an MR (IBV_REREG_MR_ERR_CMD, EOPNOTSUPP)");
	return true;
}

static void *fresh(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static void change_translation(const struct vc_row *row, struct rc_ctx *ctx,
			       struct vl *l)
{
	struct ibv_mr *mr = vc_mr(ctx, l->pd, LEN, IBV_ACCESS_LOCAL_WRITE);
	void *old, *p = fresh(NEW_LEN);
	uint64_t klen;
	uint32_t rkey;
	int ret;

	if (!mr || !p) {
		if (mr)
			rc_obs_state(ctx->obs, RC_STATE_BROKEN, "mmap: %m");
		vc_mr_free(ctx, mr);
		return;
	}
	old = mr->addr;
	RC_OBSERVE(ctx, ret = ctx->ops->ibv_rereg_mr(
				mr, IBV_REREG_MR_CHANGE_TRANSLATION, NULL, p,
				NEW_LEN, 0));
	if (!cannot(ctx, ret) && !ret) {
		if (mr->addr != p || mr->length != NEW_LEN)
			rc_obs_violation(ctx->obs,
					 "addr/length %p/%zu, the new "
					 "ones are %p/%d",
					 mr->addr, mr->length, p, NEW_LEN);
		else if (!vc_kernel_mr(ctx, mr->lkey, &klen, &rkey) ||
			 klen != NEW_LEN)
			rc_obs_violation(ctx->obs,
					 "length: the kernel has no "
					 "MR of lkey 0x%x and %d bytes",
					 mr->lkey, NEW_LEN);
	}
	ctx->ops->ibv_dereg_mr(mr);
	munmap(old, LEN);
	munmap(p, NEW_LEN);
}

static void change_pd(const struct vc_row *row, struct rc_ctx *ctx,
		      struct vl *l)
{
	struct ibv_pd *pd = ctx->ops->ibv_alloc_pd(l->ctx);
	struct ibv_mr *mr = pd ? vc_mr(ctx, l->pd, LEN, 0) : NULL;
	int ret;

	if (!mr) {
		if (!pd)
			rc_obs_state(ctx->obs, RC_STATE_BROKEN,
				     "a second PD "
				     "(set-up): %m");
		else
			ctx->ops->ibv_dealloc_pd(pd);
		return;
	}
	RC_OBSERVE(ctx, ret = ctx->ops->ibv_rereg_mr(mr, IBV_REREG_MR_CHANGE_PD,
						     pd, NULL, 0, 0));
	if (!cannot(ctx, ret) && !ret) {
		if (mr->pd != pd)
			rc_obs_violation(ctx->obs, "pd: not the new one");
		else if (!ctx->ops->ibv_dealloc_pd(pd))
			rc_obs_violation(ctx->obs, "new pd: deallocated with "
						   "the MR on it");
		else if (ctx->ops->ibv_dealloc_pd(l->pd))
			rc_obs_violation(ctx->obs, "old pd: still held");
		else
			l->pd = NULL;
	}
	vc_mr_free(ctx, mr);
	ctx->ops->ibv_dealloc_pd(pd);
}

static void change_access(const struct vc_row *row, struct rc_ctx *ctx,
			  struct vl *l)
{
	struct ibv_mr *mr = vc_mr(ctx, l->pd, LEN, IBV_ACCESS_LOCAL_WRITE);
	uint64_t klen;
	uint32_t rkey;
	int ret;

	if (!mr)
		return;
	RC_OBSERVE(ctx,
		   ret = ctx->ops->ibv_rereg_mr(
			   mr, IBV_REREG_MR_CHANGE_ACCESS, NULL, NULL, 0,
			   IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ));
	if (!cannot(ctx, ret) && !ret &&
	    (!vc_kernel_mr(ctx, mr->lkey, &klen, &rkey) || klen != LEN ||
	     rkey != mr->rkey))
		rc_obs_violation(ctx->obs,
				 "lkey 0x%x: the kernel has no such "
				 "MR with its rkey",
				 mr->lkey);
	vc_mr_free(ctx, mr);
}

static void input_error(const struct vc_row *row, struct rc_ctx *ctx,
			struct vl *l)
{
	struct ibv_mr *mr = vc_mr(ctx, l->pd, LEN, IBV_ACCESS_LOCAL_WRITE);
	struct ibv_mr before;
	void *addr, *p = fresh(LEN);
	uint64_t klen;
	uint32_t rkey;
	int ret;

	if (!mr || !p) {
		if (mr)
			rc_obs_state(ctx->obs, RC_STATE_BROKEN, "mmap: %m");
		vc_mr_free(ctx, mr);
		return;
	}
	before = *mr;
	addr = mr->addr;
	if (row->arg == BAD_FLAG)
		RC_OBSERVE(ctx, ret = ctx->ops->ibv_rereg_mr(mr, 1 << 3, NULL,
							     NULL, 0, 0));
	else if (row->arg == ZERO_LENGTH)
		RC_OBSERVE(ctx, ret = ctx->ops->ibv_rereg_mr(
					mr, IBV_REREG_MR_CHANGE_TRANSLATION,
					NULL, p, 0, 0));
	else
		RC_OBSERVE(ctx, ret = ctx->ops->ibv_rereg_mr(
					mr, IBV_REREG_MR_CHANGE_ACCESS, NULL,
					NULL, 0, IBV_ACCESS_REMOTE_WRITE));
	if (ret && ret != IBV_REREG_MR_ERR_INPUT)
		rc_obs_violation(ctx->obs,
				 "error %d, not "
				 "IBV_REREG_MR_ERR_INPUT (-1)",
				 ret);
	else if (ret &&
		 (mr->addr != before.addr || mr->length != before.length ||
		  mr->lkey != before.lkey || mr->pd != before.pd))
		rc_obs_violation(ctx->obs, "mr: its fields changed");
	else if (ret && (!vc_kernel_mr(ctx, mr->lkey, &klen, &rkey) ||
			 klen != LEN || rkey != mr->rkey))
		rc_obs_violation(ctx->obs, "kernel: the old MR is gone or "
					   "changed");
	if (ctx->ops->ibv_dereg_mr(mr))
		rc_obs_violation(ctx->obs, "dereg: ibv_dereg_mr refuses the "
					   "MR after the failure: %m");
	munmap(addr, LEN);
	munmap(p, LEN);
}

VC_GROUP(rereg, ibv_rereg_mr, RC_CONV_NEG, rows);
