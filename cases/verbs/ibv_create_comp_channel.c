// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_create_comp_channel(3): "creates a completion event channel for the
 * RDMA device context context."  "ibv_destroy_comp_channel() destroys the
 * completion event channel channel."  "returns a pointer to the created
 * completion event channel, or NULL if the request fails."
 * "ibv_destroy_comp_channel() returns 0 on success, or the value of errno
 * on failure".  NOTES: "A completion channel is essentially file
 * descriptor"; "ibv_destroy_comp_channel() fails if any CQs are still
 * associated with the completion event channel being destroyed."
 *
 * ibv_create_comp_channel:
 * - the channel is the context's, its fd is open, and a CQ takes it
 *   (documented; the effect where it lands)
 * - two channels have two descriptors (state across calls)
 * - a process that can open no more files: NULL (interpretation: the
 *   channel is a file descriptor)
 * ibv_destroy_comp_channel:
 * - 0, and its descriptor is closed (documented)
 * - a CQ still on it: fails, and the channel is left as it was: its
 *   descriptor open, and a second CQ takes it (documented)
 * - once the CQ is destroyed: 0 (state across calls)
 */
#include <errno.h>
#include <fcntl.h>

#include "verbs_ctl.h"

#define DOC_CREATE                                              \
	"ibv_create_comp_channel() creates a completion event " \
	"channel for the RDMA device context context."
#define DOC_CREATE_RET                                        \
	"ibv_create_comp_channel() returns a pointer to the " \
	"created completion event channel, or NULL if the request fails."
#define DOC_FD                                                      \
	"A completion channel is essentially file descriptor that " \
	"is used to deliver completion notifications to a userspace process."
#define DOC_DESTROY                                           \
	"ibv_destroy_comp_channel() destroys the completion " \
	"event channel channel."
#define DOC_BUSY                                                 \
	"ibv_destroy_comp_channel() fails if any CQs are still " \
	"associated with the completion event channel being destroyed."

static vc_check create_takes_cq, create_two, create_no_fds, destroy_closes,
	destroy_with_cq, destroy_after_cq;

