// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_post_send(3)'s error completions, provoked for real on an RC pair
 * (verbs_traffic.h) and observed on both sides: the requester's
 * completion, the responder's, and the memory the WR names, where nothing
 * may have landed.  The pages name each status ("enum ibv_wc_status
 * status; Status of the operation") but not when each comes: which one
 * a fault gives is the IBA's (our reading, each row's note).  The
 * wrong-rkey, read-only-MR, RNR, retry and flush rows are
 * ibv_post_send.c's.
 * - rc-send-lkey-of-no-mr: a SEND whose SGE names no MR:
 *   IBV_WC_LOC_PROT_ERR, nothing received
 * - rc-recv-lkey-of-no-mr: a SEND into a receive whose SGE names no MR:
 *   the receive IBV_WC_LOC_PROT_ERR, the SEND IBV_WC_REM_OP_ERR
 * - rc-read-into-mr-without-local-write, rc-fetch-add-into-mr-without-
 *   local-write: the local MR has no IBV_ACCESS_LOCAL_WRITE:
 *   IBV_WC_LOC_PROT_ERR, the local bytes unchanged
 * - rc-recv-into-mr-without-local-write: the receive's MR has none: the
 *   receive IBV_WC_LOC_PROT_ERR, the SEND IBV_WC_REM_OP_ERR, nothing
 *   written
 * - rc-send-exactly-receive-length, rc-send-one-beyond-receive: 64 bytes
 *   into a receive of 64 arrive; 65 give the receive IBV_WC_LOC_LEN_ERR
 *   and the SEND IBV_WC_REM_INV_REQ_ERR
 * - rc-write-ends-at-mr-end, rc-write-one-past-mr-end,
 *   rc-read-one-past-mr-end: an MR of exactly one region; an RDMA Write
 *   whose last byte is the MR's last lands; one byte further it is
 *   IBV_WC_REM_ACCESS_ERR, and so is an RDMA Read, nothing moved
 * - rc-atomic-misaligned: a Fetch and Add at an address that is not a
 *   multiple of 8: refused at once, or IBV_WC_REM_INV_REQ_ERR; the
 *   remote bytes unchanged
 */
#include <string.h>

#include "verbs_traffic.h"

#define DOC_STATUS                                     \
	"enum ibv_wc_status status; /* Status of the " \
	"operation */"
#define DOC_LKEY "uint32_t lkey; /* Key of the local Memory Region */"
#define DOC_LOCAL_WRITE "IBV_ACCESS_LOCAL_WRITE Enable Local Write Access"
#define DOC_LOCAL_READ "Local read access is always enabled for the MR."

#define LEN 256
/* the receive of the length rows, and what a SEND puts in it */
#define RECV_LEN 64

struct err_row;
typedef void err_check(const struct err_row *row, struct rc_ctx *ctx,
		       struct vt *t);

struct err_row {
	struct rc_case c;
	err_check *check;
	enum ibv_wr_opcode op; /* for the rows of several opcodes */
	int arg;
};

static err_check send_bad_lkey, recv_bad_lkey, into_unwritable, recv_unwritable,
	send_length, write_at_mr_end, past_mr_end, atomic_misaligned;

