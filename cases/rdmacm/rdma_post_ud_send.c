// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_post_ud_send(3), inline in <rdma/rdma_verbs.h> (the system side is
 * the header's code, harness/impl.c): "Posts a work request to the send
 * queue of the queue pair associated with the rdma_cm_id.  The contents
 * of the posted buffer will be sent to the specified destination queue
 * pair."  "Returns 0 on success, or -1 on error."
 *
 * The sender is an RDMA_PS_UDP id of the implementation under test bound
 * to the peer device's address, with a UD QP (rdma_create_qp) on a PD and
 * CQ of rdma-core's (as the multicast members have, rdmacm_member.c),
 * and an AH of rdma-core's to the target port's IPv4-mapped GID; the
 * receiver is the harness's UD QP there (verbs_res.h), its Q_Key the
 * port space's (RDMA_UDP_QKEY, the one the call sends with):
 * - 180 distinct bytes arrive at the destination QP, after its GRH
 * - the context comes back as the send completion's wr_id
 * - 48 bytes inline with no MR, the buffer zeroed once the call returns:
 *   the bytes of the call arrive
 * - inline one byte beyond the QP's max_inline_data: -1
 * And rdma_get_send_comp(3) on such a sender whose QP has the CQs
 * rdma_create_qp made (libibverbs' in the reference, where a datagram
 * id's verbs are): "If a completion is not found, the call blocks until a
 * request completes."  Called in a thread with nothing posted, it has not
 * returned 300 ms later; a signaled send is posted and it returns 1 with
 * that completion (the send's context as wr_id, IBV_WC_SEND) within 3 s.
 * rdma_get_send_comp(3): "Returns the number of returned completions (0 or
 * 1)": two sends completed (both received), two calls, 1 each, in order.
 */
#include <string.h>
#include <unistd.h>

#include "rdmacm_conn.h"
#include "../verbs/verbs_res.h"
#include "../../harness/device.h"
#include <rdma/rdma_verbs.h>

#define DOC_SEND                                                           \
	"The contents of the posted buffer will be sent to the specified " \
	"destination queue pair."
#define DOC_CTX                                                            \
	"The user-defined context associated with the send request will "  \
	"be returned to the user through the work completion wr_id, work " \
	"request identifier, field."
#define DOC_INLINE                                                         \
	"However, if the IBV_SEND_INLINE flag was set, the buffer can be " \
	"reused immediately after the call returns."
#define DOC_BLOCK                                                        \
	"This calls polls the send completion queue associated with an " \
	"rdma_cm_id.  If a completion is not found, the call blocks "    \
	"until a request completes."
#define DOC_COUNT                                                          \
	"Returns the number of returned completions (0 or 1) on success, " \
	"or -1 on error."
#define DOC_FAIL                                              \
	"Returns 0 on success, or -1 on error.  If an error " \
	"occurs, errno will be set to indicate the failure reason."

enum ud_kind {
	UD_DATA,
	UD_CTX,
	UD_INLINE,
	UD_TOO_LONG,
	UD_BLOCK, /* rdma_get_send_comp waits for a send to complete */
	UD_TWO, /* rdma_get_send_comp: two completed, one per call */
};

struct ud_row {
	struct rc_case c;
	enum ud_kind kind;
};

#define NEEDS (RC_NEED_DEVICE | RC_NEED_PEER | RC_NEED_UD)
#define CONTEXT 0x1122334455667788ull
#define LEN 180
#define INLINE_LEN 48

static const struct ud_row rows[] = {
	{ .c = { .id = "rdmacm/post_ud_send/data-arrives",
		 .doc = DOC_SEND,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "180 distinct bytes, signaled, to the target port's "
			 "UD QP by its AH and QP number: its receive "
			 "completes (IBV_WC_RECV, no immediate data) with "
			 "byte_len 40 + 180 and holds them after the GRH, "
			 "byte for byte",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .kind = UD_DATA },
	{ .c = { .id = "rdmacm/post_ud_send/context-is-wr-id",
		 .doc = DOC_CTX,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "context 0x1122334455667788 (eight distinct bytes): "
			 "the send completion has it as wr_id, IBV_WC_SEND, "
			 "success",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .kind = UD_CTX },
	{ .c = { .id = "rdmacm/post_ud_send/inline-no-mr",
		 .doc = DOC_INLINE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "48 bytes, IBV_SEND_INLINE | IBV_SEND_SIGNALED, mr "
			 "NULL ('Unless the send request is using inline "
			 "data' it needs one): the buffer is zeroed once the "
			 "call returns, and the bytes it had arrive",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .kind = UD_INLINE },
	{ .c = { .id = "rdmacm/post_ud_send/inline-too-long",
		 .doc = DOC_FAIL,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "IBV_SEND_INLINE with one byte more than the QP's "
			 "max_inline_data (ibv_query_qp): the request cannot "
			 "be posted, -1 and errno",
		 .needs = NEEDS,
		 .contract = { RC_FAILS() } },
	  .kind = UD_TOO_LONG },
};

struct sender {
	struct rdma_event_channel *ch;
	struct rdma_cm_id *id;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_mr *mr;
	struct ibv_ah *ah;
	uint8_t buf[1024];
};

/* @own_cqs: the QP's CQs are those rdma_create_qp makes (s->cq NULL) */
static bool sender_open(struct rc_ctx *ctx, struct sender *s,
			const union ibv_gid *dgid, bool own_cqs)
{
	const struct rc_ops *o = ctx->ops;
	const struct rc_target *t = ctx->target;
	struct ibv_qp_init_attr qa = {
		.qp_type = IBV_QPT_UD,
		.cap = { .max_send_wr = 4,
			 .max_recv_wr = 1,
			 .max_send_sge = 1,
			 .max_recv_sge = 1,
			 .max_inline_data = 64 },
	};
	struct ibv_ah_attr aa = { .is_global = 1 };
	struct sockaddr_storage ss;
	union ibv_gid sg;
	int sgid;

	if (!cm_dev_addr(ctx, t->peer, t->peer_port, AF_INET, &ss))
		return false;
	s->ch = o->rdma_create_event_channel();
	if (!s->ch)
		return cm_broken(ctx, "rdma_create_event_channel");
	if (o->rdma_create_id(s->ch, &s->id, s, RDMA_PS_UDP)) {
		s->id = NULL;
		return cm_broken(ctx, "rdma_create_id");
	}
	if (o->rdma_bind_addr(s->id, (struct sockaddr *)&ss) || !s->id->verbs)
		return cm_broken(ctx, "rdma_bind_addr to the peer's address");
	s->pd = ibv_alloc_pd(s->id->verbs);
	if (s->pd && !own_cqs)
		s->cq = ibv_create_cq(s->id->verbs, 8, NULL, NULL, 0);
	s->mr = s->pd && (own_cqs || s->cq) ?
			ibv_reg_mr(s->pd, s->buf, sizeof(s->buf),
				   IBV_ACCESS_LOCAL_WRITE) :
			NULL;
	if (!s->mr)
		return cm_broken(ctx, "PD, CQ or MR");
	qa.send_cq = qa.recv_cq = s->cq;
	if (o->rdma_create_qp(s->id, s->pd, &qa))
		return cm_broken(ctx, "rdma_create_qp");
	sgid = rc_port_gid(t->peer, t->peer_port, RC_GID_IPV4, sg.raw);
	if (sgid < 0) {
		errno = ENOENT;
		return cm_broken(ctx, "the peer port's IPv4-mapped GID");
	}
	aa.port_num = t->peer_port;
	aa.grh.dgid = *dgid;
	aa.grh.sgid_index = sgid;
	aa.grh.hop_limit = 64;
	s->ah = ibv_create_ah(s->pd, &aa);
	if (!s->ah)
		return cm_broken(ctx, "ibv_create_ah");
	return true;
}

static void sender_close(struct rc_ctx *ctx, struct sender *s)
{
	const struct rc_ops *o = ctx->ops;

	if (s->ah)
		ibv_destroy_ah(s->ah);
	if (s->id && s->id->qp)
		o->rdma_destroy_qp(s->id);
	if (s->mr)
		ibv_dereg_mr(s->mr);
	if (s->cq)
		ibv_destroy_cq(s->cq);
	if (s->pd)
		ibv_dealloc_pd(s->pd);
	if (s->id)
		o->rdma_destroy_id(s->id);
	if (s->ch)
		o->rdma_destroy_event_channel(s->ch);
}

/* The receiver @v (open) ready for the sender's messages, and the sender
 * @s addressing it */
static bool pair_open(struct rc_ctx *ctx, struct vres *v, struct sender *s,
		      bool own_cqs)
{
	struct ibv_qp_attr qkey = { .qkey = RDMA_UDP_QKEY };

	if (ibv_modify_qp(v->qp, &qkey, IBV_QP_QKEY))
		return cm_broken(ctx, "the receiver's Q_Key");
	return vres_post_recv(ctx, v, 2) &&
	       sender_open(ctx, s, &v->g4, own_cqs);
}

static void run(const void *row, struct rc_ctx *ctx)
{
	const struct ud_row *r = row;
	struct ibv_qp_init_attr init;
	struct ibv_qp_attr attr;
	struct sender s = { 0 };
	uint8_t pat[LEN];
	struct ibv_wc wc;
	struct vres v;
	bool in = r->kind == UD_INLINE || r->kind == UD_TOO_LONG;
	uint32_t len = r->kind == UD_INLINE ? INLINE_LEN : LEN;
	int ret;

	if (!rc_need_call(ctx, ctx->ops->rdma_post_ud_send,
			  "rdma_post_ud_send") ||
	    !vres_open(ctx, &v, IBV_QPT_UD))
		return;
	if (!pair_open(ctx, &v, &s, false))
		goto out;
	if (r->kind == UD_TOO_LONG) {
		if (ibv_query_qp(s.id->qp, &attr, IBV_QP_CAP, &init)) {
			cm_broken(ctx, "ibv_query_qp");
			goto out;
		}
		len = init.cap.max_inline_data + 1;
		if (len > sizeof(s.buf)) {
			errno = E2BIG;
			cm_broken(ctx, "max_inline_data");
			goto out;
		}
	}
	cm_pattern(pat, LEN, 0x51);
	memcpy(s.buf, pat, LEN);
	RC_OBSERVE(ctx, ret = ctx->ops->rdma_post_ud_send(
				s.id, (void *)(uintptr_t)CONTEXT, s.buf, len,
				in ? NULL : s.mr,
				IBV_SEND_SIGNALED | (in ? IBV_SEND_INLINE : 0),
				s.ah, v.qp->qp_num));
	if (ret || r->kind == UD_TOO_LONG)
		goto out;
	if (in)
		memset(s.buf, 0, sizeof(s.buf));
	if (r->kind == UD_CTX) {
		if (vres_poll_cq(s.cq,
				 rc_now_ms() + rc_scaled_ms(ctx, CM_WAIT_MS),
				 &wc) != 1)
			rc_obs_violation(ctx->obs, "send_wc none arrived");
		else if (wc.wr_id != CONTEXT || wc.status != IBV_WC_SUCCESS ||
			 wc.opcode != IBV_WC_SEND)
			rc_obs_violation(ctx->obs,
					 "send_wc wr_id 0x%llx status %d "
					 "opcode %d",
					 (unsigned long long)wc.wr_id,
					 wc.status, wc.opcode);
		goto out;
	}
	if (vres_recv(ctx, &v, CM_WAIT_MS, &wc, NULL, NULL) != 1) {
		rc_obs_violation(ctx->obs, "recv_wc none arrived");
		goto out;
	}
	if (wc.byte_len != VRES_GRH + len)
		rc_obs_violation(ctx->obs, "recv_wc.byte_len %u, not %u",
				 wc.byte_len, VRES_GRH + len);
	/* a SEND: the call takes no immediate data to send */
	if (wc.opcode != IBV_WC_RECV || (wc.wc_flags & IBV_WC_WITH_IMM))
		rc_obs_violation(ctx->obs,
				 "recv_wc.opcode %d wc_flags %#x: not a SEND's "
				 "receive without immediate data",
				 wc.opcode, wc.wc_flags);
	rc_obs_out(ctx->obs, v.buf + wc.wr_id * VRES_SLOT + VRES_GRH, len);
	if (memcmp(v.buf + wc.wr_id * VRES_SLOT + VRES_GRH, pat, len))
		rc_obs_violation(ctx->obs, "data the bytes received are not "
					   "the ones sent");
out:
	sender_close(ctx, &s);
	vres_close(&v);
}

RC_TABLE_GROUP(group, "rdma_post_ud_send", RC_CONV_M1_ERRNO, "rdmacm", rows,
	       run);

static const struct ud_row comp_rows[] = {
	{ .c = { .id = "rdmacm/get_send_comp/datagram-id-blocks",
		 .doc = DOC_BLOCK,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a datagram id's QP with the CQs rdma_create_qp "
			 "made, nothing posted: the call (in a thread) has "
			 "not returned 300 ms later; a signaled "
			 "rdma_post_ud_send (context 0x1122334455667788) is "
			 "posted and it returns 1 with that completion, "
			 "IBV_WC_SEND, within 3 s",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(1) } },
	  .kind = UD_BLOCK },
	{ .c = { .id = "rdmacm/get_send_comp/datagram-id-one-per-call",
		 .doc = DOC_COUNT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a datagram id's QP with the CQs rdma_create_qp "
			 "made, two signaled sends (contexts ...88, ...89), "
			 "both received: the first call returns 1 with the "
			 "first, the second 1 with the second",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(1) } },
	  .kind = UD_TWO },
};

struct waiting {
	struct rc_ctx *ctx;
	struct rdma_cm_id *id;
	struct ibv_wc wc;
};

static int wait_send(void *arg)
{
	struct waiting *w = arg;
	int ret;

	RC_OBSERVE(w->ctx,
		   ret = w->ctx->ops->rdma_get_send_comp(w->id, &w->wc));
	return ret;
}

/* Two sends completed (both received at @v): each call returns one, in
 * order */
static void one_per_call(struct rc_ctx *ctx, struct vres *v, struct sender *s)
{
	struct waiting w = { .ctx = ctx, .id = s->id };
	struct ibv_wc wc;
	uint64_t i;

	for (i = 0; i < 2; i++)
		if (ctx->ops->rdma_post_ud_send(
			    s->id, (void *)(uintptr_t)(CONTEXT + i), s->buf,
			    LEN, s->mr, IBV_SEND_SIGNALED, s->ah,
			    v->qp->qp_num) ||
		    vres_recv(ctx, v, CM_WAIT_MS, &wc, NULL, NULL) != 1) {
			cm_broken(ctx, "two sends received (set-up)");
			return;
		}
	/* a UD send completes once it is sent: both are in the CQ now */
	for (i = 0; i < 2 && !ctx->obs->violation[0]; i++)
		if (wait_send(&w) != 1 || w.wc.wr_id != CONTEXT + i)
			rc_obs_violation(ctx->obs,
					 "call %llu returned %lld, wr_id "
					 "0x%llx, not 1 with 0x%llx",
					 (unsigned long long)i + 1,
					 ctx->obs->ret,
					 (unsigned long long)w.wc.wr_id,
					 (unsigned long long)(CONTEXT + i));
}

static void run_comp(const void *row, struct rc_ctx *ctx)
{
	const struct ud_row *r = row;
	struct waiting w = { .ctx = ctx };
	struct sender s = { 0 };
	struct cm_bg bg;
	struct vres v;
	double end;

	if (!rc_need_call(ctx, ctx->ops->rdma_get_send_comp,
			  "rdma_get_send_comp") ||
	    !vres_open(ctx, &v, IBV_QPT_UD))
		return;
	if (!pair_open(ctx, &v, &s, true))
		goto out;
	if (r->kind == UD_TWO) {
		one_per_call(ctx, &v, &s);
		goto out;
	}
	w.id = s.id;
	if (!cm_bg_start(ctx, &bg, wait_send, &w))
		goto out;
	usleep(rc_scaled_ms(ctx, CM_QUIET_MS) * 1000);
	if (cm_bg_done(&bg))
		rc_obs_violation(ctx->obs, "blocked it returned with nothing "
					   "posted");
	/* a send that fails leaves the call waiting: the row's HANG */
	if (ctx->ops->rdma_post_ud_send(s.id, (void *)(uintptr_t)CONTEXT, s.buf,
					LEN, s.mr, IBV_SEND_SIGNALED, s.ah,
					v.qp->qp_num))
		cm_broken(ctx, "rdma_post_ud_send");
	end = rc_now_ms() + rc_scaled_ms(ctx, CM_WAIT_MS);
	while (!cm_bg_done(&bg) && rc_now_ms() < end)
		usleep(1000);
	if (!cm_bg_done(&bg))
		rc_obs_violation(ctx->obs,
				 "deadline it had not returned 3 s after the "
				 "send was posted");
	if (cm_bg_join(&bg) == 1 &&
	    (w.wc.wr_id != CONTEXT || w.wc.status != IBV_WC_SUCCESS ||
	     w.wc.opcode != IBV_WC_SEND))
		rc_obs_violation(ctx->obs,
				 "wc wr_id 0x%llx status %d opcode %d, not "
				 "the send's IBV_WC_SEND",
				 (unsigned long long)w.wc.wr_id, w.wc.status,
				 w.wc.opcode);
out:
	sender_close(ctx, &s);
	vres_close(&v);
}

RC_TABLE_GROUP(comp_group, "rdma_get_send_comp", RC_CONV_M1_ERRNO, "rdmacm",
	       comp_rows, run_comp);
