// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_create_cq_ex(3), "Polling an extended CQ": ibv_start_poll "Start
 * polling a batch of work completions", ibv_next_poll "get the next work
 * completion", ibv_end_poll "indicates the end of polling batch"; "When
 * no completions are available on the CQ, ENOENT is returned, but the CQ
 * remains in a valid state"; wr_id and status "accessed directly from
 * struct ibv_cq_ex"; the ibv_wc_read_* functions read "the current
 * completion".
 *
 * On the traffic rung (RC, or UD for src_qp), b's receive CQ made with
 * ibv_create_cq_ex and IBV_WC_STANDARD_FLAGS; a sends, b's completions are
 * read with the extended poll.  Values have all-distinct bytes: wr_id
 * 0x0102030405060708 (+ i), imm_data 0x0a0b0c0d, 45 bytes.
 * - start_poll/empty-enoent: nothing sent: ENOENT; a SEND after it is
 *   then found (0): the CQ stayed valid
 * - start_poll/first-completion: two SENDs with immediate: 0, wr_id the
 *   first's, status IBV_WC_SUCCESS, and the completion read back whole
 *   (opcode, byte_len, wc_flags, imm_data, qp_num)
 * - start_poll/flushed-status: a receive posted, b moved to ERR: 0,
 *   that wr_id and status IBV_WC_WR_FLUSH_ERR
 * - next_poll/second-completion: the second (0, its wr_id, read back
 *   whole)
 * - next_poll/status-of-its-own: a SEND received, then a receive flushed
 *   (b to ERR): start_poll finds the first (IBV_WC_SUCCESS), next_poll
 *   the second with its own wr_id and IBV_WC_WR_FLUSH_ERR
 * - next_poll/empty-enoent: after both, ENOENT; end_poll, and a third
 *   SEND is then found by start_poll
 * - end_poll/next-batch: start_poll, end_poll, start_poll: the second
 *   completion, the first not again; then ibv_poll_cq on the CQ works (the
 *   batch let go of it)
 * - wc_read_opcode/recv, recv-rdma-with-imm: IBV_WC_RECV for a SEND,
 *   IBV_WC_RECV_RDMA_WITH_IMM for an RDMA Write with immediate
 * - wc_read_byte_len/exact: 45
 * - wc_read_imm_data/network-order: htobe32(0x0a0b0c0d)
 * - wc_read_wc_flags/with-imm, without-imm: IBV_WC_WITH_IMM set, and not,
 *   and IBV_WC_WITH_INV not (IBV_WC_GRH is valid on UD only); ud-grh:
 *   on UD, IBV_WC_GRH set
 * - wc_read_qp_num/receiver: b's QP number
 * - wc_read_src_qp/ud-sender: on UD, a's QP number
 * - wc_read_vendor_err, wc_read_slid, wc_read_sl, wc_read_dlid_path_bits
 *   /as-poll-cq: two like SENDs, the first read by ibv_poll_cq, the second
 *   by the reader: the same value (our reading: the same field of a like
 *   completion)
 * - create_cq_ex/standard-readers-read-it: ibv_create_cq_ex(3)'s own row
 *   for what it installs: the CQ made with IBV_WC_STANDARD_FLAGS polls
 *   (empty: ENOENT; a SEND with immediate is found, then ENOENT), each
 *   reader those flags ask for is there, and those valid on RC read the
 *   completion
 */
#include <endian.h>
#include <errno.h>
#include <string.h>

#include "verbs_traffic.h"

#define DOC_START                                                           \
	"When no completions are available on the CQ, ENOENT is returned, " \
	"but the CQ remains in a valid state."
#define DOC_START_OK                                                   \
	"Start polling a batch of work completions. attr is given in " \
	"order to make this function easily extensible in the future."
#define DOC_DIRECT \
	"uint64_t wr_id - Can be accessed directly from struct ibv_cq_ex."
#define DOC_STATUS \
	"enum ibv_wc_status - Can be accessed directly from struct ibv_cq_ex."
#define DOC_NEXT \
	"This function is called in order to get the next work completion."
#define DOC_NEXT_END                                                   \
	"If an error code is given, end_poll should still be called, " \
	"indicating this is the end of the polled batch."
#define DOC_END                                                              \
	"After calling this function, the user should start a new batch by " \
	"calling start_poll."