static const struct err_row rows[] = {
	{ .c = { .id = "verbs/post_send/rc-send-lkey-of-no-mr",
		 .doc = DOC_LKEY,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "a SEND of 256 bytes whose SGE's lkey is a's MR's "
			 "with the index's top bit flipped (no MR has it): 0, "
			 "the WR completes with IBV_WC_LOC_PROT_ERR (the IBA's "
			 "Local Protection Error: the WR's buffers name no "
			 "valid MR), and b receives nothing",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(0) } },
	  .check = send_bad_lkey },
	{ .c = { .id = "verbs/post_send/rc-recv-lkey-of-no-mr",
		 .doc = DOC_LKEY,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "b's receive names an lkey no MR has, a SENDs 64 "
			 "bytes: 0, the receive completes with "
			 "IBV_WC_LOC_PROT_ERR and the SEND with "
			 "IBV_WC_REM_OP_ERR (the responder could not complete "
			 "it)",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(0) } },
	  .check = recv_bad_lkey },
	{ .c = { .id = "verbs/post_send/rc-read-into-mr-without-local-write",
		 .doc = DOC_LOCAL_WRITE " ... " DOC_LOCAL_READ,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "an RDMA Read of 256 bytes into a's region through an "
			 "MR registered with access 0 (read only, locally): 0, "
			 "IBV_WC_LOC_PROT_ERR, the region's bytes as they were",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(0) } },
	  .check = into_unwritable,
	  .op = IBV_WR_RDMA_READ },
	{ .c = { .id = "verbs/post_send/rc-fetch-add-into-mr-without-local-"
		       "write",
		 .doc = DOC_LOCAL_WRITE " ... " DOC_LOCAL_READ,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "a Fetch and Add whose result goes to an MR with "
			 "access 0: 0, IBV_WC_LOC_PROT_ERR, the 8 local bytes "
			 "as they were",
		 .needs = RC_NEED_DEVICE | RC_NEED_ATOMIC,
		 .contract = { RC_RETURNS(0) } },
	  .check = into_unwritable,
	  .op = IBV_WR_ATOMIC_FETCH_AND_ADD },
	{ .c = { .id = "verbs/post_send/rc-recv-into-mr-without-local-write",
		 .doc = DOC_LOCAL_WRITE " ... " DOC_LOCAL_READ,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "b's receive in an MR with access 0, a SENDs 64 "
			 "bytes: 0, the receive IBV_WC_LOC_PROT_ERR, the SEND "
			 "IBV_WC_REM_OP_ERR, the receive's bytes as they were",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(0) } },
	  .check = recv_unwritable },
	{ .c = { .id = "verbs/post_send/rc-send-exactly-receive-length",
		 .doc = DOC_STATUS,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "a SEND of 64 bytes into a receive of exactly 64: "
			 "both complete with IBV_WC_SUCCESS, byte_len 64, the "
			 "bytes as sent",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(0) } },
	  .check = send_length,
	  .arg = RECV_LEN },
	{ .c = { .id = "verbs/post_send/rc-send-one-beyond-receive",
		 .doc = DOC_STATUS,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "a SEND of 65 bytes into a receive of 64: the receive "
			 "IBV_WC_LOC_LEN_ERR, the SEND IBV_WC_REM_INV_REQ_ERR "
			 "(the responder's Invalid Request NAK: the message is "
			 "longer than the receive)",
		 .needs = RC_NEED_DEVICE | RC_NEED_NAK,
		 .contract = { RC_RETURNS(0) } },
	  .check = send_length,
	  .arg = RECV_LEN + 1 },
	{ .c = { .id = "verbs/post_send/rc-write-ends-at-mr-end",
		 .doc = DOC_STATUS,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "an MR of exactly b's region 2 (4096 bytes); an RDMA "
			 "Write of 256 bytes whose last byte is the MR's last: "
			 "IBV_WC_SUCCESS and the bytes there",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(0) } },
	  .check = write_at_mr_end },
	{ .c = { .id = "verbs/post_send/rc-write-one-past-mr-end",
		 .doc = DOC_STATUS,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "that MR, an RDMA Write of 256 bytes one byte further "
			 "(its last byte past the MR): IBV_WC_REM_ACCESS_ERR, "
			 "and none of it in the MR or past it",
		 .needs = RC_NEED_DEVICE | RC_NEED_NAK,
		 .contract = { RC_RETURNS(0) } },
	  .check = past_mr_end,
	  .op = IBV_WR_RDMA_WRITE },
	{ .c = { .id = "verbs/post_send/rc-read-one-past-mr-end",
		 .doc = DOC_STATUS,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "that MR, an RDMA Read of 256 bytes one byte past its "
			 "end: IBV_WC_REM_ACCESS_ERR, a's bytes unchanged",
		 .needs = RC_NEED_DEVICE | RC_NEED_NAK,
		 .contract = { RC_RETURNS(0) } },
	  .check = past_mr_end,
	  .op = IBV_WR_RDMA_READ },
	{ .c = { .id = "verbs/post_send/rc-atomic-misaligned",
		 .doc = DOC_STATUS,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "a Fetch and Add at b's region 2 + 4 (atomics work on "
			 "8-byte aligned addresses): refused by the post "
			 "(an errno value, bad_wr the WR) or posted and "
			 "completed with IBV_WC_REM_INV_REQ_ERR; either way "
			 "the remote bytes as they were",
		 .needs = RC_NEED_DEVICE | RC_NEED_ATOMIC,
		 .contract = { RC_ANY_RETURN } },
	  .check = atomic_misaligned },
};

