// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Two threads on one handle of the data path, each making the call under
 * test over and over at once (vs_bg, verbs_srq.h), in 8 rounds: what each WR and each
 * completion becomes must not depend on a second thread.  The pages say
 * nothing of threads but for the async events; what the rows hold is the
 * pages' own promise made for every call, whoever makes it (our reading):
 * - post_send/two-threads-each-posted: a list of 16 SEND_WITH_IMMs from
 *   each on a, the immediate the WR's number: each of the 32 arrives at
 *   b once, and a completes each once ("posts the linked list of work
 *   requests")
 * - post_recv/two-threads-each-posted: a list of 16 receives from each
 *   on b: 32 SENDs fill each once
 * - poll_cq/two-threads-each-once: 32 completions in b's CQ, both threads
 *   polling 4 at a time until it is empty: each comes out once ("Each
 *   polled completion is removed from the CQ and cannot be returned to
 *   it")
 * Both threads start their calls together (a spin), and a list is one
 * call, so an implementation that does not serialize them has all of it
 * to lose a race in.
 */
#include <endian.h>
#include <string.h>

#include "verbs_srq.h"

#define DOC_POST                                                  \
	"ibv_post_send() posts the linked list of work requests " \
	"(WRs) starting with wr to the send queue of the queue pair qp."
#define DOC_POST_RECV                                                   \
	"ibv_post_recv() posts the linked list of work requests (WRs) " \
	"starting with wr to the receive queue of the queue pair qp."
#define DOC_REMOVED                                          \
	"Each polled completion is removed from the CQ and " \
	"cannot be returned to it."

/* WRs per thread; both threads' fit the queues and CQs vt_up makes */
#define EACH 16
#define BOTH (2 * EACH)
/* entries a poll asks for */
#define PER_POLL 4
/* how many times a row does it all */
#define ROUNDS 8

enum what { W_SEND, W_RECV, W_POLL };

struct thr_row {
	struct rc_case c;
	enum what what;
};

static const struct thr_row send_rows[] = {
	{ .c = { .id = "verbs/post_send/two-threads-each-posted",
		 .doc = DOC_POST,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "two threads post a list of 16 SEND_WITH_IMMs each "
			 "on a at once, the immediate the WR's number, 8 "
			 "times: 0; each of the 32 arrives at b once, and a "
			 "completes each once",
		 .needs = RC_NEED_DEVICE | RC_NEED_IMM,
		 .contract = { RC_RETURNS(0) } },
	  .what = W_SEND },
};

static const struct thr_row recv_rows[] = {
	{ .c = { .id = "verbs/post_recv/two-threads-each-posted",
		 .doc = DOC_POST_RECV,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "two threads post a list of 16 receives each on b "
			 "at once, 8 times: 0; 32 SENDs then complete each of "
			 "them once",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(0) } },
	  .what = W_RECV },
};

static const struct thr_row poll_rows[] = {
	{ .c = { .id = "verbs/poll_cq/two-threads-each-once",
		 .doc = DOC_REMOVED,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "32 receive completions in b's CQ; two threads poll "
			 "it 4 entries a call until it gives 0, 8 times: each "
			 "of the 32 comes out of one call of one thread, and "
			 "the last calls give 0",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(0) } },
	  .what = W_POLL },
};

struct worker {
	struct vt *t;
	int first; /* its first WR's number, 1 or EACH + 1 */
	enum what what;
	int *ready; /* both threads start their calls together */
	long long ret; /* what its calls returned (call_of's) */
	/* W_POLL: the wr_ids the thread took */
	uint64_t got[BOTH];
	int ngot;
};

/* EACH SEND_WITH_IMMs on a in one list: its return */
static long long sends(struct worker *w, struct rc_ctx *ctx)
{
	struct ibv_sge sg = vt_sge(w->t, 0, 0, 8);
	struct ibv_send_wr wr[EACH], *bad;
	int i;

	for (i = 0; i < EACH; i++) {
		wr[i] = vt_wr(w->t, IBV_WR_SEND_WITH_IMM, w->first + i, &sg, 1);
		wr[i].imm_data = htobe32(w->first + i);
		wr[i].next = i + 1 < EACH ? &wr[i + 1] : NULL;
	}
	return ctx->ops->ibv_post_send(w->t->a, wr, &bad);
}

