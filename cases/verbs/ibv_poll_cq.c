// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_poll_cq(3): "polls the CQ cq for work completions and returns the
 * first num_entries (or all available completions if the CQ contains
 * fewer than this number) in the array wc"; "Each polled completion is
 * removed from the CQ and cannot be returned to it."  "On success,
 * ibv_poll_cq() returns a non-negative value equal to the number of
 * completions found."
 *
 * Completions are made by SENDs from a to b (verbs_traffic.h), all of
 * them in b's CQ before the call: a's SEND completions are waited for,
 * then a READ after them (vt_b_settled; siw completes a SEND before b
 * has it).
 * - empty: a CQ with nothing in it gives 0
 * - fewer-than-asked: three in the CQ, eight asked: three, in order
 * - more-than-asked: three in, two asked: the first two; then the third
 *   alone; then 0
 * - zero-entries: num_entries 0 gives 0 and takes nothing
 */
#include <string.h>

#include "verbs_traffic.h"

#define DOC_POLL                                                              \
	"ibv_poll_cq() polls the CQ cq for work completions and "             \
	"returns the first num_entries (or all available completions if the " \
	"CQ contains fewer than this number) in the array wc."
#define DOC_REMOVED                                          \
	"Each polled completion is removed from the CQ and " \
	"cannot be returned to it."
#define DOC_RET                                                   \
	"On success, ibv_poll_cq() returns a non-negative value " \
	"equal to the number of completions found."

#define MADE 3
#define ROOM 8

struct poll_row;
typedef void poll_check(const struct poll_row *row, struct rc_ctx *ctx,
			struct vt *t);

struct poll_row {
	struct rc_case c;
	poll_check *check;
	int made; /* completions in b's CQ before the call */
	int asked; /* num_entries */
};

static poll_check poll_once, more_than_asked;

static const struct poll_row rows[] = {
	{ .c = { .id = "verbs/poll_cq/empty",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "no completion in the CQ: 0 found",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(0) } },
	  .check = poll_once,
	  .made = 0,
	  .asked = ROOM },
	{ .c = { .id = "verbs/poll_cq/fewer-than-asked",
		 .doc = DOC_POLL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "three receive completions, num_entries 8: all three, "
			 "in the order their messages came",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(MADE) } },
	  .check = poll_once,
	  .made = MADE,
	  .asked = ROOM },
	{ .c = { .id = "verbs/poll_cq/exactly-as-many",
		 .doc = DOC_POLL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "three completions, num_entries 3: all three",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(MADE) } },
	  .check = poll_once,
	  .made = MADE,
	  .asked = MADE },
	{ .c = { .id = "verbs/poll_cq/more-than-asked",
		 .doc = DOC_REMOVED,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "three completions, num_entries 2: the first two; a "
			 "second call the third alone, a third call 0",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(2) } },
	  .check = more_than_asked,
	  .made = MADE,
	  .asked = 2 },
	{ .c = { .id = "verbs/poll_cq/zero-entries",
		 .doc = DOC_POLL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "num_entries 0 with a completion in the CQ: 0, and "
			 "the completion is still there for the next call",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(0) } },
	  .check = more_than_asked,
	  .made = 1,
	  .asked = 0 },
};

/* @n SENDs from a to b, every one of them complete on both sides, b's
 * completions in its CQ */
static bool make(struct rc_ctx *ctx, struct vt *t, int n)
{
	struct ibv_sge sg[MADE];
	struct ibv_send_wr wr[MADE], *bad;
	struct ibv_wc wc[MADE];
	int i;

	for (i = 0; i < n; i++) {
		sg[i] = vt_sge(t, 0, 0, 8 + i);
		wr[i] = vt_wr(t, IBV_WR_SEND, 100 + i, &sg[i], 1);
		wr[i].next = i + 1 < n ? &wr[i + 1] : NULL;
		if (!vt_recv_ready(ctx, t, 1 + i, 64))
			return false;
	}
	if (n && ctx->ops->ibv_post_send(t->a, wr, &bad)) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_post_send failed (set-up): %m");
		return false;
	}
	if (vt_poll(ctx, t->scq, wc, n) != n) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "the SENDs did not complete (set-up)");
		return false;
	}
	return vt_b_settled(ctx, t);
}

/* @wc[0..n) are receives first + 0, 1, ... */
static bool in_order(struct rc_ctx *ctx, struct vt *t, const struct ibv_wc *wc,
		     int n, int first)
{
	int i;

	for (i = 0; i < n; i++)
		if (!vt_wc_check(ctx, "wc", &wc[i],
				 &(struct vt_wc){ .wr_id = 1 + first + i,
						  .opcode = IBV_WC_RECV,
						  .byte_len = 8 + first + i,
						  .qp_num = t->b->qp_num,
						  .src_qp = -1,
						  .wc_flags = 0 }))
			return false;
	return true;
}

static void poll_once(const struct poll_row *row, struct rc_ctx *ctx,
		      struct vt *t)
{
	struct ibv_wc wc[ROOM];

	if (!make(ctx, t, row->made))
		return;
	RC_OBSERVE(ctx, ctx->ops->ibv_poll_cq(t->rcq, row->asked, wc));
	if (ctx->obs->ret == row->made)
		in_order(ctx, t, wc, row->made, 0);
}

static void more_than_asked(const struct poll_row *row, struct rc_ctx *ctx,
			    struct vt *t)
{
	struct ibv_wc wc[ROOM];
	int rest = row->made - row->asked, r;

	if (!make(ctx, t, row->made))
		return;
	RC_OBSERVE(ctx, ctx->ops->ibv_poll_cq(t->rcq, row->asked, wc));
	if (ctx->obs->ret != row->asked || !in_order(ctx, t, wc, row->asked, 0))
		return;
	r = ctx->ops->ibv_poll_cq(t->rcq, ROOM, wc);
	if (r != rest) {
		rc_obs_violation(ctx->obs,
				 "next call: %d completions, not the "
				 "%d left",
				 r, rest);
		return;
	}
	if (!in_order(ctx, t, wc, rest, row->asked))
		return;
	r = ctx->ops->ibv_poll_cq(t->rcq, ROOM, wc);
	if (r != 0)
		rc_obs_violation(ctx->obs,
				 "third call: %d completions, not 0 "
				 "(a polled one came back)",
				 r);
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct poll_row *row = r;
	struct vt_opts o = { 0 };
	struct vt t;

	if (vt_up(ctx, &t, &o))
		row->check(row, ctx, &t);
	vt_down(ctx, &t);
}

RC_TABLE_GROUP(group, "ibv_poll_cq", RC_CONV_NEG, "verbs", rows, run);