/* An MR of @len bytes at region @r with @access (set-up: BROKEN, NULL) */
static struct ibv_mr *reg(struct rc_ctx *ctx, struct vt *t, int r, size_t len,
			  int access)
{
	struct ibv_mr *mr = (ctx->ops->ibv_reg_mr)(vt_pd(t, r), vt_region(t, r),
						   len, access);

	if (!mr)
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_reg_mr failed (set-up): %m");
	return mr;
}

/* a's one completion: wr_id 1, @status */
static bool send_wc(struct rc_ctx *ctx, struct vt *t, enum ibv_wc_status status)
{
	if (status)
		return vt_a_failed(ctx, t, status);
	return vt_one_wc(ctx, t->scq, "send",
			 &(struct vt_wc){ .wr_id = 1,
					  .opcode = IBV_WC_SEND,
					  .byte_len = -1,
					  .qp_num = t->a->qp_num,
					  .src_qp = -1,
					  .wc_flags = -1 });
}

/* b's one completion: wr_id 2, @status (byte_len @len on success) */
static bool recv_wc(struct rc_ctx *ctx, struct vt *t, enum ibv_wc_status status,
		    uint32_t len)
{
	return vt_one_wc(ctx, t->rcq, "recv",
			 &(struct vt_wc){ .wr_id = 2,
					  .status = status,
					  .opcode = status ? -1 : IBV_WC_RECV,
					  .byte_len = status ? -1 :
							       (int64_t)len,
					  .qp_num = t->b->qp_num,
					  .src_qp = -1,
					  .wc_flags = status ? -1 : 0 });
}

/* One receive on b of @sg (set-up: BROKEN when refused) */
static bool recv_of(struct rc_ctx *ctx, struct vt *t, struct ibv_sge *sg)
{
	struct ibv_recv_wr wr = { .wr_id = 2, .sg_list = sg, .num_sge = 1 };
	struct ibv_recv_wr *bad;
	int err = ctx->ops->ibv_post_recv(t->b, &wr, &bad);

	if (!err)
		return true;
	rc_obs_state(ctx->obs, RC_STATE_BROKEN,
		     "ibv_post_recv failed (set-up): %s", rc_errno_name(err));
	return false;
}

/* a SEND of @len patterned bytes from region 0 */
static bool send_of(struct rc_ctx *ctx, struct vt *t, uint32_t len)
{
	struct ibv_sge sg = vt_sge(t, 0, 0, len);
	struct ibv_send_wr wr = vt_wr(t, IBV_WR_SEND, 1, &sg, 1), *bad;

	vt_pattern(t, 0, len, 29);
	return vt_post_send(ctx, t, &wr, &bad);
}

static void send_bad_lkey(const struct err_row *row, struct rc_ctx *ctx,
			  struct vt *t)
{
	struct ibv_sge sg = vt_sge(t, 0, 0, LEN);
	struct ibv_send_wr wr = vt_wr(t, IBV_WR_SEND, 1, &sg, 1), *bad;
	struct ibv_wc wc;

	/* as rc-wrong-rkey does for an rkey: far from any MR of the row */
	sg.lkey ^= 0x00800000;
	if (!vt_recv_ready(ctx, t, 2, VT_REGION) ||
	    !vt_post_send(ctx, t, &wr, &bad) ||
	    !send_wc(ctx, t, IBV_WC_LOC_PROT_ERR))
		return;
	if (!vt_quiet(ctx, t->rcq, &wc) && wc.status == IBV_WC_SUCCESS)
		rc_obs_violation(ctx->obs,
				 "recv: a message arrived (byte_len %u) from "
				 "a SEND whose buffers name no MR",
				 wc.byte_len);
}

