// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_poll_cq(3)'s struct ibv_wc, field by field, for each kind of WR
 * whose completion it reports: a posts one WR to b (verbs_traffic.h), and
 * the call under test polls the CQ the row is about, one entry a call,
 * until the completion is there.  What each field must hold is the
 * page's comment on it: opcode "Operation type specified in the completed
 * WR", byte_len "Number of bytes transferred", imm_data "Immediate data
 * (in network byte order)", qp_num "Local QP number of completed WR",
 * src_qp (UD only), and wc_flags of "IBV_WC_GRH GRH is present (valid
 * only for UD QPs)" and "IBV_WC_WITH_IMM Immediate data value is valid".
 * ibv_poll_cq.c has the counts and the order; these rows judge what one
 * completion says.
 * - poll_cq/fields-of-{send,rdma-write,rdma-read,fetch-add,cmp-swap}:
 *   a's completion: the opcode of its WR, qp_num a
 * - poll_cq/fields-of-recv, -recv-with-imm, -recv-rdma-with-imm: b's: the
 *   receive opcode, byte_len, imm_data as sent, WITH_IMM only with one
 * - poll_cq/fields-of-error-completion: an RDMA Write's NAK: status
 *   IBV_WC_REM_ACCESS_ERR, wr_id and qp_num, the fields an error has
 * - poll_cq/fields-of-flushed-receive: b moved to the error state with a
 *   receive posted: status IBV_WC_WR_FLUSH_ERR, wr_id and qp_num b's
 * - poll_cq/fields-of-receive-too-short: a SEND of 200 bytes into b's
 *   receive of 64: b's completion says IBV_WC_LOC_LEN_ERR
 * - poll_cq/fields-of-read-into-unwritable-mr: an RDMA Read into an MR
 *   of a without IBV_ACCESS_LOCAL_WRITE: a's says IBV_WC_LOC_PROT_ERR
 * - poll_cq/fields-of-ud-recv: b's on UD: src_qp a, IBV_WC_GRH, byte_len
 *   with the GRH's 40
 */
#include <endian.h>
#include <string.h>

#include "verbs_traffic.h"

#define DOC_WC                                                           \
	"enum ibv_wc_opcode opcode; /* Operation type specified in the " \
	"completed WR */"
#define DOC_FLAGS                                                      \
	"The attribute wc_flags describes the properties of the work " \
	"completion."

#define DOC_ERR                                                            \
	"If the completion status is other than IBV_WC_SUCCESS, only the " \
	"following attributes are valid: wr_id, status, qp_num, and "      \
	"vendor_err."

#define LEN 200
#define GRH 40
/* all four bytes distinct: a byte-order slip shows */
#define IMM 0x1a2b3c4du

struct fld_row {
	struct rc_case c;
	enum ibv_wr_opcode op;
	enum ibv_qp_type type; /* 0: RC */
	bool recv; /* b's completion (else a's) */
	bool bad_rkey; /* the remote WR under an rkey no MR has */
	bool flush; /* no WR: b moved to the error state */
	uint32_t recv_len; /* b's receive (0: a region) */
	bool unwritable; /* the local SGE in an MR without local write */
	struct vt_wc want; /* wr_id and qp_num filled by the row */
};

#define SEND_SIDE(name, wr_op, wc_op, need)                                 \
	{                                                                   \
		.c = { .id = "verbs/poll_cq/fields-of-" name,               \
		       .doc = DOC_WC,                                       \
		       .basis = RC_BASIS_DOCUMENTED,                        \
		       .note = "one " #wr_op                                \
			       " from a, signaled: a's completion "         \
			       "has status IBV_WC_SUCCESS, opcode " #wc_op  \
			       ", wr_id and qp_num a's; with no immediate " \
			       "and nothing invalidated, neither "          \
			       "IBV_WC_WITH_IMM nor IBV_WC_WITH_INV",       \
		       .needs = RC_NEED_DEVICE | (need),                    \
		       .contract = { RC_RETURNS(1) } },                     \
		.op = wr_op, .want = {                                      \
			.opcode = wc_op,                                    \
			.byte_len = -1,                                     \
			.src_qp = -1,                                       \
			.wc_flags = 0                                       \
		}                                                           \
	}

