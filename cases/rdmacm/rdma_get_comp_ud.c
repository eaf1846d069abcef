// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_get_send_comp(3) and rdma_get_recv_comp(3) on a datagram id
 * (RDMA_PS_UDP) whose UD QP has the CQs rdma_create_qp made (libibverbs'
 * in the reference, where a datagram id's verbs are; rdma_get_comp.c has
 * the connected ids'), the ids of rdmacm_ud.h:
 * - get_send_comp/datagram-id-blocks: "If a completion is not found, the
 *   call blocks until a request completes."  Called in a thread with
 *   nothing posted, it has not returned 300 ms later; a signaled
 *   rdma_post_ud_send is posted and it returns 1 with that completion (the
 *   send's context as wr_id, IBV_WC_SEND) within 3 s
 * - get_send_comp/datagram-id-one-per-call: "Returns the number of
 *   returned completions (0 or 1)": two sends completed (both received),
 *   two calls, 1 each, in order
 * - get_recv_comp/datagram-id-blocks: a receiving id on the target
 *   device's address, a receive posted with rdma_post_recv: it has not
 *   returned 300 ms later; the sender sends to its QP and it returns 1
 *   with the receive (its context, IBV_WC_RECV, byte_len 40 + 180)
 * - get_recv_comp/datagram-id-one-per-call: two receives, two datagrams,
 *   300 ms for both to land: two calls, 1 each, in order
 */
#include <unistd.h>

#include "rdmacm_ud.h"
#include <rdma/rdma_verbs.h>

enum gu_kind {
	GU_BLOCK, /* the call waits until one completes */
	GU_TWO, /* two completed: one per call */
};

struct gu_row {
	struct rc_case c;
	enum gu_kind kind;
};

#define NEEDS (RC_NEED_DEVICE | RC_NEED_PEER | RC_NEED_UD)
#define CONTEXT 0x1122334455667788ull
#define LEN 180

static const struct gu_row send_rows[] = {
	{ .c = { .id = "rdmacm/get_send_comp/datagram-id-blocks",
		 .doc = CM_DOC_SEND_COMP_BLOCKS,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a datagram id's QP with the CQs rdma_create_qp "
			 "made, nothing posted: the call (in a thread) has "
			 "not returned 300 ms later; a signaled "
			 "rdma_post_ud_send (context 0x1122334455667788) is "
			 "posted and it returns 1 with that completion, "
			 "IBV_WC_SEND, within 3 s",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(1) } },
	  .kind = GU_BLOCK },
	{ .c = { .id = "rdmacm/get_send_comp/datagram-id-one-per-call",
		 .doc = CM_DOC_COMP_COUNT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a datagram id's QP with the CQs rdma_create_qp "
			 "made, two signaled sends (contexts ...88, ...89), "
			 "both received: the first call returns 1 with the "
			 "first, the second 1 with the second",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(1) } },
	  .kind = GU_TWO },
};

static const struct gu_row recv_rows[] = {
	{ .c = { .id = "rdmacm/get_recv_comp/datagram-id-blocks",
		 .doc = CM_DOC_RECV_COMP_BLOCKS,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a datagram id's QP with the CQs rdma_create_qp "
			 "made, a receive posted (context ...88), no message: "
			 "the call (in a thread) has not returned 300 ms "
			 "later; a datagram of 180 bytes is sent to it and it "
			 "returns 1 with the receive, IBV_WC_RECV, byte_len "
			 "40 + 180, within 3 s",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(1) } },
	  .kind = GU_BLOCK },
	{ .c = { .id = "rdmacm/get_recv_comp/datagram-id-one-per-call",
		 .doc = CM_DOC_COMP_COUNT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a datagram id's QP with the CQs rdma_create_qp "
			 "made, two receives posted (contexts ...88, ...89), "
			 "two datagrams sent to it and 300 ms for them to "
			 "land: the first call returns 1 with the first, the "
			 "second 1 with the second",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(1) } },
	  .kind = GU_TWO },
};

struct waiting {
	struct rc_ctx *ctx;
	struct rdma_cm_id *id;
	bool recv; /* rdma_get_recv_comp, or _send_comp */
	struct ibv_wc wc;
};

static int wait_comp(void *arg)
{
	struct waiting *w = arg;
	const struct rc_ops *o = w->ctx->ops;
	int ret;

	RC_OBSERVE(w->ctx, ret = w->recv ?
					 o->rdma_get_recv_comp(w->id, &w->wc) :
					 o->rdma_get_send_comp(w->id, &w->wc));
	return ret;
}

/* Two completions there for @w's call: each call returns one, in order,
 * their contexts CONTEXT and CONTEXT + 1 */
static void one_per_call(struct rc_ctx *ctx, struct waiting *w)
{
	uint64_t i;

	for (i = 0; i < 2 && !ctx->obs->violation[0]; i++)
		if (wait_comp(w) != 1 || w->wc.wr_id != CONTEXT + i)
			rc_obs_violation(ctx->obs,
					 "call %llu returned %lld, wr_id "
					 "0x%llx, not 1 with 0x%llx",
					 (unsigned long long)i + 1,
					 ctx->obs->ret,
					 (unsigned long long)w->wc.wr_id,
					 (unsigned long long)(CONTEXT + i));
}

/* The call on @w->id in a thread with nothing there: it has not returned
 * CM_QUIET_MS later; @s then sends one datagram to QP @qpn, and it returns
 * 1 with the completion (CONTEXT, @opcode, and @byte_len unless -1) */
