// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_post_send(3), ibv_post_recv(3), ibv_post_srq_recv(3),
 * ibv_poll_cq(3), ibv_req_notify_cq(3), ibv_get_cq_event(3),
 * ibv_ack_cq_events(3): what every provider shares.  The queues
 * themselves are the provider's (its post_*_one, send_doorbell and
 * poll_one hooks, objects.h); a provider without them answers
 * EOPNOTSUPP.
 *
 * The post calls take a list and "stop processing WRs from this list at
 * the first failure (that can be detected immediately while requests are
 * being posted)": each WR is checked before it is queued, against what
 * the pages say and what the QP was granted, and the first that fails is
 * returned through bad_wr with every one before it posted.  What is
 * checked, as the pages and the IBA say it:
 * - the opcode against ibv_post_send(3)'s table of opcodes per transport;
 * - IBV_SEND_INLINE "Valid only for Send and RDMA Write" (with their
 *   immediate variants), its bytes within max_inline_data;
 * - num_sge between 0 and the QP's (or SRQ's) granted max_*_sge;
 * - a UD WR has an AH;
 * - an opcode the device's WQEs cannot carry (the provider's wr_ops:
 *   iWARP has no immediate data, no atomics and no memory windows) is
 *   EOPNOTSUPP;
 * - a send queue takes WRs in RTS (and SQD, SQE, ERR, where the kernel
 *   completes or flushes them), a receive queue from INIT on (the IBA,
 *   10.8.2: posting in RESET, and sending before RTS, is an immediate
 *   error), read from the state the QP was last moved to; where the
 *   kernel moves the QP by itself (iWARP: the connection manager takes it
 *   to RTS), the kernel says whether its send queue takes WRs (the
 *   provider's sq_takes);
 * - "If the QP qp is associated with a shared receive queue, you must use
 *   the function ibv_post_srq_recv()": ibv_post_recv on it is refused;
 * - a queue with no room for the WR: ENOMEM.
 * Every other refusal but the last is EINVAL.  One doorbell follows the
 * WRs queued; if the kernel refuses it, none of them is taken to be
 * posted and bad_wr is the first.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ref_verbs.h"
#include "objects.h"

static const struct ref_provider *prov_of(struct ibv_context *c)
{
	return ref_ctx(c)->prov;
}

/* ibv_post_send(3)'s table: which opcodes each transport supports */
static bool opcode_ok(enum ibv_qp_type type, enum ibv_wr_opcode op)
{
	switch (op) {
	case IBV_WR_SEND:
		return true;
	case IBV_WR_SEND_WITH_IMM:
		return type != IBV_QPT_RAW_PACKET;
	case IBV_WR_RDMA_WRITE:
	case IBV_WR_RDMA_WRITE_WITH_IMM:
	case IBV_WR_LOCAL_INV:
	case IBV_WR_BIND_MW:
	case IBV_WR_SEND_WITH_INV:
		return type == IBV_QPT_UC || type == IBV_QPT_RC ||
		       type == IBV_QPT_XRC_SEND;
	case IBV_WR_RDMA_READ:
	case IBV_WR_ATOMIC_CMP_AND_SWP:
	case IBV_WR_ATOMIC_FETCH_AND_ADD:
		return type == IBV_QPT_RC || type == IBV_QPT_XRC_SEND;
	case IBV_WR_TSO:
		return type == IBV_QPT_UD || type == IBV_QPT_RAW_PACKET;
	default:
		return false;
	}
}

static bool inline_ok(enum ibv_wr_opcode op)
{
	return op == IBV_WR_SEND || op == IBV_WR_SEND_WITH_IMM ||
	       op == IBV_WR_RDMA_WRITE || op == IBV_WR_RDMA_WRITE_WITH_IMM;
}

int ref_check_send(const struct ref_qp *qp, const struct ibv_send_wr *wr)
{
	uint64_t len = 0;
	int i;

	if (!opcode_ok(qp->qp.qp_type, wr->opcode))
		return EINVAL;
	if (!(prov_of(qp->qp.context)->wr_ops & (1u << wr->opcode)))
		return EOPNOTSUPP;
	if (wr->num_sge < 0 || (uint32_t)wr->num_sge > qp->cap.max_send_sge ||
	    (wr->num_sge && !wr->sg_list))
		return EINVAL;
	if (wr->send_flags & IBV_SEND_INLINE) {
		if (!inline_ok(wr->opcode))
			return EINVAL;
		for (i = 0; i < wr->num_sge; i++)
			len += wr->sg_list[i].length;
		if (len > qp->cap.max_inline_data)
			return EINVAL;
	}
	if (qp->qp.qp_type == IBV_QPT_UD && !wr->wr.ud.ah)
		return EINVAL;
	return 0;
}

int ref_sq_takes(struct ref_qp *qp)
{
	const struct ref_provider *prov = prov_of(qp->qp.context);
	enum ibv_qp_state s = qp->qp.state;

	if (prov->sq_takes)
		return prov->sq_takes(qp);
	if (s == IBV_QPS_RTS || s == IBV_QPS_SQD || s == IBV_QPS_SQE ||
	    s == IBV_QPS_ERR)
		return 0;
	return EINVAL;
}

/* ibv_alloc_mw(3): the MW's rkey "will be changed during bind
 * operations": each bind posted, from @wr up to @end, gives its MW the
 * rkey it asks for */
static void bound_rkeys(const struct ibv_send_wr *wr,
			const struct ibv_send_wr *end)
{
	for (; wr != end; wr = wr->next)
		if (wr->opcode == IBV_WR_BIND_MW && wr->bind_mw.mw)
			wr->bind_mw.mw->rkey = wr->bind_mw.rkey;
}

/* The list @wr posted to @qp, whose send queue's lock is held */
int ref_post_send_locked(struct ref_qp *qp, struct ibv_send_wr *wr,
			 struct ibv_send_wr **bad_wr)
{
	const struct ref_provider *prov = prov_of(qp->qp.context);
	struct ibv_send_wr *first = wr;
	int err = 0, posted = 0, derr, closed;

	closed = ref_sq_takes(qp);
	for (; wr; wr = wr->next) {
		err = closed ? closed : ref_check_send(qp, wr);
		if (!err)
			err = prov->post_send_one(qp, wr);
		if (err)
			break;
		posted++;
	}
	if (posted) {
		derr = prov->send_doorbell(qp);
		if (derr) {
			err = derr;
			wr = first;
		} else {
			bound_rkeys(first, wr);
		}
	}
	*bad_wr = err ? wr : NULL;
	return err;
}

int ref_send_doorbell(struct ref_qp *qp)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_post_send body;
	} cmd = {};
	struct ib_uverbs_post_send_resp resp = {};

	cmd.body.response = (uintptr_t)&resp;
	cmd.body.qp_handle = qp->qp.handle;
	cmd.body.wqe_size = sizeof(struct ib_uverbs_send_wr);
	return ref_write(qp->qp.context->cmd_fd, IB_USER_VERBS_CMD_POST_SEND,
			 &cmd, sizeof(cmd), sizeof(resp));
}

