// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_create_srq(3), ibv_create_srq_ex(3), ibv_modify_srq(3),
 * ibv_query_srq(3), ibv_destroy_srq(3), ibv_get_srq_num(3).
 *
 * An SRQ is the kernel's (CREATE_SRQ; CREATE_XSRQ, which names the type,
 * for ibv_create_srq_ex) with the provider's queue mapped.  "The function
 * ibv_create_srq() will update the srq_init_attr struct with the original
 * values of the SRQ that was created; the values of max_wr and max_sge
 * will be greater than or equal to the values requested": the kernel's
 * answer, with the provider's queue as the truth for max_wr (both rxe
 * and siw round the queue up but answer with what was asked).  Its user
 * handle is the struct itself, which is how its async events find it.
 *
 * XRC SRQs need an XRC domain, which the reference does not open
 * (struct ibv_xrcd has no handle a caller could give it): EOPNOTSUPP.
 * Tag-matching SRQs go to the kernel, which makes them where the device
 * can.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <rdma/ib_user_ioctl_verbs.h>

#include "ref_verbs.h"
#include "objects.h"

BUILD_ASSERT_SAME(IBV_SRQT_BASIC, IB_UVERBS_SRQT_BASIC);
BUILD_ASSERT_SAME(IBV_SRQT_TM, IB_UVERBS_SRQT_TM);
BUILD_ASSERT(IBV_SRQ_MAX_WR == 1 && IBV_SRQ_LIMIT == 2);

static int destroy_cmd(struct ibv_srq *srq,
		       struct ib_uverbs_destroy_srq_resp *r)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_destroy_srq body;
	} cmd = {};

	cmd.body.response = (uintptr_t)r;
	cmd.body.srq_handle = srq->handle;
	return ref_write(srq->context->cmd_fd, IB_USER_VERBS_CMD_DESTROY_SRQ,
			 &cmd, sizeof(cmd), sizeof(*r));
}

static void free_srq(struct ref_srq *srq)
{
	ref_queue_unmap(&srq->q);
	pthread_mutex_destroy(&srq->srq.mutex);
	pthread_cond_destroy(&srq->srq.cond);
	pthread_mutex_destroy(&srq->lock);
	free(srq);
}

/* CREATE_XSRQ carries everything CREATE_SRQ does, and the type. */
static int create_cmd(struct ibv_pd *pd, const struct ibv_srq_init_attr_ex *a,
		      struct ref_srq *srq, struct ref_udata *u,
		      struct ib_uverbs_create_srq_resp *out)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_create_xsrq body;
		__aligned_u64 drv[REF_UDATA_WORDS];
	} cmd = {};
	struct {
		struct ib_uverbs_create_srq_resp core;
		__u32 drv[2 * REF_UDATA_WORDS];
	} resp = {};
	int err;

	BUILD_ASSERT(offsetof(typeof(cmd), drv) ==
		     sizeof(cmd.hdr) + sizeof(cmd.body));
	BUILD_ASSERT(offsetof(typeof(resp), drv) == sizeof(resp.core));
	memcpy(cmd.drv, u->in, u->in_len);
	cmd.body.response = (uintptr_t)&resp;
	cmd.body.user_handle = (uintptr_t)srq;
	cmd.body.srq_type = a->srq_type;
	cmd.body.pd_handle = pd->handle;
	cmd.body.max_wr = a->attr.max_wr;
	cmd.body.max_sge = a->attr.max_sge;
	cmd.body.srq_limit = a->attr.srq_limit;
	if (a->srq_type == IBV_SRQT_TM) {
		cmd.body.max_num_tags = a->tm_cap.max_num_tags;
		cmd.body.cq_handle = a->cq->handle;
	}
	err = ref_write(pd->context->cmd_fd, IB_USER_VERBS_CMD_CREATE_XSRQ,
			&cmd, sizeof(cmd.hdr) + sizeof(cmd.body) + u->in_len,
			sizeof(resp.core) + u->out_len);
	if (err)
		return err;
	*out = resp.core;
	memcpy(u->out, resp.drv, u->out_len);
	return 0;
}

static struct ibv_srq *create(struct ibv_context *context,
			      struct ibv_srq_init_attr_ex *a)
{
	struct ib_uverbs_create_srq_resp resp;
	struct ib_uverbs_destroy_srq_resp dr;
	const struct ref_provider *prov;
	struct ref_udata u = {};
	struct ref_srq *srq;
	int err;

