// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Memory windows on the data path, on the rung of verbs_traffic.h (RC;
 * on iWARP the rows SKIP, as every data-path row does).  What each row
 * observes is the bind, invalidate or send under test, and it looks
 * where that takes effect: an RDMA Write or Read through the window's
 * rkey from the other QP, its status and the bytes it moved, and the
 * completions on both sides.
 *
 * ibv_bind_mw(3): a type 1 MW bound on a, written and read by a:
 * - bind-gives-access, rkey-returned, bound-range-only, unbind,
 *   unbind-no-mr, read-only, unsignaled (no completion), and the
 *   failures: a type 2 MW, no MR but a length, an MR of another PD, a UD
 *   QP
 *
 * ibv_wr_post(3)'s "Memory window type 2 operations", on a's struct
 * ibv_qp_ex, and ibv_post_send(3)'s BIND_MW, LOCAL_INV and SEND_WITH_INV
 * WRs.  A type 2 MW on rxe is the IBA's type 2B, which belongs to the QP
 * that binds it: remote access to it arrives at that QP.  So a window a
 * binds (over region 3, a's) is written and read by b, and one b binds
 * (over region 2, b's) by a.
 * - wr_bind_mw: access through the new rkey, none through the old one or
 *   past the range, read-only, mw->rkey after the bind, a rebind after
 *   an invalidation; the failures: an MR without IBV_ACCESS_MW_BIND, a
 *   type 1 MW, a bind after max_send_wr WRs in one region; unsignaled
 * - wr_local_inv: access until the invalidation and none after; the
 *   failures: an rkey no MW has, a type 1 MW's, one after max_send_wr
 *   WRs in one region; unsignaled
 * - wr_send_inv: the window b bound is invalidated at b, the receive
 *   completion says so (IBV_WC_WITH_INV, invalidated_rkey); the failures:
 *   an rkey b has no window for, one after max_send_wr WRs in one region;
 *   unsignaled
 * - post_send: the same three WRs through ibv_post_send, on RC and on UC
 *   (which the table gives them too), and refused on UD
 */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verbs_traffic.h"

#define B_POST                                                            \
	"ibv_bind_mw() posts to the queue pair qp a request to bind the " \
	"memory window mw according to the details in mw_bind."
#define B_RKEY                                                                 \
	"In case of a success, the R_key of the memory window after the bind " \
	"is returned in the mw_bind->mw->rkey field."
#define B_ACCESS                                                             \
	"The mw_access_flags define the allowed access to the MW after the " \
	"bind completes successfully."
#define B_QPT                                                              \
	"The QP Transport Service Type must be either UC, RC or XRC_SEND " \
	"for bind operations."
#define B_RET                                                           \
	"ibv_bind_mw() returns 0 on success, or the value of errno on " \
	"failure (which indicates the failure reason)."
#define B_NAME \
	"ibv_bind_mw - post a request to bind a type 1 memory window to a memory region"

#define W_BIND                                                          \
	"Bind a MW type 2 specified by mw, set a new rkey and set its " \
	"properties by bind_info."
#define W_LINV "Invalidate a MW type 2 which is associated with rkey."
#define W_SINV                                                             \
	"The data transfer is the same as for ibv_wr_send(), however the " \
	"remote side will invalidate the MR specified by invalidate_rkey " \
	"before delivering a completion."
#define W_SIGNALED \
	"A completion will be generated in the completion queue for the operation."
#define W_FAILURE                                                            \
	"If a failure is detected during operation, for instance due to an " \
	"invalid argument, then ibv_wr_complete() will return failure and "  \
	"the entire posting will be aborted."
#define M_UNTIL                                                           \
	"Once bound, the memory window allows RDMA (remote) access to a " \
	"subset of the MR to which it was bound, until invalidated by: "  \
	"ibv_bind_mw verb with zero length for type 1, "                  \
	"IBV_WR_LOCAL_INV/IBV_WR_SEND_WITH_INV WR opcode for type 2, "    \
	"deallocation."
#define M_RKEY                                                              \
	"The remote key (R_Key) field rkey is used by remote processes to " \
	"perform Atomic and RDMA operations."
#define M_CHANGED "This key will be changed during bind operations."
#define P_MW                                        \
	"struct ibv_mw *mw; /* Memory window (MW) " \
	"of type 2 to bind */"
#define P_RKEY "uint32_t rkey; /* The desired new rkey of the MW */"
#define P_INV "uint32_t invalidate_rkey; /* Remote rkey to invalidate */"
#define C_INV                                                   \
	"IBV_WC_WITH_INV Invalidated RKey data value is valid " \
	"(cannot be combined with IBV_WC_WITH_IMM)"

#define P_TABLE \
	"Each QP Transport Service Type supports a specific set of opcodes, as shown in the following table:"
#define P_STOP \
	"It stops processing WRs from this list at the first failure (that can be detected immediately while requests are being posted), and returns this failing WR through bad_wr."

#define NEEDS_DP (RC_NEED_DEVICE)
#define NEEDS_UD (RC_NEED_DEVICE | RC_NEED_UD)
#define MW_LEN 256
#define MW_RW (IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ)
/* the MR a window is bound to: the whole buffer, for every access */
#define MR_ALL                                              \
	(IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | \
	 IBV_ACCESS_REMOTE_READ | IBV_ACCESS_MW_BIND)
#define OPS_MW                                               \
	(IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_RDMA_WRITE |   \
	 IBV_QP_EX_WITH_BIND_MW | IBV_QP_EX_WITH_LOCAL_INV | \
	 IBV_QP_EX_WITH_SEND_WITH_INV)
#define ID_BIND 41
#define ID_RDMA 42
#define ID_INV 43
#define ID_SEND 44
#define ID_RECV 45

struct mw_row;
typedef void mw_check(const struct mw_row *row, struct rc_ctx *ctx,
		      struct vt *t);

struct mw_row {
	struct rc_case c;
	mw_check *check;
	enum ibv_qp_type type; /* 0: RC */
	bool no_mr; /* ibv_bind_mw: an unbind names no MR */
	/* type 2 operations through ibv_post_send: observed as its value
	 * (else a's struct ibv_qp_ex, run_ex, observed as whether the batch
	 * failed) */
	bool by_post;
	bool fields; /* wr_send_inv: the receive's completion (else the
		      * window after it) */
	enum ibv_wr_opcode op; /* post_send's refusals: the WR's */
	bool sig_some; /* a's sq_sig_all is 0 */
};

/* ---- the window ---- */

struct bound {
	struct ibv_mr *mr; /* over the whole buffer */
	struct ibv_mw *mw;
	uint32_t rkey; /* of the bind */
	bool no_mr; /* an unbind names no MR */
	int err; /* the errno value of a refused type 2 post */
};

/* An MR with @access over the buffer and a MW of @type on a's PD */
static bool mw_up(struct rc_ctx *ctx, struct vt *t, struct bound *b,
		  enum ibv_mw_type type, unsigned int access)
{
	if (!rc_need_call(ctx, (const void *)ctx->ops->ibv_alloc_mw,
			  "ibv_alloc_mw") ||
	    !rc_need_call(ctx, (const void *)ctx->ops->ibv_dealloc_mw,
			  "ibv_dealloc_mw") ||
	    !rc_need_call(ctx, (const void *)ctx->ops->ibv_bind_mw,
			  "ibv_bind_mw") ||
	    !vt_has_mw(ctx, t->l.ctx, type))
		return false;
	b->mr = (ctx->ops->ibv_reg_mr)(t->l.pd, t->buf, VT_BUF, access);
	if (!b->mr) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_reg_mr for the window (set-up): %m");
		return false;
	}
	b->mw = ctx->ops->ibv_alloc_mw(t->l.pd, type);
	if (!b->mw) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_alloc_mw (set-up): %m");
		return false;
	}
	return true;
}

static void mw_down(struct rc_ctx *ctx, struct bound *b)
{
	if (b->mw)
		ctx->ops->ibv_dealloc_mw(b->mw);
	if (b->mr)
		ctx->ops->ibv_dereg_mr(b->mr);
}