#define DOC_OPCODE "Get the opcode from the current completion."
#define DOC_BYTE_LEN "Get the payload length from the current completion."
#define DOC_IMM "Get the immediate data field from the current completion."
#define DOC_FLAGS "Get the QP flags field from the current completion."
#define DOC_QP_NUM "Get the QP number field from the current completion."
#define DOC_SRC_QP "Get the source QP number field from the current completion."
#define DOC_VENDOR "Get the vendor error from the current completion."
#define DOC_SLID "Get the slid field from the current completion."
#define DOC_SL "Get the sl field from the current completion."
#define DOC_PATH_BITS \
	"Get the dlid_path_bits field from the current completion."
#define DOC_WC_FLAGS                                                     \
	"uint64_t wc_flags; /* The wc_flags that should be returned in " \
	"ibv_poll_cq_ex. Or'ed bit of enum ibv_wc_flags_ex. */"
#define DOC_QUERIED                                            \
	"Only fields that the user requested via wc_flags in " \
	"ibv_create_cq_ex could be queried."

#define WR_ID 0x0102030405060708ull
#define IMM 0x0a0b0c0du
#define LEN 45

struct sp_row;
typedef void sp_check(const struct sp_row *row, struct rc_ctx *ctx,
		      struct vt *t);

struct sp_row {
	struct rc_case c;
	sp_check *check;
	enum ibv_qp_type type; /* 0: RC */
	int arg;
	bool channel; /* the receive CQ on a completion channel */
};

static sp_check empty_enoent, first_completion, flushed_status,
	second_completion, next_status, next_empty, next_batch, read_opcode,
	read_byte_len, read_imm, read_flags, read_qp_num, read_src_qp,
	as_poll_cq, standard_readers;

#define ROW(needs_, name, d, b, n, ctr, fn, ...)         \
	{                                                \
		.c = { .id = "verbs/" name,              \
		       .doc = d,                         \
		       .basis = b,                       \
		       .note = n,                        \
		       .needs = RC_NEED_DEVICE | needs_, \
		       .contract = { ctr } },            \
		.check = fn, __VA_ARGS__                 \
	}

static const struct sp_row start_rows[] = {
	ROW(0, "start_poll/empty-enoent", DOC_START, RC_BASIS_DOCUMENTED,
	    "nothing sent: ENOENT; a SEND after it is then found (0)",
	    RC_FAILS(ENOENT), empty_enoent),
	ROW(RC_NEED_IMM, "start_poll/first-completion",
	    DOC_START_OK " ... " DOC_DIRECT, RC_BASIS_DOCUMENTED,
	    "two SENDs with immediate received: 0, wr_id 0x0102030405060708 "
	    "(the first's), status IBV_WC_SUCCESS, and the readers give its "
	    "opcode, byte_len, flags, imm_data and qp_num",
	    RC_RETURNS(0), first_completion),
	ROW(0, "start_poll/flushed-status", DOC_START_OK " ... " DOC_STATUS,
	    RC_BASIS_DOCUMENTED,
	    "a receive posted on b, b moved to ERR: 0, its wr_id, status "
	    "IBV_WC_WR_FLUSH_ERR",
	    RC_RETURNS(0), flushed_status),
};

static const struct sp_row next_rows[] = {
	ROW(RC_NEED_IMM, "next_poll/second-completion",
	    DOC_NEXT " ... " DOC_DIRECT, RC_BASIS_DOCUMENTED,
	    "two SENDs with immediate received, the first started: 0, the "
	    "second's wr_id, and the readers give its fields",
	    RC_RETURNS(0), second_completion),
	ROW(0, "next_poll/status-of-its-own", DOC_NEXT " ... " DOC_STATUS,
	    RC_BASIS_DOCUMENTED,
	    "a SEND received, then a receive flushed (b to ERR), the first "
	    "started: 0, the second's wr_id and IBV_WC_WR_FLUSH_ERR, not the "
	    "first's IBV_WC_SUCCESS",
	    RC_RETURNS(0), next_status, .channel = true),
	ROW(0, "next_poll/empty-enoent", DOC_START " ... " DOC_NEXT_END,
	    RC_BASIS_DOCUMENTED,
	    "after both: ENOENT; end_poll, and a third SEND is then found "
	    "by start_poll",
	    RC_FAILS(ENOENT), next_empty),
};

static const struct sp_row end_rows[] = {
	ROW(0, "end_poll/next-batch", DOC_END, RC_BASIS_DOCUMENTED,
	    "start_poll, end_poll, start_poll: the second completion, not "
	    "the first again; after end_poll, ibv_poll_cq on the CQ returns "
	    "(the batch let go of it)",
	    RC_ANY_RETURN, next_batch),
};

