// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_get_request(3): "Retrieves a connection request event.  If no
 * requests are pending, the call will block until an event is received."
 * NOTES: "This call may only be used on listening rdma_cm_id's operating
 * synchronously.  On success, a new rdma_cm_id representing the
 * connection request will be returned to the user.  The new rdma_cm_id
 * will reference event information associated with the request until the
 * user calls rdma_reject, rdma_accept, or rdma_destroy_id on the newly
 * created identifier."  "If QP attributes are associated with the
 * listening endpoint, the returned rdma_cm_id will also reference an
 * allocated QP."
 *
 * The listener is a passive endpoint (rdma_create_ep, synchronous) on
 * the server's address; the client an asynchronous id of the same
 * implementation (with a QP where the row accepts):
 * - a request: 0, a new id other than the listener, whose id->event is
 *   the CONNECT_REQUEST, with listen_id the listener
 * - the request's information in that event: the client's private data
 *   (bytes all distinct) and its parameters, the depths crossed
 * - with QP attributes on the endpoint: the new id has a QP
 * - none pending: the call (in a thread) has not returned 300 ms later,
 *   and returns once the client connects
 * - rdma_accept of the new id (synchronous: it returns established): the
 *   client sees ESTABLISHED
 * - an asynchronous listening id (with a channel): -1
 * - QP attributes on the endpoint that the device cannot grant (2^30 send
 *   WRs): the QP the call must make fails, so does the call, -1, and no
 *   id is returned
 */
#include <string.h>
#include <unistd.h>

#include "rdmacm_conn.h"

#define DOC_NEW                                                             \
	"On success, a new rdma_cm_id representing the connection request " \
	"will be returned to the user."
#define DOC_EVENT                                                          \
	"The new rdma_cm_id will reference event information associated "  \
	"with the request until the user calls rdma_reject, rdma_accept, " \
	"or rdma_destroy_id on the newly created identifier."
#define DOC_QP                                                              \
	"If QP attributes are associated with the listening endpoint, the " \
	"returned rdma_cm_id will also reference an allocated QP."
#define DOC_BLOCK                                                         \
	"If no requests are pending, the call will block until an event " \
	"is received."
#define DOC_SYNC                                                          \
	"This call may only be used on listening rdma_cm_id's operating " \
	"synchronously."

enum gr_kind {
	GR_REQUEST,
	GR_INFO,
	GR_QP,
	GR_BLOCKS,
	GR_ACCEPT,
	GR_ASYNC,
	GR_QP_FAILS
};

struct gr_row {
	struct rc_case c;
	enum gr_kind kind;
};

#define NEEDS (RC_NEED_DEVICE | RC_NEED_PEER)

