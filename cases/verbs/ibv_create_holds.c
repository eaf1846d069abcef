// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * What a create gives, where it takes effect.  The QPs and CQs are the
 * traffic rung's (verbs_traffic.h).
 *
 * ibv_create_qp(3): "The function ibv_create_qp() will update the
 * qp_init_attr->cap struct with the actual QP values of the QP that was
 * created".  Both QPs asked for caps of distinct values that no provider
 * here grants exactly (5 and 7 WRs, 2 and 3 SGEs, 9 bytes inline); a's
 * ibv_create_qp is the call observed.
 * - create_qp/rc-caps-are-the-qps: the caps given back for each QP are
 *   those ibv_query_qp(3) reads of it (IBV_QP_CAP), field by field
 * - create_qp/rc-queues-hold-the-caps: a's send queue takes max_send_wr
 *   RDMA Writes in one list, each of 16 distinct bytes, which complete in
 *   order and land; b's receive queue takes max_recv_wr receives in one
 *   list, which as many SENDs complete in order, their bytes in place
 *
 * ibv_create_cq(3): "creates a completion queue (CQ) with at least cqe
 * entries".  a's send CQ is the call observed, asked for CQE entries.
 * - create_cq/holds-cqe-completions: CQE RDMA Writes in one list, none
 *   polled until the last has landed and a quiet period passed: then all
 *   CQE completions are there, in order (a CQ of cqe entries holds cqe
 *   completions at once; siw's array of 128 is two pages with its control
 *   block)
 *
 * ibv_create_srq(3): "The function ibv_create_srq() will update the
 * srq_init_attr struct with the original values of the SRQ that was
 * created".  b receives through an SRQ asked for 37 WRs, the call
 * observed.
 * - create_srq/holds-max-wr-receives: the max_wr given back of receives
 *   in one list, each taking one of as many SENDs, in order
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verbs_traffic.h"

#define DOC_CQE                                                          \
	"ibv_create_cq() creates a completion queue (CQ) with at least " \
	"cqe entries for the RDMA device context context."
#define DOC_SRQ                                                           \
	"The function ibv_create_srq() will update the srq_init_attr "    \
	"struct with the original values of the SRQ that was created; "   \
	"the values of max_wr and max_sge will be greater than or equal " \
	"to the values requested."
#define DOC_CAP                                                             \
	"The function ibv_create_qp() will update the qp_init_attr->cap "   \
	"struct with the actual QP values of the QP that was created; the " \
	"values will be greater than or equal to the values requested."

/* each WR's bytes: 16, at 16 * its index in its region */
#define STEP 16
#define MAX_WR (VT_REGION / STEP)
/* the CQ's entries: 128 CQEs of siw's 32 bytes fill a page */
#define CQE 128

struct hold_row;
typedef void hold_check(const struct hold_row *row, struct rc_ctx *ctx,
			struct vt *t);

struct hold_row {
	struct rc_case c;
	hold_check *check;
	bool cq; /* the call under test is a's send CQ's ibv_create_cq */
	bool srq; /* the call under test is b's SRQ's ibv_create_srq */
};

static hold_check caps_are_the_qps, queues_hold_the_caps, holds_cqe,
	holds_max_wr;

static const struct hold_row qp_rows[] = {
	{ .c = { .id = "verbs/create_qp/rc-caps-are-the-qps",
		 .doc = DOC_CAP,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "RC QPs asked for 5/7 WRs, 2/3 SGEs, 9 bytes inline: "
			 "the caps given back for each are what "
			 "ibv_query_qp(IBV_QP_CAP) reads of it, field by field",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_SUCCEEDS } },
	  .check = caps_are_the_qps },
	{ .c = { .id = "verbs/create_qp/rc-queues-hold-the-caps",
		 .doc = DOC_CAP,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "RC QPs asked for 5/7 WRs: max_send_wr RDMA Writes "
			 "in one list complete in order and land; max_recv_wr "
			 "receives in one list take as many SENDs, in order, "
			 "each WR's 16 distinct bytes in place",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_SUCCEEDS } },
	  .check = queues_hold_the_caps },
};

static const struct hold_row cq_rows[] = {
	{ .c = { .id = "verbs/create_cq/holds-cqe-completions",
		 .doc = DOC_CQE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a's send CQ asked for 128 entries: 128 signaled "
			 "RDMA Writes in one list, none polled until the last "
			 "has landed and 100 ms passed; then 128 completions, "
			 "in order",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_SUCCEEDS } },
	  .check = holds_cqe,
	  .cq = true },
};

static const struct hold_row srq_rows[] = {
	{ .c = { .id = "verbs/create_srq/holds-max-wr-receives",
		 .doc = DOC_SRQ,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "b's SRQ asked for 37 WRs: the max_wr given back of "
			 "receives of 16 bytes in one list (ibv_post_srq_recv), "
			 "each completed by one of as many SENDs, in order, "
			 "its bytes in place",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_SUCCEEDS } },
	  .check = holds_max_wr,
	  .srq = true },
};