/* EACH receives on b in one list, each its own 64 bytes of region 1:
 * its return */
static long long recvs(struct worker *w, struct rc_ctx *ctx)
{
	struct ibv_sge sg[EACH];
	struct ibv_recv_wr wr[EACH], *bad;

	vt_recv_list(w->t, wr, sg, EACH, 64 * (w->first - 1), 64, w->first);
	return ctx->ops->ibv_post_recv(w->t->b, wr, &bad);
}

/* b's CQ polled PER_POLL entries a call until it gives 0: that 0, or
 * the first negative */
static long long polls(struct worker *w, struct rc_ctx *ctx)
{
	struct ibv_wc wc[PER_POLL];
	int n, i;

	while ((n = ctx->ops->ibv_poll_cq(w->t->rcq, PER_POLL, wc)) > 0)
		for (i = 0; i < n && w->ngot < BOTH; i++)
			w->got[w->ngot++] = wc[i].wr_id;
	return n;
}

static long long (*const call_of[])(struct worker *, struct rc_ctx *) = {
	[W_SEND] = sends,
	[W_RECV] = recvs,
	[W_POLL] = polls,
};

/* A thread's calls (vs_bg observes what they return), kept in the
 * worker too: the observation is the last thread's to end */
static long long work(struct rc_ctx *ctx, void *p)
{
	struct worker *w = p;

	/* a spin, not a barrier: a woken thread starts some 100 us after
	 * the other under TCG, when that one is long done */
	__atomic_add_fetch(w->ready, 1, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(w->ready, __ATOMIC_SEQ_CST) < 2)
		;
	w->ret = call_of[w->what](w, ctx);
	return w->ret;
}

/* Each of 1..BOTH exactly once in @ids (@n of them), else a violation */
static void each_once(struct rc_ctx *ctx, const char *what, const uint64_t *ids,
		      int n)
{
	int seen[BOTH + 1] = { 0 }, i;

	for (i = 0; i < n; i++) {
		if (ids[i] < 1 || ids[i] > BOTH) {
			rc_obs_violation(ctx->obs, "%s: %llu, no WR's", what,
					 (unsigned long long)ids[i]);
			return;
		}
		if (seen[ids[i]]++) {
			rc_obs_violation(ctx->obs, "%s: WR %llu twice", what,
					 (unsigned long long)ids[i]);
			return;
		}
	}
	if (n != BOTH)
		rc_obs_violation(ctx->obs, "%s: %d of the %d WRs", what, n,
				 BOTH);
}

/* @n completions of @cq, their wr_ids (W_SEND: the immediates, when
 * @imm) in @ids; false (the row violated) when fewer come */
static bool collect(struct rc_ctx *ctx, struct ibv_cq *cq, const char *who,
		    bool imm, uint64_t *ids, int n)
{
	struct ibv_wc wc[BOTH];
	int got = vt_poll(ctx, cq, wc, n), i;

	for (i = 0; i < got; i++) {
		if (wc[i].status != IBV_WC_SUCCESS) {
			rc_obs_violation(ctx->obs, "%s.status: %s (WR %llu)",
					 who, ibv_wc_status_str(wc[i].status),
					 (unsigned long long)wc[i].wr_id);
			return false;
		}
		ids[i] = imm ? be32toh(wc[i].imm_data) : wc[i].wr_id;
	}
	each_once(ctx, who, ids, got);
	return got == n;
}

/* The set-up of each row before its threads start */
static bool before(struct rc_ctx *ctx, struct vt *t, enum what what)
{
	struct ibv_sge sg = vt_sge(t, 0, 0, 8);
	struct ibv_send_wr wr, *bad;
	uint64_t ids[BOTH];
	int i;

	for (i = 0; i < BOTH && what != W_RECV; i++)
		if (vt_recv(ctx, t, 1 + i, 1, 64)) {
			rc_obs_state(ctx->obs, RC_STATE_BROKEN,
				     "ibv_post_recv %d failed (set-up): %m",
				     i + 1);
			return false;
		}
	if (what != W_POLL)
		return true;
	/* the receives' completions in b's CQ: a's SEND completions, then
	 * a READ after them (vt_b_settled) */
	for (i = 0; i < BOTH; i++) {
		wr = vt_wr(t, IBV_WR_SEND, 1 + i, &sg, 1);
		if (ctx->ops->ibv_post_send(t->a, &wr, &bad)) {
			rc_obs_state(ctx->obs, RC_STATE_BROKEN,
				     "ibv_post_send %d failed (set-up): %m",
				     i + 1);
			return false;
		}
	}
	if (!collect(ctx, t->scq, "send", false, ids, BOTH)) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "the SENDs did not all complete (set-up)");
		return false;
	}
	return vt_b_settled(ctx, t);
}

