// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_post_recv(3): "posts the linked list of work requests (WRs)
 * starting with wr to the receive queue of the queue pair qp"; it "stops
 * processing WRs from this list at the first failure ... and returns
 * this failing WR through bad_wr"; "returns 0 on success, or the value of
 * errno on failure".  On UD "the Global Routing Header (GRH) of the
 * incoming message will be placed in the first 40 bytes of the buffer(s)
 * in the scatter list".  A QP on an SRQ takes ibv_post_srq_recv().
 *
 * Each row posts on b and has a send to it from a (verbs_traffic.h).
 * - rc-scatter-max: the granted max_recv_sge SGEs filled in order
 * - rc-sge-one-beyond: one more fails, bad_wr that WR, the first posted
 * - rc-buffer-too-short: a message longer than the buffer completes the
 *   receive with IBV_WC_LOC_LEN_ERR
 * - rc-flush-after-error: each outstanding receive of a QP moved to ERR
 *   completes with IBV_WC_WR_FLUSH_ERR, in posting order
 * - qp-with-srq: refused on a QP whose receives go to an SRQ
 * - ud-grh-first-40-bytes: the GRH (an IPv6 header on RoCE v2 over IPv6:
 *   version 6, a's GID as source and b's as destination) and the data
 *   after it
 * - peer-ud-grh-first-40-bytes: the same across two devices, where the
 *   source and destination GIDs differ
 * - ud-grh-own-sge: a first SGE of exactly 40 bytes takes the GRH, the
 *   second all the data
 */
#include <endian.h>
#include <errno.h>
#include <string.h>

#include "verbs_traffic.h"

#define DOC_POST                                                  \
	"ibv_post_recv() posts the linked list of work requests " \
	"(WRs) starting with wr to the receive queue of the queue pair qp."
#define DOC_STOP                                                              \
	"It stops processing WRs from this list at the first "                \
	"failure (that can be detected immediately while requests are being " \
	"posted), and returns this failing WR through bad_wr."
#define DOC_SRQ                                                    \
	"If the QP qp is associated with a shared receive queue, " \
	"you must use the function ibv_post_srq_recv(), and not "  \
	"ibv_post_recv(), since the QP's own receive queue will not be used."
#define DOC_GRH                                                                \
	"If a WR is being posted to a UD QP, the Global Routing "              \
	"Header (GRH) of the incoming message will be placed in the first 40 " \
	"bytes of the buffer(s) in the scatter list."

#define NEEDS_DP (RC_NEED_DEVICE)
#define NEEDS_DP_UD (RC_NEED_DEVICE | RC_NEED_UD)
#define GRH 40
#define SGE_LEN 16
#define MAX_SGE 64

struct recv_row;
typedef void recv_check(const struct recv_row *row, struct rc_ctx *ctx,
			struct vt *t);

struct recv_row {
	struct rc_case c;
	recv_check *check;
	enum ibv_qp_type type;
	bool srq;
	bool peer; /* b on the peer device */
};

static recv_check scatter_max, sge_one_beyond, too_short, flush, on_srq,
	grh_first, grh_own_sge;