static const struct sp_row opcode_rows[] = {
	ROW(0, "wc_read_opcode/recv", DOC_OPCODE, RC_BASIS_DOCUMENTED,
	    "a SEND received: IBV_WC_RECV", RC_RETURNS(IBV_WC_RECV),
	    read_opcode, .arg = IBV_WR_SEND),
	ROW(RC_NEED_IMM, "wc_read_opcode/recv-rdma-with-imm", DOC_OPCODE,
	    RC_BASIS_DOCUMENTED,
	    "an RDMA Write with immediate: IBV_WC_RECV_RDMA_WITH_IMM",
	    RC_RETURNS(IBV_WC_RECV_RDMA_WITH_IMM), read_opcode,
	    .arg = IBV_WR_RDMA_WRITE_WITH_IMM),
};

static const struct sp_row byte_len_rows[] = {
	ROW(0, "wc_read_byte_len/exact", DOC_BYTE_LEN, RC_BASIS_DOCUMENTED,
	    "a SEND of 45 bytes: 45", RC_RETURNS(LEN), read_byte_len),
};

static const struct sp_row imm_rows[] = {
	ROW(RC_NEED_IMM, "wc_read_imm_data/network-order", DOC_IMM,
	    RC_BASIS_DOCUMENTED,
	    "a SEND with immediate htobe32(0x0a0b0c0d): that value, as sent "
	    "(network order)",
	    RC_ANY_RETURN, read_imm),
};

static const struct sp_row flags_rows[] = {
	ROW(RC_NEED_IMM, "wc_read_wc_flags/with-imm", DOC_FLAGS,
	    RC_BASIS_DOCUMENTED,
	    "a SEND with immediate: IBV_WC_WITH_IMM set, IBV_WC_WITH_INV "
	    "not (IBV_WC_GRH is not valid on RC)",
	    RC_ANY_RETURN, read_flags, .arg = IBV_WR_SEND_WITH_IMM),
	ROW(0, "wc_read_wc_flags/without-imm", DOC_FLAGS, RC_BASIS_DOCUMENTED,
	    "a SEND without: neither IBV_WC_WITH_IMM nor IBV_WC_WITH_INV",
	    RC_ANY_RETURN, read_flags, .arg = IBV_WR_SEND),
	ROW(RC_NEED_UD, "wc_read_wc_flags/ud-grh", DOC_FLAGS,
	    RC_BASIS_DOCUMENTED,
	    "a SEND on UD: IBV_WC_GRH set (ibv_poll_cq(3): \"GRH is present "
	    "(valid only for UD QPs)\"), IBV_WC_WITH_IMM and IBV_WC_WITH_INV "
	    "not",
	    RC_ANY_RETURN, read_flags, .arg = IBV_WR_SEND, .type = IBV_QPT_UD),
};

static const struct sp_row qp_num_rows[] = {
	ROW(0, "wc_read_qp_num/receiver", DOC_QP_NUM, RC_BASIS_DOCUMENTED,
	    "b's completion: b's QP number (observed: the value less it, 0)",
	    RC_RETURNS(0), read_qp_num),
};

static const struct sp_row src_qp_rows[] = {
	ROW(RC_NEED_UD, "wc_read_src_qp/ud-sender", DOC_SRC_QP,
	    RC_BASIS_DOCUMENTED,
	    "UD: a's QP number (observed: the value less it, 0)", RC_RETURNS(0),
	    read_src_qp, .type = IBV_QPT_UD),
};

/* ibv_create_cq_ex's part: what the CQ it makes is read with */
static const struct sp_row create_rows[] = {
	ROW(RC_NEED_IMM, "create_cq_ex/standard-readers-read-it",
	    DOC_WC_FLAGS " ... " DOC_QUERIED, RC_BASIS_DOCUMENTED,
	    "b's receive CQ made with IBV_WC_STANDARD_FLAGS: start_poll on "
	    "it empty ENOENT; a SEND with immediate received: start_poll "
	    "finds it (0), each reader of "
	    "those flags is there and opcode, byte_len, flags, imm_data and "
	    "qp_num are the completion's; next_poll then ENOENT",
	    RC_RETURNS(0), standard_readers),
};

/* as_poll_cq's: which reader */
enum { VENDOR, SLID, SL, PATH_BITS };
#define AS_POLL(name, d, what)                                              \
	ROW(0, name "/as-poll-cq", d, RC_BASIS_INTERPRETATION,              \
	    "two like SENDs, the first read by ibv_poll_cq, the second by " \
	    "the reader: the same value (the same field of a like "         \
	    "completion)",                                                  \
	    RC_ANY_RETURN, as_poll_cq, .arg = what)