/* The completion of the local WR @wr_id that @qp posted: its status,
 * the opcode checked when it succeeded; -1 when none came */
static int local_wc(struct rc_ctx *ctx, struct vt *t, struct ibv_qp *qp,
		    const char *who, uint64_t wr_id, int opcode)
{
	struct ibv_wc wc;

	if (vt_poll(ctx, t->scq, &wc, 1) != 1) {
		rc_obs_violation(ctx->obs, "%s: no completion", who);
		return -1;
	}
	if (wc.status == IBV_WC_SUCCESS)
		vt_wc_check(ctx, who, &wc,
			    &(struct vt_wc){ .wr_id = wr_id,
					     .opcode = opcode,
					     .byte_len = -1,
					     .qp_num = qp->qp_num,
					     .src_qp = -1,
					     .wc_flags = -1 });
	return wc.status;
}

/* An RDMA op of @len bytes through @rkey at @off of the window's
 * region, from the QP the window does not belong to: a's type 1 windows
 * (region 2) from a, a's type 2 ones (region 3) from b, b's (region 2)
 * from a.  Its completion status, or -1. */
static int through(struct rc_ctx *ctx, struct vt *t, bool from_b,
		   enum ibv_wr_opcode op, uint32_t rkey, size_t off,
		   uint32_t len)
{
	int local = from_b ? 1 : (op == IBV_WR_RDMA_READ ? 3 : 0);
	struct ibv_sge sg = vt_sge(t, local, 0, len);
	struct ibv_send_wr wr = vt_wr(t, op, ID_RDMA, &sg, 1), *bad;
	struct ibv_wc wc;

	wr.wr.rdma.remote_addr = vt_addr(t, from_b ? 3 : 2, off);
	wr.wr.rdma.rkey = rkey;
	if (ctx->ops->ibv_post_send(from_b ? t->b : t->a, &wr, &bad)) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_post_send (set-up): %m");
		return -1;
	}
	if (vt_poll(ctx, t->scq, &wc, 1) != 1) {
		rc_obs_violation(ctx->obs, "no completion of the RDMA op");
		return -1;
	}
	return wc.status;
}

static void want_status(struct rc_ctx *ctx, const char *what, int got, int want)
{
	if (got >= 0 && got != want)
		rc_obs_violation(ctx->obs, "%s: %s, not %s", what,
				 ibv_wc_status_str(got),
				 ibv_wc_status_str(want));
}

/* A write of @len bytes through @rkey to the start of the window's
 * region, from the QP the window does not belong to (through()): it
 * lands (@ok), or it is refused and nothing lands */
static void writes(struct rc_ctx *ctx, struct vt *t, bool from_b,
		   const char *what, uint32_t rkey, uint32_t len, bool ok)
{
	bool uc = t->a->qp_type == IBV_QPT_UC;
	int src = from_b ? 1 : 0, dst = from_b ? 3 : 2;

	vt_pattern(t, src, len, ok ? 3 : 5);
	/* UC has no acknowledgement: a write the responder refuses
	 * completes at the requester as sent, and shows only in what does
	 * not land */
	want_status(ctx, what,
		    through(ctx, t, from_b, IBV_WR_RDMA_WRITE, rkey, 0, len),
		    ok || uc ? IBV_WC_SUCCESS : IBV_WC_REM_ACCESS_ERR);
	if (ok) {
		vt_lands(ctx, t, what, vt_region(t, dst), vt_region(t, src),
			 len);
		return;
	}
	if (uc)
		vt_sleep(ctx, VT_QUIET_MS);
	vt_zeroes(ctx, what, vt_region(t, dst), len);
}

static void b_writes(struct rc_ctx *ctx, struct vt *t, const char *what,
		     uint32_t rkey, uint32_t len, bool ok)
{
	writes(ctx, t, true, what, rkey, len, ok);
}

/* ---- ibv_bind_mw: type 1, bound on a ---- */

/* Bind @b's MW to region 2's first @len bytes with @access, observed,
 * and its completion at a */
static bool do_bind(struct rc_ctx *ctx, struct vt *t, struct bound *b,
		    uint64_t len, unsigned int access, bool observe)
{
	struct ibv_mw_bind mb = {
		.wr_id = ID_BIND,
		.send_flags = IBV_SEND_SIGNALED,
		.bind_info = { .mr = len || !b->no_mr ? b->mr : NULL,
			       .addr = len ? vt_addr(t, 2, 0) : 0,
			       .length = len,
			       .mw_access_flags = access },
	};
	int r;

	if (observe) {
		RC_OBSERVE(ctx, ctx->ops->ibv_bind_mw(t->a, b->mw, &mb));
		r = (int)ctx->obs->ret;
	} else {
		r = ctx->ops->ibv_bind_mw(t->a, b->mw, &mb);
	}
	if (r) {
		rc_obs_violation(ctx->obs, "ibv_bind_mw: %s", strerror(r));
		return false;
	}
	if (!vt_one_wc(ctx, t->scq, "bind",
		       &(struct vt_wc){ .wr_id = ID_BIND,
					.opcode = IBV_WC_BIND_MW,
					.byte_len = -1,
					.qp_num = t->a->qp_num,
					.src_qp = -1,
					.wc_flags = -1 }))
		return false;
	if (len)
		b->rkey = b->mw->rkey;
	return true;
}

static void bind_access(const struct mw_row *row, struct rc_ctx *ctx,
			struct vt *t)
{
	struct bound b = {};

	vt_pattern(t, 0, VT_REGION, 3);
	if (mw_up(ctx, t, &b, IBV_MW_TYPE_1, MR_ALL) &&
	    do_bind(ctx, t, &b, MW_LEN, MW_RW, true)) {
		want_status(ctx, "write through the MW",
			    through(ctx, t, false, IBV_WR_RDMA_WRITE, b.rkey, 0,
				    MW_LEN),
			    IBV_WC_SUCCESS);
		vt_same(ctx, "remote", vt_region(t, 2), vt_region(t, 0),
			MW_LEN);
	}
	mw_down(ctx, &b);
}

static void bind_rkey(const struct mw_row *row, struct rc_ctx *ctx,
		      struct vt *t)
{
	struct bound b = {};

	vt_pattern(t, 2, VT_REGION, 9);
	if (mw_up(ctx, t, &b, IBV_MW_TYPE_1, MR_ALL) &&
	    do_bind(ctx, t, &b, MW_LEN, MW_RW, true)) {
		want_status(ctx, "read through mw->rkey",
			    through(ctx, t, false, IBV_WR_RDMA_READ, b.mw->rkey,
				    0, MW_LEN),
			    IBV_WC_SUCCESS);
		vt_same(ctx, "read", vt_region(t, 3), vt_region(t, 2), MW_LEN);
	}
	mw_down(ctx, &b);
}

static void bind_range(const struct mw_row *row, struct rc_ctx *ctx,
		       struct vt *t)
{
	struct bound b = {};

	vt_pattern(t, 0, VT_REGION, 3);
	if (mw_up(ctx, t, &b, IBV_MW_TYPE_1, MR_ALL) &&
	    do_bind(ctx, t, &b, MW_LEN, MW_RW, true)) {
		want_status(ctx, "write past the bound range",
			    through(ctx, t, false, IBV_WR_RDMA_WRITE, b.rkey,
				    MW_LEN, 16),
			    IBV_WC_REM_ACCESS_ERR);
		vt_zeroes(ctx, "remote", vt_region(t, 2), MW_LEN + 16);
	}
	mw_down(ctx, &b);
}

static void bind_unbind(const struct mw_row *row, struct rc_ctx *ctx,
			struct vt *t)
{
	struct bound b = { .no_mr = row->no_mr };

	vt_pattern(t, 0, VT_REGION, 3);
	if (mw_up(ctx, t, &b, IBV_MW_TYPE_1, MR_ALL) &&
	    do_bind(ctx, t, &b, MW_LEN, MW_RW, false) &&
	    do_bind(ctx, t, &b, 0, 0, true)) {
		want_status(ctx, "write through the unbound rkey",
			    through(ctx, t, false, IBV_WR_RDMA_WRITE, b.rkey, 0,
				    16),
			    IBV_WC_REM_ACCESS_ERR);
		vt_zeroes(ctx, "remote", vt_region(t, 2), 16);
	}
	mw_down(ctx, &b);
}