static bool can_post(struct ibv_context *c)
{
	const struct ref_provider *prov = prov_of(c);

	return prov->post_send_one && prov->send_doorbell;
}

/* "returns 0 on success, or the value of errno on failure" */
int ref_ibv_post_send(struct ibv_qp *ibqp, struct ibv_send_wr *wr,
		      struct ibv_send_wr **bad_wr)
{
	struct ref_qp *qp = ref_qp(ibqp);
	int err;

	if (!qp || !bad_wr)
		return ref_fail(EINVAL);
	if (!can_post(ibqp->context)) {
		*bad_wr = wr;
		return ref_fail(EOPNOTSUPP);
	}
	pthread_mutex_lock(&qp->sq_lock);
	err = ref_post_send_locked(qp, wr, bad_wr);
	pthread_mutex_unlock(&qp->sq_lock);
	return err ? ref_fail(err) : 0;
}

/*
 * ibv_bind_mw(3): "posts to the queue pair qp a request to bind the
 * memory window mw according to the details in mw_bind", a type 1 MW
 * ("post a request to bind a type 1 memory window to a memory region"),
 * on a QP whose "Transport Service Type must be either UC, RC or
 * XRC_SEND for bind operations" (ibv_post_send's table, which refuses
 * the WR on other QPs).  No MR with an address or a length names
 * nothing to bind to, and an MR of another PD than the MW's is not the
 * MW's to bind: EINVAL.  The WR is a BIND_MW one with the next
 * rkey of the MW's (ibv_inc_rkey(3)): "In case of a success, the R_key
 * of the memory window after the bind is returned in the
 * mw_bind->mw->rkey field."
 */
