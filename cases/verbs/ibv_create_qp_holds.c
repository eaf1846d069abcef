// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_create_qp(3)'s caps where they take effect: "The function
 * ibv_create_qp() will update the qp_init_attr->cap struct with the actual
 * QP values of the QP that was created".  The QPs are the traffic rung's
 * (verbs_traffic.h), both asked for caps of distinct values that no
 * provider here grants exactly (5 and 7 WRs, 2 and 3 SGEs, 9 bytes
 * inline); a's ibv_create_qp is the call observed.
 * - create_qp/rc-caps-are-the-qps: the caps given back for each QP are
 *   those ibv_query_qp(3) reads of it (IBV_QP_CAP), field by field
 * - create_qp/rc-queues-hold-the-caps: a's send queue takes max_send_wr
 *   RDMA Writes in one list, each of 16 distinct bytes, which complete in
 *   order and land; b's receive queue takes max_recv_wr receives in one
 *   list, which as many SENDs complete in order, their bytes in place
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verbs_traffic.h"

#define DOC_CAP                                                             \
	"The function ibv_create_qp() will update the qp_init_attr->cap "   \
	"struct with the actual QP values of the QP that was created; the " \
	"values will be greater than or equal to the values requested."

/* each WR's bytes: 16, at 16 * its index in its region */
#define STEP 16
#define MAX_WR (VT_REGION / STEP)

struct hold_row;
typedef void hold_check(const struct hold_row *row, struct rc_ctx *ctx,
			struct vt *t);

struct hold_row {
	struct rc_case c;
	hold_check *check;
};

static hold_check caps_are_the_qps, queues_hold_the_caps;

static const struct hold_row rows[] = {
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

static const struct ibv_qp_cap asked = { .max_send_wr = 5,
					 .max_recv_wr = 7,
					 .max_send_sge = 2,
					 .max_recv_sge = 3,
					 .max_inline_data = 9 };

/* Every field of @given that differs from what ibv_query_qp reads of @qp,
 * in one violation */
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
	char diff[256] = "";
	size_t len = 0;
	unsigned int i;

	memset(&attr, 0, sizeof(attr));
	if (ctx->ops->ibv_query_qp(qp, &attr, IBV_QP_CAP, &init)) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_query_qp (%s) failed: %m", who);
		return;
	}
	for (i = 0; i < ARRAY_SIZE(fields); i++) {
		uint32_t g, q;

		memcpy(&g, (const char *)given + fields[i].off, sizeof(g));
		memcpy(&q, (const char *)&attr.cap + fields[i].off, sizeof(q));
		if (g != q && len < sizeof(diff))
			len += snprintf(diff + len, sizeof(diff) - len,
					"%s%s %u, not %u", len ? "; " : "",
					fields[i].name, g, q);
	}
	if (len)
		rc_obs_violation(ctx->obs,
				 "%s.cap given back, against ibv_query_qp's: "
				 "%s",
				 who, diff);
}

static void caps_are_the_qps(const struct hold_row *row, struct rc_ctx *ctx,
			     struct vt *t)
{
	same_caps(ctx, "a", t->a, &t->cap);
	same_caps(ctx, "b", t->b, &t->bcap);
}

/* a's send queue full: max_send_wr RDMA Writes of STEP bytes in one list */
static bool send_queue_holds(struct rc_ctx *ctx, struct vt *t,
			     struct ibv_send_wr *wr, struct ibv_sge *sg)
{
	uint32_t i, n = t->cap.max_send_wr;
	struct ibv_send_wr *bad;
	struct ibv_wc *wc = calloc(n, sizeof(*wc));
	bool ok = false;

	vt_pattern(t, 0, n * STEP, 13);
	for (i = 0; i < n; i++) {
		sg[i] = vt_sge(t, 0, i * STEP, STEP);
		wr[i] = vt_remote_wr(t, IBV_WR_RDMA_WRITE, &sg[i]);
		wr[i].wr_id = 200 + i;
		wr[i].wr.rdma.remote_addr = vt_addr(t, 2, i * STEP);
		wr[i].next = i + 1 < n ? &wr[i + 1] : NULL;
	}
	if (!wc || ctx->ops->ibv_post_send(t->a, wr, &bad)) {
		rc_obs_violation(ctx->obs,
				 "a list of max_send_wr (%u) RDMA Writes was "
				 "refused: %m",
				 n);
		goto out;
	}
	ok = vt_expect_run(ctx, "write", t->scq, wc, (int)n,
			   &(struct vt_wc){ .wr_id = 200,
					    .opcode = IBV_WC_RDMA_WRITE,
					    .byte_len = -1,
					    .qp_num = t->a->qp_num,
					    .src_qp = -1,
					    .wc_flags = -1 },
			   0) &&
	     vt_lands(ctx, t, "the writes", vt_region(t, 2), vt_region(t, 0),
		      n * STEP);
out:
	free(wc);
	return ok;
}

/* b's receive queue full: max_recv_wr receives in one list, then as many
 * SENDs from a, at most max_send_wr outstanding */
static void recv_queue_holds(struct rc_ctx *ctx, struct vt *t,
			     struct ibv_recv_wr *wr, struct ibv_sge *sg)
{
	uint32_t i, n = t->bcap.max_recv_wr;
	struct ibv_recv_wr *bad;
	struct ibv_wc wc;

	vt_pattern(t, 3, n * STEP, 29);
	for (i = 0; i < n; i++) {
		sg[i] = vt_sge(t, 1, i * STEP, STEP);
		wr[i] = (struct ibv_recv_wr){ .wr_id = 300 + i,
					      .sg_list = &sg[i],
					      .num_sge = 1,
					      .next = i + 1 < n ? &wr[i + 1] :
								  NULL };
	}
	if (ctx->ops->ibv_post_recv(t->b, wr, &bad)) {
		rc_obs_violation(ctx->obs,
				 "a list of max_recv_wr (%u) receives was "
				 "refused: %m",
				 n);
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
		    n * STEP) &&
	    !vt_quiet(ctx, t->rcq, &wc))
		rc_obs_violation(ctx->obs,
				 "recv: a completion beyond the %u posted "
				 "(wr_id %llu)",
				 n, (unsigned long long)wc.wr_id);
}

static void queues_hold_the_caps(const struct hold_row *row,
				 struct rc_ctx *ctx, struct vt *t)
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

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct hold_row *row = r;
	struct vt_opts o = { .cap = asked, .observe_create = true };
	struct vt t;

	if (vt_up(ctx, &t, &o))
		row->check(row, ctx, &t);
	vt_down(ctx, &t);
}

RC_TABLE_GROUP(group, "ibv_create_qp", RC_CONV_NULL_ERRNO, "verbs", rows, run);