static void bind_read_only(const struct mw_row *row, struct rc_ctx *ctx,
			   struct vt *t)
{
	struct bound b = {};

	vt_pattern(t, 2, VT_REGION, 9);
	if (mw_up(ctx, t, &b, IBV_MW_TYPE_1, MR_ALL) &&
	    do_bind(ctx, t, &b, MW_LEN, IBV_ACCESS_REMOTE_READ, true)) {
		want_status(ctx, "read through a read-only MW",
			    through(ctx, t, false, IBV_WR_RDMA_READ, b.rkey, 0,
				    16),
			    IBV_WC_SUCCESS);
		want_status(ctx, "write through a read-only MW",
			    through(ctx, t, false, IBV_WR_RDMA_WRITE, b.rkey, 0,
				    16),
			    IBV_WC_REM_ACCESS_ERR);
	}
	mw_down(ctx, &b);
}

static void bind_fails(struct rc_ctx *ctx, struct vt *t, struct bound *b,
		       struct ibv_qp *qp, struct ibv_mr *mr, uint64_t len)
{
	struct ibv_mw_bind mb = {
		.wr_id = ID_BIND,
		.send_flags = IBV_SEND_SIGNALED,
		.bind_info = { .mr = mr,
			       .addr = vt_addr(t, 2, 0),
			       .length = len,
			       .mw_access_flags = MW_RW },
	};
	uint32_t before = b->mw->rkey;

	RC_OBSERVE(ctx, ctx->ops->ibv_bind_mw(qp, b->mw, &mb));
	if (ctx->obs->ret && b->mw->rkey != before)
		rc_obs_violation(ctx->obs, "a failed bind changed mw->rkey");
}

static void bind_type2(const struct mw_row *row, struct rc_ctx *ctx,
		       struct vt *t)
{
	struct bound b = {};

	if (mw_up(ctx, t, &b, IBV_MW_TYPE_2, MR_ALL))
		bind_fails(ctx, t, &b, t->a, b.mr, MW_LEN);
	mw_down(ctx, &b);
}

static void bind_no_mr(const struct mw_row *row, struct rc_ctx *ctx,
		       struct vt *t)
{
	struct bound b = {};

	if (mw_up(ctx, t, &b, IBV_MW_TYPE_1, MR_ALL))
		bind_fails(ctx, t, &b, t->a, NULL, MW_LEN);
	mw_down(ctx, &b);
}

static void bind_other_pd(const struct mw_row *row, struct rc_ctx *ctx,
			  struct vt *t)
{
	struct bound b = {};
	struct ibv_pd *pd = NULL;
	struct ibv_mr *mr = NULL;

	if (mw_up(ctx, t, &b, IBV_MW_TYPE_1, MR_ALL)) {
		pd = ctx->ops->ibv_alloc_pd(t->l.ctx);
		mr = pd ? (ctx->ops->ibv_reg_mr)(pd, t->buf, VT_BUF, MR_ALL) :
			  NULL;
		if (!mr)
			rc_obs_state(ctx->obs, RC_STATE_BROKEN,
				     "a second PD and its MR (set-up): %m");
		else
			bind_fails(ctx, t, &b, t->a, mr, MW_LEN);
	}
	if (mr)
		ctx->ops->ibv_dereg_mr(mr);
	if (pd)
		ctx->ops->ibv_dealloc_pd(pd);
	mw_down(ctx, &b);
}

/* sq_sig_all 0 and send_flags 0: the bind takes effect with no
 * completion; bound again with IBV_SEND_SIGNALED, it has one */
static void bind_unsignaled(const struct mw_row *row, struct rc_ctx *ctx,
			    struct vt *t)
{
	struct bound b = {};
	struct ibv_mw_bind mb = {
		.wr_id = ID_BIND,
		.bind_info = { .addr = vt_addr(t, 2, 0),
			       .length = MW_LEN,
			       .mw_access_flags = MW_RW },
	};
	struct ibv_wc wc;

	vt_pattern(t, 0, VT_REGION, 3);
	if (!mw_up(ctx, t, &b, IBV_MW_TYPE_1, MR_ALL)) {
		mw_down(ctx, &b);
		return;
	}
	mb.bind_info.mr = b.mr;
	RC_OBSERVE(ctx, ctx->ops->ibv_bind_mw(t->a, b.mw, &mb));
	if (ctx->obs->ret) {
		mw_down(ctx, &b);
		return;
	}
	if (!vt_quiet(ctx, t->scq, &wc))
		rc_obs_violation(ctx->obs,
				 "an unsignaled bind completed (wr_id %llu, "
				 "status %s)",
				 (unsigned long long)wc.wr_id,
				 ibv_wc_status_str(wc.status));
	/* the same bind signaled on that QP: its completion comes */
	if (!do_bind(ctx, t, &b, MW_LEN, MW_RW, false)) {
		mw_down(ctx, &b);
		return;
	}
	/* the write is signaled (vt_wr): its completion is the first */
	want_status(ctx, "write through the MW",
		    through(ctx, t, false, IBV_WR_RDMA_WRITE, b.mw->rkey, 0,
			    MW_LEN),
		    IBV_WC_SUCCESS);
	vt_same(ctx, "remote", vt_region(t, 2), vt_region(t, 0), MW_LEN);
	mw_down(ctx, &b);
}

static void bind_ud(const struct mw_row *row, struct rc_ctx *ctx, struct vt *t)
{
	struct bound b = {};

	if (mw_up(ctx, t, &b, IBV_MW_TYPE_1, MR_ALL))
		bind_fails(ctx, t, &b, t->a, b.mr, MW_LEN);
	mw_down(ctx, &b);
}

/* ---- type 2: ibv_wr_bind_mw, ibv_wr_local_inv, ibv_wr_send_inv ---- */

/* The bind_info of a window over @r's first MW_LEN bytes */
static struct ibv_mw_bind_info bind_info(struct vt *t, struct bound *b, int r,
					 unsigned int access)
{
	return (struct ibv_mw_bind_info){ .mr = b->mr,
					  .addr = vt_addr(t, r, 0),
					  .length = MW_LEN,
					  .mw_access_flags = access };
}

/* @wr (a type 2 operation) in a's region: its builder on a's struct
 * ibv_qp_ex, with the WR's wr_id and send_flags, and its data setter */
static void build_one(struct vt *t, const struct ibv_send_wr *wr)
{
	t->ax->wr_id = wr->wr_id;
	t->ax->wr_flags = wr->send_flags;
	switch (wr->opcode) {
	case IBV_WR_BIND_MW:
		ibv_wr_bind_mw(t->ax, wr->bind_mw.mw, wr->bind_mw.rkey,
			       &wr->bind_mw.bind_info);
		break;
	case IBV_WR_LOCAL_INV:
		ibv_wr_local_inv(t->ax, wr->invalidate_rkey);
		break;
	default:
		ibv_wr_send_inv(t->ax, wr->invalidate_rkey);
		ibv_wr_set_sge(t->ax, wr->sg_list[0].lkey, wr->sg_list[0].addr,
			       wr->sg_list[0].length);
		break;
	}
}

/* One signaled WR posted on @qp: through a's struct ibv_qp_ex when a
 * has one (the builders' rows), else with ibv_post_send; 0 or the errno
 * value (ibv_wr_complete's) */
static int post_one(const struct mw_row *row, struct rc_ctx *ctx, struct vt *t,
		    struct ibv_qp *qp, struct ibv_send_wr *wr)
{
	struct ibv_send_wr *bad;

	wr->send_flags = IBV_SEND_SIGNALED;
	if (!t->ax || qp != t->a)
		return ctx->ops->ibv_post_send(qp, wr, &bad);
	ibv_wr_start(t->ax);
	build_one(t, wr);
	return ibv_wr_complete(t->ax);
}