static const struct sp_row vendor_rows[] = {
	AS_POLL("wc_read_vendor_err", DOC_VENDOR, VENDOR),
};
static const struct sp_row slid_rows[] = {
	AS_POLL("wc_read_slid", DOC_SLID, SLID),
};
static const struct sp_row sl_rows[] = {
	AS_POLL("wc_read_sl", DOC_SL, SL),
};
static const struct sp_row path_bits_rows[] = {
	AS_POLL("wc_read_dlid_path_bits", DOC_PATH_BITS, PATH_BITS),
};

/* @n SENDs (or @op) of LEN bytes from a to b, received and their send
 * completions taken; b's receive completions left in rcqx.  One that does
 * not complete is set-up's failure (BROKEN), or with @after the row's
 * (a violation: the CQ did not stay valid @after) */
static bool sent_after(struct rc_ctx *ctx, struct vt *t, int n,
		       enum ibv_wr_opcode op, uint64_t first, const char *after)
{
	struct ibv_sge sg = vt_sge(t, 0, 0, LEN);
	struct ibv_send_wr wr, *bad;
	struct ibv_wc wc;
	int i;

	for (i = 0; i < n; i++) {
		if (vt_recv(ctx, t, first + i, 1, 256)) {
			rc_obs_state(ctx->obs, RC_STATE_BROKEN,
				     "ibv_post_recv failed (set-up): %m");
			return false;
		}
		wr = vt_wr(t, op, 900 + i, &sg, 1);
		wr.imm_data = htobe32(IMM);
		if (op == IBV_WR_RDMA_WRITE_WITH_IMM) {
			wr.wr.rdma.remote_addr = vt_addr(t, 2, 0);
			wr.wr.rdma.rkey = t->bmr->rkey;
		}
		if (ctx->ops->ibv_post_send(t->a, &wr, &bad) ||
		    vt_poll(ctx, t->scq, &wc, 1) != 1 ||
		    wc.status != IBV_WC_SUCCESS) {
			if (after)
				rc_obs_violation(ctx->obs,
						 "a SEND %s did not complete "
						 "within %d ms: the CQ did not "
						 "stay valid",
						 after,
						 rc_scaled_ms(ctx, VT_WAIT_MS));
			else
				rc_obs_state(ctx->obs, RC_STATE_BROKEN,
					     "send %d of %d did not complete "
					     "(set-up)",
					     i + 1, n);
			return false;
		}
	}
	return true;
}

static bool sent(struct rc_ctx *ctx, struct vt *t, int n, enum ibv_wr_opcode op,
		 uint64_t first)
{
	return sent_after(ctx, t, n, op, first, NULL);
}

/* start_poll until a completion is there (0) or VT_WAIT_MS passed (the
 * last error): the batch is open when it returns 0 */
static int started(struct rc_ctx *ctx, struct vt *t)
{
	double end = rc_now_ms() + rc_scaled_ms(ctx, VT_WAIT_MS);
	struct ibv_poll_cq_attr attr = {};
	int err;

	do
		err = ibv_start_poll(t->rcqx, &attr);
	while (err == ENOENT && rc_now_ms() < end);
	return err;
}

/* The set-up's start: BROKEN when no completion came */
static bool open_batch(struct rc_ctx *ctx, struct vt *t)
{
	int err = started(ctx, t);

	if (!err)
		return true;
	rc_obs_state(ctx->obs, RC_STATE_BROKEN,
		     "ibv_start_poll: %s, no completion within %d ms (set-up)",
		     rc_errno_name(err), rc_scaled_ms(ctx, VT_WAIT_MS));
	return false;
}

static void want_wr_id(struct rc_ctx *ctx, struct vt *t, uint64_t want)
{
	if (t->rcqx->wr_id != want)
		rc_obs_violation(ctx->obs, "wr_id %#llx, not %#llx",
				 (unsigned long long)t->rcqx->wr_id,
				 (unsigned long long)want);
	else if (t->rcqx->status != IBV_WC_SUCCESS)
		rc_obs_violation(ctx->obs, "status %d, not IBV_WC_SUCCESS",
				 t->rcqx->status);
}

/* The current completion, read back whole: the SEND with immediate of
 * LEN bytes that b received as @wr_id (start_poll's and next_poll's
 * effect is the completion the readers then see) */
