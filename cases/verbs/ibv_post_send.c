// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_post_send(3): "posts the linked list of work requests (WRs)
 * starting with wr to the send queue of the queue pair qp.  It stops
 * processing WRs from this list at the first failure (that can be
 * detected immediately while requests are being posted), and returns this
 * failing WR through bad_wr."  "returns 0 on success, or the value of
 * errno on failure".
 *
 * Every row runs on two QPs of the target port, a sending to b
 * (verbs_traffic.h), and looks where the operation lands: at the
 * receiver's buffer and completion, at the remote memory, at the
 * sender's completion.  Data bytes are all distinct in every 256.
 * - rc-send-arrives: SEND, the bytes and both completions' fields
 * - rc-send-with-imm: SEND_WITH_IMM, imm_data as sent (network order)
 * - rc-rdma-write: RDMA_WRITE lands and consumes no receive
 * - rc-rdma-write-with-imm: it lands and completes a receive with imm
 * - rc-rdma-read: RDMA_READ brings the remote bytes
 * - rc-atomic-fetch-add, rc-atomic-cmp-swap, rc-atomic-cmp-swap-mismatch
 * - rc-zero-length: a SEND of no SGE
 * - rc-sge-max: the granted max_send_sge SGEs gathered in order
 * - rc-sge-one-beyond: one more fails; bad_wr is that WR, the WR before
 *   it is posted
 * - rc-inline-max, rc-inline-one-beyond: max_inline_data bytes from
 *   unregistered memory, reused at once; one more fails
 * - rc-inline-rdma-read: INLINE on RDMA_READ fails
 * - rc-wrong-rkey: an RDMA_WRITE with a wrong rkey completes with
 *   IBV_WC_REM_ACCESS_ERR
 * - rc-write-to-read-only-mr: so does one to an MR without remote write,
 *   which stays as it was
 * - rc-rnr-retry-exceeded: a SEND that finds no receive:
 *   IBV_WC_RNR_RETRY_EXC_ERR
 * - rc-remote-qp-destroyed: a SEND nothing answers: IBV_WC_RETRY_EXC_ERR
 * - rc-qp-in-init: a QP not yet in RTS takes no WR
 * - rc-sq-sig-all: with sq_sig_all 1 a WR without the flag completes
 * - rc-queues-wrap: queues and CQs used round several times
 * - rc-send-queue-full: a list of max_send_wr + 1 RDMA Writes: the last
 *   fails, bad_wr it; the others complete, each once
 * - rc-unsignaled: with sq_sig_all 0 only the signaled WR completes
 * - rc-completions-in-order: four SENDs complete in posting order on both
 *   sides
 * - rc-flush-after-error: WRs posted in ERR complete with
 *   IBV_WC_WR_FLUSH_ERR, each
 * - ud-send-arrives: a UD SEND: bytes after the GRH, src_qp, IBV_WC_GRH
 * - ud-send-with-imm: a UD SEND_WITH_IMM
 * - peer-rc-send-arrives, peer-rc-rdma-write, peer-rc-rdma-read,
 *   peer-rc-atomic-fetch-add, peer-ud-send-arrives: across two devices
 * - uc-send-arrives, uc-rdma-write: what the table gives UC
 * - ud-rdma-write-refused, uc-rdma-read-refused: opcodes the table does
 *   not give the transport fail
 */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verbs_traffic.h"

#define DOC_POST                                                  \
	"ibv_post_send() posts the linked list of work requests " \
	"(WRs) starting with wr to the send queue of the queue pair qp."
#define DOC_STOP                                                              \
	"It stops processing WRs from this list at the first "                \
	"failure (that can be detected immediately while requests are being " \
	"posted), and returns this failing WR through bad_wr."
#define DOC_IMM "Immediate data (in network byte order)"
#define DOC_TABLE                                                 \
	"Each QP Transport Service Type supports a specific set " \
	"of opcodes, as shown in the following table:"
#define DOC_SIGNALED                                         \
	"IBV_SEND_SIGNALED Set the completion notification " \
	"indicator. Relevant only if QP was created with sq_sig_all=0"
#define DOC_INLINE                                                            \
	"IBV_SEND_INLINE Send data in given gather list as "                  \
	"inline data in a send WQE. Valid only for Send and RDMA Write. The " \
	"L_Key will not be checked."
#define DOC_REUSE                                            \
	"However, if the IBV_SEND_INLINE flag was set, the " \
	"buffer can be reused immediately after the call returns."
#define DOC_STATUS                                     \
	"enum ibv_wc_status status; /* Status of the " \
	"operation */"

#define NEEDS_DP (RC_NEED_DEVICE)
#define NEEDS_DP_UD (RC_NEED_DEVICE | RC_NEED_UD)
#define NEEDS_PEER (RC_NEED_DEVICE | RC_NEED_PEER)
#define LEN 256
#define IMM 0x0a0b0c0du

struct send_row;
typedef void send_check(const struct send_row *row, struct rc_ctx *ctx,
			struct vt *t);

struct send_row {
	struct rc_case c;
	send_check *check;
	enum ibv_qp_type type; /* 0: RC */
	bool sig_some; /* a's sq_sig_all 0 */
	enum ibv_wr_opcode op; /* for the rows of several opcodes */
	bool peer; /* b on the peer device */
};

static send_check send_arrives, send_imm, rdma_write, rdma_write_imm, rdma_read,
	fetch_add, cmp_swap, cmp_swap_mismatch, zero_length, sge_max,
	sge_one_beyond, inline_max, inline_one_beyond, inline_read, wrong_rkey,
	unsignaled, in_order, flush_after_error, ud_send, opcode_refused,
	send_queue_full, read_only_mr, rnr_retry_exceeded, remote_qp_gone,
	init_refused, sig_all, queues_wrap;

