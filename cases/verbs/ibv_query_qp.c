// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_query_qp(3): "gets the attributes specified in attr_mask for the QP
 * qp and returns them through the pointers attr and init_attr."  NOTES:
 * "Attribute values are valid if they have been set using
 * ibv_modify_qp()."  "returns 0 on success, or the value of errno on
 * failure".
 *
 * - after create, RC, UC, UD: 0, qp_state RESET, and init_attr's CQs,
 *   srq (none), qp_type and caps (at least those asked) as created; attr
 *   compared across the two implementations (documented)
 * - in RTS, RC, UC, UD: every attribute the walk RESET, INIT, RTR, RTS
 *   set reads back as set, state across calls (documented)
 * - attr_mask IBV_QP_STATE alone on a QP in RTR: qp_state RTR
 *   (documented: the mask is the minimum to retrieve)
 * - a QP the row makes with a context pointer, sq_sig_all 1 and inline
 *   data: init_attr gives back the pointer, sq_sig_all 1 and at least
 *   the inline data asked, attr.cap the same (documented)
 * - INIT to RTR with ah_attr.sl and static_rate not 0: both read back
 *   as set (documented)
 * - INIT to RTR to the port's link-local GID with hop_limit 0x2d: it
 *   reads back (documented)
 * - RTR to RTS with IBV_QP_PATH_MIG_STATE REARM: REARM reads back
 *   (documented)
 * - a QP on an SRQ: init_attr.srq is it (documented)
 * - every query's attr and init_attr poisoned (VQ_POISON) and followed by
 *   a guard: what was set reads back as set, and nothing is written past
 *   either struct
 * - the command file gone: EBADF, write(2)'s (interpretation)
 * The state rows need an InfiniBand-transport device (iWARP QPs are
 * connected through rdma_cm); UD rows datagrams.
 */
#include <errno.h>
#include <string.h>

#include "verbs_ctl.h"
#include "verbs_qp.h"
#include "../../harness/device.h"

#define DOC_QUERY                                                            \
	"ibv_query_qp() gets the attributes specified in attr_mask for the " \
	"QP qp and returns them through the pointers attr and init_attr."
#define DOC_VALID                                                 \
	"Attribute values are valid if they have been set using " \
	"ibv_modify_qp()."
#define DOC_HINT                                                       \
	"The argument attr_mask is a hint that specifies the minimum " \
	"list of attributes to retrieve."
#define DOC_RET                                        \
	"ibv_query_qp() returns 0 on success, or the " \
	"value of errno on failure (which indicates the failure reason)."

#define NEEDS_STATES (VC_NEEDS | RC_NEED_CA)

static vc_check after_create, after_rts, hint_state, as_created, severed,
	sl_and_rate, mig_rearm, on_srq, hop_limit;

/* what sl_and_rate sets: neither 0, the value vq_fill gives them */
#define QC_SL 0xb
#define QC_RATE IBV_RATE_40_GBPS

/* what as_created asks for: a pointer of distinct bytes, inline data */
#define QC_CONTEXT ((void *)0x5a4b3c2d1e0fUL)
#define QC_INLINE 44

#define CREATED(t, T, nd)                                                   \
	{                                                                   \
		.c = { .id = "verbs/query_qp/" #t "-after-create",          \
		       .doc = DOC_QUERY,                                    \
		       .basis = RC_BASIS_DOCUMENTED,                        \
		       .note = "a new " #T                                  \
			       " QP: 0, qp_state RESET, init_attr's "       \
			       "CQs, srq NULL, qp_type and caps (at least " \
			       "8/8/1/1) as created; qp_state and cap the " \
			       "same on both implementations",              \
		       .needs = nd,                                         \
		       .contract = { RC_RETURNS(0) } },                     \
		.check = after_create, .rung = VL_QP, .arg = IBV_QPT_##T    \
	}