static void blocks(struct rc_ctx *ctx, struct waiting *w, struct cmud *s,
		   uint32_t qpn, int opcode, int64_t byte_len)
{
	struct cm_bg bg;

	if (!cm_bg_start(ctx, &bg, wait_comp, w))
		return;
	usleep(rc_scaled_ms(ctx, CM_QUIET_MS) * 1000);
	if (cm_bg_done(&bg))
		rc_obs_violation(ctx->obs, "blocked it returned with nothing "
					   "there");
	/* a send that fails leaves the call waiting: the row's HANG */
	if (ctx->ops->rdma_post_ud_send(s->id, (void *)(uintptr_t)CONTEXT,
					s->buf, LEN, s->mr, IBV_SEND_SIGNALED,
					s->ah, qpn))
		cm_broken(ctx, "rdma_post_ud_send");
	cm_bg_wait(ctx, &bg, "send was posted");
	if (cm_bg_join(&bg) == 1 &&
	    (w->wc.wr_id != CONTEXT || w->wc.status != IBV_WC_SUCCESS ||
	     (int)w->wc.opcode != opcode ||
	     (byte_len >= 0 && w->wc.byte_len != byte_len)))
		rc_obs_violation(ctx->obs,
				 "wc wr_id 0x%llx status %d opcode %d byte_len "
				 "%u, not the %s",
				 (unsigned long long)w->wc.wr_id, w->wc.status,
				 w->wc.opcode, w->wc.byte_len,
				 w->recv ? "receive's IBV_WC_RECV of 40 + 180" :
					   "send's IBV_WC_SEND");
}

/* Two datagrams from @s to QP @qpn; false (BROKEN) when one is refused */
static bool send_two(struct rc_ctx *ctx, struct cmud *s, uint32_t qpn)
{
	uint64_t i;

	for (i = 0; i < 2; i++)
		if (ctx->ops->rdma_post_ud_send(
			    s->id, (void *)(uintptr_t)(CONTEXT + i), s->buf,
			    LEN, s->mr, IBV_SEND_SIGNALED, s->ah, qpn))
			return cm_broken(ctx, "two datagrams (set-up)");
	return true;
}

/* rdma_get_recv_comp: a receiving datagram id, and a sender to it */
static void run_recv_comp(const void *row, struct rc_ctx *ctx)
{
	const struct gu_row *r = row;
	struct waiting w = { .ctx = ctx, .recv = true };
	struct cmud rcv = { 0 }, s = { 0 };
	union ibv_gid g;

	if (!rc_need_call(ctx, ctx->ops->rdma_get_recv_comp,
			  "rdma_get_recv_comp") ||
	    !cmud_receiver_open(ctx, &rcv, VRES_GRH + LEN,
				(void *)(uintptr_t)CONTEXT, &g) ||
	    !cmud_sender_open(ctx, &s, &g, false))
		goto out;
	w.id = rcv.id;
	if (r->kind == GU_BLOCK) {
		blocks(ctx, &w, &s, rcv.id->qp->qp_num, IBV_WC_RECV,
		       VRES_GRH + LEN);
		goto out;
	}
	/* the second receive, after the first in the buffer */
	if (ctx->ops->rdma_post_recv(rcv.id, (void *)(uintptr_t)(CONTEXT + 1),
				     rcv.buf + 512, VRES_GRH + LEN, rcv.mr)) {
		cm_broken(ctx, "the second rdma_post_recv (set-up)");
		goto out;
	}
	if (!send_two(ctx, &s, rcv.id->qp->qp_num))
		goto out;
	usleep(rc_scaled_ms(ctx, CM_QUIET_MS) * 1000);
	one_per_call(ctx, &w);
out:
	cmud_close(ctx, &s);
	cmud_close(ctx, &rcv);
}

/* rdma_get_send_comp: a sender with the CQs rdma_create_qp made, to the
 * harness's UD QP */
static void run_comp(const void *row, struct rc_ctx *ctx)
{
	const struct gu_row *r = row;
	struct waiting w = { .ctx = ctx };
	struct cmud s = { 0 };
	struct ibv_wc wc;
	struct vres v;

	if (!rc_need_call(ctx, ctx->ops->rdma_get_send_comp,
			  "rdma_get_send_comp") ||
	    !vres_open(ctx, &v, IBV_QPT_UD))
		return;
	if (!cmud_pair_open(ctx, &v, &s, true))
		goto out;
	w.id = s.id;
	if (r->kind == GU_BLOCK) {
		blocks(ctx, &w, &s, v.qp->qp_num, IBV_WC_SEND, -1);
		goto out;
	}
	/* both received: a UD send completes once it is sent, so both are
	 * in the CQ now */
	if (!send_two(ctx, &s, v.qp->qp_num) ||
	    vres_recv(ctx, &v, CM_WAIT_MS, &wc, NULL, NULL) != 1 ||
	    vres_recv(ctx, &v, CM_WAIT_MS, &wc, NULL, NULL) != 1) {
		cm_broken(ctx, "two datagrams received (set-up)");
		goto out;
	}
	one_per_call(ctx, &w);
out:
	cmud_close(ctx, &s);
	vres_close(&v);
}

RC_TABLE_GROUP(comp_group, "rdma_get_send_comp", RC_CONV_M1_ERRNO, "rdmacm",
	       send_rows, run_comp);

RC_TABLE_GROUP(recv_comp_group, "rdma_get_recv_comp", RC_CONV_M1_ERRNO,
	       "rdmacm", recv_rows, run_recv_comp);
