// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_write_cm_event(3) (rdma-core 60, RDMACM_1.4; ABSENT from 44.0):
 * "This call allows an application to write a user-defined event to the
 * event channel associated with the specified rdma_cm_id.  Valid user
 * events are: RDMA_CM_EVENT_USER."  On the server's id of the connection
 * pair (bound to nothing; its own channel):
 * - user-event-delivered: RDMA_CM_EVENT_USER with a negative status and
 *   an arg whose eight bytes are all distinct comes back from
 *   rdma_get_cm_event with that id, status and arg
 * - two-in-order: two events, arg 1 then 2, arrive in that order
 * - not-user-event: every other value of the event type (the page's
 *   events 0 to 17, RDMA_CM_EVENT_INTERNAL, and two values no event
 *   has) fails, and nothing comes on the channel
 * The first two need the kernel's WRITE_CM_EVENT (Linux 6.15): a SKIP
 * that says so on older kernels.
 */
#include <string.h>

#include "rdmacm_written.h"

#define DOC_NOTES                                                           \
	"This call allows an application to write a user-defined event to " \
	"the event channel associated with the specified rdma_cm_id."
#define DOC_ARGS                                                      \
	"status The status value reported in the rdma_cm_event. ... " \
	"arg A user-specified value reported in the rdma_cm_event."
#define DOC_VALID "Valid user events are: RDMA_CM_EVENT_USER."
#define DOC_RET                                                          \
	"On success 0 is returned, on error -1 is returned, errno will " \
	"be set to indicate the failure reason."

#define NEEDS (RC_NEED_DEVICE | RC_NEED_PEER)
#define ARG 0x0807060504030201ull
#define STATUS (-0x1234)

enum what { W_DELIVERED, W_IN_ORDER, W_NOT_USER };

struct we_row {
	struct rc_case c;
	enum what what;
};

static const struct we_row rows[] = {
	{ .c = { .id = "rdmacm/write_cm_event/user-event-delivered",
		 .doc = DOC_NOTES " ... " DOC_ARGS,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "RDMA_CM_EVENT_USER, status -0x1234 and arg "
			 "0x0807060504030201 (eight distinct bytes): "
			 "rdma_get_cm_event gives that event, the id, the "
			 "status and the arg",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .what = W_DELIVERED },
	{ .c = { .id = "rdmacm/write_cm_event/two-in-order",
		 .doc = DOC_NOTES,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "two events written, arg 1 then arg 2: they come in "
			 "that order (a channel's events are a queue)",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .what = W_IN_ORDER },
	{ .c = { .id = "rdmacm/write_cm_event/not-user-event",
		 .doc = DOC_VALID " ... " DOC_RET,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "each event value but RDMA_CM_EVENT_USER (0 to 17, "
			 "RDMA_CM_EVENT_INTERNAL, 20 and -1) fails with -1 and "
			 "errno set, and no event comes on the channel; "
			 "observed: RDMA_CM_EVENT_ESTABLISHED's",
		 .needs = NEEDS,
		 .contract = { RC_FAILS() } },
	  .what = W_NOT_USER },
};

/* The next event on the server's channel is USER on the server's id,
 * with STATUS and @arg */
static void want_user(struct rc_ctx *ctx, struct cm_pair *p, uint64_t arg)
{
	struct rdma_cm_event *ev;
	int got = cm_next(ctx, &p->srv, CM_WAIT_MS, &ev);
	uint64_t a;

	if (got < 0) {
		rc_obs_violation(ctx->obs, "no event came");
		return;
	}
	memcpy(&a, &ev->param, sizeof(a));
	if (got != CM_EVENT_USER || ev->id != p->srv.id ||
	    ev->status != STATUS || a != arg)
		rc_obs_violation(ctx->obs,
				 "event %s (%d), %s id, status %d, arg %#llx; "
				 "not USER, the id, %d, %#llx",
				 cm_event_name(got), got,
				 ev->id == p->srv.id ? "the" : "another",
				 ev->status, (unsigned long long)a, STATUS,
				 (unsigned long long)arg);
	p->srv.ops->rdma_ack_cm_event(ev);
}

static void not_user(struct rc_ctx *ctx, struct cm_pair *p)
{
	const struct rc_ops *o = ctx->ops;
	struct rdma_cm_event *ev;
	int e, got;

	for (e = -1; e <= CM_EVENT_INTERNAL + 1; e++) {
		if (e == CM_EVENT_USER || e == RDMA_CM_EVENT_ESTABLISHED)
			continue;
		errno = 0;
		if (o->rdma_write_cm_event(p->srv.id,
					   (enum rdma_cm_event_type)e, STATUS,
					   ARG) != -1 ||
		    !errno)
			rc_obs_violation(ctx->obs,
					 "event %d: not -1 with errno set", e);
	}
	RC_OBSERVE(ctx,
		   o->rdma_write_cm_event(p->srv.id, RDMA_CM_EVENT_ESTABLISHED,
					  STATUS, ARG));
	got = cm_next(ctx, &p->srv, CM_QUIET_MS, &ev);
	if (got >= 0) {
		rc_obs_violation(ctx->obs, "an event came: %s (%d)",
				 cm_event_name(got), got);
		p->srv.ops->rdma_ack_cm_event(ev);
	}
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct we_row *row = r;
	const struct rc_ops *o = ctx->ops;
	struct cm_pair p;

	if (!rc_need_call(ctx, o->rdma_write_cm_event, "rdma_write_cm_event"))
		return;
	if (!cm_pair_open(ctx, &p, AF_INET, false, o, o))
		goto out;
	if (row->what == W_NOT_USER) {
		not_user(ctx, &p);
		goto out;
	}
	if (!cm_kernel_writes_events(ctx))
		goto out;
	if (row->what == W_IN_ORDER &&
	    o->rdma_write_cm_event(p.srv.id, CM_EVENT_USER, STATUS, 1)) {
		cm_broken(ctx, "the first rdma_write_cm_event");
		goto out;
	}
	RC_OBSERVE(ctx,
		   o->rdma_write_cm_event(p.srv.id, CM_EVENT_USER, STATUS,
					  row->what == W_IN_ORDER ? 2 : ARG));
	if (ctx->obs->ret)
		goto out;
	if (row->what == W_IN_ORDER)
		want_user(ctx, &p, 1);
	want_user(ctx, &p, row->what == W_IN_ORDER ? 2 : ARG);
out:
	cm_pair_close(ctx, &p);
}

RC_TABLE_GROUP(group, "rdma_write_cm_event", RC_CONV_M1_ERRNO, "rdmacm", rows,
	       run);
