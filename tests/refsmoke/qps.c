// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ref-smoke: QPs of type RC, UC and UD through every state of
 * ibv_modify_qp(3)'s tables, RESET -> INIT -> RTR -> RTS -> ERR -> RESET,
 * each with the required attributes and ibv_query_qp reading back what
 * was set; transitions that lack one, or skip a state, left undone; an
 * async event provoked for real (an RC QP moved to SQD drains its empty
 * send queue: IBV_EVENT_SQ_DRAINED); QPs on an SRQ; ibv_create_qp_ex.
 * On iWARP (siw) an RC QP leaves INIT only through a connection, which
 * this does not make, and the driver reads back little (siw's query_qp
 * gives no state): there, the transitions and what is read back are
 * compared, not required.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>

#include "smoke.h"

#define PORT 1
#define QKEY 0x11111111u
#define RQ_PSN 0x123u
#define SQ_PSN 0x456u

struct qp_env {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_srq *srq;
	union ibv_gid gid;
	int gid_index;
};

static const char *type_name(enum ibv_qp_type t)
{
	return t == IBV_QPT_RC ? "rc" :
	       t == IBV_QPT_UC ? "uc" :
	       t == IBV_QPT_UD ? "ud" :
				 "qp";
}

/* the first GID of the port that is not zero: an own address to aim at */
static int find_gid(struct side *s, struct qp_env *e)
{
	static const union ibv_gid zero;
	int i;

	for (i = 0; i < 16; i++)
		if (!s->ops->ibv_query_gid(e->ctx, PORT, i, &e->gid) &&
		    memcmp(&e->gid, &zero, sizeof(zero)))
			return i;
	return -1;
}

static int modify(struct side *s, struct ibv_qp *qp, const char *step,
		  struct ibv_qp_attr *a, int mask)
{
	char k[64];
	int err;

	err = s->ops->ibv_modify_qp(qp, a, mask);
	snprintf(k, sizeof(k), "%s/%s", type_name(qp->qp_type), step);
	see(s, k, "%s", errname(err));
	return err;
}

/* ibv_query_qp's answer: the state, and @what of it compared */
static enum ibv_qp_state query(struct side *s, struct ibv_qp *qp,
			       const char *step, struct ibv_qp_attr *a)
{
	struct ibv_qp_init_attr init;
	char k[64];
	int err;

	memset(a, 0, sizeof(*a));
	err = s->ops->ibv_query_qp(qp, a, IBV_QP_STATE, &init);
	snprintf(k, sizeof(k), "%s/%s/query", type_name(qp->qp_type), step);
	see(s, k, "%s state %d", errname(err), err ? -1 : a->qp_state);
	if (err)
		return -1;
	require(s, qp->state == a->qp_state, "%s: qp->state %d, queried %d", k,
		qp->state, a->qp_state);
	require(s,
		init.qp_type == qp->qp_type && init.send_cq == qp->send_cq &&
			init.recv_cq == qp->recv_cq && init.srq == qp->srq &&
			init.qp_context == qp->qp_context,
		"%s: init_attr", k);
	return a->qp_state;
}

#define SEE_FIELD(s, qp, step, a, f)                      \
	do {                                              \
		char k_[64];                              \
		snprintf(k_, sizeof(k_), "%s/%s/" #f,     \
			 type_name((qp)->qp_type), step); \
		see(s, k_, "%u", (unsigned int)(a)->f);   \
	} while (0)

