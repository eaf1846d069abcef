// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Completion events.
 * ibv_req_notify_cq(3): "Upon the addition of a new CQ entry (CQE) to
 * cq, a completion event will be added to the completion channel
 * associated with the CQ."  "If solicited_only is non-zero, an event is
 * only generated for a new CQE with that is considered "solicited.""  The
 * request is "one shot."  "returns 0 on success, or the value of errno on
 * failure".
 * ibv_get_cq_event(3): "Fills the arguments cq with the CQ that got the
 * event and cq_context with the CQ's context."  "returns 0 on success,
 * and -1 on error."  ibv_ack_cq_events(3): "acknowledges nevents events
 * on the CQ cq"; "destroying a CQ will wait for all completion events to
 * be acknowledged".
 *
 * b's receive CQ is on a completion channel (verbs_traffic.h), a SENDs
 * to it.  Whether an event came is read on the channel's fd (poll(2)
 * with a deadline), so that no row blocks in ibv_get_cq_event.
 * - req_notify_cq/armed-event: armed, a receive completes: an event
 * - req_notify_cq/not-armed-no-event: never armed: a completion, no event
 * - req_notify_cq/one-shot: armed once, two completions: one event
 * - req_notify_cq/solicited-only: solicited_only 1: an unsolicited
 *   message gives no event, a solicited one (IBV_SEND_SOLICITED) does
 * - req_notify_cq/solicited-only-send-completion: the sender's CQ (on the
 *   channel instead) armed with solicited_only 1: no successful send
 *   completion gives an event, a plain SEND's, a fenced one's (FENCE is
 *   not SOLICITED), or a solicited one's
 * - req_notify_cq/solicited-only-failed-send: armed so, a SEND that
 *   completes with an error does ("or if the status is not successful")
 * - get_cq_event/cq-and-context: the CQ and the cq_context it was made
 *   with
 * - get_cq_event/nonblocking-empty: a non-blocking channel with no event
 *   fails with EAGAIN
 * - ack_cq_events/destroy-after-ack: one event got and acknowledged:
 *   ibv_destroy_cq returns (and does not wait forever)
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>

#include "verbs_traffic.h"

#define DOC_ADD                                                     \
	"Upon the addition of a new CQ entry (CQE) to cq, a "       \
	"completion event will be added to the completion channel " \
	"associated with the CQ."
#define DOC_REQ                                                      \
	"ibv_req_notify_cq() requests a completion notification on " \
	"the completion queue (CQ) cq."
#define DOC_ONESHOT                                               \
	"The request for notification is \"one shot.\" Only one " \
	"completion event will be generated for each call to "    \
	"ibv_req_notify_cq()."
#define DOC_SOLICITED                                      \
	"If solicited_only is non-zero, an event is only " \
	"generated for a new CQE with that is considered \"solicited.\""
#define DOC_SEND_UNSOLICITED                                           \
	"All other successful receive completions, or any successful " \
	"send completion is unsolicited."
#define DOC_SOLICITED_IS                                                    \
	"A CQE is solicited if it is a receive completion for a message "   \
	"with the Solicited Event header bit set, or if the status is not " \
	"successful."
#define DOC_GET                                                      \
	"Fills the arguments cq with the CQ that got the event and " \
	"cq_context with the CQ's context."
#define DOC_GET_RET                                           \
	"ibv_get_cq_event() returns 0 on success, and -1 on " \
	"error."
#define DOC_NONBLOCK                                   \
	"The following code example demonstrates one " \
	"possible way to work with completion events in non-blocking mode."
#define DOC_DESTROY                                                           \
	"To avoid races, destroying a CQ will wait for all "                  \
	"completion events to be acknowledged; this guarantees a one-to-one " \
	"correspondence between acks and successful gets."

struct ev_row;
typedef void ev_check(const struct ev_row *row, struct rc_ctx *ctx,
		      struct vt *t);

struct ev_row {
	struct rc_case c;
	ev_check *check;
	bool send_side; /* the channel is the send CQ's (vt_opts) */
};

static ev_check armed_event, not_armed, one_shot, solicited_only,
	send_unsolicited, failed_send_solicited, cq_and_context,
	nonblocking_empty, destroy_after_ack;

