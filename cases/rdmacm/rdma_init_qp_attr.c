// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_init_qp_attr(3): "rdma_init_qp_attr() returns qp attributes of an
 * rdma_cm_id."  "Information about qp attributes and qp attributes mask is
 * returned through the qp_attr and qp_attr_mask parameters."  "returns 0
 * on success, or -1 on error."  Which state's attributes: the one the
 * caller puts in qp_attr->qp_state (the kernel's INIT_QP_ATTR takes it).
 *
 * On the server's id of a connection request:
 * - INIT: 0; the mask has IBV_QP_STATE and IBV_QP_ACCESS_FLAGS, the
 *   state is INIT, and a port in the mask is the id's
 * - RTR (RoCE, no QPs): the destination QP is the client's qp_num,
 *   IBV_QP_DEST_QPN in the mask
 * - a new id, bound to no device: -1 (Linux: no device, no attributes)
 */
#include <string.h>

#include "rdmacm_conn.h"

#define DOC_ATTR                                           \
	"rdma_init_qp_attr() returns qp attributes of an " \
	"rdma_cm_id."
#define DOC_MASK                                                     \
	"Information about qp attributes and qp attributes mask is " \
	"returned through the qp_attr and qp_attr_mask parameters."
#define DOC_LINUX "rdma_init_qp_attr() returns 0 on success, or -1 on error."

struct ia_row;
typedef void ia_check(const struct ia_row *row, struct rc_ctx *ctx,
		      struct rdma_cm_id *id, const struct ibv_qp_attr *a,
		      int mask);

struct ia_row {
	struct rc_case c;
	ia_check *check;
	int state;
	bool no_device;
};

static ia_check init_attrs, rtr_dest_qpn, no_attrs;

#define NEEDS (RC_NEED_DEVICE | RC_NEED_PEER)

static const struct ia_row rows[] = {
	{ .c = { .id = "rdmacm/init_qp_attr/init-on-request",
		 .doc = DOC_MASK,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "qp_state IBV_QPS_INIT in, on the request's new id: "
			 "0; the mask has STATE and ACCESS_FLAGS, the state is "
			 "INIT, a PORT in the mask is id->port_num",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = init_attrs,
	  .state = IBV_QPS_INIT },
	{ .c = { .id = "rdmacm/init_qp_attr/rtr-dest-qpn",
		 .doc = DOC_ATTR,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "qp_state IBV_QPS_RTR: the destination QP number is "
			 "the client's qp_num (no QP), DEST_QPN in the mask",
		 .needs = NEEDS | RC_NEED_ROCE,
		 .contract = { RC_RETURNS(0) } },
	  .check = rtr_dest_qpn,
	  .state = IBV_QPS_RTR },
	{ .c = { .id = "rdmacm/init_qp_attr/no-device",
		 .doc = DOC_LINUX,
		 .basis = RC_BASIS_LINUX,
		 .note = "a new id bound to no device: -1 (ucma.c's "
			 "ucma_init_qp_attr refuses an id without a device)",
		 .needs = NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = no_attrs,
	  .state = IBV_QPS_INIT,
	  .no_device = true },
};

static void init_attrs(const struct ia_row *row, struct rc_ctx *ctx,
		       struct rdma_cm_id *id, const struct ibv_qp_attr *a,
		       int mask)
{
	int want = IBV_QP_STATE | IBV_QP_ACCESS_FLAGS;

	rc_obs_out(ctx->obs, &mask, sizeof(mask));
	if ((mask & want) != want || a->qp_state != IBV_QPS_INIT)
		rc_obs_violation(ctx->obs, "mask 0x%x, qp_state %d", mask,
				 a->qp_state);
	else if ((mask & IBV_QP_PORT) && a->port_num != id->port_num)
		rc_obs_violation(ctx->obs, "port_num %u, the id's is %u",
				 a->port_num, id->port_num);
}

static void rtr_dest_qpn(const struct ia_row *row, struct rc_ctx *ctx,
			 struct rdma_cm_id *id, const struct ibv_qp_attr *a,
			 int mask)
{
	if (!(mask & IBV_QP_DEST_QPN) || a->dest_qp_num != CM_CLIENT_QPN)
		rc_obs_violation(ctx->obs,
				 "dest_qp_num 0x%x (mask 0x%x), "
				 "not 0x%x",
				 a->dest_qp_num, mask, CM_CLIENT_QPN);
}

static void no_attrs(const struct ia_row *row, struct rc_ctx *ctx,
		     struct rdma_cm_id *id, const struct ibv_qp_attr *a,
		     int mask)
{
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct ia_row *row = r;
	struct rdma_conn_param c;
	struct rdma_cm_id *id;
	struct ibv_qp_attr a;
	struct cm_pair p;
	int ret, mask = 0;

	if (!rc_need_call(ctx, ctx->ops->rdma_init_qp_attr,
			  "rdma_init_qp_attr"))
		return;
	cm_client_param(&c, NULL, 0);
	if (!cm_pair_open(ctx, &p, AF_INET, false, ctx->ops, ctx->ops))
		goto out;
	if (!row->no_device && (!cm_listen(ctx, &p) || !cm_resolve(ctx, &p) ||
				!cm_request(ctx, &p, &c, NULL)))
		goto out;
	id = row->no_device ? p.cli.id : p.srv.conn;
	memset(&a, 0, sizeof(a));
	a.qp_state = row->state;
	RC_OBSERVE(ctx, ret = ctx->ops->rdma_init_qp_attr(id, &a, &mask));
	if (!ret)
		row->check(row, ctx, id, &a, mask);
out:
	cm_pair_close(ctx, &p);
}

RC_TABLE_GROUP(group, "rdma_init_qp_attr", RC_CONV_M1_ERRNO, "rdmacm", rows,
	       run);
