// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "verbs_qp.h"
#include "../../harness/device.h"

const char *vq_state_name(int state)
{
	static const char *const names[] = { "RESET", "INIT", "RTR", "RTS",
					     "SQD",   "SQE",  "ERR" };

	return state >= 0 && state < (int)ARRAY_SIZE(names) ? names[state] :
							      "state?";
}

int vq_required(enum ibv_qp_type type, enum ibv_qp_state from,
		enum ibv_qp_state to)
{
	bool rc = type == IBV_QPT_RC, ud = type == IBV_QPT_UD;

	if (from == IBV_QPS_RESET && to == IBV_QPS_INIT)
		return IBV_QP_PKEY_INDEX | IBV_QP_PORT |
		       (ud ? IBV_QP_QKEY : IBV_QP_ACCESS_FLAGS);
	if (from == IBV_QPS_INIT && to == IBV_QPS_RTR)
		return ud ? 0 :
			    IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
				       IBV_QP_RQ_PSN |
				       (rc ? IBV_QP_MAX_DEST_RD_ATOMIC |
							IBV_QP_MIN_RNR_TIMER :
					     0);
	if (from == IBV_QPS_RTR && to == IBV_QPS_RTS)
		return IBV_QP_SQ_PSN |
		       (rc ? IBV_QP_MAX_QP_RD_ATOMIC | IBV_QP_RETRY_CNT |
					IBV_QP_RNR_RETRY | IBV_QP_TIMEOUT :
			     0);
	return 0;
}

int vq_entry(enum ibv_qp_type type, enum ibv_qp_state to)
{
	switch (to) {
	case IBV_QPS_INIT:
		return vq_required(type, IBV_QPS_RESET, to);
	case IBV_QPS_RTR:
		return vq_required(type, IBV_QPS_INIT, to);
	case IBV_QPS_RTS:
		return vq_required(type, IBV_QPS_RTR, to);
	default:
		return 0;
	}
}

void vq_fill(struct rc_ctx *ctx, struct ibv_qp_attr *a, int mask,
	     enum ibv_qp_state to)
{
	int idx;

	memset(a, 0, sizeof(*a));
	a->qp_state = to;
	a->pkey_index = 0;
	a->port_num = ctx->target->port;
	a->qkey = VQ_QKEY;
	a->qp_access_flags = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;
	a->path_mtu = VQ_MTU;
	a->dest_qp_num = VQ_DEST_QPN;
	a->rq_psn = VQ_RQ_PSN;
	a->sq_psn = VQ_SQ_PSN;
	a->max_dest_rd_atomic = VQ_MAX_DEST_RD_ATOMIC;
	a->max_rd_atomic = VQ_MAX_RD_ATOMIC;
	a->min_rnr_timer = VQ_MIN_RNR_TIMER;
	a->timeout = VQ_TIMEOUT;
	a->retry_cnt = VQ_RETRY_CNT;
	a->rnr_retry = VQ_RNR_RETRY;
	/* not IBV_MIG_MIGRATED, what a QP starts with */
	a->path_mig_state = IBV_MIG_REARM;
	a->rate_limit = VQ_RATE_LIMIT;
	if (mask & IBV_QP_AV) {
		/* the port's own IPv6 GID, both ends: a loopback (RoCE
		 * addresses by GID; InfiniBand reads the GRH as extra) */
		a->ah_attr.port_num = ctx->target->port;
		idx = rc_port_gid(ctx->target->ca, ctx->target->port,
				  RC_GID_IPV6, a->ah_attr.grh.dgid.raw);
		a->ah_attr.is_global = idx >= 0;
		a->ah_attr.grh.sgid_index = idx >= 0 ? idx : 0;
		a->ah_attr.grh.hop_limit = VQ_HOP_LIMIT;
		a->ah_attr.grh.traffic_class = VQ_TRAFFIC_CLASS;
		a->ah_attr.grh.flow_label = VQ_FLOW_LABEL;
	}
}

