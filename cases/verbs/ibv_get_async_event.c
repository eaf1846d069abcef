// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_get_async_event(3): "waits for the next async event of the RDMA
 * device context context and returns it through the pointer event";
 * "One member of the element union will be valid, depending on the
 * event_type member of the structure"; it "returns 0 on success, and -1
 * on error"; it "is a blocking function".  ibv_ack_async_event()
 * "acknowledge the async event event"; "All async events that
 * ibv_get_async_event() returns must be acknowledged", and destroying an
 * object "will wait for all affiliated events for the object to be
 * acknowledged".
 *
 * Events are provoked for real: an SRQ drops below its limit (receives
 * taken by SENDs on the traffic rung), a QP's send queue drains, a CQ
 * overruns, a QP on an SRQ enters the error state.  The port events are
 * ibv_get_async_event_port.c's.
 * Whether an event is there is read on async_fd (poll(2) with a
 * deadline), so that no row blocks in the call but the one about it;
 * when none comes the call is made all the same, on a non-blocking fd.
 * - get_async_event/srq-limit-element: IBV_EVENT_SRQ_LIMIT_REACHED, and
 *   element.srq the SRQ that dropped below its limit
 * - get_async_event/blocks-until-event: called (in a thread) before any
 *   event: it has not returned after VT_QUIET_MS; the SRQ then drops
 *   below its limit and it returns 0 with that event
 * - get_async_event/nonblocking-empty: async_fd O_NONBLOCK, no event:
 *   -1 and EAGAIN
 * - get_async_event/sq-drained-element: a in RTS, empty, moved to SQD
 *   with en_sqd_async_notify: IBV_EVENT_SQ_DRAINED with element.qp a
 * - get_async_event/cq-overrun-element: the send CQ resized to 1 entry
 *   (the size granted read back), one RDMA Write more than that, all
 *   signaled and none polled: IBV_EVENT_CQ_ERR with element.cq that CQ
 * - get_async_event/last-wqe-reached-element: b, on the SRQ, moved to the
 *   error state: IBV_EVENT_QP_LAST_WQE_REACHED with element.qp b
 * - get_async_event/access-err-at-responder: an RDMA Write from a under
 *   an rkey no MR of b has: IBV_EVENT_QP_ACCESS_ERR with element.qp b,
 *   the responder (other events of b's error state before it taken)
 * - get_async_event/one-of-two-threads: two threads in the call, one
 *   event: one of them returns it, the other goes on waiting until a
 *   second event, which it returns
 * - ack_async_event/destroy-after-ack: the limit event got and
 *   acknowledged: ibv_destroy_srq returns 0 (and does not wait for ever)
 * - ack_async_event/qp-event-counted, cq-event-counted: the same for a
 *   QP's event (SQ drained) and ibv_destroy_qp, and for a CQ's (the
 *   overrun) and ibv_destroy_cq, its QPs destroyed first
 * - ack_async_event/qp-destroy-waits-for-ack: the QP's event not
 *   acknowledged, ibv_destroy_qp (in a thread) has not returned after
 *   VT_QUIET_MS; acknowledged, it returns 0
 * - ack_async_event/destroy-waits-for-every-ack: two events of the QP
 *   (drained, back to RTS, drained again), one acknowledged: the destroy
 *   still waits; the second acknowledged, it returns 0
 * SQD is the InfiniBand transport's state (iWARP's QPs close instead): the
 * rows that drain a send queue need a ca.  On iWARP b's events come to the
 * peer's context, a's to the target's (vs_ctx_of).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "verbs_srq.h"

#define DOC_ELEMENT                                                    \
	"One member of the element union will be valid, depending on " \
	"the event_type member of the structure."
#define DOC_BLOCKING "ibv_get_async_event() is a blocking function."
#define DOC_NONBLOCK                                                   \
	"The following code example demonstrates one possible way to " \
	"work with async events in non-blocking mode."
#define DOC_RET "ibv_get_async_event() returns 0 on success, and -1 on error."
#define DOC_ACK                                                        \
	"All async events that ibv_get_async_event() returns must be " \
	"acknowledged using ibv_ack_async_event()."
#define DOC_WAIT_ACK                                                          \
	"To avoid races, destroying an object (CQ, SRQ or QP) will wait for " \
	"all affiliated events for the object to be acknowledged"