static void to_init(struct side *s, struct ibv_qp *qp)
{
	struct ibv_qp_attr a = {}, q;
	int mask = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT;

	a.qp_state = IBV_QPS_INIT;
	a.pkey_index = 0;
	a.port_num = PORT;
	/* one required attribute short: nothing changes */
	modify(s, qp, "init_short", &a, mask);
	if (query(s, qp, "init_short", &q) != IBV_QPS_RESET)
		require(s, s->iwarp,
			"a transition short of an attribute "
			"left RESET");
	if (qp->qp_type == IBV_QPT_UD) {
		a.qkey = QKEY;
		mask |= IBV_QP_QKEY;
	} else {
		a.qp_access_flags = IBV_ACCESS_REMOTE_WRITE |
				    (qp->qp_type == IBV_QPT_RC ?
					     IBV_ACCESS_REMOTE_READ :
					     0);
		mask |= IBV_QP_ACCESS_FLAGS;
	}
	if (modify(s, qp, "init", &a, mask))
		return;
	require(s, qp->state == IBV_QPS_INIT, "qp->state after INIT");
	query(s, qp, "init", &q);
	SEE_FIELD(s, qp, "init", &q, pkey_index);
	SEE_FIELD(s, qp, "init", &q, port_num);
	if (qp->qp_type == IBV_QPT_UD)
		require(s, q.qkey == QKEY, "queried qkey %#x", q.qkey);
	else
		SEE_FIELD(s, qp, "init", &q, qp_access_flags);
	/* siw answers no state: what was set is all there is to go by */
	if (s->iwarp)
		qp->state = IBV_QPS_INIT;
}

static void to_rtr(struct side *s, struct qp_env *e, struct ibv_qp *qp)
{
	struct ibv_qp_attr a = {}, q;
	int mask = IBV_QP_STATE;
	char k[64];

	a.qp_state = IBV_QPS_RTR;
	if (qp->qp_type != IBV_QPT_UD) {
		/* "If port flag IBV_QPF_GRH_REQUIRED is set then ah_attr ...
		 * must be passed with ... .is_global = 1" (RoCE) */
		a.ah_attr.is_global = 1;
		a.ah_attr.grh.dgid = e->gid;
		a.ah_attr.grh.sgid_index = e->gid_index;
		a.ah_attr.grh.hop_limit = 64;
		a.ah_attr.port_num = PORT;
		a.path_mtu = IBV_MTU_1024;
		a.dest_qp_num = qp->qp_num; /* itself: a loopback */
		a.rq_psn = RQ_PSN;
		mask |= IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN;
		if (qp->qp_type == IBV_QPT_RC) {
			a.max_dest_rd_atomic = 1;
			a.min_rnr_timer = 12;
			mask |= IBV_QP_MAX_DEST_RD_ATOMIC |
				IBV_QP_MIN_RNR_TIMER;
		}
		/* RTR without the address vector */
		modify(s, qp, "rtr_short", &a, mask);
		query(s, qp, "rtr_short", &q);
		mask |= IBV_QP_AV;
	}
	if (modify(s, qp, "rtr", &a, mask))
		return;
	query(s, qp, "rtr", &q);
	if (qp->qp_type == IBV_QPT_UD)
		return;
	snprintf(k, sizeof(k), "%s/rtr/dest_qp_num_is_own",
		 type_name(qp->qp_type));
	see(s, k, "%d", q.dest_qp_num == qp->qp_num);
	SEE_FIELD(s, qp, "rtr", &q, rq_psn);
	SEE_FIELD(s, qp, "rtr", &q, path_mtu);
	if (s->iwarp)
		return;
	require(s,
		q.dest_qp_num == qp->qp_num && q.rq_psn == RQ_PSN &&
			q.path_mtu == IBV_MTU_1024,
		"RTR read back: dest %u, rq_psn "
		"%#x, mtu %d",
		q.dest_qp_num, q.rq_psn, q.path_mtu);
	require(s,
		q.ah_attr.is_global &&
			!memcmp(&q.ah_attr.grh.dgid, &e->gid, sizeof(e->gid)),
		"RTR read back: the GRH's destination");
	SEE_FIELD(s, qp, "rtr", &q, ah_attr.grh.sgid_index);
	SEE_FIELD(s, qp, "rtr", &q, ah_attr.grh.hop_limit);
	SEE_FIELD(s, qp, "rtr", &q, ah_attr.port_num);
	if (qp->qp_type == IBV_QPT_RC) {
		SEE_FIELD(s, qp, "rtr", &q, max_dest_rd_atomic);
		SEE_FIELD(s, qp, "rtr", &q, min_rnr_timer);
	}
}