bool vq_set(struct rc_ctx *ctx, struct ibv_qp *qp, struct ibv_qp_attr *a,
	    int mask, enum ibv_qp_state from, const char *with)
{
	errno = ctx->ops->ibv_modify_qp(qp, a, mask);
	if (!errno)
		return true;
	rc_obs_state(ctx->obs, RC_STATE_BROKEN,
		     "ibv_modify_qp %s to %s%s failed (set-up): %m",
		     vq_state_name(from), vq_state_name(a->qp_state), with);
	return false;
}

/* one step of a walk, through the implementation under test */
static bool step(struct rc_ctx *ctx, struct vl *l, enum ibv_qp_state from,
		 enum ibv_qp_state to)
{
	int mask = IBV_QP_STATE | vq_required(l->qp->qp_type, from, to);
	struct ibv_qp_attr a;

	vq_fill(ctx, &a, mask, to);
	return vq_set(ctx, l->qp, &a, mask, from, "");
}

/*
 * A QP in SQD is draining until its send queue is empty (the IBA's
 * SQD.drained); only a drained QP leaves SQD but for ERR (rxe refuses
 * while it drains).  Wait for it: query until sq_draining is 0.
 */
static bool drained(struct rc_ctx *ctx, struct vl *l)
{
	double deadline = rc_now_ms() + rc_scaled_ms(ctx, 2000);
	struct ibv_qp_init_attr init;
	struct ibv_qp_attr a;

	do {
		if (!vq_query(ctx, l->qp, &a, &init))
			return false;
		if (!a.sq_draining)
			return true;
		usleep(1000);
	} while (rc_now_ms() < deadline);
	rc_obs_state(ctx->obs, RC_STATE_BROKEN,
		     "the QP in SQD still drains an empty send queue (set-up)");
	return false;
}

bool vq_walk(struct rc_ctx *ctx, struct vl *l, enum ibv_qp_state state)
{
	static const enum ibv_qp_state path[] = { IBV_QPS_RESET, IBV_QPS_INIT,
						  IBV_QPS_RTR, IBV_QPS_RTS,
						  IBV_QPS_SQD };
	enum ibv_qp_state last = state;
	size_t i;

	if (!rc_need_call(ctx, (const void *)ctx->ops->ibv_modify_qp,
			  "ibv_modify_qp"))
		return false;
	if (state == IBV_QPS_ERR)
		last = IBV_QPS_INIT;
	for (i = 1; i < ARRAY_SIZE(path) && path[i - 1] != last; i++)
		if (!step(ctx, l, path[i - 1], path[i]))
			return false;
	if (state == IBV_QPS_SQD)
		return drained(ctx, l);
	return state != IBV_QPS_ERR || step(ctx, l, IBV_QPS_INIT, IBV_QPS_ERR);
}

bool vq_query(struct rc_ctx *ctx, struct ibv_qp *qp, struct ibv_qp_attr *a,
	      struct ibv_qp_init_attr *init)
{
	const int all = IBV_QP_STATE | IBV_QP_CUR_STATE |
			IBV_QP_EN_SQD_ASYNC_NOTIFY | IBV_QP_ACCESS_FLAGS |
			IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_QKEY |
			IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_TIMEOUT |
			IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_RQ_PSN |
			IBV_QP_MAX_QP_RD_ATOMIC | IBV_QP_ALT_PATH |
			IBV_QP_MIN_RNR_TIMER | IBV_QP_SQ_PSN |
			IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_PATH_MIG_STATE |
			IBV_QP_CAP | IBV_QP_DEST_QPN;

	if (!rc_need_call(ctx, (const void *)ctx->ops->ibv_query_qp,
			  "ibv_query_qp"))
		return false;
	memset(a, VQ_POISON, sizeof(*a));
	memset(init, VQ_POISON, sizeof(*init));
	errno = ctx->ops->ibv_query_qp(qp, a, all, init);
	if (!errno)
		return true;
	rc_obs_state(ctx->obs, RC_STATE_BROKEN, "ibv_query_qp failed: %m");
	return false;
}

