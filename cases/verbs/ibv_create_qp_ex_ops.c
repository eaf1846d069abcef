// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_create_qp_ex(3) with IBV_QP_INIT_ATTR_SEND_OPS_FLAGS, against the
 * table of ibv_wr_post(3): "The send_ops_flags should be set to the OR of
 * the work request types that will be posted to the QP.  If the QP does
 * not support all the requested work request types then QP creation will
 * fail."  The table's "QP Type Supported" column says which types take
 * each operation; an operation it does not give a type is one that QP
 * does not support, whatever the device.
 *
 * The whole domain, one row per QP type: each IBV_QP_EX_WITH_ flag of the
 * table's eleven operations that its column does not give the type, alone
 * beside IBV_QP_EX_WITH_SEND: NULL for each (the row returns how many
 * were refused).
 * - rc-outside-the-table: TSO (UD and RAW_PACKET only): 1
 * - uc-outside-the-table: RDMA Read, both atomics, TSO: 4
 * - ud-outside-the-table: both RDMA Writes, RDMA Read, both atomics,
 *   LOCAL_INV, BIND_MW, SEND_WITH_INV: 8
 */
#include <infiniband/verbs.h>

#include "verbs_ctl.h"

#define DOC_FAIL                                                           \
	"If the QP does not support all the requested work request types " \
	"then QP creation will fail."

/* the table's operations: the flags of ibv_wr_post(3)'s eleven rows */
#define TABLE_OPS                                                         \
	(IBV_QP_EX_WITH_RDMA_WRITE | IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM | \
	 IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_SEND_WITH_IMM |             \
	 IBV_QP_EX_WITH_RDMA_READ | IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP |   \
	 IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD | IBV_QP_EX_WITH_LOCAL_INV | \
	 IBV_QP_EX_WITH_BIND_MW | IBV_QP_EX_WITH_SEND_WITH_INV |          \
	 IBV_QP_EX_WITH_TSO)

/* what the column "QP Type Supported" gives each type */
static uint64_t column(enum ibv_qp_type type)
{
	const uint64_t uc = IBV_QP_EX_WITH_RDMA_WRITE |
			    IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM |
			    IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_SEND_WITH_IMM |
			    IBV_QP_EX_WITH_LOCAL_INV | IBV_QP_EX_WITH_BIND_MW |
			    IBV_QP_EX_WITH_SEND_WITH_INV;

	switch (type) {
	case IBV_QPT_RC:
		return uc | IBV_QP_EX_WITH_RDMA_READ |
		       IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP |
		       IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD;
	case IBV_QPT_UC:
		return uc;
	case IBV_QPT_UD:
		return IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_SEND_WITH_IMM |
		       IBV_QP_EX_WITH_TSO;
	default:
		return 0;
	}
}

static vc_check outside;

#define ROW(t, name, n, needs_)                                                  \
	{                                                                        \
		.c = { .id = "verbs/create_qp_ex/" name "-outside-the-table",    \
		       .doc = DOC_FAIL,                                          \
		       .basis = RC_BASIS_DOCUMENTED,                             \
		       .note = "each operation ibv_wr_post(3)'s table does not " \
			       "give " #t                                        \
			       ", beside IBV_QP_EX_WITH_SEND: NULL; "            \
			       "returns how many of the " #n " were refused",    \
		       .needs = needs_,                                          \
		       .contract = { RC_RETURNS(n) } },                          \
		.check = outside, .rung = VL_CQ, .arg = IBV_QPT_##t              \
	}

static const struct vc_row rows[] = {
	ROW(RC, "rc", 1, VC_NEEDS),
	ROW(UC, "uc", 4, VC_NEEDS | RC_NEED_UC),
	ROW(UD, "ud", 8, VC_NEEDS | RC_NEED_UD),
};

/* How many of the flags outside @type's column a QP is refused with; a QP
 * made with one is a violation that names it */
static int each_outside(struct rc_ctx *ctx, struct vl *l, enum ibv_qp_type type)
{
	uint64_t outside = TABLE_OPS & ~column(type);
	int refusals = 0, bit;

	for (bit = 0; bit < 64; bit++) {
		struct ibv_qp_init_attr_ex a = {
			.send_cq = l->cq,
			.recv_cq = l->cq,
			.cap = { .max_send_wr = 2,
				 .max_recv_wr = 2,
				 .max_send_sge = 1,
				 .max_recv_sge = 1 },
			.qp_type = type,
			.comp_mask = IBV_QP_INIT_ATTR_PD |
				     IBV_QP_INIT_ATTR_SEND_OPS_FLAGS,
			.pd = l->pd,
		};
		struct ibv_qp *qp;

		if (!(outside & 1ull << bit))
			continue;
		a.send_ops_flags = IBV_QP_EX_WITH_SEND | 1ull << bit;
		qp = ctx->ops->ibv_create_qp_ex(l->ctx, &a);
		if (!qp) {
			refusals++;
			continue;
		}
		rc_obs_violation(ctx->obs,
				 "send_ops_flags 0x%llx: a QP was made",
				 (unsigned long long)a.send_ops_flags);
		ctx->ops->ibv_destroy_qp(qp);
	}
	return refusals;
}

static void outside(const struct vc_row *row, struct rc_ctx *ctx, struct vl *l)
{
	RC_OBSERVE(ctx, each_outside(ctx, l, row->arg));
}

VC_GROUP(ops, ibv_create_qp_ex, RC_CONV_NULL_ERRNO, rows);