static const struct send_row rows[] = {
	{ .c = { .id = "verbs/post_send/rc-send-arrives",
		 .doc = DOC_POST,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a SEND of 256 distinct bytes: they arrive in b's "
			 "receive, whose completion says IBV_WC_RECV, "
			 "byte_len 256, b's qp_num and no flags; a's says "
			 "IBV_WC_SEND and a's qp_num",
		 .needs = NEEDS_DP,
		 .contract = { RC_RETURNS(0) } },
	  .check = send_arrives },
	{ .c = { .id = "verbs/post_send/rc-send-with-imm",
		 .doc = DOC_IMM,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "imm_data 0a 0b 0c 0d in memory (htobe32(0x0a0b0c0d)):"
			 " the receive completion has IBV_WC_WITH_IMM and the "
			 "same four bytes",
		 .needs = NEEDS_DP | RC_NEED_IMM,
		 .contract = { RC_RETURNS(0) } },
	  .check = send_imm },
	{ .c = { .id = "verbs/post_send/rc-rdma-write",
		 .doc = DOC_POST,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "an RDMA_WRITE of 256 bytes lands at remote_addr, "
			 "completes as IBV_WC_RDMA_WRITE, and consumes none of "
			 "b's receives (IBA 9.4.3)",
		 .needs = NEEDS_DP,
		 .contract = { RC_RETURNS(0) } },
	  .check = rdma_write },
	{ .c = { .id = "verbs/post_send/rc-rdma-write-with-imm",
		 .doc = DOC_IMM,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "RDMA_WRITE_WITH_IMM: the bytes land and b's receive "
			 "completes as IBV_WC_RECV_RDMA_WITH_IMM with the "
			 "immediate, byte_len the bytes written",
		 .needs = NEEDS_DP | RC_NEED_IMM,
		 .contract = { RC_RETURNS(0) } },
	  .check = rdma_write_imm },
	{ .c = { .id = "verbs/post_send/rc-rdma-read",
		 .doc = DOC_POST,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "an RDMA_READ of 256 bytes brings them; its "
			 "completion is IBV_WC_RDMA_READ, byte_len 256",
		 .needs = NEEDS_DP,
		 .contract = { RC_RETURNS(0) } },
	  .check = rdma_read },
	{ .c = { .id = "verbs/post_send/rc-atomic-fetch-add",
		 .doc = DOC_POST,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "FETCH_AND_ADD of 0x1010101010101010 to "
			 "0x0102030405060708: remote 0x1112131415161718, the "
			 "original returned, IBV_WC_FETCH_ADD, byte_len 8",
		 .needs = NEEDS_DP | RC_NEED_ATOMIC,
		 .contract = { RC_RETURNS(0) } },
	  .check = fetch_add },
	{ .c = { .id = "verbs/post_send/rc-atomic-cmp-swap",
		 .doc = DOC_POST,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "CMP_AND_SWP whose compare matches: the swap value "
			 "lands, the original is returned, IBV_WC_COMP_SWAP",
		 .needs = NEEDS_DP | RC_NEED_ATOMIC,
		 .contract = { RC_RETURNS(0) } },
	  .check = cmp_swap },
	{ .c = { .id = "verbs/post_send/rc-atomic-cmp-swap-mismatch",
		 .doc = DOC_POST,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "CMP_AND_SWP whose compare differs: remote memory "
			 "unchanged, the original returned",
		 .needs = NEEDS_DP | RC_NEED_ATOMIC,
		 .contract = { RC_RETURNS(0) } },
	  .check = cmp_swap_mismatch },
	{ .c = { .id = "verbs/post_send/rc-zero-length",
		 .doc = DOC_POST,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a SEND of no SGE is a message of 0 bytes: b's "
			 "receive completes with byte_len 0",
		 .needs = NEEDS_DP,
		 .contract = { RC_RETURNS(0) } },
	  .check = zero_length },
	{ .c = { .id = "verbs/post_send/rc-sge-max",
		 .doc = DOC_POST,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the granted max_send_sge SGEs of 16 bytes from "
			 "scattered places: the message is them in order",
		 .needs = NEEDS_DP,
		 .contract = { RC_RETURNS(0) } },
	  .check = sge_max },
	{ .c = { .id = "verbs/post_send/rc-sge-one-beyond",
		 .doc = DOC_STOP,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a valid SEND, then one of max_send_sge + 1 SGEs: an "
			 "errno value, bad_wr the second, the first posted",
		 .needs = NEEDS_DP,
		 .contract = { RC_FAILS() } },
	  .check = sge_one_beyond },
	{ .c = { .id = "verbs/post_send/rc-inline-max",
		 .doc = DOC_REUSE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "max_inline_data bytes, inline, from memory no MR "
			 "covers (lkey 0: \"The L_Key will not be checked\"), "
			 "overwritten as soon as the call returns: the bytes "
			 "as they were arrive",
		 .needs = NEEDS_DP,
		 .contract = { RC_RETURNS(0) } },
	  .check = inline_max },
	{ .c = { .id = "verbs/post_send/rc-inline-one-beyond",
		 .doc = DOC_STOP,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "max_inline_data + 1 bytes inline exceed what the QP "
			 "was granted (ibv_create_qp(3)): a failure detected "
			 "immediately, bad_wr that WR",
		 .needs = NEEDS_DP,
		 .contract = { RC_FAILS() } },
	  .check = inline_one_beyond },
	{ .c = { .id = "verbs/post_send/rc-inline-rdma-read",
		 .doc = DOC_INLINE " ... " DOC_STOP,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "IBV_SEND_INLINE on an RDMA_READ, for which the page "
			 "says it is not valid: a failure that can be detected "
			 "immediately, so an errno value and bad_wr that WR "
			 "(the page does not say the post fails)",
		 .needs = NEEDS_DP,
		 .contract = { RC_FAILS() } },
	  .check = inline_read },
	{ .c = { .id = "verbs/post_send/rc-wrong-rkey",
		 .doc = DOC_STATUS,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "an RDMA_WRITE with an rkey no MR has: the responder "
			 "NAKs it and the WR completes with "
			 "IBV_WC_REM_ACCESS_ERR (IBA 9.7.5.2.8, 10.8.3)",
		 .needs = NEEDS_DP | RC_NEED_NAK,
		 .contract = { RC_RETURNS(0) } },
	  .check = wrong_rkey },
	{ .c = { .id = "verbs/post_send/rc-write-to-read-only-mr",
		 .doc = DOC_STATUS,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "an RDMA_WRITE to an MR registered without "
			 "IBV_ACCESS_REMOTE_WRITE: IBV_WC_REM_ACCESS_ERR, and "
			 "the MR's bytes unchanged (IBA 10.6.3.3, 10.8.3)",
		 .needs = NEEDS_DP | RC_NEED_NAK,
		 .contract = { RC_RETURNS(0) } },
	  .check = read_only_mr },
	{ .c = { .id = "verbs/post_send/rc-rnr-retry-exceeded",
		 .doc = DOC_STATUS,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "a SEND to b with no receive posted, rnr_retry 1 and "
			 "min_rnr_timer 1 (0.01 ms): the WR completes with "
			 "IBV_WC_RNR_RETRY_EXC_ERR (IBA 9.7.5.2.8, 10.8.3)",
		 .needs = NEEDS_DP | RC_NEED_NAK,
		 .contract = { RC_RETURNS(0) } },
	  .check = rnr_retry_exceeded },
	{ .c = { .id = "verbs/post_send/rc-remote-qp-destroyed",
		 .doc = DOC_STATUS,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "b destroyed, a SEND to it: nothing answers, and after "
			 "retry_cnt 6 with timeout 1 (8 us) the WR completes "
			 "with IBV_WC_RETRY_EXC_ERR (IBA 9.7.6.1.3, 10.8.3)",
		 .needs = NEEDS_DP | RC_NEED_NAK,
		 .contract = { RC_RETURNS(0) } },
	  .check = remote_qp_gone },
	{ .c = { .id = "verbs/post_send/rc-qp-in-init",
		 .doc = DOC_STOP,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "a SEND to a QP in IBV_QPS_INIT, whose send queue does "
			 "not take work before RTS (IBA 10.3.1: an immediate "
			 "error): an errno value and bad_wr that WR",
		 .needs = NEEDS_DP,
		 .contract = { RC_FAILS() } },
	  .check = init_refused },
	{ .c = { .id = "verbs/post_send/rc-sq-sig-all",
		 .doc = DOC_SIGNALED,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "sq_sig_all 1: a SEND without IBV_SEND_SIGNALED "
			 "completes all the same, the flag being relevant only "
			 "with sq_sig_all=0",
		 .needs = NEEDS_DP,
		 .contract = { RC_RETURNS(0) } },
	  .check = sig_all },
	{ .c = { .id = "verbs/post_send/rc-send-queue-full",
		 .doc = DOC_STOP,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "a list of max_send_wr + 1 RDMA Writes of 8 bytes, "
			 "nothing polled: an errno value, bad_wr the last (the "
			 "send queue holds the max_send_wr outstanding WRs "
			 "the QP was granted, ibv_create_qp(3)); the others "
			 "complete in order, each once, and their bytes land",
		 .needs = NEEDS_DP,
		 .contract = { RC_FAILS() } },
	  .check = send_queue_full },
	{ .c = { .id = "verbs/post_send/rc-queues-wrap",
		 .doc = DOC_POST,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "nine rounds of as many SENDs as the send queue holds, "
			 "each round's receives posted before it and every "
			 "completion taken after: the queues and both CQs go "
			 "round more than once, and every message arrives with "
			 "its own bytes, in order, on the last round too",
		 .needs = NEEDS_DP,
		 .contract = { RC_RETURNS(0) } },
	  .check = queues_wrap },
	{ .c = { .id = "verbs/post_send/rc-unsignaled",
		 .doc = DOC_SIGNALED,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "sq_sig_all 0: of two SENDs only the second has "
			 "IBV_SEND_SIGNALED, and only it completes",
		 .needs = NEEDS_DP,
		 .contract = { RC_RETURNS(0) } },
	  .check = unsignaled,
	  .sig_some = true },
	{ .c = { .id = "verbs/post_send/rc-completions-in-order",
		 .doc = DOC_POST,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "a list of four SENDs: the send queue is worked in "
			 "order, so both CQs give their completions in posting "
			 "order (IBA 10.8.6)",
		 .needs = NEEDS_DP,
		 .contract = { RC_RETURNS(0) } },
	  .check = in_order },
	{ .c = { .id = "verbs/post_send/rc-flush-after-error",
		 .doc = DOC_STATUS,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "three SENDs posted to a QP in IBV_QPS_ERR: each "
			 "completes with IBV_WC_WR_FLUSH_ERR, in order "
			 "(IBA 10.3.1: a QP in Error flushes its WRs)",
		 .needs = NEEDS_DP,
		 .contract = { RC_RETURNS(0) } },
	  .check = flush_after_error },
	{ .c = { .id = "verbs/post_send/ud-send-arrives",
		 .doc = DOC_POST,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a UD SEND of 256 bytes through an AH to b: they "
			 "arrive after the 40 bytes of GRH; the completion "
			 "has byte_len 296, IBV_WC_GRH and src_qp a's",
		 .needs = NEEDS_DP_UD,
		 .contract = { RC_RETURNS(0) } },
	  .check = ud_send,
	  .type = IBV_QPT_UD,
	  .op = IBV_WR_SEND },
	{ .c = { .id = "verbs/post_send/ud-send-with-imm",
		 .doc = DOC_IMM,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a UD SEND_WITH_IMM: IBV_WC_WITH_IMM beside "
			 "IBV_WC_GRH and the immediate's bytes as sent",
		 .needs = NEEDS_DP_UD,
		 .contract = { RC_RETURNS(0) } },
	  .check = ud_send,
	  .type = IBV_QPT_UD,
	  .op = IBV_WR_SEND_WITH_IMM },
	{ .c = { .id = "verbs/post_send/peer-rc-send-arrives",
		 .doc = DOC_POST,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "rc-send-arrives from the target device to a QP on "
			 "the peer, each side with its own context",
		 .needs = NEEDS_PEER,
		 .contract = { RC_RETURNS(0) } },
	  .check = send_arrives,
	  .peer = true },
	{ .c = { .id = "verbs/post_send/peer-rc-rdma-write",
		 .doc = DOC_POST,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "rc-rdma-write into the peer's memory",
		 .needs = NEEDS_PEER,
		 .contract = { RC_RETURNS(0) } },
	  .check = rdma_write,
	  .peer = true },
	{ .c = { .id = "verbs/post_send/peer-rc-rdma-read",
		 .doc = DOC_POST,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "rc-rdma-read of the peer's memory",
		 .needs = NEEDS_PEER,
		 .contract = { RC_RETURNS(0) } },
	  .check = rdma_read,
	  .peer = true },
	{ .c = { .id = "verbs/post_send/peer-rc-atomic-fetch-add",
		 .doc = DOC_POST,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "rc-atomic-fetch-add on the peer's memory",
		 .needs = NEEDS_PEER | RC_NEED_ATOMIC,
		 .contract = { RC_RETURNS(0) } },
	  .check = fetch_add,
	  .peer = true },
	{ .c = { .id = "verbs/post_send/peer-ud-send-arrives",
		 .doc = DOC_POST,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "ud-send-arrives through an AH to the peer's GID",
		 .needs = NEEDS_PEER | RC_NEED_UD,
		 .contract = { RC_RETURNS(0) } },
	  .check = ud_send,
	  .type = IBV_QPT_UD,
	  .op = IBV_WR_SEND,
	  .peer = true },
	{ .c = { .id = "verbs/post_send/uc-send-arrives",
		 .doc = DOC_TABLE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the table gives IBV_QPT_UC IBV_WR_SEND: the bytes and "
			 "both completions as on RC",
		 .needs = NEEDS_DP | RC_NEED_UC,
		 .contract = { RC_RETURNS(0) } },
	  .check = send_arrives,
	  .type = IBV_QPT_UC },
	{ .c = { .id = "verbs/post_send/uc-rdma-write",
		 .doc = DOC_TABLE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the table gives IBV_QPT_UC IBV_WR_RDMA_WRITE: it lands "
			 "and consumes no receive",
		 .needs = NEEDS_DP | RC_NEED_UC,
		 .contract = { RC_RETURNS(0) } },
	  .check = rdma_write,
	  .type = IBV_QPT_UC },
	{ .c = { .id = "verbs/post_send/ud-rdma-write-refused",
		 .doc = DOC_TABLE " ... " DOC_STOP,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the table gives IBV_QPT_UD no IBV_WR_RDMA_WRITE: a "
			 "failure that can be detected immediately, so an "
			 "errno value and bad_wr that WR (the page does not "
			 "say the post fails rather than the WR completing "
			 "in error)",
		 .needs = NEEDS_DP_UD,
		 .contract = { RC_FAILS() } },
	  .check = opcode_refused,
	  .type = IBV_QPT_UD,
	  .op = IBV_WR_RDMA_WRITE },
	{ .c = { .id = "verbs/post_send/uc-rdma-read-refused",
		 .doc = DOC_TABLE " ... " DOC_STOP,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the table gives IBV_QPT_UC no IBV_WR_RDMA_READ: a "
			 "failure that can be detected immediately, so an "
			 "errno value and bad_wr that WR (the page does not "
			 "say the post fails rather than the WR completing "
			 "in error)",
		 .needs = NEEDS_DP | RC_NEED_UC,
		 .contract = { RC_FAILS() } },
	  .check = opcode_refused,
	  .type = IBV_QPT_UC,
	  .op = IBV_WR_RDMA_READ },
};

