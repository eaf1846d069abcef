// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_post_send(3) and ibv_post_recv(3) where a mistake hides from the
 * usual rows: at the largest limits the device grants, exactly; with a
 * flag that must not mean another; and with the local memory a WR must
 * leave as it was.  The QPs are the traffic rung's (verbs_traffic.h),
 * asked for the device's own limits where a row says so (vt_opts.cap_of).
 * - post_send/rc-sge-device-max, post_recv/rc-scatter-device-max: QPs
 *   asked for the device's max_sge (ibv_query_device(3)) on both queues;
 *   a SEND gathering max_send_sge SGEs lands in a receive scattering into
 *   max_recv_sge, each SGE's bytes where they belong (the row of the
 *   other call posts its WR with the set-up's own call)
 * - post_recv/rc-receive-queue-full: a list of max_recv_wr + 1 receives:
 *   the last fails, bad_wr it; the others take a message each, in order
 * - post_send/rc-inline-largest-granted: the QPs asked for the largest
 *   max_inline_data ibv_create_qp grants (found by asking); exactly that
 *   many bytes inline, from two SGEs in the middle of an SGE array whose
 *   neighbours are not the WR's, overwritten as the call returns: the
 *   bytes as they were arrive, and nothing of the neighbours
 * - post_send/rc-fence-alone: a SEND with IBV_SEND_FENCE and no
 *   IBV_SEND_SIGNALED (sq_sig_all 0) before a signaled one, both of 256
 *   bytes, more than any inline limit here: both arrive, and only the
 *   signaled one completes at the sender
 * - post_send/rc-rdma-read-leaves-local-mr: two RDMA Reads into the same
 *   local buffer: both complete, the second with the remote bytes as
 *   they were when it ran (a Read invalidates nothing of its own)
 * - post_send/rc-rdma-read-zero-length: a Read of no SGE completes, and
 *   nothing of a's memory changes
 * - post_send/rc-solicited-is-the-messages: IBV_SEND_SOLICITED marks the
 *   message, not the sender's completion: a's CQ armed for solicited
 *   events gets none for a plain, a fenced, or a solicited SEND
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verbs_traffic.h"

#define DOC_POST                                                  \
	"ibv_post_send() posts the linked list of work requests " \
	"(WRs) starting with wr to the send queue of the queue pair qp."
#define DOC_RECV                                                        \
	"ibv_post_recv() posts the linked list of work requests (WRs) " \
	"starting with wr to the receive queue of the queue pair qp."
#define DOC_REUSE                                            \
	"However, if the IBV_SEND_INLINE flag was set, the " \
	"buffer can be reused immediately after the call returns."
#define DOC_SIGNALED                                         \
	"IBV_SEND_SIGNALED Set the completion notification " \
	"indicator. Relevant only if QP was created with sq_sig_all=0"
#define DOC_FENCE                                                          \
	"IBV_SEND_FENCE Set the fence indicator. Valid only for QPs with " \
	"Transport Service Type IBV_QPT_RC"
#define DOC_READ "IBV_WR_RDMA_READ"
#define DOC_STOP_RECV                                                         \
	"It stops processing WRs from this list at the first "                \
	"failure (that can be detected immediately while requests are being " \
	"posted), and returns this failing WR through bad_wr."
#define DOC_SEND_UNSOLICITED                                           \
	"All other successful receive completions, or any successful " \
	"send completion is unsolicited."

#define LEN 256
/* each SGE of the SGE rows: 16 bytes, 64 apart in their region */
#define SGE_LEN 16
#define SGE_STEP 64
#define MAX_SGE (VT_REGION / SGE_STEP)
/* the largest max_inline_data asked for when looking for the device's */
#define INLINE_CEILING 65536

struct fit_row;
typedef void fit_check(const struct fit_row *row, struct rc_ctx *ctx,
		       struct vt *t);

struct fit_row {
	struct rc_case c;
	fit_check *check;
	bool (*cap_of)(struct rc_ctx *ctx, struct vt *t,
		       struct ibv_qp_cap *cap);
	bool sig_some; /* a's sq_sig_all 0 */
	bool recv; /* the call under test is the receive */
	bool send_channel; /* a's send CQ on the channel (vt_opts) */
};