static const struct recv_row rows[] = {
	{ .c = { .id = "verbs/post_recv/rc-scatter-max",
		 .doc = DOC_POST,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the granted max_recv_sge SGEs of 16 bytes, 64 apart: "
			 "a message of as many 16-byte pieces fills them in "
			 "order, and nothing between them",
		 .needs = NEEDS_DP,
		 .contract = { RC_RETURNS(0) } },
	  .check = scatter_max },
	{ .c = { .id = "verbs/post_recv/rc-sge-one-beyond",
		 .doc = DOC_STOP,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a valid receive, then one of max_recv_sge + 1 SGEs: "
			 "an errno value, bad_wr the second; a message then "
			 "lands in the first",
		 .needs = NEEDS_DP,
		 .contract = { RC_FAILS() } },
	  .check = sge_one_beyond },
	{ .c = { .id = "verbs/post_recv/rc-buffer-too-short",
		 .doc = DOC_POST,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "a receive of 16 bytes and a SEND of 64: the receive "
			 "completes with IBV_WC_LOC_LEN_ERR (IBA 10.8.3: the "
			 "message does not fit the receive's buffers)",
		 .needs = NEEDS_DP,
		 .contract = { RC_RETURNS(0) } },
	  .check = too_short },
	{ .c = { .id = "verbs/post_recv/rc-flush-after-error",
		 .doc = DOC_POST,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "three receives outstanding, b moved to IBV_QPS_ERR: "
			 "each completes with IBV_WC_WR_FLUSH_ERR, its wr_id and "
			 "b's qp_num, in posting order (IBA 10.3.1)",
		 .needs = NEEDS_DP,
		 .contract = { RC_RETURNS(0) } },
	  .check = flush },
	{ .c = { .id = "verbs/post_recv/qp-with-srq",
		 .doc = DOC_SRQ " ... " DOC_STOP,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "ibv_post_recv on a QP made with an SRQ: \"you must "
			 "use\" ibv_post_srq_recv, read as a failure detected "
			 "immediately (an errno value, bad_wr that WR)",
		 .needs = NEEDS_DP,
		 .contract = { RC_FAILS() } },
	  .check = on_srq,
	  .srq = true },
	{ .c = { .id = "verbs/post_recv/ud-grh-first-40-bytes",
		 .doc = DOC_GRH,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "RoCE v2 over the port's IPv6 GID: the 40 bytes are "
			 "an IPv6 header (version 6) with the sender's GID as "
			 "source and the AH's as destination; the data follows",
		 .needs = NEEDS_DP_UD | RC_NEED_ROCE,
		 .contract = { RC_RETURNS(0) } },
	  .check = grh_first,
	  .type = IBV_QPT_UD },
	{ .c = { .id = "verbs/post_recv/peer-ud-grh-first-40-bytes",
		 .doc = DOC_GRH,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the same from the target device to a QP on the peer: "
			 "the GRH's source is the sender's GID and its "
			 "destination the receiver's, two GIDs that differ",
		 .needs = NEEDS_DP_UD | RC_NEED_ROCE | RC_NEED_PEER,
		 .contract = { RC_RETURNS(0) } },
	  .check = grh_first,
	  .type = IBV_QPT_UD,
	  .peer = true },
	{ .c = { .id = "verbs/post_recv/ud-grh-own-sge",
		 .doc = DOC_GRH,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a first SGE of exactly 40 bytes and a second of 256: "
			 "the GRH fills the first, the 256 data bytes the second",
		 .needs = NEEDS_DP_UD,
		 .contract = { RC_RETURNS(0) } },
	  .check = grh_own_sge,
	  .type = IBV_QPT_UD },
};

static bool post(struct rc_ctx *ctx, struct ibv_qp *qp, struct ibv_recv_wr *wr,
		 struct ibv_recv_wr **bad)
{
	*bad = NULL;
	RC_OBSERVE(ctx, ctx->ops->ibv_post_recv(qp, wr, bad));
	return ctx->obs->ret == 0;
}

/* a SEND from region 0 of @len bytes, by the implementation (set-up) */
static bool send_from_a(struct rc_ctx *ctx, struct vt *t, uint32_t len)
{
	struct ibv_sge sg = vt_sge(t, 0, 0, len);
	struct ibv_send_wr wr = vt_wr(t, IBV_WR_SEND, 100, &sg, 1), *bad;

	if (!ctx->ops->ibv_post_send(t->a, &wr, &bad))
		return true;
	rc_obs_state(ctx->obs, RC_STATE_BROKEN,
		     "ibv_post_send failed (set-up): %m");
	return false;
}