#define IN_RTS(t, T, nd)                                                       \
	{                                                                      \
		.c = { .id = "verbs/query_qp/" #t "-in-rts",                   \
		       .doc = DOC_VALID,                                       \
		       .basis = RC_BASIS_DOCUMENTED,                           \
		       .note = "a " #T                                         \
			       " QP walked RESET, INIT, RTR, RTS with "        \
			       "the tables' attributes (values of distinct "   \
			       "bytes): each reads back as set, qp_state RTS", \
		       .needs = nd,                                            \
		       .contract = { RC_RETURNS(0) } },                        \
		.check = after_rts, .rung = VL_QP, .arg = IBV_QPT_##T          \
	}

static const struct vc_row rows[] = {
	CREATED(rc, RC, VC_NEEDS),
	CREATED(uc, UC, VC_NEEDS | RC_NEED_CA),
	CREATED(ud, UD, VC_NEEDS | RC_NEED_UD),
	IN_RTS(rc, RC, NEEDS_STATES),
	IN_RTS(uc, UC, NEEDS_STATES),
	IN_RTS(ud, UD, NEEDS_STATES | RC_NEED_UD),
	{ .c = { .id = "verbs/query_qp/hint-state-only",
		 .doc = DOC_HINT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "attr_mask IBV_QP_STATE on an RC QP in RTR: 0, "
			 "qp_state RTR",
		 .needs = NEEDS_STATES,
		 .contract = { RC_RETURNS(0) } },
	  .check = hint_state,
	  .rung = VL_QP,
	  .arg = IBV_QPT_RC },
	{ .c = { .id = "verbs/query_qp/init-attr-as-created",
		 .doc = DOC_QUERY,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "an RC QP made with qp_context 0x5a4b3c2d1e0f, "
			 "sq_sig_all 1 and max_inline_data 44: init_attr gives "
			 "back that qp_context, sq_sig_all 1, srq NULL and "
			 "max_inline_data at least 44, as attr.cap does",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = as_created,
	  .rung = VL_CQ,
	  .arg = IBV_QPT_RC },
	{ .c = { .id = "verbs/query_qp/av-sl-and-static-rate",
		 .doc = DOC_VALID,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "an RC QP moved INIT to RTR with the table's "
			 "attributes and ah_attr.sl 0xb, ah_attr.static_rate "
			 "IBV_RATE_40_GBPS: both read back as set",
		 .needs = NEEDS_STATES,
		 .contract = { RC_RETURNS(0) } },
	  .check = sl_and_rate,
	  .rung = VL_QP,
	  .arg = IBV_QPT_RC },
	{ .c = { .id = "verbs/query_qp/av-hop-limit-link-local",
		 .doc = DOC_VALID,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "an RC QP moved INIT to RTR with the table's "
			 "attributes, the port's link-local GID as dgid (no "
			 "route to look up) and hop_limit 0x2d: 0x2d reads "
			 "back",
		 .needs = NEEDS_STATES,
		 .contract = { RC_RETURNS(0) } },
	  .check = hop_limit,
	  .rung = VL_QP,
	  .arg = IBV_QPT_RC },
	{ .c = { .id = "verbs/query_qp/rc-path-mig-state-rearm",
		 .doc = DOC_VALID,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "an RC QP moved RTR to RTS with the table's "
			 "attributes and IBV_QP_PATH_MIG_STATE IBV_MIG_REARM "
			 "(which the kernel's table allows there): REARM "
			 "reads back, not the MIGRATED a QP starts with",
		 .needs = NEEDS_STATES,
		 .contract = { RC_RETURNS(0) } },
	  .check = mig_rearm,
	  .rung = VL_QP,
	  .arg = IBV_QPT_RC },
	{ .c = { .id = "verbs/query_qp/init-attr-srq",
		 .doc = DOC_QUERY,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "an RC QP made on an SRQ: init_attr.srq is that SRQ",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = on_srq,
	  .rung = VL_SRQ,
	  .arg = IBV_QPT_RC },
	{ .c = { .id = "verbs/query_qp/command-file-gone",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the context's command file replaced by an O_PATH "
			 "descriptor: the value of errno write(2) gives there, "
			 "EBADF (not open for writing)",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS(EBADF) } },
	  .check = severed,
	  .rung = VL_QP },
};

/*
 * The out-structs as a caller's memory: poisoned (VQ_POISON), so a field
 * the call does not write reads as no value it could have; each followed
 * by a guard the call must not write, struct ibv_qp_attr and struct
 * ibv_qp_init_attr being exactly what the page gives it.
 */
struct qout {
	struct ibv_qp_attr a;
	uint8_t a_guard[8];
	struct ibv_qp_init_attr i;
	uint8_t i_guard[8];
};

/* ibv_query_qp of @qp into @o, observed: its return value, or -1 when it
 * wrote past either struct */
static int query(struct rc_ctx *ctx, struct ibv_qp *qp, int mask,
		 struct qout *o)
{
	static const uint8_t guard[8] = { VQ_POISON, VQ_POISON, VQ_POISON,
					  VQ_POISON, VQ_POISON, VQ_POISON,
					  VQ_POISON, VQ_POISON };
	int ret;

	memset(o, VQ_POISON, sizeof(*o));
	RC_OBSERVE(ctx, ret = ctx->ops->ibv_query_qp(qp, &o->a, mask, &o->i));
	if (memcmp(o->a_guard, guard, sizeof(guard)) ||
	    memcmp(o->i_guard, guard, sizeof(guard))) {
		rc_obs_violation(ctx->obs, "wrote past struct ibv_qp_%s",
				 memcmp(o->a_guard, guard, sizeof(guard)) ?
					 "attr" :
					 "init_attr");
		return -1;
	}
	return ret;
}

/* the ladder's QP is made with vl.qp_type: the rows' */
static bool typed(const struct vc_row *row, struct rc_ctx *ctx, struct vl *l)
{
	if (l->qp->qp_type == (enum ibv_qp_type)row->arg)
		return true;
	rc_obs_state(ctx->obs, RC_STATE_BROKEN,
		     "the ladder's QP is of type "
		     "%d, not %ld",
		     l->qp->qp_type, row->arg);
	return false;
}

static void after_create(const struct vc_row *row, struct rc_ctx *ctx,
			 struct vl *l)
{
	struct qout o;
	struct ibv_qp_init_attr qi;
	struct ibv_qp_attr qa, shown = { .qp_state = 0 };

	if (!typed(row, ctx, l) ||
	    query(ctx, l->qp, IBV_QP_STATE | IBV_QP_CAP, &o))
		return;
	qa = o.a;
	qi = o.i;
	/* what the two implementations must agree on: the attributes a
	 * new QP has ("valid if they have been set"; the others, and the
	 * padding, may keep what the caller's buffer held) */
	shown.qp_state = qa.qp_state;
	shown.cap = qa.cap;
	rc_obs_out(ctx->obs, &shown, sizeof(shown));
	if (qa.qp_state != IBV_QPS_RESET)
		rc_obs_violation(ctx->obs, "qp_state %d, not RESET",
				 qa.qp_state);
	else if (qi.send_cq != l->cq || qi.recv_cq != l->cq || qi.srq)
		rc_obs_violation(ctx->obs, "init_attr.send_cq/recv_cq/srq: "
					   "not as created");
	else if (qi.qp_type != l->qp->qp_type)
		rc_obs_violation(ctx->obs, "init_attr.qp_type %d, created %d",
				 qi.qp_type, l->qp->qp_type);
	else if (qi.cap.max_send_wr < VL_WR || qi.cap.max_recv_wr < VL_WR ||
		 qi.cap.max_send_sge < VL_SGE || qi.cap.max_recv_sge < VL_SGE)
		rc_obs_violation(ctx->obs,
				 "init_attr.cap %u/%u/%u/%u, asked "
				 "%d/%d/%d/%d",
				 qi.cap.max_send_wr, qi.cap.max_recv_wr,
				 qi.cap.max_send_sge, qi.cap.max_recv_sge,
				 VL_WR, VL_WR, VL_SGE, VL_SGE);
}

static void after_rts(const struct vc_row *row, struct rc_ctx *ctx,
		      struct vl *l)
{
	enum ibv_qp_type t = row->arg;
	int mask = IBV_QP_STATE | vq_entry(t, IBV_QPS_INIT) |
		   vq_entry(t, IBV_QPS_RTR) | vq_entry(t, IBV_QPS_RTS);
	struct ibv_qp_attr want;
	struct qout o;

	if (!typed(row, ctx, l) || !vq_walk(ctx, l, IBV_QPS_RTS) ||
	    query(ctx, l->qp, mask, &o))
		return;
	vq_fill(ctx, &want, mask, IBV_QPS_RTS);
	vq_check_attrs(ctx, &want, &o.a, mask);
}

static void hint_state(const struct vc_row *row, struct rc_ctx *ctx,
		       struct vl *l)
{
	struct qout o;

	if (vq_walk(ctx, l, IBV_QPS_RTR) &&
	    !query(ctx, l->qp, IBV_QP_STATE, &o) && o.a.qp_state != IBV_QPS_RTR)
		rc_obs_violation(ctx->obs, "qp_state %d, not RTR",
				 o.a.qp_state);
}

static void as_created(const struct vc_row *row, struct rc_ctx *ctx,
		       struct vl *l)
{
	struct ibv_qp_init_attr ia = { .qp_context = QC_CONTEXT,
				       .send_cq = l->cq,
				       .recv_cq = l->cq,
				       .cap = { .max_send_wr = VL_WR,
						.max_recv_wr = VL_WR,
						.max_send_sge = VL_SGE,
						.max_recv_sge = VL_SGE,
						.max_inline_data = QC_INLINE },
				       .qp_type = IBV_QPT_RC,
				       .sq_sig_all = 1 };
	struct ibv_qp_init_attr *qi;
	struct ibv_qp_attr *qa;
	struct ibv_qp *qp;
	struct qout o;

	qp = ctx->ops->ibv_create_qp(l->pd, &ia);
	if (!qp) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_create_qp with inline data %d (set-up): %m",
			     QC_INLINE);
		return;
	}
	if (query(ctx, qp, IBV_QP_CAP, &o))
		goto out;
	qa = &o.a;
	qi = &o.i;
	if (qi->qp_context != QC_CONTEXT)
		rc_obs_violation(ctx->obs, "init_attr.qp_context %p, not %p",
				 qi->qp_context, QC_CONTEXT);
	else if (qi->sq_sig_all != 1 || qi->srq)
		rc_obs_violation(ctx->obs, "init_attr.sq_sig_all %d, srq %p",
				 qi->sq_sig_all, (void *)qi->srq);
	else if (qi->cap.max_inline_data < QC_INLINE ||
		 qa->cap.max_inline_data < QC_INLINE)
		rc_obs_violation(ctx->obs,
				 "max_inline_data %u (init_attr), %u (attr), "
				 "asked %d",
				 qi->cap.max_inline_data,
				 qa->cap.max_inline_data, QC_INLINE);