/* @row's observation of @expr: the post's own value for ibv_post_send,
 * whether the batch failed (1) or not (0) for the builders, which
 * return nothing */
#define OBS(ctx, row, expr) \
	RC_OBSERVE(ctx, (row)->by_post ? (long long)(expr) : !!(expr))

/* Bind @b's type 2 MW on @qp over region @r with @access and the rkey
 * @rkey, observed when @observe: the bind's completion status (-1: none,
 * -2: the post failed) */
static int bind2(const struct mw_row *row, struct rc_ctx *ctx, struct vt *t,
		 struct ibv_qp *qp, struct bound *b, int r, unsigned int access,
		 uint32_t rkey, bool observe)
{
	struct ibv_send_wr wr = { .wr_id = ID_BIND, .opcode = IBV_WR_BIND_MW };
	int ret;

	wr.bind_mw.mw = b->mw;
	wr.bind_mw.rkey = rkey;
	wr.bind_mw.bind_info = bind_info(t, b, r, access);
	if (observe) {
		OBS(ctx, row, ret = post_one(row, ctx, t, qp, &wr));
	} else {
		ret = post_one(row, ctx, t, qp, &wr);
	}
	b->err = ret;
	if (ret)
		return -2;
	b->rkey = rkey;
	return local_wc(ctx, t, qp, "bind", ID_BIND, IBV_WC_BIND_MW);
}

/* bind2 that must succeed: a's window over region 3 with the MW's next
 * rkey (ibv_inc_rkey(3): "the MW's next"), so that the key byte differs
 * from the one the MW has */
static bool a_binds(const struct mw_row *row, struct rc_ctx *ctx, struct vt *t,
		    struct bound *b, unsigned int access, bool observe)
{
	int s = bind2(row, ctx, t, t->a, b, 3, access,
		      ibv_inc_rkey(b->mw->rkey), observe);

	if (s == -2)
		rc_obs_violation(ctx->obs, "the bind was refused: %s",
				 strerror(b->err));
	else if (s >= 0)
		want_status(ctx, "bind", s, IBV_WC_SUCCESS);
	return s == IBV_WC_SUCCESS;
}

/* The invalidation of @rkey on a, observed when @observe: its
 * completion status (-1: none, -2: the post failed) */
static int a_invalidates(const struct mw_row *row, struct rc_ctx *ctx,
			 struct vt *t, uint32_t rkey, bool observe)
{
	struct ibv_send_wr wr = { .wr_id = ID_INV, .opcode = IBV_WR_LOCAL_INV };
	int ret;

	wr.invalidate_rkey = rkey;
	if (observe) {
		OBS(ctx, row, ret = post_one(row, ctx, t, t->a, &wr));
	} else {
		ret = post_one(row, ctx, t, t->a, &wr);
	}
	if (ret)
		return -2;
	return local_wc(ctx, t, t->a, "local_inv", ID_INV, IBV_WC_LOCAL_INV);
}

/* A local WR that must fail: the post (-2) or its completion's status */
static void refused(struct rc_ctx *ctx, const char *what, int s)
{
	if (s == IBV_WC_SUCCESS)
		rc_obs_violation(ctx->obs, "%s completed successfully", what);
}

static bool up2(struct rc_ctx *ctx, struct vt *t, struct bound *b,
		unsigned int access)
{
	memset(vt_region(t, 3), 0, VT_REGION);
	return mw_up(ctx, t, b, IBV_MW_TYPE_2, access);
}

static void w_access(const struct mw_row *row, struct rc_ctx *ctx, struct vt *t)
{
	struct bound b = {};

	if (up2(ctx, t, &b, MR_ALL) && a_binds(row, ctx, t, &b, MW_RW, true))
		b_writes(ctx, t, "write through the new rkey", b.rkey, MW_LEN,
			 true);
	mw_down(ctx, &b);
}

static void w_old_rkey(const struct mw_row *row, struct rc_ctx *ctx,
		       struct vt *t)
{
	struct bound b = {};
	uint32_t old;

	if (up2(ctx, t, &b, MR_ALL)) {
		old = b.mw->rkey;
		if (a_binds(row, ctx, t, &b, MW_RW, true))
			b_writes(ctx, t,
				 "write through the rkey before the bind", old,
				 MW_LEN, false);
	}
	mw_down(ctx, &b);
}

static void w_range(const struct mw_row *row, struct rc_ctx *ctx, struct vt *t)
{
	struct bound b = {};

	if (up2(ctx, t, &b, MR_ALL) && a_binds(row, ctx, t, &b, MW_RW, true)) {
		vt_pattern(t, 1, 16, 3);
		want_status(ctx, "write past the bound range",
			    through(ctx, t, true, IBV_WR_RDMA_WRITE, b.rkey,
				    MW_LEN, 16),
			    IBV_WC_REM_ACCESS_ERR);
		vt_zeroes(ctx, "remote", vt_region(t, 3), MW_LEN + 16);
	}
	mw_down(ctx, &b);
}

static void w_read_only(const struct mw_row *row, struct rc_ctx *ctx,
			struct vt *t)
{
	struct bound b = {};

	if (up2(ctx, t, &b, MR_ALL) &&
	    a_binds(row, ctx, t, &b, IBV_ACCESS_REMOTE_READ, true)) {
		vt_pattern(t, 3, MW_LEN, 9);
		memset(vt_region(t, 1), 0, MW_LEN);
		want_status(ctx, "read through a read-only MW",
			    through(ctx, t, true, IBV_WR_RDMA_READ, b.rkey, 0,
				    MW_LEN),
			    IBV_WC_SUCCESS);
		vt_same(ctx, "read", vt_region(t, 1), vt_region(t, 3), MW_LEN);
		memset(vt_region(t, 3), 0, MW_LEN);
		b_writes(ctx, t, "write through a read-only MW", b.rkey, 16,
			 false);
	}
	mw_down(ctx, &b);
}

static void w_mw_rkey(const struct mw_row *row, struct rc_ctx *ctx,
		      struct vt *t)
{
	struct bound b = {};

	if (up2(ctx, t, &b, MR_ALL) && a_binds(row, ctx, t, &b, MW_RW, true) &&
	    b.mw->rkey != b.rkey)
		rc_obs_violation(ctx->obs,
				 "after the bind to rkey %#x, mw->rkey is %#x",
				 b.rkey, b.mw->rkey);
	mw_down(ctx, &b);
}

static void w_rebind(const struct mw_row *row, struct rc_ctx *ctx, struct vt *t)
{
	struct bound b = {};
	int s;

	if (!up2(ctx, t, &b, MR_ALL) ||
	    !a_binds(row, ctx, t, &b, MW_RW, false)) {
		mw_down(ctx, &b);
		return;
	}
	s = a_invalidates(row, ctx, t, b.rkey, false);
	want_status(ctx, "local_inv", s, IBV_WC_SUCCESS);
	if (s == IBV_WC_SUCCESS && a_binds(row, ctx, t, &b, MW_RW, true))
		b_writes(ctx, t, "write through the second bind's rkey", b.rkey,
			 MW_LEN, true);
	mw_down(ctx, &b);
}

static void w_no_bind_access(const struct mw_row *row, struct rc_ctx *ctx,
			     struct vt *t)
{
	struct bound b = {};

	if (up2(ctx, t, &b, MR_ALL & ~IBV_ACCESS_MW_BIND))
		refused(ctx, "a bind to an MR without IBV_ACCESS_MW_BIND",
			bind2(row, ctx, t, t->a, &b, 3, MW_RW,
			      ibv_inc_rkey(b.mw->rkey), true));
	mw_down(ctx, &b);
}

static void w_type1(const struct mw_row *row, struct rc_ctx *ctx, struct vt *t)
{
	struct bound b = {};

	if (mw_up(ctx, t, &b, IBV_MW_TYPE_1, MR_ALL))
		refused(ctx, "ibv_wr_bind_mw of a type 1 MW",
			bind2(row, ctx, t, t->a, &b, 3, MW_RW,
			      ibv_inc_rkey(b.mw->rkey), true));
	mw_down(ctx, &b);
}