static void recv_bad_lkey(const struct err_row *row, struct rc_ctx *ctx,
			  struct vt *t)
{
	struct ibv_sge sg = vt_sge(t, 1, 0, VT_REGION);

	sg.lkey ^= 0x00800000;
	if (recv_of(ctx, t, &sg) && send_of(ctx, t, RECV_LEN) &&
	    recv_wc(ctx, t, IBV_WC_LOC_PROT_ERR, 0))
		send_wc(ctx, t, IBV_WC_REM_OP_ERR);
}

static void into_unwritable(const struct err_row *row, struct rc_ctx *ctx,
			    struct vt *t)
{
	uint32_t len = row->op == IBV_WR_RDMA_READ ? LEN : 8;
	struct ibv_mr *ro = reg(ctx, t, 3, VT_REGION, 0);
	struct ibv_sge sg = vt_sge(t, 3, 0, len);
	struct ibv_send_wr wr = vt_remote_wr(t, row->op, &sg), *bad;
	uint8_t want[LEN];

	if (!ro)
		return;
	sg.lkey = ro->lkey;
	if (row->op != IBV_WR_RDMA_READ) { /* the atomic's fields */
		wr.wr.atomic.remote_addr = vt_addr(t, 2, 0);
		wr.wr.atomic.compare_add = 1;
		wr.wr.atomic.rkey = t->bmr->rkey;
	}
	vt_pattern(t, 2, LEN, 5);
	vt_pattern(t, 3, LEN, 11);
	memcpy(want, vt_region(t, 3), LEN);
	if (vt_post_send(ctx, t, &wr, &bad) &&
	    vt_a_failed(ctx, t, IBV_WC_LOC_PROT_ERR))
		vt_same(ctx, "local", vt_region(t, 3), want, LEN);
	ctx->ops->ibv_dereg_mr(ro);
}

static void recv_unwritable(const struct err_row *row, struct rc_ctx *ctx,
			    struct vt *t)
{
	struct ibv_mr *ro = reg(ctx, t, 1, VT_REGION, 0);
	struct ibv_sge sg = vt_sge(t, 1, 0, VT_REGION);
	uint8_t want[LEN];

	if (!ro)
		return;
	sg.lkey = ro->lkey;
	vt_pattern(t, 1, LEN, 13);
	memcpy(want, vt_region(t, 1), LEN);
	if (recv_of(ctx, t, &sg) && send_of(ctx, t, RECV_LEN) &&
	    recv_wc(ctx, t, IBV_WC_LOC_PROT_ERR, 0) &&
	    send_wc(ctx, t, IBV_WC_REM_OP_ERR))
		vt_same(ctx, "receive buffer", vt_region(t, 1), want, LEN);
	ctx->ops->ibv_dereg_mr(ro);
}

static void send_length(const struct err_row *row, struct rc_ctx *ctx,
			struct vt *t)
{
	bool fits = row->arg <= RECV_LEN;

	if (!vt_recv_ready(ctx, t, 2, RECV_LEN) ||
	    !send_of(ctx, t, (uint32_t)row->arg) ||
	    !recv_wc(ctx, t, fits ? IBV_WC_SUCCESS : IBV_WC_LOC_LEN_ERR,
		     RECV_LEN) ||
	    !send_wc(ctx, t, fits ? IBV_WC_SUCCESS : IBV_WC_REM_INV_REQ_ERR))
		return;
	if (fits)
		vt_same(ctx, "received", vt_region(t, 1), vt_region(t, 0),
			RECV_LEN);
}

/* An MR of exactly b's region 2, for every remote access (set-up) */
static struct ibv_mr *region_mr(struct rc_ctx *ctx, struct vt *t)
{
	return reg(ctx, t, 2, VT_REGION,
		   IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
			   IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC);
}

static void write_at_mr_end(const struct err_row *row, struct rc_ctx *ctx,
			    struct vt *t)
{
	struct ibv_mr *mr = region_mr(ctx, t);
	struct ibv_sge sg = vt_sge(t, 0, 0, LEN);
	struct ibv_send_wr wr = vt_wr(t, IBV_WR_RDMA_WRITE, 1, &sg, 1), *bad;
	uint8_t *end = vt_region(t, 2) + VT_REGION - LEN, before, after;

