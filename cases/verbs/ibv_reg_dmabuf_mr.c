// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_reg_mr(3), of ibv_reg_dmabuf_mr: "returns a pointer to the
 * registered MR, or NULL if the request fails."  rxe (6.1) and siw
 * register no dma-buf (the kernel's REG_DMABUF_MR method needs the
 * driver's reg_user_mr_dmabuf).
 *
 * - a file that is no dma-buf (a memfd): NULL (interpretation: fd is to
 *   be "the file descriptor of the dma-buf"; on rxe and siw it is the
 *   device without the verb as well)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>

#include "verbs_opt.h"

#define DOC_RET                                                             \
	"ibv_reg_mr() / ibv_reg_mr_iova() / ibv_reg_dmabuf_mr() returns a " \
	"pointer to the registered MR, or NULL if the request fails."

static vc_check not_dmabuf;

static const struct vc_row rows[] = {
	{ .c = { .id = "verbs/reg_dmabuf_mr/not-a-dmabuf",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "a memfd of 4 KiB is no dma-buf: NULL (rxe and siw "
			 "register none at all)",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = not_dmabuf,
	  .rung = VL_PD },
};

static void not_dmabuf(const struct vc_row *row, struct rc_ctx *ctx,
		       struct vl *l)
{
	int fd = memfd_create("rdmaconf", 0);
	struct ibv_mr *mr;

	if (fd < 0 || ftruncate(fd, 4096)) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN, "memfd (set-up): %m");
		if (fd >= 0)
			close(fd);
		return;
	}
	RC_OBSERVE(ctx, mr = ctx->ops->ibv_reg_dmabuf_mr(
				l->pd, 0, 4096, 0, fd, IBV_ACCESS_LOCAL_WRITE));
	if (mr)
		ctx->ops->ibv_dereg_mr(mr);
	close(fd);
}

VC_GROUP(reg, ibv_reg_dmabuf_mr, RC_CONV_NULL_ERRNO, rows);
