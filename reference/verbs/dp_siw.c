// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * siw's data path, from <rdma/siw-abi.h>.
 *
 * Each queue the kernel maps is an array: struct siw_sqe for a send
 * queue, struct siw_rqe for a receive queue or SRQ, struct siw_cqe for a
 * CQ, its struct siw_cq_ctrl after them.  The process arms the CQ there:
 * siw's contexts take no REQ_NOTIFY_CQ command (siw adds only POST_SEND
 * to the core's uverbs_cmd_mask), and the kernel reads the flags when a
 * completion is added, signals the channel when they ask for it and
 * clears them.  No index is shared: a slot is the producer's
 * while its flags lack SIW_WQE_VALID, and the consumer's while they have
 * it.  The producer writes the slot, then its flags with SIW_WQE_VALID
 * in a release store; the consumer reads the flags with an acquire load,
 * takes the slot, then gives it back by clearing the flags.  Each side
 * walks the slots in order and wraps, so a queue holds as many entries
 * as it has slots, and a producer that finds its next slot still valid
 * finds the queue full.
 *
 * The process produces on the send and receive queues and consumes the
 * CQ.  The kernel takes receive elements as messages arrive, and send
 * elements when told, by IB_USER_VERBS_CMD_POST_SEND with no WRs; a QP
 * that is not in RTS refuses that command (ENOTCONN), but in the error
 * state.  An iWARP QP reaches RTS through the connection manager, in
 * the kernel: that refusal is how the process learns that its send queue
 * takes nothing (sq_takes).
 *
 * A send element's opcode is enum siw_opcode, of which a process may
 * post SEND, SEND_REMOTE_INV, WRITE and READ: the rest are the kernel's
 * own or "Unsupported" (the atomics); its flags say whether it completes
 * (SIW_WQE_SIGNALLED: the process applies sq_sig_all itself), whether it
 * is solicited or fenced, and whether its data is inline: then the bytes
 * take the place of sge[1] onwards, sge[0].length counts them and
 * num_sge is 1, at most SIW_MAX_INLINE of them.  The kernel refuses an
 * element it cannot run when it takes it (an inline READ, a fenced READ,
 * more than SIW_MAX_INLINE bytes) and leaves it in the queue, so the
 * reference refuses those at the post.  An RDMA Read gathers into one
 * SGE (the device's max_sge_rd is 1: iWARP's Read sink is one buffer).
 * A completion's opcode is also enum siw_opcode, its status enum
 * siw_wc_status, and it names its QP by number (qp_id).
 */
#include <errno.h>
#include <string.h>
#include <rdma/siw-abi.h>

#include "dp_siw.h"

BUILD_ASSERT(sizeof(struct siw_sge) == sizeof(struct ibv_sge));
BUILD_ASSERT(offsetof(struct siw_sqe, sge) == 24);
BUILD_ASSERT(offsetof(struct siw_rqe, sge) == 16);
BUILD_ASSERT(offsetof(struct siw_cqe, qp_id) == 24);

static void *slot(struct ref_queue *q, size_t size)
{
	return (uint8_t *)q->addr + (size_t)(q->next % q->slots) * size;
}

/* Release the slot whose @flags were written last, and move on */
static void produce(struct ref_queue *q, uint16_t *flags, uint16_t valid)
{
	__atomic_store_n(flags, valid, __ATOMIC_RELEASE);
	q->next++;
}

static bool slot_taken(const uint16_t *flags)
{
	return __atomic_load_n(flags, __ATOMIC_ACQUIRE) & SIW_WQE_VALID;
}

static void put_sges(struct siw_sge *dst, const struct ibv_sge *sg, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		dst[i].laddr = sg[i].addr;
		dst[i].length = sg[i].length;
		dst[i].lkey = sg[i].lkey;
	}
}

