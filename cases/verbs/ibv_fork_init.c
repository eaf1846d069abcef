// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_fork_init(3): "initializes libibverbs's data structures to handle
 * fork() function calls correctly"; "returns 0 on success, or the value of
 * errno on failure (which indicates the failure reason).  An error value
 * of EINVAL indicates that there had been RDMA memory registration already
 * and it is therefore not safe anymore to fork."
 * ibv_is_fork_initialized(3): "returns IBV_FORK_DISABLED if fork support
 * is disabled, or IBV_FORK_ENABLED if enabled.  IBV_FORK_UNNEEDED return
 * value indicates that the kernel copies DMA pages on fork"; NOTES: "If
 * the kernel supports copy-on-fork for DMA pages then IBV_FORK_UNNEEDED
 * will be returned regardless of whether ibv_fork_init() was called or
 * not."
 *
 * Whether the kernel copies DMA pages on fork is read apart from the
 * calls: RDMA netlink's copy-on-fork attribute (`rdma sys show`;
 * verbs_nl.h).  Each
 * row runs in a process of its own, so each starts with libibverbs
 * before any ibv_fork_init and any registration.
 *
 * ibv_fork_init:
 * - the first call: 0 (documented)
 * - a second call: 0 (interpretation: initialised already)
 * - after a memory registration: EINVAL (documented)
 * ibv_is_fork_initialized:
 * - where the kernel copies: IBV_FORK_UNNEEDED, before and after
 *   ibv_fork_init (documented)
 * - where it does not: IBV_FORK_DISABLED before, IBV_FORK_ENABLED after
 *   (documented; UNSUPPORTED on a kernel that copies)
 */
#include <errno.h>
#include <string.h>

#include "verbs_ctl.h"
#include "verbs_nl.h"

#define DOC_INIT_RET                                          \
	"ibv_fork_init() returns 0 on success, or the value " \
	"of errno on failure (which indicates the failure reason)."
#define DOC_EINVAL                                                       \
	"An error value of EINVAL indicates that there had been "        \
	"RDMA memory registration already and it is therefore not safe " \
	"anymore to fork."
#define DOC_INIT                                                         \
	"ibv_fork_init() initializes libibverbs's data structures "      \
	"to handle fork() function calls correctly and avoid data "      \
	"corruption, whether fork() is called explicitly or implicitly " \
	"(such as in system())."
#define DOC_STATUS                                                \
	"ibv_is_fork_initialized() returns IBV_FORK_DISABLED if " \
	"fork support is disabled, or IBV_FORK_ENABLED if enabled."
#define DOC_UNNEEDED                                                     \
	"If the kernel supports copy-on-fork for DMA pages "             \
	"then IBV_FORK_UNNEEDED will be returned regardless of whether " \
	"ibv_fork_init() was called or not."

static vc_check init_first, init_twice, init_after_mr, status_copies,
	status_not_copies;

enum { BEFORE, AFTER };

static const struct vc_row init_rows[] = {
	{ .c = { .id = "verbs/fork_init/first-call",
		 .doc = DOC_INIT_RET,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = init_first,
	  .rung = VC_BARE },
	{ .c = { .id = "verbs/fork_init/second-call",
		 .doc = DOC_INIT,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "called again: the data structures are initialised, "
			 "so 0",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = init_twice,
	  .rung = VC_BARE },
	{ .c = { .id = "verbs/fork_init/after-registration",
		 .doc = DOC_EINVAL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "an MR registered first, on any kernel",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS(EINVAL) } },
	  .check = init_after_mr,
	  .rung = VL_PD },
};

static const struct vc_row status_rows[] = {
	{ .c = { .id = "verbs/is_fork_initialized/unneeded-before-fork-init",
		 .doc = DOC_UNNEEDED,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a kernel that copies (RDMA netlink): UNNEEDED",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(IBV_FORK_UNNEEDED) } },
	  .check = status_copies,
	  .rung = VC_BARE,
	  .arg = BEFORE },
	{ .c = { .id = "verbs/is_fork_initialized/unneeded-after-fork-init",
		 .doc = DOC_UNNEEDED,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the same after ibv_fork_init",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(IBV_FORK_UNNEEDED) } },
	  .check = status_copies,
	  .rung = VC_BARE,
	  .arg = AFTER },
	{ .c = { .id = "verbs/is_fork_initialized/disabled-before-fork-init",
		 .doc = DOC_STATUS,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a kernel that does not copy: DISABLED",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(IBV_FORK_DISABLED) } },
	  .check = status_not_copies,
	  .rung = VC_BARE,
	  .arg = BEFORE },
	{ .c = { .id = "verbs/is_fork_initialized/enabled-after-fork-init",
		 .doc = DOC_STATUS,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a kernel that does not copy: ENABLED after "
			 "ibv_fork_init",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(IBV_FORK_ENABLED) } },
	  .check = status_not_copies,
	  .rung = VC_BARE,
	  .arg = AFTER },
};

static void init_first(const struct vc_row *row, struct rc_ctx *ctx,
		       struct vl *l)
{
	RC_OBSERVE(ctx, ctx->ops->ibv_fork_init());
}

static void init_twice(const struct vc_row *row, struct rc_ctx *ctx,
		       struct vl *l)
{
	int err = ctx->ops->ibv_fork_init();

	if (err) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "a first ibv_fork_init "
			     "(set-up): %s",
			     rc_errno_name(err));
		return;
	}
	RC_OBSERVE(ctx, ctx->ops->ibv_fork_init());
}

static void init_after_mr(const struct vc_row *row, struct rc_ctx *ctx,
			  struct vl *l)
{
	struct ibv_mr *mr = vc_mr(ctx, l->pd, 4096, 0);

	if (!mr)
		return;
	RC_OBSERVE(ctx, ctx->ops->ibv_fork_init());
	vc_mr_free(ctx, mr);
}

/* The call under test, before or after ibv_fork_init as the row says, on
 * a kernel that copies (@copies) or not: UNSUPPORTED elsewhere. */
static void status(const struct vc_row *row, struct rc_ctx *ctx, bool copies)
{
	int k = vn_copy_on_fork();

	if (k < 0) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "RDMA netlink says nothing of copy-on-fork");
		return;
	}
	if (k != copies) {
		rc_obs_state(ctx->obs, RC_STATE_UNSUPPORTED,
			     "the kernel %s "
			     "DMA pages on fork",
			     k ? "copies" :
				 "does not "
				 "copy");
		return;
	}
	if (!rc_need_call(ctx, (const void *)ctx->ops->ibv_fork_init,
			  "ibv_fork_init"))
		return;
	if (row->arg == AFTER && ctx->ops->ibv_fork_init()) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_fork_init "
			     "(set-up) failed");
		return;
	}
	RC_OBSERVE(ctx, ctx->ops->ibv_is_fork_initialized());
}

static void status_copies(const struct vc_row *row, struct rc_ctx *ctx,
			  struct vl *l)
{
	status(row, ctx, true);
}

static void status_not_copies(const struct vc_row *row, struct rc_ctx *ctx,
			      struct vl *l)
{
	status(row, ctx, false);
}

VC_GROUP(init, ibv_fork_init, RC_CONV_ERRNO_RET, init_rows);
VC_GROUP(status, ibv_is_fork_initialized, RC_CONV_VALUE, status_rows);
