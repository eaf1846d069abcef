// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_ack_cm_event(3): "All events which are allocated by
 * rdma_get_cm_event must be released, there should be a one-to-one
 * correspondence between successful gets and acks."  "Returns 0 on
 * success, or -1 on error."  rdma_get_cm_event(3): "Destruction of an
 * rdma_cm_id will block until related events have been acknowledged."
 *
 * What an acknowledgement does is seen where it lands, the same way for
 * both implementations: in the rdma_destroy_id of the event's id, run in
 * a thread of its own.
 * - ADDR_RESOLVED and ROUTE_RESOLVED each acknowledged once (the second
 *   the call timed): 0, and the id's rdma_destroy_id returns
 * - ADDR_RESOLVED held, rdma_destroy_id under way and still waiting
 *   300 ms later: the acknowledgement returns 0 and the destroy returns
 * - two ids on one channel, an event of each held: acknowledging the
 *   first's does not let the second's destroy return; its own does
 * - NULL: -1 EINVAL
 */
#include <string.h>
#include <time.h>

#include "rdmacm_conn.h"

#define DOC_ONE                                                        \
	"All events which are allocated by rdma_get_cm_event must be " \
	"released, there should be a one-to-one correspondence "       \
	"between successful gets and acks."
#define DOC_BLOCK                                                \
	"Destruction of an rdma_cm_id will block until related " \
	"events have been acknowledged."
#define DOC_RETURN "Returns 0 on success, or -1 on error."

enum ak_kind { AK_EACH_ONCE, AK_RELEASES, AK_OWN_ID, AK_NULL };

struct ak_row {
	struct rc_case c;
	enum ak_kind kind;
};

#define NEEDS (RC_NEED_DEVICE | RC_NEED_PEER)

