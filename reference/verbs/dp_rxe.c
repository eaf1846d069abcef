// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_rxe's data path, from <rdma/rdma_user_rxe.h>.
 *
 * Each queue the kernel maps is a struct rxe_queue_buf: a header with
 * the slot size (1 << log2_elem_size) and index_mask, the producer and
 * consumer indices in cache lines of their own, and the slots after
 * them.  Indices run from 0 to index_mask and wrap: the queue is empty
 * when they are equal and full when the producer is one behind the
 * consumer, so a queue of 2^n slots holds 2^n - 1 entries.  Each side
 * writes only its own index, and publishes it with a release store after
 * the slot is written; it reads the other's with an acquire load before
 * it touches a slot the other gave it.
 *
 * The process produces on the send and receive queues (a struct
 * rxe_send_wqe or rxe_recv_wqe in each slot, their SGEs or inline bytes
 * in the rest of it) and consumes the CQ (a struct ib_uverbs_wc in each
 * slot).  The kernel takes new receive WQEs when a message arrives; new
 * send WQEs it processes when told, by IB_USER_VERBS_CMD_POST_SEND with
 * no WRs (rxe_post_send of a user QP runs its requester).  A UD WQE
 * names its AH by the ah_num that rxe_create_ah returned.
 *
 * What the kernel reads of a send WQE: wr (with wr_id, opcode, flags,
 * the immediate and the opcode's part), dma (length, resid, num_sge and
 * the SGEs or inline bytes), iova (where a RDMA or atomic operation
 * starts remotely), ssn, and state and status, which must say "posted"
 * and "success" (both 0).  The rest (mask, PSNs) it fills in itself.
 */
#include <errno.h>
#include <string.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/rdma_user_rxe.h>

#include "dp_rxe.h"

BUILD_ASSERT(sizeof(struct rxe_sge) == sizeof(struct ibv_sge));
BUILD_ASSERT(sizeof(struct ib_uverbs_wc) == 48);
BUILD_ASSERT(sizeof(struct rxe_create_ah_resp) == 8);
BUILD_ASSERT(offsetof(struct rxe_send_wqe, dma) == 184);
BUILD_ASSERT(offsetof(struct rxe_recv_wqe, dma) == 16);
BUILD_ASSERT(offsetof(struct rxe_send_wqe, dma.sge) == 208);
/* libibverbs' opcodes are the uverbs ABI's, which rxe reads */
BUILD_ASSERT_SAME(IBV_WR_RDMA_WRITE, IB_UVERBS_WR_RDMA_WRITE);
BUILD_ASSERT_SAME(IBV_WR_RDMA_WRITE_WITH_IMM, IB_UVERBS_WR_RDMA_WRITE_WITH_IMM);
BUILD_ASSERT_SAME(IBV_WR_SEND, IB_UVERBS_WR_SEND);
BUILD_ASSERT_SAME(IBV_WR_SEND_WITH_IMM, IB_UVERBS_WR_SEND_WITH_IMM);
BUILD_ASSERT_SAME(IBV_WR_RDMA_READ, IB_UVERBS_WR_RDMA_READ);
BUILD_ASSERT_SAME(IBV_WR_ATOMIC_CMP_AND_SWP, IB_UVERBS_WR_ATOMIC_CMP_AND_SWP);
BUILD_ASSERT_SAME(IBV_WR_ATOMIC_FETCH_AND_ADD,
		  IB_UVERBS_WR_ATOMIC_FETCH_AND_ADD);