static void want_received(struct rc_ctx *ctx, struct vt *t, uint64_t wr_id)
{
	struct ibv_cq_ex *x = t->rcqx;
	unsigned int flags;

	want_wr_id(ctx, t, wr_id);
	if (ctx->obs->violation[0])
		return;
	flags = ibv_wc_read_wc_flags(x) & (IBV_WC_WITH_IMM | IBV_WC_WITH_INV);
	if (ibv_wc_read_opcode(x) != IBV_WC_RECV ||
	    ibv_wc_read_byte_len(x) != LEN || flags != IBV_WC_WITH_IMM ||
	    ibv_wc_read_imm_data(x) != htobe32(IMM) ||
	    ibv_wc_read_qp_num(x) != t->b->qp_num)
		rc_obs_violation(
			ctx->obs,
			"the completion read back: opcode %d byte_len "
			"%u flags %#x imm_data %#010x qp_num %#x; sent "
			"a SEND with immediate of %d bytes to %#x",
			ibv_wc_read_opcode(x), ibv_wc_read_byte_len(x), flags,
			(unsigned int)ibv_wc_read_imm_data(x),
			ibv_wc_read_qp_num(x), LEN, t->b->qp_num);
}

/* @n SENDs with immediate received and the batch started on the first
 * (the row's call, observed), which is read back whole; false when the
 * set-up or the start failed (the batch is then not open) */
static bool first_received(struct rc_ctx *ctx, struct vt *t, int n)
{
	if (!sent(ctx, t, n, IBV_WR_SEND_WITH_IMM, WR_ID))
		return false;
	RC_OBSERVE(ctx, started(ctx, t));
	if (ctx->obs->ret)
		return false;
	want_received(ctx, t, WR_ID);
	return true;
}

static void empty_enoent(const struct sp_row *row, struct rc_ctx *ctx,
			 struct vt *t)
{
	struct ibv_poll_cq_attr attr = {};
	int err;

	RC_OBSERVE(ctx, ibv_start_poll(t->rcqx, &attr));
	if (!ctx->obs->ret)
		ibv_end_poll(t->rcqx);
	if (ctx->obs->ret != ENOENT ||
	    !sent_after(ctx, t, 1, IBV_WR_SEND, WR_ID,
			"after start_poll's ENOENT"))
		return;
	err = started(ctx, t);
	if (err) {
		rc_obs_violation(ctx->obs,
				 "after ENOENT, a SEND's completion: "
				 "ibv_start_poll %s",
				 rc_errno_name(err));
		return;
	}
	want_wr_id(ctx, t, WR_ID);
	ibv_end_poll(t->rcqx);
}

static void first_completion(const struct sp_row *row, struct rc_ctx *ctx,
			     struct vt *t)
{
	/* both there before the call: the second's receive completion
	 * waited for by the first's send completion and then this one's */
	if (first_received(ctx, t, 2))
		ibv_end_poll(t->rcqx);
}

static void flushed_status(const struct sp_row *row, struct rc_ctx *ctx,
			   struct vt *t)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_ERR };

	if (vt_recv(ctx, t, WR_ID, 1, 256) ||
	    ctx->ops->ibv_modify_qp(t->b, &a, IBV_QP_STATE)) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "a receive, then b to ERR (set-up): %m");
		return;
	}
	RC_OBSERVE(ctx, started(ctx, t));
	if (ctx->obs->ret)
		return;
	if (t->rcqx->wr_id != WR_ID || t->rcqx->status != IBV_WC_WR_FLUSH_ERR)
		rc_obs_violation(ctx->obs,
				 "wr_id %#llx status %d, not %#llx "
				 "IBV_WC_WR_FLUSH_ERR (%d)",
				 (unsigned long long)t->rcqx->wr_id,
				 t->rcqx->status, WR_ID, IBV_WC_WR_FLUSH_ERR);
	ibv_end_poll(t->rcqx);
}

static void second_completion(const struct sp_row *row, struct rc_ctx *ctx,
			      struct vt *t)
{
	double end;

	if (!sent(ctx, t, 2, IBV_WR_SEND_WITH_IMM, WR_ID) ||
	    !open_batch(ctx, t))
		return;
	/* the second may land after the first: ENOENT until it has */
	end = rc_now_ms() + rc_scaled_ms(ctx, VT_WAIT_MS);
	do
		RC_OBSERVE(ctx, ibv_next_poll(t->rcqx));
	while (ctx->obs->ret == ENOENT && rc_now_ms() < end);
	if (!ctx->obs->ret)
		want_received(ctx, t, WR_ID + 1);
	ibv_end_poll(t->rcqx);
}