#define DOC_SQ_DRAINED                                                         \
	"IBV_EVENT_SQ_DRAINED Send Queue was drained of outstanding messages " \
	"in progress"
#define DOC_CQ_ERR "IBV_EVENT_CQ_ERR CQ is in error (CQ overrun)"
#define DOC_LAST_WQE                                                         \
	"IBV_EVENT_QP_LAST_WQE_REACHED Last WQE Reached on a QP associated " \
	"with an SRQ"
#define DOC_ACCESS_ERR "IBV_EVENT_QP_ACCESS_ERR Local access violation error"
#define DOC_THREADS                                                            \
	"If multiple threads call this function simultaneously, then when an " \
	"async event occurs, only one thread will receive it, and it is not "  \
	"possible to predict which thread will receive it."

struct ae_row;
typedef void ae_check(const struct ae_row *row, struct rc_ctx *ctx,
		      struct vl *l, struct vt *t);

struct ae_row {
	struct rc_case c;
	ae_check *check;
	bool traffic; /* on the traffic rung (else a context) */
	int arg;
};

static ae_check srq_limit_element, blocks_until_event, nonblocking_empty,
	qp_event_element, cq_event_element, last_wqe_element,
	access_err_element, one_of_two_threads, destroy_after_ack,
	qp_event_counted, cq_event_counted, qp_destroy_waits,
	destroy_waits_for_every_ack;

static const struct ae_row get_rows[] = {
	{ .c = { .id = "verbs/get_async_event/srq-limit-element",
		 .doc = DOC_ELEMENT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "an SRQ armed at 3 and left with 2 receives: 0, "
			 "event_type IBV_EVENT_SRQ_LIMIT_REACHED, element.srq "
			 "that SRQ",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(0) } },
	  .check = srq_limit_element,
	  .traffic = true },
	{ .c = { .id = "verbs/get_async_event/blocks-until-event",
		 .doc = DOC_BLOCKING,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "called in a thread with no event there: not returned "
			 "after 100 ms (scaled); the SRQ then drops below its "
			 "limit, and the call returns 0 with that event",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(0) } },
	  .check = blocks_until_event,
	  .traffic = true },
	{ .c = { .id = "verbs/get_async_event/nonblocking-empty",
		 .doc = DOC_NONBLOCK " ... " DOC_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the page's example sets async_fd O_NONBLOCK: with no "
			 "event there, the call fails at once with read(2)'s "
			 "EAGAIN rather than waiting",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_FAILS(EAGAIN) } },
	  .check = nonblocking_empty },
	{ .c = { .id = "verbs/get_async_event/sq-drained-element",
		 .doc = DOC_SQ_DRAINED " ... " DOC_ELEMENT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "an RC QP in RTS with nothing posted, moved to SQD "
			 "with en_sqd_async_notify 1 (\"Enable SQD.drained "
			 "async notification\", ibv_modify_qp(3)): 0, "
			 "IBV_EVENT_SQ_DRAINED, element.qp that QP",
		 .needs = RC_NEED_DEVICE | RC_NEED_CA,
		 .contract = { RC_RETURNS(0) } },
	  .check = qp_event_element,
	  .traffic = true },
	{ .c = { .id = "verbs/get_async_event/cq-overrun-element",
		 .doc = DOC_CQ_ERR " ... " DOC_ELEMENT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the send CQ resized to 1 entry (what is granted read "
			 "back), then one signaled RDMA Write more than it holds "
			 "and none polled: 0, IBV_EVENT_CQ_ERR, element.cq that "
			 "CQ",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(0) } },
	  .check = cq_event_element,
	  .traffic = true },
	{ .c = { .id = "verbs/get_async_event/last-wqe-reached-element",
		 .doc = DOC_LAST_WQE " ... " DOC_ELEMENT,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "b, in RTS on the SRQ with no receive of its own "
			 "outstanding, moved to ERR by ibv_modify_qp: 0, "
			 "IBV_EVENT_QP_LAST_WQE_REACHED, element.qp b.  The page "
			 "does not say when it comes; our reading: a QP on an "
			 "SRQ that enters the error state has reached its last "
			 "WQE, no receive of the SRQ being taken by it after",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(0) } },
	  .check = last_wqe_element,
	  .traffic = true },
	{ .c = { .id = "verbs/get_async_event/access-err-at-responder",
		 .doc = DOC_ACCESS_ERR " ... " DOC_ELEMENT,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "an RDMA Write from a to b's region under an rkey of "
			 "b's MR with its key byte changed (no MR has it): 0, "
			 "IBV_EVENT_QP_ACCESS_ERR, element.qp b.  Our reading: "
			 "the violation is local to b, the responder, whose "
			 "QP it takes to the error state",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(0) } },
	  .check = access_err_element,
	  .traffic = true },
	{ .c = { .id = "verbs/get_async_event/one-of-two-threads",
		 .doc = DOC_THREADS,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "two threads in the call on one context, then the SRQ "
			 "below its limit: one of them returns 0 with that "
			 "event, the other has not returned after 100 ms "
			 "(scaled); a's send queue then drained: it returns 0 "
			 "with IBV_EVENT_SQ_DRAINED",
		 .needs = RC_NEED_DEVICE | RC_NEED_CA,
		 .contract = { RC_RETURNS(0) } },
	  .check = one_of_two_threads,
	  .traffic = true },
};