static void to_rts(struct side *s, struct ibv_qp *qp)
{
	struct ibv_qp_attr a = {}, q;
	int mask = IBV_QP_STATE | IBV_QP_SQ_PSN;

	a.qp_state = IBV_QPS_RTS;
	a.sq_psn = SQ_PSN;
	if (qp->qp_type == IBV_QPT_RC) {
		a.timeout = 14;
		a.retry_cnt = 7;
		a.rnr_retry = 7;
		a.max_rd_atomic = 1;
		mask |= IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
			IBV_QP_MAX_QP_RD_ATOMIC;
	}
	if (modify(s, qp, "rts", &a, mask))
		return;
	query(s, qp, "rts", &q);
	SEE_FIELD(s, qp, "rts", &q, sq_psn);
	require(s, s->iwarp || q.sq_psn == SQ_PSN, "RTS read back: sq_psn %#x",
		q.sq_psn);
	if (qp->qp_type == IBV_QPT_RC) {
		SEE_FIELD(s, qp, "rts", &q, timeout);
		SEE_FIELD(s, qp, "rts", &q, retry_cnt);
		SEE_FIELD(s, qp, "rts", &q, rnr_retry);
		SEE_FIELD(s, qp, "rts", &q, max_rd_atomic);
	}
}

/* An RC QP in RTS moved to SQD: its empty send queue is drained at once,
 * and the kernel says so on the async fd. */
static void sq_drained(struct side *s, struct ibv_qp *qp)
{
	const struct rc_ops *o = s->ops;
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_SQD,
				 .en_sqd_async_notify = 1 },
			   q;
	struct pollfd pfd = { .fd = qp->context->async_fd, .events = POLLIN };
	struct ibv_async_event ev;
	int flags, r;

	if (modify(s, qp, "sqd", &a, IBV_QP_STATE | IBV_QP_EN_SQD_ASYNC_NOTIFY))
		return;
	r = poll(&pfd, 1, 5000);
	if (!require(s, r == 1, "no async event in 5 s after SQD"))
		return;
	memset(&ev, 0, sizeof(ev));
	r = o->ibv_get_async_event(qp->context, &ev);
	see(s, "async/get", "%d", r);
	if (r)
		return;
	see(s, "async/event_type", "%d", ev.event_type);
	note(s, "async/event_type_str", "%s",
	     o->ibv_event_type_str(ev.event_type));
	require(s, ev.element.qp == qp, "the event's element is the QP");
	o->ibv_ack_async_event(&ev);
	query(s, qp, "sqd", &q);
	/* the page's own example: a non-blocking fd with nothing to read */
	flags = fcntl(qp->context->async_fd, F_GETFL);
	fcntl(qp->context->async_fd, F_SETFL, flags | O_NONBLOCK);
	errno = 0;
	r = o->ibv_get_async_event(qp->context, &ev);
	see(s, "async/nothing_nonblocking", "%d %s", r, errname(errno));
	if (!r)
		o->ibv_ack_async_event(&ev);
	fcntl(qp->context->async_fd, F_SETFL, flags);
}

static void to_err_and_reset(struct side *s, struct ibv_qp *qp)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_ERR }, q;

	modify(s, qp, "err", &a, IBV_QP_STATE);
	query(s, qp, "err", &q);
	a.qp_state = IBV_QPS_RESET;
	modify(s, qp, "reset", &a, IBV_QP_STATE);
	query(s, qp, "reset", &q);
}

static void see_caps(struct side *s, const char *what,
		     const struct ibv_qp_cap *c)
{
	char k[64];

	snprintf(k, sizeof(k), "%s/cap", what);
	see(s, k, "send_wr %u recv_wr %u send_sge %u recv_sge %u inline %u",
	    c->max_send_wr, c->max_recv_wr, c->max_send_sge, c->max_recv_sge,
	    c->max_inline_data);
}

