// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_post_srq_recv(3): "posts the linked list of work requests (WRs)
 * starting with wr to the shared receive queue (SRQ) srq"; it "stops
 * processing WRs from this list at the first failure ... and returns
 * this failing WR through bad_wr"; "returns 0 on success, or the value of
 * errno on failure".
 *
 * b receives through an SRQ (verbs_traffic.h), a sends to it.
 * - rc-send-arrives: the bytes land in the SRQ's receive, whose
 *   completion names b (qp_num) and the WR
 * - rc-two-receives-in-order: two SENDs take the SRQ's receives in
 *   posting order
 * - rc-sge-one-beyond: the SRQ's granted max_sge + 1 fails, bad_wr that
 *   WR, the one before it posted
 */
#include <errno.h>
#include <string.h>

#include "verbs_traffic.h"

#define DOC_POST                                                             \
	"ibv_post_srq_recv() posts the linked list of work "                 \
	"requests (WRs) starting with wr to the shared receive queue (SRQ) " \
	"srq."
#define DOC_STOP                                                              \
	"It stops processing WRs from this list at the first "                \
	"failure (that can be detected immediately while requests are being " \
	"posted), and returns this failing WR through bad_wr."

#define LEN 256
#define MAX_SGE 64

struct srq_row;
typedef void srq_check(const struct srq_row *row, struct rc_ctx *ctx,
		       struct vt *t);

struct srq_row {
	struct rc_case c;
	srq_check *check;
};

static srq_check send_arrives, two_in_order, sge_one_beyond;

static const struct srq_row rows[] = {
	{ .c = { .id = "verbs/post_srq_recv/rc-send-arrives",
		 .doc = DOC_POST,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a SEND of 256 distinct bytes to a QP on the SRQ lands "
			 "in the SRQ's receive; its completion has that WR's "
			 "wr_id and the QP's qp_num",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(0) } },
	  .check = send_arrives },
	{ .c = { .id = "verbs/post_srq_recv/rc-two-receives-in-order",
		 .doc = DOC_POST,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "two receives in one list, two SENDs: the first "
			 "message takes the first receive (IBA 10.2.9.5: an SRQ "
			 "is worked in order)",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(0) } },
	  .check = two_in_order },
	{ .c = { .id = "verbs/post_srq_recv/rc-sge-one-beyond",
		 .doc = DOC_STOP,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a valid receive, then one of the SRQ's max_sge + 1 "
			 "SGEs: an errno value, bad_wr the second; a message "
			 "then lands in the first",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_FAILS() } },
	  .check = sge_one_beyond },
};

static bool post(struct rc_ctx *ctx, struct vt *t, struct ibv_recv_wr *wr,
		 struct ibv_recv_wr **bad)
{
	*bad = NULL;
	RC_OBSERVE(ctx, ctx->ops->ibv_post_srq_recv(t->srq, wr, bad));
	return ctx->obs->ret == 0;
}

static bool send_from_a(struct rc_ctx *ctx, struct vt *t, uint64_t id,
			size_t off, uint32_t len)
{
	struct ibv_sge sg = vt_sge(t, 0, off, len);
	struct ibv_send_wr wr = vt_wr(t, IBV_WR_SEND, id, &sg, 1), *bad;

	if (!ctx->ops->ibv_post_send(t->a, &wr, &bad))
		return true;
	rc_obs_state(ctx->obs, RC_STATE_BROKEN,
		     "ibv_post_send failed (set-up): %m");
	return false;
}

static void send_arrives(const struct srq_row *row, struct rc_ctx *ctx,
			 struct vt *t)
{
	struct ibv_sge sg = vt_sge(t, 1, 0, VT_REGION);
	struct ibv_recv_wr wr = { .wr_id = 7, .sg_list = &sg, .num_sge = 1 },
			   *bad;

