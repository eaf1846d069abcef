// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_notify(3): "Used to notify the librdmacm of asynchronous events
 * that have occurred on a QP associated with the rdma_cm_id."  NOTES:
 * "This routine forces the connection into an established state in this
 * case in order to handle the rare situation where the connection never
 * forms on its own.  Calling this routine ensures the delivery of the
 * RDMA_CM_EVENT_ESTABLISHED event to the application.  Events that should
 * be reported to the CM are: IB_EVENT_COMM_EST."  RETURN VALUE: "If errno
 * is set to EISCONN (transport endpoint is already connected), this
 * indicates that the the underlying communication manager established the
 * connection before the call to rdma_notify could be processed."
 *
 * The IB CM's (an InfiniBand-transport device): the server has accepted,
 * the client has the reply and sends no RTU (it has no QP and does not
 * call rdma_establish):
 * - IBV_EVENT_COMM_EST on the server's id: 0, and ESTABLISHED on the
 *   server's channel
 * - after both ends are established: -1 EISCONN
 * - another event (IBV_EVENT_SQ_DRAINED): -1 EINVAL, and no ESTABLISHED
 * - an id bound to no device: -1 EINVAL
 */
#include <poll.h>
#include <string.h>

#include "rdmacm_conn.h"

#define DOC_ESTABLISHED                                     \
	"Calling this routine ensures the delivery of the " \
	"RDMA_CM_EVENT_ESTABLISHED event to the application."
#define DOC_EISCONN                                                         \
	"If errno is set to EISCONN (transport endpoint is already "        \
	"connected), this indicates that the the underlying communication " \
	"manager established the connection before the call to "            \
	"rdma_notify could be processed."
#define DOC_EVENTS \
	"Events that should be reported to the CM are: IB_EVENT_COMM_EST."
#define DOC_NOTIFY                                                       \
	"Used to notify the librdmacm of asynchronous events that have " \
	"occurred on a QP associated with the rdma_cm_id."

enum stage { ST_NEW, ST_REP_SENT, ST_CONNECTED };

struct nt_row {
	struct rc_case c;
	enum stage stage;
	enum ibv_event_type event;
	bool established; /* ESTABLISHED follows on the server */
};

#define NEEDS (RC_NEED_DEVICE | RC_NEED_PEER | RC_NEED_CA)

static const struct nt_row rows[] = {
	{ .c = { .id = "rdmacm/notify/comm-est-establishes",
		 .doc = DOC_ESTABLISHED,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the server accepted, the client took the reply and "
			 "sent no RTU: IBV_EVENT_COMM_EST on the server's id "
			 "returns 0 and ESTABLISHED comes on its channel",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .stage = ST_REP_SENT,
	  .event = IBV_EVENT_COMM_EST,
	  .established = true },
	{ .c = { .id = "rdmacm/notify/already-connected",
		 .doc = DOC_EISCONN,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "both ends established (the client's rdma_establish): "
			 "IBV_EVENT_COMM_EST on the server's id, -1 EISCONN",
		 .needs = NEEDS,
		 .contract = { RC_FAILS(EISCONN) } },
	  .stage = ST_CONNECTED,
	  .event = IBV_EVENT_COMM_EST },
	{ .c = { .id = "rdmacm/notify/not-comm-est",
		 .doc = DOC_EVENTS,
		 .basis = RC_BASIS_LINUX,
		 .note = "IBV_EVENT_SQ_DRAINED is none the CM takes (the "
			 "kernel's ib_cm_notify: COMM_EST and LID_CHANGE "
			 "only): -1 EINVAL, and no ESTABLISHED follows",
		 .needs = NEEDS,
		 .contract = { RC_FAILS(EINVAL) } },
	  .stage = ST_REP_SENT,
	  .event = IBV_EVENT_SQ_DRAINED },
	{ .c = { .id = "rdmacm/notify/no-device",
		 .doc = DOC_NOTIFY,
		 .basis = RC_BASIS_LINUX,
		 .note = "a new id, bound to no device, has no QP's events: "
			 "the kernel's ucma_notify refuses it, EINVAL (on "
			 "iWARP too)",
		 .needs = RC_NEED_DEVICE | RC_NEED_PEER,
		 .contract = { RC_FAILS(EINVAL) } },
	  .stage = ST_NEW,
	  .event = IBV_EVENT_COMM_EST },
};

/* an event on the server within @ms: its type, or -1 */
static int server_event(struct rc_ctx *ctx, struct cm_pair *p, int ms)
{
	struct rdma_cm_event *ev;
	int got = cm_next(ctx, &p->srv, ms, &ev);

	if (got >= 0)
		ctx->ops->rdma_ack_cm_event(ev);
	return got;
}

/* The server accepts; the client takes CONNECT_RESPONSE and stays
 * there: the server's id waits for an RTU that does not come. */
static bool rep_sent(struct rc_ctx *ctx, struct cm_pair *p)
{
	struct rdma_conn_param c, s = { .qp_num = CM_SERVER_QPN,
					.responder_resources = 2,
					.initiator_depth = 3,
					.rnr_retry_count = 7 };

	cm_client_param(&c, NULL, 0);
	if (!cm_listen(ctx, p) || !cm_resolve_route(ctx, p) ||
	    !cm_request(ctx, p, &c, NULL))
		return false;
	if (ctx->ops->rdma_accept(p->srv.conn, &s))
		return cm_broken(ctx, "rdma_accept");
	return cm_expect(ctx, &p->cli, RDMA_CM_EVENT_CONNECT_RESPONSE, NULL);
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct nt_row *row = r;
	struct rdma_cm_id *id;
	struct cm_pair p;
	int ret, got;

	if (!rc_need_call(ctx, ctx->ops->rdma_notify, "rdma_notify"))
		return;
	if (!cm_pair_open(ctx, &p, AF_INET, false, ctx->ops, ctx->ops))
		goto out;
	switch (row->stage) {
	case ST_NEW:
		id = p.srv.id;
		break;
	case ST_REP_SENT:
		if (!rep_sent(ctx, &p))
			goto out;
		id = p.srv.conn;
		break;
	default:
		if (!cm_connect(ctx, &p))
			goto out;
		id = p.srv.conn;
		break;
	}
	RC_OBSERVE(ctx, ret = ctx->ops->rdma_notify(id, row->event));
	if (row->stage != ST_REP_SENT)
		goto out;
	got = server_event(ctx, &p,
			   row->established ? CM_WAIT_MS : CM_QUIET_MS);
	if (row->established && got != RDMA_CM_EVENT_ESTABLISHED)
		rc_obs_violation(ctx->obs,
				 "server_event waited for ESTABLISHED, got %s",
				 got < 0 ? "none" : cm_event_name(got));
	else if (!row->established && got == RDMA_CM_EVENT_ESTABLISHED && ret)
		rc_obs_violation(
			ctx->obs,
			"server_event ESTABLISHED after a notification "
			"that failed");
out:
	cm_pair_close(ctx, &p);
}

RC_TABLE_GROUP(group, "rdma_notify", RC_CONV_M1_ERRNO, "rdmacm", rows, run);