static void walk_qp(struct side *s, struct qp_env *e, enum ibv_qp_type type)
{
	const struct ibv_qp_cap want = { 16, 16, 2, 2, 64 };
	struct ibv_qp_init_attr init = {
		.qp_context = s,
		.send_cq = e->cq,
		.recv_cq = e->cq,
		.cap = want,
		.qp_type = type,
	};
	const char *t = type_name(type);
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_RTS, .sq_psn = 1 }, q;
	struct ibv_qp *qp;
	char k[64];
	int err;

	errno = 0;
	qp = s->ops->ibv_create_qp(e->pd, &init);
	snprintf(k, sizeof(k), "%s/create", t);
	see(s, k, "%s", qp ? "QP" : errname(errno));
	if (!qp)
		return;
	/* "the values will be greater than or equal to the values
	 * requested" */
	require(s,
		init.cap.max_send_wr >= want.max_send_wr &&
			init.cap.max_recv_wr >= want.max_recv_wr &&
			init.cap.max_send_sge >= want.max_send_sge &&
			init.cap.max_recv_sge >= want.max_recv_sge &&
			init.cap.max_inline_data >= want.max_inline_data,
		"%s: caps granted below those asked", t);
	see_caps(s, t, &init.cap);
	snprintf(k, sizeof(k), "%s/qp_num", t);
	note(s, k, "%u", qp->qp_num);
	/* QPs 0 and 1 are InfiniBand's special QPs, made by no one */
	require(s,
		(s->iwarp || qp->qp_num > 1) && qp->state == IBV_QPS_RESET &&
			qp->qp_type == type && qp->pd == e->pd &&
			qp->send_cq == e->cq && qp->qp_context == s,
		"%s: the QP's fields", t);
	query(s, qp, "created", &q);
	/* "Reset --> Init --> RTR --> RTS": RTS straight from RESET is no
	 * transition */
	modify(s, qp, "reset_to_rts", &a, IBV_QP_STATE | IBV_QP_SQ_PSN);
	query(s, qp, "reset_to_rts", &q);
	to_init(s, qp);
	to_rtr(s, e, qp);
	to_rts(s, qp);
	if (!s->iwarp)
		require(s, qp->state == IBV_QPS_RTS, "%s: RTS reached", t);
	if (type == IBV_QPT_RC && qp->state == IBV_QPS_RTS)
		sq_drained(s, qp);
	to_err_and_reset(s, qp);
	/* "ibv_destroy_cq() fails if any queue pair is still associated" */
	snprintf(k, sizeof(k), "%s/destroy_cq_in_use", t);
	err = s->ops->ibv_destroy_cq(e->cq);
	see(s, k, "%s", errname(err));
	if (!err) /* gone after all: the next QPs need one */
		e->cq = s->ops->ibv_create_cq(e->ctx, 64, NULL, NULL, 0);
	snprintf(k, sizeof(k), "%s/destroy", t);
	see(s, k, "%s", errname(s->ops->ibv_destroy_qp(qp)));
}

/* QPs on an SRQ: "will fail if a it is asked to create QP of a type other
 * than IBV_QPT_RC or IBV_QPT_UD associated with an SRQ"; "max_recv_wr and
 * max_recv_sge are ignored" */
