// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * <rdma/rdma_verbs.h>'s data path, inline in that header (the system side
 * is harness/impl.c's wrapper of them), over the verbs reference's calls.
 *
 * rdma_post_send(3), rdma_post_read(3), rdma_post_write(3) and their
 * sendv/readv/writev variants: "Posts a work request to the send queue of
 * the queue pair associated with the rdma_cm_id."  One work request of
 * IBV_WR_SEND, IBV_WR_RDMA_READ or IBV_WR_RDMA_WRITE, its flags the
 * caller's ("For a list of supported flags, see ibv_post_send"), its
 * wr_id the context ("The user-defined context associated with the send
 * request will be returned to the user through the work completion
 * wr_id, work request identifier, field.").  The single-buffer calls make
 * one SGE of addr, length and the MR's lkey: an "Optional" MR (send,
 * write: inline data needs none) gives lkey 0; rdma_post_read(3) and
 * rdma_post_recv(3) name theirs without "Optional", and a NULL one is
 * refused (EINVAL, our reading).  rdma_post_recv(3) and rdma_post_recvv
 * (3): "Posts a work request to the receive queue of the queue pair
 * associated with the rdma_cm_id."  Each: "Returns 0 on success, or -1 on
 * error.  If an error occurs, errno will be set to indicate the failure
 * reason."  An id without a QP has no queue: -1 and EINVAL.
 *
 * rdma_get_send_comp(3), rdma_get_recv_comp(3): "This calls polls the
 * send completion queue associated with an rdma_cm_id.  If a completion
 * is not found, the call blocks until a request completes."  One
 * completion is polled for; when there is none the CQ is armed, polled
 * again (one that came before the arming raises no event), and the
 * call waits on the CQ's completion channel (the one rdma_create_qp made
 * with the CQ, or the caller's CQ's own), acknowledges the event and
 * polls again.  "Returns the number of returned completions (0 or 1) on
 * success, or -1 on error."  A CQ without a channel cannot be waited on:
 * -1 and EINVAL.
 *
 * A connected id's QP and CQs are the verbs reference's (qp.c); a
 * datagram id's are libibverbs', and are posted to and polled with
 * libibverbs (as mr.c registers on its PD).
 */
#include "cm_priv.h"
#include "../verbs/ref_verbs.h"

static bool ref_verbs_of(struct ibv_context *c)
{
	return c->ops.post_send == ref_ibv_post_send;
}

static int post_send_wr(struct rdma_cm_id *id, struct ibv_send_wr *wr)
{
	struct ibv_send_wr *bad;
	int err;

	if (!id || !id->qp)
		return ref_cm_fail(EINVAL);
	err = ref_verbs_of(id->qp->context) ?
		      ref_ibv_post_send(id->qp, wr, &bad) :
		      ibv_post_send(id->qp, wr, &bad);
	return err ? ref_cm_fail(err) : 0;
}

static int post_rdma(struct rdma_cm_id *id, void *context, struct ibv_sge *sgl,
		     int nsge, int flags, enum ibv_wr_opcode op,
		     uint64_t remote_addr, uint32_t rkey)
{
	struct ibv_send_wr wr = {
		.wr_id = (uintptr_t)context,
		.sg_list = sgl,
		.num_sge = nsge,
		.opcode = op,
		.send_flags = flags,
	};

	wr.wr.rdma.remote_addr = remote_addr;
	wr.wr.rdma.rkey = rkey;
	return post_send_wr(id, &wr);
}

int ref_rdma_post_sendv(struct rdma_cm_id *id, void *context,
			struct ibv_sge *sgl, int nsge, int flags)
{
	return post_rdma(id, context, sgl, nsge, flags, IBV_WR_SEND, 0, 0);
}

int ref_rdma_post_readv(struct rdma_cm_id *id, void *context,
			struct ibv_sge *sgl, int nsge, int flags,
			uint64_t remote_addr, uint32_t rkey)
{
	return post_rdma(id, context, sgl, nsge, flags, IBV_WR_RDMA_READ,
			 remote_addr, rkey);
}

int ref_rdma_post_writev(struct rdma_cm_id *id, void *context,
			 struct ibv_sge *sgl, int nsge, int flags,
			 uint64_t remote_addr, uint32_t rkey)
{
	return post_rdma(id, context, sgl, nsge, flags, IBV_WR_RDMA_WRITE,
			 remote_addr, rkey);
}

int ref_rdma_post_recvv(struct rdma_cm_id *id, void *context,
			struct ibv_sge *sgl, int nsge)
{
	struct ibv_recv_wr wr = {
		.wr_id = (uintptr_t)context,
		.sg_list = sgl,
		.num_sge = nsge,
	};
	struct ibv_recv_wr *bad;
	int err;

	if (!id || !id->qp)
		return ref_cm_fail(EINVAL);
	err = ref_verbs_of(id->qp->context) ?
		      ref_ibv_post_recv(id->qp, &wr, &bad) :
		      ibv_post_recv(id->qp, &wr, &bad);
	return err ? ref_cm_fail(err) : 0;
}