static void next_status(const struct sp_row *row, struct rc_ctx *ctx,
			struct vt *t)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_ERR };
	double end;

	if (!sent(ctx, t, 1, IBV_WR_SEND, WR_ID))
		return;
	/* the flushed receive's completion in the CQ before the batch
	 * opens, seen by the event it raises on the armed CQ: a next_poll
	 * of an empty CQ would test another thing (next_poll/empty-enoent) */
	if (vt_recv(ctx, t, WR_ID + 1, 1, 256) ||
	    ctx->ops->ibv_req_notify_cq(t->rcq, 0) ||
	    ctx->ops->ibv_modify_qp(t->b, &a, IBV_QP_STATE)) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "a receive, the CQ armed, then b to ERR "
			     "(set-up): %m");
		return;
	}
	if (!vt_event_ready(ctx, t, VT_WAIT_MS)) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "no completion event for the flushed receive "
			     "(set-up)");
		return;
	}
	if (!vt_take_event(ctx, t) || !open_batch(ctx, t))
		return;
	if (t->rcqx->wr_id != WR_ID || t->rcqx->status != IBV_WC_SUCCESS) {
		ibv_end_poll(t->rcqx);
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "the SEND's completion first: wr_id %#llx status "
			     "%d (set-up)",
			     (unsigned long long)t->rcqx->wr_id,
			     t->rcqx->status);
		return;
	}
	end = rc_now_ms() + rc_scaled_ms(ctx, VT_WAIT_MS);
	do
		RC_OBSERVE(ctx, ibv_next_poll(t->rcqx));
	while (ctx->obs->ret == ENOENT && rc_now_ms() < end);
	if (!ctx->obs->ret && (t->rcqx->wr_id != WR_ID + 1 ||
			       t->rcqx->status != IBV_WC_WR_FLUSH_ERR))
		rc_obs_violation(ctx->obs,
				 "wr_id %#llx status %d, not %#llx "
				 "IBV_WC_WR_FLUSH_ERR (%d)",
				 (unsigned long long)t->rcqx->wr_id,
				 t->rcqx->status, WR_ID + 1,
				 IBV_WC_WR_FLUSH_ERR);
	ibv_end_poll(t->rcqx);
}

static void next_empty(const struct sp_row *row, struct rc_ctx *ctx,
		       struct vt *t)
{
	double end = rc_now_ms() + rc_scaled_ms(ctx, VT_WAIT_MS);
	int err;

	if (!sent(ctx, t, 2, IBV_WR_SEND, WR_ID) || !open_batch(ctx, t))
		return;
	do
		err = ibv_next_poll(t->rcqx);
	while (err == ENOENT && rc_now_ms() < end);
	if (err) {
		ibv_end_poll(t->rcqx);
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_next_poll: %s for the second (set-up)",
			     rc_errno_name(err));
		return;
	}
	RC_OBSERVE(ctx, ibv_next_poll(t->rcqx));
	ibv_end_poll(t->rcqx);
	if (ctx->obs->ret != ENOENT ||
	    !sent_after(ctx, t, 1, IBV_WR_SEND, WR_ID + 2,
			"after next_poll's ENOENT and end_poll"))
		return;
	err = started(ctx, t);
	if (err) {
		rc_obs_violation(ctx->obs,
				 "the third SEND after end_poll: "
				 "ibv_start_poll %s",
				 rc_errno_name(err));
		return;
	}
	want_wr_id(ctx, t, WR_ID + 2);
	ibv_end_poll(t->rcqx);
}

static void next_batch(const struct sp_row *row, struct rc_ctx *ctx,
		       struct vt *t)
{
	struct ibv_wc wc;
	int err, n;

	if (!sent(ctx, t, 2, IBV_WR_SEND, WR_ID) || !open_batch(ctx, t))
		return;
	RC_OBSERVE(ctx, (ibv_end_poll(t->rcqx), 0));
	err = started(ctx, t);
	if (err) {
		rc_obs_violation(ctx->obs,
				 "the new batch: ibv_start_poll %s, the second "
				 "completion not found",
				 rc_errno_name(err));
		return;
	}
	want_wr_id(ctx, t, WR_ID + 1);
	ibv_end_poll(t->rcqx);
	/* a batch that kept the CQ would hang here: the watchdog's HANG */
	if (!sent_after(ctx, t, 1, IBV_WR_SEND, WR_ID + 2, "after end_poll"))
		return;
	n = vt_poll(ctx, t->rcq, &wc, 1);
	if (n != 1 || wc.wr_id != WR_ID + 2)
		rc_obs_violation(ctx->obs,
				 "ibv_poll_cq after end_poll: %d completions, "
				 "wr_id %#llx",
				 n, n == 1 ? (unsigned long long)wc.wr_id : 0);
}