static void scatter_max(const struct recv_row *row, struct rc_ctx *ctx,
			struct vt *t)
{
	int n = t->bcap.max_recv_sge, i;
	struct ibv_sge sg[MAX_SGE];
	struct ibv_recv_wr wr = { .wr_id = 1, .sg_list = sg }, *bad;
	uint8_t *dst = vt_region(t, 1), gap[64 - SGE_LEN];

	if (n > MAX_SGE || n * 64 > VT_REGION) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "max_recv_sge %d: more "
			     "than the row has room for",
			     n);
		return;
	}
	for (i = 0; i < n; i++)
		sg[i] = vt_sge(t, 1, i * 64, SGE_LEN);
	wr.num_sge = n;
	vt_pattern(t, 0, n * SGE_LEN, 21);
	memset(gap, 0, sizeof(gap));
	if (!post(ctx, t->b, &wr, &bad) || !send_from_a(ctx, t, n * SGE_LEN))
		return;
	if (!vt_one_wc(ctx, t->rcq, "recv",
		       &(struct vt_wc){ .wr_id = 1,
					.opcode = IBV_WC_RECV,
					.byte_len = n * SGE_LEN,
					.qp_num = t->b->qp_num,
					.src_qp = -1,
					.wc_flags = 0 }))
		return;
	for (i = 0; i < n; i++) {
		if (!vt_same(ctx, "piece", dst + i * 64,
			     vt_region(t, 0) + i * SGE_LEN, SGE_LEN))
			return;
		if (i + 1 < n &&
		    !vt_same(ctx, "between pieces", dst + i * 64 + SGE_LEN, gap,
			     sizeof(gap)))
			return;
	}
}

static void sge_one_beyond(const struct recv_row *row, struct rc_ctx *ctx,
			   struct vt *t)
{
	int n = t->bcap.max_recv_sge + 1, i;
	struct ibv_sge sg[MAX_SGE + 1], one = vt_sge(t, 2, 0, VT_REGION);
	struct ibv_recv_wr wr[2] = {
		{ .wr_id = 1, .sg_list = &one, .num_sge = 1, .next = &wr[1] },
		{ .wr_id = 2, .sg_list = sg, .num_sge = n },
	}, *bad;

	if (n > MAX_SGE + 1 || n * 64 > VT_REGION) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "max_recv_sge %d: more "
			     "than the row has room for",
			     n - 1);
		return;
	}
	for (i = 0; i < n; i++)
		sg[i] = vt_sge(t, 1, i * 64, SGE_LEN);
	if (post(ctx, t->b, wr, &bad))
		return;
	if (bad != &wr[1]) {
		rc_obs_violation(ctx->obs, "bad_wr %s, not the WR refused",
				 bad == wr ? "the first WR" :
				 bad	   ? "another WR" :
					     "NULL");
		return;
	}
	if (!send_from_a(ctx, t, 32))
		return;
	vt_one_wc(ctx, t->rcq, "first",
		  &(struct vt_wc){ .wr_id = 1,
				   .opcode = IBV_WC_RECV,
				   .byte_len = 32,
				   .qp_num = t->b->qp_num,
				   .src_qp = -1,
				   .wc_flags = 0 });
}

static void too_short(const struct recv_row *row, struct rc_ctx *ctx,
		      struct vt *t)
{
	struct ibv_sge sg = vt_sge(t, 1, 0, 16);
	struct ibv_recv_wr wr = { .wr_id = 1, .sg_list = &sg, .num_sge = 1 },
			   *bad;

	if (!post(ctx, t->b, &wr, &bad) || !send_from_a(ctx, t, 64))
		return;
	vt_b_failed(ctx, t, 1, IBV_WC_LOC_LEN_ERR);
}

#define FLUSHED 3

