// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_create_event_channel(3): "Asynchronous events are reported to
 * users through event channels."  "Returns a pointer to the created event
 * channel, or NULL if the request fails."  NOTES: "Event channels are
 * used to direct all events on an rdma_cm_id."  "Each event channel is
 * mapped to a file descriptor.  The associated file descriptor can be
 * used and manipulated like any other fd to change its behavior.  Users
 * may make the fd non-blocking, poll or select the fd, etc."
 *
 * - the new channel's fd polls: nothing before any event, POLLIN once
 *   an id on it has resolved an address (ADDR_RESOLVED the event read)
 * - two channels, an id each: the event of the second's id comes on the
 *   second channel, and none on the first
 * - no descriptor left (RLIMIT_NOFILE 0, after a first channel): NULL
 *   and errno
 */
#include <poll.h>
#include <string.h>

#include "rdmacm_conn.h"

#define DOC_POLL \
	"Users may make the fd non-blocking, poll or select the fd, etc."
#define DOC_DIRECT \
	"Event channels are used to direct all events on an rdma_cm_id."
#define DOC_FAIL                                                          \
	"Returns a pointer to the created event channel, or NULL if the " \
	"request fails."

struct ec_row;
typedef void ec_check(const struct ec_row *row, struct rc_ctx *ctx);

struct ec_row {
	struct rc_case c;
	ec_check *check;
};

static ec_check fd_polls, own_channel, no_descriptor;

static const struct ec_row rows[] = {
	{ .c = { .id = "rdmacm/create_event_channel/fd-polls",
		 .doc = DOC_POLL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the channel's fd: poll reports nothing for 300 ms "
			 "with no event, POLLIN once an id on the channel has "
			 "resolved an address, and the event read is "
			 "ADDR_RESOLVED",
		 .needs = RC_NEED_DEVICE | RC_NEED_PEER,
		 .contract = { RC_SUCCEEDS } },
	  .check = fd_polls },
	{ .c = { .id = "rdmacm/create_event_channel/events-of-its-ids",
		 .doc = DOC_DIRECT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a second channel, made by the call, beside a first, "
			 "an id on each: the second id's ADDR_RESOLVED comes "
			 "on the second channel, nothing on the first",
		 .needs = RC_NEED_DEVICE | RC_NEED_PEER,
		 .contract = { RC_SUCCEEDS } },
	  .check = own_channel },
	{ .c = { .id = "rdmacm/create_event_channel/no-descriptor",
		 .doc = DOC_FAIL,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "a first channel made, then RLIMIT_NOFILE 0: the "
			 "channel's file descriptor cannot be opened, the "
			 "request fails, NULL and errno (the page names none)",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_FAILS() } },
	  .check = no_descriptor },
};

/* The peer's and the target's addresses, for a resolution. */
static bool addrs(struct rc_ctx *ctx, struct sockaddr_storage *src,
		  struct sockaddr_storage *dst)
{
	const struct rc_target *t = ctx->target;

	return cm_dev_addr(ctx, t->peer, t->peer_port, AF_INET, src) &&
	       cm_dev_addr(ctx, t->ca, t->port, AF_INET, dst);
}

static int resolve(struct rc_ctx *ctx, struct rdma_cm_id *id)
{
	struct sockaddr_storage src, dst;

	if (!addrs(ctx, &src, &dst))
		return -1;
	if (ctx->ops->rdma_resolve_addr(id, (struct sockaddr *)&src,
					(struct sockaddr *)&dst,
					CM_RESOLVE_MS)) {
		cm_broken(ctx, "rdma_resolve_addr");
		return -1;
	}
	return 0;
}

static int poll_in(struct rc_ctx *ctx, int fd, int ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	if (poll(&pfd, 1, rc_scaled_ms(ctx, ms)) != 1)
		return 0;
	return pfd.revents;
}

/* The next event of @ch within @ms: its type (acknowledged), or -1. */
static int next(struct rc_ctx *ctx, struct rdma_event_channel *ch, int ms)
{
	struct rdma_cm_event *ev;
	int type;

	if (!(poll_in(ctx, ch->fd, ms) & POLLIN) ||
	    ctx->ops->rdma_get_cm_event(ch, &ev))
		return -1;
	type = ev->event;
	ctx->ops->rdma_ack_cm_event(ev);
	return type;
}

