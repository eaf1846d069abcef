/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The rungs a verbs control-path row stands on, each made by the
 * implementation under test (ctx->ops), so that each side stands on
 * objects of its own: the device list, a context on the target device, a
 * PD, a completion channel and a CQ, a QP, an SRQ.  A row climbs to the
 * rung it needs (vl_up) and comes down in reverse order (vl_down), as
 * pyverbs' BaseResources ladder does.  A rung that cannot be made marks
 * the row BROKEN, naming the call: set-up is never the call under test.
 */
#ifndef RDMACONF_CASES_VERBS_LADDER_H
#define RDMACONF_CASES_VERBS_LADDER_H

#include <infiniband/verbs.h>

#include "../../harness/rdmaconf.h"

enum vl_rung {
	VL_LIST, /* the device list, and the target device in it */
	VL_CONTEXT, /* ibv_open_device on it */
	VL_PD, /* ibv_alloc_pd */
	VL_CQ, /* a completion channel, and a CQ on it */
	VL_QP, /* a QP of vl.qp_type on the CQ, in RESET */
	VL_SRQ, /* an SRQ (beside the QP, not under it) */
};

/* the sizes asked for, unless a row asks for others */
#define VL_CQE 16
#define VL_WR 8
#define VL_SGE 1

struct vl {
	struct ibv_device **list;
	int ndev;
	struct ibv_device *dev; /* the target device, in list */
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_comp_channel *ch;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	struct ibv_srq *srq;
	enum ibv_qp_type qp_type; /* what VL_QP creates (default RC) */
	int port;
	enum vl_rung top; /* the highest rung made */
	bool up; /* any rung made */
};

/*
 * Climb to @top on the target device; false (the row BROKEN or ABSENT
 * with the cause) when a rung cannot be made.  @l's qp_type is read.
 */
bool vl_up(struct rc_ctx *ctx, struct vl *l, enum vl_rung top);
/* Everything made, in reverse order; what the row destroyed itself it
 * sets to NULL first. */
void vl_down(struct rc_ctx *ctx, struct vl *l);
/* The target device in @list, or NULL */
struct ibv_device *vl_target(struct rc_ctx *ctx, struct ibv_device **list);
/*
 * Move @qp to INIT, RTR and RTS as far as @state, with the attributes
 * ibv_modify_qp(3)'s tables require for its type, connected to @remote_qpn
 * (itself for a loopback) on the target port; false and the failing
 * transition in @why when the implementation refuses.  InfiniBand and
 * RoCE: an iWARP QP is connected through rdma_cm.
 */
bool vl_qp_to(struct rc_ctx *ctx, struct ibv_qp *qp, enum ibv_qp_state state,
	      uint32_t remote_qpn, const char **why);

#endif