/* After the threads: where their WRs took effect */
static void after(struct rc_ctx *ctx, struct vt *t, enum what what,
		  struct worker w[2])
{
	struct ibv_sge sg = vt_sge(t, 0, 0, 8);
	struct ibv_send_wr wr, *bad;
	uint64_t ids[BOTH], all[2 * BOTH];
	int i;

	for (i = 0; i < 2; i++)
		if (what == W_POLL ? w[i].ret < 0 : w[i].ret != 0) {
			rc_obs_violation(ctx->obs,
					 "thread %d: its call "
					 "returned %lld",
					 i + 1, w[i].ret);
			return;
		}
	switch (what) {
	case W_SEND:
		if (collect(ctx, t->rcq, "recv", true, ids, BOTH))
			collect(ctx, t->scq, "send", false, ids, BOTH);
		break;
	case W_RECV:
		for (i = 0; i < BOTH; i++) {
			/* numbered 1..BOTH as each_once counts them */
			wr = vt_wr(t, IBV_WR_SEND, 1 + i, &sg, 1);
			if (ctx->ops->ibv_post_send(t->a, &wr, &bad)) {
				rc_obs_state(ctx->obs, RC_STATE_BROKEN,
					     "ibv_post_send %d failed "
					     "(set-up): %m",
					     i + 1);
				return;
			}
		}
		/* and a's completions, or the next round's SENDs find a's
		 * CQ full and its send queue not yet free (seen on trixie:
		 * ENOSPC at the 32nd SEND of a later round) */
		if (collect(ctx, t->rcq, "recv", false, ids, BOTH))
			collect(ctx, t->scq, "send", false, ids, BOTH);
		break;
	case W_POLL:
		memcpy(all, w[0].got, w[0].ngot * sizeof(all[0]));
		memcpy(all + w[0].ngot, w[1].got, w[1].ngot * sizeof(all[0]));
		each_once(ctx, "polled", all, w[0].ngot + w[1].ngot);
		break;
	}
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct thr_row *row = r;
	struct vt_opts o = { .cap = { .max_send_wr = BOTH,
				      .max_recv_wr = BOTH,
				      .max_send_sge = 1,
				      .max_recv_sge = 1 } };
	/* static: a thread that never returns ends with the row's process */
	static struct worker w[2];
	static struct vs_bg b[2];
	static int ready;
	struct vt t;
	int i, round, started = 2;

	if (!vt_up(ctx, &t, &o))
		goto out;
	/* rounds, so that a race the threads may lose has its chances */
	for (round = 0; round < ROUNDS && started == 2; round++) {
		if (!before(ctx, &t, row->what))
			break;
		ready = 0;
		for (i = started = 0; i < 2; i++) {
			w[i] = (struct worker){ .t = &t,
						.first = 1 + i * EACH,
						.what = row->what,
						.ready = &ready };
			if (!vs_bg_start(&b[i], ctx, work, &w[i]))
				break;
			started++;
		}
		/* the watchdog ends a thread that never returns (one whose
		 * twin did not start spins: BROKEN is recorded then) */
		for (i = 0; i < started; i++)
			vs_bg_join(&b[i]);
		if (started < 2 || ctx->obs->state != RC_STATE_RAN)
			break;
		after(ctx, &t, row->what, w);
		if (ctx->obs->violation[0])
			break;
	}
out:
	vt_down(ctx, &t);
}

RC_TABLE_GROUP(send_group, "ibv_post_send", RC_CONV_ERRNO_RET, "verbs",
	       send_rows, run);
RC_TABLE_GROUP(recv_group, "ibv_post_recv", RC_CONV_ERRNO_RET, "verbs",
	       recv_rows, run);
RC_TABLE_GROUP(poll_group, "ibv_poll_cq", RC_CONV_NEG, "verbs", poll_rows, run);