static const struct ae_row ack_rows[] = {
	{ .c = { .id = "verbs/ack_async_event/destroy-after-ack",
		 .doc = DOC_ACK,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the SRQ limit event got and acknowledged, the QP on "
			 "the SRQ destroyed: ibv_destroy_srq returns 0; an ack "
			 "not counted makes it wait for ever (the watchdog's "
			 "HANG)",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_ANY_RETURN } },
	  .check = destroy_after_ack,
	  .traffic = true },
	{ .c = { .id = "verbs/ack_async_event/qp-event-counted",
		 .doc = DOC_ACK " ... " DOC_WAIT_ACK,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a QP's event (SQ drained) got and acknowledged: "
			 "ibv_destroy_qp of that QP returns 0; an ack not "
			 "counted on the QP makes it wait for ever (HANG)",
		 .needs = RC_NEED_DEVICE | RC_NEED_CA,
		 .contract = { RC_ANY_RETURN } },
	  .check = qp_event_counted,
	  .traffic = true },
	{ .c = { .id = "verbs/ack_async_event/cq-event-counted",
		 .doc = DOC_ACK " ... " DOC_WAIT_ACK,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a CQ's event (the overrun) got and acknowledged, the "
			 "QPs on the CQ destroyed: ibv_destroy_cq returns 0; an "
			 "ack not counted on the CQ makes it wait for ever",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_ANY_RETURN } },
	  .check = cq_event_counted,
	  .traffic = true },
	{ .c = { .id = "verbs/ack_async_event/qp-destroy-waits-for-ack",
		 .doc = DOC_WAIT_ACK,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a QP's event (SQ drained) got, not acknowledged: "
			 "ibv_destroy_qp (in a thread) has not returned after "
			 "100 ms (scaled); the event acknowledged, it returns 0",
		 .needs = RC_NEED_DEVICE | RC_NEED_CA,
		 .contract = { RC_RETURNS(0) } },
	  .check = qp_destroy_waits,
	  .traffic = true },
	{ .c = { .id = "verbs/ack_async_event/destroy-waits-for-every-ack",
		 .doc = DOC_WAIT_ACK,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "two events of one QP (SQ drained, back to RTS, "
			 "drained again), one acknowledged: ibv_destroy_qp (in "
			 "a thread) has not returned after 100 ms (scaled); "
			 "the second acknowledged, it returns 0",
		 .needs = RC_NEED_DEVICE | RC_NEED_CA,
		 .contract = { RC_RETURNS(0) } },
	  .check = destroy_waits_for_every_ack,
	  .traffic = true },
};

/* @ev is of @type (@name), and @element_right, or what is wrong */
static void expect_event(struct rc_ctx *ctx, const struct ibv_async_event *ev,
			 enum ibv_event_type type, const char *name,
			 bool element_right, const char *element_wrong)
{
	if (ev->event_type != type)
		rc_obs_violation(ctx->obs, "event_type %d, not %s (%d)",
				 ev->event_type, name, type);
	else if (!element_right)
		rc_obs_violation(ctx->obs, "%s", element_wrong);
}

static void check_srq_event(struct rc_ctx *ctx, struct vt *t,
			    const struct ibv_async_event *ev)
{
	expect_event(ctx, ev, IBV_EVENT_SRQ_LIMIT_REACHED,
		     "IBV_EVENT_SRQ_LIMIT_REACHED", ev->element.srq == t->srq,
		     "element.srq: not the SRQ below its limit");
}