struct diff {
	char buf[RC_REASON_MAX];
	size_t len;
};

static void differs(struct diff *d, const char *field, unsigned long long want,
		    unsigned long long got)
{
	if (want == got || d->len >= sizeof(d->buf) - 1)
		return;
	d->len += snprintf(d->buf + d->len, sizeof(d->buf) - d->len,
			   "%s%s %#llx, set %#llx", d->len ? "; " : "", field,
			   got, want);
	if (d->len > sizeof(d->buf) - 1)
		d->len = sizeof(d->buf) - 1;
}

void vq_check_attrs(struct rc_ctx *ctx, const struct ibv_qp_attr *w,
		    const struct ibv_qp_attr *g, int mask)
{
	struct diff d = { .len = 0 };

	differs(&d, "qp_state", w->qp_state, g->qp_state);
	if (mask & IBV_QP_PKEY_INDEX)
		differs(&d, "pkey_index", w->pkey_index, g->pkey_index);
	if (mask & IBV_QP_PORT)
		differs(&d, "port_num", w->port_num, g->port_num);
	if (mask & IBV_QP_QKEY)
		differs(&d, "qkey", w->qkey, g->qkey);
	if (mask & IBV_QP_ACCESS_FLAGS)
		differs(&d, "qp_access_flags", w->qp_access_flags,
			g->qp_access_flags);
	if (mask & IBV_QP_PATH_MTU)
		differs(&d, "path_mtu", w->path_mtu, g->path_mtu);
	if (mask & IBV_QP_DEST_QPN)
		differs(&d, "dest_qp_num", w->dest_qp_num, g->dest_qp_num);
	if (mask & IBV_QP_RQ_PSN)
		differs(&d, "rq_psn", w->rq_psn, g->rq_psn);
	if (mask & IBV_QP_SQ_PSN)
		differs(&d, "sq_psn", w->sq_psn, g->sq_psn);
	if (mask & IBV_QP_MAX_DEST_RD_ATOMIC)
		differs(&d, "max_dest_rd_atomic", w->max_dest_rd_atomic,
			g->max_dest_rd_atomic);
	if (mask & IBV_QP_MAX_QP_RD_ATOMIC)
		differs(&d, "max_rd_atomic", w->max_rd_atomic,
			g->max_rd_atomic);
	if (mask & IBV_QP_MIN_RNR_TIMER)
		differs(&d, "min_rnr_timer", w->min_rnr_timer,
			g->min_rnr_timer);
	if (mask & IBV_QP_TIMEOUT)
		differs(&d, "timeout", w->timeout, g->timeout);
	if (mask & IBV_QP_RETRY_CNT)
		differs(&d, "retry_cnt", w->retry_cnt, g->retry_cnt);
	if (mask & IBV_QP_RNR_RETRY)
		differs(&d, "rnr_retry", w->rnr_retry, g->rnr_retry);
	if (mask & IBV_QP_PATH_MIG_STATE)
		differs(&d, "path_mig_state", w->path_mig_state,
			g->path_mig_state);
	if (mask & IBV_QP_AV) {
		differs(&d, "ah_attr.is_global", w->ah_attr.is_global,
			g->ah_attr.is_global);
		differs(&d, "ah_attr.port_num", w->ah_attr.port_num,
			g->ah_attr.port_num);
		differs(&d, "ah_attr.grh.sgid_index", w->ah_attr.grh.sgid_index,
			g->ah_attr.grh.sgid_index);
		differs(&d, "ah_attr.grh.traffic_class",
			w->ah_attr.grh.traffic_class,
			g->ah_attr.grh.traffic_class);
		differs(&d, "ah_attr.grh.flow_label", w->ah_attr.grh.flow_label,
			g->ah_attr.grh.flow_label);
		if (memcmp(w->ah_attr.grh.dgid.raw, g->ah_attr.grh.dgid.raw,
			   16))
			differs(&d, "ah_attr.grh.dgid", 1, 0);
		/* set too, to vq_fill's 0: what no implementation may leave
		 * as the caller's buffer had it */
		differs(&d, "ah_attr.dlid", w->ah_attr.dlid, g->ah_attr.dlid);
		differs(&d, "ah_attr.sl", w->ah_attr.sl, g->ah_attr.sl);
		differs(&d, "ah_attr.src_path_bits", w->ah_attr.src_path_bits,
			g->ah_attr.src_path_bits);
		differs(&d, "ah_attr.static_rate", w->ah_attr.static_rate,
			g->ah_attr.static_rate);
	}
	if (d.len)
		rc_obs_violation(ctx->obs, "%s", d.buf);
}

