// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_create_qp(3), ibv_create_qp_ex(3), ibv_query_qp(3),
 * ibv_modify_qp(3), ibv_destroy_qp(3).
 *
 * A QP is the kernel's (CREATE_QP, or the extended command when the
 * caller asks for more than a PD), with the provider's send and receive
 * queues mapped.  "will update the qp_init_attr->cap struct with the
 * actual QP values of the QP that was created": the core's answer, as the
 * provider corrects it with the queues it made.  Its user handle is the
 * struct itself, which is how its async events find it.  State changes
 * and queries are the kernel's (MODIFY_QP, QUERY_QP), which checks the
 * transition and its required attributes; qp->state follows what was
 * last set, or read with IBV_QP_STATE asked for.
 *
 * What the reference cannot make is EOPNOTSUPP: XRC QPs (it opens no XRC
 * domain), QPs over an RSS indirection table or with a TSO header (no
 * such objects or driver data).  The send ops of struct ibv_qp_ex
 * (ibv_wr_post(3)) it has where its data path is (rxe), for the opcodes
 * of ibv_wr_post(3)'s table that its post path writes: "If the QP does
 * not support all the requested work request types then QP creation
 * will fail." (EOPNOTSUPP): memory-window binds, local invalidation,
 * SEND_WITH_INV and TSO it does not build yet.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <rdma/ib_user_ioctl_verbs.h>

#include "ref_verbs.h"
#include "objects.h"

BUILD_ASSERT_SAME(IBV_QPT_RC, IB_UVERBS_QPT_RC);
BUILD_ASSERT_SAME(IBV_QPT_UC, IB_UVERBS_QPT_UC);
BUILD_ASSERT_SAME(IBV_QPT_UD, IB_UVERBS_QPT_UD);
BUILD_ASSERT_SAME(IBV_QPT_RAW_PACKET, IB_UVERBS_QPT_RAW_PACKET);
BUILD_ASSERT_SAME(IBV_QPT_DRIVER, IB_UVERBS_QPT_DRIVER);
BUILD_ASSERT_SAME(IBV_QP_CREATE_BLOCK_SELF_MCAST_LB,
		  IB_UVERBS_QP_CREATE_BLOCK_MULTICAST_LOOPBACK);
BUILD_ASSERT_SAME(IBV_QP_CREATE_SCATTER_FCS, IB_UVERBS_QP_CREATE_SCATTER_FCS);
BUILD_ASSERT_SAME(IBV_QP_CREATE_CVLAN_STRIPPING,
		  IB_UVERBS_QP_CREATE_CVLAN_STRIPPING);
BUILD_ASSERT_SAME(IBV_QP_CREATE_PCI_WRITE_END_PADDING,
		  IB_UVERBS_QP_CREATE_PCI_WRITE_END_PADDING);
BUILD_ASSERT(sizeof(struct ib_uverbs_qp_dest) == 32);
BUILD_ASSERT(sizeof(struct ib_uverbs_modify_qp) == 112);
BUILD_ASSERT(sizeof(struct ib_uverbs_ex_modify_qp) == 120);
BUILD_ASSERT(sizeof(struct ib_uverbs_query_qp_resp) == 128);

/* Both commands' answers: the core's (base of the extended one) and the
 * driver's. */
struct create_resp {
	struct ib_uverbs_create_qp_resp core;
	__aligned_u64 drv[REF_UDATA_WORDS];
};

struct create_ex_resp {
	struct ib_uverbs_ex_create_qp_resp core;
	__aligned_u64 drv[REF_UDATA_WORDS];
};

/*
 * The extended command's structure begins with the legacy one's fields
 * after its response pointer, in the same layout: one filling serves
 * both.
 */
#define LEGACY_PART                           \
	(sizeof(struct ib_uverbs_create_qp) - \
	 offsetof(struct ib_uverbs_create_qp, user_handle))
BUILD_ASSERT(offsetof(struct ib_uverbs_ex_create_qp, comp_mask) == LEGACY_PART);
BUILD_ASSERT(offsetof(struct ib_uverbs_ex_create_qp, is_srq) ==
	     offsetof(struct ib_uverbs_create_qp, is_srq) -
		     offsetof(struct ib_uverbs_create_qp, user_handle));

