// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_query_srq(3): "gets the attributes of the SRQ srq and returns them
 * through the pointer srq_attr"; "returns 0 on success, or the value of
 * errno on failure".  NOTES: "If the value returned for srq_limit is 0,
 * then the SRQ limit reached ("low watermark") event is not (or no
 * longer) armed, and no asynchronous events will be generated until the
 * event is rearmed."
 *
 * - fresh: the ladder's SRQ (8 WRs of 1 SGE, srq_limit 0): max_wr >= 8,
 *   max_sge >= 1, srq_limit 0
 * - armed-limit: after IBV_SRQ_LIMIT 6: srq_limit 6
 * - command-file-gone: the context's command file severed: an errno value
 * - disarmed-after-event: on the traffic rung, armed and then below its
 *   limit, the event taken: srq_limit 0, and one more SEND gives no
 *   second event
 */
#include <errno.h>
#include <string.h>

#include "verbs_ctl.h"
#include "verbs_srq.h"

#define DOC_GETS                                                          \
	"ibv_query_srq() gets the attributes of the SRQ srq and returns " \
	"them through the pointer srq_attr."
#define DOC_ZERO                                                           \
	"If the value returned for srq_limit is 0, then the SRQ limit "    \
	"reached (\"low watermark\") event is not (or no longer) armed, "  \
	"and no asynchronous events will be generated until the event is " \
	"rearmed."

#define DOC_RET                                                        \
	"ibv_query_srq() returns 0 on success, or the value of errno " \
	"on failure (which indicates the failure reason)."

struct qs_row;
typedef void qs_check(const struct qs_row *row, struct rc_ctx *ctx,
		      struct vl *l, struct vt *t);

struct qs_row {
	struct rc_case c;
	qs_check *check;
	bool traffic;
};

static qs_check fresh, armed_limit, disarmed_after_event, severed;

static const struct qs_row rows[] = {
	{ .c = { .id = "verbs/query_srq/fresh",
		 .doc = DOC_GETS,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "an SRQ made with 8 WRs of 1 SGE and srq_limit 0: "
			 "max_wr >= 8, max_sge >= 1 (ibv_create_srq(3): at "
			 "least what was asked), srq_limit 0",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = fresh },
	{ .c = { .id = "verbs/query_srq/armed-limit",
		 .doc = DOC_GETS,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "after ibv_modify_srq IBV_SRQ_LIMIT 6: srq_limit 6",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = armed_limit },
	{ .c = { .id = "verbs/query_srq/disarmed-after-event",
		 .doc = DOC_ZERO,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the limit event, once raised, disarms the limit (IBA "
			 "11.5.2.4: the SRQ limit is reset): srq_limit reads "
			 "0, and one more SEND below the old limit raises no "
			 "second event",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(0) } },
	  .check = disarmed_after_event,
	  .traffic = true },
	{ .c = { .id = "verbs/query_srq/command-file-gone",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the context's command file replaced by an O_PATH "
			 "descriptor (verbs_ctl.h): the query cannot reach the "
			 "kernel, an errno value",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = severed },
};

static int query(struct rc_ctx *ctx, struct ibv_srq *srq,
		 struct ibv_srq_attr *q)
{
	int ret;

	memset(q, 0, sizeof(*q));
	RC_OBSERVE(ctx, ret = ctx->ops->ibv_query_srq(srq, q));
	return ret;
}

static void fresh(const struct qs_row *row, struct rc_ctx *ctx, struct vl *l,
		  struct vt *t)
{
	struct ibv_srq_attr q;

	if (query(ctx, l->srq, &q))
		return;
	if (q.max_wr < VL_WR || q.max_sge < VL_SGE)
		rc_obs_violation(ctx->obs,
				 "max_wr %u, max_sge %u; asked %d, %d",
				 q.max_wr, q.max_sge, VL_WR, VL_SGE);
	else if (q.srq_limit)
		rc_obs_violation(ctx->obs, "srq_limit %u, made with 0",
				 q.srq_limit);
}

static void armed_limit(const struct qs_row *row, struct rc_ctx *ctx,
			struct vl *l, struct vt *t)
{
	struct ibv_srq_attr a = { .srq_limit = 6 }, q;
	int err;

	err = ctx->ops->ibv_modify_srq(l->srq, &a, IBV_SRQ_LIMIT);
	if (err) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_modify_srq failed (set-up): %s",
			     rc_errno_name(err));
		return;
	}
	if (!query(ctx, l->srq, &q) && q.srq_limit != 6)
		rc_obs_violation(ctx->obs, "srq_limit %u, armed at 6",
				 q.srq_limit);
}

static void disarmed_after_event(const struct qs_row *row, struct rc_ctx *ctx,
				 struct vl *l, struct vt *t)
{
	struct ibv_async_event ev;
	struct ibv_srq_attr q;
	int got;

	if (!vs_below_limit(ctx, t))
		return;
	got = vs_event_of(ctx, vs_ctx_of(t, IBV_EVENT_SRQ_LIMIT_REACHED),
			  IBV_EVENT_SRQ_LIMIT_REACHED, VS_EVENT_MS, &ev, NULL);
	if (got <= 0) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "no IBV_EVENT_SRQ_LIMIT_REACHED (set-up)");
		return;
	}
	ctx->ops->ibv_ack_async_event(&ev);
	if (query(ctx, t->srq, &q))
		return;
	if (q.srq_limit) {
		rc_obs_violation(ctx->obs,
				 "srq_limit %u after the event, not 0",
				 q.srq_limit);
		return;
	}
	if (vs_consume(ctx, t, 1) &&
	    vs_event_ready(ctx, vs_ctx_of(t, IBV_EVENT_SRQ_LIMIT_REACHED),
			   VT_QUIET_MS))
		rc_obs_violation(ctx->obs,
				 "event: a second one while srq_limit reads 0");
}

static void severed(const struct qs_row *row, struct rc_ctx *ctx, struct vl *l,
		    struct vt *t)
{
	struct ibv_srq_attr q;

	if (vc_sever(ctx, l))
		query(ctx, l->srq, &q);
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct qs_row *row = r;
	struct vs_env e;

	if (!rc_need_call(ctx, (const void *)ctx->ops->ibv_query_srq,
			  "ibv_query_srq") ||
	    !rc_need_call(ctx, (const void *)ctx->ops->ibv_modify_srq,
			  "ibv_modify_srq"))
		return;
	if (vs_up(ctx, &e, row->traffic, VL_SRQ))
		row->check(row, ctx, vs_ladder(&e), vs_pair(&e));
	vs_down(ctx, &e);
}

RC_TABLE_GROUP(group, "ibv_query_srq", RC_CONV_ERRNO_RET, "verbs", rows, run);
