// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_wr_post(3): the work-request API of struct ibv_qp_ex.  "Posting
 * work requests to the QP is done within the critical region formed by
 * ibv_wr_start() and ibv_wr_complete()/ibv_wr_abort()"; "No work is
 * executed to the queue until ibv_wr_complete() returns success."; "The
 * individual APIs do not return a failure indication to avoid
 * branching.  If a failure is detected during operation, for instance
 * due to an invalid argument, then ibv_wr_complete() will return failure
 * and the entire posting will be aborted."
 *
 * Every row makes a (the sender of verbs_traffic.h) with
 * ibv_create_qp_ex and send_ops_flags, takes its struct ibv_qp_ex with
 * ibv_qp_to_qp_ex, posts one batch, and looks where it lands: b's
 * receive and its bytes, the remote memory, the atomic's original value
 * returned, both completions (wr_id from qp_ex->wr_id, the wr_flags, the
 * immediate in network byte order, all four bytes distinct).  What is
 * observed is the batch: ibv_wr_complete's return (0 when it ended in
 * ibv_wr_abort).  ibv_wr_complete's rows judge it by the contract; the
 * other calls return nothing, so their rows judge it and where the work
 * landed.  One group per call; each has a failing path.
 *
 * - wr_start: an empty batch; a batch after a failed one; one WR beyond
 *   max_send_wr fails the batch
 * - wr_complete: a SEND lands only after it; four SENDs in order; inline
 *   bytes beyond max_inline_data fail it and nothing arrives; exactly
 *   max_send_wr WRs all land; a region after another posts only its own
 * - wr_abort: the batch is discarded; the next batch is what arrives;
 *   an abort after a failed setter leaves the next batch working
 * - wr_send: RC, UC; unsignaled (wr_flags 0) and signaled; no receive:
 *   IBV_WC_RNR_RETRY_EXC_ERR; one SEND beyond max_send_wr fails the batch
 * - every builder: wr_flags 0 under sq_sig_all 0 does its work and gives
 *   no completion, IBV_SEND_SIGNALED after it does (each builder keeps
 *   the QP's wr_flags of its own)
 * - wr_send_imm: RC, UD; the immediate; a builder not in send_ops_flags
 * - wr_rdma_write, wr_rdma_write_imm, wr_rdma_read, wr_atomic_cmp_swp,
 *   wr_atomic_fetch_add: RC (and UC where the table gives it), where they
 *   land, and a wrong rkey: IBV_WC_REM_ACCESS_ERR
 * - wr_set_sge, wr_set_sge_list, wr_set_inline_data,
 *   wr_set_inline_data_list: the bytes gathered (or scattered), inline
 *   bytes copied during the setter, and the limits: an lkey no MR has,
 *   max_send_sge + 1 SGEs, max_inline_data + 1 bytes; exactly
 *   max_send_sge SGEs; one SGE on a QP granted one; wr_flags 0 kept by
 *   ibv_wr_set_sge and ibv_wr_set_sge_list; max_inline_data - 1 inline
 *   bytes; inline bytes after a gathered SEND are those bytes alone
 * - wr_set_ud_addr: UD SEND and SEND_WITH_IMM through an AH; a wrong
 *   qkey: nothing arrives
 *
 * The memory-window builders (ibv_wr_bind_mw, ibv_wr_local_inv) and
 * ibv_wr_send_inv have their rows with ibv_bind_mw's, in ibv_bind_mw.c.
 * ibv_wr_send_tso and ibv_wr_set_xrc_srqn have no rows yet: the
 * reference does not build them.  On iWARP (siw) the rows SKIP, as every
 * data-path row does (verbs_traffic.h).
 */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verbs_traffic.h"

#define DOC_REGION                                                            \
	"Posting work requests to the QP is done within the critical region " \
	"formed by ibv_wr_start() and ibv_wr_complete()/ibv_wr_abort() (see " \
	"CONCURRENCY below)."
#define DOC_NOWORK \
	"No work is executed to the queue until ibv_wr_complete() returns success."
#define DOC_ABORT \
	"ibv_wr_abort() will discard all work prepared since ibv_wr_start()."
#define DOC_FAILURE                                                          \
	"If a failure is detected during operation, for instance due to an " \
	"invalid argument, then ibv_wr_complete() will return failure and "  \
	"the entire posting will be aborted."
#define DOC_MULTI                                                             \
	"The WR builder and setter combination can be called multiple times " \
	"to efficiently post multiple work requests within a single "         \
	"critical region."
#define DOC_WRID                                                            \
	"Each WR builder will use the wr_id member of struct ibv_qp_ex to " \
	"set the value to be returned in the completion."
#define DOC_SIGNALED \
	"A completion will be generated in the completion queue for the operation."
#define DOC_SENDOPS                                                       \
	"The send_ops_flags should be set to the OR of the work request " \
	"types that will be posted to the QP."
#define DOC_SEND                                                               \
	"Send a message. The number of bytes to send, and the local location " \
	"to get the data, is determined by the DATA buffers set after this "   \
	"call."
#define DOC_WRITE \
	"Write to the remote memory location specified rkey and remote_addr."
#define DOC_WRITE_IMM                                       \
	"The _imm version causes the remote side to get a " \
	"IBV_WC_RECV_RDMA_WITH_IMM containing the 32 bits of immediate data."
#define DOC_READ                                                            \
	"Read from the remote memory location specified rkey and "          \
	"remote_addr. The number of bytes to read, and the local location " \
	"to store the data, is determined by the DATA buffers set after "   \
	"this call."
#define DOC_CSWP                                                      \
	"If the remote 64 bit memory location specified by rkey and " \
	"remote_addr equals compare then set it to swap."
#define DOC_FADD \
	"Add add to the 64 bit memory location specified rkey and remote_addr."
#define DOC_SGE \
	"Transfer data to/from a single buffer given by the lkey, addr and length."
#define DOC_SGE_LIST \
	"Transfer data to/from a list of buffers, logically concatenated together."
#define DOC_INLINE_COPY                                                 \
	"Inline setters will copy the send data during the setter and " \
	"allows the caller to immediately re-use the buffer."
#define DOC_INLINE_LIMIT \
	"The provider will limit the amount of data it can support in a single operation."
#define DOC_INLINE \
	"Copy send data from a single buffer given by the addr and length."
#define DOC_INLINE_LIST \
	"Copy send data from a list of buffers, logically concatenated together."
#define DOC_UD                                                                \
	"ibv_wr_set_ud_addr() must be called to set the destination address " \
	"of the work."
#define DOC_STATUS                                     \
	"enum ibv_wc_status status; /* Status of the " \
	"operation */"

#define NEEDS_DP (RC_NEED_DEVICE)
#define NEEDS_UD (RC_NEED_DEVICE | RC_NEED_UD)
#define LEN 256
#define IMM 0x0a0b0c0du

#define OPS_RC                                                            \
	(IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_SEND_WITH_IMM |             \
	 IBV_QP_EX_WITH_RDMA_WRITE | IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM | \
	 IBV_QP_EX_WITH_RDMA_READ | IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP |   \
	 IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD)
#define OPS_UC                                                \
	(IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_SEND_WITH_IMM | \
	 IBV_QP_EX_WITH_RDMA_WRITE | IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM)
#define OPS_UD (IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_SEND_WITH_IMM)

/* how the WR's data is given */
enum data { D_SGE, D_SGE_LIST, D_INLINE, D_INLINE_LIST };
/* what is wrong with the WR */
enum fault {
	F_NONE,
	F_RKEY, /* an rkey no MR has */
	F_LKEY, /* an lkey no MR has */
	F_QKEY, /* UD: a qkey b does not have */
	F_RNR, /* no receive posted */
	F_SGE, /* max_send_sge + 1 SGEs */
	F_SGE_EXACT, /* max_send_sge SGEs: an exact fit */
	F_INLINE, /* max_inline_data + 1 bytes */
	F_INLINE_SHORT, /* max_inline_data - 1 bytes: below the limit */
	F_UNSIGNALED, /* wr_flags 0 (sq_sig_all 0) */
};

struct wr_row;
typedef void wr_check(const struct wr_row *row, struct rc_ctx *ctx,
		      struct vt *t);

struct wr_row {
	struct rc_case c;
	wr_check *check;
	enum ibv_qp_type type; /* 0: RC */
	enum ibv_wr_opcode op;
	enum data data;
	enum fault fault;
	uint64_t ops; /* send_ops_flags; 0: the type's OPS_* */
	bool one_sge; /* both QPs ask for one SGE and no inline data */
	bool keep; /* observed: ibv_wr_complete's value (else 0 or 1) */
};

/* The batch's outcome as the row observes it: ibv_wr_complete's own
 * value for its rows; for the calls that return nothing, whether the
 * batch failed (1) or not (0), which is all the page says of them */
#define OBS(ctx, row, expr) \
	RC_OBSERVE(ctx, (row)->keep ? (long long)(expr) : !!(expr))

static wr_check one_wr, empty_batch, after_failed, beyond_max_wr, in_order,
	aborted, abort_then, abort_after_error, not_in_ops, fadd_twice,
	cswp_mismatch, exactly_max_wr, next_region_own, inline_after_list;

#define ROW(needs_, i, d, b, n, k, ...)                 \
	{                                               \
		.c = { .id = i,                         \
		       .doc = d,                        \
		       .basis = b,                      \
		       .note = n,                       \
		       .needs = NEEDS_DP | needs_,      \
		       .contract = { RC_ANY_RETURN } }, \
		.check = k, __VA_ARGS__                 \
	}
#define ROW_UD(i, d, b, n, k, ...)                          \
	{                                                   \
		.c = { .id = i,                             \
		       .doc = d,                            \
		       .basis = b,                          \
		       .note = n,                           \
		       .needs = NEEDS_UD,                   \
		       .contract = { RC_ANY_RETURN } },     \
		.check = k, .type = IBV_QPT_UD, __VA_ARGS__ \
	}

#define I_ RC_BASIS_INTERPRETATION

static const struct wr_row start_rows[] = {
	ROW(0, "verbs/wr_start/empty-batch", DOC_REGION, I_,
	    "ibv_wr_start then ibv_wr_complete with no WR between: a region "
	    "with no work posts none, ibv_wr_complete returns 0, and nothing "
	    "completes",
	    empty_batch),
	ROW(0, "verbs/wr_start/after-failed-batch", DOC_REGION, I_,
	    "a batch that failed (inline bytes beyond max_inline_data) ended "
	    "the region: the next ibv_wr_start opens one whose SEND arrives",
	    after_failed),
	ROW(0, "verbs/wr_start/beyond-max-send-wr", DOC_FAILURE, I_,
	    "max_send_wr + 1 SENDs in one region: more than the send queue "
	    "holds, a failure ibv_wr_complete reports, and none arrives",
	    beyond_max_wr, .op = IBV_WR_SEND),
};

static const struct wr_row complete_rows[] = {
	{ .c = { .id = "verbs/wr_complete/posts-the-batch",
		 .doc = DOC_NOWORK,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a SEND of 256 distinct bytes built in the region: "
			 "ibv_wr_complete returns 0 and the bytes arrive",
		 .needs = NEEDS_DP,
		 .contract = { RC_RETURNS(0) } },
	  .check = one_wr,
	  .op = IBV_WR_SEND,
	  .keep = true },
	{ .c = { .id = "verbs/wr_complete/batch-in-order",
		 .doc = DOC_MULTI,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "four SENDs of one region, wr_id 1 to 4: each arrives "
			 "in its receive in order, both CQs in posting order "
			 "(IBA 10.8.6)",
		 .needs = NEEDS_DP,
		 .contract = { RC_RETURNS(0) } },
	  .check = in_order,
	  .keep = true },
	{ .c = { .id = "verbs/wr_complete/inline-beyond-max",
		 .doc = DOC_FAILURE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a SEND of max_inline_data + 1 inline bytes, beyond "
			 "what the QP was granted: ibv_wr_complete fails and "
			 "nothing arrives",
		 .needs = NEEDS_DP,
		 .contract = { RC_FAILS() } },
	  .check = one_wr,
	  .op = IBV_WR_SEND,
	  .data = D_INLINE,
	  .fault = F_INLINE,
	  .keep = true },
	{ .c = { .id = "verbs/wr_complete/exactly-max-send-wr",
		 .doc = DOC_MULTI,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "max_send_wr RDMA_WRITEs of 16 bytes in one region, "
			 "as many as the QP was granted (an exact fit): 0, "
			 "each lands at its offset and completes, in order",
		 .needs = NEEDS_DP,
		 .contract = { RC_RETURNS(0) } },
	  .check = exactly_max_wr,
	  .keep = true },
	{ .c = { .id = "verbs/wr_complete/next-region-posts-its-own",
		 .doc = DOC_REGION,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "two SENDs in one region, then one in the next, four "
			 "receives: 0, three messages and three send "
			 "completions (wr_id 1 to 3), and the fourth receive "
			 "stays: a region posts its own work and none of the "
			 "region before",
		 .needs = NEEDS_DP,
		 .contract = { RC_RETURNS(0) } },
	  .check = next_region_own,
	  .keep = true },
};

static const struct wr_row abort_rows[] = {
	ROW(0, "verbs/wr_abort/discards-the-batch", DOC_ABORT,
	    RC_BASIS_DOCUMENTED,
	    "a SEND and an RDMA_WRITE built, then ibv_wr_abort: no receive "
	    "and no send completes, and the remote memory is as it was",
	    aborted),
	ROW(0, "verbs/wr_abort/next-batch-arrives", DOC_ABORT,
	    RC_BASIS_DOCUMENTED,
	    "an aborted SEND (wr_id 1), then a region with a SEND (wr_id 2): "
	    "only the second arrives, its bytes and wr_id",
	    abort_then),
	ROW(0, "verbs/wr_abort/after-failed-setter", DOC_ABORT, I_,
	    "SGEs beyond max_send_sge, then ibv_wr_abort instead of "
	    "ibv_wr_complete: the failure is discarded with the work, and the "
	    "next region's SEND arrives",
	    abort_after_error),
};

static const struct wr_row send_rows[] = {
	ROW(0, "verbs/wr_send/rc-send", DOC_SEND, RC_BASIS_DOCUMENTED,
	    "256 distinct bytes by ibv_wr_set_sge: they arrive, b's receive "
	    "IBV_WC_RECV byte_len 256, a's IBV_WC_SEND with the QP's wr_id",
	    one_wr, .op = IBV_WR_SEND),
	ROW(RC_NEED_UC, "verbs/wr_send/uc-send", DOC_SEND, RC_BASIS_DOCUMENTED,
	    "the table gives UC SEND: the bytes and both completions", one_wr,
	    .op = IBV_WR_SEND, .type = IBV_QPT_UC),
	ROW(0, "verbs/wr_send/unsignaled", DOC_SIGNALED, RC_BASIS_DOCUMENTED,
	    "sq_sig_all 0: a SEND with wr_flags 0, then one with "
	    "IBV_SEND_SIGNALED: both arrive, only the second completes at a",
	    one_wr, .op = IBV_WR_SEND, .fault = F_UNSIGNALED),
	ROW(RC_NEED_NAK, "verbs/wr_send/rnr-retry-exceeded", DOC_STATUS, I_,
	    "a SEND that finds no receive (rnr_retry 1): it completes with "
	    "IBV_WC_RNR_RETRY_EXC_ERR (IBA 9.7.5.2.8, 10.8.3)",
	    one_wr, .op = IBV_WR_SEND, .fault = F_RNR),
	ROW(0, "verbs/wr_send/beyond-max-send-wr", DOC_FAILURE, I_,
	    "max_send_wr + 1 ibv_wr_send in one region: the queue does not "
	    "hold the last, a failure ibv_wr_complete reports, and none "
	    "arrives",
	    beyond_max_wr, .op = IBV_WR_SEND),
};

static const struct wr_row send_imm_rows[] = {
	ROW(RC_NEED_IMM, "verbs/wr_send_imm/rc-imm", DOC_SEND, I_,
	    "imm_data 0a 0b 0c 0d in memory: b's receive has IBV_WC_WITH_IMM "
	    "and those bytes; its opcode is IBV_WC_RECV, as for any SEND with "
	    "immediate (IBA 9.4.1, ibv_poll_cq(3)): the page's \"The _imm "
	    "version causes the remote side to get a "
	    "IBV_WC_RECV_RDMA_WITH_IMM\" under Message Send is read as the "
	    "RDMA write's sentence copied",
	    one_wr, .op = IBV_WR_SEND_WITH_IMM),
	ROW_UD("verbs/wr_send_imm/ud-imm", DOC_UD, RC_BASIS_DOCUMENTED,
	       "a UD SEND_WITH_IMM with ibv_wr_set_ud_addr: after the GRH "
	       "the bytes, IBV_WC_GRH and IBV_WC_WITH_IMM, the immediate's "
	       "bytes as sent",
	       one_wr, .op = IBV_WR_SEND_WITH_IMM),
	ROW(RC_NEED_IMM, "verbs/wr_send_imm/unsignaled", DOC_SIGNALED,
	    RC_BASIS_DOCUMENTED,
	    "sq_sig_all 0: a SEND_WITH_IMM with wr_flags 0, then one with "
	    "IBV_SEND_SIGNALED: both arrive, only the second completes at a",
	    one_wr, .op = IBV_WR_SEND_WITH_IMM, .fault = F_UNSIGNALED),
	ROW(RC_NEED_UC | RC_NEED_IMM, "verbs/wr_send_imm/uc-imm", DOC_SEND, I_,
	    "as rc-imm on UC, which the table gives SEND_WITH_IMM", one_wr,
	    .op = IBV_WR_SEND_WITH_IMM, .type = IBV_QPT_UC),
	ROW(0, "verbs/wr_send_imm/not-in-send-ops", DOC_SENDOPS, I_,
	    "send_ops_flags IBV_QP_EX_WITH_SEND only: SEND_WITH_IMM is not a "
	    "type that will be posted, so it is not usable: the QP has no "
	    "such builder (NULL), or a region with it fails and nothing "
	    "arrives",
	    not_in_ops, .ops = IBV_QP_EX_WITH_SEND),
	ROW(RC_NEED_IMM, "verbs/wr_send_imm/beyond-max-send-wr", DOC_FAILURE,
	    I_,
	    "max_send_wr + 1 of them in one region: the queue does not hold "
	    "the last, a failure ibv_wr_complete reports, and none executes",
	    beyond_max_wr, .op = IBV_WR_SEND_WITH_IMM),
};

static const struct wr_row write_rows[] = {
	ROW(0, "verbs/wr_rdma_write/rc-write", DOC_WRITE, RC_BASIS_DOCUMENTED,
	    "256 bytes land at remote_addr; IBV_WC_RDMA_WRITE at a, no "
	    "receive consumed",
	    one_wr, .op = IBV_WR_RDMA_WRITE),
	ROW(RC_NEED_UC, "verbs/wr_rdma_write/uc-write", DOC_WRITE,
	    RC_BASIS_DOCUMENTED, "as rc-write on UC", one_wr,
	    .op = IBV_WR_RDMA_WRITE, .type = IBV_QPT_UC),
	ROW(0, "verbs/wr_rdma_write/inline-write", DOC_WRITE,
	    RC_BASIS_DOCUMENTED, "the bytes by ibv_wr_set_inline_data land",
	    one_wr, .op = IBV_WR_RDMA_WRITE, .data = D_INLINE),
	ROW(0, "verbs/wr_rdma_write/unsignaled", DOC_SIGNALED,
	    RC_BASIS_DOCUMENTED,
	    "sq_sig_all 0: an RDMA_WRITE with wr_flags 0 lands and gives no "
	    "completion; the same with IBV_SEND_SIGNALED after it does",
	    one_wr, .op = IBV_WR_RDMA_WRITE, .fault = F_UNSIGNALED),
	ROW(RC_NEED_NAK, "verbs/wr_rdma_write/wrong-rkey", DOC_STATUS, I_,
	    "an rkey no MR has: the responder NAKs it, IBV_WC_REM_ACCESS_ERR "
	    "(IBA 9.7.5.2.8, 10.8.3), and nothing lands",
	    one_wr, .op = IBV_WR_RDMA_WRITE, .fault = F_RKEY),
	ROW(0, "verbs/wr_rdma_write/beyond-max-send-wr", DOC_FAILURE, I_,
	    "max_send_wr + 1 of them in one region: the queue does not hold "
	    "the last, a failure ibv_wr_complete reports, and none executes",
	    beyond_max_wr, .op = IBV_WR_RDMA_WRITE),
};

static const struct wr_row write_imm_rows[] = {
	ROW(RC_NEED_IMM, "verbs/wr_rdma_write_imm/rc-write-imm", DOC_WRITE_IMM,
	    RC_BASIS_DOCUMENTED,
	    "the bytes land and b's receive is IBV_WC_RECV_RDMA_WITH_IMM "
	    "with the immediate's four bytes as sent",
	    one_wr, .op = IBV_WR_RDMA_WRITE_WITH_IMM),
	ROW(RC_NEED_UC | RC_NEED_IMM, "verbs/wr_rdma_write_imm/uc-write-imm",
	    DOC_WRITE_IMM, RC_BASIS_DOCUMENTED, "as rc-write-imm on UC", one_wr,
	    .op = IBV_WR_RDMA_WRITE_WITH_IMM, .type = IBV_QPT_UC),
	ROW(RC_NEED_IMM, "verbs/wr_rdma_write_imm/unsignaled", DOC_SIGNALED,
	    RC_BASIS_DOCUMENTED,
	    "sq_sig_all 0: an RDMA_WRITE_WITH_IMM with wr_flags 0 lands and "
	    "consumes b's receive, and gives a no completion; the same with "
	    "IBV_SEND_SIGNALED after it does",
	    one_wr, .op = IBV_WR_RDMA_WRITE_WITH_IMM, .fault = F_UNSIGNALED),
	ROW(RC_NEED_IMM | RC_NEED_NAK, "verbs/wr_rdma_write_imm/wrong-rkey",
	    DOC_STATUS, I_,
	    "an rkey no MR has: IBV_WC_REM_ACCESS_ERR, nothing lands", one_wr,
	    .op = IBV_WR_RDMA_WRITE_WITH_IMM, .fault = F_RKEY),
	ROW(RC_NEED_IMM, "verbs/wr_rdma_write_imm/beyond-max-send-wr",
	    DOC_FAILURE, I_,
	    "max_send_wr + 1 of them in one region: the queue does not hold "
	    "the last, a failure ibv_wr_complete reports, and none executes",
	    beyond_max_wr, .op = IBV_WR_RDMA_WRITE_WITH_IMM),
};

static const struct wr_row read_rows[] = {
	ROW(0, "verbs/wr_rdma_read/rc-read", DOC_READ, RC_BASIS_DOCUMENTED,
	    "256 remote bytes into the SGE; IBV_WC_RDMA_READ byte_len 256",
	    one_wr, .op = IBV_WR_RDMA_READ),
	ROW(0, "verbs/wr_rdma_read/scatter", DOC_READ " ... " DOC_SGE_LIST,
	    RC_BASIS_DOCUMENTED,
	    "256 remote bytes into three SGEs of 100, 60 and 96 bytes: each "
	    "gets its part, in order",
	    one_wr, .op = IBV_WR_RDMA_READ, .data = D_SGE_LIST),
	ROW(0, "verbs/wr_rdma_read/unsignaled", DOC_SIGNALED,
	    RC_BASIS_DOCUMENTED,
	    "sq_sig_all 0: an RDMA_READ with wr_flags 0 brings the bytes and "
	    "gives no completion; the same with IBV_SEND_SIGNALED after it "
	    "does",
	    one_wr, .op = IBV_WR_RDMA_READ, .fault = F_UNSIGNALED),
	ROW(RC_NEED_NAK, "verbs/wr_rdma_read/wrong-rkey", DOC_STATUS, I_,
	    "an rkey no MR has: IBV_WC_REM_ACCESS_ERR, the local bytes as "
	    "they were",
	    one_wr, .op = IBV_WR_RDMA_READ, .fault = F_RKEY),
	ROW(0, "verbs/wr_rdma_read/beyond-max-send-wr", DOC_FAILURE, I_,
	    "max_send_wr + 1 of them in one region: the queue does not hold "
	    "the last, a failure ibv_wr_complete reports, and none executes",
	    beyond_max_wr, .op = IBV_WR_RDMA_READ),
};

static const struct wr_row cswp_rows[] = {
	ROW(RC_NEED_ATOMIC, "verbs/wr_atomic_cmp_swp/match", DOC_CSWP,
	    RC_BASIS_DOCUMENTED,
	    "compare equals the remote 0x0102030405060708: the swap lands, "
	    "the original is returned, IBV_WC_COMP_SWAP byte_len 8",
	    one_wr, .op = IBV_WR_ATOMIC_CMP_AND_SWP),
	ROW(RC_NEED_ATOMIC, "verbs/wr_atomic_cmp_swp/mismatch", DOC_CSWP,
	    RC_BASIS_DOCUMENTED,
	    "compare differs: the remote unchanged, the original returned",
	    cswp_mismatch),
	ROW(RC_NEED_ATOMIC, "verbs/wr_atomic_cmp_swp/unsignaled", DOC_SIGNALED,
	    RC_BASIS_DOCUMENTED,
	    "sq_sig_all 0: a compare and swap with wr_flags 0 swaps and gives "
	    "no completion; the same with IBV_SEND_SIGNALED after it does",
	    one_wr, .op = IBV_WR_ATOMIC_CMP_AND_SWP, .fault = F_UNSIGNALED),
	ROW(RC_NEED_ATOMIC | RC_NEED_NAK, "verbs/wr_atomic_cmp_swp/wrong-rkey",
	    DOC_STATUS, I_,
	    "an rkey no MR has: IBV_WC_REM_ACCESS_ERR, the remote unchanged",
	    one_wr, .op = IBV_WR_ATOMIC_CMP_AND_SWP, .fault = F_RKEY),
	ROW(RC_NEED_ATOMIC, "verbs/wr_atomic_cmp_swp/beyond-max-send-wr",
	    DOC_FAILURE, I_,
	    "max_send_wr + 1 of them in one region: the queue does not hold "
	    "the last, a failure ibv_wr_complete reports, and none executes",
	    beyond_max_wr, .op = IBV_WR_ATOMIC_CMP_AND_SWP),
};

static const struct wr_row fadd_rows[] = {
	ROW(RC_NEED_ATOMIC, "verbs/wr_atomic_fetch_add/add", DOC_FADD,
	    RC_BASIS_DOCUMENTED,
	    "0x1010101010101010 added to 0x0102030405060708: remote "
	    "0x1112131415161718, the original returned, IBV_WC_FETCH_ADD",
	    one_wr, .op = IBV_WR_ATOMIC_FETCH_AND_ADD),
	ROW(RC_NEED_ATOMIC, "verbs/wr_atomic_fetch_add/twice-in-a-batch",
	    DOC_FADD " ... " DOC_MULTI, RC_BASIS_DOCUMENTED,
	    "two FETCH_AND_ADDs in one region: the second returns what the "
	    "first left, the remote has both added",
	    fadd_twice),
	ROW(RC_NEED_ATOMIC, "verbs/wr_atomic_fetch_add/unsignaled",
	    DOC_SIGNALED, RC_BASIS_DOCUMENTED,
	    "sq_sig_all 0: a fetch and add with wr_flags 0 adds and gives no "
	    "completion; the same with IBV_SEND_SIGNALED after it does",
	    one_wr, .op = IBV_WR_ATOMIC_FETCH_AND_ADD, .fault = F_UNSIGNALED),
	ROW(RC_NEED_ATOMIC | RC_NEED_NAK,
	    "verbs/wr_atomic_fetch_add/wrong-rkey", DOC_STATUS, I_,
	    "an rkey no MR has: IBV_WC_REM_ACCESS_ERR, the remote unchanged",
	    one_wr, .op = IBV_WR_ATOMIC_FETCH_AND_ADD, .fault = F_RKEY),
	ROW(RC_NEED_ATOMIC, "verbs/wr_atomic_fetch_add/beyond-max-send-wr",
	    DOC_FAILURE, I_,
	    "max_send_wr + 1 of them in one region: the queue does not hold "
	    "the last, a failure ibv_wr_complete reports, and none executes",
	    beyond_max_wr, .op = IBV_WR_ATOMIC_FETCH_AND_ADD),
};

static const struct wr_row sge_rows[] = {
	ROW(0, "verbs/wr_set_sge/send", DOC_SGE, RC_BASIS_DOCUMENTED,
	    "a SEND of one SGE of 256 bytes: they arrive", one_wr,
	    .op = IBV_WR_SEND),
	ROW(0, "verbs/wr_set_sge/write", DOC_SGE, RC_BASIS_DOCUMENTED,
	    "an RDMA_WRITE of one SGE: the bytes land", one_wr,
	    .op = IBV_WR_RDMA_WRITE),
	ROW(0, "verbs/wr_set_sge/wrong-lkey", DOC_STATUS, I_,
	    "an lkey no MR has: the WR completes with an error status (IBA "
	    "10.8.3: a local protection error) and nothing arrives",
	    one_wr, .op = IBV_WR_SEND, .fault = F_LKEY),
	ROW(0, "verbs/wr_set_sge/keeps-wr-flags", DOC_SIGNALED,
	    RC_BASIS_DOCUMENTED,
	    "sq_sig_all 0: a SEND with wr_flags 0, then one with "
	    "IBV_SEND_SIGNALED, each given its data by ibv_wr_set_sge: both "
	    "arrive, only the second completes at a (the setter leaves the "
	    "flags the builder took)",
	    one_wr, .op = IBV_WR_SEND, .fault = F_UNSIGNALED),
	ROW(0, "verbs/wr_set_sge/one-sge-qp", DOC_SGE, I_,
	    "QPs that ask for one send SGE and no inline data (rxe and siw "
	    "grant exactly one): a SEND of one SGE, an exact fit, arrives",
	    one_wr, .op = IBV_WR_SEND, .one_sge = true),
};

static const struct wr_row sge_list_rows[] = {
	ROW(0, "verbs/wr_set_sge_list/send-gathers", DOC_SGE_LIST,
	    RC_BASIS_DOCUMENTED,
	    "three SGEs of 100, 60 and 96 bytes from scattered places: the "
	    "message is them in order, byte_len 256",
	    one_wr, .op = IBV_WR_SEND, .data = D_SGE_LIST),
	ROW(0, "verbs/wr_set_sge_list/write-gathers", DOC_SGE_LIST,
	    RC_BASIS_DOCUMENTED,
	    "the same three SGEs by RDMA_WRITE: 256 bytes land in order",
	    one_wr, .op = IBV_WR_RDMA_WRITE, .data = D_SGE_LIST),
	ROW(0, "verbs/wr_set_sge_list/one-beyond-max", DOC_FAILURE, I_,
	    "max_send_sge + 1 SGEs, more than the QP was granted "
	    "(ibv_create_qp_ex(3)): an invalid argument ibv_wr_complete "
	    "reports, and nothing arrives",
	    one_wr, .op = IBV_WR_SEND, .data = D_SGE_LIST, .fault = F_SGE),
	ROW(0, "verbs/wr_set_sge_list/keeps-wr-flags", DOC_SIGNALED,
	    RC_BASIS_DOCUMENTED,
	    "sq_sig_all 0: a SEND of two SGEs of 128 bytes with wr_flags 0, "
	    "then one with IBV_SEND_SIGNALED: both arrive, only the second "
	    "completes at a (the setter leaves the flags the builder took)",
	    one_wr, .op = IBV_WR_SEND, .data = D_SGE_LIST,
	    .fault = F_UNSIGNALED),
	ROW(0, "verbs/wr_set_sge_list/exactly-max-send-sge", DOC_SGE_LIST,
	    RC_BASIS_DOCUMENTED,
	    "max_send_sge SGEs of 16 bytes from scattered places, as many as "
	    "the QP was granted (an exact fit): the message is them in "
	    "order",
	    one_wr, .op = IBV_WR_SEND, .data = D_SGE_LIST,
	    .fault = F_SGE_EXACT),
};

static const struct wr_row inline_rows[] = {
	ROW(0, "verbs/wr_set_inline_data/send-reuse", DOC_INLINE_COPY,
	    RC_BASIS_DOCUMENTED,
	    "64 bytes from unregistered memory, overwritten after the setter "
	    "and before ibv_wr_complete: the bytes as they were arrive",
	    one_wr, .op = IBV_WR_SEND, .data = D_INLINE),
	ROW(0, "verbs/wr_set_inline_data/write", DOC_INLINE,
	    RC_BASIS_DOCUMENTED, "an inline RDMA_WRITE of 64 bytes: they land",
	    one_wr, .op = IBV_WR_RDMA_WRITE, .data = D_INLINE),
	ROW(0, "verbs/wr_set_inline_data/beyond-max",
	    DOC_INLINE_LIMIT " ... " DOC_FAILURE, I_,
	    "max_inline_data + 1 bytes: beyond the limit, ibv_wr_complete "
	    "fails and nothing arrives",
	    one_wr, .op = IBV_WR_SEND, .data = D_INLINE, .fault = F_INLINE),
	ROW(0, "verbs/wr_set_inline_data/after-a-gathered-send", DOC_INLINE, I_,
	    "a SEND of three SGEs (240 bytes), then in the next region an "
	    "inline SEND of 64 bytes: b receives those 64 bytes alone, "
	    "nothing of the SGEs before",
	    inline_after_list, .op = IBV_WR_SEND, .data = D_INLINE),
	ROW(0, "verbs/wr_set_inline_data/below-max", DOC_INLINE, I_,
	    "max_inline_data - 1 bytes, all but one of what the QP was "
	    "granted: they arrive",
	    one_wr, .op = IBV_WR_SEND, .data = D_INLINE,
	    .fault = F_INLINE_SHORT),
};

static const struct wr_row inline_list_rows[] = {
	ROW(0, "verbs/wr_set_inline_data_list/send", DOC_INLINE_LIST,
	    RC_BASIS_DOCUMENTED,
	    "two buffers of 40 and 24 bytes, overwritten after the setter: "
	    "the 64 bytes arrive concatenated, byte_len 64",
	    one_wr, .op = IBV_WR_SEND, .data = D_INLINE_LIST),
	ROW(0, "verbs/wr_set_inline_data_list/write", DOC_INLINE_LIST,
	    RC_BASIS_DOCUMENTED,
	    "the same two buffers by RDMA_WRITE: 64 bytes land", one_wr,
	    .op = IBV_WR_RDMA_WRITE, .data = D_INLINE_LIST),
	ROW(0, "verbs/wr_set_inline_data_list/beyond-max",
	    DOC_INLINE_LIMIT " ... " DOC_FAILURE, I_,
	    "two buffers of max_inline_data + 1 bytes in all: "
	    "ibv_wr_complete fails and nothing arrives",
	    one_wr, .op = IBV_WR_SEND, .data = D_INLINE_LIST,
	    .fault = F_INLINE),
	ROW(0, "verbs/wr_set_inline_data_list/after-a-gathered-send",
	    DOC_INLINE_LIST, I_,
	    "a SEND of three SGEs (240 bytes), then in the next region an "
	    "inline SEND of two buffers, 64 bytes: b receives those 64 bytes "
	    "alone, nothing of the SGEs before",
	    inline_after_list, .op = IBV_WR_SEND, .data = D_INLINE_LIST),
};

static const struct wr_row ud_rows[] = {
	ROW_UD("verbs/wr_set_ud_addr/ud-send", DOC_UD, RC_BASIS_DOCUMENTED,
	       "a UD SEND through an AH to b: the bytes after the 40 of GRH, "
	       "byte_len 296, IBV_WC_GRH, src_qp a's",
	       one_wr, .op = IBV_WR_SEND),
	ROW_UD("verbs/wr_set_ud_addr/ud-inline", DOC_UD, RC_BASIS_DOCUMENTED,
	       "the same with 64 inline bytes", one_wr, .op = IBV_WR_SEND,
	       .data = D_INLINE),
	ROW_UD("verbs/wr_set_ud_addr/wrong-qkey", DOC_UD, I_,
	       "remote_qkey not b's: b drops the datagram (IBA 10.2.5), so "
	       "nothing arrives, while a's SEND completes",
	       one_wr, .op = IBV_WR_SEND, .fault = F_QKEY),
};

#undef I_

/* ---- the batch ---- */

/* The expected bytes of the row's message, and the data setter */
struct msg {
	uint8_t want[VT_REGION];
	uint32_t len;
	/* a read scattered over SGEs: where each landed, gathered after
	 * the completion (landed) */
	const uint8_t *got;
	struct ibv_sge sg[3];
	uint8_t gathered[VT_REGION];
};

/* The send ops the row's QP asks for: those of its type, but on iWARP,
 * which has no immediate data and no atomics (the rows of those need
 * what iWARP has not) */
static uint64_t ops_of(const struct wr_row *row, const struct rc_ctx *ctx)
{
	const uint64_t not_iwarp = IBV_QP_EX_WITH_SEND_WITH_IMM |
				   IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM |
				   IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP |
				   IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD;
	uint64_t ops;

	if (row->ops)
		return row->ops;
	if (row->type == IBV_QPT_UD)
		ops = OPS_UD;
	else
		ops = row->type == IBV_QPT_UC ? OPS_UC : OPS_RC;
	return ctx->target->link == RC_LINK_IWARP ? ops & ~not_iwarp : ops;
}

#define ORIG 0x0102030405060708ull
#define ADD 0x1010101010101010ull
#define SWAP 0x2122232425262728ull

/* One builder of @op on @x with the row's remote target */
static void builder(struct vt *t, const struct wr_row *row,
		    enum ibv_wr_opcode op)
{
	struct ibv_qp_ex *x = t->ax;
	uint32_t rkey = t->bmr->rkey + (row->fault == F_RKEY ? 0x55 : 0);
	uint64_t ra = vt_addr(t, 2, 0);

	switch (op) {
	case IBV_WR_SEND:
		ibv_wr_send(x);
		break;
	case IBV_WR_SEND_WITH_IMM:
		ibv_wr_send_imm(x, htobe32(IMM));
		break;
	case IBV_WR_RDMA_WRITE:
		ibv_wr_rdma_write(x, rkey, ra);
		break;
	case IBV_WR_RDMA_WRITE_WITH_IMM:
		ibv_wr_rdma_write_imm(x, rkey, ra, htobe32(IMM));
		break;
	case IBV_WR_RDMA_READ:
		ibv_wr_rdma_read(x, rkey, ra);
		break;
	case IBV_WR_ATOMIC_CMP_AND_SWP:
		ibv_wr_atomic_cmp_swp(x, rkey, ra, ORIG, SWAP);
		break;
	case IBV_WR_ATOMIC_FETCH_AND_ADD:
		ibv_wr_atomic_fetch_add(x, rkey, ra, ADD);
		break;
	default:
		break;
	}
	if (t->a->qp_type == IBV_QPT_UD)
		ibv_wr_set_ud_addr(x, t->ah, t->b->qp_num,
				   VT_QKEY + (row->fault == F_QKEY ? 1 : 0));
}

/* The row's data setter, from region 0 (or the local target of a read
 * or an atomic: region 3); @m gets the bytes that must arrive */
static void setter(struct vt *t, const struct wr_row *row,
		   enum ibv_wr_opcode op, struct msg *m)
{
	static const uint32_t part[3] = { 100, 60, 96 };
	struct ibv_qp_ex *x = t->ax;
	bool into = op == IBV_WR_RDMA_READ;
	int r = into ? 3 : 0;
	uint32_t lkey = t->mr->lkey + (row->fault == F_LKEY ? 0x55 : 0);
	uint32_t max = t->cap.max_inline_data;
	uint32_t inl = row->fault == F_INLINE	    ? max + 1 :
		       row->fault == F_INLINE_SHORT ? max - 1 :
						      64;
	uint8_t src[1024];
	struct ibv_sge sg[64];
	struct ibv_data_buf db[2];
	uint32_t i, n, off;

	if (op == IBV_WR_ATOMIC_CMP_AND_SWP ||
	    op == IBV_WR_ATOMIC_FETCH_AND_ADD) {
		ibv_wr_set_sge(x, lkey, vt_addr(t, 3, 0), 8);
		m->len = 8;
		return;
	}
	switch (row->data) {
	case D_SGE:
		ibv_wr_set_sge(x, lkey, vt_addr(t, r, 0), LEN);
		m->len = LEN;
		memcpy(m->want, vt_region(t, into ? 2 : 0), LEN);
		break;
	case D_SGE_LIST:
		/* unsignaled: two of equal length, the flags under test and
		 * not the lengths (rxe's bug with unequal ones has its rows) */
		n = row->fault == F_SGE	       ? t->cap.max_send_sge + 1 :
		    row->fault == F_SGE_EXACT  ? t->cap.max_send_sge :
		    row->fault == F_UNSIGNALED ? 2 :
						 3;
		if (n > 64)
			n = 64;
		for (i = 0, off = 0, m->len = 0; i < n; i++) {
			uint32_t l = n == 3 ? part[i] : n == 2 ? 128 : 16;

			/* scattered: 40 bytes of gap after each */
			sg[i] = vt_sge(t, r, off, l);
			off += l + 40;
			if (!into)
				memcpy(m->want + m->len,
				       vt_region(t, 0) + sg[i].addr -
					       vt_addr(t, 0, 0),
				       l);
			m->len += l;
		}
		if (into && n == 3) {
			memcpy(m->want, vt_region(t, 2), m->len);
			memcpy(m->sg, sg, sizeof(m->sg));
			m->got = m->gathered;
		}
		ibv_wr_set_sge_list(x, n, sg);
		break;
	case D_INLINE:
		if (inl > sizeof(src))
			inl = sizeof(src);
		for (i = 0; i < inl; i++)
			src[i] = (uint8_t)(i * 13 + 5);
		memcpy(m->want, src, inl < VT_REGION ? inl : VT_REGION);
		ibv_wr_set_inline_data(x, src, inl);
		memset(src, 0xee, sizeof(src));
		m->len = inl;
		break;
	case D_INLINE_LIST:
		if (inl > sizeof(src))
			inl = sizeof(src);
		for (i = 0; i < inl; i++)
			src[i] = (uint8_t)(i * 13 + 5);
		memcpy(m->want, src, inl < VT_REGION ? inl : VT_REGION);
		db[0] = (struct ibv_data_buf){ .addr = src,
					       .length = inl * 5 / 8 };
		db[1] = (struct ibv_data_buf){ .addr = src + db[0].length,
					       .length = inl - db[0].length };
		ibv_wr_set_inline_data_list(x, 2, db);
		memset(src, 0xee, sizeof(src));
		m->len = inl;
		break;
	}
}

/* The whole region for one WR of the row, observed: ibv_wr_complete's
 * return */
static int batch_one(struct vt *t, const struct wr_row *row, uint64_t wr_id,
		     unsigned int flags, struct msg *m)
{
	ibv_wr_start(t->ax);
	t->ax->wr_id = wr_id;
	t->ax->wr_flags = flags;
	builder(t, row, row->op);
	setter(t, row, row->op, m);
	return ibv_wr_complete(t->ax);
}

/* Nothing arrives at @cq: no completion, or (@flush_ok) only a flushed
 * one, which carries no message */
static void nothing_at(struct rc_ctx *ctx, struct ibv_cq *cq, const char *who,
		       bool flush_ok)
{
	struct ibv_wc wc;

	if (!vt_quiet(ctx, cq, &wc) &&
	    !(flush_ok && wc.status == IBV_WC_WR_FLUSH_ERR))
		rc_obs_violation(ctx->obs,
				 "%s: a completion arrived (wr_id %llu, "
				 "status %s)",
				 who, (unsigned long long)wc.wr_id,
				 ibv_wc_status_str(wc.status));
}

static int wc_op(enum ibv_wr_opcode op)
{
	switch (op) {
	case IBV_WR_RDMA_WRITE:
	case IBV_WR_RDMA_WRITE_WITH_IMM:
		return IBV_WC_RDMA_WRITE;
	case IBV_WR_RDMA_READ:
		return IBV_WC_RDMA_READ;
	case IBV_WR_ATOMIC_CMP_AND_SWP:
		return IBV_WC_COMP_SWAP;
	case IBV_WR_ATOMIC_FETCH_AND_ADD:
		return IBV_WC_FETCH_ADD;
	default:
		return IBV_WC_SEND;
	}
}

#define GRH 40

/* What the row's one WR must have done where it lands */
static void landed(const struct wr_row *row, struct rc_ctx *ctx, struct vt *t,
		   struct msg *m)
{
	enum ibv_wr_opcode op = row->op;
	bool ud = t->a->qp_type == IBV_QPT_UD;
	bool imm = op == IBV_WR_SEND_WITH_IMM ||
		   op == IBV_WR_RDMA_WRITE_WITH_IMM;
	bool recv = op == IBV_WR_SEND || imm;
	uint32_t g = ud ? GRH : 0;
	uint64_t remote, local;

	/* the send's first: one in error means no receive will come, and
	 * the wait for it would last VT_WAIT_MS */
	if (!vt_one_wc(
		    ctx, t->scq, "send",
		    &(struct vt_wc){
			    .wr_id = 1,
			    .opcode = wc_op(op),
			    .byte_len =
				    op == IBV_WR_RDMA_READ ||
						    wc_op(op) ==
							    IBV_WC_COMP_SWAP ||
						    wc_op(op) ==
							    IBV_WC_FETCH_ADD ?
					    (int64_t)m->len :
					    -1,
			    .qp_num = t->a->qp_num,
			    .src_qp = -1,
			    .wc_flags = -1 }))
		return;
	if (recv &&
	    !vt_one_wc(ctx, t->rcq, "recv",
		       &(struct vt_wc){
			       .wr_id = 2,
			       .opcode = op == IBV_WR_RDMA_WRITE_WITH_IMM ?
						 IBV_WC_RECV_RDMA_WITH_IMM :
						 IBV_WC_RECV,
			       .byte_len = g + m->len,
			       .qp_num = t->b->qp_num,
			       .src_qp = ud ? (int64_t)t->a->qp_num : -1,
			       .wc_flags = (imm ? IBV_WC_WITH_IMM : 0) |
					   (ud ? IBV_WC_GRH : 0),
			       .ud = ud,
			       .imm = imm,
			       .imm_data = htobe32(IMM) }))
		return;
	if (m->got) {
		uint32_t i, off = 0;

		for (i = 0; i < 3; i++) {
			memcpy(m->gathered + off,
			       (const void *)(uintptr_t)m->sg[i].addr,
			       m->sg[i].length);
			off += m->sg[i].length;
		}
	}
	switch (op) {
	case IBV_WR_SEND:
	case IBV_WR_SEND_WITH_IMM:
		vt_same(ctx, "received", vt_region(t, 1) + g, m->want, m->len);
		break;
	case IBV_WR_RDMA_WRITE:
	case IBV_WR_RDMA_WRITE_WITH_IMM:
		if (vt_lands(ctx, t, "remote", vt_region(t, 2), m->want,
			     m->len) &&
		    op == IBV_WR_RDMA_WRITE)
			nothing_at(ctx, t->rcq, "recv", false);
		break;
	case IBV_WR_RDMA_READ:
		vt_same(ctx, "read", m->got ? m->got : vt_region(t, 3), m->want,
			m->len);
		break;
	default:
		memcpy(&remote, vt_region(t, 2), 8);
		memcpy(&local, vt_region(t, 3), 8);
		if (remote !=
		    (op == IBV_WR_ATOMIC_FETCH_AND_ADD ? ORIG + ADD : SWAP))
			rc_obs_violation(ctx->obs, "remote: %#llx",
					 (unsigned long long)remote);
		else if (local != ORIG)
			rc_obs_violation(ctx->obs,
					 "returned: %#llx, not the original "
					 "%#llx",
					 (unsigned long long)local,
					 (unsigned long long)ORIG);
	}
}

/* An RDMA Read scatters into at most the device's max_sge_rd SGEs
 * (ibv_query_device(3)); iWARP's into one.  false: the row is
 * UNSUPPORTED on this device. */
static bool read_sges(struct rc_ctx *ctx, struct vt *t, int n)
{
	struct ibv_device_attr da;

	if (!vt_device_attr(ctx, t, &da))
		return false;
	if (da.max_sge_rd >= n)
		return true;
	rc_obs_state(ctx->obs, RC_STATE_UNSUPPORTED,
		     "the device's max_sge_rd is %d: an RDMA Read scatters "
		     "into at most that many SGEs, not %d",
		     da.max_sge_rd, n);
	return false;
}

/*
 * The first WR of an unsignaled row: wr_flags 0 under sq_sig_all 0.  It
 * does its work where it lands (b's receive, the remote or the local
 * bytes, the atomic's new value), which is waited for, and gives no
 * completion at a; then what it did is undone, so that the signaled WR
 * after it is judged by landed() as if alone.  false: a violation.
 */
static bool unsignaled_first(const struct wr_row *row, struct rc_ctx *ctx,
			     struct vt *t, struct msg *m)
{
	enum ibv_wr_opcode op = row->op;
	bool imm = op == IBV_WR_SEND_WITH_IMM ||
		   op == IBV_WR_RDMA_WRITE_WITH_IMM;
	struct vt_wc recv = { .wr_id = 2,
			      .qp_num = t->b->qp_num,
			      .src_qp = -1 };
	uint64_t orig = ORIG, after;
	uint8_t *where = NULL;

	OBS(ctx, row, batch_one(t, row, 7, 0, m));
	if (ctx->obs->ret) {
		rc_obs_violation(ctx->obs, "ibv_wr_complete: %lld",
				 ctx->obs->ret);
		return false;
	}
	switch (op) {
	case IBV_WR_RDMA_WRITE:
		where = vt_region(t, 2);
		break;
	case IBV_WR_RDMA_READ:
		where = vt_region(t, 3);
		break;
	case IBV_WR_ATOMIC_CMP_AND_SWP:
	case IBV_WR_ATOMIC_FETCH_AND_ADD:
		after = op == IBV_WR_ATOMIC_CMP_AND_SWP ? SWAP : ORIG + ADD;
		if (!rc_wait_same(ctx, vt_region(t, 2), &after, 8,
				  VT_WAIT_MS)) {
			rc_obs_violation(ctx->obs, "the unsignaled atomic "
						   "did not change the "
						   "remote value");
			return false;
		}
		memcpy(vt_region(t, 2), &orig, 8);
		memset(vt_region(t, 3), 0, 8);
		break;
	default:
		/* a SEND, or a write with immediate data: b's receive */
		recv.opcode = op == IBV_WR_RDMA_WRITE_WITH_IMM ?
				      IBV_WC_RECV_RDMA_WITH_IMM :
				      IBV_WC_RECV;
		recv.wc_flags = imm ? IBV_WC_WITH_IMM : 0;
		recv.byte_len = m->len;
		if (!vt_one_wc(ctx, t->rcq, "recv (unsignaled)", &recv))
			return false;
		if (!vt_recv_ready(ctx, t, 2, VT_REGION))
			return false;
	}
	if (where) {
		if (!rc_wait_same(ctx, where, m->want, m->len, VT_WAIT_MS)) {
			vt_same(ctx, "the unsignaled WR's bytes", where,
				m->want, m->len);
			return false;
		}
		memset(where, 0, m->len);
	}
	nothing_at(ctx, t->scq, "send (unsignaled)", false);
	return !ctx->obs->violation[0];
}

static void one_wr(const struct wr_row *row, struct rc_ctx *ctx, struct vt *t)
{
	struct msg m = { .len = 0 };
	struct ibv_wc wc;
	bool sig_some = row->fault == F_UNSIGNALED;
	bool refused = row->fault == F_SGE || row->fault == F_INLINE;
	uint64_t orig = ORIG;

	if (row->op == IBV_WR_RDMA_READ && row->data == D_SGE_LIST &&
	    !read_sges(ctx, t, 3))
		return;
	/* below a limit of 0 is no length */
	if (row->fault == F_INLINE_SHORT && !t->cap.max_inline_data) {
		rc_obs_state(ctx->obs, RC_STATE_UNSUPPORTED,
			     "the QP was granted no inline data");
		return;
	}
	vt_pattern(t, 0, VT_REGION, 1);
	if (row->op == IBV_WR_RDMA_READ)
		vt_pattern(t, 2, VT_REGION, 9);
	if (row->op == IBV_WR_ATOMIC_CMP_AND_SWP ||
	    row->op == IBV_WR_ATOMIC_FETCH_AND_ADD)
		memcpy(vt_region(t, 2), &orig, 8);
	if (row->fault != F_RNR && !vt_recv_ready(ctx, t, 2, VT_REGION))
		return;
	if (sig_some) {
		if (!unsignaled_first(row, ctx, t, &m))
			return;
		if (batch_one(t, row, 1, IBV_SEND_SIGNALED, &m)) {
			rc_obs_violation(ctx->obs, "second ibv_wr_complete "
						   "failed");
			return;
		}
		landed(row, ctx, t, &m);
		return;
	}
	OBS(ctx, row, batch_one(t, row, 1, IBV_SEND_SIGNALED, &m));
	if (refused) {
		if (!ctx->obs->ret)
			rc_obs_violation(ctx->obs,
					 "ibv_wr_complete returned 0 for "
					 "an invalid WR");
		nothing_at(ctx, t->rcq, "recv", false);
		nothing_at(ctx, t->scq, "send", false);
		return;
	}
	if (ctx->obs->ret) {
		rc_obs_violation(ctx->obs, "ibv_wr_complete: %lld",
				 ctx->obs->ret);
		return;
	}
	switch (row->fault) {
	case F_RKEY:
	case F_RNR:
		vt_one_wc(ctx, t->scq, "send",
			  &(struct vt_wc){
				  .wr_id = 1,
				  .status = row->fault == F_RKEY ?
						    IBV_WC_REM_ACCESS_ERR :
						    IBV_WC_RNR_RETRY_EXC_ERR,
				  .opcode = -1,
				  .byte_len = -1,
				  .qp_num = t->a->qp_num,
				  .src_qp = -1,
				  .wc_flags = -1 });
		if (row->op == IBV_WR_RDMA_READ)
			vt_zeroes(ctx, "read", vt_region(t, 3), LEN);
		else if (row->op == IBV_WR_ATOMIC_CMP_AND_SWP ||
			 row->op == IBV_WR_ATOMIC_FETCH_AND_ADD)
			vt_same(ctx, "remote", vt_region(t, 2), &orig, 8);
		else if (row->fault == F_RKEY)
			vt_zeroes(ctx, "remote", vt_region(t, 2), LEN);
		return;
	case F_LKEY:
		if (vt_poll(ctx, t->scq, &wc, 1) != 1)
			rc_obs_violation(ctx->obs, "send: no completion");
		else if (wc.status == IBV_WC_SUCCESS)
			rc_obs_violation(ctx->obs, "send: IBV_WC_SUCCESS with "
						   "an lkey no MR has");
		else
			/* on iWARP the requester's error ends the connection
			 * (RFC 5040: a Terminate), which flushes b's receive:
			 * nothing arrives, but b is told */
			nothing_at(ctx, t->rcq, "recv",
				   ctx->target->link == RC_LINK_IWARP);
		return;
	case F_QKEY:
		if (vt_one_wc(ctx, t->scq, "send",
			      &(struct vt_wc){ .wr_id = 1,
					       .opcode = IBV_WC_SEND,
					       .byte_len = -1,
					       .qp_num = t->a->qp_num,
					       .src_qp = -1,
					       .wc_flags = -1 }))
			nothing_at(ctx, t->rcq, "recv", false);
		return;
	default:
		landed(row, ctx, t, &m);
	}
}

/* A SEND gathered from three SGEs of 80 bytes (of one length: rdma-core's
 * rxe takes the first's length for each, rdma_rxe.expect), then in the
 * next region the row's inline SEND from the same stage of the queue:
 * what arrives is the inline bytes alone (a setter's data replaces, per
 * WR, what the WR before in that place had) */
static void inline_after_list(const struct wr_row *row, struct rc_ctx *ctx,
			      struct vt *t)
{
	struct ibv_sge sg[3];
	struct msg m = { .len = 0 };
	int i;

	vt_pattern(t, 0, VT_REGION, 4);
	for (i = 0; i < 3; i++)
		sg[i] = vt_sge(t, 0, 120 * i, 80);
	if (!vt_recv_ready(ctx, t, 2, VT_REGION))
		return;
	ibv_wr_start(t->ax);
	t->ax->wr_id = 1;
	t->ax->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_send(t->ax);
	ibv_wr_set_sge_list(t->ax, 3, sg);
	if (ibv_wr_complete(t->ax) || !vt_b_received(ctx, t, 2, 240) ||
	    !vt_a_completed(ctx, t, 1, IBV_WC_SEND)) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "the gathered SEND before (set-up): %s",
			     ctx->obs->violation);
		return;
	}
	if (!vt_recv_ready(ctx, t, 2, VT_REGION))
		return;
	OBS(ctx, row, batch_one(t, row, 1, IBV_SEND_SIGNALED, &m));
	if (ctx->obs->ret) {
		rc_obs_violation(ctx->obs, "ibv_wr_complete: %lld",
				 ctx->obs->ret);
		return;
	}
	landed(row, ctx, t, &m);
}

