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
 * - a send queue takes WRs in RTS (and SQD, SQE, ERR, where the kernel
 *   completes or flushes them), a receive queue from INIT on (the IBA,
 *   10.8.2: posting in RESET, and sending before RTS, is an immediate
 *   error), read from the state the QP was last moved to;
 * - "If the QP qp is associated with a shared receive queue, you must use
 *   the function ibv_post_srq_recv()": ibv_post_recv on it is refused;
 * - a queue with no room for the WR: ENOMEM.
 * Every refusal but the last is EINVAL.  One doorbell follows the WRs
 * queued; if the kernel refuses it, none of them is taken to be posted
 * and bad_wr is the first.
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

static int check_send(const struct ref_qp *qp, const struct ibv_send_wr *wr)
{
	uint64_t len = 0;
	int i;

	if (!opcode_ok(qp->qp.qp_type, wr->opcode))
		return EINVAL;
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

static bool sq_open(enum ibv_qp_state s)
{
	return s == IBV_QPS_RTS || s == IBV_QPS_SQD || s == IBV_QPS_SQE ||
	       s == IBV_QPS_ERR;
}

/* The list @wr posted to @qp, whose send queue's lock is held: 0, or
 * the errno value of the WR left in *@bad_wr */
static int post_locked(struct ref_qp *qp, struct ibv_send_wr *wr,
		       struct ibv_send_wr **bad_wr)
{
	const struct ref_provider *prov = prov_of(qp->qp.context);
	struct ibv_send_wr *first = wr;
	int err = 0, posted = 0, derr;

	for (; wr; wr = wr->next) {
		err = sq_open(qp->qp.state) ? check_send(qp, wr) : EINVAL;
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
		}
	}
	*bad_wr = err ? wr : NULL;
	return err;
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
	err = post_locked(qp, wr, bad_wr);
	pthread_mutex_unlock(&qp->sq_lock);
	return err ? ref_fail(err) : 0;
}

/*
 * ibv_bind_mw(3): "posts to the queue pair qp a request to bind the
 * memory window mw according to the details in mw_bind", a type 1 MW
 * ("post a request to bind a type 1 memory window to a memory region"),
 * on a QP whose "Transport Service Type must be either UC, RC or
 * XRC_SEND for bind operations".  No MR with an address or a length
 * names nothing to bind to, and an MR of another PD than the MW's is
 * not the MW's to bind: EINVAL.  The WR is a BIND_MW one with the next
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
	if (mw->type != IBV_MW_TYPE_1 ||
	    (ibqp->qp_type != IBV_QPT_RC && ibqp->qp_type != IBV_QPT_UC &&
	     ibqp->qp_type != IBV_QPT_XRC_SEND) ||
	    (!b->mr && (b->addr || b->length)) ||
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
	err = post_locked(qp, &wr, &bad);
	pthread_mutex_unlock(&qp->sq_lock);
	if (err)
		return ref_fail(err);
	mw->rkey = wr.bind_mw.rkey;
	return 0;
}

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
	st->wr.sg_list = st->sge;
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
		if (!sq_open(qp->qp.state))
			err = EINVAL;
		else
			err = check_send(qp, &qp->stage[i].wr);
	}
	if (!err && qp->nstage)
		err = post_locked(qp, &qp->stage[0].wr, &bad);
	qp->nstage = 0;
	pthread_mutex_unlock(&qp->sq_lock);
	return err;
}

static void wr_abort(struct ibv_qp_ex *qpx)
{
	struct ref_qp *qp = of_qpx(qpx);

	qp->nstage = 0;
	pthread_mutex_unlock(&qp->sq_lock);
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
	return 0;
}

void ref_qp_ex_free(struct ref_qp *qp)
{
	free(qp->stage);
	qp->stage = NULL;
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
 * arms the CQ (IB_USER_VERBS_CMD_REQ_NOTIFY_CQ) */
int ref_ibv_req_notify_cq(struct ibv_cq *cq, int solicited_only)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_req_notify_cq body;
	} cmd = {};
	int err;

	if (!cq)
		return ref_fail(EINVAL);
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