static const struct ev_row notify_rows[] = {
	{ .c = { .id = "verbs/req_notify_cq/armed-event",
		 .doc = DOC_ADD,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "armed with solicited_only 0, then a receive "
			 "completes: the channel has an event for the CQ",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(0) } },
	  .check = armed_event },
	{ .c = { .id = "verbs/req_notify_cq/not-armed-no-event",
		 .doc = DOC_REQ,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "events come on request: a CQ never armed gets a "
			 "completion and its channel no event (the call under "
			 "test arms another CQ of the same channel)",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(0) } },
	  .check = not_armed },
	{ .c = { .id = "verbs/req_notify_cq/one-shot",
		 .doc = DOC_ONESHOT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "armed once, two receives complete: one event",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(0) } },
	  .check = one_shot },
	{ .c = { .id = "verbs/req_notify_cq/solicited-only",
		 .doc = DOC_SOLICITED,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "armed with solicited_only 1: a SEND without "
			 "IBV_SEND_SOLICITED gives no event, the next one with "
			 "it gives one",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(0) } },
	  .check = solicited_only },
	{ .c = { .id = "verbs/req_notify_cq/solicited-only-send-completion",
		 .doc = DOC_SOLICITED " ... " DOC_SEND_UNSOLICITED,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the sender's CQ armed with solicited_only 1: a "
			 "SEND's successful completion gives no event, nor "
			 "does a fenced SEND's, nor the next, of a SEND with "
			 "IBV_SEND_SOLICITED",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(0) } },
	  .check = send_unsolicited,
	  .send_side = true },
	{ .c = { .id = "verbs/req_notify_cq/solicited-only-failed-send",
		 .doc = DOC_SOLICITED " ... " DOC_SOLICITED_IS,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the sender's CQ armed with solicited_only 1: a SEND "
			 "whose SGE's lkey names no MR completes with an "
			 "error, and that completion gives an event",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(0) } },
	  .check = failed_send_solicited,
	  .send_side = true },
};

static const struct ev_row get_rows[] = {
	{ .c = { .id = "verbs/get_cq_event/cq-and-context",
		 .doc = DOC_GET,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "an event ready on the channel: 0, the receive CQ and "
			 "the cq_context it was made with",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(0) } },
	  .check = cq_and_context },
	{ .c = { .id = "verbs/get_cq_event/nonblocking-empty",
		 .doc = DOC_NONBLOCK " ... " DOC_GET_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the page's example sets the channel's fd O_NONBLOCK: "
			 "with no event there, the call fails at once with "
			 "read(2)'s EAGAIN rather than waiting",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_FAILS(EAGAIN) } },
	  .check = nonblocking_empty },
};

static const struct ev_row ack_rows[] = {
	{ .c = { .id = "verbs/ack_cq_events/destroy-after-ack",
		 .doc = DOC_DESTROY,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "one event got and acknowledged (nevents 1): "
			 "ibv_destroy_cq then returns 0; an ack not counted "
			 "makes it wait for ever (the watchdog's HANG)",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_ANY_RETURN } },
	  .check = destroy_after_ack },
};

static bool send_one(struct rc_ctx *ctx, struct vt *t, uint64_t id,
		     unsigned int flags)
{
	struct ibv_sge sg = vt_sge(t, 0, 0, 32);
	struct ibv_send_wr wr = vt_wr(t, IBV_WR_SEND, id, &sg, 1), *bad;

	wr.send_flags |= flags;
	if (!vt_recv_ready(ctx, t, id, 64))
		return false;
	if (ctx->ops->ibv_post_send(t->a, &wr, &bad)) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_post_send failed (set-up): %m");
		return false;
	}
	return vt_one_wc(ctx, t->rcq, "recv",
			 &(struct vt_wc){ .wr_id = id,
					  .opcode = IBV_WC_RECV,
					  .byte_len = 32,
					  .qp_num = t->b->qp_num,
					  .src_qp = -1,
					  .wc_flags = -1 });
}