static void empty_batch(const struct wr_row *row, struct rc_ctx *ctx,
			struct vt *t)
{
	ibv_wr_start(t->ax);
	OBS(ctx, row, ibv_wr_complete(t->ax));
	if (ctx->obs->ret)
		rc_obs_violation(ctx->obs, "ibv_wr_complete of no WR: %lld",
				 ctx->obs->ret);
	nothing_at(ctx, t->scq, "send", false);
}

/* One SEND of LEN bytes from region 0, wr_id @id: it arrives */
static void send_arrives(struct rc_ctx *ctx, struct vt *t, uint64_t id)
{
	struct msg m = { .len = 0 };
	const struct wr_row send = { .op = IBV_WR_SEND };

	if (!vt_recv_ready(ctx, t, 2, VT_REGION))
		return;
	if (batch_one(t, &send, id, IBV_SEND_SIGNALED, &m)) {
		rc_obs_violation(ctx->obs, "the next region's "
					   "ibv_wr_complete failed");
		return;
	}
	if (!vt_one_wc(ctx, t->rcq, "recv",
		       &(struct vt_wc){ .wr_id = 2,
					.opcode = IBV_WC_RECV,
					.byte_len = LEN,
					.qp_num = t->b->qp_num,
					.src_qp = -1,
					.wc_flags = 0 }) ||
	    !vt_one_wc(ctx, t->scq, "send",
		       &(struct vt_wc){ .wr_id = id,
					.opcode = IBV_WC_SEND,
					.byte_len = -1,
					.qp_num = t->a->qp_num,
					.src_qp = -1,
					.wc_flags = -1 }))
		return;
	vt_same(ctx, "received", vt_region(t, 1), vt_region(t, 0), LEN);
}