/* a, in RTS with nothing posted, to SQD with the SQD.drained event asked
 * for (set-up: BROKEN when refused) */
static bool drain_a(struct rc_ctx *ctx, struct vt *t)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_SQD,
				 .en_sqd_async_notify = 1 };
	int err;

	if (!rc_need_call(ctx, (const void *)ctx->ops->ibv_modify_qp,
			  "ibv_modify_qp"))
		return false;
	err = ctx->ops->ibv_modify_qp(
		t->a, &a, IBV_QP_STATE | IBV_QP_EN_SQD_ASYNC_NOTIFY);
	if (!err)
		return true;
	rc_obs_state(ctx->obs, RC_STATE_BROKEN,
		     "ibv_modify_qp to SQD failed (set-up): %s",
		     rc_errno_name(err));
	return false;
}

/* The send CQ resized to 1 entry, then one signaled RDMA Write more than
 * the size granted, none polled (set-up: BROKEN when refused) */
static bool overrun_scq(struct rc_ctx *ctx, struct vt *t)
{
	struct ibv_sge sg = vt_sge(t, 0, 0, 8);
	struct ibv_send_wr wr, *bad;
	int i, n, err;

	if (!rc_need_call(ctx, (const void *)ctx->ops->ibv_resize_cq,
			  "ibv_resize_cq"))
		return false;
	err = ctx->ops->ibv_resize_cq(t->scq, 1);
	if (err == EOPNOTSUPP) {
		rc_obs_state(ctx->obs, RC_STATE_UNSUPPORTED,
			     "the device resizes no CQ (EOPNOTSUPP), and the "
			     "overrun is of the CQ resized to 1");
		return false;
	}
	if (err) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_resize_cq to 1 failed (set-up): %s",
			     rc_errno_name(err));
		return false;
	}
	n = t->scq->cqe + 1;
	if (n > (int)t->cap.max_send_wr) {
		rc_obs_state(ctx->obs, RC_STATE_UNSUPPORTED,
			     "the CQ resized to 1 holds %d: more than the "
			     "%u send WRs granted could overrun",
			     t->scq->cqe, t->cap.max_send_wr);
		return false;
	}
	for (i = 0; i < n; i++) {
		wr = vt_wr(t, IBV_WR_RDMA_WRITE, 300 + i, &sg, 1);
		wr.wr.rdma.remote_addr = vt_addr(t, 2, 8 * i);
		wr.wr.rdma.rkey = t->bmr->rkey;
		err = ctx->ops->ibv_post_send(t->a, &wr, &bad);
		if (err) {
			rc_obs_state(ctx->obs, RC_STATE_BROKEN,
				     "ibv_post_send of RDMA Write %d of %d "
				     "failed (set-up): %s",
				     i + 1, n, rc_errno_name(err));
			return false;
		}
	}
	return true;
}

static void qp_event_element(const struct ae_row *row, struct rc_ctx *ctx,
			     struct vl *l, struct vt *t)
{
	struct ibv_async_event ev;

	if (!drain_a(ctx, t) ||
	    !vs_get_ready(ctx, vs_ctx_of(t, IBV_EVENT_SQ_DRAINED), &ev))
		return;
	expect_event(ctx, &ev, IBV_EVENT_SQ_DRAINED, "IBV_EVENT_SQ_DRAINED",
		     ev.element.qp == t->a,
		     "element.qp: not the QP moved to SQD");
	ctx->ops->ibv_ack_async_event(&ev);
}

static void cq_event_element(const struct ae_row *row, struct rc_ctx *ctx,
			     struct vl *l, struct vt *t)
{
	struct ibv_async_event ev;

	if (!overrun_scq(ctx, t) ||
	    !vs_get_ready(ctx, vs_ctx_of(t, IBV_EVENT_CQ_ERR), &ev))
		return;
	expect_event(ctx, &ev, IBV_EVENT_CQ_ERR, "IBV_EVENT_CQ_ERR",
		     ev.element.cq == t->scq, "element.cq: not the CQ overrun");
	ctx->ops->ibv_ack_async_event(&ev);
}