/* One message of @op received and its completion started (set-up) */
static bool one(struct rc_ctx *ctx, struct vt *t, enum ibv_wr_opcode op)
{
	return sent(ctx, t, 1, op, WR_ID) && open_batch(ctx, t);
}

static void read_opcode(const struct sp_row *row, struct rc_ctx *ctx,
			struct vt *t)
{
	if (!one(ctx, t, row->arg))
		return;
	RC_OBSERVE(ctx, ibv_wc_read_opcode(t->rcqx));
	ibv_end_poll(t->rcqx);
}

static void read_byte_len(const struct sp_row *row, struct rc_ctx *ctx,
			  struct vt *t)
{
	if (!one(ctx, t, IBV_WR_SEND))
		return;
	RC_OBSERVE(ctx, ibv_wc_read_byte_len(t->rcqx));
	ibv_end_poll(t->rcqx);
}

static void read_imm(const struct sp_row *row, struct rc_ctx *ctx, struct vt *t)
{
	__be32 got;

	if (!one(ctx, t, IBV_WR_SEND_WITH_IMM))
		return;
	RC_OBSERVE(ctx, got = ibv_wc_read_imm_data(t->rcqx));
	ibv_end_poll(t->rcqx);
	if (got != htobe32(IMM))
		rc_obs_violation(ctx->obs,
				 "imm_data %#010x in memory order, sent "
				 "htobe32(%#010x)",
				 (unsigned int)got, IMM);
}

static void read_flags(const struct sp_row *row, struct rc_ctx *ctx,
		       struct vt *t)
{
	/* the flags the row decides: WITH_IMM as sent, no WITH_INV, and on
	 * UD the GRH ("valid only for UD QPs": on RC it means nothing, and
	 * rxe sets it there); IP_CSUM_OK is the device's to give or not */
	const unsigned int decided = IBV_WC_WITH_IMM | IBV_WC_WITH_INV |
				     (row->type == IBV_QPT_UD ? IBV_WC_GRH : 0);
	unsigned int flags, want;

	want = (row->arg == IBV_WR_SEND_WITH_IMM ? IBV_WC_WITH_IMM : 0) |
	       (row->type == IBV_QPT_UD ? IBV_WC_GRH : 0);
	if (!one(ctx, t, row->arg))
		return;
	RC_OBSERVE(ctx, flags = ibv_wc_read_wc_flags(t->rcqx));
	ibv_end_poll(t->rcqx);
	if ((flags & decided) != want)
		rc_obs_violation(ctx->obs,
				 "wc_flags %#x: of WITH_IMM, WITH_INV and GRH "
				 "%#x, not %#x",
				 flags, flags & decided, want);
}

static void read_qp_num(const struct sp_row *row, struct rc_ctx *ctx,
			struct vt *t)
{
	uint32_t got;

	if (!one(ctx, t, IBV_WR_SEND))
		return;
	/* the value less b's QP number: QP numbers differ between the
	 * implementations' runs, the difference does not */
	rc_obs_begin(ctx->obs);
	got = ibv_wc_read_qp_num(t->rcqx);
	rc_obs_end(ctx->obs, (long long)got - t->b->qp_num);
	ibv_end_poll(t->rcqx);
	if (got != t->b->qp_num)
		rc_obs_violation(ctx->obs, "qp_num %#x, b's is %#x", got,
				 t->b->qp_num);
}

static void read_src_qp(const struct sp_row *row, struct rc_ctx *ctx,
			struct vt *t)
{
	uint32_t got;

	if (!one(ctx, t, IBV_WR_SEND))
		return;
	rc_obs_begin(ctx->obs);
	got = ibv_wc_read_src_qp(t->rcqx);
	rc_obs_end(ctx->obs, (long long)got - t->a->qp_num);
	ibv_end_poll(t->rcqx);
	if (got != t->a->qp_num)
		rc_obs_violation(ctx->obs, "src_qp %#x, a's is %#x", got,
				 t->a->qp_num);
}

static long long reader(struct ibv_cq_ex *x, int what)
{
	switch (what) {
	case VENDOR:
		return ibv_wc_read_vendor_err(x);
	case SLID:
		return ibv_wc_read_slid(x);
	case SL:
		return ibv_wc_read_sl(x);
	default:
		return ibv_wc_read_dlid_path_bits(x);
	}
}