static void after_failed(const struct wr_row *row, struct rc_ctx *ctx,
			 struct vt *t)
{
	const struct wr_row bad = { .op = IBV_WR_SEND,
				    .data = D_INLINE,
				    .fault = F_INLINE };
	struct msg m = { .len = 0 };

	vt_pattern(t, 0, VT_REGION, 3);
	OBS(ctx, row, batch_one(t, &bad, 1, IBV_SEND_SIGNALED, &m));
	if (!ctx->obs->ret) {
		rc_obs_violation(ctx->obs, "the failing region returned 0");
		return;
	}
	send_arrives(ctx, t, 5);
}

/* max_send_wr + 1 WRs of the row's builder and data setter, all
 * signaled: the batch fails, and none executes (no completion at a, no
 * message at b) */
static void beyond_max_wr(const struct wr_row *row, struct rc_ctx *ctx,
			  struct vt *t)
{
	uint32_t i, n = t->cap.max_send_wr + 1;
	static struct msg m;

	vt_pattern(t, 0, VT_REGION, 3);
	if (!vt_recv_ready(ctx, t, 2, VT_REGION))
		return;
	ibv_wr_start(t->ax);
	for (i = 0; i < n; i++) {
		t->ax->wr_id = i + 1;
		t->ax->wr_flags = IBV_SEND_SIGNALED;
		builder(t, row, row->op);
		setter(t, row, row->op, &m);
	}
	OBS(ctx, row, ibv_wr_complete(t->ax));
	if (!ctx->obs->ret)
		rc_obs_violation(ctx->obs,
				 "ibv_wr_complete returned 0 for %u WRs, "
				 "max_send_wr %u",
				 n, t->cap.max_send_wr);
	nothing_at(ctx, t->scq, "send", false);
	nothing_at(ctx, t->rcq, "recv", false);
}