static const struct gr_row rows[] = {
	{ .c = { .id = "rdmacm/get_request/returns-request",
		 .doc = DOC_EVENT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "0, a new id other than the listener; its id->event "
			 "is CONNECT_REQUEST with listen_id the listener",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .kind = GR_REQUEST },
	{ .c = { .id = "rdmacm/get_request/event-has-request-information",
		 .doc = DOC_EVENT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the client (no QP) connects with 7 bytes of private "
			 "data, all distinct, responder_resources 3, "
			 "initiator_depth 2, retry_count 6, rnr_retry_count 5, "
			 "flow_control 1: the new id's id->event has the data "
			 "(zeros after it), the depths crossed (2 and 3), the "
			 "rest and qp_num as given (rdma_get_cm_event(3)'s "
			 "conn parameters)",
		 .needs = NEEDS | RC_NEED_ROCE,
		 .contract = { RC_RETURNS(0) } },
	  .kind = GR_INFO },
	{ .c = { .id = "rdmacm/get_request/endpoint-qp",
		 .doc = DOC_QP,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the endpoint made with an RC QP's attributes (no PD: "
			 "a default one): the new id's id->qp is an RC QP",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .kind = GR_QP },
	{ .c = { .id = "rdmacm/get_request/blocks-until-request",
		 .doc = DOC_BLOCK,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "no request: the call (in a thread) has not returned "
			 "300 ms later; the client connects and it returns 0",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .kind = GR_BLOCKS },
	{ .c = { .id = "rdmacm/get_request/accept-establishes",
		 .doc = DOC_NEW,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the new id (with the endpoint's QP) accepted with "
			 "rdma_accept: it returns 0, and the client, with a QP, "
			 "gets ESTABLISHED",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .kind = GR_ACCEPT },
	{ .c = { .id = "rdmacm/get_request/endpoint-qp-not-granted",
		 .doc = DOC_QP,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the endpoint made with an RC QP's attributes asking "
			 "2^30 send WRs, more than the device has: the request "
			 "cannot \"reference an allocated QP\", -1, and *id "
			 "not written",
		 .needs = NEEDS,
		 .contract = { RC_FAILS() } },
	  .kind = GR_QP_FAILS },
	{ .c = { .id = "rdmacm/get_request/asynchronous-listener",
		 .doc = DOC_SYNC,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "a listening id on a channel of the caller's is not "
			 "synchronous: -1 (the page says only that it may not "
			 "be used), and no request is taken from its channel",
		 .needs = NEEDS,
		 .contract = { RC_FAILS() } },
	  .kind = GR_ASYNC },
};

struct getting {
	struct rc_ctx *ctx;
	struct rdma_cm_id *listen, *id;
};

static int get_request(void *arg)
{
	struct getting *g = arg;
	int ret;

	RC_OBSERVE(g->ctx,
		   ret = g->ctx->ops->rdma_get_request(g->listen, &g->id));
	return ret;
}

/* the client's private data (GR_INFO): bytes all distinct */
#define GR_DATA_LEN 7
#define GR_DATA_SEED 0x31

static bool client_connects(struct rc_ctx *ctx, struct cm_pair *p,
			    const struct gr_row *row)
{
	uint8_t data[GR_DATA_LEN];
	struct rdma_conn_param c;

	cm_pattern(data, sizeof(data), GR_DATA_SEED);
	if (row->kind == GR_INFO)
		cm_client_param(&c, data, sizeof(data));
	else
		cm_client_param(&c, NULL, 0);
	if (ctx->ops->rdma_connect(p->cli.id, &c))
		return cm_broken(ctx, "rdma_connect");
	return true;
}

static int accept_it(void *arg)
{
	struct getting *g = arg;

	return g->ctx->ops->rdma_accept(g->id, NULL);
}

/* the new id's accept blocks until the connection is established, which
 * takes the client's reading of its reply: the accept in a thread */
static void accept_new(struct rc_ctx *ctx, struct getting *g, struct cm_pair *p)
{
	struct cm_bg bg;

	if (!cm_bg_start(ctx, &bg, accept_it, g))
		return;
	cm_expect(ctx, &p->cli, RDMA_CM_EVENT_ESTABLISHED, NULL);
	if (cm_bg_join(&bg))
		rc_obs_violation(ctx->obs, "accept rdma_accept fails (%s)",
				 rc_errno_name(errno));
}

/* The request's information as rdma_get_cm_event(3) has it for a
 * CONNECT_REQUEST: what client_connects sent for GR_INFO. */
static void check_information(struct rc_ctx *ctx,
			      const struct rdma_cm_event *ev)
{
	const struct rdma_conn_param *r = &ev->param.conn;
	uint8_t data[GR_DATA_LEN];
	struct rdma_conn_param c;

	cm_pattern(data, sizeof(data), GR_DATA_SEED);
	cm_client_param(&c, data, sizeof(data));
	cm_check_private(ctx, "private", r->private_data, r->private_data_len,
			 data, sizeof(data));
	if (r->responder_resources != c.initiator_depth ||
	    r->initiator_depth != c.responder_resources)
		rc_obs_violation(ctx->obs,
				 "depths responder_resources %u "
				 "initiator_depth %u",
				 r->responder_resources, r->initiator_depth);
	if (r->retry_count != c.retry_count ||
	    r->rnr_retry_count != c.rnr_retry_count ||
	    r->flow_control != c.flow_control || r->srq ||
	    r->qp_num != c.qp_num)
		rc_obs_violation(ctx->obs,
				 "params retry_count %u rnr_retry_count %u "
				 "flow_control %u srq %u qp_num 0x%x",
				 r->retry_count, r->rnr_retry_count,
				 r->flow_control, r->srq, r->qp_num);
}

static void check_new(const struct gr_row *row, struct rc_ctx *ctx,
		      struct getting *g, struct cm_pair *p)
{
	struct rdma_cm_id *id = g->id;

	if (!id || id == g->listen) {
		rc_obs_violation(ctx->obs, "id not a new id");
		return;
	}
	if ((row->kind == GR_REQUEST || row->kind == GR_INFO) &&
	    (!id->event || id->event->event != RDMA_CM_EVENT_CONNECT_REQUEST ||
	     id->event->listen_id != g->listen))
		rc_obs_violation(
			ctx->obs, "event id->event is %s%s",
			id->event ? cm_event_name(id->event->event) : "NULL",
			id->event && id->event->listen_id != g->listen ?
				", listen_id not the listener" :
				"");
	if (row->kind == GR_INFO && id->event)
		check_information(ctx, id->event);
	if (row->kind == GR_QP && (!id->qp || id->qp->qp_type != IBV_QPT_RC))
		rc_obs_violation(ctx->obs, "qp none on the new id");
	if (row->kind == GR_ACCEPT)
		accept_new(ctx, g, p);
}

/*
 * After a failed call: a request the implementation left on the listener
 * (rdma-core keeps the request's event in listen->event, its new id
 * unanswered) is refused, or the client, in this process, waits for the
 * provider's connection timeout (siw's: 10 s) before it can be destroyed.
 * Teardown only: the row's verdict is taken before.
 */
static void refuse_left_request(struct rc_ctx *ctx, struct rdma_cm_id *listen)
{
	struct rdma_cm_event *ev = listen->event;

	if (ev && ev->event == RDMA_CM_EVENT_CONNECT_REQUEST && ev->id &&
	    ev->id != listen)
		ctx->ops->rdma_reject(ev->id, NULL, 0);
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct gr_row *row = r;
	struct ibv_qp_init_attr qa = {
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 4,
			 .max_recv_wr = 4,
			 .max_send_sge = 1,
			 .max_recv_sge = 1 },
	};
	bool qp = row->kind == GR_QP || row->kind == GR_ACCEPT ||
		  row->kind == GR_QP_FAILS ||
		  ctx->target->link == RC_LINK_IWARP;
	struct getting g = { .ctx = ctx };
	struct rdma_cm_event *ev;
	struct rdma_addrinfo ai;
	struct cm_pair p;
	struct cm_bg bg;

	if (!rc_need_call(ctx, ctx->ops->rdma_get_request,
			  "rdma_get_request") ||
	    !rc_need_call(ctx, ctx->ops->rdma_create_ep, "rdma_create_ep"))
		return;
	if (!cm_pair_open(ctx, &p, AF_INET, qp, ctx->ops, ctx->ops))
		goto out;
	if (row->kind == GR_ASYNC) {
		if (cm_listen(ctx, &p) && cm_resolve(ctx, &p) &&
		    client_connects(ctx, &p, row)) {
			usleep(rc_scaled_ms(ctx, CM_QUIET_MS) * 1000);
			g.listen = p.srv.id;
			if (!get_request(&g) && g.id) {
				ctx->ops->rdma_destroy_id(g.id);
			} else if (cm_expect(ctx, &p.srv,
					     RDMA_CM_EVENT_CONNECT_REQUEST,
					     &ev)) {
				/* the request stays on the listener's own
				 * channel */
				p.srv.conn = ev->id;
				ctx->ops->rdma_ack_cm_event(ev);
			}
		}
		goto out;
	}
	if (row->kind == GR_QP_FAILS)
		qa.cap.max_send_wr = 1u << 30;
	cm_ep_info(&p, true, &ai);
	if (ctx->ops->rdma_create_ep(&g.listen, &ai, NULL, qp ? &qa : NULL)) {
		cm_broken(ctx, "rdma_create_ep");
		goto out;
	}
	if (ctx->ops->rdma_listen(g.listen, 4)) {
		cm_broken(ctx, "rdma_listen");
		goto close;
	}
	if (!cm_resolve(ctx, &p))
		goto close;
	if (row->kind == GR_BLOCKS) {
		if (!cm_bg_start(ctx, &bg, get_request, &g))
			goto close;
		usleep(rc_scaled_ms(ctx, CM_QUIET_MS) * 1000);
		if (cm_bg_done(&bg))
			rc_obs_violation(ctx->obs,
					 "blocked it returned with no request "
					 "pending");
		if (!client_connects(ctx, &p, row)) {
			/* it waits on: the row's HANG says so */
		}
		if (!cm_bg_join(&bg))
			check_new(row, ctx, &g, &p);
	} else if (client_connects(ctx, &p, row)) {
		if (!get_request(&g))
			check_new(row, ctx, &g, &p);
		else if (g.id)
			rc_obs_violation(ctx->obs, "id written on failure");
		else
			refuse_left_request(ctx, g.listen);
	}
	if (g.id)
		ctx->ops->rdma_destroy_ep(g.id);
close:
	ctx->ops->rdma_destroy_ep(g.listen);
out:
	cm_pair_close(ctx, &p);
}

RC_TABLE_GROUP(group, "rdma_get_request", RC_CONV_M1_ERRNO, "rdmacm", rows,
	       run);