/* Post @wr on a, observed; bad_wr in @bad */
/* a SEND of LEN patterned bytes from region 0, and its two completions */
static void send_and_check(struct rc_ctx *ctx, struct vt *t,
			   enum ibv_wr_opcode op)
{
	struct ibv_sge sg = vt_sge(t, 0, 0, LEN);
	struct ibv_send_wr wr = vt_wr(t, op, 1, &sg, 1), *bad;
	bool imm = op == IBV_WR_SEND_WITH_IMM;

	vt_pattern(t, 0, LEN, 1);
	wr.imm_data = htobe32(IMM);
	if (!vt_recv_ready(ctx, t, 2, VT_REGION) ||
	    !vt_post_send(ctx, t, &wr, &bad))
		return;
	if (!vt_one_wc(ctx, t->rcq, "recv",
		       &(struct vt_wc){ .wr_id = 2,
					.opcode = IBV_WC_RECV,
					.byte_len = LEN,
					.qp_num = t->b->qp_num,
					.src_qp = -1,
					.wc_flags = imm ? IBV_WC_WITH_IMM : 0,
					.imm = imm,
					.imm_data = wr.imm_data }))
		return;
	if (!vt_one_wc(ctx, t->scq, "send",
		       &(struct vt_wc){ .wr_id = 1,
					.opcode = IBV_WC_SEND,
					.byte_len = -1,
					.qp_num = t->a->qp_num,
					.src_qp = -1,
					.wc_flags = -1 }))
		return;
	vt_same(ctx, "received", vt_region(t, 1), vt_region(t, 0), LEN);
}