#define NORDER 4

static void in_order(const struct wr_row *row, struct rc_ctx *ctx, struct vt *t)
{
	struct ibv_wc wc[NORDER];
	int i;

	vt_pattern(t, 0, VT_REGION, 7);
	for (i = 0; i < NORDER; i++)
		if (vt_recv(ctx, t, 11 + i, 1, 64)) {
			rc_obs_state(ctx->obs, RC_STATE_BROKEN,
				     "ibv_post_recv failed (set-up): %m");
			return;
		}
	ibv_wr_start(t->ax);
	for (i = 0; i < NORDER; i++) {
		t->ax->wr_id = 1 + i;
		t->ax->wr_flags = IBV_SEND_SIGNALED;
		ibv_wr_send(t->ax);
		/* message i is 16 + i bytes from offset 100 i */
		ibv_wr_set_sge(t->ax, t->mr->lkey, vt_addr(t, 0, 100 * i),
			       16 + i);
	}
	OBS(ctx, row, ibv_wr_complete(t->ax));
	if (ctx->obs->ret)
		return;
	if (!vt_b_run(ctx, t, wc, NORDER, 11, 16, 1) ||
	    !vt_a_run(ctx, t, wc, NORDER, 1, IBV_WC_SEND, -1))
		return;
	/* every receive was region 1: the last message is what it holds */
	vt_same(ctx, "received last", vt_region(t, 1),
		vt_region(t, 0) + 100 * (NORDER - 1), 16 + NORDER - 1);
}