out:
	if (ctx->ops->ibv_destroy_qp(qp))
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_destroy_qp (clean-up): %m");
}

static void sl_and_rate(const struct vc_row *row, struct rc_ctx *ctx,
			struct vl *l)
{
	int mask = IBV_QP_STATE | vq_entry(IBV_QPT_RC, IBV_QPS_RTR);
	struct ibv_qp_attr a;
	struct qout o;

	if (!typed(row, ctx, l) || !vq_walk(ctx, l, IBV_QPS_INIT))
		return;
	vq_fill(ctx, &a, mask, IBV_QPS_RTR);
	a.ah_attr.sl = QC_SL;
	a.ah_attr.static_rate = QC_RATE;
	if (vq_set(ctx, l->qp, &a, mask, IBV_QPS_INIT,
		   " with sl 0xb and static_rate IBV_RATE_40_GBPS") &&
	    !query(ctx, l->qp, mask, &o))
		vq_check_attrs(ctx, &a, &o.a, mask);
}

/* The index of the target port's first link-local (fe80::/10) GID, into
 * @gid; -1 when it has none */
static void hop_limit(const struct vc_row *row, struct rc_ctx *ctx,
		      struct vl *l)
{
	int idx, mask = IBV_QP_STATE | vq_entry(IBV_QPT_RC, IBV_QPS_RTR);
	struct ibv_qp_attr a;
	struct qout o;

