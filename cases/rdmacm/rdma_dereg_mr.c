// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_dereg_mr(3), inline in <rdma/rdma_verbs.h> (the system side is
 * the header's code, harness/impl.c): "Deregisters a memory buffer that
 * had been registered for RDMA or message operations."  "Returns 0 on
 * success, or -1 on error."
 *
 * - an MR of rdma_reg_msgs on the client's id (a QP, route resolved): 0
 * - where it lands, on a connection of the pair (rdmacm_data.h): the
 *   client's buffer of rdma_reg_msgs deregistered, a send from it with
 *   its lkey fails at the post or completes in error, and no byte of it
 *   reaches the server's receive
 * - the server's buffer of rdma_reg_read deregistered, the client's RDMA
 *   read of it with its rkey completes in error and moves no byte
 * - NULL: -1 EINVAL
 */
#include <stdlib.h>
#include <string.h>

#include "rdmacm_data.h"

#define DOC_DEREG                                                           \
	"Deregisters a memory buffer that had been registered for RDMA or " \
	"message operations."
#define DOC_RETURN "Returns 0 on success, or -1 on error."

enum dm_kind { DM_RETURNS, DM_LKEY, DM_RKEY, DM_NULL };

struct dm_row {
	struct rc_case c;
	enum dm_kind kind;
};

#define NEEDS (RC_NEED_DEVICE | RC_NEED_PEER)
#define LEN 180

static const struct dm_row rows[] = {
	{ .c = { .id = "rdmacm/dereg_mr/after-reg-msgs",
		 .doc = DOC_RETURN,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "an MR of rdma_reg_msgs on the client's id, its QP "
			 "made on the resolved route: 0",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .kind = DM_RETURNS },
	{ .c = { .id = "rdmacm/dereg_mr/lkey-gone",
		 .doc = DOC_DEREG,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the client's buffer of rdma_reg_msgs (180 distinct "
			 "bytes) deregistered: a send from it with the MR's "
			 "lkey fails at the post or completes in error, and "
			 "the server's posted receive gets none of its bytes "
			 "(a deregistered buffer is no longer registered)",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .kind = DM_LKEY },
	{ .c = { .id = "rdmacm/dereg_mr/rkey-gone",
		 .doc = DOC_DEREG,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the server's buffer of rdma_reg_read (180 distinct "
			 "bytes) deregistered: the client's RDMA read of it "
			 "with the MR's rkey completes in error and the "
			 "client's buffer stays zero",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .kind = DM_RKEY },
	{ .c = { .id = "rdmacm/dereg_mr/null",
		 .doc = DOC_RETURN,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "NULL, no reference to a registered memory buffer "
			 "(ARGUMENTS: mr \"A reference to a registered memory "
			 "buffer.\"): -1 and EINVAL",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_FAILS(EINVAL) } },
	  .kind = DM_NULL },
};

static void run_returns(struct rc_ctx *ctx)
{
	uint8_t *buf = calloc(1, LEN);
	struct ibv_mr *mr;
	struct cm_pair p;
	int ret;

	if (!buf) {
		cm_broken(ctx, "calloc");
		return;
	}
	if (!cm_pair_open(ctx, &p, AF_INET, true, ctx->ops, ctx->ops) ||
	    !cm_listen(ctx, &p) || !cm_resolve(ctx, &p))
		goto out;
	mr = ctx->ops->rdma_reg_msgs(p.cli.id, buf, LEN);
	if (!mr) {
		cm_broken(ctx, "rdma_reg_msgs");
		goto out;
	}
	RC_OBSERVE(ctx, ret = ctx->ops->rdma_dereg_mr(mr));
	(void)ret;
out:
	cm_pair_close(ctx, &p);
	free(buf);
}

/* @wr posted and completed: false when it failed at the post or its
 * completion is an error, as a deregistered key must make it; a
 * violation named @who when it succeeded */
static void must_fail(struct rc_ctx *ctx, struct ibv_qp *qp,
		      struct ibv_send_wr *wr, const char *who)
{
	struct ibv_send_wr *bad;
	struct ibv_wc wc;

	if (ctx->ops->ibv_post_send(qp, wr, &bad))
		return;
	if (!cd_poll(ctx, qp->send_cq, who, &wc))
		return;
	if (wc.status == IBV_WC_SUCCESS)
		rc_obs_violation(ctx->obs,
				 "%s completed with success through the "
				 "deregistered MR",
				 who);
}

static void run_keys(const struct dm_row *row, struct rc_ctx *ctx)
{
	uint8_t pat[LEN], zero[LEN] = { 0 }, *buf = NULL;
	struct ibv_send_wr wr = { .wr_id = 0x93,
				  .num_sge = 1,
				  .send_flags = IBV_SEND_SIGNALED };
	struct ibv_sge sge = { .length = LEN };
	struct ibv_mr *mr;
	bool lkey = row->kind == DM_LKEY;
	struct cd d;
	int ret;

	if (!cd_up(ctx, &d, true))
		goto out;
	buf = calloc(1, LEN);
	if (!buf) {
		cm_broken(ctx, "calloc");
		goto out;
	}
	cm_pattern(pat, LEN, lkey ? 0x51 : 0x52);
	memcpy(buf, pat, LEN);
	mr = lkey ? ctx->ops->rdma_reg_msgs(d.cli, buf, LEN) :
		    ctx->ops->rdma_reg_read(d.srv, buf, LEN);
	if (!mr) {
		cm_broken(ctx, "the registration");
		goto out;
	}
	sge.addr = lkey ? (uintptr_t)buf : (uintptr_t)d.cbuf;
	sge.lkey = lkey ? mr->lkey : d.cmr->lkey;
	wr.sg_list = &sge;
	if (lkey) {
		wr.opcode = IBV_WR_SEND;
	} else {
		wr.opcode = IBV_WR_RDMA_READ;
		wr.wr.rdma.remote_addr = (uintptr_t)buf;
		wr.wr.rdma.rkey = mr->rkey;
	}
	if (lkey && !cd_srv_recv(ctx, &d, 0x94, 0, LEN))
		goto out;
	RC_OBSERVE(ctx, ret = ctx->ops->rdma_dereg_mr(mr));
	if (ret)
		goto out;
	must_fail(ctx, d.cli->qp, &wr, lkey ? "send" : "read");
	if (lkey)
		cd_same(ctx, "received", d.sbuf, zero, LEN);
	else
		cd_same(ctx, "read", d.cbuf, zero, LEN);
out:
	cd_down(ctx, &d);
	free(buf);
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct dm_row *row = r;
	int ret;

	if (!rc_need_call(ctx, ctx->ops->rdma_dereg_mr, "rdma_dereg_mr") ||
	    !rc_need_call(ctx, ctx->ops->rdma_reg_msgs, "rdma_reg_msgs"))
		return;
	switch (row->kind) {
	case DM_RETURNS:
		run_returns(ctx);
		break;
	case DM_NULL:
		RC_OBSERVE(ctx, ret = ctx->ops->rdma_dereg_mr(NULL));
		(void)ret;
		break;
	default:
		run_keys(row, ctx);
		break;
	}
}

RC_TABLE_GROUP(group, "rdma_dereg_mr", RC_CONV_M1_ERRNO, "rdmacm", rows, run);
