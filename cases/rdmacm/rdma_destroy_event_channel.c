// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_destroy_event_channel(3): "Release all resources associated with
 * an event channel and closes the associated file descriptor."  NOTES:
 * "All rdma_cm_id's associated with the event channel must be destroyed,
 * and all returned events must be acked before calling this function."
 *
 * - a fresh channel: its fd is closed after (F_GETFD: EBADF)
 * - a channel whose id resolved an address, its event acknowledged and
 *   the id destroyed: its fd is closed after
 * - the NOTES' order broken, an id bound to the device's address and
 *   the row's port still on the channel: its fd is closed, and the kernel
 *   has released the id with it: a new id binds that address and port
 */
#include <fcntl.h>
#include <string.h>

#include "rdmacm_conn.h"

#define DOC_CLOSE                                                            \
	"Release all resources associated with an event channel and closes " \
	"the associated file descriptor."
#define DOC_ORDER                                                          \
	"All rdma_cm_id's associated with the event channel must be "      \
	"destroyed, and all returned events must be acked before calling " \
	"this function."

enum dc_kind { DC_FRESH, DC_AFTER_ID, DC_ID_LEFT };

struct dc_row {
	struct rc_case c;
	enum dc_kind kind;
};

static const struct dc_row rows[] = {
	{ .c = { .id = "rdmacm/destroy_event_channel/fresh",
		 .doc = DOC_CLOSE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a channel that never had an id: after the call its "
			 "fd is closed (fcntl F_GETFD fails with EBADF)",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_ANY_RETURN } },
	  .kind = DC_FRESH },
	{ .c = { .id = "rdmacm/destroy_event_channel/after-ids-and-events",
		 .doc = DOC_ORDER,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "an id of the channel resolved an address, its "
			 "ADDR_RESOLVED acknowledged, the id destroyed: after "
			 "the call the channel's fd is closed",
		 .needs = RC_NEED_DEVICE | RC_NEED_PEER,
		 .contract = { RC_ANY_RETURN } },
	  .kind = DC_AFTER_ID },
	{ .c = { .id = "rdmacm/destroy_event_channel/id-still-on-it",
		 .doc = DOC_ORDER,
		 .basis = RC_BASIS_LINUX,
		 .note = "the page's order broken: an id bound to the device's "
			 "address and the row's port is still on the channel. "
			 "The fd is closed, and the kernel's ucma_close "
			 "destroys every id of the file with it: an id on a "
			 "new channel binds the same address and port (0, "
			 "not EADDRINUSE)",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_ANY_RETURN } },
	  .kind = DC_ID_LEFT },
};

static void fd_closed(struct rc_ctx *ctx, int fd)
{
	errno = 0;
	if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
		rc_obs_violation(ctx->obs, "fd %d still open", fd);
}

static bool bound_addr(struct rc_ctx *ctx, struct sockaddr_storage *ss)
{
	if (!cm_dev_addr(ctx, ctx->target->ca, ctx->target->port, AF_INET, ss))
		return false;
	((struct sockaddr_in *)ss)->sin_port = htons(cm_port(ctx));
	return true;
}

/* After the id left on the channel went with it: the address binds. */
static void rebinds(struct rc_ctx *ctx, struct sockaddr_storage *ss)
{
	const struct rc_ops *ops = ctx->ops;
	struct rdma_event_channel *ch = ops->rdma_create_event_channel();
	struct rdma_cm_id *id = NULL;

	if (!ch || ops->rdma_create_id(ch, &id, NULL, RDMA_PS_TCP)) {
		id = NULL;
		cm_broken(ctx, "a new channel and id");
		goto out;
	}
	if (ops->rdma_bind_addr(id, (struct sockaddr *)ss))
		rc_obs_violation(ctx->obs,
				 "rebind the address and port of the id left "
				 "on the channel do not bind (%m)");
out:
	if (id)
		ops->rdma_destroy_id(id);
	if (ch)
		ops->rdma_destroy_event_channel(ch);
}

static bool with_id(const struct dc_row *row, struct rc_ctx *ctx,
		    struct rdma_event_channel *ch, struct sockaddr_storage *ss)
{
	const struct rc_ops *ops = ctx->ops;
	const struct rc_target *t = ctx->target;
	struct sockaddr_storage src;
	struct rdma_cm_event *ev;
	struct rdma_cm_id *id;
	struct cm_end e = { .who = "channel", .ops = ops, .ch = ch };

	if (ops->rdma_create_id(ch, &id, NULL, RDMA_PS_TCP))
		return cm_broken(ctx, "rdma_create_id");
	if (row->kind == DC_ID_LEFT) {
		if (!bound_addr(ctx, ss))
			return false;
		if (ops->rdma_bind_addr(id, (struct sockaddr *)ss))
			return cm_broken(ctx, "rdma_bind_addr");
		return true;
	}
	if (!cm_dev_addr(ctx, t->peer, t->peer_port, AF_INET, &src) ||
	    !cm_dev_addr(ctx, t->ca, t->port, AF_INET, ss))
		return false;
	if (ops->rdma_resolve_addr(id, (struct sockaddr *)&src,
				   (struct sockaddr *)ss, CM_RESOLVE_MS))
		return cm_broken(ctx, "rdma_resolve_addr");
	if (cm_next(ctx, &e, CM_WAIT_MS, &ev) < 0)
		return cm_broken(ctx, "no ADDR_RESOLVED");
	ops->rdma_ack_cm_event(ev);
	if (ops->rdma_destroy_id(id))
		return cm_broken(ctx, "rdma_destroy_id");
	return true;
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct dc_row *row = r;
	const struct rc_ops *ops = ctx->ops;
	struct rdma_event_channel *ch;
	struct sockaddr_storage ss;
	int fd;

	if (!rc_need_call(ctx, ops->rdma_destroy_event_channel,
			  "rdma_destroy_event_channel"))
		return;
	ch = ops->rdma_create_event_channel();
	if (!ch) {
		cm_broken(ctx, "rdma_create_event_channel");
		return;
	}
	if (row->kind != DC_FRESH && !with_id(row, ctx, ch, &ss)) {
		ops->rdma_destroy_event_channel(ch);
		return;
	}
	fd = ch->fd;
	RC_OBSERVE(ctx, (ops->rdma_destroy_event_channel(ch), 0));
	fd_closed(ctx, fd);
	if (row->kind == DC_ID_LEFT)
		rebinds(ctx, &ss);
}

RC_TABLE_GROUP(group, "rdma_destroy_event_channel", RC_CONV_VALUE, "rdmacm",
	       rows, run);