static void send_arrives(const struct send_row *row, struct rc_ctx *ctx,
			 struct vt *t)
{
	send_and_check(ctx, t, IBV_WR_SEND);
}

static void send_imm(const struct send_row *row, struct rc_ctx *ctx,
		     struct vt *t)
{
	send_and_check(ctx, t, IBV_WR_SEND_WITH_IMM);
}

static void rdma_write(const struct send_row *row, struct rc_ctx *ctx,
		       struct vt *t)
{
	struct ibv_sge sg = vt_sge(t, 0, 0, LEN);
	struct ibv_send_wr wr = vt_remote_wr(t, IBV_WR_RDMA_WRITE, &sg), *bad;
	struct ibv_wc wc;

	vt_pattern(t, 0, LEN, 3);
	if (!vt_recv_ready(ctx, t, 2, VT_REGION) ||
	    !vt_post_send(ctx, t, &wr, &bad))
		return;
	if (!vt_one_wc(ctx, t->scq, "send",
		       &(struct vt_wc){ .wr_id = 1,
					.opcode = IBV_WC_RDMA_WRITE,
					.byte_len = -1,
					.qp_num = t->a->qp_num,
					.src_qp = -1,
					.wc_flags = -1 }))
		return;
	if (!vt_lands(ctx, t, "remote", vt_region(t, 2), vt_region(t, 0), LEN))
		return;
	if (!vt_quiet(ctx, t->rcq, &wc))
		rc_obs_violation(ctx->obs,
				 "recv: an RDMA_WRITE completed "
				 "receive %llu (opcode %d)",
				 (unsigned long long)wc.wr_id, wc.opcode);
}

static void rdma_write_imm(const struct send_row *row, struct rc_ctx *ctx,
			   struct vt *t)
{
	struct ibv_sge sg = vt_sge(t, 0, 0, LEN);
	struct ibv_send_wr wr = vt_remote_wr(t, IBV_WR_RDMA_WRITE_WITH_IMM,
					     &sg),
			   *bad;

	vt_pattern(t, 0, LEN, 5);
	wr.imm_data = htobe32(IMM);
	if (!vt_recv_ready(ctx, t, 2, VT_REGION) ||
	    !vt_post_send(ctx, t, &wr, &bad))
		return;
	if (!vt_one_wc(ctx, t->rcq, "recv",
		       &(struct vt_wc){ .wr_id = 2,
					.opcode = IBV_WC_RECV_RDMA_WITH_IMM,
					.byte_len = LEN,
					.qp_num = t->b->qp_num,
					.src_qp = -1,
					.wc_flags = IBV_WC_WITH_IMM,
					.imm = true,
					.imm_data = wr.imm_data }))
		return;
	vt_same(ctx, "remote", vt_region(t, 2), vt_region(t, 0), LEN);
}

static void rdma_read(const struct send_row *row, struct rc_ctx *ctx,
		      struct vt *t)
{
	struct ibv_sge sg = vt_sge(t, 3, 0, LEN);
	struct ibv_send_wr wr = vt_remote_wr(t, IBV_WR_RDMA_READ, &sg), *bad;