static fit_check sge_device_max, inline_largest, fence_alone, read_twice,
	read_zero_length, solicited_is_the_messages, receive_queue_full;

static bool device_sge(struct rc_ctx *ctx, struct vt *t,
		       struct ibv_qp_cap *cap);
static bool largest_inline(struct rc_ctx *ctx, struct vt *t,
			   struct ibv_qp_cap *cap);

static const struct fit_row send_rows[] = {
	{ .c = { .id = "verbs/post_send/rc-sge-device-max",
		 .doc = DOC_POST,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "QPs asked for ibv_query_device's max_sge on both "
			 "queues: a SEND of max_send_sge SGEs of 16 distinct "
			 "bytes lands in a receive of max_recv_sge SGEs, each "
			 "SGE's bytes in its place",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(0) } },
	  .check = sge_device_max,
	  .cap_of = device_sge },
	{ .c = { .id = "verbs/post_send/rc-inline-largest-granted",
		 .doc = DOC_REUSE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "QPs asked for the largest max_inline_data "
			 "ibv_create_qp grants: exactly that many bytes inline "
			 "from two SGEs amid others the WR does not name, "
			 "overwritten as the call returns: the bytes as they "
			 "were arrive, in order, nothing of the others",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(0) } },
	  .check = inline_largest,
	  .cap_of = largest_inline },
	{ .c = { .id = "verbs/post_send/rc-fence-alone",
		 .doc = DOC_FENCE " ... " DOC_SIGNALED,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "sq_sig_all 0: a SEND of 256 bytes with "
			 "IBV_SEND_FENCE alone, then one with "
			 "IBV_SEND_SIGNALED, in one list: 0; both arrive with "
			 "their bytes, and the sender completes the second "
			 "only (the fence neither signals nor inlines)",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(0) } },
	  .check = fence_alone,
	  .sig_some = true },
	{ .c = { .id = "verbs/post_send/rc-rdma-read-leaves-local-mr",
		 .doc = DOC_POST " ... " DOC_READ,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "two RDMA Reads of 256 bytes into the same local "
			 "buffer, the remote bytes changed between them: both "
			 "complete with IBV_WC_RDMA_READ and the second brings "
			 "the new bytes (a Read, unlike the IBA's Read with "
			 "Invalidate, leaves its local MR valid)",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(0) } },
	  .check = read_twice },
	{ .c = { .id = "verbs/post_send/rc-rdma-read-zero-length",
		 .doc = DOC_POST,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "an RDMA Read of no SGE (num_sge 0) from b's region: "
			 "it completes with IBV_WC_RDMA_READ and a's buffer "
			 "stays as it was (the IBA lets an RDMA Read's DMA "
			 "length be 0, as ibv_post_send(3)'s num_sge may)",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(0) } },
	  .check = read_zero_length },
	{ .c = { .id = "verbs/post_send/rc-solicited-is-the-messages",
		 .doc = DOC_SEND_UNSOLICITED,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a's send CQ armed with solicited_only 1 "
			 "(ibv_req_notify_cq(3)): a SEND, a fenced SEND, then "
			 "the call, a SEND with IBV_SEND_SOLICITED: each "
			 "completes at a and arrives at b, and a's CQ gets no "
			 "event (the flag is the message's)",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(0) } },
	  .check = solicited_is_the_messages,
	  .send_channel = true },
};

static const struct fit_row recv_rows[] = {
	{ .c = { .id = "verbs/post_recv/rc-scatter-device-max",
		 .doc = DOC_RECV,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "QPs asked for ibv_query_device's max_sge on both "
			 "queues: a receive of max_recv_sge SGEs takes a SEND "
			 "of max_send_sge SGEs of 16 distinct bytes, each "
			 "SGE's bytes in its place",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(0) } },
	  .check = sge_device_max,
	  .cap_of = device_sge,
	  .recv = true },
	{ .c = { .id = "verbs/post_recv/rc-receive-queue-full",
		 .doc = DOC_STOP_RECV,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "a list of max_recv_wr + 1 receives of 8 bytes: an "
			 "errno value, bad_wr the last (the receive queue holds "
			 "the max_recv_wr outstanding WRs the QP was granted, "
			 "ibv_create_qp(3)); then max_recv_wr SENDs of 8 "
			 "bytes each complete a receive, in order",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_FAILS() } },
	  .check = receive_queue_full },
};