static void l_invalidates(const struct mw_row *row, struct rc_ctx *ctx,
			  struct vt *t)
{
	struct bound b = {};

	if (!up2(ctx, t, &b, MR_ALL) ||
	    !a_binds(row, ctx, t, &b, MW_RW, false)) {
		mw_down(ctx, &b);
		return;
	}
	b_writes(ctx, t, "write before the invalidation", b.rkey, 16, true);
	memset(vt_region(t, 3), 0, 16);
	want_status(ctx, "local_inv", a_invalidates(row, ctx, t, b.rkey, true),
		    IBV_WC_SUCCESS);
	b_writes(ctx, t, "write after the invalidation", b.rkey, 16, false);
	mw_down(ctx, &b);
}

static void l_unknown(const struct mw_row *row, struct rc_ctx *ctx,
		      struct vt *t)
{
	struct bound b = {};

	/* the key byte of the window's bound rkey, with its top bit
	 * flipped: an rkey no MW has */
	if (up2(ctx, t, &b, MR_ALL) && a_binds(row, ctx, t, &b, MW_RW, false))
		refused(ctx, "an invalidation of an rkey no MW has",
			a_invalidates(row, ctx, t, b.rkey ^ 0x80, true));
	mw_down(ctx, &b);
}

static void l_type1(const struct mw_row *row, struct rc_ctx *ctx, struct vt *t)
{
	struct bound b = {};

	if (mw_up(ctx, t, &b, IBV_MW_TYPE_1, MR_ALL) &&
	    do_bind(ctx, t, &b, MW_LEN, MW_RW, false))
		refused(ctx, "an invalidation of a type 1 MW",
			a_invalidates(row, ctx, t, b.rkey, true));
	mw_down(ctx, &b);
}

/*
 * The end of a region whose WR under test had wr_flags 0 (sq_sig_all 0):
 * a signaled RDMA Write of 16 bytes to the second half of region 2 (no
 * window's), then ibv_wr_complete, observed.  false: it failed.
 */
static bool complete_with_signaled_write(const struct mw_row *row,
					 struct rc_ctx *ctx, struct vt *t)
{
	t->ax->wr_id = ID_RDMA;
	t->ax->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_rdma_write(t->ax, t->bmr->rkey, vt_addr(t, 2, VT_REGION / 2));
	ibv_wr_set_sge(t->ax, t->mr->lkey, vt_addr(t, 0, 0), 16);
	OBS(ctx, row, ibv_wr_complete(t->ax));
	if (ctx->obs->ret)
		rc_obs_violation(ctx->obs, "ibv_wr_complete failed");
	return !ctx->obs->ret;
}

/* Only that write completes at a: a's send queue completes in order, so
 * the unsignaled WR before it is done and gave no completion */
static bool only_the_write_completes(struct rc_ctx *ctx, struct vt *t)
{
	want_status(ctx, "the signaled write",
		    local_wc(ctx, t, t->a, "the signaled write", ID_RDMA,
			     IBV_WC_RDMA_WRITE),
		    IBV_WC_SUCCESS);
	return !ctx->obs->violation[0] &&
	       vt_nothing_beyond(ctx, t->scq, "a", 1);
}

/* b binds a window over region 2 (ibv_post_send, a type 2 BIND_MW) and
 * posts a receive of MW_LEN bytes for a's SEND */
static bool b_window(const struct mw_row *row, struct rc_ctx *ctx, struct vt *t,
		     struct bound *b)
{
	int s;

	vt_pattern(t, 0, MW_LEN, 11);
	if (!mw_up(ctx, t, b, IBV_MW_TYPE_2, MR_ALL))
		return false;
	s = bind2(row, ctx, t, t->b, b, 2, MW_RW, ibv_inc_rkey(b->mw->rkey),
		  false);
	if (s != IBV_WC_SUCCESS) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "b's bind of a type 2 MW (set-up): %s",
			     s == -2 ? strerror(b->err) :
			     s < 0   ? "no completion" :
				       ibv_wc_status_str(s));
		return false;
	}
	return vt_recv_ready(ctx, t, ID_RECV, MW_LEN);
}

/* b_window, then a sends MW_LEN distinct bytes with the invalidation of
 * @inv (@known: of b's window) */
static bool send_inv(const struct mw_row *row, struct rc_ctx *ctx, struct vt *t,
		     struct bound *b, uint32_t inv, bool known)
{
	struct ibv_sge sg = vt_sge(t, 0, 0, MW_LEN);
	struct ibv_send_wr wr = vt_wr(t, IBV_WR_SEND_WITH_INV, ID_SEND, &sg, 1);
	int s;

	if (!b_window(row, ctx, t, b))
		return false;
	wr.invalidate_rkey = known ? b->rkey : inv;
	OBS(ctx, row, s = post_one(row, ctx, t, t->a, &wr));
	if (s)
		rc_obs_violation(ctx->obs, "the SEND_WITH_INV was refused: %s",
				 strerror(s));
	return !s;
}

/*
 * sq_sig_all 0: a's SEND_WITH_INV of b's window with wr_flags 0, then a
 * signaled RDMA Write (past the window) in the same region.  The bytes
 * arrive at b, only the write completes at a, and a's write through the
 * window's rkey is then refused.
 */
static void s_unsignaled(const struct mw_row *row, struct rc_ctx *ctx,
			 struct vt *t)
{
	struct ibv_sge sg = vt_sge(t, 0, 0, MW_LEN);
	struct ibv_send_wr wr = vt_wr(t, IBV_WR_SEND_WITH_INV, ID_SEND, &sg, 1);
	struct bound b = {};

	if (!b_window(row, ctx, t, &b))
		goto out;
	wr.invalidate_rkey = b.rkey;
	wr.send_flags = 0;
	ibv_wr_start(t->ax);
	build_one(t, &wr);
	if (!complete_with_signaled_write(row, ctx, t))
		goto out;
	if (!vt_one_wc(ctx, t->rcq, "recv",
		       &(struct vt_wc){ .wr_id = ID_RECV,
					.opcode = IBV_WC_RECV,
					.byte_len = MW_LEN,
					.qp_num = t->b->qp_num,
					.src_qp = -1,
					.wc_flags = -1 }) ||
	    !vt_same(ctx, "recv", vt_region(t, 1), vt_region(t, 0), MW_LEN))
		goto out;
	if (only_the_write_completes(ctx, t))
		writes(ctx, t, false, "a's write through the invalidated rkey",
		       b.rkey, 16, false);
out:
	mw_down(ctx, &b);
}

static void s_invalidates(const struct mw_row *row, struct rc_ctx *ctx,
			  struct vt *t)
{
	struct bound b = {};
	struct ibv_wc wc;

	if (send_inv(row, ctx, t, &b, 0, true) &&
	    vt_poll(ctx, t->rcq, &wc, 1) == 1 &&
	    vt_wc_check(ctx, "recv", &wc,
			&(struct vt_wc){ .wr_id = ID_RECV,
					 .opcode = IBV_WC_RECV,
					 .byte_len = MW_LEN,
					 .qp_num = t->b->qp_num,
					 .src_qp = -1,
					 /* WITH_INV, not WITH_IMM: the fields
					  * row's; the others look at the bytes */
					 .wc_flags = row->fields ?
							     IBV_WC_WITH_INV :
							     -1 })) {
		vt_same(ctx, "recv", vt_region(t, 1), vt_region(t, 0), MW_LEN);
		if (row->fields) {
			if (wc.invalidated_rkey != b.rkey)
				rc_obs_violation(ctx->obs,
						 "recv.invalidated_rkey %#x, "
						 "not %#x",
						 wc.invalidated_rkey, b.rkey);
			local_wc(ctx, t, t->a, "send", ID_SEND, IBV_WC_SEND);
		} else {
			local_wc(ctx, t, t->a, "send", ID_SEND, IBV_WC_SEND);
			writes(ctx, t, false,
			       "a's write through the invalidated rkey", b.rkey,
			       16, false);
		}
	}
	mw_down(ctx, &b);
}