	vt_pattern(t, 2, LEN, 9);
	if (!vt_post_send(ctx, t, &wr, &bad))
		return;
	if (!vt_one_wc(ctx, t->scq, "send",
		       &(struct vt_wc){ .wr_id = 1,
					.opcode = IBV_WC_RDMA_READ,
					.byte_len = LEN,
					.qp_num = t->a->qp_num,
					.src_qp = -1,
					.wc_flags = -1 }))
		return;
	vt_same(ctx, "read", vt_region(t, 3), vt_region(t, 2), LEN);
}

/* An atomic on the 8 bytes at region 2 holding @orig: the remote value
 * and the returned one checked */
static void atomic(struct rc_ctx *ctx, struct vt *t, enum ibv_wr_opcode op,
		   uint64_t orig, uint64_t cmp_add, uint64_t swap,
		   uint64_t after)
{
	struct ibv_sge sg = vt_sge(t, 3, 0, 8);
	struct ibv_send_wr wr = vt_wr(t, op, 1, &sg, 1), *bad;
	uint64_t remote, local;

	memcpy(vt_region(t, 2), &orig, 8);
	wr.wr.atomic.remote_addr = vt_addr(t, 2, 0);
	wr.wr.atomic.rkey = t->bmr->rkey;
	wr.wr.atomic.compare_add = cmp_add;
	wr.wr.atomic.swap = swap;
	if (!vt_post_send(ctx, t, &wr, &bad))
		return;
	if (!vt_one_wc(ctx, t->scq, "send",
		       &(struct vt_wc){
			       .wr_id = 1,
			       .opcode = op == IBV_WR_ATOMIC_FETCH_AND_ADD ?
						 IBV_WC_FETCH_ADD :
						 IBV_WC_COMP_SWAP,
			       .byte_len = 8,
			       .qp_num = t->a->qp_num,
			       .src_qp = -1,
			       .wc_flags = -1 }))
		return;
	memcpy(&remote, vt_region(t, 2), 8);
	memcpy(&local, vt_region(t, 3), 8);
	if (remote != after)
		rc_obs_violation(ctx->obs, "remote: %#llx, not %#llx",
				 (unsigned long long)remote,
				 (unsigned long long)after);
	else if (local != orig)
		rc_obs_violation(ctx->obs,
				 "returned: %#llx, not the original "
				 "%#llx",
				 (unsigned long long)local,
				 (unsigned long long)orig);
}

static void fetch_add(const struct send_row *row, struct rc_ctx *ctx,
		      struct vt *t)
{
	atomic(ctx, t, IBV_WR_ATOMIC_FETCH_AND_ADD, 0x0102030405060708ull,
	       0x1010101010101010ull, 0, 0x1112131415161718ull);
}

static void cmp_swap(const struct send_row *row, struct rc_ctx *ctx,
		     struct vt *t)
{
	atomic(ctx, t, IBV_WR_ATOMIC_CMP_AND_SWP, 0x0102030405060708ull,
	       0x0102030405060708ull, 0x2122232425262728ull,
	       0x2122232425262728ull);
}

static void cmp_swap_mismatch(const struct send_row *row, struct rc_ctx *ctx,
			      struct vt *t)
{
	atomic(ctx, t, IBV_WR_ATOMIC_CMP_AND_SWP, 0x0102030405060708ull,
	       0x0807060504030201ull, 0x2122232425262728ull,
	       0x0102030405060708ull);
}

static void zero_length(const struct send_row *row, struct rc_ctx *ctx,
			struct vt *t)
{
	struct ibv_send_wr wr = vt_wr(t, IBV_WR_SEND, 1, NULL, 0), *bad;

	if (!vt_recv_ready(ctx, t, 2, VT_REGION) ||
	    !vt_post_send(ctx, t, &wr, &bad))
		return;
	vt_one_wc(ctx, t->rcq, "recv",
		  &(struct vt_wc){ .wr_id = 2,
				   .opcode = IBV_WC_RECV,
				   .byte_len = 0,
				   .qp_num = t->b->qp_num,
				   .src_qp = -1,
				   .wc_flags = 0 });
}

#define SGE_LEN 16
#define MAX_SGE 64

/* @n SGEs of SGE_LEN bytes, 64 bytes apart in region 0 */
static void scattered(struct vt *t, struct ibv_sge *sg, int n)
{
	int i;

	for (i = 0; i < n; i++)
		sg[i] = vt_sge(t, 0, i * 64, SGE_LEN);
}

static void sge_max(const struct send_row *row, struct rc_ctx *ctx,
		    struct vt *t)
{
	struct ibv_sge sg[MAX_SGE];
	struct ibv_send_wr wr, *bad;
	int n = t->cap.max_send_sge, i;
	uint8_t want[MAX_SGE * SGE_LEN];

	if (n > MAX_SGE || n * 64 > VT_REGION) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "max_send_sge %d: more "
			     "than the row has room for",
			     n);
		return;
	}
	vt_pattern(t, 0, VT_REGION, 11);
	scattered(t, sg, n);
	for (i = 0; i < n; i++)
		memcpy(want + i * SGE_LEN, vt_region(t, 0) + i * 64, SGE_LEN);
	wr = vt_wr(t, IBV_WR_SEND, 1, sg, n);
	if (!vt_recv_ready(ctx, t, 2, VT_REGION) ||
	    !vt_post_send(ctx, t, &wr, &bad))
		return;
	if (!vt_one_wc(ctx, t->rcq, "recv",
		       &(struct vt_wc){ .wr_id = 2,
					.opcode = IBV_WC_RECV,
					.byte_len = n * SGE_LEN,
					.qp_num = t->b->qp_num,
					.src_qp = -1,
					.wc_flags = 0 }))
		return;
	vt_same(ctx, "received", vt_region(t, 1), want, n * SGE_LEN);
}

/* bad_wr must be @want; the WR before it, posted, completes */
static void rejected_second(struct rc_ctx *ctx, struct vt *t,
			    struct ibv_send_wr *bad, struct ibv_send_wr *want)
{
	if (ctx->obs->ret == 0)
		return;
	if (!vt_refused_wr(ctx, bad, want))
		return;
	vt_one_wc(ctx, t->scq, "first",
		  &(struct vt_wc){ .wr_id = 1,
				   .opcode = IBV_WC_SEND,
				   .byte_len = -1,
				   .qp_num = t->a->qp_num,
				   .src_qp = -1,
				   .wc_flags = -1 });
}

static void sge_one_beyond(const struct send_row *row, struct rc_ctx *ctx,
			   struct vt *t)
{
	struct ibv_sge sg[MAX_SGE + 1], one = vt_sge(t, 0, 0, LEN);
	struct ibv_send_wr wr[2], *bad;
	int n = t->cap.max_send_sge + 1;