static void flush(const struct recv_row *row, struct rc_ctx *ctx, struct vt *t)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_ERR };
	struct ibv_sge sg[FLUSHED];
	struct ibv_recv_wr wr[FLUSHED], *bad;
	struct ibv_wc wc[FLUSHED];

	vt_recv_list(t, wr, sg, FLUSHED, 0, 64, 1);
	if (!post(ctx, t->b, wr, &bad))
		return;
	if (ctx->ops->ibv_modify_qp(t->b, &a, IBV_QP_STATE)) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_modify_qp to ERR failed (set-up): %m");
		return;
	}
	vt_expect_run(ctx, "recv", t->rcq, wc, FLUSHED,
		      &(struct vt_wc){ .wr_id = 1,
				       .status = IBV_WC_WR_FLUSH_ERR,
				       .opcode = -1,
				       .byte_len = -1,
				       .qp_num = t->b->qp_num,
				       .src_qp = -1,
				       .wc_flags = -1 },
		      0);
}

static void on_srq(const struct recv_row *row, struct rc_ctx *ctx, struct vt *t)
{
	struct ibv_sge sg = vt_sge(t, 1, 0, 64);
	struct ibv_recv_wr wr = { .wr_id = 1, .sg_list = &sg, .num_sge = 1 },
			   *bad;

	if (post(ctx, t->b, &wr, &bad))
		return;
	vt_refused_wr(ctx, bad, &wr);
}

#define LEN 256

/* A UD SEND of LEN bytes received into @sg; its completion checked */
static bool ud_round(struct rc_ctx *ctx, struct vt *t, struct ibv_sge *sg,
		     int n)
{
	struct ibv_recv_wr wr = { .wr_id = 1, .sg_list = sg, .num_sge = n },
			   *bad;

	vt_pattern(t, 0, LEN, 23);
	memset(vt_region(t, 1), 0xa5, VT_REGION);
	if (!post(ctx, t->b, &wr, &bad) || !send_from_a(ctx, t, LEN))
		return false;
	return vt_one_wc(ctx, t->rcq, "recv",
			 &(struct vt_wc){ .wr_id = 1,
					  .opcode = IBV_WC_RECV,
					  .byte_len = GRH + LEN,
					  .qp_num = t->b->qp_num,
					  .src_qp = t->a->qp_num,
					  .wc_flags = IBV_WC_GRH,
					  .ud = true });
}

static void grh_first(const struct recv_row *row, struct rc_ctx *ctx,
		      struct vt *t)
{
	struct ibv_sge sg = vt_sge(t, 1, 0, GRH + LEN);
	const struct ibv_grh *g = (const void *)vt_region(t, 1);

	if (!ud_round(ctx, t, &sg, 1))
		return;
	if (be32toh(g->version_tclass_flow) >> 28 != 6)
		rc_obs_violation(ctx->obs, "grh.version %u, not 6",
				 be32toh(g->version_tclass_flow) >> 28);
	else if (!vt_same(ctx, "grh.sgid", g->sgid.raw, t->gid_a.raw, 16) ||
		 !vt_same(ctx, "grh.dgid", g->dgid.raw, t->gid_b.raw, 16))
		return;
	else
		vt_same(ctx, "data", vt_region(t, 1) + GRH, vt_region(t, 0),
			LEN);
}

static void grh_own_sge(const struct recv_row *row, struct rc_ctx *ctx,
			struct vt *t)
{
	struct ibv_sge sg[2] = { vt_sge(t, 1, 0, GRH),
				 vt_sge(t, 1, 1024, LEN) };

	if (t->bcap.max_recv_sge < 2) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "max_recv_sge %u: no room for two SGEs",
			     t->bcap.max_recv_sge);
		return;
	}
	if (ud_round(ctx, t, sg, 2))
		vt_same(ctx, "data", vt_region(t, 1) + 1024, vt_region(t, 0),
			LEN);
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct recv_row *row = r;
	struct vt_opts o = { .type = row->type,
			     .srq = row->srq,
			     .peer = row->peer };
	struct vt t;

	if (vt_up(ctx, &t, &o))
		row->check(row, ctx, &t);
	vt_down(ctx, &t);
}

RC_TABLE_GROUP(group, "ibv_post_recv", RC_CONV_ERRNO_RET, "verbs", rows, run);