static void s_unknown(const struct mw_row *row, struct rc_ctx *ctx,
		      struct vt *t)
{
	struct bound b = {};
	struct ibv_wc wc;

	if (send_inv(row, ctx, t, &b, 0, false) &&
	    vt_poll(ctx, t->rcq, &wc, 1) == 1 && wc.status == IBV_WC_SUCCESS)
		rc_obs_violation(ctx->obs,
				 "the receive of a SEND_WITH_INV of an rkey b "
				 "has no window for completed successfully");
	mw_down(ctx, &b);
}

/* A memory-window WR of @row->op that the table gives UD no X for,
 * posted on a (UD) with a real type 2 MW in it: refused at once, bad_wr
 * that WR */
static void ud_refused(const struct mw_row *row, struct rc_ctx *ctx,
		       struct vt *t)
{
	struct ibv_sge sg = vt_sge(t, 0, 0, 16);
	struct ibv_send_wr wr = vt_wr(t, row->op, ID_SEND, &sg, 1), *bad = NULL;
	struct bound b = {};

	if (mw_up(ctx, t, &b, IBV_MW_TYPE_2, MR_ALL)) {
		if (row->op == IBV_WR_BIND_MW) {
			wr.num_sge = 0;
			wr.bind_mw.mw = b.mw;
			wr.bind_mw.rkey = ibv_inc_rkey(b.mw->rkey);
			wr.bind_mw.bind_info = bind_info(t, &b, 3, MW_RW);
		} else {
			wr.invalidate_rkey = b.mw->rkey;
		}
		RC_OBSERVE(ctx, ctx->ops->ibv_post_send(t->a, &wr, &bad));
		if (ctx->obs->ret && bad != &wr)
			rc_obs_violation(ctx->obs, "bad_wr %s, not the WR",
					 bad ? "another WR" : "NULL");
	}
	mw_down(ctx, &b);
}

/*
 * a's type 2 MW for the row's builder (row->op), bound first (a_binds)
 * when the row invalidates it; and the WR of that builder, signaled: a
 * bind over region 3 to the MW's next rkey, the invalidation of the rkey
 * it is bound with, or a SEND_WITH_INV of MW_LEN bytes (@sg) that
 * invalidates the MW's rkey.  false: the set-up failed.
 */
static bool a_type2(const struct mw_row *row, struct rc_ctx *ctx, struct vt *t,
		    struct bound *b, struct ibv_sge *sg, struct ibv_send_wr *wr)
{
	if (!up2(ctx, t, b, MR_ALL) || (row->op == IBV_WR_LOCAL_INV &&
					!a_binds(row, ctx, t, b, MW_RW, false)))
		return false;
	*sg = vt_sge(t, 0, 0, MW_LEN);
	*wr = vt_wr(t, row->op, 0, sg, 1);
	switch (row->op) {
	case IBV_WR_BIND_MW:
		wr->bind_mw.mw = b->mw;
		wr->bind_mw.rkey = ibv_inc_rkey(b->mw->rkey);
		wr->bind_mw.bind_info = bind_info(t, b, 3, MW_RW);
		break;
	case IBV_WR_LOCAL_INV:
		wr->invalidate_rkey = b->rkey;
		break;
	default:
		wr->invalidate_rkey = b->mw->rkey;
		break;
	}
	return true;
}

/*
 * sq_sig_all 0: the row's builder with wr_flags 0, then a signaled RDMA
 * Write to b in the same region.  Only the write completes at a (a's
 * send queue completes in order: the WR before it is done), and what the
 * unsignaled WR did shows at b: a write through the bound window lands,
 * or one through the invalidated window is refused.
 */
static void unsignaled(const struct mw_row *row, struct rc_ctx *ctx,
		       struct vt *t)
{
	bool bind = row->op == IBV_WR_BIND_MW;
	struct bound b = {};
	struct ibv_sge sg;
	struct ibv_send_wr wr;

	if (!a_type2(row, ctx, t, &b, &sg, &wr))
		goto out;
	if (bind)
		b.rkey = wr.bind_mw.rkey;
	wr.wr_id = bind ? ID_BIND : ID_INV;
	wr.send_flags = 0;
	ibv_wr_start(t->ax);
	build_one(t, &wr);
	if (complete_with_signaled_write(row, ctx, t) &&
	    only_the_write_completes(ctx, t))
		b_writes(ctx, t,
			 bind ? "write through the new rkey" :
				"write after the invalidation",
			 b.rkey, 16, bind);
out:
	mw_down(ctx, &b);
}

/*
 * max_send_wr RDMA Writes, then the row's builder (row->op), in one
 * region: the queue does not hold the last, a failure ibv_wr_complete
 * reports, and none is posted: nothing completes on either side.  The
 * last WR is valid alone (a_type2).  (One invalidation only: a second
 * LOCAL_INV of the same window, or one of a window never bound, crashes
 * rxe on Linux 6.1 and 6.12 (its rxe_check_invalidate_mw lets a window
 * in the FREE state through, and rxe_do_invalidate_mw then puts its NULL
 * QP), and rdma-core's provider posts the whole batch on 6.1; README.md.)
 */
static void beyond_max_wr(const struct mw_row *row, struct rc_ctx *ctx,
			  struct vt *t)
{
	struct bound b = {};
	struct ibv_sge sg;
	struct ibv_send_wr wr;
	uint32_t i, n = t->cap.max_send_wr;

	if (!a_type2(row, ctx, t, &b, &sg, &wr))
		goto out;
	ibv_wr_start(t->ax);
	t->ax->wr_flags = IBV_SEND_SIGNALED;
	for (i = 0; i < n; i++) {
		t->ax->wr_id = i + 1;
		ibv_wr_rdma_write(t->ax, t->bmr->rkey, vt_addr(t, 2, 0));
		ibv_wr_set_sge(t->ax, t->mr->lkey, vt_addr(t, 0, 0), MW_LEN);
	}
	wr.wr_id = n + 1;
	build_one(t, &wr);
	OBS(ctx, row, ibv_wr_complete(t->ax));
	if (!ctx->obs->ret)
		rc_obs_violation(ctx->obs,
				 "ibv_wr_complete returned 0 for %u WRs, "
				 "max_send_wr %u",
				 n + 1, t->cap.max_send_wr);
	vt_nothing_beyond(ctx, t->scq, "a", 0);
	vt_nothing_beyond(ctx, t->rcq, "b", 0);
out:
	mw_down(ctx, &b);
}

/* ---- the rows ---- */

#define I_ RC_BASIS_INTERPRETATION
#define D_ RC_BASIS_DOCUMENTED

#define MROW(needs_, i, d, b, n, k, ...)                \
	{                                               \
		.c = { .id = i,                         \
		       .doc = d,                        \
		       .basis = b,                      \
		       .note = n,                       \
		       .needs = NEEDS_DP | needs_,      \
		       .contract = { RC_RETURNS(0) } }, \
		.check = k, __VA_ARGS__                 \
	}
/* a failing path the row judges itself: where it fails (the post or
 * the completion) is the provider's */
#define FROW(i, d, n, k, ...)                           \
	{                                               \
		.c = { .id = i,                         \
		       .doc = d,                        \
		       .basis = I_,                     \
		       .note = n,                       \
		       .needs = NEEDS_DP,               \
		       .contract = { RC_ANY_RETURN } }, \
		.check = k, __VA_ARGS__                 \
	}

