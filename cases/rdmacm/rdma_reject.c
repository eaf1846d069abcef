// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_reject(3): "After receiving a connection request event, a user may
 * call rdma_reject to reject the request.  If the underlying RDMA
 * transport supports private data in the reject message, the specified
 * data will be passed to the remote side."  rdma_get_cm_event(3),
 * RDMA_CM_EVENT_REJECTED: "Indicates that a connection request or
 * response was rejected by the remote end point.  The event status field
 * will contain the transport specific reject reason if available.  Under
 * InfiniBand, this is the reject reason carried in the IB CM REJ
 * message."  "Returns 0 on success, or -1 on error."
 *
 * - IPv4 and IPv6: 0; the client's event is REJECTED (not ESTABLISHED),
 *   with the reject's 40 distinct bytes, zeroes after
 * - RoCE: the status is the IB CM's consumer-defined reason (28)
 * - the listening id, which has no request: -1
 */
#include <string.h>

#include "rdmacm_conn.h"

#define DOC_REJECT                                                         \
	"If the underlying RDMA transport supports private data "          \
	"in the reject message, the specified data will be passed to the " \
	"remote side."
#define DOC_AFTER                                                 \
	"After receiving a connection request event, a user may " \
	"call rdma_reject to reject the request."
#define DOC_REASON                                                \
	"Under InfiniBand, this is the reject reason carried in " \
	"the IB CM REJ message."
/* IBA 12.6.7.2, Table 112: "Consumer Reject" (include/rdma/ib_cm.h,
 * IB_CM_REJ_CONSUMER_DEFINED): what a REJ that the user sends carries */
#define REJ_CONSUMER_DEFINED 28

struct reject_row;
typedef void reject_check(const struct reject_row *row, struct rc_ctx *ctx,
			  struct cm_pair *p);

struct reject_row {
	struct rc_case c;
	reject_check *check;
	int family;
	uint8_t len;
};

static reject_check data_at_client, reason_at_client, listener_refused;

#define NEEDS (RC_NEED_DEVICE | RC_NEED_PEER)

static const struct reject_row rows[] = {
	{ .c = { .id = "rdmacm/reject/ipv4-private-data",
		 .doc = DOC_REJECT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "0; the client's next event is REJECTED, with the 40 "
			 "bytes given, zeroes after",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = data_at_client,
	  .family = AF_INET,
	  .len = 40 },
	{ .c = { .id = "rdmacm/reject/ipv6-private-data",
		 .doc = DOC_REJECT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the same over IPv6",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = data_at_client,
	  .family = AF_INET6,
	  .len = 40 },
	{ .c = { .id = "rdmacm/reject/status-consumer-reject",
		 .doc = DOC_REASON,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the REJ a user sends carries IBA's Consumer Reject "
			 "(28): the REJECTED event's status is 28",
		 .needs = NEEDS | RC_NEED_ROCE,
		 .contract = { RC_RETURNS(0) } },
	  .check = reason_at_client,
	  .family = AF_INET,
	  .len = 8 },
	{ .c = { .id = "rdmacm/reject/listener-refused",
		 .doc = DOC_AFTER,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the listening id itself, which received no request "
			 "of its own: read as -1",
		 .needs = NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = listener_refused,
	  .family = AF_INET },
};

/* The call observed on the request's id with the row's data; the
 * client's next event, which must be REJECTED, or NULL. */
static struct rdma_cm_event *reject_seen(const struct reject_row *row,
					 struct rc_ctx *ctx, struct cm_pair *p,
					 uint8_t *data)
{
	struct rdma_conn_param c;
	struct rdma_cm_event *ev;
	int ret, type;

	cm_client_param(&c, NULL, 0);
	if (!cm_resolve(ctx, p) || !cm_request(ctx, p, &c, NULL))
		return NULL;
	cm_pattern(data, row->len, 0x60);
	RC_OBSERVE(ctx,
		   ret = ctx->ops->rdma_reject(p->srv.conn, data, row->len));
	if (ret)
		return NULL;
	type = cm_next(ctx, &p->cli, CM_WAIT_MS, &ev);
	if (type == RDMA_CM_EVENT_REJECTED)
		return ev;
	rc_obs_violation(ctx->obs, "client_event %s, not REJECTED",
			 type < 0 ? "none" : cm_event_name(type));
	if (type >= 0)
		ctx->ops->rdma_ack_cm_event(ev);
	return NULL;
}

static void data_at_client(const struct reject_row *row, struct rc_ctx *ctx,
			   struct cm_pair *p)
{
	uint8_t data[256];
	struct rdma_cm_event *ev = reject_seen(row, ctx, p, data);

	if (!ev)
		return;
	cm_check_private(ctx, "private_data", ev->param.conn.private_data,
			 ev->param.conn.private_data_len, data, row->len);
	ctx->ops->rdma_ack_cm_event(ev);
}

static void reason_at_client(const struct reject_row *row, struct rc_ctx *ctx,
			     struct cm_pair *p)
{
	uint8_t data[256];
	struct rdma_cm_event *ev = reject_seen(row, ctx, p, data);

	if (!ev)
		return;
	if (ev->status != REJ_CONSUMER_DEFINED)
		rc_obs_violation(ctx->obs, "status %d, not %d", ev->status,
				 REJ_CONSUMER_DEFINED);
	ctx->ops->rdma_ack_cm_event(ev);
}

static void listener_refused(const struct reject_row *row, struct rc_ctx *ctx,
			     struct cm_pair *p)
{
	RC_OBSERVE(ctx, ctx->ops->rdma_reject(p->srv.id, NULL, 0));
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct reject_row *row = r;
	struct cm_pair p;

	if (!rc_need_call(ctx, ctx->ops->rdma_reject, "rdma_reject") ||
	    !rc_need_call(ctx, ctx->ops->rdma_connect, "rdma_connect"))
		return;
	if (cm_pair_open(ctx, &p, row->family, false, ctx->ops, ctx->ops) &&
	    cm_listen(ctx, &p))
		row->check(row, ctx, &p);
	cm_pair_close(ctx, &p);
}

RC_TABLE_GROUP(group, "rdma_reject", RC_CONV_M1_ERRNO, "rdmacm", rows, run);
