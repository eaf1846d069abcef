// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_destroy_id(3): "Destroys the specified rdma_cm_id and cancels any
 * outstanding asynchronous operation."  NOTES: "Users must free any
 * associated QP with the rdma_cm_id before calling this routine and ack
 * all related events."  rdma_get_cm_event(3): "Destruction of an
 * rdma_cm_id will block until related events have been acknowledged."
 * "Returns 0 on success, or -1 on error."
 *
 * - an event of the id held: the call returns once another thread
 *   acknowledges it, 300 ms later (the call timed)
 * - an address resolution under way (to an address nobody answers, 200
 *   ms): 0, and no event comes on the channel after it, for twice the
 *   resolution's timeout
 */
#include <pthread.h>
#include <string.h>
#include <time.h>

#include "rdmacm_conn.h"

#define DOC_BLOCK                                                \
	"Destruction of an rdma_cm_id will block until related " \
	"events have been acknowledged."
#define DOC_CANCEL                                           \
	"Destroys the specified rdma_cm_id and cancels any " \
	"outstanding asynchronous operation."
#define HOLD_MS 300
#define RESOLVE_MS 200

struct did_row;
typedef void did_check(const struct did_row *row, struct rc_ctx *ctx,
		       struct cm_pair *p);

struct did_row {
	struct rc_case c;
	did_check *check;
};

static did_check waits_for_ack, cancels_resolution;

#define NEEDS (RC_NEED_DEVICE | RC_NEED_PEER)

static const struct did_row rows[] = {
	{ .c = { .id = "rdmacm/destroy_id/waits-for-ack",
		 .doc = DOC_BLOCK,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "ROUTE_RESOLVED held; a thread acknowledges it 300 "
			 "ms after the call starts: the call takes 300 ms",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0), .ms = HOLD_MS, .tol_ms = 130 } },
	  .check = waits_for_ack },
	{ .c = { .id = "rdmacm/destroy_id/cancels-resolution",
		 .doc = DOC_CANCEL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "destroyed while its address resolution waits: 0, "
			 "and no event on the channel for 400 ms after, "
			 "twice its timeout (200 ms)",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = cancels_resolution },
};

struct acker {
	const struct rc_ops *ops;
	struct rdma_cm_event *ev;
};

static void *ack_later(void *arg)
{
	struct acker *a = arg;
	struct timespec ts = { .tv_nsec = HOLD_MS * 1000000L };

	nanosleep(&ts, NULL);
	a->ops->rdma_ack_cm_event(a->ev);
	return NULL;
}

static void waits_for_ack(const struct did_row *row, struct rc_ctx *ctx,
			  struct cm_pair *p)
{
	struct acker a = { .ops = ctx->ops };
	pthread_t t;
	int ret;

	if (ctx->ops->rdma_resolve_addr(
		    p->cli.id, (struct sockaddr *)&p->cli_addr,
		    (struct sockaddr *)&p->srv_addr, CM_RESOLVE_MS) ||
	    !cm_expect(ctx, &p->cli, RDMA_CM_EVENT_ADDR_RESOLVED, NULL) ||
	    ctx->ops->rdma_resolve_route(p->cli.id, CM_RESOLVE_MS) ||
	    !cm_expect(ctx, &p->cli, RDMA_CM_EVENT_ROUTE_RESOLVED, &a.ev)) {
		cm_broken(ctx, "the client's resolution");
		return;
	}
	if (pthread_create(&t, NULL, ack_later, &a)) {
		ctx->ops->rdma_ack_cm_event(a.ev);
		cm_broken(ctx, "pthread_create");
		return;
	}
	/* the sleep starts before the call: the wait is at most HOLD_MS */
	RC_OBSERVE(ctx, ret = ctx->ops->rdma_destroy_id(p->cli.id));
	pthread_join(t, NULL);
	if (!ret)
		p->cli.id = NULL;
}

static void cancels_resolution(const struct did_row *row, struct rc_ctx *ctx,
			       struct cm_pair *p)
{
	struct sockaddr_storage dst = p->srv_addr;
	struct rdma_cm_event *ev;
	int ret, type;

	((uint8_t *)&((struct sockaddr_in *)&dst)->sin_addr)[3] = 0x77;
	if (ctx->ops->rdma_resolve_addr(p->cli.id,
					(struct sockaddr *)&p->cli_addr,
					(struct sockaddr *)&dst, RESOLVE_MS)) {
		cm_broken(ctx, "rdma_resolve_addr");
		return;
	}
	RC_OBSERVE(ctx, ret = ctx->ops->rdma_destroy_id(p->cli.id));
	if (ret)
		return;
	p->cli.id = NULL;
	type = cm_next(ctx, &p->cli, 2 * RESOLVE_MS, &ev);
	if (type >= 0) {
		rc_obs_violation(ctx->obs,
				 "event %s after the id was "
				 "destroyed",
				 cm_event_name(type));
		ctx->ops->rdma_ack_cm_event(ev);
	}
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct did_row *row = r;
	struct cm_pair p;

	if (!rc_need_call(ctx, ctx->ops->rdma_destroy_id, "rdma_destroy_id"))
		return;
	if (cm_pair_open(ctx, &p, AF_INET, false, ctx->ops, ctx->ops))
		row->check(row, ctx, &p);
	cm_pair_close(ctx, &p);
}

RC_TABLE_GROUP(group, "rdma_destroy_id", RC_CONV_M1_ERRNO, "rdmacm", rows, run);