BUILD_ASSERT_SAME(IBV_WR_LOCAL_INV, IB_UVERBS_WR_LOCAL_INV);
BUILD_ASSERT_SAME(IBV_WR_BIND_MW, IB_UVERBS_WR_BIND_MW);
BUILD_ASSERT_SAME(IBV_WR_SEND_WITH_INV, IB_UVERBS_WR_SEND_WITH_INV);
BUILD_ASSERT_SAME(IBV_WC_SEND, IB_UVERBS_WC_SEND);
BUILD_ASSERT_SAME(IBV_WC_RDMA_WRITE, IB_UVERBS_WC_RDMA_WRITE);
BUILD_ASSERT_SAME(IBV_WC_RDMA_READ, IB_UVERBS_WC_RDMA_READ);
BUILD_ASSERT_SAME(IBV_WC_COMP_SWAP, IB_UVERBS_WC_COMP_SWAP);
BUILD_ASSERT_SAME(IBV_WC_FETCH_ADD, IB_UVERBS_WC_FETCH_ADD);
BUILD_ASSERT_SAME(IBV_WC_BIND_MW, IB_UVERBS_WC_BIND_MW);
BUILD_ASSERT_SAME(IBV_WC_LOCAL_INV, IB_UVERBS_WC_LOCAL_INV);
BUILD_ASSERT_SAME(IBV_WC_TSO, IB_UVERBS_WC_TSO);
/*
 * The send flags rxe reads and the receive opcodes it writes are the
 * kernel's enum ib_send_flags and ib_wc_opcode (include/rdma/ib_verbs.h),
 * which the uapi does not spell: FENCE 1, SIGNALED 2, SOLICITED 4,
 * INLINE 8, IP_CSUM 16; RECV 128, RECV_RDMA_WITH_IMM 129, as libibverbs'.
 */
BUILD_ASSERT(IBV_SEND_FENCE == 1 && IBV_SEND_SIGNALED == 2 &&
	     IBV_SEND_SOLICITED == 4 && IBV_SEND_INLINE == 8 &&
	     IBV_SEND_IP_CSUM == 16);
BUILD_ASSERT(IBV_WC_RECV == 128 && IBV_WC_RECV_RDMA_WITH_IMM == 129);
/* a bind's access flags, the kernel's enum ib_access_flags */
BUILD_ASSERT(IBV_ACCESS_LOCAL_WRITE == 1 && IBV_ACCESS_REMOTE_WRITE == 2 &&
	     IBV_ACCESS_REMOTE_READ == 4 && IBV_ACCESS_REMOTE_ATOMIC == 8 &&
	     IBV_ACCESS_MW_BIND == 16 && IBV_ACCESS_ZERO_BASED == 32);

/*
 * The completion flags a user CQE carries are the kernel's enum
 * ib_wc_flags, which ib_uverbs_poll_cq also copies out unchanged
 * (include/rdma/ib_verbs.h): GRH 1, WITH_IMM 2, WITH_INVALIDATE 4,
 * IP_CSUM_OK 8.  libibverbs numbers the last two the other way round.
 */
#define K_WC_GRH (1u << 0)
#define K_WC_WITH_IMM (1u << 1)
#define K_WC_WITH_INVALIDATE (1u << 2)
#define K_WC_IP_CSUM_OK (1u << 3)

static void *slot(struct rxe_queue_buf *b, uint32_t i)
{
	return b->data + ((size_t)(i & b->index_mask) << b->log2_elem_size);
}

static size_t slot_size(const struct rxe_queue_buf *b)
{
	return (size_t)1 << b->log2_elem_size;
}

/* The producer's next slot, or NULL when the queue is full. */
static void *produce_begin(struct rxe_queue_buf *b)
{
	uint32_t prod = b->producer_index;
	uint32_t cons = __atomic_load_n(&b->consumer_index, __ATOMIC_ACQUIRE);

	if (((prod + 1 - cons) & b->index_mask) == 0)
		return NULL;
	return slot(b, prod);
}

static void produce_end(struct rxe_queue_buf *b)
{
	__atomic_store_n(&b->producer_index,
			 (b->producer_index + 1) & b->index_mask,
			 __ATOMIC_RELEASE);
}