static const struct vc_row create_rows[] = {
	{ .c = { .id = "verbs/create_comp_channel/cq-takes-it",
		 .doc = DOC_CREATE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "context is the context, fd open, and a CQ made on it "
			 "has it as its channel",
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = create_takes_cq,
	  .rung = VL_CONTEXT },
	{ .c = { .id = "verbs/create_comp_channel/two-channels",
		 .doc = DOC_FD,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a second channel: another descriptor",
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = create_two,
	  .rung = VL_CQ },
	{ .c = { .id = "verbs/create_comp_channel/no-free-descriptor",
		 .doc = DOC_CREATE_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "RLIMIT_NOFILE at the lowest free descriptor: the "
			 "channel's descriptor cannot be had",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = create_no_fds,
	  .rung = VL_CONTEXT },
};

static const struct vc_row destroy_rows[] = {
	{ .c = { .id = "verbs/destroy_comp_channel/closes-descriptor",
		 .doc = DOC_DESTROY,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "0, and the channel's fd is closed",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = destroy_closes,
	  .rung = VL_CONTEXT },
	{ .c = { .id = "verbs/destroy_comp_channel/cq-still-on-it",
		 .doc = DOC_BUSY,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "refused; the fd stays open and a second CQ takes the "
			 "channel",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = destroy_with_cq,
	  .rung = VL_CQ },
	{ .c = { .id = "verbs/destroy_comp_channel/after-cq-destroyed",
		 .doc = DOC_DESTROY,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "refused while a CQ was on it, then the CQ destroyed: "
			 "0",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = destroy_after_cq,
	  .rung = VL_CQ },
};

static bool fd_open(int fd)
{
	return fcntl(fd, F_GETFD) != -1;
}

/* A CQ on @ch takes it; a violation if not. */
static void cq_takes(struct rc_ctx *ctx, struct vl *l,
		     struct ibv_comp_channel *ch)
{
	struct ibv_cq *cq = ctx->ops->ibv_create_cq(l->ctx, 4, NULL, ch, 0);

	if (!cq) {
		rc_obs_violation(ctx->obs, "cq: none on the channel: %m");
		return;
	}
	if (cq->channel != ch)
		rc_obs_violation(ctx->obs, "cq: its channel is another");
	ctx->ops->ibv_destroy_cq(cq);
}

static void create_takes_cq(const struct vc_row *row, struct rc_ctx *ctx,
			    struct vl *l)
{
	struct ibv_comp_channel *ch;

	RC_OBSERVE(ctx, ch = ctx->ops->ibv_create_comp_channel(l->ctx));
	if (!ch)
		return;
	if (ch->context != l->ctx)
		rc_obs_violation(ctx->obs, "context: not the one given");
	else if (!fd_open(ch->fd))
		rc_obs_violation(ctx->obs, "fd %d: not open", ch->fd);
	else
		cq_takes(ctx, l, ch);
	ctx->ops->ibv_destroy_comp_channel(ch);
}

static void create_two(const struct vc_row *row, struct rc_ctx *ctx,
		       struct vl *l)
{
	struct ibv_comp_channel *ch;

	RC_OBSERVE(ctx, ch = ctx->ops->ibv_create_comp_channel(l->ctx));
	if (!ch)
		return;
	if (ch->fd == l->ch->fd || !fd_open(ch->fd))
		rc_obs_violation(ctx->obs,
				 "fd %d: the first channel's, or "
				 "not open",
				 ch->fd);
	ctx->ops->ibv_destroy_comp_channel(ch);
}

static void create_no_fds(const struct vc_row *row, struct rc_ctx *ctx,
			  struct vl *l)
{
	struct ibv_comp_channel *ch;
	struct rlimit saved;

	if (!vc_no_fds(ctx, &saved))
		return;
	RC_OBSERVE(ctx, ch = ctx->ops->ibv_create_comp_channel(l->ctx));
	vc_fds_back(&saved);
	if (ch)
		ctx->ops->ibv_destroy_comp_channel(ch);
}

static void destroy_closes(const struct vc_row *row, struct rc_ctx *ctx,
			   struct vl *l)
{
	struct ibv_comp_channel *ch = ctx->ops->ibv_create_comp_channel(l->ctx);
	int fd, ret;

	if (!ch) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "a channel (set-up): "
			     "%m");
		return;
	}
	fd = ch->fd;
	RC_OBSERVE(ctx, ret = ctx->ops->ibv_destroy_comp_channel(ch));
	if (!ret && fd_open(fd))
		rc_obs_violation(ctx->obs, "fd %d: still open", fd);
}

static void destroy_with_cq(const struct vc_row *row, struct rc_ctx *ctx,
			    struct vl *l)
{
	int ret;

	RC_OBSERVE(ctx, ret = ctx->ops->ibv_destroy_comp_channel(l->ch));
	if (!ret) {
		/* gone under its CQ: the CQ goes first in vl_down */
		l->ch = NULL;
		return;
	}
	if (!fd_open(l->ch->fd))
		rc_obs_violation(ctx->obs,
				 "fd %d: closed by the refused "
				 "destroy",
				 l->ch->fd);
	else
		cq_takes(ctx, l, l->ch);
}

static void destroy_after_cq(const struct vc_row *row, struct rc_ctx *ctx,
			     struct vl *l)
{
	int ret;

	if (!ctx->ops->ibv_destroy_comp_channel(l->ch)) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "the channel went with "
			     "its CQ on it (see cq-still-on-it)");
		l->ch = NULL;
		return;
	}
	if (ctx->ops->ibv_destroy_cq(l->cq)) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_destroy_cq "
			     "(set-up): %m");
		return;
	}
	l->cq = NULL;
	RC_OBSERVE(ctx, ret = ctx->ops->ibv_destroy_comp_channel(l->ch));
	if (!ret)
		l->ch = NULL;
}

VC_GROUP(create, ibv_create_comp_channel, RC_CONV_NULL_ERRNO, create_rows);
VC_GROUP(destroy, ibv_destroy_comp_channel, RC_CONV_ERRNO_RET, destroy_rows);