	if (!mr)
		return;
	vt_pattern(t, 0, LEN, 19);
	vt_pattern(t, 2, VT_REGION, 47);
	/* the MR's byte before the write, and region 3's first */
	before = end[-1];
	after = end[LEN];
	wr.wr.rdma.remote_addr = vt_addr(t, 2, VT_REGION - LEN);
	wr.wr.rdma.rkey = mr->rkey;
	if (vt_post_send(ctx, t, &wr, &bad) &&
	    vt_one_wc(ctx, t->scq, "send",
		      &(struct vt_wc){ .wr_id = 1,
				       .opcode = IBV_WC_RDMA_WRITE,
				       .byte_len = -1,
				       .qp_num = t->a->qp_num,
				       .src_qp = -1,
				       .wc_flags = -1 }) &&
	    vt_lands(ctx, t, "remote", end, vt_region(t, 0), LEN) &&
	    (end[-1] != before || end[LEN] != after))
		rc_obs_violation(ctx->obs,
				 "remote: a byte beside the %d written changed",
				 LEN);
	ctx->ops->ibv_dereg_mr(mr);
}

static void past_mr_end(const struct err_row *row, struct rc_ctx *ctx,
			struct vt *t)
{
	struct ibv_mr *mr = region_mr(ctx, t);
	/* the local end's region: a's 0 for a Write, a's 3 for a Read */
	int local = row->op == IBV_WR_RDMA_READ ? 3 : 0;
	struct ibv_sge sg = vt_sge(t, local, 0, LEN);
	struct ibv_send_wr wr = vt_remote_wr(t, row->op, &sg), *bad;
	uint8_t remote[LEN + 1], mine[LEN];

	if (!mr)
		return;
	vt_pattern(t, 0, LEN, 23);
	vt_pattern(t, 2, VT_REGION, 31);
	vt_pattern(t, 3, VT_REGION, 37);
	/* the MR's last LEN - 1 bytes and the byte after it */
	memcpy(remote, vt_region(t, 2) + VT_REGION - LEN + 1, LEN);
	memcpy(mine, vt_region(t, local), LEN);
	wr.wr.rdma.remote_addr = vt_addr(t, 2, VT_REGION - LEN + 1);
	wr.wr.rdma.rkey = mr->rkey;
	if (vt_post_send(ctx, t, &wr, &bad) &&
	    vt_a_failed(ctx, t, IBV_WC_REM_ACCESS_ERR) &&
	    vt_same(ctx, "remote", vt_region(t, 2) + VT_REGION - LEN + 1,
		    remote, LEN))
		vt_same(ctx, "local", vt_region(t, local), mine, LEN);
	ctx->ops->ibv_dereg_mr(mr);
}

static void atomic_misaligned(const struct err_row *row, struct rc_ctx *ctx,
			      struct vt *t)
{
	struct ibv_sge sg = vt_sge(t, 0, 0, 8);
	struct ibv_send_wr wr = vt_remote_wr(t, IBV_WR_ATOMIC_FETCH_AND_ADD,
					     &sg),
			   *bad;
	uint8_t want[16];

	vt_pattern(t, 2, 16, 43);
	memcpy(want, vt_region(t, 2), 16);
	wr.wr.atomic.remote_addr = vt_addr(t, 2, 4);
	wr.wr.atomic.rkey = t->bmr->rkey;
	wr.wr.atomic.compare_add = 0x0102030405060708ull;
	/* refused at once ("the first failure (that can be detected
	 * immediately...)"), bad_wr the WR; or posted, and NAKed */
	if (!vt_post_send(ctx, t, &wr, &bad))
		vt_refused_wr(ctx, bad, &wr);
	else if (!vt_a_failed(ctx, t, IBV_WC_REM_INV_REQ_ERR))
		return;
	vt_same(ctx, "remote", vt_region(t, 2), want, 16);
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct err_row *row = r;
	struct vt_opts o = { 0 };
	struct vt t;

	if (vt_up(ctx, &t, &o))
		row->check(row, ctx, &t);
	vt_down(ctx, &t);
}

RC_TABLE_GROUP(group, "ibv_post_send", RC_CONV_ERRNO_RET, "verbs", rows, run);