	prov = ref_ctx(context)->prov;
	srq = calloc(1, sizeof(*srq));
	if (!srq)
		return ref_fail_null(ENOMEM);
	pthread_mutex_init(&srq->srq.mutex, NULL);
	pthread_cond_init(&srq->srq.cond, NULL);
	pthread_mutex_init(&srq->lock, NULL);
	srq->srq.context = context;
	srq->srq.srq_context = a->srq_context;
	srq->srq.pd = a->pd;
	srq->type = a->srq_type;
	if (prov->srq_in)
		prov->srq_in(&u);
	err = create_cmd(a->pd, a, srq, &u, &resp);
	if (err)
		goto err_free;
	srq->srq.handle = resp.srq_handle;
	srq->max_wr = resp.max_wr;
	srq->max_sge = resp.max_sge;
	srq->srq_num = resp.srqn;
	if (prov->srq_done) {
		err = prov->srq_done(srq, &u);
		if (err) {
			destroy_cmd(&srq->srq, &dr);
			goto err_free;
		}
	}
	a->attr.max_wr = srq->max_wr;
	a->attr.max_sge = srq->max_sge;
	return &srq->srq;

err_free:
	free_srq(srq);
	return ref_fail_null(err);
}

/* "returns a pointer to the created SRQ, or NULL if the request fails" */
struct ibv_srq *ref_ibv_create_srq(struct ibv_pd *pd,
				   struct ibv_srq_init_attr *srq_init_attr)
{
	struct ibv_srq_init_attr_ex a = {};
	struct ibv_srq *srq;

	if (!pd || !srq_init_attr)
		return ref_fail_null(EINVAL);
	a.srq_context = srq_init_attr->srq_context;
	a.attr = srq_init_attr->attr;
	a.comp_mask = IBV_SRQ_INIT_ATTR_PD;
	a.srq_type = IBV_SRQT_BASIC;
	a.pd = pd;
	srq = create(pd->context, &a);
	if (srq)
		srq_init_attr->attr = a.attr;
	return srq;
}

/* Our reading where the page is silent: a comp_mask bit it does not
 * define asks for what the library cannot do (EOPNOTSUPP); a missing PD,
 * or one of another context, a type the page does not have, an XRC SRQ
 * without its XRC domain or CQ, and a tag-matching SRQ without its
 * tag-matching attributes or CQ, are EINVAL; without
 * IBV_SRQ_INIT_ATTR_TYPE the type is basic. */
struct ibv_srq *ref_ibv_create_srq_ex(struct ibv_context *context,
				      struct ibv_srq_init_attr_ex *a)
{
	const uint32_t known = IBV_SRQ_INIT_ATTR_TYPE | IBV_SRQ_INIT_ATTR_PD |
			       IBV_SRQ_INIT_ATTR_XRCD | IBV_SRQ_INIT_ATTR_CQ |
			       IBV_SRQ_INIT_ATTR_TM;
	struct ibv_srq_init_attr_ex copy;
	struct ibv_srq *srq;

	if (!context || !a)
		return ref_fail_null(EINVAL);
	if (a->comp_mask & ~known)
		return ref_fail_null(EOPNOTSUPP);
	if (!(a->comp_mask & IBV_SRQ_INIT_ATTR_PD) || !a->pd ||
	    a->pd->context != context)
		return ref_fail_null(EINVAL);
	copy = *a;
	if (!(a->comp_mask & IBV_SRQ_INIT_ATTR_TYPE))
		copy.srq_type = IBV_SRQT_BASIC;
	/* an XRC SRQ without its domain or CQ is incomplete as a tag-matching
	 * one without its attributes is (EINVAL); a whole one asks for XRC,
	 * which the reference does not do */
	if (copy.srq_type == IBV_SRQT_XRC) {
		bool whole = (a->comp_mask & IBV_SRQ_INIT_ATTR_XRCD) &&
			     a->xrcd && (a->comp_mask & IBV_SRQ_INIT_ATTR_CQ) &&
			     a->cq;

		return ref_fail_null(whole ? EOPNOTSUPP : EINVAL);
	}
	if (copy.srq_type != IBV_SRQT_BASIC && copy.srq_type != IBV_SRQT_TM)
		return ref_fail_null(EINVAL);
	/* a tag-matching SRQ completes on a CQ of its own (the kernel's
	 * ib_srq_has_cq) */
	if (copy.srq_type == IBV_SRQT_TM &&
	    (!(a->comp_mask & IBV_SRQ_INIT_ATTR_TM) ||
	     !(a->comp_mask & IBV_SRQ_INIT_ATTR_CQ) || !a->cq))
		return ref_fail_null(EINVAL);
	srq = create(context, &copy);
	if (srq)
		a->attr = copy.attr;
	return srq;
}