static void fill(struct ib_uverbs_ex_create_qp *b,
		 const struct ibv_qp_init_attr_ex *a, struct ref_qp *qp)
{
	bool srq = a->srq;

	b->user_handle = (uintptr_t)qp;
	b->pd_handle = a->pd->handle;
	b->send_cq_handle = a->send_cq->handle;
	b->recv_cq_handle = a->recv_cq->handle;
	b->srq_handle = srq ? a->srq->handle : 0;
	b->max_send_wr = a->cap.max_send_wr;
	/* "The attributes max_recv_wr and max_recv_sge are ignored ... if
	 * the QP is to be associated with an SRQ." */
	b->max_recv_wr = srq ? 0 : a->cap.max_recv_wr;
	b->max_send_sge = a->cap.max_send_sge;
	b->max_recv_sge = srq ? 0 : a->cap.max_recv_sge;
	b->max_inline_data = a->cap.max_inline_data;
	b->sq_sig_all = !!a->sq_sig_all;
	b->qp_type = a->qp_type;
	b->is_srq = srq;
	if (a->comp_mask & IBV_QP_INIT_ATTR_CREATE_FLAGS) {
		b->create_flags = a->create_flags;
		if (a->create_flags & IBV_QP_CREATE_SOURCE_QPN)
			b->source_qpn = a->source_qpn;
	}
}

static int create_cmd(struct ibv_context *context,
		      const struct ibv_qp_init_attr_ex *a, struct ref_qp *qp,
		      struct ref_udata *u, struct ib_uverbs_create_qp_resp *out)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_create_qp body;
		__aligned_u64 drv[REF_UDATA_WORDS];
	} cmd = {};
	struct create_resp resp = {};
	struct ib_uverbs_ex_create_qp ex = {};
	int err;

	BUILD_ASSERT(offsetof(typeof(cmd), drv) ==
		     sizeof(cmd.hdr) + sizeof(cmd.body));
	BUILD_ASSERT(offsetof(struct create_resp, drv) ==
		     sizeof(struct ib_uverbs_create_qp_resp));
	fill(&ex, a, qp);
	memcpy(&cmd.body.user_handle, &ex, LEGACY_PART);
	memcpy(cmd.drv, u->in, u->in_len);
	cmd.body.response = (uintptr_t)&resp;
	err = ref_write(context->cmd_fd, IB_USER_VERBS_CMD_CREATE_QP, &cmd,
			sizeof(cmd.hdr) + sizeof(cmd.body) + u->in_len,
			sizeof(resp.core) + u->out_len);
	if (err)
		return err;
	*out = resp.core;
	memcpy(u->out, resp.drv, u->out_len);
	return 0;
}

static int create_ex_cmd(struct ibv_context *context,
			 const struct ibv_qp_init_attr_ex *a, struct ref_qp *qp,
			 struct ref_udata *u,
			 struct ib_uverbs_create_qp_resp *out)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_ex_cmd_hdr ex;
		struct ib_uverbs_ex_create_qp body;
		__aligned_u64 drv[REF_UDATA_WORDS];
	} cmd = {};
	struct create_ex_resp resp = {};
	int err;

	BUILD_ASSERT(offsetof(typeof(cmd), drv) ==
		     sizeof(cmd.hdr) + sizeof(cmd.ex) + sizeof(cmd.body));
	BUILD_ASSERT(offsetof(struct create_ex_resp, drv) ==
		     sizeof(struct ib_uverbs_ex_create_qp_resp));
	fill(&cmd.body, a, qp);
	memcpy(cmd.drv, u->in, u->in_len);
	err = ref_write_ex(context->cmd_fd, IB_USER_VERBS_EX_CMD_CREATE_QP,
			   &cmd, sizeof(cmd.body), (u->in_len + 7) & ~7, &resp,
			   sizeof(resp.core), (u->out_len + 7) & ~7);
	if (err)
		return err;
	*out = resp.core.base;
	memcpy(u->out, resp.drv, u->out_len);
	return 0;
}

static int destroy_cmd(struct ibv_qp *qp, struct ib_uverbs_destroy_qp_resp *r)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_destroy_qp body;
	} cmd = {};

	cmd.body.response = (uintptr_t)r;
	cmd.body.qp_handle = qp->handle;
	return ref_write(qp->context->cmd_fd, IB_USER_VERBS_CMD_DESTROY_QP,
			 &cmd, sizeof(cmd), sizeof(*r));
}