static const struct ak_row rows[] = {
	{ .c = { .id = "rdmacm/ack_cm_event/each-once",
		 .doc = DOC_ONE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the client's ADDR_RESOLVED and ROUTE_RESOLVED, each "
			 "acknowledged once (the second the call): 0, and the "
			 "id's rdma_destroy_id returns within 3 s",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .kind = AK_EACH_ONCE },
	{ .c = { .id = "rdmacm/ack_cm_event/releases-destroy",
		 .doc = DOC_BLOCK,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "ADDR_RESOLVED held while the id's rdma_destroy_id "
			 "runs in a thread, not returned 300 ms later: the "
			 "call returns 0, and the destroy returns within 3 s",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .kind = AK_RELEASES },
	{ .c = { .id = "rdmacm/ack_cm_event/counts-for-its-id",
		 .doc = DOC_ONE,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "two ids on one channel, an ADDR_RESOLVED of each "
			 "held, the second's rdma_destroy_id under way: the "
			 "call acknowledges the first's event (0) and the "
			 "destroy still waits 300 ms later; it returns once "
			 "its own is acknowledged (one ack per get, each for "
			 "its own event)",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .kind = AK_OWN_ID },
	{ .c = { .id = "rdmacm/ack_cm_event/null",
		 .doc = DOC_RETURN,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "NULL, no event rdma_get_cm_event allocated: -1 and "
			 "EINVAL",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_FAILS(EINVAL) } },
	  .kind = AK_NULL },
};

struct destroyer {
	const struct rc_ops *ops;
	struct rdma_cm_id *id;
};

static int destroy_fn(void *arg)
{
	struct destroyer *d = arg;

	return d->ops->rdma_destroy_id(d->id);
}

/* Has @b returned within @ms (scaled)?  Polled, never slept on. */
static bool returns_within(struct rc_ctx *ctx, const struct cm_bg *b, int ms)
{
	double end = rc_now_ms() + rc_scaled_ms(ctx, ms);
	struct timespec ts = { .tv_nsec = 5 * 1000000L };

	while (!cm_bg_done(b) && rc_now_ms() < end)
		nanosleep(&ts, NULL);
	return cm_bg_done(b);
}

/* @id's rdma_destroy_id in a thread; ids it took are NULLed in @p. */
static bool start_destroy(struct rc_ctx *ctx, struct cm_bg *b,
			  struct destroyer *d, struct rdma_cm_id **idp)
{
	d->ops = ctx->ops;
	d->id = *idp;
	if (!cm_bg_start(ctx, b, destroy_fn, d))
		return false;
	*idp = NULL;
	return true;
}

/* The destroy has not returned after CM_QUIET_MS (it waits for an ack) */
static bool still_waits(struct rc_ctx *ctx, struct cm_bg *b, const char *when)
{
	if (!returns_within(ctx, b, CM_QUIET_MS))
		return true;
	rc_obs_violation(ctx->obs, "destroy returned %s", when);
	return false;
}

/* After the last ack: the destroy returns.  A destroy that never does
 * leaves its thread behind: the row's process ends with it. */
static void returns(struct rc_ctx *ctx, struct cm_bg *b, const char *what)
{
	if (!returns_within(ctx, b, CM_WAIT_MS)) {
		rc_obs_violation(ctx->obs,
				 "destroy still waits 3 s after %s "
				 "was acknowledged",
				 what);
		return;
	}
	if (cm_bg_join(b))
		rc_obs_violation(ctx->obs, "destroy rdma_destroy_id failed");
}

static bool resolve_addr(struct rc_ctx *ctx, struct cm_pair *p,
			 struct rdma_cm_id *id)
{
	if (ctx->ops->rdma_resolve_addr(id, (struct sockaddr *)&p->cli_addr,
					(struct sockaddr *)&p->srv_addr,
					CM_RESOLVE_MS))
		return cm_broken(ctx, "rdma_resolve_addr");
	return true;
}

static void each_once(const struct ak_row *row, struct rc_ctx *ctx,
		      struct cm_pair *p)
{
	struct rdma_cm_event *ev;
	struct destroyer d;
	struct cm_bg b;
	int ret;

	if (!resolve_addr(ctx, p, p->cli.id) ||
	    !cm_expect(ctx, &p->cli, RDMA_CM_EVENT_ADDR_RESOLVED, NULL))
		return;
	if (ctx->ops->rdma_resolve_route(p->cli.id, CM_RESOLVE_MS)) {
		cm_broken(ctx, "rdma_resolve_route");
		return;
	}
	if (!cm_expect(ctx, &p->cli, RDMA_CM_EVENT_ROUTE_RESOLVED, &ev))
		return;
	RC_OBSERVE(ctx, ret = ctx->ops->rdma_ack_cm_event(ev));
	if (ret || !start_destroy(ctx, &b, &d, &p->cli.id))
		return;
	returns(ctx, &b, "every event");
}

static void releases(const struct ak_row *row, struct rc_ctx *ctx,
		     struct cm_pair *p)
{
	struct rdma_cm_event *ev;
	struct destroyer d;
	struct cm_bg b;
	int ret;

	if (!resolve_addr(ctx, p, p->cli.id) ||
	    !cm_expect(ctx, &p->cli, RDMA_CM_EVENT_ADDR_RESOLVED, &ev))
		return;
	if (!start_destroy(ctx, &b, &d, &p->cli.id)) {
		ctx->ops->rdma_ack_cm_event(ev);
		return;
	}
	if (!still_waits(ctx, &b, "with its event held"))
		return;
	RC_OBSERVE(ctx, ret = ctx->ops->rdma_ack_cm_event(ev));
	if (!ret)
		returns(ctx, &b, "its event");
}

static void own_id(const struct ak_row *row, struct rc_ctx *ctx,
		   struct cm_pair *p)
{
	struct rdma_cm_event *ev_a, *ev_b, *ev;
	struct rdma_cm_id *b_id = NULL;
	struct destroyer d;
	struct cm_bg b;
	int ret;

	if (ctx->ops->rdma_create_id(p->cli.ch, &b_id, NULL, RDMA_PS_TCP)) {
		cm_broken(ctx, "the second id");
		return;
	}
	if (!resolve_addr(ctx, p, p->cli.id) ||
	    !cm_expect(ctx, &p->cli, RDMA_CM_EVENT_ADDR_RESOLVED, &ev_a))
		goto out;
	if (!resolve_addr(ctx, p, b_id) ||
	    !cm_expect(ctx, &p->cli, RDMA_CM_EVENT_ADDR_RESOLVED, &ev_b)) {
		ctx->ops->rdma_ack_cm_event(ev_a);
		goto out;
	}
	/* the events came in the order of the resolutions, or the other */
	if (ev_a->id != p->cli.id) {
		ev = ev_a;
		ev_a = ev_b;
		ev_b = ev;
	}
	if (!start_destroy(ctx, &b, &d, &b_id)) {
		ctx->ops->rdma_ack_cm_event(ev_a);
		ctx->ops->rdma_ack_cm_event(ev_b);
		goto out;
	}
	RC_OBSERVE(ctx, ret = ctx->ops->rdma_ack_cm_event(ev_a));
	if (!still_waits(ctx, &b, "when the other id's event was acknowledged"))
		return;
	if (ret)
		return;
	ctx->ops->rdma_ack_cm_event(ev_b);
	returns(ctx, &b, "its own event");
out:
	if (b_id)
		ctx->ops->rdma_destroy_id(b_id);
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct ak_row *row = r;
	struct cm_pair p;
	int ret;

	if (!rc_need_call(ctx, ctx->ops->rdma_ack_cm_event,
			  "rdma_ack_cm_event"))
		return;
	if (row->kind == AK_NULL) {
		RC_OBSERVE(ctx, ret = ctx->ops->rdma_ack_cm_event(NULL));
		(void)ret;
		return;
	}
	if (!cm_pair_open(ctx, &p, AF_INET, false, ctx->ops, ctx->ops))
		goto out;
	switch (row->kind) {
	case AK_EACH_ONCE:
		each_once(row, ctx, &p);
		break;
	case AK_RELEASES:
		releases(row, ctx, &p);
		break;
	default:
		own_id(row, ctx, &p);
		break;
	}
out:
	cm_pair_close(ctx, &p);
}

RC_TABLE_GROUP(group, "rdma_ack_cm_event", RC_CONV_M1_ERRNO, "rdmacm", rows,
	       run);