	if (n > MAX_SGE + 1 || n * 64 > VT_REGION) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "max_send_sge %d: more "
			     "than the row has room for",
			     n - 1);
		return;
	}
	scattered(t, sg, n);
	wr[0] = vt_wr(t, IBV_WR_SEND, 1, &one, 1);
	wr[1] = vt_wr(t, IBV_WR_SEND, 2, sg, n);
	wr[0].next = &wr[1];
	if (!vt_recv_ready(ctx, t, 3, VT_REGION) ||
	    !vt_recv_ready(ctx, t, 4, VT_REGION))
		return;
	vt_post_send(ctx, t, wr, &bad);
	rejected_second(ctx, t, bad, &wr[1]);
}

static void send_queue_full(const struct send_row *row, struct rc_ctx *ctx,
			    struct vt *t)
{
	uint32_t i, n = t->cap.max_send_wr + 1;
	struct ibv_send_wr *wr = calloc(n, sizeof(*wr)), *bad;
	struct ibv_sge *sg = calloc(n, sizeof(*sg));
	struct ibv_wc *wc = calloc(n, sizeof(*wc));

	if (!wr || !sg || !wc || n * 8 > VT_REGION) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "max_send_wr %u: more than the row has room "
			     "for, or no memory",
			     n - 1);
		goto out;
	}
	vt_pattern(t, 0, n * 8, 23);
	for (i = 0; i < n; i++) {
		sg[i] = vt_sge(t, 0, i * 8, 8);
		wr[i] = vt_remote_wr(t, IBV_WR_RDMA_WRITE, &sg[i]);
		wr[i].wr_id = 100 + i;
		wr[i].wr.rdma.remote_addr = vt_addr(t, 2, i * 8);
		wr[i].next = i + 1 < n ? &wr[i + 1] : NULL;
	}
	if (vt_post_send(ctx, t, wr, &bad))
		goto out;
	if (!vt_refused_last(ctx, bad, wr, n, sizeof(*wr)))
		goto out;
	if (!vt_a_run(ctx, t, wc, n - 1, 100, IBV_WC_RDMA_WRITE, -1))
		goto out;
	vt_nothing_beyond(ctx, t->scq, "send", n - 1);
	vt_lands(ctx, t, "remote", vt_region(t, 2), vt_region(t, 0),
		 (n - 1) * 8);
	if (vt_region(t, 2)[(n - 1) * 8] != 0)
		rc_obs_violation(ctx->obs, "remote: the refused WR's bytes "
					   "landed");
out:
	free(wr);
	free(sg);
	free(wc);
}

static void inline_max(const struct send_row *row, struct rc_ctx *ctx,
		       struct vt *t)
{
	uint32_t n = t->cap.max_inline_data;
	uint8_t *src = malloc(n ? n : 1), *want = malloc(n ? n : 1);
	struct ibv_sge sg = { .addr = (uintptr_t)src, .length = n };
	struct ibv_send_wr wr = vt_wr(t, IBV_WR_SEND, 1, &sg, 1), *bad;
	uint32_t i;

	if (!src || !want || !n) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "max_inline_data %u, "
			     "or no memory",
			     n);
		goto out;
	}
	for (i = 0; i < n; i++)
		src[i] = want[i] = (uint8_t)(i * 7 + 13);
	wr.send_flags |= IBV_SEND_INLINE;
	if (!vt_recv_ready(ctx, t, 2, VT_REGION) ||
	    !vt_post_send(ctx, t, &wr, &bad))
		goto out;
	memset(src, 0xee, n);
	if (!vt_one_wc(ctx, t->rcq, "recv",
		       &(struct vt_wc){ .wr_id = 2,
					.opcode = IBV_WC_RECV,
					.byte_len = n,
					.qp_num = t->b->qp_num,
					.src_qp = -1,
					.wc_flags = 0 }))
		goto out;
	vt_same(ctx, "received", vt_region(t, 1), want, n);
out:
	free(src);
	free(want);
}

static void refused_alone(struct rc_ctx *ctx, struct ibv_send_wr *bad,
			  struct ibv_send_wr *wr)
{
	if (ctx->obs->ret != 0)
		vt_refused_wr(ctx, bad, wr);
}

static void inline_one_beyond(const struct send_row *row, struct rc_ctx *ctx,
			      struct vt *t)
{
	uint32_t n = t->cap.max_inline_data + 1;
	uint8_t *src = calloc(1, n);
	struct ibv_sge sg = { .addr = (uintptr_t)src, .length = n };
	struct ibv_send_wr wr = vt_wr(t, IBV_WR_SEND, 1, &sg, 1), *bad;

	if (!src) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN, "no memory");
		return;
	}
	wr.send_flags |= IBV_SEND_INLINE;
	if (vt_recv_ready(ctx, t, 2, VT_REGION)) {
		vt_post_send(ctx, t, &wr, &bad);
		refused_alone(ctx, bad, &wr);
	}
	free(src);
}

static void inline_read(const struct send_row *row, struct rc_ctx *ctx,
			struct vt *t)
{
	struct ibv_sge sg = vt_sge(t, 1, 0, 16);
	struct ibv_send_wr wr = vt_remote_wr(t, IBV_WR_RDMA_READ, &sg), *bad;

	wr.send_flags |= IBV_SEND_INLINE;
	vt_post_send(ctx, t, &wr, &bad);
	refused_alone(ctx, bad, &wr);
}

static void wrong_rkey(const struct send_row *row, struct rc_ctx *ctx,
		       struct vt *t)
{
	struct ibv_sge sg = vt_sge(t, 0, 0, LEN);
	struct ibv_send_wr wr = vt_remote_wr(t, IBV_WR_RDMA_WRITE, &sg), *bad;

	/* another key of the same index would name no MR either; flip the
	 * index's top bit, far from any MR of this process */
	wr.wr.rdma.rkey = t->bmr->rkey ^ 0x00800000;
	if (!vt_post_send(ctx, t, &wr, &bad))
		return;
	vt_a_failed(ctx, t, IBV_WC_REM_ACCESS_ERR);
}

static void read_only_mr(const struct send_row *row, struct rc_ctx *ctx,
			 struct vt *t)
{
	struct ibv_sge sg = vt_sge(t, 0, 0, LEN);
	struct ibv_send_wr wr = vt_remote_wr(t, IBV_WR_RDMA_WRITE, &sg), *bad;
	struct ibv_mr *ro;
	uint8_t want[LEN];