static void fd_polls(const struct ec_row *row, struct rc_ctx *ctx)
{
	const struct rc_ops *ops = ctx->ops;
	struct rdma_event_channel *ch;
	struct rdma_cm_id *id = NULL;
	int type;

	RC_OBSERVE(ctx, ch = ops->rdma_create_event_channel());
	if (!ch)
		return;
	if (ops->rdma_create_id(ch, &id, NULL, RDMA_PS_TCP)) {
		id = NULL;
		cm_broken(ctx, "rdma_create_id");
		goto out;
	}
	if (poll_in(ctx, ch->fd, CM_QUIET_MS)) {
		rc_obs_violation(ctx->obs, "poll ready with no event");
		goto out;
	}
	if (resolve(ctx, id))
		goto out;
	type = next(ctx, ch, CM_WAIT_MS);
	if (type != RDMA_CM_EVENT_ADDR_RESOLVED)
		rc_obs_violation(ctx->obs,
				 "poll no POLLIN or no ADDR_RESOLVED (%s)",
				 type < 0 ? "none" : cm_event_name(type));
out:
	if (id)
		ops->rdma_destroy_id(id);
	ops->rdma_destroy_event_channel(ch);
}

static void own_channel(const struct ec_row *row, struct rc_ctx *ctx)
{
	const struct rc_ops *ops = ctx->ops;
	struct rdma_event_channel *first = ops->rdma_create_event_channel();
	struct rdma_event_channel *ch = NULL;
	struct rdma_cm_id *a = NULL, *b = NULL;
	int type;

	if (!first || ops->rdma_create_id(first, &a, NULL, RDMA_PS_TCP)) {
		a = NULL;
		cm_broken(ctx, "the first channel and its id");
		goto out;
	}
	RC_OBSERVE(ctx, ch = ops->rdma_create_event_channel());
	if (!ch)
		goto out;
	if (ops->rdma_create_id(ch, &b, NULL, RDMA_PS_TCP)) {
		b = NULL;
		cm_broken(ctx, "the second channel's id");
		goto out;
	}
	if (resolve(ctx, b))
		goto out;
	type = next(ctx, ch, CM_WAIT_MS);
	if (type != RDMA_CM_EVENT_ADDR_RESOLVED)
		rc_obs_violation(ctx->obs,
				 "second_channel no ADDR_RESOLVED (%s)",
				 type < 0 ? "none" : cm_event_name(type));
	type = next(ctx, first, CM_QUIET_MS);
	if (type >= 0)
		rc_obs_violation(ctx->obs, "first_channel has %s",
				 cm_event_name(type));
out:
	if (b)
		ops->rdma_destroy_id(b);
	if (a)
		ops->rdma_destroy_id(a);
	if (ch)
		ops->rdma_destroy_event_channel(ch);
	if (first)
		ops->rdma_destroy_event_channel(first);
}

static void no_descriptor(const struct ec_row *row, struct rc_ctx *ctx)
{
	const struct rc_ops *ops = ctx->ops;
	struct rdma_event_channel *first = ops->rdma_create_event_channel();
	struct rdma_event_channel *ch;
	struct rlimit old;

	if (!first) {
		cm_broken(ctx, "the first channel");
		return;
	}
	if (!cm_no_fds(ctx, &old))
		goto out;
	RC_OBSERVE(ctx, ch = ops->rdma_create_event_channel());
	cm_fds_back(&old);
	if (ch)
		ops->rdma_destroy_event_channel(ch);
out:
	ops->rdma_destroy_event_channel(first);
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct ec_row *row = r;

	if (rc_need_call(ctx, ctx->ops->rdma_create_event_channel,
			 "rdma_create_event_channel"))
		row->check(row, ctx);
}

RC_TABLE_GROUP(group, "rdma_create_event_channel", RC_CONV_NULL_ERRNO, "rdmacm",
	       rows, run);