/* The SGEs of a WR into @dma, which has @room bytes for them. */
static int put_sges(struct rxe_dma_info *dma, size_t room,
		    const struct ibv_sge *sg, int n)
{
	uint32_t len = 0;
	int i;

	if ((size_t)n * sizeof(struct rxe_sge) > room)
		return EINVAL;
	for (i = 0; i < n; i++) {
		dma->sge[i].addr = sg[i].addr;
		dma->sge[i].length = sg[i].length;
		dma->sge[i].lkey = sg[i].lkey;
		len += sg[i].length;
	}
	dma->num_sge = n;
	dma->length = len;
	dma->resid = len;
	return 0;
}

/* IBV_SEND_INLINE: the bytes the SGEs name, copied into the WQE. */
static int put_inline(struct rxe_dma_info *dma, size_t room,
		      const struct ibv_sge *sg, int n)
{
	uint32_t len = 0;
	int i;

	for (i = 0; i < n; i++) {
		if (sg[i].length > room - len)
			return EINVAL;
		memcpy(dma->inline_data + len, (void *)(uintptr_t)sg[i].addr,
		       sg[i].length);
		len += sg[i].length;
	}
	dma->length = len;
	dma->resid = len;
	return 0;
}

static void put_opcode_part(struct rxe_send_wqe *wqe, struct ref_qp *qp,
			    const struct ibv_send_wr *wr)
{
	switch (wr->opcode) {
	case IBV_WR_RDMA_WRITE:
	case IBV_WR_RDMA_WRITE_WITH_IMM:
	case IBV_WR_RDMA_READ:
		wqe->wr.wr.rdma.remote_addr = wr->wr.rdma.remote_addr;
		wqe->wr.wr.rdma.rkey = wr->wr.rdma.rkey;
		wqe->iova = wr->wr.rdma.remote_addr;
		break;
	case IBV_WR_ATOMIC_CMP_AND_SWP:
	case IBV_WR_ATOMIC_FETCH_AND_ADD:
		wqe->wr.wr.atomic.remote_addr = wr->wr.atomic.remote_addr;
		wqe->wr.wr.atomic.compare_add = wr->wr.atomic.compare_add;
		wqe->wr.wr.atomic.swap = wr->wr.atomic.swap;
		wqe->wr.wr.atomic.rkey = wr->wr.atomic.rkey;
		wqe->iova = wr->wr.atomic.remote_addr;
		break;
	case IBV_WR_BIND_MW:
		/* the MW by its current rkey, the one it gets, and the
		 * range and access of the MR it is bound to; the access
		 * flags are the kernel's enum ib_access_flags, as
		 * libibverbs' */
		wqe->wr.wr.mw.addr = wr->bind_mw.bind_info.addr;
		wqe->wr.wr.mw.length = wr->bind_mw.bind_info.length;
		wqe->wr.wr.mw.mr_lkey = wr->bind_mw.bind_info.mr ?
						wr->bind_mw.bind_info.mr->lkey :
						0;
		wqe->wr.wr.mw.mw_rkey = wr->bind_mw.mw->rkey;
		wqe->wr.wr.mw.rkey = wr->bind_mw.rkey;
		wqe->wr.wr.mw.access = wr->bind_mw.bind_info.mw_access_flags;
		break;
	default:
		break;
	}
	if (qp->qp.qp_type == IBV_QPT_UD) {
		wqe->wr.wr.ud.remote_qpn = wr->wr.ud.remote_qpn;
		wqe->wr.wr.ud.remote_qkey = wr->wr.ud.remote_qkey;
		wqe->wr.wr.ud.ah_num = ref_ah(wr->wr.ud.ah)->ah_num;
	}
}