	ro = (ctx->ops->ibv_reg_mr)(t->l.pd, vt_region(t, 3), VT_REGION,
				    IBV_ACCESS_LOCAL_WRITE |
					    IBV_ACCESS_REMOTE_READ);
	if (!ro) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_reg_mr failed (set-up): %m");
		return;
	}
	vt_pattern(t, 0, LEN, 37);
	vt_pattern(t, 3, LEN, 41);
	memcpy(want, vt_region(t, 3), LEN);
	wr.wr.rdma.remote_addr = vt_addr(t, 3, 0);
	wr.wr.rdma.rkey = ro->rkey;
	if (vt_post_send(ctx, t, &wr, &bad) &&
	    vt_a_failed(ctx, t, IBV_WC_REM_ACCESS_ERR))
		vt_same(ctx, "read-only", vt_region(t, 3), want, LEN);
	ctx->ops->ibv_dereg_mr(ro);
}

/* a SEND of 16 bytes that must complete with @status on a */
static void send_fails_with(struct rc_ctx *ctx, struct vt *t,
			    enum ibv_wc_status status)
{
	struct ibv_sge sg = vt_sge(t, 0, 0, 16);
	struct ibv_send_wr wr = vt_wr(t, IBV_WR_SEND, 1, &sg, 1), *bad;

	if (vt_post_send(ctx, t, &wr, &bad))
		vt_a_failed(ctx, t, status);
}

static void rnr_retry_exceeded(const struct send_row *row, struct rc_ctx *ctx,
			       struct vt *t)
{
	send_fails_with(ctx, t, IBV_WC_RNR_RETRY_EXC_ERR);
}

static void remote_qp_gone(const struct send_row *row, struct rc_ctx *ctx,
			   struct vt *t)
{
	if (ctx->ops->ibv_destroy_qp(t->b)) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_destroy_qp failed (set-up): %m");
		return;
	}
	t->b = NULL;
	send_fails_with(ctx, t, IBV_WC_RETRY_EXC_ERR);
}

static void init_refused(const struct send_row *row, struct rc_ctx *ctx,
			 struct vt *t)
{
	struct ibv_qp_init_attr qa = {
		.qp_type = IBV_QPT_RC,
		.send_cq = t->scq,
		.recv_cq = t->rcq,
		.cap = { .max_send_wr = 4,
			 .max_recv_wr = 4,
			 .max_send_sge = 1,
			 .max_recv_sge = 1 },
		.sq_sig_all = 1,
	};
	struct ibv_sge sg = vt_sge(t, 0, 0, 16);
	struct ibv_send_wr wr = vt_wr(t, IBV_WR_SEND, 1, &sg, 1), *bad = NULL;
	struct ibv_qp *qp = ctx->ops->ibv_create_qp(t->l.pd, &qa);
	const char *why;

	if (!qp || !vl_qp_to(ctx, qp, IBV_QPS_INIT, t->b->qp_num, &why)) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "a QP in INIT could not be made (set-up): %m");
		if (qp)
			ctx->ops->ibv_destroy_qp(qp);
		return;
	}
	RC_OBSERVE(ctx, ctx->ops->ibv_post_send(qp, &wr, &bad));
	refused_alone(ctx, bad, &wr);
	ctx->ops->ibv_destroy_qp(qp);
}

static void sig_all(const struct send_row *row, struct rc_ctx *ctx,
		    struct vt *t)
{
	struct ibv_sge sg = vt_sge(t, 0, 0, 16);
	struct ibv_send_wr wr = vt_wr(t, IBV_WR_SEND, 1, &sg, 1), *bad;

	wr.send_flags = 0;
	if (!vt_recv_ready(ctx, t, 2, VT_REGION) ||
	    !vt_post_send(ctx, t, &wr, &bad))
		return;
	vt_one_wc(ctx, t->scq, "send",
		  &(struct vt_wc){ .wr_id = 1,
				   .opcode = IBV_WC_SEND,
				   .byte_len = -1,
				   .qp_num = t->a->qp_num,
				   .src_qp = -1,
				   .wc_flags = -1 });
}

#define ROUNDS 9
#define WRAP_MAX 64

/* One round of @n SENDs of 8 bytes, message k carrying bytes k * 8 ..
 * of region 0 into its own 64 bytes of region 1 */
static bool round_trip(struct rc_ctx *ctx, struct vt *t, int round, int n)
{
	struct ibv_sge sg[WRAP_MAX];
	struct ibv_send_wr wr[WRAP_MAX], *bad;
	struct ibv_recv_wr rw[WRAP_MAX], *rbad;
	struct ibv_sge rs[WRAP_MAX];
	struct ibv_wc wc[WRAP_MAX];
	uint64_t base = (uint64_t)round * 1000;
	char who[32];
	int i;

	vt_recv_list(t, rw, rs, n, 0, 64, base + 500);
	for (i = 0; i < n; i++) {
		sg[i] = vt_sge(t, 0, (round * n + i) % 256 * 8, 8);
		wr[i] = vt_wr(t, IBV_WR_SEND, base + i, &sg[i], 1);
		wr[i].next = i + 1 < n ? &wr[i + 1] : NULL;
	}
	if (ctx->ops->ibv_post_recv(t->b, rw, &rbad)) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_post_recv failed (set-up): %m");
		return false;
	}
	RC_OBSERVE(ctx, ctx->ops->ibv_post_send(t->a, wr, &bad));
	if (ctx->obs->ret != 0)
		return false;
	snprintf(who, sizeof(who), "recv (round %d)", round);
	if (!vt_expect_run(ctx, who, t->rcq, wc, n,
			   &(struct vt_wc){ .wr_id = base + 500,
					    .opcode = IBV_WC_RECV,
					    .byte_len = 8,
					    .qp_num = t->b->qp_num,
					    .src_qp = -1,
					    .wc_flags = 0 },
			   0))
		return false;
	for (i = 0; i < n; i++)
		if (!vt_same(ctx, "received", vt_region(t, 1) + i * 64,
			     (void *)(uintptr_t)sg[i].addr, 8))
			return false;
	snprintf(who, sizeof(who), "send (round %d)", round);
	return vt_expect_run(ctx, who, t->scq, wc, n,
			     &(struct vt_wc){ .wr_id = base,
					      .opcode = IBV_WC_SEND,
					      .byte_len = -1,
					      .qp_num = t->a->qp_num,
					      .src_qp = -1,
					      .wc_flags = -1 },
			     0);
}

static void queues_wrap(const struct send_row *row, struct rc_ctx *ctx,
			struct vt *t)
{
	int n = t->cap.max_send_wr, r;