static bool arm(struct rc_ctx *ctx, struct vt *t, int solicited)
{
	RC_OBSERVE(ctx, ctx->ops->ibv_req_notify_cq(t->rcq, solicited));
	return ctx->obs->ret == 0;
}

static void armed_event(const struct ev_row *row, struct rc_ctx *ctx,
			struct vt *t)
{
	if (!arm(ctx, t, 0) || !send_one(ctx, t, 1, 0))
		return;
	if (!vt_event_ready(ctx, t, VT_WAIT_MS))
		rc_obs_violation(ctx->obs, "event: none within %d ms",
				 rc_scaled_ms(ctx, VT_WAIT_MS));
	else
		vt_take_event(ctx, t);
}

static void not_armed(const struct ev_row *row, struct rc_ctx *ctx,
		      struct vt *t)
{
	/* on the channel's context: b's (the peer's, on iWARP) */
	struct ibv_cq *other =
		ctx->ops->ibv_create_cq(vt_bctx(t), 4, NULL, t->ch, 0);

	if (!other) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_create_cq failed (set-up): %m");
		return;
	}
	RC_OBSERVE(ctx, ctx->ops->ibv_req_notify_cq(other, 0));
	if (ctx->obs->ret == 0 && send_one(ctx, t, 1, 0) &&
	    vt_event_ready(ctx, t, VT_QUIET_MS)) {
		rc_obs_violation(ctx->obs, "event: one came for a CQ never "
					   "armed");
		vt_take_event(ctx, t);
	}
	ctx->ops->ibv_destroy_cq(other);
}

static void one_shot(const struct ev_row *row, struct rc_ctx *ctx, struct vt *t)
{
	if (!arm(ctx, t, 0) || !send_one(ctx, t, 1, 0) ||
	    !send_one(ctx, t, 2, 0))
		return;
	if (!vt_event_ready(ctx, t, VT_WAIT_MS)) {
		rc_obs_violation(ctx->obs, "event: none within %d ms",
				 rc_scaled_ms(ctx, VT_WAIT_MS));
		return;
	}
	if (!vt_take_event(ctx, t))
		return;
	if (vt_event_ready(ctx, t, VT_QUIET_MS)) {
		rc_obs_violation(ctx->obs, "event: a second for one request");
		vt_take_event(ctx, t);
	}
}

static void solicited_only(const struct ev_row *row, struct rc_ctx *ctx,
			   struct vt *t)
{
	if (!arm(ctx, t, 1) || !send_one(ctx, t, 1, 0))
		return;
	if (vt_event_ready(ctx, t, VT_QUIET_MS)) {
		rc_obs_violation(ctx->obs, "event: one for an unsolicited "
					   "message");
		vt_take_event(ctx, t);
		return;
	}
	if (!send_one(ctx, t, 2, IBV_SEND_SOLICITED))
		return;
	if (!vt_event_ready(ctx, t, VT_WAIT_MS))
		rc_obs_violation(ctx->obs,
				 "event: none for a solicited "
				 "message within %d ms",
				 rc_scaled_ms(ctx, VT_WAIT_MS));
	else
		vt_take_event(ctx, t);
}

static bool arm_send(struct rc_ctx *ctx, struct vt *t)
{
	RC_OBSERVE(ctx, ctx->ops->ibv_req_notify_cq(t->scq, 1));
	return ctx->obs->ret == 0;
}

static void send_unsolicited(const struct ev_row *row, struct rc_ctx *ctx,
			     struct vt *t)
{
	if (arm_send(ctx, t) &&
	    vt_sent_no_event(ctx, t, 0, "unsolicited", false) &&
	    vt_sent_no_event(ctx, t, IBV_SEND_FENCE, "fenced", false))
		vt_sent_no_event(ctx, t, IBV_SEND_SOLICITED, "solicited",
				 false);
}

static void failed_send_solicited(const struct ev_row *row, struct rc_ctx *ctx,
				  struct vt *t)
{
	/* far from any MR of the row, as rc-send-lkey-of-no-mr's */
	if (!arm_send(ctx, t) || !vt_send_from_a(ctx, t, 0, 0x00800000, false))
		return;
	if (!vt_event_ready(ctx, t, VT_WAIT_MS))
		rc_obs_violation(ctx->obs,
				 "event: none for a send completion with an "
				 "error within %d ms",
				 rc_scaled_ms(ctx, VT_WAIT_MS));
	else
		vt_take_event(ctx, t);
	vt_poll(ctx, t->scq, (struct ibv_wc[1]){ 0 }, 1);
}