/* One SIGNALED SEND of 16 bytes from offset @off of region 0, wr_id @id,
 * built in the open region */
static void add_send(struct vt *t, uint64_t id, size_t off)
{
	t->ax->wr_id = id;
	t->ax->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_send(t->ax);
	ibv_wr_set_sge(t->ax, t->mr->lkey, vt_addr(t, 0, off), 16);
}

/* As many RDMA WRITEs as the send queue was granted, in one region: the
 * i-th 16 bytes from offset 16 i of region 0 to the same offset of b's
 * region 2 (no receive needed, so max_recv_wr does not bound it) */
static void exactly_max_wr(const struct wr_row *row, struct rc_ctx *ctx,
			   struct vt *t)
{
	struct ibv_wc wc[64];
	uint32_t i, n = t->cap.max_send_wr;

	if (n > 64) {
		/* the send CQ holds 64 */
		rc_obs_state(ctx->obs, RC_STATE_SKIP,
			     "needs max_send_wr of at most 64, not %u", n);
		return;
	}
	vt_pattern(t, 0, VT_REGION, 5);
	ibv_wr_start(t->ax);
	for (i = 0; i < n; i++) {
		t->ax->wr_id = i + 1;
		t->ax->wr_flags = IBV_SEND_SIGNALED;
		ibv_wr_rdma_write(t->ax, t->bmr->rkey, vt_addr(t, 2, 16 * i));
		ibv_wr_set_sge(t->ax, t->mr->lkey, vt_addr(t, 0, 16 * i), 16);
	}
	OBS(ctx, row, ibv_wr_complete(t->ax));
	if (ctx->obs->ret)
		return;
	if (vt_a_run(ctx, t, wc, n, 1, IBV_WC_RDMA_WRITE, -1))
		vt_lands(ctx, t, "written", vt_region(t, 2), vt_region(t, 0),
			 16 * n);
}