	if (n > WRAP_MAX || n > (int)t->bcap.max_recv_wr ||
	    n * 64 > VT_REGION) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "max_send_wr %d, max_recv_wr %u: not what the row "
			     "has room for",
			     n, t->bcap.max_recv_wr);
		return;
	}
	vt_pattern(t, 0, VT_REGION, 43);
	for (r = 0; r < ROUNDS; r++)
		if (!round_trip(ctx, t, r, n))
			return;
}

static void unsignaled(const struct send_row *row, struct rc_ctx *ctx,
		       struct vt *t)
{
	struct ibv_sge sg = vt_sge(t, 0, 0, 16);
	struct ibv_send_wr wr[2], *bad;
	struct ibv_wc wc;

	wr[0] = vt_wr(t, IBV_WR_SEND, 1, &sg, 1);
	wr[0].send_flags = 0;
	wr[1] = vt_wr(t, IBV_WR_SEND, 2, &sg, 1);
	wr[0].next = &wr[1];
	if (!vt_recv_ready(ctx, t, 3, VT_REGION) ||
	    !vt_recv_ready(ctx, t, 4, VT_REGION) ||
	    !vt_post_send(ctx, t, wr, &bad))
		return;
	if (!vt_one_wc(ctx, t->scq, "send",
		       &(struct vt_wc){ .wr_id = 2,
					.opcode = IBV_WC_SEND,
					.byte_len = -1,
					.qp_num = t->a->qp_num,
					.src_qp = -1,
					.wc_flags = -1 }))
		return;
	if (!vt_quiet(ctx, t->scq, &wc))
		rc_obs_violation(ctx->obs,
				 "send: a second completion, wr_id "
				 "%llu",
				 (unsigned long long)wc.wr_id);
}

#define ORDERED 4

static void in_order(const struct send_row *row, struct rc_ctx *ctx,
		     struct vt *t)
{
	struct ibv_sge sg[ORDERED];
	struct ibv_send_wr wr[ORDERED], *bad;
	struct ibv_wc wc[ORDERED];
	int i;

	for (i = 0; i < ORDERED; i++) {
		sg[i] = vt_sge(t, 0, i * 64, 16 + i);
		wr[i] = vt_wr(t, IBV_WR_SEND, 1 + i, &sg[i], 1);
		wr[i].next = i + 1 < ORDERED ? &wr[i + 1] : NULL;
		if (!vt_recv_ready(ctx, t, 10 + i, VT_REGION))
			return;
	}
	if (!vt_post_send(ctx, t, wr, &bad))
		return;
	if (!vt_b_run(ctx, t, wc, ORDERED, 10, 16, 1))
		return;
	vt_a_run(ctx, t, wc, ORDERED, 1, IBV_WC_SEND, -1);
}

#define FLUSHED 3

static void flush_after_error(const struct send_row *row, struct rc_ctx *ctx,
			      struct vt *t)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_ERR };
	struct ibv_sge sg = vt_sge(t, 0, 0, 16);
	struct ibv_send_wr wr[FLUSHED], *bad;
	struct ibv_wc wc[FLUSHED];
	int i;

	if (ctx->ops->ibv_modify_qp(t->a, &a, IBV_QP_STATE)) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_modify_qp to ERR failed (set-up): %m");
		return;
	}
	for (i = 0; i < FLUSHED; i++) {
		wr[i] = vt_wr(t, IBV_WR_SEND, 1 + i, &sg, 1);
		wr[i].next = i + 1 < FLUSHED ? &wr[i + 1] : NULL;
	}
	if (!vt_post_send(ctx, t, wr, &bad))
		return;
	vt_expect_run(ctx, "send", t->scq, wc, FLUSHED,
		      &(struct vt_wc){ .wr_id = 1,
				       .status = IBV_WC_WR_FLUSH_ERR,
				       .opcode = -1,
				       .byte_len = -1,
				       .qp_num = t->a->qp_num,
				       .src_qp = -1,
				       .wc_flags = -1 },
		      0);
}

#define GRH 40

static void ud_send(const struct send_row *row, struct rc_ctx *ctx,
		    struct vt *t)
{
	struct ibv_sge sg = vt_sge(t, 0, 0, LEN);
	struct ibv_send_wr wr = vt_wr(t, row->op, 1, &sg, 1), *bad;
	bool imm = row->op == IBV_WR_SEND_WITH_IMM;
	int flags = IBV_WC_GRH | (imm ? IBV_WC_WITH_IMM : 0);

	vt_pattern(t, 0, LEN, 17);
	wr.imm_data = htobe32(IMM);
	if (!vt_recv_ready(ctx, t, 2, GRH + LEN) ||
	    !vt_post_send(ctx, t, &wr, &bad))
		return;
	if (!vt_one_wc(ctx, t->rcq, "recv",
		       &(struct vt_wc){ .wr_id = 2,
					.opcode = IBV_WC_RECV,
					.byte_len = GRH + LEN,
					.qp_num = t->b->qp_num,
					.src_qp = t->a->qp_num,
					.wc_flags = flags,
					.ud = true,
					.imm = imm,
					.imm_data = wr.imm_data }))
		return;
	if (!vt_one_wc(ctx, t->scq, "send",
		       &(struct vt_wc){ .wr_id = 1,
					.opcode = IBV_WC_SEND,
					.byte_len = -1,
					.qp_num = t->a->qp_num,
					.src_qp = -1,
					.wc_flags = -1 }))
		return;
	vt_same(ctx, "received", vt_region(t, 1) + GRH, vt_region(t, 0), LEN);
}

static void opcode_refused(const struct send_row *row, struct rc_ctx *ctx,
			   struct vt *t)
{
	struct ibv_sge sg = vt_sge(t, 1, 0, 16);
	struct ibv_send_wr wr = vt_remote_wr(t, row->op, &sg), *bad;

	if (t->a->qp_type == IBV_QPT_UD) {
		wr = vt_wr(t, row->op, 1, &sg, 1);
		wr.wr.rdma.remote_addr = vt_addr(t, 2, 0);
	}
	vt_post_send(ctx, t, &wr, &bad);
	refused_alone(ctx, bad, &wr);
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct send_row *row = r;
	struct vt_opts o = { .type = row->type,
			     .sig_some = row->sig_some,
			     .peer = row->peer };
	struct vt t;

	if (vt_up(ctx, &t, &o))
		row->check(row, ctx, &t);
	vt_down(ctx, &t);
}

RC_TABLE_GROUP(group, "ibv_post_send", RC_CONV_ERRNO_RET, "verbs", rows, run);