int ref_ibv_bind_mw(struct ibv_qp *ibqp, struct ibv_mw *mw,
		    struct ibv_mw_bind *mw_bind)
{
	struct ref_qp *qp = ref_qp(ibqp);
	struct ibv_mw_bind_info *b;
	struct ibv_send_wr wr = {}, *bad;
	int err;

	if (!qp || !mw || !mw_bind)
		return ref_fail(EINVAL);
	b = &mw_bind->bind_info;
	if (mw->type != IBV_MW_TYPE_1 || (!b->mr && (b->addr || b->length)) ||
	    (b->mr && b->mr->pd != mw->pd))
		return ref_fail(EINVAL);
	if (!can_post(ibqp->context))
		return ref_fail(EOPNOTSUPP);
	wr.wr_id = mw_bind->wr_id;
	wr.opcode = IBV_WR_BIND_MW;
	wr.send_flags = mw_bind->send_flags;
	wr.bind_mw.mw = mw;
	wr.bind_mw.rkey = ref_ibv_inc_rkey(mw->rkey);
	wr.bind_mw.bind_info = *b;
	pthread_mutex_lock(&qp->sq_lock);
	err = ref_post_send_locked(qp, &wr, &bad);
	pthread_mutex_unlock(&qp->sq_lock);
	return err ? ref_fail(err) : 0;
}

static int check_recv(const struct ibv_recv_wr *wr, uint32_t max_sge)
{
	if (wr->num_sge < 0 || (uint32_t)wr->num_sge > max_sge ||
	    (wr->num_sge && !wr->sg_list))
		return EINVAL;
	return 0;
}

static int post_recv_list(const struct ref_provider *prov, struct ref_queue *q,
			  pthread_mutex_t *lock, uint32_t max_sge, bool open,
			  struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr)
{
	int err = 0;

	if (!prov->post_recv_one) {
		*bad_wr = wr;
		return ref_fail(EOPNOTSUPP);
	}
	pthread_mutex_lock(lock);
	for (; wr; wr = wr->next) {
		err = open ? check_recv(wr, max_sge) : EINVAL;
		if (!err)
			err = prov->post_recv_one(q, wr);
		if (err)
			break;
	}
	pthread_mutex_unlock(lock);
	if (err) {
		*bad_wr = wr;
		return ref_fail(err);
	}
	return 0;
}

/* "returns 0 on success, or the value of errno on failure" */
int ref_ibv_post_recv(struct ibv_qp *ibqp, struct ibv_recv_wr *wr,
		      struct ibv_recv_wr **bad_wr)
{
	struct ref_qp *qp = ref_qp(ibqp);

	if (!qp || !bad_wr)
		return ref_fail(EINVAL);
	if (ibqp->srq) {
		*bad_wr = wr;
		return ref_fail(EINVAL);
	}
	return post_recv_list(prov_of(ibqp->context), &qp->rq, &qp->rq_lock,
			      qp->cap.max_recv_sge,
			      ibqp->state != IBV_QPS_RESET, wr, bad_wr);
}

