// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ref_verbs.h"
#include "objects.h"

/*
 * ibv_wr_post(3): the send ops of struct ibv_qp_ex.  "Posting work
 * requests to the QP is done within the critical region formed by
 * ibv_wr_start() and ibv_wr_complete()/ibv_wr_abort()": ibv_wr_start
 * takes the send queue's lock, ibv_wr_complete and ibv_wr_abort give it
 * back.  Each builder starts a WR of the batch from the QP's wr_id and
 * wr_flags, each setter completes the last one; "No work is executed to
 * the queue until ibv_wr_complete() returns success", so the batch is
 * kept as struct ibv_send_wr and ibv_wr_complete posts it as
 * ibv_post_send does, each WR checked the same way and written by the
 * same provider hook.  "If a failure is detected during operation, for
 * instance due to an invalid argument, then ibv_wr_complete() will
 * return failure and the entire posting will be aborted": a setter with
 * no WR before it, a WR beyond the send queue's max_send_wr, SGEs beyond
 * max_send_sge or inline bytes beyond max_inline_data fail the batch, and
 * so does any WR ibv_post_send would refuse: then none is posted.  (A
 * queue that fills while the batch is written, ENOMEM, leaves the WRs
 * before posted.)  "ibv_wr_abort() will discard all work prepared since
 * ibv_wr_start()".  "Inline setters will copy the send data during the
 * setter and allows the caller to immediately re-use the buffer. This
 * behavior is identical to the IBV_SEND_INLINE flag.": the bytes are
 * copied into the WR's own buffer, which it then names inline.
 */
static struct ref_qp *of_qpx(struct ibv_qp_ex *qpx)
{
	return (struct ref_qp *)qpx;
}

static void batch_fail(struct ref_qp *qp, int err)
{
	if (!qp->stage_err)
		qp->stage_err = err;
}

/* A new WR of @op, or NULL (the batch failed) */
static struct ibv_send_wr *build(struct ibv_qp_ex *qpx, enum ibv_wr_opcode op)
{
	struct ref_qp *qp = of_qpx(qpx);
	struct ref_wr_stage *st;

	if (qp->nstage >= qp->cap.max_send_wr) {
		batch_fail(qp, ENOMEM);
		return NULL;
	}
	st = &qp->stage[qp->nstage++];
	memset(&st->wr, 0, sizeof(st->wr));
	st->wr.wr_id = qpx->wr_id;
	st->wr.send_flags = qpx->wr_flags;
	st->wr.opcode = op;
	/* no SGE until a data setter names them (each sets sg_list) */
	return &st->wr;
}

/* The WR the setters complete, or NULL (none: the batch failed) */
static struct ref_wr_stage *last(struct ibv_qp_ex *qpx)
{
	struct ref_qp *qp = of_qpx(qpx);

	if (!qp->nstage) {
		batch_fail(qp, EINVAL);
		return NULL;
	}
	return &qp->stage[qp->nstage - 1];
}

static void wr_start(struct ibv_qp_ex *qpx)
{
	struct ref_qp *qp = of_qpx(qpx);

	pthread_mutex_lock(&qp->sq_lock);
	qp->nstage = 0;
	qp->stage_err = 0;
}

static int wr_complete(struct ibv_qp_ex *qpx)
{
	struct ref_qp *qp = of_qpx(qpx);
	struct ibv_send_wr *bad;
	uint32_t i;
	int err = qp->stage_err;

	for (i = 0; !err && i < qp->nstage; i++) {
		qp->stage[i].wr.next =
			i + 1 < qp->nstage ? &qp->stage[i + 1].wr : NULL;
		err = ref_check_send(qp, &qp->stage[i].wr);
	}
	if (!err && qp->nstage)
		err = ref_post_send_locked(qp, &qp->stage[0].wr, &bad);
	pthread_mutex_unlock(&qp->sq_lock);
	return err;
}

/* the stage is emptied where the next region starts (wr_start), the one
 * place: discarded, its work is never posted */
static void wr_abort(struct ibv_qp_ex *qpx)
{
	pthread_mutex_unlock(&of_qpx(qpx)->sq_lock);
}

static void wr_send(struct ibv_qp_ex *qpx)
{
	build(qpx, IBV_WR_SEND);
}

static void wr_send_imm(struct ibv_qp_ex *qpx, __be32 imm_data)
{
	struct ibv_send_wr *wr = build(qpx, IBV_WR_SEND_WITH_IMM);

	if (wr)
		wr->imm_data = imm_data;
}