	if (!typed(row, ctx, l) || !vq_walk(ctx, l, IBV_QPS_INIT))
		return;
	vq_fill(ctx, &a, mask, IBV_QPS_RTR);
	idx = rc_port_gid(ctx->target->ca, ctx->target->port, RC_GID_LINK_LOCAL,
			  a.ah_attr.grh.dgid.raw);
	if (idx < 0) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "the port has no link-local GID (set-up)");
		return;
	}
	a.ah_attr.is_global = 1;
	a.ah_attr.grh.sgid_index = idx;
	if (!vq_set(ctx, l->qp, &a, mask, IBV_QPS_INIT,
		    " to a link-local GID") ||
	    query(ctx, l->qp, mask, &o))
		return;
	/* vq_check_attrs leaves hop_limit out: the row's own */
	if (o.a.ah_attr.grh.hop_limit != VQ_HOP_LIMIT)
		rc_obs_violation(ctx->obs, "ah_attr.grh.hop_limit %#x, set %#x",
				 o.a.ah_attr.grh.hop_limit, VQ_HOP_LIMIT);
	else
		vq_check_attrs(ctx, &a, &o.a, mask);
}

static void mig_rearm(const struct vc_row *row, struct rc_ctx *ctx,
		      struct vl *l)
{
	int mask = IBV_QP_STATE | vq_entry(IBV_QPT_RC, IBV_QPS_RTS) |
		   IBV_QP_PATH_MIG_STATE;
	struct ibv_qp_attr a;
	struct qout o;