	vt_pattern(t, 0, LEN, 29);
	if (!post(ctx, t, &wr, &bad) || !send_from_a(ctx, t, 1, 0, LEN))
		return;
	if (vt_one_wc(ctx, t->rcq, "recv",
		      &(struct vt_wc){ .wr_id = 7,
				       .opcode = IBV_WC_RECV,
				       .byte_len = LEN,
				       .qp_num = t->b->qp_num,
				       .src_qp = -1,
				       .wc_flags = 0 }))
		vt_same(ctx, "received", vt_region(t, 1), vt_region(t, 0), LEN);
}

static void two_in_order(const struct srq_row *row, struct rc_ctx *ctx,
			 struct vt *t)
{
	struct ibv_sge sg[2] = { vt_sge(t, 1, 0, 1024),
				 vt_sge(t, 1, 1024, 1024) };
	struct ibv_recv_wr wr[2] = {
		{ .wr_id = 7, .sg_list = &sg[0], .num_sge = 1, .next = &wr[1] },
		{ .wr_id = 8, .sg_list = &sg[1], .num_sge = 1 },
	}, *bad;

	vt_pattern(t, 0, 2 * LEN, 31);
	if (!post(ctx, t, wr, &bad) || !send_from_a(ctx, t, 1, 0, LEN) ||
	    !vt_one_wc(ctx, t->rcq, "first",
		       &(struct vt_wc){ .wr_id = 7,
					.opcode = IBV_WC_RECV,
					.byte_len = LEN,
					.qp_num = t->b->qp_num,
					.src_qp = -1,
					.wc_flags = 0 }) ||
	    !send_from_a(ctx, t, 2, LEN, LEN - 1) ||
	    !vt_one_wc(ctx, t->rcq, "second",
		       &(struct vt_wc){ .wr_id = 8,
					.opcode = IBV_WC_RECV,
					.byte_len = LEN - 1,
					.qp_num = t->b->qp_num,
					.src_qp = -1,
					.wc_flags = 0 }))
		return;
	if (vt_same(ctx, "first", vt_region(t, 1), vt_region(t, 0), LEN))
		vt_same(ctx, "second", vt_region(t, 1) + 1024,
			vt_region(t, 0) + LEN, LEN - 1);
}

static void sge_one_beyond(const struct srq_row *row, struct rc_ctx *ctx,
			   struct vt *t)
{
	int n = t->srq_max_sge + 1, i;
	struct ibv_sge sg[MAX_SGE + 1], one = vt_sge(t, 2, 0, VT_REGION);
	struct ibv_recv_wr wr[2] = {
		{ .wr_id = 1, .sg_list = &one, .num_sge = 1, .next = &wr[1] },
		{ .wr_id = 2, .sg_list = sg, .num_sge = n },
	}, *bad;

	if (n > MAX_SGE + 1 || n * 64 > VT_REGION) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "max_sge %d: more than "
			     "the row has room for",
			     n - 1);
		return;
	}
	for (i = 0; i < n; i++)
		sg[i] = vt_sge(t, 1, i * 64, 16);
	if (post(ctx, t, wr, &bad))
		return;
	if (bad != &wr[1]) {
		rc_obs_violation(ctx->obs, "bad_wr %s, not the WR refused",
				 bad == wr ? "the first WR" :
				 bad	   ? "another WR" :
					     "NULL");
		return;
	}
	if (send_from_a(ctx, t, 1, 0, 32))
		vt_one_wc(ctx, t->rcq, "first",
			  &(struct vt_wc){ .wr_id = 1,
					   .opcode = IBV_WC_RECV,
					   .byte_len = 32,
					   .qp_num = t->b->qp_num,
					   .src_qp = -1,
					   .wc_flags = 0 });
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct srq_row *row = r;
	struct vt_opts o = { .srq = true };
	struct vt t;

	if (vt_up(ctx, &t, &o))
		row->check(row, ctx, &t);
	vt_down(ctx, &t);
}

RC_TABLE_GROUP(group, "ibv_post_srq_recv", RC_CONV_ERRNO_RET, "verbs", rows,
	       run);