static const struct fld_row rows[] = {
	SEND_SIDE("send", IBV_WR_SEND, IBV_WC_SEND, 0),
	SEND_SIDE("rdma-write", IBV_WR_RDMA_WRITE, IBV_WC_RDMA_WRITE, 0),
	SEND_SIDE("rdma-read", IBV_WR_RDMA_READ, IBV_WC_RDMA_READ, 0),
	SEND_SIDE("fetch-add", IBV_WR_ATOMIC_FETCH_AND_ADD, IBV_WC_FETCH_ADD,
		  RC_NEED_ATOMIC),
	SEND_SIDE("cmp-swap", IBV_WR_ATOMIC_CMP_AND_SWP, IBV_WC_COMP_SWAP,
		  RC_NEED_ATOMIC),
	{ .c = { .id = "verbs/poll_cq/fields-of-recv",
		 .doc = DOC_WC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a SEND of 200 bytes: b's completion has opcode "
			 "IBV_WC_RECV, byte_len 200, qp_num b's, no "
			 "IBV_WC_WITH_IMM",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(1) } },
	  .op = IBV_WR_SEND,
	  .recv = true,
	  .want = { .opcode = IBV_WC_RECV,
		    .byte_len = LEN,
		    .src_qp = -1,
		    .wc_flags = 0 } },
	{ .c = { .id = "verbs/poll_cq/fields-of-recv-with-imm",
		 .doc = DOC_FLAGS,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a SEND_WITH_IMM of 200 bytes, immediate 0x1a2b3c4d: "
			 "b's completion has opcode IBV_WC_RECV, byte_len 200, "
			 "IBV_WC_WITH_IMM and imm_data as sent (network "
			 "order)",
		 .needs = RC_NEED_DEVICE | RC_NEED_IMM,
		 .contract = { RC_RETURNS(1) } },
	  .op = IBV_WR_SEND_WITH_IMM,
	  .recv = true,
	  .want = { .opcode = IBV_WC_RECV,
		    .byte_len = LEN,
		    .src_qp = -1,
		    .wc_flags = IBV_WC_WITH_IMM,
		    .imm = true } },
	{ .c = { .id = "verbs/poll_cq/fields-of-recv-rdma-with-imm",
		 .doc = DOC_FLAGS,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "an RDMA_WRITE_WITH_IMM of 200 bytes: b's completion "
			 "has opcode IBV_WC_RECV_RDMA_WITH_IMM, byte_len 200 "
			 "(the bytes the write transferred), IBV_WC_WITH_IMM "
			 "and imm_data as sent",
		 .needs = RC_NEED_DEVICE | RC_NEED_IMM,
		 .contract = { RC_RETURNS(1) } },
	  .op = IBV_WR_RDMA_WRITE_WITH_IMM,
	  .recv = true,
	  .want = { .opcode = IBV_WC_RECV_RDMA_WITH_IMM,
		    .byte_len = LEN,
		    .src_qp = -1,
		    .wc_flags = IBV_WC_WITH_IMM,
		    .imm = true } },
	{ .c = { .id = "verbs/poll_cq/fields-of-error-completion",
		 .doc = DOC_ERR,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "an RDMA_WRITE from a under an rkey no MR has: a's "
			 "completion has status IBV_WC_REM_ACCESS_ERR (the "
			 "responder's NAK), wr_id and qp_num a's: the fields "
			 "valid for an error",
		 .needs = RC_NEED_DEVICE | RC_NEED_NAK,
		 .contract = { RC_RETURNS(1) } },
	  .op = IBV_WR_RDMA_WRITE,
	  .bad_rkey = true,
	  .want = { .status = IBV_WC_REM_ACCESS_ERR,
		    .opcode = -1,
		    .byte_len = -1,
		    .src_qp = -1,
		    .wc_flags = -1 } },
	{ .c = { .id = "verbs/poll_cq/fields-of-flushed-receive",
		 .doc = DOC_ERR,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "a receive posted on b, then b moved to IBV_QPS_ERR: "
			 "b's completion has status IBV_WC_WR_FLUSH_ERR, wr_id "
			 "and qp_num b's: the fields valid for an error (IBA "
			 "10.3.1: a QP in the error state flushes its WRs; on "
			 "any transport, where the error rows of need nak are "
			 "InfiniBand's)",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(1) } },
	  .recv = true,
	  .flush = true,
	  .want = { .status = IBV_WC_WR_FLUSH_ERR,
		    .opcode = -1,
		    .byte_len = -1,
		    .src_qp = -1,
		    .wc_flags = -1 } },
	{ .c = { .id = "verbs/poll_cq/fields-of-receive-too-short",
		 .doc = DOC_ERR,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "a SEND of 200 bytes into b's receive of 64: b's "
			 "completion has status IBV_WC_LOC_LEN_ERR, wr_id and "
			 "qp_num b's (IBA 10.8.3: a message longer than its "
			 "receive buffer is a Local Length Error)",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(1) } },
	  .op = IBV_WR_SEND,
	  .recv = true,
	  .recv_len = 64,
	  .want = { .status = IBV_WC_LOC_LEN_ERR,
		    .opcode = -1,
		    .byte_len = -1,
		    .src_qp = -1,
		    .wc_flags = -1 } },
	{ .c = { .id = "verbs/poll_cq/fields-of-read-into-unwritable-mr",
		 .doc = DOC_ERR,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "an RDMA Read of 200 bytes into an MR of a registered "
			 "without IBV_ACCESS_LOCAL_WRITE: a's completion has "
			 "status IBV_WC_LOC_PROT_ERR, wr_id and qp_num a's "
			 "(IBA 10.8.3: a Local Protection Error)",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(1) } },
	  .op = IBV_WR_RDMA_READ,
	  .unwritable = true,
	  .want = { .status = IBV_WC_LOC_PROT_ERR,
		    .opcode = -1,
		    .byte_len = -1,
		    .src_qp = -1,
		    .wc_flags = -1 } },
	{ .c = { .id = "verbs/poll_cq/fields-of-ud-recv",
		 .doc = DOC_FLAGS,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a UD SEND of 200 bytes: b's completion has opcode "
			 "IBV_WC_RECV, byte_len 240 (the GRH's 40 too), "
			 "IBV_WC_GRH, src_qp a's",
		 .needs = RC_NEED_DEVICE | RC_NEED_UD,
		 .contract = { RC_RETURNS(1) } },
	  .op = IBV_WR_SEND,
	  .type = IBV_QPT_UD,
	  .recv = true,
	  .want = { .opcode = IBV_WC_RECV,
		    .byte_len = GRH + LEN,
		    .wc_flags = IBV_WC_GRH,
		    .ud = true } },
};