static void free_qp(struct ref_qp *qp)
{
	ref_qp_ex_free(qp);
	ref_queue_unmap(&qp->sq);
	ref_queue_unmap(&qp->rq);
	pthread_mutex_destroy(&qp->qp.mutex);
	pthread_cond_destroy(&qp->qp.cond);
	pthread_mutex_destroy(&qp->sq_lock);
	pthread_mutex_destroy(&qp->rq_lock);
	free(qp);
}

/*
 * ibv_wr_post(3)'s table, "QP Type Supported", for what the reference
 * builds: SEND on UD, UC and RC; SEND_WITH_IMM on UD, UC and RC; RDMA
 * Write (and with immediate), BIND_MW, LOCAL_INV and SEND_WITH_INV on UC
 * and RC; RDMA Read and the atomics on RC.  A provider without a data
 * path has none, and one has only the opcodes its WQEs carry (siw: no
 * immediate data, no atomics, no memory windows).
 */
#define SAME_BIT(op) BUILD_ASSERT(IBV_QP_EX_WITH_##op == 1u << IBV_WR_##op)
SAME_BIT(RDMA_WRITE);
SAME_BIT(RDMA_WRITE_WITH_IMM);
SAME_BIT(SEND);
SAME_BIT(SEND_WITH_IMM);
SAME_BIT(RDMA_READ);
SAME_BIT(ATOMIC_CMP_AND_SWP);
SAME_BIT(ATOMIC_FETCH_AND_ADD);
SAME_BIT(LOCAL_INV);
SAME_BIT(BIND_MW);
SAME_BIT(SEND_WITH_INV);
SAME_BIT(TSO);
#undef SAME_BIT

static int check_send_ops(const struct ref_provider *prov,
			  const struct ibv_qp_init_attr_ex *a)
{
	const uint64_t send = IBV_QP_EX_WITH_SEND |
			      IBV_QP_EX_WITH_SEND_WITH_IMM;
	const uint64_t write = IBV_QP_EX_WITH_RDMA_WRITE |
			       IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM;
	const uint64_t rc_only = IBV_QP_EX_WITH_RDMA_READ |
				 IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP |
				 IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD;
	const uint64_t mw = IBV_QP_EX_WITH_BIND_MW | IBV_QP_EX_WITH_LOCAL_INV |
			    IBV_QP_EX_WITH_SEND_WITH_INV;
	uint64_t ok;

	if (!prov->post_send_one || !prov->send_doorbell)
		return EOPNOTSUPP;
	switch (a->qp_type) {
	case IBV_QPT_RC:
		ok = send | write | rc_only | mw;
		break;
	case IBV_QPT_UC:
		ok = send | write | mw;
		break;
	case IBV_QPT_UD:
		ok = send;
		break;
	default:
		ok = 0;
	}
	/* and what the provider's WQEs carry */
	ok &= prov->wr_ops;
	return a->send_ops_flags & ~ok ? EOPNOTSUPP : 0;
}

/* What the page asks of the attributes before anything is made: 0 or an
 * errno value. */
static int check(struct ibv_context *context,
		 const struct ibv_qp_init_attr_ex *a)
{
	const uint32_t known =
		IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_XRCD |
		IBV_QP_INIT_ATTR_CREATE_FLAGS |
		IBV_QP_INIT_ATTR_MAX_TSO_HEADER | IBV_QP_INIT_ATTR_IND_TABLE |
		IBV_QP_INIT_ATTR_RX_HASH | IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;

	if (!context || !a)
		return EINVAL;
	/* a bit the library does not know asks for what it cannot do */
	if (a->comp_mask & ~known)
		return EOPNOTSUPP;
	if (a->comp_mask &
		    (IBV_QP_INIT_ATTR_XRCD | IBV_QP_INIT_ATTR_MAX_TSO_HEADER |
		     IBV_QP_INIT_ATTR_IND_TABLE | IBV_QP_INIT_ATTR_RX_HASH) ||
	    a->qp_type == IBV_QPT_XRC_SEND || a->qp_type == IBV_QPT_XRC_RECV)
		return EOPNOTSUPP;
	/* every QP the reference makes has a PD and both CQs */
	if (!(a->comp_mask & IBV_QP_INIT_ATTR_PD) || !a->pd || !a->send_cq ||
	    !a->recv_cq || a->pd->context != context)
		return EINVAL;
	/* "ibv_create_qp() will fail if a it is asked to create QP of a type
	 * other than IBV_QPT_RC or IBV_QPT_UD associated with an SRQ." */
	if (a->srq && a->qp_type != IBV_QPT_RC && a->qp_type != IBV_QPT_UD)
		return EINVAL;
	if (a->comp_mask & IBV_QP_INIT_ATTR_SEND_OPS_FLAGS)
		return check_send_ops(ref_ctx(context)->prov, a);
	return 0;
}