static long long of_wc(const struct ibv_wc *wc, int what)
{
	switch (what) {
	case VENDOR:
		return wc->vendor_err;
	case SLID:
		return wc->slid;
	case SL:
		return wc->sl;
	default:
		return wc->dlid_path_bits;
	}
}

static void as_poll_cq(const struct sp_row *row, struct rc_ctx *ctx,
		       struct vt *t)
{
	struct ibv_wc wc;
	long long got;

	if (!sent(ctx, t, 1, IBV_WR_SEND, WR_ID))
		return;
	if (vt_poll(ctx, t->rcq, &wc, 1) != 1) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_poll_cq: the first SEND not received "
			     "(set-up)");
		return;
	}
	if (!one(ctx, t, IBV_WR_SEND))
		return;
	RC_OBSERVE(ctx, got = reader(t->rcqx, row->arg));
	ibv_end_poll(t->rcqx);
	if (got != of_wc(&wc, row->arg))
		rc_obs_violation(ctx->obs,
				 "%lld, and ibv_poll_cq's of a like "
				 "completion %lld",
				 got, of_wc(&wc, row->arg));
}

static void standard_readers(const struct sp_row *row, struct rc_ctx *ctx,
			     struct vt *t)
{
	struct ibv_poll_cq_attr attr = {};
	struct ibv_cq_ex *x = t->rcqx;
	int err;

	/* empty, then not: its start_poll tells them apart */
	err = ibv_start_poll(x, &attr);
	if (!err)
		ibv_end_poll(x);
	if (err != ENOENT) {
		rc_obs_violation(ctx->obs,
				 "nothing sent: ibv_start_poll %s, not ENOENT",
				 rc_errno_name(err));
		return;
	}
	if (!first_received(ctx, t, 1))
		return;
	/* valid on UD only, or 0 on RoCE: there (a reader missing is a
	 * crash), their values the wc_read_* rows' */
	ibv_wc_read_src_qp(x);
	ibv_wc_read_slid(x);
	ibv_wc_read_sl(x);
	ibv_wc_read_dlid_path_bits(x);
	ibv_wc_read_vendor_err(x);
	err = ibv_next_poll(x);
	ibv_end_poll(x);
	if (err != ENOENT && !ctx->obs->violation[0])
		rc_obs_violation(ctx->obs,
				 "one SEND received, ibv_next_poll after it: "
				 "%s, not ENOENT",
				 rc_errno_name(err));
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct sp_row *row = r;
	struct vt_opts o = { .type = row->type,
			     .channel = row->channel,
			     .wc_flags = IBV_WC_STANDARD_FLAGS };
	struct vt t;

	if (vt_up(ctx, &t, &o))
		row->check(row, ctx, &t);
	vt_down(ctx, &t);
}

#define GROUP(name, fn, conv, rs) \
	RC_TABLE_GROUP(name, fn, conv, "verbs", rs, run)
GROUP(create_group, "ibv_create_cq_ex", RC_CONV_ERRNO_RET, create_rows);
GROUP(start_group, "ibv_start_poll", RC_CONV_ERRNO_RET, start_rows);
GROUP(next_group, "ibv_next_poll", RC_CONV_ERRNO_RET, next_rows);
GROUP(end_group, "ibv_end_poll", RC_CONV_VALUE, end_rows);
GROUP(opcode_group, "ibv_wc_read_opcode", RC_CONV_VALUE, opcode_rows);
GROUP(byte_len_group, "ibv_wc_read_byte_len", RC_CONV_VALUE, byte_len_rows);
GROUP(imm_group, "ibv_wc_read_imm_data", RC_CONV_VALUE, imm_rows);
GROUP(flags_group, "ibv_wc_read_wc_flags", RC_CONV_VALUE, flags_rows);
GROUP(qp_num_group, "ibv_wc_read_qp_num", RC_CONV_VALUE, qp_num_rows);
GROUP(src_qp_group, "ibv_wc_read_src_qp", RC_CONV_VALUE, src_qp_rows);
GROUP(vendor_group, "ibv_wc_read_vendor_err", RC_CONV_VALUE, vendor_rows);
GROUP(slid_group, "ibv_wc_read_slid", RC_CONV_VALUE, slid_rows);
GROUP(sl_group, "ibv_wc_read_sl", RC_CONV_VALUE, sl_rows);
GROUP(path_bits_group, "ibv_wc_read_dlid_path_bits", RC_CONV_VALUE,
      path_bits_rows);