/* The WR of the row from a: remote ones to b's region 2; @ro, when
 * given, the MR its local SGE is in (region 3) */
static bool post_one(struct rc_ctx *ctx, struct vt *t,
		     const struct fld_row *row, const struct ibv_mr *ro)
{
	enum ibv_wr_opcode op = row->op;
	uint32_t len = op == IBV_WR_ATOMIC_FETCH_AND_ADD ||
				       op == IBV_WR_ATOMIC_CMP_AND_SWP ?
			       8 :
			       LEN;
	struct ibv_sge sg = vt_sge(t, 0, 0, len);
	struct ibv_send_wr wr = vt_remote_wr(t, op, &sg), *bad;
	int err;

	if (t->a->qp_type == IBV_QPT_UD)
		wr = vt_wr(t, op, 1, &sg, 1);
	if (len == 8) {
		wr.wr.atomic.remote_addr = vt_addr(t, 2, 0);
		wr.wr.atomic.rkey = t->bmr->rkey;
	}
	wr.imm_data = htobe32(IMM);
	if (ro) {
		sg = vt_sge(t, 3, 0, len);
		sg.lkey = ro->lkey;
	}
	/* as rc-wrong-rkey: the index's top bit, far from any MR */
	if (row->bad_rkey)
		wr.wr.rdma.rkey ^= 0x00800000;
	err = ctx->ops->ibv_post_send(t->a, &wr, &bad);
	if (!err)
		return true;
	rc_obs_state(ctx->obs, RC_STATE_BROKEN,
		     "ibv_post_send failed (set-up): %s", rc_errno_name(err));
	return false;
}

static bool to_error(struct rc_ctx *ctx, struct ibv_qp *qp)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_ERR };
	int err = ctx->ops->ibv_modify_qp(qp, &a, IBV_QP_STATE);

	if (!err)
		return true;
	rc_obs_state(ctx->obs, RC_STATE_BROKEN,
		     "ibv_modify_qp to IBV_QPS_ERR failed (set-up): %s",
		     rc_errno_name(err));
	return false;
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct fld_row *row = r;
	struct vt_opts o = { .type = row->type };
	struct vt_wc want = row->want;
	struct ibv_mr *ro = NULL;
	struct ibv_wc wc;
	struct ibv_cq *cq;
	double end;
	struct vt t;

	if (!vt_up(ctx, &t, &o))
		goto out;
	if (row->unwritable) {
		ro = (ctx->ops->ibv_reg_mr)(t.l.pd, vt_region(&t, 3), VT_REGION,
					    0);
		if (!ro) {
			rc_obs_state(ctx->obs, RC_STATE_BROKEN,
				     "ibv_reg_mr failed (set-up): %m");
			goto out;
		}
	}
	if (!vt_recv_ready(ctx, &t, 2,
			   row->recv_len ? row->recv_len : VT_REGION) ||
	    !(row->flush ? to_error(ctx, t.b) : post_one(ctx, &t, row, ro)))
		goto out;
	cq = row->recv ? t.rcq : t.scq;
	want.wr_id = row->recv ? 2 : 1;
	want.qp_num = row->recv ? t.b->qp_num : t.a->qp_num;
	if (want.ud)
		want.src_qp = t.a->qp_num;
	want.imm_data = htobe32(IMM);
	/* the call under test until the completion is there: the last
	 * call is the row's observation */
	end = rc_now_ms() + rc_scaled_ms(ctx, VT_WAIT_MS);
	do {
		memset(&wc, 0, sizeof(wc));
		RC_OBSERVE(ctx, ctx->ops->ibv_poll_cq(cq, 1, &wc));
	} while (ctx->obs->ret == 0 && rc_now_ms() < end);
	if (ctx->obs->ret == 1)
		vt_wc_check(ctx, row->recv ? "recv" : "send", &wc, &want);
out:
	if (ro)
		ctx->ops->ibv_dereg_mr(ro);
	vt_down(ctx, &t);
}

RC_TABLE_GROUP(group, "ibv_poll_cq", RC_CONV_NEG, "verbs", rows, run);