static const struct mw_row bind_rows[] = {
	MROW(0, "verbs/bind_mw/bind-gives-access", B_POST " ... " B_ACCESS, D_,
	     "a type 1 MW bound to 256 bytes of an MR with "
	     "IBV_ACCESS_MW_BIND, remote write and read: the bind completes "
	     "as IBV_WC_BIND_MW with its wr_id, and an RDMA_WRITE through the "
	     "MW's rkey lands",
	     bind_access),
	MROW(0, "verbs/bind_mw/rkey-returned", B_RKEY, D_,
	     "after the bind, mw->rkey is the R_key that works: an "
	     "RDMA_READ through it brings the bound bytes",
	     bind_rkey),
	MROW(0, "verbs/bind_mw/bound-range-only", B_POST, I_,
	     "an RDMA_WRITE through the MW's rkey just past the 256 bound "
	     "bytes: IBV_WC_REM_ACCESS_ERR (IBA 10.6.7.2), nothing lands",
	     bind_range),
	MROW(0, "verbs/bind_mw/unbind", B_POST, I_,
	     "a bind of length 0 to the same MR (IBA 10.6.7.2.2: a window of "
	     "no length is unbound): the rkey of the first bind no longer "
	     "works, IBV_WC_REM_ACCESS_ERR",
	     bind_unbind),
	MROW(0, "verbs/bind_mw/unbind-no-mr", B_POST, I_,
	     "the unbind with no MR and address and length 0 (what "
	     "<infiniband/verbs.h>'s ibv_bind_mw lets through): as unbind",
	     bind_unbind, .no_mr = true),
	MROW(0, "verbs/bind_mw/read-only", B_ACCESS, D_,
	     "mw_access_flags IBV_ACCESS_REMOTE_READ only: a read through it "
	     "works, a write is refused with IBV_WC_REM_ACCESS_ERR",
	     bind_read_only),
	{ .c = { .id = "verbs/bind_mw/type-2-mw",
		 .doc = B_NAME " ... " B_RET,
		 .basis = I_,
		 .note = "ibv_bind_mw binds type 1 MWs: a type 2 MW is not "
			 "one, an errno value (type 2 MWs are bound by a "
			 "BIND_MW WR, ibv_post_send)",
		 .needs = NEEDS_DP,
		 .contract = { RC_FAILS() } },
	  .check = bind_type2 },
	{ .c = { .id = "verbs/bind_mw/no-mr-with-length",
		 .doc = B_RET,
		 .basis = I_,
		 .note = "bind_info with no MR but a length of 256: nothing to "
			 "bind to, an errno value",
		 .needs = NEEDS_DP,
		 .contract = { RC_FAILS() } },
	  .check = bind_no_mr },
	{ .c = { .id = "verbs/bind_mw/mr-of-another-pd",
		 .doc = B_POST " ... " B_RET,
		 .basis = I_,
		 .note = "bind_info.mr registered on a second PD of the same "
			 "context: not the MW's PD, so not its to bind (IBA "
			 "C10-72), an errno value and mw->rkey unchanged",
		 .needs = NEEDS_DP,
		 .contract = { RC_FAILS() } },
	  .check = bind_other_pd },
	{ .c = { .id = "verbs/bind_mw/unsignaled",
		 .doc = B_POST,
		 .basis = I_,
		 .note = "send_flags 0 on a QP with sq_sig_all 0: the bind "
			 "gives no completion (ibv_post_send(3)'s "
			 "IBV_SEND_SIGNALED); bound again with "
			 "IBV_SEND_SIGNALED it gives one, and an RDMA Write "
			 "through the new rkey lands",
		 .needs = NEEDS_DP,
		 .contract = { RC_RETURNS(0) } },
	  .check = bind_unsignaled,
	  .sig_some = true },
	{ .c = { .id = "verbs/bind_mw/ud-qp",
		 .doc = B_QPT " ... " B_RET,
		 .basis = D_,
		 .note = "posted to a UD QP: an errno value",
		 .needs = NEEDS_UD,
		 .contract = { RC_FAILS() } },
	  .check = bind_ud,
	  .type = IBV_QPT_UD },
};

static const struct mw_row wr_bind_rows[] = {
	MROW(0, "verbs/wr_bind_mw/gives-access", W_BIND, D_,
	     "a type 2 MW bound by a to 256 bytes of its region with remote "
	     "write and read and the MW's next rkey: the bind completes as "
	     "IBV_WC_BIND_MW with its wr_id, and 256 distinct bytes that b "
	     "writes through the new rkey land",
	     w_access),
	MROW(0, "verbs/wr_bind_mw/old-rkey-refused", W_BIND, D_,
	     "the MW's rkey before the bind is not its new one: b's write "
	     "through it fails with IBV_WC_REM_ACCESS_ERR and nothing lands",
	     w_old_rkey),
	MROW(0, "verbs/wr_bind_mw/bound-range-only", W_BIND, I_,
	     "b's write of 16 bytes just past the 256 bound: "
	     "IBV_WC_REM_ACCESS_ERR (IBA 10.6.7.2), nothing lands",
	     w_range),
	MROW(0, "verbs/wr_bind_mw/read-only", W_BIND, D_,
	     "mw_access_flags IBV_ACCESS_REMOTE_READ only: b reads the 256 "
	     "distinct bytes through it, and its write is refused with "
	     "IBV_WC_REM_ACCESS_ERR",
	     w_read_only),
	MROW(0, "verbs/wr_bind_mw/mw-rkey-is-new", M_RKEY " " M_CHANGED, D_,
	     "after the bind completes, the MW's rkey field is the new rkey "
	     "(ibv_alloc_mw(3): the field remote processes use, which \"will "
	     "be changed during bind operations\")",
	     w_mw_rkey),
	MROW(0, "verbs/wr_bind_mw/rebind-after-invalidate", M_UNTIL, I_,
	     "bound, invalidated (ibv_wr_local_inv), then bound again through "
	     "the same struct ibv_mw to the MW's next rkey: the second bind "
	     "completes and b's write through its rkey lands (IBA 10.6.7.2: "
	     "an invalidated type 2 MW is free to bind again)",
	     w_rebind),
	FROW("verbs/wr_bind_mw/mr-without-bind-access",
	     W_BIND " ... " W_FAILURE,
	     "an MR registered without IBV_ACCESS_MW_BIND cannot have a "
	     "window (IBA C10-73): ibv_wr_complete fails, or the bind "
	     "completes in error (IBV_WC_MW_BIND_ERR), never successfully",
	     w_no_bind_access),
	FROW("verbs/wr_bind_mw/type-1-mw", W_BIND " ... " W_FAILURE,
	     "ibv_wr_bind_mw binds \"a MW type 2\": a type 1 MW is an invalid "
	     "argument, so ibv_wr_complete fails or the bind completes in "
	     "error, never successfully",
	     w_type1),
	FROW("verbs/wr_bind_mw/beyond-max-send-wr", W_FAILURE,
	     "max_send_wr RDMA Writes, then a bind of a's type 2 MW, in one "
	     "region: the queue does not hold the bind, a failure "
	     "ibv_wr_complete reports, and none completes",
	     beyond_max_wr, .op = IBV_WR_BIND_MW),
	MROW(0, "verbs/wr_bind_mw/unsignaled", W_SIGNALED, D_,
	     "sq_sig_all 0: a bind with wr_flags 0, then a signaled RDMA "
	     "Write in the same region: only the write completes at a, and "
	     "b's write through the new rkey lands",
	     unsignaled, .op = IBV_WR_BIND_MW, .sig_some = true),
};

static const struct mw_row local_inv_rows[] = {
	MROW(0, "verbs/wr_local_inv/invalidates", W_LINV, D_,
	     "a's bound window takes b's write, then ibv_wr_local_inv of its "
	     "rkey completes as IBV_WC_LOCAL_INV with its wr_id, and b's next "
	     "write through the rkey fails with IBV_WC_REM_ACCESS_ERR, "
	     "nothing landing",
	     l_invalidates),
	FROW("verbs/wr_local_inv/rkey-of-no-mw", W_LINV " ... " W_FAILURE,
	     "the bound rkey with the top bit of its key byte flipped, an "
	     "rkey no MW has: ibv_wr_complete fails or the invalidation "
	     "completes in error, never successfully",
	     l_unknown),
	FROW("verbs/wr_local_inv/type-1-mw", W_LINV " ... " W_FAILURE,
	     "the rkey of a bound type 1 MW (ibv_bind_mw): not a MW type 2, "
	     "and a type 1 MW is invalidated by a bind of length 0 "
	     "(ibv_alloc_mw(3), IBA o10-37.2.26): never a successful "
	     "invalidation",
	     l_type1),
	FROW("verbs/wr_local_inv/beyond-max-send-wr", W_FAILURE,
	     "max_send_wr RDMA Writes, then the invalidation of a's bound "
	     "window, in one region: the queue does not hold the "
	     "invalidation, a failure ibv_wr_complete reports, and none "
	     "completes",
	     beyond_max_wr, .op = IBV_WR_LOCAL_INV),
	MROW(0, "verbs/wr_local_inv/unsignaled", W_SIGNALED, D_,
	     "sq_sig_all 0: an invalidation of a's bound window with "
	     "wr_flags 0, then a signaled RDMA Write in the same region: only "
	     "the write completes at a, and b's write through the window's "
	     "rkey is refused, nothing landing",
	     unsignaled, .op = IBV_WR_LOCAL_INV, .sig_some = true),
};