/* Two SENDs in a region, then one in the next; four receives */
static void next_region_own(const struct wr_row *row, struct rc_ctx *ctx,
			    struct vt *t)
{
	struct ibv_wc wc[3];
	int i;

	vt_pattern(t, 0, VT_REGION, 9);
	for (i = 0; i < 4; i++)
		if (vt_recv(ctx, t, 11 + i, 1, 64)) {
			rc_obs_state(ctx->obs, RC_STATE_BROKEN,
				     "ibv_post_recv failed (set-up): %m");
			return;
		}
	ibv_wr_start(t->ax);
	add_send(t, 1, 0);
	add_send(t, 2, 100);
	if (ibv_wr_complete(t->ax)) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "the first region's ibv_wr_complete failed");
		return;
	}
	ibv_wr_start(t->ax);
	add_send(t, 3, 200);
	OBS(ctx, row, ibv_wr_complete(t->ax));
	if (ctx->obs->ret || !vt_b_run(ctx, t, wc, 3, 11, 16, 0) ||
	    !vt_a_run(ctx, t, wc, 3, 1, IBV_WC_SEND, -1) ||
	    !vt_nothing_beyond(ctx, t->rcq, "recv", 3))
		return;
	/* every receive was region 1: the last message is what it holds */
	vt_same(ctx, "received last", vt_region(t, 1), vt_region(t, 0) + 200,
		16);
}