/*
 * "returns 0 on success, or the value of errno on failure"; "If any of
 * the modify attributes is invalid, none of the attributes will be
 * modified": the kernel checks both before it changes either.
 */
int ref_ibv_modify_srq(struct ibv_srq *ibsrq, struct ibv_srq_attr *srq_attr,
		       int srq_attr_mask)
{
	struct ref_srq *srq = ref_srq(ibsrq);
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_modify_srq body;
		__aligned_u64 drv[REF_UDATA_WORDS];
	} cmd = {};
	const struct ref_provider *prov;
	struct ref_udata u = {};
	int err;

	BUILD_ASSERT(offsetof(typeof(cmd), drv) ==
		     sizeof(cmd.hdr) + sizeof(cmd.body));
	if (!srq || !srq_attr)
		return ref_fail(EINVAL);
	prov = ref_ctx(ibsrq->context)->prov;
	if (prov->modify_srq_in)
		prov->modify_srq_in(srq, &u);
	memcpy(cmd.drv, u.in, u.in_len);
	cmd.body.srq_handle = ibsrq->handle;
	cmd.body.attr_mask = srq_attr_mask;
	cmd.body.max_wr = srq_attr->max_wr;
	cmd.body.srq_limit = srq_attr->srq_limit;
	/* a resize moves the queue: no post until the new one is mapped */
	pthread_mutex_lock(&srq->lock);
	err = ref_write(ibsrq->context->cmd_fd, IB_USER_VERBS_CMD_MODIFY_SRQ,
			&cmd, sizeof(cmd.hdr) + sizeof(cmd.body) + u.in_len, 0);
	if (!err && prov->modify_srq_done)
		err = prov->modify_srq_done(srq, srq_attr_mask);
	pthread_mutex_unlock(&srq->lock);
	return err ? ref_fail(err) : 0;
}

/* "returns 0 on success, or the value of errno on failure" */
int ref_ibv_query_srq(struct ibv_srq *srq, struct ibv_srq_attr *srq_attr)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_query_srq body;
	} cmd = {};
	struct ib_uverbs_query_srq_resp r = {};
	int err;

	if (!srq || !srq_attr)
		return ref_fail(EINVAL);
	cmd.body.response = (uintptr_t)&r;
	cmd.body.srq_handle = srq->handle;
	err = ref_write(srq->context->cmd_fd, IB_USER_VERBS_CMD_QUERY_SRQ, &cmd,
			sizeof(cmd), sizeof(r));
	if (err)
		return ref_fail(err);
	srq_attr->max_wr = r.max_wr;
	srq_attr->max_sge = r.max_sge;
	srq_attr->srq_limit = r.srq_limit;
	return 0;
}

/* "returns 0 on success, or the value of errno on failure"; "fails if any
 * queue pair is still associated with this SRQ" (the kernel refuses) */
int ref_ibv_destroy_srq(struct ibv_srq *srq)
{
	struct ib_uverbs_destroy_srq_resp r = {};
	int err;

	if (!srq)
		return ref_fail(EINVAL);
	err = destroy_cmd(srq, &r);
	if (err)
		return ref_fail(err);
	ref_events_wait(&srq->mutex, &srq->cond, &srq->events_completed,
			r.events_reported);
	free_srq(ref_srq(srq));
	return 0;
}

/*
 * "return srq number associated with the given XRC shared receive queue";
 * "returns 0 on success, or the value of errno on failure".  Only an XRC
 * SRQ has one (the kernel answers srqn for no other type), and the
 * reference makes none: our reading for any other SRQ is EOPNOTSUPP.
 */
int ref_ibv_get_srq_num(struct ibv_srq *ibsrq, uint32_t *srq_num)
{
	struct ref_srq *srq = ref_srq(ibsrq);

	if (!srq || !srq_num)
		return ref_fail(EINVAL);
	if (srq->type != IBV_SRQT_XRC)
		return ref_fail(EOPNOTSUPP);
	*srq_num = srq->srq_num;
	return 0;
}