/*
 * Memory window type 2 operations: "Bind a MW type 2 specified by mw,
 * set a new rkey and set its properties by bind_info" is the BIND_MW WR
 * of ibv_post_send(3) (bind_mw.mw, the "Memory window (MW) of type 2 to
 * bind", bind_mw.rkey, "The desired new rkey of the MW"); a MW of
 * another type, or no bind_info, fails the batch (type 1 MWs are bound
 * by ibv_bind_mw(3)).  "Invalidate a MW type 2 which is associated with
 * rkey" is the LOCAL_INV WR of that rkey.
 */
static void wr_bind_mw(struct ibv_qp_ex *qpx, struct ibv_mw *mw, uint32_t rkey,
		       const struct ibv_mw_bind_info *bind_info)
{
	struct ibv_send_wr *wr = build(qpx, IBV_WR_BIND_MW);

	if (!wr)
		return;
	if (!mw || mw->type != IBV_MW_TYPE_2 || !bind_info) {
		batch_fail(of_qpx(qpx), EINVAL);
		return;
	}
	wr->bind_mw.mw = mw;
	wr->bind_mw.rkey = rkey;
	wr->bind_mw.bind_info = *bind_info;
}

/* A WR of @op that invalidates @rkey */
static void invalidating(struct ibv_qp_ex *qpx, enum ibv_wr_opcode op,
			 uint32_t rkey)
{
	struct ibv_send_wr *wr = build(qpx, op);

	if (wr)
		wr->invalidate_rkey = rkey;
}

static void wr_local_inv(struct ibv_qp_ex *qpx, uint32_t invalidate_rkey)
{
	invalidating(qpx, IBV_WR_LOCAL_INV, invalidate_rkey);
}

/* "The data transfer is the same as for ibv_wr_send(), however the
 * remote side will invalidate the MR specified by invalidate_rkey" */
static void wr_send_inv(struct ibv_qp_ex *qpx, uint32_t invalidate_rkey)
{
	invalidating(qpx, IBV_WR_SEND_WITH_INV, invalidate_rkey);
}

static void remote(struct ibv_qp_ex *qpx, enum ibv_wr_opcode op, uint32_t rkey,
		   uint64_t addr, __be32 imm_data)
{
	struct ibv_send_wr *wr = build(qpx, op);

	if (!wr)
		return;
	wr->wr.rdma.rkey = rkey;
	wr->wr.rdma.remote_addr = addr;
	wr->imm_data = imm_data;
}

static void wr_rdma_write(struct ibv_qp_ex *qpx, uint32_t rkey, uint64_t addr)
{
	remote(qpx, IBV_WR_RDMA_WRITE, rkey, addr, 0);
}

static void wr_rdma_write_imm(struct ibv_qp_ex *qpx, uint32_t rkey,
			      uint64_t addr, __be32 imm_data)
{
	remote(qpx, IBV_WR_RDMA_WRITE_WITH_IMM, rkey, addr, imm_data);
}

static void wr_rdma_read(struct ibv_qp_ex *qpx, uint32_t rkey, uint64_t addr)
{
	remote(qpx, IBV_WR_RDMA_READ, rkey, addr, 0);
}

static void atomic(struct ibv_qp_ex *qpx, enum ibv_wr_opcode op, uint32_t rkey,
		   uint64_t addr, uint64_t compare_add, uint64_t swap)
{
	struct ibv_send_wr *wr = build(qpx, op);

	if (!wr)
		return;
	wr->wr.atomic.rkey = rkey;
	wr->wr.atomic.remote_addr = addr;
	wr->wr.atomic.compare_add = compare_add;
	wr->wr.atomic.swap = swap;
}

static void wr_atomic_cmp_swp(struct ibv_qp_ex *qpx, uint32_t rkey,
			      uint64_t addr, uint64_t compare, uint64_t swap)
{
	atomic(qpx, IBV_WR_ATOMIC_CMP_AND_SWP, rkey, addr, compare, swap);
}

static void wr_atomic_fetch_add(struct ibv_qp_ex *qpx, uint32_t rkey,
				uint64_t addr, uint64_t add)
{
	atomic(qpx, IBV_WR_ATOMIC_FETCH_AND_ADD, rkey, addr, add, 0);
}

static void wr_set_sge_list(struct ibv_qp_ex *qpx, size_t num_sge,
			    const struct ibv_sge *sg_list)
{
	struct ref_qp *qp = of_qpx(qpx);
	struct ref_wr_stage *st = last(qpx);

	if (!st)
		return;
	if (num_sge > qp->cap.max_send_sge || (num_sge && !sg_list)) {
		batch_fail(qp, EINVAL);
		return;
	}
	memcpy(st->sge, sg_list, num_sge * sizeof(*sg_list));
	st->wr.sg_list = st->sge;
	st->wr.num_sge = (int)num_sge;
	st->wr.send_flags &= ~IBV_SEND_INLINE;
}