/* "returns 0 on success, or the value of errno on failure" */
int ref_ibv_post_srq_recv(struct ibv_srq *ibsrq, struct ibv_recv_wr *wr,
			  struct ibv_recv_wr **bad_wr)
{
	struct ref_srq *srq = ref_srq(ibsrq);

	if (!srq || !bad_wr)
		return ref_fail(EINVAL);
	return post_recv_list(prov_of(ibsrq->context), &srq->q, &srq->lock,
			      srq->max_sge, true, wr, bad_wr);
}

/* "returns a non-negative value equal to the number of completions
 * found.  On failure, a negative value is returned." */
int ref_ibv_poll_cq(struct ibv_cq *ibcq, int num_entries, struct ibv_wc *wc)
{
	struct ref_cq *cq = ref_cq(ibcq);
	const struct ref_provider *prov;
	int n;

	if (!cq || num_entries < 0 || (num_entries && !wc))
		return -EINVAL;
	prov = prov_of(ibcq->context);
	if (!prov->poll_one)
		return -EOPNOTSUPP;
	pthread_mutex_lock(&cq->lock);
	for (n = 0; n < num_entries; n++)
		if (prov->poll_one(cq, &wc[n]) != 1)
			break;
	pthread_mutex_unlock(&cq->lock);
	return n;
}

/* "returns 0 on success, or the value of errno on failure"; the kernel
 * arms the CQ (IB_USER_VERBS_CMD_REQ_NOTIFY_CQ), or the provider where
 * the kernel takes no such command from its contexts */
int ref_ibv_req_notify_cq(struct ibv_cq *cq, int solicited_only)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_req_notify_cq body;
	} cmd = {};
	const struct ref_provider *prov;
	int err;

	if (!cq)
		return ref_fail(EINVAL);
	prov = prov_of(cq->context);
	if (prov->req_notify) {
		err = prov->req_notify(ref_cq(cq), solicited_only);
		return err ? ref_fail(err) : 0;
	}
	cmd.body.cq_handle = cq->handle;
	cmd.body.solicited_only = !!solicited_only;
	err = ref_write(cq->context->cmd_fd, IB_USER_VERBS_CMD_REQ_NOTIFY_CQ,
			&cmd, sizeof(cmd), 0);
	return err ? ref_fail(err) : 0;
}

/*
 * "waits for the next completion event in the completion event channel
 * channel.  Fills the arguments cq with the CQ that got the event and
 * cq_context with the CQ's context."; "returns 0 on success, and -1 on
 * error."  The channel's fd gives one struct ib_uverbs_comp_event_desc
 * per event, naming the CQ by the user handle it was made with: the
 * reference's CQ itself (cq.c).
 */
int ref_ibv_get_cq_event(struct ibv_comp_channel *channel, struct ibv_cq **cq,
			 void **cq_context)
{
	struct ib_uverbs_comp_event_desc ev;
	struct ibv_cq *c;

	if (!channel || !cq || !cq_context) {
		errno = EINVAL;
		return -1;
	}
	if (read(channel->fd, &ev, sizeof(ev)) != sizeof(ev))
		return -1;
	c = (struct ibv_cq *)(uintptr_t)ev.cq_handle;
	*cq = c;
	*cq_context = c->cq_context;
	return 0;
}

/* "acknowledges nevents events on the CQ cq": the count ibv_destroy_cq
 * waits for (ref_events_wait) */
void ref_ibv_ack_cq_events(struct ibv_cq *cq, unsigned int nevents)
{
	if (!cq)
		return;
	pthread_mutex_lock(&cq->mutex);
	cq->comp_events_completed += nevents;
	pthread_cond_signal(&cq->cond);
	pthread_mutex_unlock(&cq->mutex);
}