int ref_rxe_post_send_one(struct ref_qp *qp, const struct ibv_send_wr *wr)
{
	struct rxe_queue_buf *b = qp->sq.addr;
	const size_t head = offsetof(struct rxe_send_wqe, dma.sge);
	struct rxe_send_wqe *wqe;
	int err;

	if (!b)
		return EINVAL;
	wqe = produce_begin(b);
	if (!wqe)
		return ENOMEM;
	memset(wqe, 0, sizeof(*wqe));
	wqe->wr.wr_id = wr->wr_id;
	wqe->wr.opcode = wr->opcode;
	wqe->wr.send_flags = wr->send_flags;
	if (wr->opcode == IBV_WR_SEND_WITH_INV)
		wqe->wr.ex.invalidate_rkey = wr->invalidate_rkey;
	else
		wqe->wr.ex.imm_data = wr->imm_data;
	put_opcode_part(wqe, qp, wr);
	if (wr->send_flags & IBV_SEND_INLINE)
		err = put_inline(&wqe->dma, slot_size(b) - head, wr->sg_list,
				 wr->num_sge);
	else
		err = put_sges(&wqe->dma, slot_size(b) - head, wr->sg_list,
			       wr->num_sge);
	if (err)
		return err;
	wqe->ssn = qp->ssn++;
	produce_end(b);
	return 0;
}

int ref_rxe_post_recv_one(struct ref_queue *q, const struct ibv_recv_wr *wr)
{
	struct rxe_queue_buf *b = q->addr;
	const size_t head = offsetof(struct rxe_recv_wqe, dma.sge);
	struct rxe_recv_wqe *wqe;
	int err;

	if (!b)
		return EINVAL;
	wqe = produce_begin(b);
	if (!wqe)
		return ENOMEM;
	memset(wqe, 0, sizeof(*wqe));
	wqe->wr_id = wr->wr_id;
	err = put_sges(&wqe->dma, slot_size(b) - head, wr->sg_list,
		       wr->num_sge);
	if (err)
		return err;
	produce_end(b);
	return 0;
}

static unsigned int wc_flags(uint32_t k)
{
	return (k & K_WC_GRH ? IBV_WC_GRH : 0) |
	       (k & K_WC_WITH_IMM ? IBV_WC_WITH_IMM : 0) |
	       (k & K_WC_WITH_INVALIDATE ? IBV_WC_WITH_INV : 0) |
	       (k & K_WC_IP_CSUM_OK ? IBV_WC_IP_CSUM_OK : 0);
}

int ref_rxe_poll_one(struct ref_cq *cq, struct ibv_wc *wc)
{
	struct rxe_queue_buf *b = cq->q.addr;
	const struct ib_uverbs_wc *k;
	uint32_t cons, prod;

	if (!b)
		return 0;
	cons = b->consumer_index;
	prod = __atomic_load_n(&b->producer_index, __ATOMIC_ACQUIRE);
	if (((prod - cons) & b->index_mask) == 0)
		return 0;
	k = slot(b, cons);
	memset(wc, 0, sizeof(*wc));
	wc->wr_id = k->wr_id;
	/* the kernel's enum ib_wc_status: the IBA's order, as libibverbs' */
	wc->status = k->status;
	wc->opcode = k->opcode;
	wc->vendor_err = k->vendor_err;
	wc->byte_len = k->byte_len;
	wc->wc_flags = wc_flags(k->wc_flags);
	if (k->wc_flags & K_WC_WITH_INVALIDATE)
		wc->invalidated_rkey = k->ex.invalidate_rkey;
	else
		wc->imm_data = k->ex.imm_data;
	wc->qp_num = k->qp_num;
	wc->src_qp = k->src_qp;
	wc->pkey_index = k->pkey_index;
	wc->slid = k->slid;
	wc->sl = k->sl;
	wc->dlid_path_bits = k->dlid_path_bits;
	__atomic_store_n(&b->consumer_index, (cons + 1) & b->index_mask,
			 __ATOMIC_RELEASE);
	return 1;
}

void ref_rxe_ah_in(struct ref_udata *u)
{
	u->out_len = sizeof(struct rxe_create_ah_resp);
}

int ref_rxe_ah_done(struct ref_ah *ah, const struct ref_udata *u)
{
	const struct rxe_create_ah_resp *r = (const void *)u->out;

	ah->ah_num = r->ah_num;
	return 0;
}