/* Both queues at the device's max_sge (ibv_query_device with the
 * implementation), the depths the rung's own */
static bool device_sge(struct rc_ctx *ctx, struct vt *t, struct ibv_qp_cap *cap)
{
	struct ibv_device_attr attr;

	if (!vt_device_attr(ctx, t, &attr))
		return false;
	*cap = (struct ibv_qp_cap){ .max_send_wr = 16,
				    .max_recv_wr = 16,
				    .max_send_sge = (uint32_t)attr.max_sge,
				    .max_recv_sge = (uint32_t)attr.max_sge };
	return true;
}

/* Whether ibv_create_qp makes an RC QP asking for @inline_len inline bytes */
static bool inline_granted(struct rc_ctx *ctx, struct vt *t,
			   uint32_t inline_len)
{
	struct ibv_qp_init_attr qa = {
		.qp_type = IBV_QPT_RC,
		.send_cq = t->scq,
		.recv_cq = t->scq,
		.cap = { .max_send_wr = 1,
			 .max_recv_wr = 1,
			 .max_send_sge = 1,
			 .max_recv_sge = 1,
			 .max_inline_data = inline_len },
		.sq_sig_all = 1,
	};
	struct ibv_qp *qp = ctx->ops->ibv_create_qp(t->l.pd, &qa);

	if (!qp)
		return false;
	ctx->ops->ibv_destroy_qp(qp);
	return true;
}

/* The largest max_inline_data ibv_create_qp grants, by bisection between
 * 0 (which every QP has) and INLINE_CEILING */
static bool largest_inline(struct rc_ctx *ctx, struct vt *t,
			   struct ibv_qp_cap *cap)
{
	uint32_t lo = 0, hi = INLINE_CEILING;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo + 1) / 2;

		if (inline_granted(ctx, t, mid))
			lo = mid;
		else
			hi = mid - 1;
	}
	if (!lo) {
		rc_obs_state(ctx->obs, RC_STATE_UNSUPPORTED,
			     "ibv_create_qp grants no inline data");
		return false;
	}
	*cap = (struct ibv_qp_cap){ .max_send_wr = 16,
				    .max_recv_wr = 16,
				    .max_send_sge = 4,
				    .max_recv_sge = 4,
				    .max_inline_data = lo };
	return true;
}

static void sge_device_max(const struct fit_row *row, struct rc_ctx *ctx,
			   struct vt *t)
{
	struct ibv_sge sg[MAX_SGE], rsg[MAX_SGE];
	struct ibv_send_wr wr, *bad;
	struct ibv_recv_wr rwr = { .wr_id = 2, .sg_list = rsg }, *rbad;
	int n = (int)t->cap.max_send_sge, m = (int)t->bcap.max_recv_sge, i;

	if (n > MAX_SGE || m > MAX_SGE || m < n) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "max_send_sge %d, max_recv_sge %d: more than the "
			     "row has room for, or fewer receive SGEs",
			     n, m);
		return;
	}
	vt_pattern(t, 0, VT_REGION, 17);
	for (i = 0; i < n; i++)
		sg[i] = vt_sge(t, 0, (size_t)i * SGE_STEP, SGE_LEN);
	for (i = 0; i < m; i++)
		rsg[i] = vt_sge(t, 1, (size_t)i * SGE_STEP, SGE_LEN);
	rwr.num_sge = m;
	if (row->recv) {
		RC_OBSERVE(ctx, ctx->ops->ibv_post_recv(t->b, &rwr, &rbad));
		if (ctx->obs->ret != 0)
			return;
	} else if (ctx->ops->ibv_post_recv(t->b, &rwr, &rbad)) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_post_recv failed (set-up): %m");
		return;
	}
	wr = vt_wr(t, IBV_WR_SEND, 1, sg, n);
	if (row->recv) {
		if (ctx->ops->ibv_post_send(t->a, &wr, &bad)) {
			rc_obs_state(ctx->obs, RC_STATE_BROKEN,
				     "ibv_post_send failed (set-up): %m");
			return;
		}
	} else if (!vt_post_send(ctx, t, &wr, &bad)) {
		return;
	}
	if (!vt_b_received(ctx, t, 2, n * SGE_LEN))
		return;
	for (i = 0; i < n; i++) {
		char what[32];

		snprintf(what, sizeof(what), "receive SGE %d", i);
		if (!vt_same(ctx, what, vt_region(t, 1) + i * SGE_STEP,
			     vt_region(t, 0) + i * SGE_STEP, SGE_LEN))
			return;
	}
}

