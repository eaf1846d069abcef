// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_destroy_srq(3) (ibv_create_srq(3)'s page): "destroys the SRQ srq";
 * "returns 0 on success, or the value of errno on failure".  NOTES:
 * "ibv_destroy_srq() fails if any queue pair is still associated with
 * this SRQ."  ibv_get_async_event(3), NOTES: "destroying an object (CQ,
 * SRQ or QP) will wait for all affiliated events for the object to be
 * acknowledged".
 *
 * - destroys: the ladder's SRQ, no QP on it: 0
 * - qp-associated-fails: a QP made on the SRQ: an errno value; once the
 *   QP is gone, the SRQ is destroyed (0)
 * - qp-associated-ebusy: the same, EBUSY, the kernel's answer for an
 *   object still in use (Linux's ABI)
 * - queue-unmapped: an SRQ made and destroyed: the mappings of the
 *   uverbs device in /proc/self/maps are the ones before it was made
 *   (interpretation: what was made for the SRQ goes with it)
 * - waits-for-ack: on the traffic rung, an SRQ limit event got and not
 *   acknowledged: ibv_destroy_srq (in a thread) has not returned after
 *   VT_QUIET_MS; once the event is acknowledged it returns 0
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "verbs_ctl.h"
#include "verbs_srq.h"

#define DOC_DESTROYS "ibv_destroy_srq() destroys the SRQ srq."
#define DOC_FAILS                                                        \
	"ibv_destroy_srq() fails if any queue pair is still associated " \
	"with this SRQ."
#define DOC_RET                                                          \
	"ibv_destroy_srq() returns 0 on success, or the value of errno " \
	"on failure (which indicates the failure reason)."
#define DOC_WAIT                                                           \
	"To avoid races, destroying an object (CQ, SRQ or QP) will wait "  \
	"for all affiliated events for the object to be acknowledged; "    \
	"this avoids an application retrieving an affiliated event after " \
	"the corresponding object has already been destroyed."

struct ds_row;
typedef void ds_check(const struct ds_row *row, struct rc_ctx *ctx,
		      struct vl *l, struct vt *t);

struct ds_row {
	struct rc_case c;
	ds_check *check;
	bool traffic;
};

static ds_check destroys, qp_associated, queue_unmapped, waits_for_ack;

static const struct ds_row rows[] = {
	{ .c = { .id = "verbs/destroy_srq/destroys",
		 .doc = DOC_DESTROYS,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "an SRQ no QP uses: 0",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = destroys },
	{ .c = { .id = "verbs/destroy_srq/qp-associated-fails",
		 .doc = DOC_FAILS,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "an RC QP made with this SRQ: an errno value; after "
			 "the QP is destroyed the SRQ is (0), so the first "
			 "failure destroyed nothing",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = qp_associated },
	{ .c = { .id = "verbs/destroy_srq/qp-associated-ebusy",
		 .doc = DOC_FAILS " ... " DOC_RET,
		 .basis = RC_BASIS_LINUX,
		 .note = "an RC QP made with this SRQ: EBUSY, what the kernel "
			 "answers for an object still in use "
			 "(ib_destroy_srq_user); the page names no errno",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS(EBUSY) } },
	  .check = qp_associated },
	{ .c = { .id = "verbs/destroy_srq/queue-unmapped",
		 .doc = DOC_DESTROYS,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "an SRQ made (the provider maps its queue from the "
			 "uverbs device) and destroyed: /proc/self/maps has the "
			 "uverbs mappings it had before; what was made for the "
			 "SRQ goes with it",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = queue_unmapped },
	{ .c = { .id = "verbs/destroy_srq/waits-for-ack",
		 .doc = DOC_WAIT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "an SRQ limit event got, not acknowledged, the QP on "
			 "the SRQ destroyed: ibv_destroy_srq (in a thread) has "
			 "not returned after 100 ms (scaled); acknowledged, it "
			 "returns 0",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(0) } },
	  .check = waits_for_ack,
	  .traffic = true },
};

static void destroys(const struct ds_row *row, struct rc_ctx *ctx, struct vl *l,
		     struct vt *t)
{
	RC_OBSERVE(ctx, ctx->ops->ibv_destroy_srq(l->srq));
	if (!ctx->obs->ret)
		l->srq = NULL;
}

static void qp_associated(const struct ds_row *row, struct rc_ctx *ctx,
			  struct vl *l, struct vt *t)
{
	struct ibv_qp_init_attr qa = {
		.qp_type = IBV_QPT_RC,
		.send_cq = l->cq,
		.recv_cq = l->cq,
		.srq = l->srq,
		.cap = { .max_send_wr = VL_WR, .max_send_sge = VL_SGE },
	};
	struct ibv_qp *qp = ctx->ops->ibv_create_qp(l->pd, &qa);
	int err;

	if (!qp) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_create_qp with the SRQ failed (set-up): %m");
		return;
	}
	RC_OBSERVE(ctx, ctx->ops->ibv_destroy_srq(l->srq));
	if (!ctx->obs->ret) {
		l->srq = NULL;
		ctx->ops->ibv_destroy_qp(qp);
		return;
	}
	ctx->ops->ibv_destroy_qp(qp);
	err = ctx->ops->ibv_destroy_srq(l->srq);
	if (err)
		rc_obs_violation(ctx->obs,
				 "second ibv_destroy_srq, no QP left: %s",
				 rc_errno_name(err));
	else
		l->srq = NULL;
}

/* How many mappings of a uverbs device the process has: -1 when
 * /proc/self/maps cannot be read */
static int uverbs_maps(void)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[512];
	int n = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		n += !!strstr(line, "/dev/infiniband/uverbs");
	fclose(f);
	return n;
}