static void last_wqe_element(const struct ae_row *row, struct rc_ctx *ctx,
			     struct vl *l, struct vt *t)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_ERR };
	struct ibv_async_event ev;
	int err;

	err = ctx->ops->ibv_modify_qp(t->b, &a, IBV_QP_STATE);
	if (err) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_modify_qp of b to ERR failed (set-up): %s",
			     rc_errno_name(err));
		return;
	}
	if (!vs_get_ready(ctx, vs_ctx_of(t, IBV_EVENT_QP_LAST_WQE_REACHED),
			  &ev))
		return;
	expect_event(ctx, &ev, IBV_EVENT_QP_LAST_WQE_REACHED,
		     "IBV_EVENT_QP_LAST_WQE_REACHED", ev.element.qp == t->b,
		     "element.qp: not the QP on the SRQ moved to ERR");
	ctx->ops->ibv_ack_async_event(&ev);
}

static void access_err_element(const struct ae_row *row, struct rc_ctx *ctx,
			       struct vl *l, struct vt *t)
{
	struct ibv_sge sg = vt_sge(t, 0, 0, 8);
	struct ibv_send_wr wr = vt_wr(t, IBV_WR_RDMA_WRITE, 1, &sg, 1), *bad;
	struct ibv_async_event ev;
	int err, others = 0;

	wr.wr.rdma.remote_addr = vt_addr(t, 2, 0);
	wr.wr.rdma.rkey = t->bmr->rkey ^ 0xa5;
	err = ctx->ops->ibv_post_send(t->a, &wr, &bad);
	if (err) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_post_send of the RDMA Write failed (set-up): "
			     "%s",
			     rc_errno_name(err));
		return;
	}
	/* b's error state has events of its own (last WQE, on the SRQ) */
	if (!vs_take_until(ctx, vs_ctx_of(t, IBV_EVENT_QP_ACCESS_ERR),
			   IBV_EVENT_QP_ACCESS_ERR, &ev, &others))
		return;
	if (ev.element.qp != t->b)
		rc_obs_violation(ctx->obs,
				 "element.qp: not b, the responder (after %d "
				 "other events)",
				 others);
	ctx->ops->ibv_ack_async_event(&ev);
}

static void qp_event_counted(const struct ae_row *row, struct rc_ctx *ctx,
			     struct vl *l, struct vt *t)
{
	struct ibv_async_event ev;
	int err;

	if (!drain_a(ctx, t) || !vs_provoked(ctx, t, IBV_EVENT_SQ_DRAINED,
					     "IBV_EVENT_SQ_DRAINED", &ev))
		return;
	RC_OBSERVE(ctx, (ctx->ops->ibv_ack_async_event(&ev), 0));
	err = ctx->ops->ibv_destroy_qp(t->a);
	if (err)
		rc_obs_violation(ctx->obs, "ibv_destroy_qp: %s",
				 rc_errno_name(err));
	else
		t->a = NULL;
}

static void cq_event_counted(const struct ae_row *row, struct rc_ctx *ctx,
			     struct vl *l, struct vt *t)
{
	struct ibv_async_event ev;
	int err;

	if (!overrun_scq(ctx, t) ||
	    !vs_provoked(ctx, t, IBV_EVENT_CQ_ERR, "IBV_EVENT_CQ_ERR", &ev))
		return;
	RC_OBSERVE(ctx, (ctx->ops->ibv_ack_async_event(&ev), 0));
	/* the QPs on the CQ, which it may not outlive */
	err = ctx->ops->ibv_destroy_qp(t->a);
	t->a = NULL;
	err = err ? err : ctx->ops->ibv_destroy_qp(t->b);
	t->b = NULL;
	if (err) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_destroy_qp failed (set-up): %s",
			     rc_errno_name(err));
		return;
	}
	err = ctx->ops->ibv_destroy_cq(t->scq);
	if (err)
		rc_obs_violation(ctx->obs, "ibv_destroy_cq: %s",
				 rc_errno_name(err));
	else
		t->scq = NULL;
}

static long long destroy_qp(struct rc_ctx *ctx, void *qp)
{
	return ctx->ops->ibv_destroy_qp(qp);
}

/*
 * a's SQ drained @n times (SQD, back to RTS, SQD ...), its events taken
 * and @acked of them acknowledged; then ibv_destroy_qp in a thread, which
 * has not returned after VT_QUIET_MS, and returns once the rest are.
 */