static void inline_largest(const struct fit_row *row, struct rc_ctx *ctx,
			   struct vt *t)
{
	uint32_t n = t->cap.max_inline_data, first = n / 3;
	/* the WR's two SGEs are arr[1] and arr[2]; arr[0] and arr[3] are
	 * another list's, of bytes the message must not have */
	uint8_t *src = malloc(n), *want = malloc(n), other[2][8];
	struct ibv_sge arr[4];
	struct ibv_send_wr wr, *bad;
	uint32_t i;

	if (!src || !want) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN, "no memory");
		goto out;
	}
	for (i = 0; i < n; i++)
		src[i] = want[i] = (uint8_t)(i * 7 + 3);
	memset(other, 0xd5, sizeof(other));
	arr[0] = (struct ibv_sge){ (uintptr_t)other[0], 8, 0 };
	arr[1] = (struct ibv_sge){ (uintptr_t)src, first, 0 };
	arr[2] = (struct ibv_sge){ (uintptr_t)(src + first), n - first, 0 };
	arr[3] = (struct ibv_sge){ (uintptr_t)other[1], 8, 0 };
	wr = vt_wr(t, IBV_WR_SEND, 1, &arr[1], 2);
	wr.send_flags |= IBV_SEND_INLINE;
	if (!vt_recv_ready(ctx, t, 2, VT_REGION) ||
	    !vt_post_send(ctx, t, &wr, &bad))
		goto out;
	memset(src, 0xee, n);
	if (vt_b_received(ctx, t, 2, n))
		vt_same(ctx, "received", vt_region(t, 1), want, n);
out:
	free(src);
	free(want);
}

static void fence_alone(const struct fit_row *row, struct rc_ctx *ctx,
			struct vt *t)
{
	struct ibv_sge sg[2] = { vt_sge(t, 0, 0, LEN),
				 vt_sge(t, 0, 2 * LEN, LEN) };
	struct ibv_send_wr wr[2], *bad;
	struct ibv_wc wc[2];
	int i, err;

	vt_pattern(t, 0, 3 * LEN, 41);
	wr[0] = vt_wr(t, IBV_WR_SEND, 1, &sg[0], 1);
	wr[1] = vt_wr(t, IBV_WR_SEND, 2, &sg[1], 1);
	wr[0].send_flags = IBV_SEND_FENCE;
	wr[1].send_flags = IBV_SEND_SIGNALED;
	wr[0].next = &wr[1];
	/* b's receives: region 1 for the first, region 2 for the second */
	for (i = 0; i < 2; i++) {
		err = vt_recv(ctx, t, 11 + i, 1 + i, LEN);
		if (err) {
			rc_obs_state(ctx->obs, RC_STATE_BROKEN,
				     "ibv_post_recv failed (set-up): %s",
				     rc_errno_name(err));
			return;
		}
	}
	if (!vt_post_send(ctx, t, &wr[0], &bad))
		return;
	if (!vt_b_run(ctx, t, wc, 2, 11, LEN, 0) ||
	    !vt_same(ctx, "first received", vt_region(t, 1), vt_region(t, 0),
		     LEN) ||
	    !vt_same(ctx, "second received", vt_region(t, 2),
		     vt_region(t, 0) + 2 * LEN, LEN) ||
	    !vt_a_completed(ctx, t, 2, IBV_WC_SEND))
		return;
	if (!vt_quiet(ctx, t->scq, wc))
		rc_obs_violation(ctx->obs,
				 "send: a second completion (wr_id %llu) for a "
				 "list with one WR signaled",
				 (unsigned long long)wc[0].wr_id);
}

static void read_twice(const struct fit_row *row, struct rc_ctx *ctx,
		       struct vt *t)
{
	struct ibv_sge sg = vt_sge(t, 3, 0, LEN);
	struct ibv_send_wr wr = vt_remote_wr(t, IBV_WR_RDMA_READ, &sg), *bad;
	const struct vt_wc done = { .wr_id = 1,
				    .opcode = IBV_WC_RDMA_READ,
				    .byte_len = LEN,
				    .qp_num = t->a->qp_num,
				    .src_qp = -1,
				    .wc_flags = -1 };
	uint8_t seed;

