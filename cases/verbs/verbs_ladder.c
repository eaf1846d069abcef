// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <string.h>

#include "verbs_ladder.h"
#include "../../harness/device.h"

/* the call every rung is made with, by the implementation under test */
#define NEED(ctx, call) rc_need_call(ctx, (const void *)(ctx)->ops->call, #call)

struct ibv_device *vl_target(struct rc_ctx *ctx, struct ibv_device **list)
{
	const char *name;
	int i;

	for (i = 0; list && list[i]; i++) {
		name = ctx->ops->ibv_get_device_name(list[i]);
		if (name && !strcmp(name, ctx->target->ca))
			return list[i];
	}
	return NULL;
}

static bool broken(struct rc_ctx *ctx, const char *step)
{
	rc_obs_state(ctx->obs, RC_STATE_BROKEN, "%s failed (set-up): %m", step);
	return false;
}

static bool climb(struct rc_ctx *ctx, struct vl *l, enum vl_rung rung)
{
	const struct rc_ops *ops = ctx->ops;
	struct ibv_qp_init_attr qa = {
		.qp_type = l->qp_type ? l->qp_type : IBV_QPT_RC,
		.cap = { .max_send_wr = VL_WR,
			 .max_recv_wr = VL_WR,
			 .max_send_sge = VL_SGE,
			 .max_recv_sge = VL_SGE },
	};
	struct ibv_srq_init_attr sa = {
		.attr = { .max_wr = VL_WR, .max_sge = VL_SGE },
	};

	switch (rung) {
	case VL_LIST:
		if (!NEED(ctx, ibv_get_device_list) ||
		    !NEED(ctx, ibv_free_device_list) ||
		    !NEED(ctx, ibv_get_device_name))
			return false;
		l->list = ops->ibv_get_device_list(&l->ndev);
		if (!l->list)
			return broken(ctx, "ibv_get_device_list");
		l->dev = vl_target(ctx, l->list);
		if (!l->dev) {
			rc_obs_state(ctx->obs, RC_STATE_BROKEN,
				     "the target "
				     "device %s is not in %s's device list",
				     ctx->target->ca, ops->name);
			return false;
		}
		return true;
	case VL_CONTEXT:
		if (!NEED(ctx, ibv_open_device) || !NEED(ctx, ibv_close_device))
			return false;
		l->ctx = ops->ibv_open_device(l->dev);
		return l->ctx || broken(ctx, "ibv_open_device");
	case VL_PD:
		if (!NEED(ctx, ibv_alloc_pd) || !NEED(ctx, ibv_dealloc_pd))
			return false;
		l->pd = ops->ibv_alloc_pd(l->ctx);
		return l->pd || broken(ctx, "ibv_alloc_pd");
	case VL_CQ:
		if (!NEED(ctx, ibv_create_comp_channel) ||
		    !NEED(ctx, ibv_destroy_comp_channel) ||
		    !NEED(ctx, ibv_create_cq) || !NEED(ctx, ibv_destroy_cq))
			return false;
		l->ch = ops->ibv_create_comp_channel(l->ctx);
		if (!l->ch)
			return broken(ctx, "ibv_create_comp_channel");
		l->cq = ops->ibv_create_cq(l->ctx, VL_CQE, NULL, l->ch, 0);
		return l->cq || broken(ctx, "ibv_create_cq");
	case VL_QP:
		if (!NEED(ctx, ibv_create_qp) || !NEED(ctx, ibv_destroy_qp))
			return false;
		qa.send_cq = qa.recv_cq = l->cq;
		l->qp = ops->ibv_create_qp(l->pd, &qa);
		return l->qp || broken(ctx, "ibv_create_qp");
	case VL_SRQ:
		if (!NEED(ctx, ibv_create_srq) || !NEED(ctx, ibv_destroy_srq))
			return false;
		l->srq = ops->ibv_create_srq(l->pd, &sa);
		return l->srq || broken(ctx, "ibv_create_srq");
	}
	return false;
}