static const struct ibv_qp_cap asked = { .max_send_wr = 5,
					 .max_recv_wr = 7,
					 .max_send_sge = 2,
					 .max_recv_sge = 3,
					 .max_inline_data = 9 };

/* Every field of @given that differs from what ibv_query_qp reads of @qp,
 * in one violation whose first word names them all
 * ("a.cap:max_send_wr,max_inline_data"), the word a profile pins */
static void same_caps(struct rc_ctx *ctx, const char *who, struct ibv_qp *qp,
		      const struct ibv_qp_cap *given)
{
	struct ibv_qp_attr attr;
	struct ibv_qp_init_attr init;
	static const struct {
		const char *name;
		size_t off;
	} fields[] = {
#define F(f) { #f, offsetof(struct ibv_qp_cap, f) }
		F(max_send_wr),	 F(max_recv_wr),     F(max_send_sge),
		F(max_recv_sge), F(max_inline_data),
#undef F
	};
	char names[128] = "", gave[64] = "", reads[64] = "";
	size_t n = 0, g = 0, r = 0;
	unsigned int i;

	memset(&attr, 0, sizeof(attr));
	if (ctx->ops->ibv_query_qp(qp, &attr, IBV_QP_CAP, &init)) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_query_qp (%s) failed: %m", who);
		return;
	}
	for (i = 0; i < ARRAY_SIZE(fields); i++) {
		uint32_t gv, qv;

		memcpy(&gv, (const char *)given + fields[i].off, sizeof(gv));
		memcpy(&qv, (const char *)&attr.cap + fields[i].off,
		       sizeof(qv));
		if (gv == qv)
			continue;
		n += snprintf(names + n, sizeof(names) - n, "%s%s",
			      n ? "," : "", fields[i].name);
		g += snprintf(gave + g, sizeof(gave) - g, "%s%u", g ? "/" : "",
			      gv);
		r += snprintf(reads + r, sizeof(reads) - r, "%s%u",
			      r ? "/" : "", qv);
	}
	if (n)
		rc_obs_violation(ctx->obs,
				 "%s.cap:%s given back as %s where "
				 "ibv_query_qp reads %s",
				 who, names, gave, reads);
}

static void caps_are_the_qps(const struct hold_row *row, struct rc_ctx *ctx,
			     struct vt *t)
{
	same_caps(ctx, "a", t->a, &t->cap);
	same_caps(ctx, "b", t->b, &t->bcap);
}

/* @n RDMA Writes of STEP bytes from a's region 0 to b's region 2, each
 * signaled, in one list (set-up: a violation when refused) */
static bool post_writes(struct rc_ctx *ctx, struct vt *t, uint32_t n,
			struct ibv_send_wr *wr, struct ibv_sge *sg)
{
	struct ibv_send_wr *bad;
	uint32_t i;
	int err;

	vt_pattern(t, 0, n * STEP, 13);
	for (i = 0; i < n; i++) {
		sg[i] = vt_sge(t, 0, i * STEP, STEP);
		wr[i] = vt_remote_wr(t, IBV_WR_RDMA_WRITE, &sg[i]);
		wr[i].wr_id = 200 + i;
		wr[i].wr.rdma.remote_addr = vt_addr(t, 2, i * STEP);
		wr[i].next = i + 1 < n ? &wr[i + 1] : NULL;
	}
	err = ctx->ops->ibv_post_send(t->a, wr, &bad);
	if (!err)
		return true;
	rc_obs_violation(ctx->obs, "a list of %u RDMA Writes was refused: %s",
			 n, strerror(err));
	return false;
}

/* The @n writes' completions on a's send CQ, in order, and their bytes */
static bool writes_completed(struct rc_ctx *ctx, struct vt *t, uint32_t n)
{
	struct ibv_wc *wc = calloc(n, sizeof(*wc));
	bool ok = wc &&
		  vt_expect_run(ctx, "write", t->scq, wc, (int)n,
				&(struct vt_wc){ .wr_id = 200,
						 .opcode = IBV_WC_RDMA_WRITE,
						 .byte_len = -1,
						 .qp_num = t->a->qp_num,
						 .src_qp = -1,
						 .wc_flags = -1 },
				0) &&
		  vt_lands(ctx, t, "the writes", vt_region(t, 2),
			   vt_region(t, 0), n * STEP);

	free(wc);
	return ok;
}

/* a's send queue full: max_send_wr RDMA Writes in one list */
static bool send_queue_holds(struct rc_ctx *ctx, struct vt *t,
			     struct ibv_send_wr *wr, struct ibv_sge *sg)
{
	return post_writes(ctx, t, t->cap.max_send_wr, wr, sg) &&
	       writes_completed(ctx, t, t->cap.max_send_wr);
}

/* b's receive queue, or its SRQ, full: as many receives as it was given
 * in one list, then as many SENDs from a, one at a time */
static void recv_queue_holds(struct rc_ctx *ctx, struct vt *t,
			     struct ibv_recv_wr *wr, struct ibv_sge *sg)
{
	uint32_t i, n = t->srq ? t->srq_max_wr : t->bcap.max_recv_wr;
	struct ibv_recv_wr *bad;
	int err;