static struct ibv_sge one_sge(void *addr, size_t length, struct ibv_mr *mr)
{
	return (struct ibv_sge){ .addr = (uintptr_t)addr,
				 .length = (uint32_t)length,
				 .lkey = mr ? mr->lkey : 0 };
}

int ref_rdma_post_send(struct rdma_cm_id *id, void *context, void *addr,
		       size_t length, struct ibv_mr *mr, int flags)
{
	struct ibv_sge sge = one_sge(addr, length, mr);

	return ref_rdma_post_sendv(id, context, &sge, 1, flags);
}

int ref_rdma_post_recv(struct rdma_cm_id *id, void *context, void *addr,
		       size_t length, struct ibv_mr *mr)
{
	struct ibv_sge sge = one_sge(addr, length, mr);

	if (!mr)
		return ref_cm_fail(EINVAL);
	return ref_rdma_post_recvv(id, context, &sge, 1);
}

int ref_rdma_post_read(struct rdma_cm_id *id, void *context, void *addr,
		       size_t length, struct ibv_mr *mr, int flags,
		       uint64_t remote_addr, uint32_t rkey)
{
	struct ibv_sge sge = one_sge(addr, length, mr);

	if (!mr)
		return ref_cm_fail(EINVAL);
	return ref_rdma_post_readv(id, context, &sge, 1, flags, remote_addr,
				   rkey);
}

int ref_rdma_post_write(struct rdma_cm_id *id, void *context, void *addr,
			size_t length, struct ibv_mr *mr, int flags,
			uint64_t remote_addr, uint32_t rkey)
{
	struct ibv_sge sge = one_sge(addr, length, mr);

	return ref_rdma_post_writev(id, context, &sge, 1, flags, remote_addr,
				    rkey);
}

/* rdma_post_ud_send(3): "The contents of the posted buffer will be sent
 * to the specified destination queue pair", through "An address handle
 * describing the address of the remote node"; the Q_Key is the one of
 * the id's port space, RDMA_UDP_QKEY (<rdma/rdma_cma.h>), which the kernel
 * gives the id's QP (RDMA_PS_UDP, RDMA_PS_IPOIB) */
int ref_rdma_post_ud_send(struct rdma_cm_id *id, void *context, void *addr,
			  size_t length, struct ibv_mr *mr, int flags,
			  struct ibv_ah *ah, uint32_t remote_qpn)
{
	struct ibv_sge sge = one_sge(addr, length, mr);
	struct ibv_send_wr wr = {
		.wr_id = (uintptr_t)context,
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = IBV_WR_SEND,
		.send_flags = flags,
	};

	if (!ah)
		return ref_cm_fail(EINVAL);
	wr.wr.ud.ah = ah;
	wr.wr.ud.remote_qpn = remote_qpn;
	wr.wr.ud.remote_qkey = RDMA_UDP_QKEY;
	return post_send_wr(id, &wr);
}

static int get_comp(struct ibv_cq *cq, struct ibv_comp_channel *ch,
		    struct ibv_wc *wc)
{
	bool ref;
	struct ibv_cq *ev_cq;
	void *ev_ctx;
	int n;

	if (!cq || !wc)
		return ref_cm_fail(EINVAL);
	if (!ch)
		ch = cq->channel;
	ref = ref_verbs_of(cq->context);
	for (;;) {
		n = ref ? ref_ibv_poll_cq(cq, 1, wc) : ibv_poll_cq(cq, 1, wc);
		if (n)
			break;
		if (!ch)
			return ref_cm_fail(EINVAL);
		n = ref ? ref_ibv_req_notify_cq(cq, 0) :
			  ibv_req_notify_cq(cq, 0);
		if (n)
			return ref_cm_fail(n);
		n = ref ? ref_ibv_poll_cq(cq, 1, wc) : ibv_poll_cq(cq, 1, wc);
		if (n)
			break;
		if (ref ? ref_ibv_get_cq_event(ch, &ev_cq, &ev_ctx) :
			  ibv_get_cq_event(ch, &ev_cq, &ev_ctx))
			return -1;
		if (ref)
			ref_ibv_ack_cq_events(ev_cq, 1);
		else
			ibv_ack_cq_events(ev_cq, 1);
	}
	return n < 0 ? ref_cm_fail(-n) : n;
}

int ref_rdma_get_send_comp(struct rdma_cm_id *id, struct ibv_wc *wc)
{
	if (!id)
		return ref_cm_fail(EINVAL);
	return get_comp(id->send_cq, id->send_cq_channel, wc);
}

int ref_rdma_get_recv_comp(struct rdma_cm_id *id, struct ibv_wc *wc)
{
	if (!id)
		return ref_cm_fail(EINVAL);
	return get_comp(id->recv_cq, id->recv_cq_channel, wc);
}