static struct ibv_qp *create(struct ibv_context *context,
			     struct ibv_qp_init_attr_ex *a)
{
	const struct ref_provider *prov;
	struct ib_uverbs_create_qp_resp resp;
	struct ib_uverbs_destroy_qp_resp dr;
	struct ref_udata u = {};
	struct ibv_qp_cap cap;
	struct ref_qp *qp;
	int err;

	err = check(context, a);
	if (err)
		return ref_fail_null(err);
	prov = ref_ctx(context)->prov;
	qp = calloc(1, sizeof(*qp));
	if (!qp)
		return ref_fail_null(ENOMEM);
	pthread_mutex_init(&qp->qp.mutex, NULL);
	pthread_cond_init(&qp->qp.cond, NULL);
	pthread_mutex_init(&qp->sq_lock, NULL);
	pthread_mutex_init(&qp->rq_lock, NULL);
	qp->qp.context = context;
	qp->qp.qp_context = a->qp_context;
	qp->qp.pd = a->pd;
	qp->qp.send_cq = a->send_cq;
	qp->qp.recv_cq = a->recv_cq;
	qp->qp.srq = a->srq;
	qp->qp.qp_type = a->qp_type;
	qp->qp.state = IBV_QPS_RESET;
	if (prov->qp_in)
		prov->qp_in(&u);
	/* the send ops are the library's: the kernel is not told */
	err = (a->comp_mask & ~IBV_QP_INIT_ATTR_SEND_OPS_FLAGS) ==
			      IBV_QP_INIT_ATTR_PD ?
		      create_cmd(context, a, qp, &u, &resp) :
		      create_ex_cmd(context, a, qp, &u, &resp);
	if (err)
		goto err_free;
	qp->qp.handle = resp.qp_handle;
	qp->qp.qp_num = resp.qpn;
	cap.max_send_wr = resp.max_send_wr;
	cap.max_recv_wr = resp.max_recv_wr;
	cap.max_send_sge = resp.max_send_sge;
	cap.max_recv_sge = resp.max_recv_sge;
	cap.max_inline_data = resp.max_inline_data;
	if (prov->qp_done) {
		err = prov->qp_done(qp, &u, &cap);
		if (err) {
			destroy_cmd(&qp->qp, &dr);
			goto err_free;
		}
	}
	qp->cap = cap;
	qp->sq_sig_all = a->sq_sig_all;
	if (a->comp_mask & IBV_QP_INIT_ATTR_SEND_OPS_FLAGS) {
		err = ref_qp_ex_init(qp, a->send_ops_flags);
		if (err) {
			destroy_cmd(&qp->qp, &dr);
			goto err_free;
		}
	}
	/* with an SRQ the receive caps were ignored: left as they were */
	a->cap.max_send_wr = cap.max_send_wr;
	a->cap.max_send_sge = cap.max_send_sge;
	a->cap.max_inline_data = cap.max_inline_data;
	if (!a->srq) {
		a->cap.max_recv_wr = cap.max_recv_wr;
		a->cap.max_recv_sge = cap.max_recv_sge;
	}
	return &qp->qp;

err_free:
	free_qp(qp);
	return ref_fail_null(err);
}

/* "returns a pointer to the created QP, or NULL if the request fails" */
struct ibv_qp *ref_ibv_create_qp(struct ibv_pd *pd,
				 struct ibv_qp_init_attr *qp_init_attr)
{
	struct ibv_qp_init_attr_ex a = {};
	struct ibv_qp *qp;

	if (!pd || !qp_init_attr)
		return ref_fail_null(EINVAL);
	memcpy(&a, qp_init_attr, sizeof(*qp_init_attr));
	a.comp_mask = IBV_QP_INIT_ATTR_PD;
	a.pd = pd;
	qp = create(pd->context, &a);
	if (qp)
		qp_init_attr->cap = a.cap;
	return qp;
}

struct ibv_qp *ref_ibv_create_qp_ex(struct ibv_context *context,
				    struct ibv_qp_init_attr_ex *qp_init_attr_ex)
{
	return create(context, qp_init_attr_ex);
}