	vt_pattern(t, 3, n * STEP, 29);
	vt_recv_list(t, wr, sg, (int)n, 0, STEP, 300);
	err = t->srq ? ctx->ops->ibv_post_srq_recv(t->srq, wr, &bad) :
		       ctx->ops->ibv_post_recv(t->b, wr, &bad);
	if (err) {
		rc_obs_violation(ctx->obs,
				 "a list of the %u receives it was given was "
				 "refused: %s",
				 n, strerror(err));
		return;
	}
	for (i = 0; i < n; i++) {
		struct ibv_sge one = vt_sge(t, 3, i * STEP, STEP);
		struct ibv_send_wr s = vt_wr(t, IBV_WR_SEND, 1, &one, 1), *sbad;

		if (ctx->ops->ibv_post_send(t->a, &s, &sbad)) {
			rc_obs_state(ctx->obs, RC_STATE_BROKEN,
				     "ibv_post_send failed (set-up): %m");
			return;
		}
		if (!vt_a_completed(ctx, t, 1, IBV_WC_SEND) ||
		    !vt_b_received(ctx, t, 300 + i, STEP))
			return;
	}
	if (vt_same(ctx, "the receives", vt_region(t, 1), vt_region(t, 3),
		    n * STEP))
		vt_nothing_beyond(ctx, t->rcq, "recv", n);
}

static void queues_hold_the_caps(const struct hold_row *row, struct rc_ctx *ctx,
				 struct vt *t)
{
	uint32_t n = t->cap.max_send_wr > t->bcap.max_recv_wr ?
			     t->cap.max_send_wr :
			     t->bcap.max_recv_wr;
	struct ibv_send_wr *swr = calloc(n, sizeof(*swr));
	struct ibv_recv_wr *rwr = calloc(n, sizeof(*rwr));
	struct ibv_sge *sg = calloc(n, sizeof(*sg));

	if (!swr || !rwr || !sg || n > MAX_WR)
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "%u WRs: more than the row has room for, or no "
			     "memory",
			     n);
	else if (send_queue_holds(ctx, t, swr, sg))
		recv_queue_holds(ctx, t, rwr, sg);
	free(swr);
	free(rwr);
	free(sg);
}

static void holds_cqe(const struct hold_row *row, struct rc_ctx *ctx,
		      struct vt *t)
{
	struct ibv_send_wr *wr = calloc(CQE, sizeof(*wr));
	struct ibv_sge *sg = calloc(CQE, sizeof(*sg));

	if (!wr || !sg || t->cap.max_send_wr < CQE) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "a send queue of %u WRs, or no memory",
			     t->cap.max_send_wr);
		goto out;
	}
	if (!post_writes(ctx, t, CQE, wr, sg))
		goto out;
	/* the last write landed (RC: after all the others), then the acks
	 * had time to complete every write; nothing polled before */
	rc_wait_same(ctx, vt_region(t, 2) + (CQE - 1) * STEP,
		     vt_region(t, 0) + (CQE - 1) * STEP, STEP, VT_WAIT_MS);
	vt_sleep(ctx, VT_QUIET_MS);
	writes_completed(ctx, t, CQE);
out:
	free(wr);
	free(sg);
}

static void holds_max_wr(const struct hold_row *row, struct rc_ctx *ctx,
			 struct vt *t)
{
	struct ibv_recv_wr *wr = calloc(t->srq_max_wr, sizeof(*wr));
	struct ibv_sge *sg = calloc(t->srq_max_wr, sizeof(*sg));

	if (!wr || !sg || t->srq_max_wr > MAX_WR)
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "max_wr %u: more than the row has room for, or no "
			     "memory",
			     t->srq_max_wr);
	else
		recv_queue_holds(ctx, t, wr, sg);
	free(wr);
	free(sg);
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct hold_row *row = r;
	struct vt_opts o = { .cap = asked,
			     .observe_create = !row->cq && !row->srq,
			     .observe_send_cq = row->cq,
			     .send_cqe = row->cq ? CQE : 0,
			     .srq = row->srq,
			     .observe_srq = row->srq,
			     .srq_wr = row->srq ? 37 : 0 };
	struct vt t;

	/* the send queue takes one write for each entry of the CQ */
	if (row->cq)
		o.cap.max_send_wr = CQE;

	if (vt_up(ctx, &t, &o))
		row->check(row, ctx, &t);
	vt_down(ctx, &t);
}

RC_TABLE_GROUP(qp_group, "ibv_create_qp", RC_CONV_NULL_ERRNO, "verbs", qp_rows,
	       run);
RC_TABLE_GROUP(cq_group, "ibv_create_cq", RC_CONV_NULL_ERRNO, "verbs", cq_rows,
	       run);
RC_TABLE_GROUP(srq_group, "ibv_create_srq", RC_CONV_NULL_ERRNO, "verbs",
	       srq_rows, run);