static void destroy_waits(struct rc_ctx *ctx, struct vt *t, int n, int acked)
{
	struct ibv_qp_attr rts = { .qp_state = IBV_QPS_RTS };
	struct ibv_async_event ev[2];
	struct vs_bg d;
	int i, got;

	for (got = 0; got < n; got++) {
		if (got && ctx->ops->ibv_modify_qp(t->a, &rts, IBV_QP_STATE)) {
			rc_obs_state(ctx->obs, RC_STATE_BROKEN,
				     "ibv_modify_qp SQD to RTS failed "
				     "(set-up): %m");
			break;
		}
		if (!drain_a(ctx, t) ||
		    !vs_provoked(ctx, t, IBV_EVENT_SQ_DRAINED,
				 "IBV_EVENT_SQ_DRAINED", &ev[got]))
			break;
	}
	for (i = 0; i < acked && i < got; i++)
		ctx->ops->ibv_ack_async_event(&ev[i]);
	if (got < n || !vs_bg_start(&d, ctx, destroy_qp, t->a)) {
		for (; i < got; i++)
			ctx->ops->ibv_ack_async_event(&ev[i]);
		return;
	}
	t->a = NULL;
	if (vs_bg_done_within(&d, VT_QUIET_MS))
		rc_obs_violation(ctx->obs,
				 "ibv_destroy_qp: returned with %d of its %d "
				 "events acknowledged",
				 acked, n);
	for (; i < got; i++)
		ctx->ops->ibv_ack_async_event(&ev[i]);
	/* not acknowledged as counted: the watchdog's HANG */
	vs_bg_join(&d);
}

static void qp_destroy_waits(const struct ae_row *row, struct rc_ctx *ctx,
			     struct vl *l, struct vt *t)
{
	destroy_waits(ctx, t, 1, 0);
}

static void destroy_waits_for_every_ack(const struct ae_row *row,
					struct rc_ctx *ctx, struct vl *l,
					struct vt *t)
{
	destroy_waits(ctx, t, 2, 1);
}

static void srq_limit_element(const struct ae_row *row, struct rc_ctx *ctx,
			      struct vl *l, struct vt *t)
{
	struct ibv_async_event ev;

	if (!vs_below_limit(ctx, t) ||
	    !vs_get_ready(ctx, vs_ctx_of(t, IBV_EVENT_SRQ_LIMIT_REACHED), &ev))
		return;
	check_srq_event(ctx, t, &ev);
	ctx->ops->ibv_ack_async_event(&ev);
}

struct getter {
	struct ibv_context *c;
	struct ibv_async_event ev;
};

static long long get_event(struct rc_ctx *ctx, void *p)
{
	struct getter *g = p;

	return ctx->ops->ibv_get_async_event(g->c, &g->ev);
}

static void blocks_until_event(const struct ae_row *row, struct rc_ctx *ctx,
			       struct vl *l, struct vt *t)
{
	/* static: a set-up that fails leaves the thread blocked, past the
	 * row's return (the row's process then ends with it) */
	static struct getter g;
	static struct vs_bg b;

	g.c = vs_ctx_of(t, IBV_EVENT_SRQ_LIMIT_REACHED);
	if (!vs_bg_start(&b, ctx, get_event, &g))
		return;
	if (vs_bg_done_within(&b, VT_QUIET_MS)) {
		vs_bg_join(&b);
		rc_obs_violation(ctx->obs, "returned with no event there");
		if (!ctx->obs->ret)
			ctx->ops->ibv_ack_async_event(&g.ev);
		return;
	}
	if (!vs_below_limit(ctx, t))
		return;
	if (!vs_bg_done_within(&b, VS_EVENT_MS)) {
		rc_obs_violation(ctx->obs,
				 "event: not returned within %d ms "
				 "of the SRQ below its limit",
				 rc_scaled_ms(ctx, VS_EVENT_MS));
		return;
	}
	vs_bg_join(&b);
	if (ctx->obs->ret)
		return;
	check_srq_event(ctx, t, &g.ev);
	ctx->ops->ibv_ack_async_event(&g.ev);
}

/* Which of @g's two calls has returned within @ms (scaled): 0 or 1, or
 * -1 when neither has */
static int first_done(struct vs_bg g[2], int ms)
{
	double end = rc_now_ms() + rc_scaled_ms(g[0].ctx, ms);

	do {
		if (vs_bg_done_within(&g[0], 0))
			return 0;
		if (vs_bg_done_within(&g[1], 0))
			return 1;
		usleep(5000);
	} while (rc_now_ms() < end);
	return -1;
}