	if (!typed(row, ctx, l) || !vq_walk(ctx, l, IBV_QPS_RTR))
		return;
	vq_fill(ctx, &a, mask, IBV_QPS_RTS);
	if (vq_set(ctx, l->qp, &a, mask, IBV_QPS_RTR, " with IBV_MIG_REARM") &&
	    !query(ctx, l->qp, mask, &o))
		vq_check_attrs(ctx, &a, &o.a, mask);
}

static void on_srq(const struct vc_row *row, struct rc_ctx *ctx, struct vl *l)
{
	struct ibv_qp_init_attr ia = { .send_cq = l->cq,
				       .recv_cq = l->cq,
				       .srq = l->srq,
				       .cap = { .max_send_wr = VL_WR,
						.max_send_sge = VL_SGE },
				       .qp_type = IBV_QPT_RC };
	struct ibv_qp *qp;
	struct qout o;

	qp = ctx->ops->ibv_create_qp(l->pd, &ia);
	if (!qp) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_create_qp on an SRQ (set-up): %m");
		return;
	}
	if (!query(ctx, qp, IBV_QP_CAP, &o) && o.i.srq != l->srq)
		rc_obs_violation(ctx->obs, "init_attr.srq %p, the QP's SRQ %p",
				 (void *)o.i.srq, (void *)l->srq);
	if (ctx->ops->ibv_destroy_qp(qp))
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_destroy_qp (clean-up): %m");
}

static void severed(const struct vc_row *row, struct rc_ctx *ctx, struct vl *l)
{
	struct ibv_qp_init_attr qi;
	struct ibv_qp_attr got;

	if (vc_sever(ctx, l))
		RC_OBSERVE(ctx, ctx->ops->ibv_query_qp(l->qp, &got,
						       IBV_QP_STATE, &qi));
}

static void query_run(const void *r, struct rc_ctx *ctx)
{
	const struct vc_row *row = r;
	struct vl l = { .qp_type = row->arg ? (enum ibv_qp_type)row->arg :
					      IBV_QPT_RC };

	if (!rc_need_call(ctx, (const void *)ctx->ops->ibv_query_qp,
			  "ibv_query_qp"))
		return;
	if (vl_up(ctx, &l, row->rung))
		row->check(row, ctx, &l);
	vl_down(ctx, &l);
}

RC_TABLE_GROUP(group, "ibv_query_qp", RC_CONV_ERRNO_RET, "verbs", rows,
	       query_run);