static void queue_unmapped(const struct ds_row *row, struct rc_ctx *ctx,
			   struct vl *l, struct vt *t)
{
	struct ibv_srq_init_attr a = { .attr = { .max_wr = VL_WR,
						 .max_sge = 1 } };
	struct ibv_srq *srq;
	int before, made, after;

	before = uverbs_maps();
	srq = ctx->ops->ibv_create_srq(l->pd, &a);
	if (!srq) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_create_srq failed (set-up): %m");
		return;
	}
	made = uverbs_maps();
	if (before < 0 || made <= before) {
		ctx->ops->ibv_destroy_srq(srq);
		rc_obs_state(ctx->obs, RC_STATE_UNSUPPORTED,
			     "the provider maps no queue of the uverbs device "
			     "for an SRQ (%d mappings before it, %d with it)",
			     before, made);
		return;
	}
	RC_OBSERVE(ctx, ctx->ops->ibv_destroy_srq(srq));
	after = uverbs_maps();
	if (!ctx->obs->ret && after != before)
		rc_obs_violation(ctx->obs,
				 "%d uverbs mappings after ibv_destroy_srq: "
				 "%d before the SRQ was made, %d with it",
				 after, before, made);
}

static long long destroy_srq(struct rc_ctx *ctx, void *srq)
{
	return ctx->ops->ibv_destroy_srq(srq);
}

static void waits_for_ack(const struct ds_row *row, struct rc_ctx *ctx,
			  struct vl *l, struct vt *t)
{
	struct ibv_async_event ev;
	struct vs_bg d;
	int err;

	if (!vs_below_limit(ctx, t))
		return;
	if (!vs_provoked(ctx, t, IBV_EVENT_SRQ_LIMIT_REACHED,
			 "IBV_EVENT_SRQ_LIMIT_REACHED", &ev))
		return;
	/* the only QP on the SRQ, which it may not outlive */
	err = ctx->ops->ibv_destroy_qp(t->b);
	if (err) {
		ctx->ops->ibv_ack_async_event(&ev);
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_destroy_qp failed (set-up): %s",
			     rc_errno_name(err));
		return;
	}
	t->b = NULL;
	if (!vs_bg_start(&d, ctx, destroy_srq, t->srq)) {
		ctx->ops->ibv_ack_async_event(&ev);
		return;
	}
	t->srq = NULL;
	if (vs_bg_done_within(&d, VT_QUIET_MS))
		rc_obs_violation(ctx->obs,
				 "ibv_destroy_srq: returned with its event "
				 "not acknowledged");
	ctx->ops->ibv_ack_async_event(&ev);
	/* not acknowledged as counted: the watchdog's HANG */
	vs_bg_join(&d);
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct ds_row *row = r;
	struct vs_env e;

	/* the traffic rows arm the SRQ's limit */
	if (!rc_need_call(ctx, (const void *)ctx->ops->ibv_destroy_srq,
			  "ibv_destroy_srq") ||
	    (row->traffic &&
	     !rc_need_call(ctx, (const void *)ctx->ops->ibv_modify_srq,
			   "ibv_modify_srq")))
		return;
	if (vs_up(ctx, &e, row->traffic, VL_SRQ))
		row->check(row, ctx, vs_ladder(&e), vs_pair(&e));
	vs_down(ctx, &e);
}

RC_TABLE_GROUP(group, "ibv_destroy_srq", RC_CONV_ERRNO_RET, "verbs", rows, run);