/* "This is equivalent to ibv_wr_set_sge_list() with a single element." */
static void wr_set_sge(struct ibv_qp_ex *qpx, uint32_t lkey, uint64_t addr,
		       uint32_t length)
{
	struct ibv_sge sg = { .addr = addr, .length = length, .lkey = lkey };

	wr_set_sge_list(qpx, 1, &sg);
}

static void wr_set_inline_data_list(struct ibv_qp_ex *qpx, size_t num_buf,
				    const struct ibv_data_buf *buf_list)
{
	struct ref_qp *qp = of_qpx(qpx);
	struct ref_wr_stage *st = last(qpx);
	size_t len = 0, i;

	if (!st)
		return;
	for (i = 0; i < num_buf; i++) {
		if (buf_list[i].length > qp->cap.max_inline_data - len) {
			batch_fail(qp, EINVAL);
			return;
		}
		memcpy(st->inl + len, buf_list[i].addr, buf_list[i].length);
		len += buf_list[i].length;
	}
	st->sge[0] = (struct ibv_sge){ .addr = (uintptr_t)st->inl,
				       .length = (uint32_t)len };
	st->wr.sg_list = st->sge;
	st->wr.num_sge = 1;
	st->wr.send_flags |= IBV_SEND_INLINE;
}

/* "This is equivalent to ibv_wr_set_inline_data_list() with a single
 * element." */
static void wr_set_inline_data(struct ibv_qp_ex *qpx, void *addr, size_t length)
{
	struct ibv_data_buf b = { .addr = addr, .length = length };

	wr_set_inline_data_list(qpx, 1, &b);
}

static void wr_set_ud_addr(struct ibv_qp_ex *qpx, struct ibv_ah *ah,
			   uint32_t remote_qpn, uint32_t remote_qkey)
{
	struct ref_wr_stage *st = last(qpx);

	if (!st)
		return;
	st->wr.wr.ud.ah = ah;
	st->wr.wr.ud.remote_qpn = remote_qpn;
	st->wr.wr.ud.remote_qkey = remote_qkey;
}

int ref_qp_ex_init(struct ref_qp *qp, uint64_t ops)
{
	struct ibv_qp_ex *x = &qp->qpx;
	uint32_t n = qp->cap.max_send_wr, i;
	size_t sge = (size_t)(qp->cap.max_send_sge ? qp->cap.max_send_sge : 1) *
		     sizeof(struct ibv_sge);
	size_t inl = qp->cap.max_inline_data;
	uint8_t *p;

	qp->stage = calloc(n ? n : 1, sizeof(*qp->stage) + sge + inl);
	if (!qp->stage)
		return ENOMEM;
	p = (uint8_t *)(qp->stage + (n ? n : 1));
	for (i = 0; i < n; i++) {
		qp->stage[i].sge = (struct ibv_sge *)(void *)p;
		p += sge;
		qp->stage[i].inl = p;
		p += inl;
	}
	qp->send_ops = ops;
	x->comp_mask = 0;
	x->wr_start = wr_start;
	x->wr_complete = wr_complete;
	x->wr_abort = wr_abort;
	x->wr_set_sge = wr_set_sge;
	x->wr_set_sge_list = wr_set_sge_list;
	x->wr_set_inline_data = wr_set_inline_data;
	x->wr_set_inline_data_list = wr_set_inline_data_list;
	x->wr_set_ud_addr = wr_set_ud_addr;
	/* the builders of the operations asked for, and no other */
	if (ops & IBV_QP_EX_WITH_SEND)
		x->wr_send = wr_send;
	if (ops & IBV_QP_EX_WITH_SEND_WITH_IMM)
		x->wr_send_imm = wr_send_imm;
	if (ops & IBV_QP_EX_WITH_RDMA_WRITE)
		x->wr_rdma_write = wr_rdma_write;
	if (ops & IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM)
		x->wr_rdma_write_imm = wr_rdma_write_imm;
	if (ops & IBV_QP_EX_WITH_RDMA_READ)
		x->wr_rdma_read = wr_rdma_read;
	if (ops & IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP)
		x->wr_atomic_cmp_swp = wr_atomic_cmp_swp;
	if (ops & IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD)
		x->wr_atomic_fetch_add = wr_atomic_fetch_add;
	if (ops & IBV_QP_EX_WITH_BIND_MW)
		x->wr_bind_mw = wr_bind_mw;
	if (ops & IBV_QP_EX_WITH_LOCAL_INV)
		x->wr_local_inv = wr_local_inv;
	if (ops & IBV_QP_EX_WITH_SEND_WITH_INV)
		x->wr_send_inv = wr_send_inv;
	return 0;
}

void ref_qp_ex_free(struct ref_qp *qp)
{
	free(qp->stage);
	qp->stage = NULL;
}
