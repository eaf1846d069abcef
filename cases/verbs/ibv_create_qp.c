// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_create_qp(3), ibv_create_qp_ex(3): "creates a queue pair (QP)
 * associated with the protection domain pd", and "will update the
 * qp_init_attr->cap struct with the actual QP values of the QP that was
 * created; the values will be greater than or equal to the values
 * requested."  NOTES: it "will fail if a it is asked to create QP of a
 * type other than IBV_QPT_RC or IBV_QPT_UD associated with an SRQ", and
 * "The attributes max_recv_wr and max_recv_sge are ignored ... if the QP
 * is to be associated with an SRQ."  "ibv_destroy_qp() destroys the QP
 * qp" and "fails if the QP is attached to a multicast group."
 *
 * ibv_create_qp:
 * - RC, UC, UD with caps of distinct values (5, 7, 2, 3 and 9 bytes
 *   inline), a qp_context of distinct bytes and sq_sig_all: the caps
 *   given back and those query_qp's init_attr reads are at least those
 *   asked; qp_num is not 0 ("Check the QP number"); the QP's pd, CQs,
 *   type, qp_context and state RESET as given (documented)
 * - max_send_wr, max_recv_wr, max_send_sge, max_recv_sge one beyond
 *   ibv_query_device's max_qp_wr and max_sge: NULL (interpretation: at
 *   least that many the device cannot have); max_sge, an exact fit
 *   (documented)
 * - UC with an SRQ: NULL (documented); RC with an SRQ and max_recv_wr
 *   beyond max_qp_wr: a QP, the receive caps ignored (documented)
 * ibv_create_qp_ex:
 * - comp_mask IBV_QP_INIT_ATTR_PD, RC and UD: as ibv_create_qp (documented)
 * - a comp_mask bit no flag has: NULL (interpretation)
 * ibv_destroy_qp:
 * - 0, and the QP is gone: its CQ then destroys, which a QP on it forbids
 *   (documented, with ibv_destroy_cq(3)'s NOTES)
 * - a UD QP attached to a multicast group: fails, and destroys once
 *   detached (documented)
 * - the command file gone: an errno value (interpretation)
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "verbs_ctl.h"
#include "verbs_qp.h"

#define DOC_CREATE                                                       \
	"ibv_create_qp() creates a queue pair (QP) associated with the " \
	"protection domain pd."
#define DOC_CAP                                                             \
	"The function ibv_create_qp() will update the qp_init_attr->cap "   \
	"struct with the actual QP values of the QP that was created; the " \
	"values will be greater than or equal to the values requested."
#define DOC_CAP_EX                                                       \
	"The function ibv_create_qp_ex() will update the "               \
	"qp_init_attr_ex->cap struct with the actual QP values of the "  \
	"QP that was created; the values will be greater than or equal " \
	"to the values requested."
#define DOC_RET                                             \
	"ibv_create_qp() returns a pointer to the created " \
	"QP, or NULL if the request fails."
#define DOC_RET_EX                                             \
	"ibv_create_qp_ex() returns a pointer to the created " \
	"QP, or NULL if the request fails."
#define DOC_SRQ                                                              \
	"ibv_create_qp() will fail if a it is asked to create QP of a type " \
	"other than IBV_QPT_RC or IBV_QPT_UD associated with an SRQ."
#define DOC_SRQ_IGNORED                                               \
	"The attributes max_recv_wr and max_recv_sge are ignored by " \
	"ibv_create_qp() if the QP is to be associated with an SRQ."
#define DOC_DESTROY "ibv_destroy_qp() destroys the QP qp."
#define DOC_DESTROY_RET                                  \
	"ibv_destroy_qp() returns 0 on success, or the " \
	"value of errno on failure (which indicates the failure reason)."
#define DOC_MCAST \
	"ibv_destroy_qp() fails if the QP is attached to a multicast group."

/* the caps asked, all distinct; and a qp_context of distinct bytes */
static const struct ibv_qp_cap asked = { .max_send_wr = 5,
					 .max_recv_wr = 7,
					 .max_send_sge = 2,
					 .max_recv_sge = 3,
					 .max_inline_data = 9 };
#define QP_CONTEXT ((void *)0x0f1e2d3c4b5a6978ull)

static vc_check create_fields, create_past_max, create_max_sge, create_uc_srq,
	create_rc_srq, create_ex_fields, create_ex_bad_mask, destroy_gone,
	destroy_attached, destroy_severed;

/* which cap create_past_max asks one beyond the device for */
enum { SEND_WR, RECV_WR, SEND_SGE, RECV_SGE };

#define NEEDS_UC (VC_NEEDS | RC_NEED_CA)
#define NEEDS_UD (VC_NEEDS | RC_NEED_UD)

#define FIELDS(t, T, nd)                                                   \
	{                                                                  \
		.c = { .id = "verbs/create_qp/" #t "-fields",              \
		       .doc = DOC_CAP,                                     \
		       .basis = RC_BASIS_DOCUMENTED,                       \
		       .note = #T                                          \
		       " QP, caps 5/7/2/3/9: the caps given back and "     \
		       "query_qp's init_attr caps at least those; qp_num " \
		       "not 0; pd, CQs, type, qp_context, sq_sig_all and " \
		       "state RESET as given",                             \
		       .needs = nd,                                        \
		       .contract = { RC_SUCCEEDS } },                      \
		.check = create_fields, .rung = VL_CQ, .arg = IBV_QPT_##T  \
	}
#define PAST(name, which, what)                                             \
	{                                                                   \
		.c = { .id = "verbs/create_qp/" name "-past-max",           \
		       .doc = DOC_RET,                                      \
		       .basis = RC_BASIS_INTERPRETATION,                    \
		       .note = "an RC QP with " what " one beyond "         \
			       "ibv_query_device's: at least that many is " \
			       "beyond the device",                         \
		       .needs = VC_NEEDS,                                   \
		       .contract = { RC_FAILS() } },                        \
		.check = create_past_max, .rung = VL_CQ, .arg = which       \
	}

static const struct vc_row create_rows[] = {
	FIELDS(rc, RC, VC_NEEDS),
	FIELDS(uc, UC, NEEDS_UC),
	FIELDS(ud, UD, NEEDS_UD),
	PAST("max-send-wr", SEND_WR, "max_send_wr"),
	PAST("max-recv-wr", RECV_WR, "max_recv_wr"),
	PAST("max-send-sge", SEND_SGE, "max_send_sge"),
	PAST("max-recv-sge", RECV_SGE, "max_recv_sge"),
	{ .c = { .id = "verbs/create_qp/max-sge",
		 .doc = DOC_CREATE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "an RC QP with max_send_sge and max_recv_sge "
			 "ibv_query_device's max_sge, an exact fit: a QP, caps "
			 "at least those",
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = create_max_sge,
	  .rung = VL_CQ },
	{ .c = { .id = "verbs/create_qp/uc-with-srq",
		 .doc = DOC_SRQ,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a UC QP on an SRQ: NULL",
		 .needs = NEEDS_UC,
		 .contract = { RC_FAILS() } },
	  .check = create_uc_srq,
	  .rung = VL_SRQ },
	{ .c = { .id = "verbs/create_qp/rc-with-srq-recv-caps-ignored",
		 .doc = DOC_SRQ_IGNORED,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "an RC QP on an SRQ with max_recv_wr max_qp_wr + 1 "
			 "and max_recv_sge max_sge + 1, which alone fail: "
			 "ignored, a QP",
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = create_rc_srq,
	  .rung = VL_SRQ },
};

static const struct vc_row create_ex_rows[] = {
	{ .c = { .id = "verbs/create_qp_ex/rc-pd",
		 .doc = DOC_CAP_EX,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "comp_mask IBV_QP_INIT_ATTR_PD, an RC QP with caps "
			 "5/7/2/3/9: caps at least those, qp_num not 0, the "
			 "QP's pd and type as given",
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = create_ex_fields,
	  .rung = VL_CQ,
	  .arg = IBV_QPT_RC },
	{ .c = { .id = "verbs/create_qp_ex/ud-pd",
		 .doc = DOC_CAP_EX,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the same for a UD QP",
		 .needs = NEEDS_UD,
		 .contract = { RC_SUCCEEDS } },
	  .check = create_ex_fields,
	  .rung = VL_CQ,
	  .arg = IBV_QPT_UD },
	{ .c = { .id = "verbs/create_qp_ex/unknown-comp-mask",
		 .doc = DOC_RET_EX,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "comp_mask IBV_QP_INIT_ATTR_PD and bit 30, which no "
			 "IBV_QP_INIT_ATTR_ flag has: a field the library "
			 "cannot know, NULL",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = create_ex_bad_mask,
	  .rung = VL_CQ },
};

static const struct vc_row destroy_rows[] = {
	{ .c = { .id = "verbs/destroy_qp/gone",
		 .doc = DOC_DESTROY,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "0, and then its CQ destroys, which a QP still on "
			 "it forbids (ibv_destroy_cq(3))",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = destroy_gone,
	  .rung = VL_QP },
	{ .c = { .id = "verbs/destroy_qp/attached-to-multicast",
		 .doc = DOC_MCAST,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a UD QP attached to ff0e::db8:S:1: refused; "
			 "detached, it then destroys",
		 .needs = NEEDS_UD,
		 .contract = { RC_FAILS() } },
	  .check = destroy_attached,
	  .rung = VL_CQ },
	{ .c = { .id = "verbs/destroy_qp/command-file-gone",
		 .doc = DOC_DESTROY_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the context's command file replaced by an O_PATH "
			 "descriptor",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = destroy_severed,
	  .rung = VL_QP },
};

static void init_attr(struct vl *l, struct ibv_qp_init_attr *a,
		      enum ibv_qp_type type)
{
	memset(a, 0, sizeof(*a));
	a->qp_context = QP_CONTEXT;
	a->send_cq = a->recv_cq = l->cq;
	a->cap = asked;
	a->qp_type = type;
	a->sq_sig_all = 1;
}

static void caps_at_least(struct rc_ctx *ctx, const char *what,
			  const struct ibv_qp_cap *c, bool recv)
{
	if (c->max_send_wr < asked.max_send_wr ||
	    c->max_send_sge < asked.max_send_sge ||
	    c->max_inline_data < asked.max_inline_data ||
	    (recv && (c->max_recv_wr < asked.max_recv_wr ||
		      c->max_recv_sge < asked.max_recv_sge)))
		rc_obs_violation(ctx->obs,
				 "%s: %u/%u/%u/%u/%u, asked "
				 "5/7/2/3/9",
				 what, c->max_send_wr, c->max_recv_wr,
				 c->max_send_sge, c->max_recv_sge,
				 c->max_inline_data);
}

/* what every made QP is checked for; destroys it */
static void made(struct rc_ctx *ctx, struct vl *l, struct ibv_qp *qp,
		 const struct ibv_qp_init_attr *a)
{
	struct ibv_qp_init_attr qi;
	struct ibv_qp_attr qa;

	caps_at_least(ctx, "cap", &a->cap, true);
	if (!qp->qp_num)
		rc_obs_violation(ctx->obs, "qp_num 0");
	if (qp->pd != l->pd || qp->send_cq != l->cq || qp->recv_cq != l->cq ||
	    qp->qp_type != a->qp_type || qp->context != l->ctx)
		rc_obs_violation(ctx->obs, "pd/cq/qp_type: not as given");
	if (qp->qp_context != a->qp_context)
		rc_obs_violation(ctx->obs, "qp_context %p, given %p",
				 qp->qp_context, a->qp_context);
	if (vq_query(ctx, qp, &qa, &qi)) {
		caps_at_least(ctx, "init_attr.cap", &qi.cap, true);
		if (qa.qp_state != IBV_QPS_RESET)
			rc_obs_violation(ctx->obs, "qp_state %d, not RESET",
					 qa.qp_state);
		if (qi.qp_type != a->qp_type || qi.sq_sig_all != a->sq_sig_all)
			rc_obs_violation(ctx->obs,
					 "init_attr.qp_type/sq_sig_all: "
					 "%d/%d, given %d/%d",
					 qi.qp_type, qi.sq_sig_all, a->qp_type,
					 a->sq_sig_all);
	}
	ctx->ops->ibv_destroy_qp(qp);
}

static void create_fields(const struct vc_row *row, struct rc_ctx *ctx,
			  struct vl *l)
{
	struct ibv_qp_init_attr a;
	struct ibv_qp *qp;

	init_attr(l, &a, row->arg);
	RC_OBSERVE(ctx, qp = ctx->ops->ibv_create_qp(l->pd, &a));
	if (qp)
		made(ctx, l, qp, &a);
}

static void create_past_max(const struct vc_row *row, struct rc_ctx *ctx,
			    struct vl *l)
{
	struct ibv_device_attr d;
	struct ibv_qp_init_attr a;
	struct ibv_qp *qp;

	if (!vc_attr(ctx, l, &d))
		return;
	init_attr(l, &a, IBV_QPT_RC);
	a.cap.max_inline_data = 0;
	if (row->arg == SEND_WR)
		a.cap.max_send_wr = d.max_qp_wr + 1;
	else if (row->arg == RECV_WR)
		a.cap.max_recv_wr = d.max_qp_wr + 1;
	else if (row->arg == SEND_SGE)
		a.cap.max_send_sge = d.max_sge + 1;
	else
		a.cap.max_recv_sge = d.max_sge + 1;
	RC_OBSERVE(ctx, qp = ctx->ops->ibv_create_qp(l->pd, &a));
	if (qp)
		ctx->ops->ibv_destroy_qp(qp);
}

static void create_max_sge(const struct vc_row *row, struct rc_ctx *ctx,
			   struct vl *l)
{
	struct ibv_device_attr d;
	struct ibv_qp_init_attr a;
	struct ibv_qp *qp;

	if (!vc_attr(ctx, l, &d))
		return;
	init_attr(l, &a, IBV_QPT_RC);
	a.cap.max_inline_data = 0;
	a.cap.max_send_sge = a.cap.max_recv_sge = d.max_sge;
	RC_OBSERVE(ctx, qp = ctx->ops->ibv_create_qp(l->pd, &a));
	if (!qp)
		return;
	if (a.cap.max_send_sge < (uint32_t)d.max_sge ||
	    a.cap.max_recv_sge < (uint32_t)d.max_sge)
		rc_obs_violation(ctx->obs,
				 "cap.max_send_sge/max_recv_sge "
				 "%u/%u, asked %d",
				 a.cap.max_send_sge, a.cap.max_recv_sge,
				 d.max_sge);
	ctx->ops->ibv_destroy_qp(qp);
}

static void create_uc_srq(const struct vc_row *row, struct rc_ctx *ctx,
			  struct vl *l)
{
	struct ibv_qp_init_attr a;
	struct ibv_qp *qp;

	init_attr(l, &a, IBV_QPT_UC);
	a.srq = l->srq;
	RC_OBSERVE(ctx, qp = ctx->ops->ibv_create_qp(l->pd, &a));
	if (qp)
		ctx->ops->ibv_destroy_qp(qp);
}

static void create_rc_srq(const struct vc_row *row, struct rc_ctx *ctx,
			  struct vl *l)
{
	struct ibv_device_attr d;
	struct ibv_qp_init_attr a;
	struct ibv_qp *qp;

	if (!vc_attr(ctx, l, &d))
		return;
	init_attr(l, &a, IBV_QPT_RC);
	a.srq = l->srq;
	a.cap.max_recv_wr = d.max_qp_wr + 1;
	a.cap.max_recv_sge = d.max_sge + 1;
	RC_OBSERVE(ctx, qp = ctx->ops->ibv_create_qp(l->pd, &a));
	if (!qp)
		return;
	caps_at_least(ctx, "cap", &a.cap, false);
	if (qp->srq != l->srq)
		rc_obs_violation(ctx->obs, "srq: not the one given");
	ctx->ops->ibv_destroy_qp(qp);
}

static void create_ex_fields(const struct vc_row *row, struct rc_ctx *ctx,
			     struct vl *l)
{
	struct ibv_qp_init_attr_ex a = { .comp_mask = IBV_QP_INIT_ATTR_PD };
	struct ibv_qp_init_attr b;
	struct ibv_qp *qp;

	if (!rc_need_call(ctx, (const void *)ctx->ops->ibv_create_qp_ex,
			  "ibv_create_qp_ex"))
		return;
	init_attr(l, &b, row->arg);
	/* the legacy fields only: ibv_qp_init_attr's tail padding is where
	 * the extended struct has comp_mask */
	memcpy(&a, &b, offsetof(struct ibv_qp_init_attr_ex, comp_mask));
	a.pd = l->pd;
	RC_OBSERVE(ctx, qp = ctx->ops->ibv_create_qp_ex(l->ctx, &a));
	if (!qp)
		return;
	b.cap = a.cap;
	made(ctx, l, qp, &b);
}

static void create_ex_bad_mask(const struct vc_row *row, struct rc_ctx *ctx,
			       struct vl *l)
{
	struct ibv_qp_init_attr_ex a = {};
	struct ibv_qp *qp;

	if (!rc_need_call(ctx, (const void *)ctx->ops->ibv_create_qp_ex,
			  "ibv_create_qp_ex"))
		return;
	init_attr(l, (struct ibv_qp_init_attr *)&a, IBV_QPT_RC);
	a.comp_mask = IBV_QP_INIT_ATTR_PD | 1u << 30;
	a.pd = l->pd;
	RC_OBSERVE(ctx, qp = ctx->ops->ibv_create_qp_ex(l->ctx, &a));
	if (qp)
		ctx->ops->ibv_destroy_qp(qp);
}

static void destroy_gone(const struct vc_row *row, struct rc_ctx *ctx,
			 struct vl *l)
{
	int ret;

	RC_OBSERVE(ctx, ret = ctx->ops->ibv_destroy_qp(l->qp));
	if (ret)
		return;
	l->qp = NULL;
	if (ctx->ops->ibv_destroy_cq(l->cq))
		rc_obs_violation(ctx->obs, "cq: still held by the destroyed "
					   "QP");
	else
		l->cq = NULL;
}

static void destroy_attached(const struct vc_row *row, struct rc_ctx *ctx,
			     struct vl *l)
{
	union ibv_gid mgid = {
		.raw = { 0xff, 0x0e, [10] = 0x0d, [11] = 0xb8, [15] = 1 }
	};
	struct ibv_qp_init_attr a;
	struct ibv_qp *qp;
	int ret;

	if (!rc_need_call(ctx, (const void *)ctx->ops->ibv_attach_mcast,
			  "ibv_attach_mcast") ||
	    !rc_need_call(ctx, (const void *)ctx->ops->ibv_detach_mcast,
			  "ibv_detach_mcast"))
		return;
	mgid.raw[12] = ctx->slot >> 8;
	mgid.raw[13] = ctx->slot;
	init_attr(l, &a, IBV_QPT_UD);
	a.cap.max_inline_data = 0;
	qp = ctx->ops->ibv_create_qp(l->pd, &a);
	if (!qp) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_create_qp (set-up): %m");
		return;
	}
	l->qp = qp;
	errno = ctx->ops->ibv_attach_mcast(qp, &mgid, 0);
	if (errno) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_attach_mcast (set-up): %m");
		return;
	}
	RC_OBSERVE(ctx, ret = ctx->ops->ibv_destroy_qp(qp));
	if (!ret) {
		l->qp = NULL;
		return;
	}
	ctx->ops->ibv_detach_mcast(qp, &mgid, 0);
	ret = ctx->ops->ibv_destroy_qp(qp);
	if (ret)
		rc_obs_violation(ctx->obs, "destroy after detach: %s",
				 rc_errno_name(ret));
	else
		l->qp = NULL;
}

static void destroy_severed(const struct vc_row *row, struct rc_ctx *ctx,
			    struct vl *l)
{
	int ret;

	if (!vc_sever(ctx, l))
		return;
	RC_OBSERVE(ctx, ret = ctx->ops->ibv_destroy_qp(l->qp));
	if (!ret)
		l->qp = NULL;
}

VC_GROUP(create, ibv_create_qp, RC_CONV_NULL_ERRNO, create_rows);
VC_GROUP(create_ex, ibv_create_qp_ex, RC_CONV_NULL_ERRNO, create_ex_rows);
VC_GROUP(destroy, ibv_destroy_qp, RC_CONV_ERRNO_RET, destroy_rows);
