// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_open_device(3): "opens the device device and creates a context for
 * further use."  "ibv_close_device() closes the device context context."
 * "returns a pointer to the allocated device context, or NULL if the
 * request fails."  "ibv_close_device() returns 0 on success, -1 on
 * failure."  NOTES: "ibv_close_device() does not release all the
 * resources allocated using context context."
 *
 * ibv_open_device:
 * - the context is the device's: context->device, and its command file
 *   is the device's uverbs node (documented); num_comp_vectors is
 *   compared across the implementations
 * - two opens give two contexts, each answering ibv_query_device
 *   (documented: "creates a context")
 * - the context has a completion vector (interpretation: ibv_create_cq(3)
 *   needs one below num_comp_vectors)
 * - a process that can open no more files: NULL (interpretation: the
 *   device cannot be opened)
 * - context->async_fd is the context's async event file, apart from the
 *   command file (Linux: GET_CONTEXT's anon inode "[infinibandevent]")
 * ibv_close_device:
 * - returns 0 and the command file is closed (documented), the async
 *   event file too
 * - of two contexts, the other still answers (state across calls)
 * - with a PD left on it: 0 (interpretation of the NOTES: the caller's
 *   resources are the caller's to release, the close still closes)
 * Closing never fails where a caller can make it: close(2) of a command
 * file releases what is left on it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "verbs_ctl.h"

#define DOC_OPEN                                                   \
	"ibv_open_device() opens the device device and creates a " \
	"context for further use."
#define DOC_OPEN_RET                                            \
	"ibv_open_device() returns a pointer to the allocated " \
	"device context, or NULL if the request fails."
#define DOC_CLOSE "ibv_close_device() closes the device context context."
#define DOC_CLOSE_RET                                     \
	"ibv_close_device() returns 0 on success, -1 on " \
	"failure."
#define DOC_LEAK                                                 \
	"ibv_close_device() does not release all the resources " \
	"allocated using context context."

static vc_check open_is_devices, open_twice, open_has_vector, open_no_fds,
	open_async_fd, close_closes_fd, close_closes_async_fd, close_one_of_two,
	close_with_pd;

static const struct vc_row open_rows[] = {
	{ .c = { .id = "verbs/open_device/context-of-the-device",
		 .doc = DOC_OPEN,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "context->device is the device; cmd_fd is its "
			 "/dev/infiniband/<dev_name>",
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = open_is_devices,
	  .rung = VL_LIST },
	{ .c = { .id = "verbs/open_device/two-contexts",
		 .doc = DOC_OPEN,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a second open: another context and command file; "
			 "both answer ibv_query_device",
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = open_twice,
	  .rung = VL_CONTEXT },
	{ .c = { .id = "verbs/open_device/has-a-completion-vector",
		 .doc = DOC_OPEN,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "num_comp_vectors >= 1: ibv_create_cq(3) takes a "
			 "vector below it",
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = open_has_vector,
	  .rung = VL_LIST },
	{ .c = { .id = "verbs/open_device/async-event-file",
		 .doc = DOC_OPEN,
		 .basis = RC_BASIS_LINUX,
		 .note = "context->async_fd (what ibv_get_async_event(3) "
			 "reads) is an open anon inode \"[infinibandevent]\" "
			 "(the uverbs GET_CONTEXT's async event file), not "
			 "cmd_fd",
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = open_async_fd,
	  .rung = VL_LIST },
	{ .c = { .id = "verbs/open_device/no-free-descriptor",
		 .doc = DOC_OPEN_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "RLIMIT_NOFILE at the lowest free descriptor: the "
			 "device's node cannot be opened, so NULL",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = open_no_fds,
	  .rung = VL_LIST },
};

static const struct vc_row close_rows[] = {
	{ .c = { .id = "verbs/close_device/closes-command-file",
		 .doc = DOC_CLOSE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "0, and cmd_fd names no uverbs node after",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = close_closes_fd,
	  .rung = VL_CONTEXT },
	{ .c = { .id = "verbs/close_device/closes-async-event-file",
		 .doc = DOC_CLOSE,
		 .basis = RC_BASIS_LINUX,
		 .note = "0, and async_fd names no \"[infinibandevent]\" file "
			 "after (the context's event file closed with it)",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = close_closes_async_fd,
	  .rung = VL_CONTEXT },
	{ .c = { .id = "verbs/close_device/other-context-still-answers",
		 .doc = DOC_CLOSE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "of two contexts of the device, the one not closed "
			 "answers ibv_query_device",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = close_one_of_two,
	  .rung = VL_CONTEXT },
	{ .c = { .id = "verbs/close_device/pd-left-behind",
		 .doc = DOC_LEAK,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "a PD not deallocated: the close still succeeds",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = close_with_pd,
	  .rung = VL_PD },
};

static bool answers(struct rc_ctx *ctx, struct ibv_context *c)
{
	struct ibv_device_attr a;

	return !ctx->ops->ibv_query_device(c, &a);
}

static bool is_uverbs(int fd, const char *dev_name)
{
	char want[96], got[256];

	snprintf(want, sizeof(want), "/dev/infiniband/%s", dev_name);
	return vc_fd_names(fd, got, sizeof(got)) && !strcmp(got, want);
}

/* an async event file of uverbs (the kernel's anon inode name) */
static bool is_event_file(int fd)
{
	char got[256];

	return vc_fd_names(fd, got, sizeof(got)) &&
	       !strcmp(got, "anon_inode:[infinibandevent]");
}

static void open_async_fd(const struct vc_row *row, struct rc_ctx *ctx,
			  struct vl *l)
{
	RC_OBSERVE(ctx, l->ctx = ctx->ops->ibv_open_device(l->dev));
	if (!l->ctx)
		return;
	if (l->ctx->async_fd == l->ctx->cmd_fd ||
	    !is_event_file(l->ctx->async_fd))
		rc_obs_violation(ctx->obs,
				 "async_fd %d: not the context's async event "
				 "file (cmd_fd %d)",
				 l->ctx->async_fd, l->ctx->cmd_fd);
}

static void open_is_devices(const struct vc_row *row, struct rc_ctx *ctx,
			    struct vl *l)
{
	RC_OBSERVE(ctx, l->ctx = ctx->ops->ibv_open_device(l->dev));
	if (!l->ctx)
		return;
	if (l->ctx->device != l->dev)
		rc_obs_violation(ctx->obs, "device: not the one opened");
	else if (!is_uverbs(l->ctx->cmd_fd, l->dev->dev_name))
		rc_obs_violation(ctx->obs, "cmd_fd %d: not /dev/infiniband/%s",
				 l->ctx->cmd_fd, l->dev->dev_name);
	rc_obs_out(ctx->obs, &l->ctx->num_comp_vectors,
		   sizeof(l->ctx->num_comp_vectors));
}

static void open_twice(const struct vc_row *row, struct rc_ctx *ctx,
		       struct vl *l)
{
	struct ibv_context *c;

	if (!rc_need_call(ctx, (const void *)ctx->ops->ibv_query_device,
			  "ibv_query_device"))
		return;
	RC_OBSERVE(ctx, c = ctx->ops->ibv_open_device(l->dev));
	if (!c)
		return;
	if (c == l->ctx || c->cmd_fd == l->ctx->cmd_fd)
		rc_obs_violation(ctx->obs, "context: the first one again");
	else if (!answers(ctx, c) || !answers(ctx, l->ctx))
		rc_obs_violation(ctx->obs, "query_device: a context does not "
					   "answer: %m");
	ctx->ops->ibv_close_device(c);
}

static void open_has_vector(const struct vc_row *row, struct rc_ctx *ctx,
			    struct vl *l)
{
	RC_OBSERVE(ctx, l->ctx = ctx->ops->ibv_open_device(l->dev));
	if (l->ctx && l->ctx->num_comp_vectors < 1)
		rc_obs_violation(ctx->obs, "num_comp_vectors %d",
				 l->ctx->num_comp_vectors);
}

static void open_no_fds(const struct vc_row *row, struct rc_ctx *ctx,
			struct vl *l)
{
	struct rlimit saved;

	if (!vc_no_fds(ctx, &saved))
		return;
	RC_OBSERVE(ctx, l->ctx = ctx->ops->ibv_open_device(l->dev));
	vc_fds_back(&saved);
}

static void close_closes_fd(const struct vc_row *row, struct rc_ctx *ctx,
			    struct vl *l)
{
	int fd = l->ctx->cmd_fd;

	RC_OBSERVE(ctx, ctx->ops->ibv_close_device(l->ctx));
	l->ctx = NULL;
	if (is_uverbs(fd, l->dev->dev_name))
		rc_obs_violation(ctx->obs,
				 "cmd_fd %d: still open on the "
				 "device",
				 fd);
}

static void close_closes_async_fd(const struct vc_row *row, struct rc_ctx *ctx,
				  struct vl *l)
{
	int fd = l->ctx->async_fd;

	RC_OBSERVE(ctx, ctx->ops->ibv_close_device(l->ctx));
	l->ctx = NULL;
	if (is_event_file(fd))
		rc_obs_violation(ctx->obs,
				 "async_fd %d: still an open event file", fd);
}

static void close_one_of_two(const struct vc_row *row, struct rc_ctx *ctx,
			     struct vl *l)
{
	struct ibv_context *c = ctx->ops->ibv_open_device(l->dev);

	if (!c || !rc_need_call(ctx, (const void *)ctx->ops->ibv_query_device,
				"ibv_query_device")) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "a second context "
			     "(set-up): %m");
		return;
	}
	RC_OBSERVE(ctx, ctx->ops->ibv_close_device(c));
	if (!answers(ctx, l->ctx))
		rc_obs_violation(ctx->obs, "query_device: the other context "
					   "does not answer: %m");
}

static void close_with_pd(const struct vc_row *row, struct rc_ctx *ctx,
			  struct vl *l)
{
	int fd = l->ctx->cmd_fd;

	RC_OBSERVE(ctx, ctx->ops->ibv_close_device(l->ctx));
	l->ctx = NULL;
	l->pd = NULL;
	if (is_uverbs(fd, l->dev->dev_name))
		rc_obs_violation(ctx->obs,
				 "cmd_fd %d: still open on the "
				 "device",
				 fd);
}

VC_GROUP(open, ibv_open_device, RC_CONV_NULL_ERRNO, open_rows);
VC_GROUP(close, ibv_close_device, RC_CONV_M1_ERRNO, close_rows);