	for (seed = 59; seed < 61; seed++) {
		vt_pattern(t, 2, LEN, seed);
		if (!vt_post_send(ctx, t, &wr, &bad) ||
		    !vt_one_wc(ctx, t->scq, seed == 59 ? "first" : "second",
			       &done) ||
		    !vt_same(ctx, seed == 59 ? "first read" : "second read",
			     vt_region(t, 3), vt_region(t, 2), LEN))
			return;
	}
}

static void read_zero_length(const struct fit_row *row, struct rc_ctx *ctx,
			     struct vt *t)
{
	struct ibv_send_wr wr = vt_remote_wr(t, IBV_WR_RDMA_READ, NULL), *bad;
	uint8_t want[LEN];

	wr.num_sge = 0;
	vt_pattern(t, 2, LEN, 61);
	vt_pattern(t, 3, LEN, 67);
	memcpy(want, vt_region(t, 3), LEN);
	if (vt_post_send(ctx, t, &wr, &bad) &&
	    vt_a_completed(ctx, t, 1, IBV_WC_RDMA_READ))
		vt_same(ctx, "local", vt_region(t, 3), want, LEN);
}

static void receive_queue_full(const struct fit_row *row, struct rc_ctx *ctx,
			       struct vt *t)
{
	uint32_t i, n = t->bcap.max_recv_wr + 1;
	struct ibv_recv_wr *wr = calloc(n, sizeof(*wr)), *bad;
	struct ibv_sge *sg = calloc(n, sizeof(*sg));

	if (!wr || !sg || n * 8 > VT_REGION) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "max_recv_wr %u: more than the row has room "
			     "for, or no memory",
			     n - 1);
		goto out;
	}
	vt_recv_list(t, wr, sg, (int)n, 0, 8, 100);
	RC_OBSERVE(ctx, ctx->ops->ibv_post_recv(t->b, wr, &bad));
	if (ctx->obs->ret == 0)
		goto out;
	if (!vt_refused_last(ctx, bad, wr, n, sizeof(*wr)))
		goto out;
	/* the receives posted take one message each, in order */
	vt_pattern(t, 0, 8, 71);
	for (i = 0; i + 1 < n; i++) {
		struct ibv_sge one = vt_sge(t, 0, 0, 8);
		struct ibv_send_wr s = vt_wr(t, IBV_WR_SEND, 1, &one, 1), *sbad;

		if (ctx->ops->ibv_post_send(t->a, &s, &sbad)) {
			rc_obs_state(ctx->obs, RC_STATE_BROKEN,
				     "ibv_post_send failed (set-up): %m");
			goto out;
		}
		if (!vt_a_completed(ctx, t, 1, IBV_WC_SEND) ||
		    !vt_b_received(ctx, t, 100 + i, 8))
			goto out;
	}
	vt_nothing_beyond(ctx, t->rcq, "recv", n - 1);
out:
	free(wr);
	free(sg);
}

static void solicited_is_the_messages(const struct fit_row *row,
				      struct rc_ctx *ctx, struct vt *t)
{
	if (ctx->ops->ibv_req_notify_cq(t->scq, 1)) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_req_notify_cq failed (set-up): %m");
		return;
	}
	if (vt_sent_no_event(ctx, t, 0, "unsolicited", false) &&
	    vt_sent_no_event(ctx, t, IBV_SEND_FENCE, "fenced", false))
		vt_sent_no_event(ctx, t, IBV_SEND_SOLICITED, "solicited", true);
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct fit_row *row = r;
	struct vt_opts o = { .cap_of = row->cap_of,
			     .sig_some = row->sig_some,
			     .send_channel = row->send_channel };
	struct vt t;

	if (vt_up(ctx, &t, &o))
		row->check(row, ctx, &t);
	vt_down(ctx, &t);
}

RC_TABLE_GROUP(send_group, "ibv_post_send", RC_CONV_ERRNO_RET, "verbs",
	       send_rows, run);
RC_TABLE_GROUP(recv_group, "ibv_post_recv", RC_CONV_ERRNO_RET, "verbs",
	       recv_rows, run);