/* ibv_create_qp_ex(3): "Use ibv_qp_to_qp_ex() to get the ibv_qp_ex for
 * accessing the send ops iterator interface, when QP create attr
 * IBV_QP_INIT_ATTR_SEND_OPS_FLAGS is used."  Without them there is none:
 * NULL. */
struct ibv_qp_ex *ref_ibv_qp_to_qp_ex(struct ibv_qp *qp)
{
	struct ref_qp *q = ref_qp(qp);

	if (!q || !q->stage)
		return ref_fail_null(EINVAL);
	return &q->qpx;
}

static void dest_to_ah(const struct ib_uverbs_qp_dest *d,
		       struct ibv_ah_attr *ah)
{
	memcpy(ah->grh.dgid.raw, d->dgid, 16);
	ah->grh.flow_label = d->flow_label;
	ah->grh.sgid_index = d->sgid_index;
	ah->grh.hop_limit = d->hop_limit;
	ah->grh.traffic_class = d->traffic_class;
	ah->dlid = d->dlid;
	ah->sl = d->sl;
	ah->src_path_bits = d->src_path_bits;
	ah->static_rate = d->static_rate;
	ah->is_global = d->is_global;
	ah->port_num = d->port_num;
}

static void ah_to_dest(const struct ibv_ah_attr *ah,
		       struct ib_uverbs_qp_dest *d)
{
	memcpy(d->dgid, ah->grh.dgid.raw, 16);
	d->flow_label = ah->grh.flow_label;
	d->sgid_index = ah->grh.sgid_index;
	d->hop_limit = ah->grh.hop_limit;
	d->traffic_class = ah->grh.traffic_class;
	d->dlid = ah->dlid;
	d->sl = ah->sl;
	d->src_path_bits = ah->src_path_bits;
	d->static_rate = ah->static_rate;
	d->is_global = ah->is_global;
	d->port_num = ah->port_num;
}

/*
 * "returns 0 on success, or the value of errno on failure".  "The
 * argument attr_mask is a hint that specifies the minimum list of
 * attributes to retrieve": the kernel answers with all of them, and all
 * are given back.
 */
int ref_ibv_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask,
		     struct ibv_qp_init_attr *init_attr)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_query_qp body;
	} cmd = {};
	struct ib_uverbs_query_qp_resp r = {};
	int err;

	if (!qp || !attr || !init_attr)
		return ref_fail(EINVAL);
	cmd.body.response = (uintptr_t)&r;
	cmd.body.qp_handle = qp->handle;
	cmd.body.attr_mask = attr_mask;
	err = ref_write(qp->context->cmd_fd, IB_USER_VERBS_CMD_QUERY_QP, &cmd,
			sizeof(cmd), sizeof(r));
	if (err)
		return ref_fail(err);
	memset(attr, 0, sizeof(*attr));
	attr->qp_state = r.qp_state;
	attr->cur_qp_state = r.cur_qp_state;
	attr->path_mtu = r.path_mtu;
	attr->path_mig_state = r.path_mig_state;
	attr->qkey = r.qkey;
	attr->rq_psn = r.rq_psn;
	attr->sq_psn = r.sq_psn;
	attr->dest_qp_num = r.dest_qp_num;
	attr->qp_access_flags = r.qp_access_flags;
	attr->cap.max_send_wr = r.max_send_wr;
	attr->cap.max_recv_wr = r.max_recv_wr;
	attr->cap.max_send_sge = r.max_send_sge;
	attr->cap.max_recv_sge = r.max_recv_sge;
	attr->cap.max_inline_data = r.max_inline_data;
	dest_to_ah(&r.dest, &attr->ah_attr);
	dest_to_ah(&r.alt_dest, &attr->alt_ah_attr);
	attr->pkey_index = r.pkey_index;
	attr->alt_pkey_index = r.alt_pkey_index;
	attr->sq_draining = r.sq_draining;
	attr->max_rd_atomic = r.max_rd_atomic;
	attr->max_dest_rd_atomic = r.max_dest_rd_atomic;
	attr->min_rnr_timer = r.min_rnr_timer;
	attr->port_num = r.port_num;
	attr->timeout = r.timeout;
	attr->retry_cnt = r.retry_cnt;
	attr->rnr_retry = r.rnr_retry;
	attr->alt_port_num = r.alt_port_num;
	attr->alt_timeout = r.alt_timeout;
	memset(init_attr, 0, sizeof(*init_attr));
	init_attr->qp_context = qp->qp_context;
	init_attr->send_cq = qp->send_cq;
	init_attr->recv_cq = qp->recv_cq;
	init_attr->srq = qp->srq;
	init_attr->cap = attr->cap;
	init_attr->qp_type = qp->qp_type;
	init_attr->sq_sig_all = r.sq_sig_all;
	/* the state read, when it was asked for (siw's kernel before 6.5
	 * answers RESET whatever the state: a query of other attributes
	 * must not make the QP's queues look closed) */
	if (attr_mask & IBV_QP_STATE)
		qp->state = attr->qp_state;
	return 0;
}

