// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_post_send(3)'s faults on iWARP, where a responder does not answer a
 * WR it refuses in the requester's completion (the IBA's NAK, which the
 * rows of need nak judge) but ends the connection: RFC 5040 (RDMAP) has
 * the Data Sink report the error in a Terminate message and the stream
 * close after it, and RFC 5041 (DDP) makes an untagged message without a
 * receive buffer such an error (iWARP has no RNR).  The pages name the
 * statuses (struct ibv_wc's status, "Status of the operation") but not
 * iWARP's: what each fault gives is RFC 5040's (our reading, each row's
 * note).  The rows stand on the traffic rung's connection
 * (verbs_traffic.h: a on the target, b on the peer, joined by the row's
 * own rdma_cm), and look where the fault takes effect: what landed at b,
 * b's receive, and the connection, whose end both rdma_cm ids see.
 * - iwarp-write-wrong-rkey-ends-connection: an RDMA Write under an rkey
 *   no MR of b has: nothing lands, b's posted receive completes flushed,
 *   and both ids get RDMA_CM_EVENT_DISCONNECTED
 * - iwarp-read-wrong-rkey-ends-connection: an RDMA Read under one: a's
 *   buffer unchanged, the Read does not complete successfully, and both
 *   ids get RDMA_CM_EVENT_DISCONNECTED
 * - iwarp-send-without-receive-ends-connection: a SEND that finds no
 *   receive (no RNR on iWARP): both ids get RDMA_CM_EVENT_DISCONNECTED,
 *   and a receive posted at b afterwards gets nothing
 * - iwarp-send-beyond-receive-ends-connection: a SEND one byte longer
 *   than b's receive: the receive completes with IBV_WC_LOC_LEN_ERR, and
 *   both ids get RDMA_CM_EVENT_DISCONNECTED
 * - iwarp-read-beyond-max-sge-rd: an RDMA Read into max_sge_rd + 1 SGEs
 *   (iWARP's Read Response lands in one buffer): refused at once, bad_wr
 *   the WR, and the connection stays
 * - iwarp-write-in-range-keeps-connection: the control of the others: an
 *   RDMA Write within b's MR lands, and neither id sees an event
 * - iwarp-send-with-inv-of-an-mr: a SEND_WITH_INV naming the rkey of an
 *   MR of b's PD (RFC 5040's Send with Invalidate takes any STag of the
 *   Data Sink's PD): b's receive says IBV_WC_WITH_INV and that rkey, and
 *   the rkey no longer works: an RDMA Write under it lands nothing and
 *   ends the connection
 * - iwarp-refuses-rdma-write-with-imm, -send-with-imm,
 *   -atomic-cmp-and-swp, -atomic-fetch-and-add: the opcodes of the page's
 *   RC column that RDMAP (RFC 5040) has no message for (immediate data,
 *   atomics): refused at once, bad_wr the WR, nothing at b, and the
 *   connection stays
 */
#include <endian.h>
#include <string.h>

#include "verbs_traffic.h"

#define DOC_STATUS                                     \
	"enum ibv_wc_status status; /* Status of the " \
	"operation */"
#define DOC_POST                                                  \
	"ibv_post_send() posts the linked list of work requests " \
	"(WRs) starting with wr to the send queue of the queue pair qp."
#define DOC_STOP                                                              \
	"It stops processing WRs from this list at the first "                \
	"failure (that can be detected immediately while requests are being " \
	"posted), and returns this failing WR through bad_wr."
#define DOC_INV "uint32_t invalidate_rkey; /* Remote rkey to invalidate */"
#define NEEDS (RC_NEED_DEVICE | RC_NEED_PEER | RC_NEED_IWARP)
#define LEN 256

struct iw_row;
typedef void iw_check(const struct iw_row *row, struct rc_ctx *ctx,
		      struct vt *t);

struct iw_row {
	struct rc_case c;
	iw_check *check;
	enum ibv_wr_opcode op; /* the opcode refused */
};

static iw_check write_wrong_rkey, read_wrong_rkey, send_without_recv,
	send_beyond_recv, read_beyond_sge_rd, write_in_range, send_with_inv,
	lacked_opcode;

/* An opcode RDMAP has no message for: refused at the post */
#define LACKED(name, op_, what)                                                      \
	{                                                                            \
		.c = { .id = "verbs/post_send/iwarp-refuses-" name,                  \
		       .doc = DOC_STOP,                                              \
		       .basis = RC_BASIS_INTERPRETATION,                             \
		       .note = "an " #op_                                            \
			       " WR on the connected RC QP: RDMAP (RFC "             \
			       "5040) has no " what                                  \
			       ", so a failure detected at "                         \
			       "once: an errno value, bad_wr the WR, no message at " \
			       "b, and the connection stays",                        \
		       .needs = NEEDS,                                               \
		       .contract = { RC_FAILS() } },                                 \
		.check = lacked_opcode, .op = op_                                    \
	}

static const struct iw_row rows[] = {
	{ .c = { .id = "verbs/post_send/iwarp-write-wrong-rkey-ends-connection",
		 .doc = DOC_STATUS,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "an RDMA Write of 256 bytes under b's rkey with a bit "
			 "flipped (no MR of b has it): 0; nothing lands in b's "
			 "buffer, b's posted receive completes with "
			 "IBV_WC_WR_FLUSH_ERR, and both rdma_cm ids get "
			 "RDMA_CM_EVENT_DISCONNECTED (RFC 5040: the Data Sink "
			 "sends a Terminate and the stream closes)",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = write_wrong_rkey },
	{ .c = { .id = "verbs/post_send/iwarp-read-wrong-rkey-ends-connection",
		 .doc = DOC_STATUS,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "an RDMA Read of 256 bytes under b's rkey with a bit "
			 "flipped: 0; a's buffer stays as it was, the Read "
			 "does not complete successfully, and both rdma_cm "
			 "ids get RDMA_CM_EVENT_DISCONNECTED (RFC 5040: the "
			 "Data Source refuses the Read Request with a "
			 "Terminate)",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = read_wrong_rkey },
	{ .c = { .id = "verbs/post_send/"
		       "iwarp-send-without-receive-ends-connection",
		 .doc = DOC_POST,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "a SEND of 256 bytes to b with no receive posted: 0; "
			 "iWARP has no RNR (RFC 5041: an untagged message "
			 "with no buffer is an error), so both rdma_cm ids get "
			 "RDMA_CM_EVENT_DISCONNECTED, and a receive posted at "
			 "b after it gets no message",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = send_without_recv },
	{ .c = { .id = "verbs/post_send/"
		       "iwarp-send-beyond-receive-ends-connection",
		 .doc = DOC_STATUS,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "a SEND of 65 bytes into b's receive of 64: 0; b's "
			 "receive completes with IBV_WC_LOC_LEN_ERR and both "
			 "rdma_cm ids get RDMA_CM_EVENT_DISCONNECTED (RFC "
			 "5041: a message longer than its buffer is an error "
			 "of the Data Sink, which ends the stream)",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = send_beyond_recv },
	{ .c = { .id = "verbs/post_send/iwarp-read-beyond-max-sge-rd",
		 .doc = DOC_STOP,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "an RDMA Read of 64 bytes into max_sge_rd + 1 SGEs "
			 "of 32 (ibv_query_device(3)'s limit; iWARP's is 1, "
			 "RFC 5040's Read Response naming one sink buffer): a "
			 "failure detected at once, bad_wr that WR, nothing "
			 "read, and the connection stays",
		 .needs = NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = read_beyond_sge_rd },
	{ .c = { .id = "verbs/post_send/iwarp-write-in-range-keeps-connection",
		 .doc = DOC_POST,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the control of the three: an RDMA Write of 256 bytes "
			 "within b's MR: 0; the bytes land, and neither "
			 "rdma_cm id gets an event within 300 ms",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = write_in_range },
	{ .c = { .id = "verbs/post_send/iwarp-send-with-inv-of-an-mr",
		 .doc = DOC_INV,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "a SEND_WITH_INV of 32 bytes whose invalidate_rkey is "
			 "the rkey of an MR of b's PD: 0; b's receive "
			 "completes with IBV_WC_WITH_INV and invalidated_rkey "
			 "that rkey, and an RDMA Write under it afterwards "
			 "lands nothing and ends the connection (RFC 5040: "
			 "Send with Invalidate invalidates an STag of the Data "
			 "Sink's PD)",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = send_with_inv },
	LACKED("rdma-write-with-imm", IBV_WR_RDMA_WRITE_WITH_IMM,
	       "immediate data"),
	LACKED("send-with-imm", IBV_WR_SEND_WITH_IMM, "immediate data"),
	LACKED("atomic-cmp-and-swp", IBV_WR_ATOMIC_CMP_AND_SWP, "atomics"),
	LACKED("atomic-fetch-and-add", IBV_WR_ATOMIC_FETCH_AND_ADD, "atomics"),
};

/* Both ends of the connection see it end: the server's (a's) id and the
 * client's (b's) each get RDMA_CM_EVENT_DISCONNECTED. */
static void connection_ends(struct rc_ctx *ctx, struct vt *t)
{
	if (cm_expect(ctx, &t->cm.srv, RDMA_CM_EVENT_DISCONNECTED, NULL))
		cm_expect(ctx, &t->cm.cli, RDMA_CM_EVENT_DISCONNECTED, NULL);
}

/* Neither end gets an event within CM_QUIET_MS (scaled) */
static void connection_stays(struct rc_ctx *ctx, struct vt *t)
{
	struct cm_end *e[2] = { &t->cm.srv, &t->cm.cli };
	struct rdma_cm_event *ev;
	int i, got;

	for (i = 0; i < 2; i++) {
		got = cm_next(ctx, e[i], CM_QUIET_MS, &ev);
		if (got < 0)
			continue;
		rc_obs_violation(ctx->obs, "%s_event: %s with no fault",
				 e[i]->who, cm_event_name(got));
		e[i]->ops->rdma_ack_cm_event(ev);
	}
}

static void write_wrong_rkey(const struct iw_row *row, struct rc_ctx *ctx,
			     struct vt *t)
{
	struct ibv_sge sg = vt_sge(t, 0, 0, LEN);
	struct ibv_send_wr wr = vt_remote_wr(t, IBV_WR_RDMA_WRITE, &sg), *bad;

	vt_pattern(t, 0, LEN, 3);
	wr.wr.rdma.rkey ^= 0x00800000;
	if (!vt_recv_ready(ctx, t, 2, VT_REGION) ||
	    !vt_post_send(ctx, t, &wr, &bad))
		return;
	connection_ends(ctx, t);
	/* b's receive, posted before: flushed with its QP, never a message */
	vt_b_failed(ctx, t, 2, IBV_WC_WR_FLUSH_ERR);
	vt_zeroes(ctx, "remote", vt_region(t, 2), LEN);
}

static void read_wrong_rkey(const struct iw_row *row, struct rc_ctx *ctx,
			    struct vt *t)
{
	struct ibv_sge sg = vt_sge(t, 3, 0, LEN);
	struct ibv_send_wr wr = vt_remote_wr(t, IBV_WR_RDMA_READ, &sg), *bad;
	struct ibv_wc wc;

	vt_pattern(t, 2, LEN, 7);
	wr.wr.rdma.rkey ^= 0x00800000;
	if (!vt_post_send(ctx, t, &wr, &bad))
		return;
	connection_ends(ctx, t);
	if (vt_poll(ctx, t->scq, &wc, 1) == 1 && wc.status == IBV_WC_SUCCESS)
		rc_obs_violation(ctx->obs,
				 "send: the Read under an rkey no MR has "
				 "completed successfully");
	vt_zeroes(ctx, "local", vt_region(t, 3), LEN);
}

static void send_without_recv(const struct iw_row *row, struct rc_ctx *ctx,
			      struct vt *t)
{
	struct ibv_sge sg = vt_sge(t, 0, 0, LEN);
	struct ibv_send_wr wr = vt_wr(t, IBV_WR_SEND, 1, &sg, 1), *bad;
	struct ibv_wc wc;

	vt_pattern(t, 0, LEN, 11);
	if (!vt_post_send(ctx, t, &wr, &bad))
		return;
	connection_ends(ctx, t);
	/* the message was dropped, not kept for a later receive */
	if (vt_recv(ctx, t, 2, 1, VT_REGION) == 0 &&
	    !vt_quiet(ctx, t->rcq, &wc) && wc.status == IBV_WC_SUCCESS)
		rc_obs_violation(ctx->obs,
				 "recv: a receive posted after the connection "
				 "ended got a message (byte_len %u)",
				 wc.byte_len);
}

static void send_beyond_recv(const struct iw_row *row, struct rc_ctx *ctx,
			     struct vt *t)
{
	struct ibv_sge sg = vt_sge(t, 0, 0, 65);
	struct ibv_send_wr wr = vt_wr(t, IBV_WR_SEND, 1, &sg, 1), *bad;

	vt_pattern(t, 0, 65, 17);
	if (!vt_recv_ready(ctx, t, 2, 64) || !vt_post_send(ctx, t, &wr, &bad))
		return;
	vt_b_failed(ctx, t, 2, IBV_WC_LOC_LEN_ERR);
	connection_ends(ctx, t);
}

static void read_beyond_sge_rd(const struct iw_row *row, struct rc_ctx *ctx,
			       struct vt *t)
{
	struct ibv_sge sg[8];
	struct ibv_send_wr wr = vt_remote_wr(t, IBV_WR_RDMA_READ, sg), *bad;
	struct ibv_device_attr da;
	int i, n;

	if (!vt_device_attr(ctx, t, &da))
		return;
	n = da.max_sge_rd + 1;
	if (n > (int)t->cap.max_send_sge || n > 8) {
		rc_obs_state(ctx->obs, RC_STATE_UNSUPPORTED,
			     "max_sge_rd + 1 (%d) SGEs is more than a WR of "
			     "the QP may have (max_send_sge %u)",
			     n, t->cap.max_send_sge);
		return;
	}
	for (i = 0; i < n; i++)
		sg[i] = vt_sge(t, 3, i * 32, 32);
	wr.num_sge = n;
	vt_pattern(t, 2, 32 * n, 19);
	if (vt_post_send(ctx, t, &wr, &bad)) {
		/* posted: whatever it does, it must not be what was asked */
		return;
	}
	vt_refused_wr(ctx, bad, &wr);
	vt_zeroes(ctx, "local", vt_region(t, 3), 32 * n);
	connection_stays(ctx, t);
}

static void write_in_range(const struct iw_row *row, struct rc_ctx *ctx,
			   struct vt *t)
{
	struct ibv_sge sg = vt_sge(t, 0, 0, LEN);
	struct ibv_send_wr wr = vt_remote_wr(t, IBV_WR_RDMA_WRITE, &sg), *bad;

	vt_pattern(t, 0, LEN, 13);
	if (!vt_post_send(ctx, t, &wr, &bad) ||
	    !vt_lands(ctx, t, "remote", vt_region(t, 2), vt_region(t, 0), LEN))
		return;
	connection_stays(ctx, t);
}

static void send_with_inv(const struct iw_row *row, struct rc_ctx *ctx,
			  struct vt *t)
{
	struct ibv_mr *mr = (ctx->ops->ibv_reg_mr)(
		vt_pd(t, 2), vt_region(t, 2), VT_REGION,
		IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	struct ibv_sge sg = vt_sge(t, 0, 0, 32);
	struct ibv_send_wr wr = vt_wr(t, IBV_WR_SEND_WITH_INV, 1, &sg, 1), *bad;
	struct ibv_wc wc;

	if (!mr) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_reg_mr failed (set-up): %m");
		return;
	}
	wr.invalidate_rkey = mr->rkey;
	vt_pattern(t, 0, 32, 29);
	if (!vt_recv_ready(ctx, t, 2, VT_REGION) ||
	    !vt_post_send(ctx, t, &wr, &bad))
		goto out;
	if (vt_poll(ctx, t->rcq, &wc, 1) != 1) {
		rc_obs_violation(ctx->obs, "recv: no completion within %d ms",
				 rc_scaled_ms(ctx, VT_WAIT_MS));
		goto out;
	}
	if (wc.status != IBV_WC_SUCCESS) {
		rc_obs_violation(ctx->obs, "recv.status %s, not success",
				 ibv_wc_status_str(wc.status));
		goto out;
	}
	/* what the receive says; the MR is looked at whatever it says */
	if (vt_wc_check(ctx, "recv", &wc,
			&(struct vt_wc){ .wr_id = 2,
					 .opcode = IBV_WC_RECV,
					 .byte_len = 32,
					 .qp_num = t->b->qp_num,
					 .src_qp = -1,
					 .wc_flags = IBV_WC_WITH_INV }) &&
	    wc.invalidated_rkey != mr->rkey)
		rc_obs_violation(ctx->obs,
				 "recv: invalidated_rkey %#x, not the rkey "
				 "sent, %#x",
				 wc.invalidated_rkey, mr->rkey);
	/* the invalidation where it takes effect: b's MR */
	sg = vt_sge(t, 0, 0, 8);
	wr = vt_remote_wr(t, IBV_WR_RDMA_WRITE, &sg);
	wr.wr_id = 3;
	wr.wr.rdma.rkey = mr->rkey;
	if (ctx->ops->ibv_post_send(t->a, &wr, &bad)) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_post_send failed (set-up): %m");
		goto out;
	}
	connection_ends(ctx, t);
	vt_zeroes(ctx, "remote", vt_region(t, 2), 8);
out:
	ctx->ops->ibv_dereg_mr(mr);
}

static void lacked_opcode(const struct iw_row *row, struct rc_ctx *ctx,
			  struct vt *t)
{
	struct ibv_sge sg = vt_sge(t, 0, 0, 8);
	struct ibv_send_wr wr = vt_remote_wr(t, row->op, &sg), *bad;
	struct ibv_wc wc;

	/* every field the opcode has, valid: only the opcode is wrong */
	wr.imm_data = htobe32(0x0a0b0c0d);
	if (row->op == IBV_WR_ATOMIC_CMP_AND_SWP ||
	    row->op == IBV_WR_ATOMIC_FETCH_AND_ADD) {
		wr.wr.atomic.remote_addr = vt_addr(t, 2, 0);
		wr.wr.atomic.rkey = t->bmr->rkey;
		wr.wr.atomic.compare_add = 1;
	}
	vt_pattern(t, 0, 8, 23);
	if (!vt_recv_ready(ctx, t, 2, VT_REGION))
		return;
	if (vt_post_send(ctx, t, &wr, &bad)) {
		/* posted: whatever it does, it must not be what was asked */
		return;
	}
	vt_refused_wr(ctx, bad, &wr);
	if (!vt_quiet(ctx, t->rcq, &wc))
		rc_obs_violation(ctx->obs,
				 "recv: a completion (status %d) for a WR "
				 "refused",
				 wc.status);
	vt_zeroes(ctx, "remote", vt_region(t, 2), 8);
	connection_stays(ctx, t);
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct iw_row *row = r;
	struct vt_opts o = { 0 };
	struct vt t;

	if (vt_up(ctx, &t, &o))
		row->check(row, ctx, &t);
	vt_down(ctx, &t);
}

RC_TABLE_GROUP(group, "ibv_post_send", RC_CONV_ERRNO_RET, "verbs", rows, run);