/* IBV_SEND_INLINE: the bytes the SGEs name, where sge[1] onwards are. */
static int put_inline(struct siw_sqe *sqe, const struct ibv_sge *sg, int n)
{
	uint8_t *data = (uint8_t *)&sqe->sge[1];
	uint32_t len = 0;
	int i;

	for (i = 0; i < n; i++) {
		if (sg[i].length > SIW_MAX_INLINE - len)
			return EINVAL;
		memcpy(data + len, (void *)(uintptr_t)sg[i].addr, sg[i].length);
		len += sg[i].length;
	}
	sqe->sge[0].length = len;
	sqe->num_sge = 1;
	return 0;
}

static int put_opcode(struct siw_sqe *sqe, const struct ibv_send_wr *wr)
{
	switch (wr->opcode) {
	case IBV_WR_SEND:
		sqe->opcode = SIW_OP_SEND;
		break;
	case IBV_WR_SEND_WITH_INV:
		sqe->opcode = SIW_OP_SEND_REMOTE_INV;
		sqe->rkey = wr->invalidate_rkey;
		break;
	case IBV_WR_RDMA_WRITE:
		sqe->opcode = SIW_OP_WRITE;
		sqe->raddr = wr->wr.rdma.remote_addr;
		sqe->rkey = wr->wr.rdma.rkey;
		break;
	case IBV_WR_RDMA_READ:
		if (wr->num_sge > 1 || (wr->send_flags & IBV_SEND_FENCE))
			return EINVAL;
		sqe->opcode = SIW_OP_READ;
		sqe->raddr = wr->wr.rdma.remote_addr;
		sqe->rkey = wr->wr.rdma.rkey;
		break;
	default:
		return EOPNOTSUPP;
	}
	return 0;
}

int ref_siw_post_send_one(struct ref_qp *qp, const struct ibv_send_wr *wr)
{
	struct siw_sqe *sqe;
	uint16_t flags = SIW_WQE_VALID;
	int err;

	if (!qp->sq.addr || wr->num_sge > SIW_MAX_SGE)
		return EINVAL;
	sqe = slot(&qp->sq, sizeof(*sqe));
	if (slot_taken(&sqe->flags))
		return ENOMEM;
	memset(sqe, 0, sizeof(*sqe));
	err = put_opcode(sqe, wr);
	if (err)
		return err;
	sqe->id = wr->wr_id;
	if (wr->send_flags & IBV_SEND_INLINE) {
		err = put_inline(sqe, wr->sg_list, wr->num_sge);
		if (err)
			return err;
		flags |= SIW_WQE_INLINE;
	} else {
		put_sges(sqe->sge, wr->sg_list, wr->num_sge);
		sqe->num_sge = wr->num_sge;
	}
	if ((wr->send_flags & IBV_SEND_SIGNALED) || qp->sq_sig_all)
		flags |= SIW_WQE_SIGNALLED;
	if (wr->send_flags & IBV_SEND_SOLICITED)
		flags |= SIW_WQE_SOLICITED;
	if (wr->send_flags & IBV_SEND_FENCE)
		flags |= SIW_WQE_READ_FENCE;
	produce(&qp->sq, &sqe->flags, flags);
	return 0;
}

int ref_siw_sq_takes(struct ref_qp *qp)
{
	return ref_send_doorbell(qp);
}

int ref_siw_post_recv_one(struct ref_queue *q, const struct ibv_recv_wr *wr)
{
	struct siw_rqe *rqe;

	if (!q->addr || wr->num_sge > SIW_MAX_SGE)
		return EINVAL;
	rqe = slot(q, sizeof(*rqe));
	if (slot_taken(&rqe->flags))
		return ENOMEM;
	memset(rqe, 0, sizeof(*rqe));
	rqe->id = wr->wr_id;
	rqe->num_sge = wr->num_sge;
	put_sges(rqe->sge, wr->sg_list, wr->num_sge);
	/* the kernel takes an element whose flags are SIW_WQE_VALID alone */
	produce(q, &rqe->flags, SIW_WQE_VALID);
	return 0;
}