static void to_modify(const struct ibv_qp *qp, const struct ibv_qp_attr *a,
		      int mask, struct ib_uverbs_modify_qp *m)
{
	ah_to_dest(&a->ah_attr, &m->dest);
	ah_to_dest(&a->alt_ah_attr, &m->alt_dest);
	m->qp_handle = qp->handle;
	m->attr_mask = mask;
	m->qkey = a->qkey;
	m->rq_psn = a->rq_psn;
	m->sq_psn = a->sq_psn;
	m->dest_qp_num = a->dest_qp_num;
	m->qp_access_flags = a->qp_access_flags;
	m->pkey_index = a->pkey_index;
	m->alt_pkey_index = a->alt_pkey_index;
	m->qp_state = a->qp_state;
	m->cur_qp_state = a->cur_qp_state;
	m->path_mtu = a->path_mtu;
	m->path_mig_state = a->path_mig_state;
	m->en_sqd_async_notify = a->en_sqd_async_notify;
	m->max_rd_atomic = a->max_rd_atomic;
	m->max_dest_rd_atomic = a->max_dest_rd_atomic;
	m->min_rnr_timer = a->min_rnr_timer;
	m->port_num = a->port_num;
	m->timeout = a->timeout;
	m->retry_cnt = a->retry_cnt;
	m->rnr_retry = a->rnr_retry;
	m->alt_port_num = a->alt_port_num;
	m->alt_timeout = a->alt_timeout;
}

/*
 * "returns 0 on success, or the value of errno on failure"; "If any of
 * the modify attributes or the modify mask are invalid, none of the
 * attributes will be modified (including the QP state)": the kernel
 * checks them all before it changes anything.  IBV_QP_RATE_LIMIT has a
 * field only in the extended command.
 */
int ref_ibv_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr,
		      int attr_mask)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_modify_qp body;
	} cmd = {};
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_ex_cmd_hdr ex;
		struct ib_uverbs_ex_modify_qp body;
	} xcmd = {};
	struct ib_uverbs_ex_modify_qp_resp xresp = {};
	int err;

	if (!qp || !attr)
		return ref_fail(EINVAL);
	if (attr_mask & IBV_QP_RATE_LIMIT) {
		to_modify(qp, attr, attr_mask, &xcmd.body.base);
		xcmd.body.rate_limit = attr->rate_limit;
		err = ref_write_ex(qp->context->cmd_fd,
				   IB_USER_VERBS_EX_CMD_MODIFY_QP, &xcmd,
				   sizeof(xcmd.body), 0, &xresp, sizeof(xresp),
				   0);
	} else {
		to_modify(qp, attr, attr_mask, &cmd.body);
		err = ref_write(qp->context->cmd_fd,
				IB_USER_VERBS_CMD_MODIFY_QP, &cmd, sizeof(cmd),
				0);
	}
	if (err)
		return ref_fail(err);
	if (attr_mask & IBV_QP_STATE)
		qp->state = attr->qp_state;
	return 0;
}

/* "returns 0 on success, or the value of errno on failure"; "fails if the
 * QP is attached to a multicast group" (the kernel refuses) */
int ref_ibv_destroy_qp(struct ibv_qp *qp)
{
	struct ib_uverbs_destroy_qp_resp r = {};
	int err;

	if (!qp)
		return ref_fail(EINVAL);
	err = destroy_cmd(qp, &r);
	if (err)
		return ref_fail(err);
	ref_events_wait(&qp->mutex, &qp->cond, &qp->events_completed,
			r.events_reported);
	free_qp(ref_qp(qp));
	return 0;
}