/* Arm with the implementation, make a completion, wait for its event */
static bool event_ready(struct rc_ctx *ctx, struct vt *t)
{
	if (ctx->ops->ibv_req_notify_cq(t->rcq, 0)) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_req_notify_cq failed (set-up): %m");
		return false;
	}
	if (!send_one(ctx, t, 1, 0))
		return false;
	if (vt_event_ready(ctx, t, VT_WAIT_MS))
		return true;
	rc_obs_state(ctx->obs, RC_STATE_BROKEN, "no event came (set-up)");
	return false;
}

static void cq_and_context(const struct ev_row *row, struct rc_ctx *ctx,
			   struct vt *t)
{
	struct ibv_cq *cq = NULL;
	void *cctx = NULL;

	if (!event_ready(ctx, t))
		return;
	RC_OBSERVE(ctx, ctx->ops->ibv_get_cq_event(t->ch, &cq, &cctx));
	if (ctx->obs->ret != 0)
		return;
	if (cq != t->rcq)
		rc_obs_violation(ctx->obs, "cq: not the CQ armed");
	else if (cctx != &t->cq_context)
		rc_obs_violation(ctx->obs, "cq_context: not the CQ's");
	ctx->ops->ibv_ack_cq_events(cq == t->rcq ? cq : t->rcq, 1);
}

static void nonblocking_empty(const struct ev_row *row, struct rc_ctx *ctx,
			      struct vt *t)
{
	struct ibv_cq *cq = NULL;
	void *cctx = NULL;
	int fl = fcntl(t->ch->fd, F_GETFL);

	if (fl < 0 || fcntl(t->ch->fd, F_SETFL, fl | O_NONBLOCK) < 0) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "fcntl O_NONBLOCK failed (set-up): %m");
		return;
	}
	RC_OBSERVE(ctx, ctx->ops->ibv_get_cq_event(t->ch, &cq, &cctx));
	if (ctx->obs->ret == 0)
		ctx->ops->ibv_ack_cq_events(cq, 1);
}

static void destroy_after_ack(const struct ev_row *row, struct rc_ctx *ctx,
			      struct vt *t)
{
	struct ibv_cq *cq;
	void *cctx;
	int r;

	if (!event_ready(ctx, t))
		return;
	if (ctx->ops->ibv_get_cq_event(t->ch, &cq, &cctx)) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_get_cq_event failed (set-up): %m");
		return;
	}
	RC_OBSERVE(ctx, (ctx->ops->ibv_ack_cq_events(t->rcq, 1), 0));
	/* the QP on it first, which the CQ may not outlive */
	ctx->ops->ibv_destroy_qp(t->b);
	t->b = NULL;
	r = ctx->ops->ibv_destroy_qp(t->a);
	t->a = NULL;
	r = r ? r : ctx->ops->ibv_destroy_cq(t->rcq);
	if (r)
		rc_obs_violation(ctx->obs, "ibv_destroy_cq: %d (%s)", r,
				 rc_errno_name(errno));
	else
		t->rcq = NULL;
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct ev_row *row = r;
	struct vt_opts o = { .channel = !row->send_side,
			     .send_channel = row->send_side };
	struct vt t;

	if (vt_up(ctx, &t, &o))
		row->check(row, ctx, &t);
	vt_down(ctx, &t);
}

RC_TABLE_GROUP(notify_group, "ibv_req_notify_cq", RC_CONV_ERRNO_RET, "verbs",
	       notify_rows, run);

RC_TABLE_GROUP(get_group, "ibv_get_cq_event", RC_CONV_M1_ERRNO, "verbs",
	       get_rows, run);

RC_TABLE_GROUP(ack_group, "ibv_ack_cq_events", RC_CONV_VALUE, "verbs", ack_rows,
	       run);
