// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_modify_srq(3): "modifies the attributes of SRQ srq with the
 * attributes in srq_attr according to the mask srq_attr_mask", which "is
 * either 0 or the bitwise OR" of IBV_SRQ_MAX_WR (resize) and
 * IBV_SRQ_LIMIT; "returns 0 on success, or the value of errno on
 * failure".  NOTES: "If any of the modify attributes is invalid, none of
 * the attributes will be modified."  "Not all devices support resizing
 * SRQs" (IBV_DEVICE_SRQ_RESIZE).  "Modifying the srq_limit arms the SRQ
 * to produce an IBV_EVENT_SRQ_LIMIT_REACHED "low watermark" asynchronous
 * event once the number of WRs in the SRQ drops below srq_limit."
 *
 * The control rows stand on the ladder's SRQ (8 WRs of 1 SGE); what
 * landed is read back with ibv_query_srq.
 * - limit-read-back: IBV_SRQ_LIMIT 5: 0, srq_limit 5
 * - limit-exact-max-wr: the SRQ's own max_wr, an exact fit: 0, read back
 * - limit-one-beyond-max-wr: max_wr + 1: an errno value, srq_limit 0
 * - mask-zero: mask 0 with max_wr and srq_limit set: 0, nothing changed
 * - resize-grows: IBV_SRQ_MAX_WR 300 where IBV_DEVICE_SRQ_RESIZE: 0,
 *   max_wr >= 300 (UNSUPPORTED elsewhere)
 * - resize-unsupported-fails: IBV_SRQ_MAX_WR where the device does not
 *   have IBV_DEVICE_SRQ_RESIZE: an errno value, max_wr as it was
 *   (UNSUPPORTED where it has it)
 * - none-modified-bad-limit: MAX_WR 300 and a srq_limit beyond
 *   max_srq_wr: an errno value, max_wr and srq_limit as they were
 * - none-modified-bad-wr: max_wr beyond max_srq_wr and srq_limit 2: an
 *   errno value, srq_limit as it was
 * - limit-event-below-not-at: on the traffic rung, 4 receives and the
 *   limit 3: the SEND that leaves 3 gives no event, the next one
 *   IBV_EVENT_SRQ_LIMIT_REACHED for this SRQ
 * - resize-then-message-lands: on the traffic rung, IBV_SRQ_MAX_WR 300
 *   where IBV_DEVICE_SRQ_RESIZE: 0, and a receive posted after it takes
 *   a SEND (the effect where it lands: the resized queue is the one the
 *   device reads; UNSUPPORTED elsewhere)
 */
#include <errno.h>

#include "verbs_ctl.h"
#include "verbs_srq.h"

#define DOC_MODIFY                                                      \
	"ibv_modify_srq() modifies the attributes of SRQ srq with the " \
	"attributes in srq_attr according to the mask srq_attr_mask."
#define DOC_MASK                                                        \
	"The argument is either 0 or the bitwise OR of one or more of " \
	"the following flags:"
#define DOC_NONE                                                   \
	"If any of the modify attributes is invalid, none of the " \
	"attributes will be modified."
#define DOC_RESIZE                                                       \
	"Not all devices support resizing SRQs.  To check if a device "  \
	"supports it, check if the IBV_DEVICE_SRQ_RESIZE bit is set in " \
	"the device capabilities flags."
#define DOC_ARMS                                                            \
	"Modifying the srq_limit arms the SRQ to produce an "               \
	"IBV_EVENT_SRQ_LIMIT_REACHED \"low watermark\" asynchronous event " \
	"once the number of WRs in the SRQ drops below srq_limit."
#define DOC_RET                                                   \
	"ibv_modify_srq() returns 0 on success, or the value of " \
	"errno on failure (which indicates the failure reason)."

struct ms_row;
typedef void ms_check(const struct ms_row *row, struct rc_ctx *ctx,
		      struct vl *l, struct vt *t);

struct ms_row {
	struct rc_case c;
	ms_check *check;
	bool traffic; /* on the traffic rung (else the ladder's SRQ) */
	long arg;
};