static const struct mw_row send_inv_rows[] = {
	MROW(0, "verbs/wr_send_inv/invalidates-at-receiver", W_SINV, D_,
	     "b binds a type 2 MW (ibv_post_send); a's SEND_WITH_INV of its "
	     "rkey brings 256 distinct bytes to b's receive, and a's write "
	     "through that rkey then fails with IBV_WC_REM_ACCESS_ERR, "
	     "nothing landing",
	     s_invalidates),
	MROW(0, "verbs/wr_send_inv/receive-says-invalidated", C_INV, D_,
	     "b's receive completion: IBV_WC_RECV, byte_len 256, "
	     "IBV_WC_WITH_INV without IBV_WC_WITH_IMM, invalidated_rkey the "
	     "window's rkey; a's: IBV_WC_SEND",
	     s_invalidates, .fields = true),
	FROW("verbs/wr_send_inv/rkey-of-no-mw", W_SINV,
	     "the invalidation of an rkey b has no window for (0): b's "
	     "receive never completes successfully (the responder "
	     "cannot invalidate it: an invalid request)",
	     s_unknown),
	MROW(0, "verbs/wr_send_inv/unsignaled", W_SIGNALED, D_,
	     "sq_sig_all 0: a SEND_WITH_INV of b's window with wr_flags 0, "
	     "then a signaled RDMA Write in the same region: the bytes "
	     "arrive at b, only the write completes at a, and a's write "
	     "through the window's rkey is then refused",
	     s_unsignaled, .sig_some = true),
	FROW("verbs/wr_send_inv/beyond-max-send-wr", W_FAILURE,
	     "max_send_wr RDMA Writes, then a SEND_WITH_INV, in one region: "
	     "the queue does not hold the last, a failure ibv_wr_complete "
	     "reports, and none arrives or completes",
	     beyond_max_wr, .op = IBV_WR_SEND_WITH_INV),
};

static const struct mw_row post_rows[] = {
	MROW(0, "verbs/post_send/rc-bind-mw-type-2", P_MW " ... " P_RKEY, D_,
	     "an IBV_WR_BIND_MW WR of a type 2 MW posted on a: it completes "
	     "as IBV_WC_BIND_MW, and b's write through the desired rkey "
	     "lands",
	     w_access, .by_post = true),
	MROW(0, "verbs/post_send/rc-local-inv", M_UNTIL, D_,
	     "an IBV_WR_LOCAL_INV WR of a's bound window's rkey: it "
	     "completes as IBV_WC_LOCAL_INV, and b's write through the rkey "
	     "then fails with IBV_WC_REM_ACCESS_ERR",
	     l_invalidates, .by_post = true),
	MROW(0, "verbs/post_send/rc-send-with-inv", P_INV, D_,
	     "an IBV_WR_SEND_WITH_INV WR of the rkey of b's window: the bytes "
	     "arrive, and a's write through that rkey then fails with "
	     "IBV_WC_REM_ACCESS_ERR",
	     s_invalidates, .by_post = true),
	MROW(RC_NEED_UC, "verbs/post_send/uc-bind-mw-type-2",
	     P_TABLE " ... " P_MW, D_,
	     "the table gives IBV_QPT_UC IBV_WR_BIND_MW: a type 2 MW bound on "
	     "a UC QP completes as IBV_WC_BIND_MW, and b's write through the "
	     "desired rkey lands",
	     w_access, .type = IBV_QPT_UC, .by_post = true),
	MROW(RC_NEED_UC, "verbs/post_send/uc-local-inv", P_TABLE, D_,
	     "the table gives IBV_QPT_UC IBV_WR_LOCAL_INV: after it completes "
	     "as IBV_WC_LOCAL_INV, b's write through the rkey lands nowhere "
	     "(UC's requester sees no refusal)",
	     l_invalidates, .type = IBV_QPT_UC, .by_post = true),
	MROW(RC_NEED_UC, "verbs/post_send/uc-send-with-inv",
	     P_TABLE " ... " P_INV, D_,
	     "the table gives IBV_QPT_UC IBV_WR_SEND_WITH_INV: the bytes "
	     "arrive at b, and a's write through the rkey of b's window then "
	     "lands nowhere",
	     s_invalidates, .type = IBV_QPT_UC, .by_post = true),
#define UD_REFUSED(i, o, n)                                                 \
	{                                                                   \
		.c = { .id = i,                                             \
		       .doc = P_TABLE " ... " P_STOP,                       \
		       .basis = I_,                                         \
		       .note = n " (the page does not say the post fails "  \
				 "rather than the WR completing in error)", \
		       .needs = NEEDS_UD,                                   \
		       .contract = { RC_FAILS() } },                        \
		.check = ud_refused, .type = IBV_QPT_UD, .op = o            \
	}
	UD_REFUSED("verbs/post_send/ud-bind-mw-refused", IBV_WR_BIND_MW,
		   "the table gives IBV_QPT_UD no IBV_WR_BIND_MW: a WR binding "
		   "a real type 2 MW fails at once, an errno value and bad_wr "
		   "that WR"),
	UD_REFUSED("verbs/post_send/ud-local-inv-refused", IBV_WR_LOCAL_INV,
		   "the table gives IBV_QPT_UD no IBV_WR_LOCAL_INV: the "
		   "invalidation of a real MW's rkey fails at once, an errno "
		   "value and bad_wr that WR"),
	UD_REFUSED("verbs/post_send/ud-send-with-inv-refused",
		   IBV_WR_SEND_WITH_INV,
		   "the table gives IBV_QPT_UD no IBV_WR_SEND_WITH_INV: a send "
		   "through the AH to b fails at once, an errno value and "
		   "bad_wr that WR"),
#undef UD_REFUSED
};

#undef I_
#undef D_

static void run_with(const struct mw_row *row, struct rc_ctx *ctx,
		     uint64_t send_ops)
{
	struct vt_opts o = { .type = row->type,
			     .sig_some = row->sig_some,
			     .send_ops = send_ops,
			     .mw_type = send_ops ? IBV_MW_TYPE_2 : 0 };
	struct vt t;

	if (vt_up(ctx, &t, &o))
		row->check(row, ctx, &t);
	vt_down(ctx, &t);
}

static void run(const void *r, struct rc_ctx *ctx)
{
	run_with(r, ctx, 0);
}

/* a made with ibv_create_qp_ex and the send ops of these rows */
static void run_ex(const void *r, struct rc_ctx *ctx)
{
	run_with(r, ctx, OPS_MW);
}

#define GROUP(name, fn, c, rs, rn) RC_TABLE_GROUP(name, fn, c, "verbs", rs, rn)

GROUP(bind_group, "ibv_bind_mw", RC_CONV_ERRNO_RET, bind_rows, run);
GROUP(wr_bind_group, "ibv_wr_bind_mw", RC_CONV_VALUE, wr_bind_rows, run_ex);
GROUP(local_inv_group, "ibv_wr_local_inv", RC_CONV_VALUE, local_inv_rows,
      run_ex);
GROUP(send_inv_group, "ibv_wr_send_inv", RC_CONV_VALUE, send_inv_rows, run_ex);
GROUP(post_group, "ibv_post_send", RC_CONV_ERRNO_RET, post_rows, run);