/* every attribute vq_check_attrs compares: the whole record, to see that
 * a failed call changed none */
#define VQ_ALL                                                                 \
	(IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_QKEY | IBV_QP_ACCESS_FLAGS | \
	 IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN | IBV_QP_SQ_PSN |   \
	 IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MAX_QP_RD_ATOMIC |                 \
	 IBV_QP_MIN_RNR_TIMER | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |            \
	 IBV_QP_RNR_RETRY | IBV_QP_PATH_MIG_STATE | IBV_QP_AV)

/* struct ibv_qp's state, which <infiniband/verbs.h> gives the caller */
static void state_field(struct rc_ctx *ctx, const struct ibv_qp *qp,
			enum ibv_qp_state want)
{
	if (qp->state != want)
		rc_obs_violation(ctx->obs, "struct ibv_qp's state %s, not %s",
				 vq_state_name(qp->state), vq_state_name(want));
}

void vq_run_modify(const void *r, struct rc_ctx *ctx)
{
	const struct vq_row *row = r;
	enum ibv_qp_state at = row->cur_sqe ? IBV_QPS_RTS : row->from;
	struct ibv_qp_attr a, before, after;
	struct ibv_qp_init_attr init;
	struct vl l = { .qp_type = row->type };
	int mask, ret;

	if (!rc_need_call(ctx, (const void *)ctx->ops->ibv_modify_qp,
			  "ibv_modify_qp") ||
	    !rc_need_call(ctx, (const void *)ctx->ops->ibv_query_qp,
			  "ibv_query_qp"))
		return;
	if (!vl_up(ctx, &l, VL_QP) || !vq_walk(ctx, &l, at) ||
	    !vq_query(ctx, l.qp, &before, &init))
		goto out;
	mask = row->attrs == VQ_REQUIRED ?
		       vq_required(row->type, row->from, row->to) :
		       vq_entry(row->type, row->to);
	mask = ((mask | IBV_QP_STATE) & ~row->drop) | row->add;
	vq_fill(ctx, &a, mask, row->to);
	if (row->cur_sqe) {
		mask |= IBV_QP_CUR_STATE;
		a.cur_qp_state = IBV_QPS_SQE;
	}
	if (row->decoy_state)
		a.qp_state = IBV_QPS_ERR;
	RC_OBSERVE(ctx, ret = ctx->ops->ibv_modify_qp(l.qp, &a, mask));
	/* before the query, which an implementation may take the state
	 * from too */
	if (row->state_field)
		state_field(ctx, l.qp,
			    !ret && (mask & IBV_QP_STATE) ? row->to : at);
	if (!vq_query(ctx, l.qp, &after, &init))
		goto out;
	if (!ret) {
		/* without IBV_QP_STATE the QP stays where it was */
		if (!(mask & IBV_QP_STATE))
			a.qp_state = at;
		vq_check_attrs(ctx, &a, &after, mask);
	} else {
		/* "none of the attributes will be modified (including the QP
		 * state)" */
		vq_check_attrs(ctx, &before, &after, VQ_ALL);
	}
out:
	vl_down(ctx, &l);
}