static ms_check limit_read_back, limit_at_max_wr, mask_zero, resize_grows,
	resize_unsupported, none_bad_limit, none_bad_wr, limit_event,
	resize_lands;

static const struct ms_row rows[] = {
	{ .c = { .id = "verbs/modify_srq/limit-read-back",
		 .doc = DOC_MODIFY,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "IBV_SRQ_LIMIT with srq_limit 5: 0, and ibv_query_srq "
			 "reads srq_limit 5",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = limit_read_back },
	{ .c = { .id = "verbs/modify_srq/limit-exact-max-wr",
		 .doc = DOC_MODIFY,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "a limit as large as the SRQ (its queried max_wr), an "
			 "exact fit: 0, and read back",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = limit_at_max_wr },
	{ .c = { .id = "verbs/modify_srq/limit-one-beyond-max-wr",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "a limit of the SRQ's max_wr + 1 can never be reached "
			 "from above (IBA 10.2.9.5: the limit is at most the "
			 "SRQ's size): an errno value, srq_limit still 0",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = limit_at_max_wr,
	  .arg = 1 },
	{ .c = { .id = "verbs/modify_srq/mask-zero",
		 .doc = DOC_MASK,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "mask 0, with max_wr 1000 and srq_limit 7 in srq_attr: "
			 "0, and max_wr and srq_limit as they were (no flag, "
			 "nothing to modify)",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = mask_zero },
	{ .c = { .id = "verbs/modify_srq/resize-grows",
		 .doc = DOC_RESIZE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "where IBV_DEVICE_SRQ_RESIZE is set, IBV_SRQ_MAX_WR "
			 "300 of an SRQ of 8: 0, and max_wr >= 300 read back "
			 "(at least what was asked, as ibv_create_srq(3))",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = resize_grows },
	{ .c = { .id = "verbs/modify_srq/resize-unsupported-fails",
		 .doc = DOC_RESIZE,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "where IBV_DEVICE_SRQ_RESIZE is not set, "
			 "IBV_SRQ_MAX_WR 300: an errno value, and max_wr as it "
			 "was",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = resize_unsupported },
	{ .c = { .id = "verbs/modify_srq/none-modified-bad-limit",
		 .doc = DOC_NONE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "IBV_SRQ_MAX_WR 300 and IBV_SRQ_LIMIT beyond "
			 "max_srq_wr: an errno value, max_wr and srq_limit as "
			 "they were",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = none_bad_limit },
	{ .c = { .id = "verbs/modify_srq/none-modified-bad-wr",
		 .doc = DOC_NONE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "IBV_SRQ_MAX_WR beyond max_srq_wr and IBV_SRQ_LIMIT "
			 "2: an errno value, srq_limit still 0",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = none_bad_wr },
	{ .c = { .id = "verbs/modify_srq/limit-event-below-not-at",
		 .doc = DOC_ARMS,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "4 receives, armed at 3: the SEND that leaves 3 gives "
			 "no event (not below), the next, leaving 2, gives "
			 "IBV_EVENT_SRQ_LIMIT_REACHED with element.srq this "
			 "SRQ",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(0) } },
	  .check = limit_event,
	  .traffic = true },
	{ .c = { .id = "verbs/modify_srq/resize-then-message-lands",
		 .doc = DOC_RESIZE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "where IBV_DEVICE_SRQ_RESIZE is set, IBV_SRQ_MAX_WR "
			 "300 of the traffic rung's SRQ: 0, then a receive "
			 "posted to it takes a SEND from a",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(0) } },
	  .check = resize_lands,
	  .traffic = true },
};

static int modify(struct rc_ctx *ctx, struct ibv_srq *srq, uint32_t wr,
		  uint32_t limit, int mask)
{
	struct ibv_srq_attr a = { .max_wr = wr, .srq_limit = limit };
	int ret;

	RC_OBSERVE(ctx, ret = ctx->ops->ibv_modify_srq(srq, &a, mask));
	return ret;
}

/* after the call: max_wr and srq_limit read back as @wr (at least, when
 * @grown) and @limit */
static void read_back(struct rc_ctx *ctx, struct ibv_srq *srq, uint32_t wr,
		      bool grown, uint32_t limit)
{
	struct ibv_srq_attr q;

	if (!vs_query(ctx, srq, &q))
		return;
	if (grown ? q.max_wr < wr : q.max_wr != wr)
		rc_obs_violation(ctx->obs, "max_wr %u read back, %s %u",
				 q.max_wr, grown ? "asked" : "was", wr);
	else if (q.srq_limit != limit)
		rc_obs_violation(ctx->obs, "srq_limit %u read back, not %u",
				 q.srq_limit, limit);
}

static bool before(struct rc_ctx *ctx, struct vl *l, struct ibv_srq_attr *q)
{
	return vs_query(ctx, l->srq, q);
}

static void limit_read_back(const struct ms_row *row, struct rc_ctx *ctx,
			    struct vl *l, struct vt *t)
{
	struct ibv_srq_attr q;

	if (before(ctx, l, &q) && !modify(ctx, l->srq, 0, 5, IBV_SRQ_LIMIT))
		read_back(ctx, l->srq, q.max_wr, false, 5);
}

static void limit_at_max_wr(const struct ms_row *row, struct rc_ctx *ctx,
			    struct vl *l, struct vt *t)
{
	struct ibv_srq_attr q;
	uint32_t limit;

	if (!before(ctx, l, &q))
		return;
	limit = q.max_wr + row->arg;
	modify(ctx, l->srq, 0, limit, IBV_SRQ_LIMIT);
	read_back(ctx, l->srq, q.max_wr, false, ctx->obs->ret ? 0 : limit);
}

static void mask_zero(const struct ms_row *row, struct rc_ctx *ctx,
		      struct vl *l, struct vt *t)
{
	struct ibv_srq_attr q;

	if (before(ctx, l, &q) && !modify(ctx, l->srq, 1000, 7, 0))
		read_back(ctx, l->srq, q.max_wr, false, q.srq_limit);
}

static bool can_resize(struct rc_ctx *ctx, struct vl *l, bool *can)
{
	struct ibv_device_attr a;

	if (!vc_attr(ctx, l, &a))
		return false;
	*can = a.device_cap_flags & IBV_DEVICE_SRQ_RESIZE;
	return true;
}

static void resize_grows(const struct ms_row *row, struct rc_ctx *ctx,
			 struct vl *l, struct vt *t)
{
	struct ibv_srq_attr q;
	bool can;

	if (!can_resize(ctx, l, &can) ||
	    !vc_device_can(ctx, l, can,
			   "the device cannot resize an SRQ (no "
			   "IBV_DEVICE_SRQ_RESIZE)") ||
	    !before(ctx, l, &q))
		return;
	if (!modify(ctx, l->srq, 300, 0, IBV_SRQ_MAX_WR))
		read_back(ctx, l->srq, 300, true, q.srq_limit);
}

static void resize_unsupported(const struct ms_row *row, struct rc_ctx *ctx,
			       struct vl *l, struct vt *t)
{
	struct ibv_srq_attr q;
	bool can;

	if (!can_resize(ctx, l, &can) ||
	    !vc_device_can(ctx, l, !can,
			   "the device resizes SRQs "
			   "(IBV_DEVICE_SRQ_RESIZE)") ||
	    !before(ctx, l, &q))
		return;
	if (modify(ctx, l->srq, 300, 0, IBV_SRQ_MAX_WR))
		read_back(ctx, l->srq, q.max_wr, false, q.srq_limit);
}

static void none_bad_limit(const struct ms_row *row, struct rc_ctx *ctx,
			   struct vl *l, struct vt *t)
{
	struct ibv_device_attr a;
	struct ibv_srq_attr q;

	if (!vc_attr(ctx, l, &a) || !before(ctx, l, &q))
		return;
	if (modify(ctx, l->srq, 300, a.max_srq_wr + 1,
		   IBV_SRQ_MAX_WR | IBV_SRQ_LIMIT))
		read_back(ctx, l->srq, q.max_wr, false, q.srq_limit);
}

static void none_bad_wr(const struct ms_row *row, struct rc_ctx *ctx,
			struct vl *l, struct vt *t)
{
	struct ibv_device_attr a;
	struct ibv_srq_attr q;

	if (!vc_attr(ctx, l, &a) || !before(ctx, l, &q))
		return;
	if (modify(ctx, l->srq, a.max_srq_wr + 1, 2,
		   IBV_SRQ_MAX_WR | IBV_SRQ_LIMIT))
		read_back(ctx, l->srq, q.max_wr, false, q.srq_limit);
}

static void limit_event(const struct ms_row *row, struct rc_ctx *ctx,
			struct vl *l, struct vt *t)
{
	struct ibv_async_event ev;
	int got;

	if (!vs_post(ctx, t, VS_POSTED) ||
	    modify(ctx, t->srq, 0, VS_LIMIT, IBV_SRQ_LIMIT) ||
	    !vs_consume(ctx, t, VS_POSTED - VS_LIMIT))
		return;
	if (vs_event_ready(ctx, vs_ctx_of(t, IBV_EVENT_SRQ_LIMIT_REACHED),
			   VT_QUIET_MS)) {
		rc_obs_violation(ctx->obs,
				 "event: one ready with %d WRs left, not below "
				 "the limit %d",
				 VS_LIMIT, VS_LIMIT);
		return;
	}
	if (!vs_consume(ctx, t, 1))
		return;
	got = vs_event_of(ctx, vs_ctx_of(t, IBV_EVENT_SRQ_LIMIT_REACHED),
			  IBV_EVENT_SRQ_LIMIT_REACHED, VS_EVENT_MS, &ev, NULL);
	if (got < 0) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_get_async_event failed: %m");
		return;
	}
	if (!got) {
		rc_obs_violation(ctx->obs,
				 "event: no IBV_EVENT_SRQ_LIMIT_REACHED within "
				 "%d ms of %d WRs left",
				 rc_scaled_ms(ctx, VS_EVENT_MS), VS_LIMIT - 1);
		return;
	}
	if (ev.element.srq != t->srq)
		rc_obs_violation(ctx->obs, "element.srq: not the SRQ armed");
	ctx->ops->ibv_ack_async_event(&ev);
}

static void resize_lands(const struct ms_row *row, struct rc_ctx *ctx,
			 struct vl *l, struct vt *t)
{
	struct ibv_sge sg = vt_sge(t, 0, 0, 32);
	struct ibv_send_wr wr, *bad;
	struct ibv_wc wc;
	bool can;
	int err;

	if (!can_resize(ctx, l, &can) ||
	    !vc_device_can(ctx, l, can,
			   "the device cannot resize an SRQ (no "
			   "IBV_DEVICE_SRQ_RESIZE)") ||
	    modify(ctx, t->srq, 300, 0, IBV_SRQ_MAX_WR))
		return;
	err = vt_recv(ctx, t, 100, 1, 64);
	if (err) {
		rc_obs_violation(ctx->obs,
				 "ibv_post_srq_recv after the resize: %s",
				 rc_errno_name(err));
		return;
	}
	wr = vt_wr(t, IBV_WR_SEND, 200, &sg, 1);
	if (ctx->ops->ibv_post_send(t->a, &wr, &bad)) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_post_send failed (set-up): %m");
		return;
	}
	if (vt_poll(ctx, t->rcq, &wc, 1) != 1)
		rc_obs_violation(ctx->obs,
				 "the SEND after the resize: no receive of the "
				 "SRQ completed");
	else if (wc.status != IBV_WC_SUCCESS || wc.wr_id != 100)
		rc_obs_violation(ctx->obs,
				 "the SEND after the resize: status %s, wr_id "
				 "%llu (the receive posted was 100)",
				 ctx->ops->ibv_wc_status_str(wc.status),
				 (unsigned long long)wc.wr_id);
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct ms_row *row = r;
	struct vs_env e;

	if (!rc_need_call(ctx, (const void *)ctx->ops->ibv_modify_srq,
			  "ibv_modify_srq"))
		return;
	if (vs_up(ctx, &e, row->traffic, VL_SRQ))
		row->check(row, ctx, vs_ladder(&e), vs_pair(&e));
	vs_down(ctx, &e);
}

RC_TABLE_GROUP(group, "ibv_modify_srq", RC_CONV_ERRNO_RET, "verbs", rows, run);