static void walk_srq_qps(struct side *s, struct qp_env *e)
{
	static const enum ibv_qp_type types[] = { IBV_QPT_RC, IBV_QPT_UD,
						  IBV_QPT_UC };
	struct ibv_srq_init_attr sa = { .attr = { .max_wr = 32,
						  .max_sge = 1 } };
	struct ibv_qp *qp;
	char k[64];
	size_t i;
	int err;

	e->srq = s->ops->ibv_create_srq(e->pd, &sa);
	if (!require(s, e->srq, "ibv_create_srq for the QPs"))
		return;
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		struct ibv_qp_init_attr init = {
			.send_cq = e->cq,
			.recv_cq = e->cq,
			.srq = e->srq,
			.cap = { 8, 100000, 1, 100, 0 },
			.qp_type = types[i],
		};

		errno = 0;
		qp = s->ops->ibv_create_qp(e->pd, &init);
		snprintf(k, sizeof(k), "srq_qp/%s", type_name(types[i]));
		see(s, k, "%s", qp ? "QP" : errname(errno));
		if (!qp)
			continue;
		require(s, qp->srq == e->srq, "%s: qp->srq", k);
		/* "ibv_destroy_srq() fails if any queue pair is still
		 * associated with this SRQ" */
		snprintf(k, sizeof(k), "srq_qp/%s/destroy_srq_in_use",
			 type_name(types[i]));
		err = s->ops->ibv_destroy_srq(e->srq);
		see(s, k, "%s", errname(err));
		s->ops->ibv_destroy_qp(qp);
		if (!err) /* gone after all: the next QPs need one */
			e->srq = s->ops->ibv_create_srq(e->pd, &sa);
		if (!e->srq)
			return;
	}
	see(s, "srq_qp/destroy_srq", "%s",
	    errname(s->ops->ibv_destroy_srq(e->srq)));
}

static void walk_qp_ex(struct side *s, struct qp_env *e)
{
	struct ibv_qp_init_attr_ex a = {
		.send_cq = e->cq,
		.recv_cq = e->cq,
		.cap = { 4, 4, 1, 1, 0 },
		.qp_type = IBV_QPT_RC,
		.comp_mask = IBV_QP_INIT_ATTR_PD |
			     IBV_QP_INIT_ATTR_CREATE_FLAGS,
		.pd = e->pd,
	};
	struct ibv_qp *qp;

	errno = 0;
	qp = s->ops->ibv_create_qp_ex(e->ctx, &a);
	see(s, "qp_ex/create_flags_0", "%s", qp ? "QP" : errname(errno));
	if (qp) {
		see_caps(s, "qp_ex", &a.cap);
		s->ops->ibv_destroy_qp(qp);
	}
	a.comp_mask = IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
	a.send_ops_flags = IBV_QP_EX_WITH_SEND;
	errno = 0;
	qp = s->ops->ibv_create_qp_ex(e->ctx, &a);
	see(s, "qp_ex/send_ops", "%s", qp ? "QP" : errname(errno));
	if (qp)
		s->ops->ibv_destroy_qp(qp);
	a.comp_mask = IBV_QP_INIT_ATTR_PD | 1u << 20;
	errno = 0;
	qp = s->ops->ibv_create_qp_ex(e->ctx, &a);
	see(s, "qp_ex/unknown_mask", "%s", qp ? "QP" : errname(errno));
	if (qp)
		s->ops->ibv_destroy_qp(qp);
}

void walk_qps(struct side *s, struct ibv_context *ctx)
{
	struct qp_env e = { .ctx = ctx };

	e.gid_index = find_gid(s, &e);
	if (!require(s, e.gid_index >= 0, "a GID on port %d", PORT))
		return;
	see(s, "qp/gid_index", "%d", e.gid_index);
	e.pd = s->ops->ibv_alloc_pd(ctx);
	e.cq = s->ops->ibv_create_cq(ctx, 64, NULL, NULL, 0);
	if (require(s, e.pd && e.cq, "a PD and a CQ for the QPs")) {
		walk_qp(s, &e, IBV_QPT_RC);
		if (e.cq)
			walk_qp(s, &e, IBV_QPT_UC);
		if (e.cq)
			walk_qp(s, &e, IBV_QPT_UD);
		if (e.cq)
			walk_srq_qps(s, &e);
		if (e.cq)
			walk_qp_ex(s, &e);
	}
	if (e.cq)
		see(s, "qp/destroy_cq", "%s",
		    errname(s->ops->ibv_destroy_cq(e.cq)));
	if (e.pd)
		see(s, "qp/dealloc_pd", "%s",
		    errname(s->ops->ibv_dealloc_pd(e.pd)));
}