bool vl_up(struct rc_ctx *ctx, struct vl *l, enum vl_rung top)
{
	enum vl_rung r;

	l->port = ctx->target->port;
	for (r = VL_LIST; r <= top; r++) {
		/* an SRQ stands beside the QP: a row asks for one or both */
		if (r == VL_QP && top == VL_SRQ && !l->qp_type)
			continue;
		if (!climb(ctx, l, r))
			return false;
		l->top = r;
		l->up = true;
	}
	return true;
}

void vl_down(struct rc_ctx *ctx, struct vl *l)
{
	const struct rc_ops *ops = ctx->ops;

	if (!l->up)
		return;
	if (l->srq)
		ops->ibv_destroy_srq(l->srq);
	if (l->qp)
		ops->ibv_destroy_qp(l->qp);
	if (l->cq)
		ops->ibv_destroy_cq(l->cq);
	if (l->ch)
		ops->ibv_destroy_comp_channel(l->ch);
	if (l->pd)
		ops->ibv_dealloc_pd(l->pd);
	if (l->ctx)
		ops->ibv_close_device(l->ctx);
	if (l->list)
		ops->ibv_free_device_list(l->list);
	memset(l, 0, sizeof(*l));
}

bool vl_qp_to(struct rc_ctx *ctx, struct ibv_qp *qp, enum ibv_qp_state state,
	      uint32_t remote_qpn, const char **why)
{
	const struct rc_ops *ops = ctx->ops;
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT,
				 .port_num = ctx->target->port,
				 .qkey = 0x11111111 };
	int mask = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT;
	bool connected = qp->qp_type == IBV_QPT_RC || qp->qp_type == IBV_QPT_UC;
	int idx;

	/* ibv_modify_qp(3)'s tables: RESET to INIT */
	mask |= connected ? IBV_QP_ACCESS_FLAGS : IBV_QP_QKEY;
	*why = "RESET to INIT";
	if (ops->ibv_modify_qp(qp, &a, mask))
		return false;
	if (state == IBV_QPS_INIT)
		return true;
	/* INIT to RTR */
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	mask = IBV_QP_STATE;
	if (connected) {
		a.path_mtu = IBV_MTU_1024;
		a.dest_qp_num = remote_qpn;
		a.rq_psn = 0;
		a.ah_attr.port_num = ctx->target->port;
		/* the port's own IPv6 GID, both ends: a loopback (RoCE
		 * addresses by GID; InfiniBand reads the GRH as extra) */
		idx = rc_port_gid(ctx->target->ca, ctx->target->port,
				  RC_GID_IPV6, a.ah_attr.grh.dgid.raw);
		a.ah_attr.is_global = idx >= 0;
		a.ah_attr.grh.hop_limit = 1;
		a.ah_attr.grh.sgid_index = idx >= 0 ? idx : 0;
		mask |= IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
			IBV_QP_RQ_PSN;
		if (qp->qp_type == IBV_QPT_RC) {
			a.max_dest_rd_atomic = 1;
			a.min_rnr_timer = 1;
			mask |= IBV_QP_MAX_DEST_RD_ATOMIC |
				IBV_QP_MIN_RNR_TIMER;
		}
	}
	*why = "INIT to RTR";
	if (ops->ibv_modify_qp(qp, &a, mask))
		return false;
	if (state == IBV_QPS_RTR)
		return true;
	/* RTR to RTS */
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.sq_psn = 0;
	mask = IBV_QP_STATE | IBV_QP_SQ_PSN;
	if (qp->qp_type == IBV_QPT_RC) {
		a.timeout = 1;
		a.retry_cnt = 1;
		a.rnr_retry = 1;
		a.max_rd_atomic = 1;
		mask |= IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
			IBV_QP_MAX_QP_RD_ATOMIC;
	}
	*why = "RTR to RTS";
	return !ops->ibv_modify_qp(qp, &a, mask);
}