static void one_of_two_threads(const struct ae_row *row, struct rc_ctx *ctx,
			       struct vl *l, struct vt *t)
{
	/* static: a thread still in the call when the row gives up ends
	 * with the row's process */
	static struct getter g[2];
	static struct vs_bg b[2];
	int first;

	g[0].c = g[1].c = t->l.ctx;
	if (!vs_bg_start(&b[0], ctx, get_event, &g[0]) ||
	    !vs_bg_start(&b[1], ctx, get_event, &g[1]))
		return;
	if (first_done(b, VT_QUIET_MS) >= 0) {
		rc_obs_violation(ctx->obs, "returned with no event there");
		return;
	}
	if (!vs_below_limit(ctx, t))
		return;
	first = first_done(b, VS_EVENT_MS);
	if (first < 0) {
		rc_obs_violation(ctx->obs,
				 "event: neither thread returned within %d ms "
				 "of the SRQ below its limit",
				 rc_scaled_ms(ctx, VS_EVENT_MS));
		return;
	}
	vs_bg_join(&b[first]);
	if (ctx->obs->ret)
		return;
	check_srq_event(ctx, t, &g[first].ev);
	ctx->ops->ibv_ack_async_event(&g[first].ev);
	if (vs_bg_done_within(&b[!first], VT_QUIET_MS)) {
		rc_obs_violation(ctx->obs,
				 "both threads returned for one event");
		return;
	}
	if (!drain_a(ctx, t))
		return;
	if (!vs_bg_done_within(&b[!first], VS_EVENT_MS)) {
		rc_obs_violation(ctx->obs,
				 "event: the other thread not returned within "
				 "%d ms of the SQ drained",
				 rc_scaled_ms(ctx, VS_EVENT_MS));
		return;
	}
	vs_bg_join(&b[!first]);
	if (ctx->obs->ret)
		return;
	expect_event(ctx, &g[!first].ev, IBV_EVENT_SQ_DRAINED,
		     "IBV_EVENT_SQ_DRAINED", g[!first].ev.element.qp == t->a,
		     "element.qp: not the QP moved to SQD");
	ctx->ops->ibv_ack_async_event(&g[!first].ev);
}

static void nonblocking_empty(const struct ae_row *row, struct rc_ctx *ctx,
			      struct vl *l, struct vt *t)
{
	struct ibv_async_event ev;
	int flags = fcntl(l->ctx->async_fd, F_GETFL);

	if (flags < 0 ||
	    fcntl(l->ctx->async_fd, F_SETFL, flags | O_NONBLOCK) < 0) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN, "fcntl: %m");
		return;
	}
	RC_OBSERVE(ctx, ctx->ops->ibv_get_async_event(l->ctx, &ev));
	if (!ctx->obs->ret)
		ctx->ops->ibv_ack_async_event(&ev);
}

static void destroy_after_ack(const struct ae_row *row, struct rc_ctx *ctx,
			      struct vl *l, struct vt *t)
{
	struct ibv_async_event ev;
	int err;

	if (!vs_below_limit(ctx, t))
		return;
	if (!vs_provoked(ctx, t, IBV_EVENT_SRQ_LIMIT_REACHED,
			 "IBV_EVENT_SRQ_LIMIT_REACHED", &ev))
		return;
	RC_OBSERVE(ctx, (ctx->ops->ibv_ack_async_event(&ev), 0));
	err = ctx->ops->ibv_destroy_qp(t->b);
	t->b = NULL;
	err = err ? err : ctx->ops->ibv_destroy_srq(t->srq);
	if (err)
		rc_obs_violation(ctx->obs, "ibv_destroy_srq: %s",
				 rc_errno_name(err));
	else
		t->srq = NULL;
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct ae_row *row = r;
	struct vs_env e;

	if (!vs_async_calls(ctx))
		return;
	if (vs_up(ctx, &e, row->traffic, VL_CONTEXT))
		row->check(row, ctx, vs_ladder(&e), vs_pair(&e));
	vs_down(ctx, &e);
}

RC_TABLE_GROUP(get_group, "ibv_get_async_event", RC_CONV_M1_ERRNO, "verbs",
	       get_rows, run);

RC_TABLE_GROUP(ack_group, "ibv_ack_async_event", RC_CONV_VALUE, "verbs",
	       ack_rows, run);