static void aborted(const struct wr_row *row, struct rc_ctx *ctx, struct vt *t)
{
	vt_pattern(t, 0, VT_REGION, 3);
	if (!vt_recv_ready(ctx, t, 2, VT_REGION))
		return;
	ibv_wr_start(t->ax);
	t->ax->wr_id = 1;
	t->ax->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_send(t->ax);
	ibv_wr_set_sge(t->ax, t->mr->lkey, vt_addr(t, 0, 0), LEN);
	t->ax->wr_id = 2;
	ibv_wr_rdma_write(t->ax, t->bmr->rkey, vt_addr(t, 2, 0));
	ibv_wr_set_sge(t->ax, t->mr->lkey, vt_addr(t, 0, 0), LEN);
	RC_OBSERVE(ctx, (ibv_wr_abort(t->ax), 0));
	nothing_at(ctx, t->rcq, "recv", false);
	nothing_at(ctx, t->scq, "send", false);
	vt_zeroes(ctx, "remote", vt_region(t, 2), LEN);
}

static void abort_then(const struct wr_row *row, struct rc_ctx *ctx,
		       struct vt *t)
{
	vt_pattern(t, 0, VT_REGION, 3);
	ibv_wr_start(t->ax);
	t->ax->wr_id = 1;
	t->ax->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_send(t->ax);
	ibv_wr_set_sge(t->ax, t->mr->lkey, vt_addr(t, 0, 512), 16);
	RC_OBSERVE(ctx, (ibv_wr_abort(t->ax), 0));
	send_arrives(ctx, t, 9);
}