static int wc_opcode(uint8_t op)
{
	switch (op) {
	case SIW_OP_WRITE:
		return IBV_WC_RDMA_WRITE;
	case SIW_OP_READ:
	case SIW_OP_READ_LOCAL_INV:
		return IBV_WC_RDMA_READ;
	case SIW_OP_SEND:
	case SIW_OP_SEND_WITH_IMM:
	case SIW_OP_SEND_REMOTE_INV:
		return IBV_WC_SEND;
	case SIW_OP_FETCH_AND_ADD:
		return IBV_WC_FETCH_ADD;
	case SIW_OP_COMP_AND_SWAP:
		return IBV_WC_COMP_SWAP;
	case SIW_OP_RECEIVE:
		return IBV_WC_RECV;
	case SIW_OP_INVAL_STAG:
		return IBV_WC_LOCAL_INV;
	default:
		return op;
	}
}

static enum ibv_wc_status wc_status(uint16_t status)
{
	switch (status) {
	case SIW_WC_SUCCESS:
		return IBV_WC_SUCCESS;
	case SIW_WC_LOC_LEN_ERR:
		return IBV_WC_LOC_LEN_ERR;
	case SIW_WC_LOC_PROT_ERR:
		return IBV_WC_LOC_PROT_ERR;
	case SIW_WC_LOC_QP_OP_ERR:
		return IBV_WC_LOC_QP_OP_ERR;
	case SIW_WC_WR_FLUSH_ERR:
		return IBV_WC_WR_FLUSH_ERR;
	case SIW_WC_BAD_RESP_ERR:
		return IBV_WC_BAD_RESP_ERR;
	case SIW_WC_LOC_ACCESS_ERR:
		return IBV_WC_LOC_ACCESS_ERR;
	case SIW_WC_REM_ACCESS_ERR:
		return IBV_WC_REM_ACCESS_ERR;
	case SIW_WC_REM_INV_REQ_ERR:
		return IBV_WC_REM_INV_REQ_ERR;
	default:
		return IBV_WC_GENERAL_ERR;
	}
}

int ref_siw_poll_one(struct ref_cq *cq, struct ibv_wc *wc)
{
	struct siw_cqe *cqe;
	uint8_t flags;

	if (!cq->q.addr)
		return 0;
	cqe = slot(&cq->q, sizeof(*cqe));
	flags = __atomic_load_n(&cqe->flags, __ATOMIC_ACQUIRE);
	if (!(flags & SIW_WQE_VALID))
		return 0;
	memset(wc, 0, sizeof(*wc));
	wc->wr_id = cqe->id;
	wc->status = wc_status(cqe->status);
	wc->opcode = wc_opcode(cqe->opcode);
	wc->byte_len = cqe->bytes;
	wc->qp_num = (uint32_t)cqe->qp_id;
	if (flags & SIW_WQE_REM_INVAL) {
		wc->wc_flags = IBV_WC_WITH_INV;
		wc->invalidated_rkey = cqe->inval_stag;
	}
	/* the slot is the kernel's again */
	__atomic_store_n(&cqe->flags, 0, __ATOMIC_RELEASE);
	cq->q.next++;
	return 1;
}

/* SIW_NOTIFY_SOLICITED for a solicited completion only; else the next
 * one (SIW_NOTIFY_NEXT_COMPLETION), solicited or not */
int ref_siw_req_notify(struct ref_cq *cq, bool solicited_only)
{
	struct siw_cq_ctrl *ctrl;

	if (!cq->q.addr)
		return EINVAL;
	ctrl = (struct siw_cq_ctrl *)((uint8_t *)cq->q.addr +
				      (size_t)cq->q.slots *
					      sizeof(struct siw_cqe));
	__atomic_store_n(&ctrl->flags,
			 solicited_only ? SIW_NOTIFY_SOLICITED :
					  SIW_NOTIFY_SOLICITED |
						  SIW_NOTIFY_NEXT_COMPLETION,
			 __ATOMIC_SEQ_CST);
	return 0;
}