static void abort_after_error(const struct wr_row *row, struct rc_ctx *ctx,
			      struct vt *t)
{
	struct ibv_sge sg[65];
	uint32_t i, n = t->cap.max_send_sge + 1;

	if (n > 65)
		n = 65;
	vt_pattern(t, 0, VT_REGION, 3);
	for (i = 0; i < n; i++)
		sg[i] = vt_sge(t, 0, i * 16, 16);
	ibv_wr_start(t->ax);
	t->ax->wr_id = 1;
	t->ax->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_send(t->ax);
	ibv_wr_set_sge_list(t->ax, n, sg);
	RC_OBSERVE(ctx, (ibv_wr_abort(t->ax), 0));
	send_arrives(ctx, t, 9);
}

static void not_in_ops(const struct wr_row *row, struct rc_ctx *ctx,
		       struct vt *t)
{
	int r;

	if (!t->ax->wr_send_imm) {
		RC_OBSERVE(ctx, 0);
		return;
	}
	vt_pattern(t, 0, VT_REGION, 3);
	if (!vt_recv_ready(ctx, t, 2, VT_REGION))
		return;
	ibv_wr_start(t->ax);
	t->ax->wr_id = 1;
	t->ax->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_send_imm(t->ax, htobe32(IMM));
	ibv_wr_set_sge(t->ax, t->mr->lkey, vt_addr(t, 0, 0), 16);
	r = ibv_wr_complete(t->ax);
	OBS(ctx, row, r);
	if (!r)
		rc_obs_violation(ctx->obs,
				 "a SEND_WITH_IMM not in send_ops_flags was "
				 "posted (ibv_wr_complete 0)");
	nothing_at(ctx, t->rcq, "recv", false);
}

static void fadd_twice(const struct wr_row *row, struct rc_ctx *ctx,
		       struct vt *t)
{
	uint64_t orig = ORIG, remote, first, second;
	struct ibv_wc wc[2];

	memcpy(vt_region(t, 2), &orig, 8);
	ibv_wr_start(t->ax);
	t->ax->wr_id = 1;
	t->ax->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_atomic_fetch_add(t->ax, t->bmr->rkey, vt_addr(t, 2, 0), ADD);
	ibv_wr_set_sge(t->ax, t->mr->lkey, vt_addr(t, 3, 0), 8);
	t->ax->wr_id = 2;
	ibv_wr_atomic_fetch_add(t->ax, t->bmr->rkey, vt_addr(t, 2, 0), ADD);
	ibv_wr_set_sge(t->ax, t->mr->lkey, vt_addr(t, 3, 8), 8);
	OBS(ctx, row, ibv_wr_complete(t->ax));
	if (ctx->obs->ret || !vt_a_run(ctx, t, wc, 2, 1, IBV_WC_FETCH_ADD, 8))
		return;
	memcpy(&remote, vt_region(t, 2), 8);
	memcpy(&first, vt_region(t, 3), 8);
	memcpy(&second, vt_region(t, 3) + 8, 8);
	if (remote != ORIG + 2 * ADD || first != ORIG || second != ORIG + ADD)
		rc_obs_violation(ctx->obs,
				 "remote %#llx, returned %#llx and %#llx",
				 (unsigned long long)remote,
				 (unsigned long long)first,
				 (unsigned long long)second);
}

static void cswp_mismatch(const struct wr_row *row, struct rc_ctx *ctx,
			  struct vt *t)
{
	uint64_t orig = ORIG, remote, local;

	memcpy(vt_region(t, 2), &orig, 8);
	ibv_wr_start(t->ax);
	t->ax->wr_id = 1;
	t->ax->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_atomic_cmp_swp(t->ax, t->bmr->rkey, vt_addr(t, 2, 0),
			      0x0807060504030201ull, SWAP);
	ibv_wr_set_sge(t->ax, t->mr->lkey, vt_addr(t, 3, 0), 8);
	OBS(ctx, row, ibv_wr_complete(t->ax));
	if (ctx->obs->ret ||
	    !vt_one_wc(ctx, t->scq, "send",
		       &(struct vt_wc){ .wr_id = 1,
					.opcode = IBV_WC_COMP_SWAP,
					.byte_len = 8,
					.qp_num = t->a->qp_num,
					.src_qp = -1,
					.wc_flags = -1 }))
		return;
	memcpy(&remote, vt_region(t, 2), 8);
	memcpy(&local, vt_region(t, 3), 8);
	if (remote != ORIG || local != ORIG)
		rc_obs_violation(ctx->obs, "remote %#llx, returned %#llx",
				 (unsigned long long)remote,
				 (unsigned long long)local);
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct wr_row *row = r;
	struct vt_opts o = { .type = row->type,
			     .sig_some = row->fault == F_UNSIGNALED,
			     .send_ops = ops_of(row, ctx) };
	struct vt t;

	if (row->one_sge)
		o.cap = (struct ibv_qp_cap){ .max_send_wr = 16,
					     .max_recv_wr = 16,
					     .max_send_sge = 1,
					     .max_recv_sge = 1 };

	if (vt_up(ctx, &t, &o))
		row->check(row, ctx, &t);
	vt_down(ctx, &t);
}

#define GROUP(name, fn, c, rs, rn) RC_TABLE_GROUP(name, fn, c, "verbs", rs, rn)

GROUP(start_group, "ibv_wr_start", RC_CONV_VALUE, start_rows, run);
GROUP(complete_group, "ibv_wr_complete", RC_CONV_ERRNO_RET, complete_rows, run);
GROUP(abort_group, "ibv_wr_abort", RC_CONV_VALUE, abort_rows, run);
GROUP(send_group, "ibv_wr_send", RC_CONV_VALUE, send_rows, run);
GROUP(send_imm_group, "ibv_wr_send_imm", RC_CONV_VALUE, send_imm_rows, run);
GROUP(write_group, "ibv_wr_rdma_write", RC_CONV_VALUE, write_rows, run);
GROUP(write_imm_group, "ibv_wr_rdma_write_imm", RC_CONV_VALUE, write_imm_rows,
      run);
GROUP(read_group, "ibv_wr_rdma_read", RC_CONV_VALUE, read_rows, run);
GROUP(cswp_group, "ibv_wr_atomic_cmp_swp", RC_CONV_VALUE, cswp_rows, run);
GROUP(fadd_group, "ibv_wr_atomic_fetch_add", RC_CONV_VALUE, fadd_rows, run);
GROUP(sge_group, "ibv_wr_set_sge", RC_CONV_VALUE, sge_rows, run);
GROUP(sge_list_group, "ibv_wr_set_sge_list", RC_CONV_VALUE, sge_list_rows, run);
GROUP(inline_group, "ibv_wr_set_inline_data", RC_CONV_VALUE, inline_rows, run);
GROUP(inline_list_group, "ibv_wr_set_inline_data_list", RC_CONV_VALUE,
      inline_list_rows, run);
GROUP(ud_group, "ibv_wr_set_ud_addr", RC_CONV_VALUE, ud_rows, run);
