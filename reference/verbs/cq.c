// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_create_comp_channel(3), ibv_destroy_comp_channel(3),
 * ibv_create_cq(3), ibv_create_cq_ex(3), ibv_resize_cq(3),
 * ibv_destroy_cq(3).
 *
 * A completion channel is the fd the kernel makes for completion events
 * (CREATE_COMP_CHANNEL); its refcnt counts the reference's CQs on it.  A
 * CQ is the kernel's (CREATE_CQ, or the extended command for
 * ibv_create_cq_ex), with the provider's queue mapped; its cqe is what
 * the kernel granted.  Its user handle is the struct itself, which is how
 * its async events find it.  Destroying a CQ waits until every event the
 * kernel says it reported for it has been acknowledged.
 *
 * The work completions an extended CQ can give are those of the queue
 * the kernel fills (rxe's struct ib_uverbs_wc, siw's struct siw_cqe):
 * IBV_WC_STANDARD_FLAGS; neither device has a clock, a VLAN or a flow
 * tag to report, so other wc_flags are EOPNOTSUPP.  An extended CQ is
 * polled with ibv_poll_cq(3) (datapath.c) or ibv_start_poll and its
 * readers (cq_poll.c).
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ref_verbs.h"
#include "objects.h"

/* "returns a pointer to the created completion event channel, or NULL if
 * the request fails" */
struct ibv_comp_channel *
ref_ibv_create_comp_channel(struct ibv_context *context)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_create_comp_channel body;
	} cmd = {};
	struct ib_uverbs_create_comp_channel_resp resp = {};
	struct ibv_comp_channel *ch;
	int err;

	if (!context)
		return ref_fail_null(EINVAL);
	ch = calloc(1, sizeof(*ch));
	if (!ch)
		return ref_fail_null(ENOMEM);
	cmd.body.response = (uintptr_t)&resp;
	err = ref_write(context->cmd_fd, IB_USER_VERBS_CMD_CREATE_COMP_CHANNEL,
			&cmd, sizeof(cmd), sizeof(resp));
	if (err) {
		free(ch);
		return ref_fail_null(err);
	}
	ch->context = context;
	ch->fd = resp.fd;
	ch->refcnt = 0;
	return ch;
}

/* "returns 0 on success, or the value of errno on failure"; "fails if any
 * CQs are still associated with the completion event channel": EBUSY,
 * the kernel's word for an object still in use */
int ref_ibv_destroy_comp_channel(struct ibv_comp_channel *channel)
{
	int busy;

	if (!channel)
		return ref_fail(EINVAL);
	pthread_mutex_lock(&channel->context->mutex);
	busy = channel->refcnt;
	pthread_mutex_unlock(&channel->context->mutex);
	if (busy)
		return ref_fail(EBUSY);
	close(channel->fd);
	free(channel);
	return 0;
}

static struct ref_cq *new_cq(struct ibv_context *context, void *cq_context,
			     struct ibv_comp_channel *channel,
			     uint64_t wc_flags)
{
	struct ref_cq *cq = calloc(1, sizeof(*cq));

	if (!cq)
		return NULL;
	cq->cq.context = context;
	cq->cq.channel = channel;
	cq->cq.cq_context = cq_context;
	pthread_mutex_init(&cq->cq.mutex, NULL);
	pthread_cond_init(&cq->cq.cond, NULL);
	pthread_mutex_init(&cq->lock, NULL);
	cq->wc_flags = wc_flags;
	ref_cq_poll_init(cq, wc_flags);
	return cq;
}

static void free_cq(struct ref_cq *cq)
{
	pthread_mutex_destroy(&cq->cq.mutex);
	pthread_cond_destroy(&cq->cq.cond);
	pthread_mutex_destroy(&cq->lock);
	free(cq);
}

static void channel_ref(struct ibv_comp_channel *ch, int delta)
{
	if (!ch)
		return;
	pthread_mutex_lock(&ch->context->mutex);
	ch->refcnt += delta;
	pthread_mutex_unlock(&ch->context->mutex);
}

/* A CQ the kernel made that the provider could not take: undone. */
static int destroy_cmd(struct ref_cq *cq, struct ib_uverbs_destroy_cq_resp *r)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_destroy_cq body;
	} cmd = {};

	cmd.body.response = (uintptr_t)r;
	cmd.body.cq_handle = cq->cq.handle;
	return ref_write(cq->cq.context->cmd_fd, IB_USER_VERBS_CMD_DESTROY_CQ,
			 &cmd, sizeof(cmd), sizeof(*r));
}

/* The provider's part after the kernel's: 0, or the CQ undone and an
 * errno value. */
static int finish(struct ref_cq *cq, struct ref_udata *u)
{
	const struct ref_provider *prov = ref_ctx(cq->cq.context)->prov;
	struct ib_uverbs_destroy_cq_resp r;
	int err = prov->cq_done ? prov->cq_done(cq, u) : 0;

	if (err) {
		ref_queue_unmap(&cq->q);
		destroy_cmd(cq, &r);
	}
	return err;
}

/* "The CQ will use the completion vector comp_vector for signaling
 * completion events; it must be at least zero and less than
 * context->num_comp_vectors." */
static bool vector_ok(struct ibv_context *context, int comp_vector)
{
	return comp_vector >= 0 && comp_vector < context->num_comp_vectors;
}

/* "returns a pointer to the CQ, or NULL if the request fails" */
struct ibv_cq *ref_ibv_create_cq(struct ibv_context *context, int cqe,
				 void *cq_context,
				 struct ibv_comp_channel *channel,
				 int comp_vector)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_create_cq body;
		__aligned_u64 drv[REF_UDATA_WORDS];
	} cmd = {};
	struct {
		struct ib_uverbs_create_cq_resp core;
		__aligned_u64 drv[REF_UDATA_WORDS];
	} resp = {};
	struct ref_udata u = {};
	struct ref_cq *cq;
	int err;

	BUILD_ASSERT(offsetof(typeof(cmd), drv) ==
		     sizeof(cmd.hdr) + sizeof(cmd.body));
	BUILD_ASSERT(offsetof(typeof(resp), drv) == sizeof(resp.core));
	if (!context || !vector_ok(context, comp_vector))
		return ref_fail_null(EINVAL);
	cq = new_cq(context, cq_context, channel, 0);
	if (!cq)
		return ref_fail_null(ENOMEM);
	if (ref_ctx(context)->prov->cq_in)
		ref_ctx(context)->prov->cq_in(&u);
	memcpy(cmd.drv, u.in, u.in_len);
	cmd.body.response = (uintptr_t)&resp;
	cmd.body.user_handle = (uintptr_t)cq;
	cmd.body.cqe = cqe;
	cmd.body.comp_vector = comp_vector;
	cmd.body.comp_channel = channel ? channel->fd : -1;
	err = ref_write(context->cmd_fd, IB_USER_VERBS_CMD_CREATE_CQ, &cmd,
			sizeof(cmd.hdr) + sizeof(cmd.body) + u.in_len,
			sizeof(resp.core) + u.out_len);
	if (err)
		goto err_free;
	cq->cq.handle = resp.core.cq_handle;
	cq->cq.cqe = resp.core.cqe;
	memcpy(u.out, resp.drv, u.out_len);
	err = finish(cq, &u);
	if (err)
		goto err_free;
	channel_ref(channel, 1);
	return (struct ibv_cq *)&cq->cq;

err_free:
	free_cq(cq);
	return ref_fail_null(err);
}

/*
 * "returns a pointer to the CQ, or NULL if the request fails".  Our
 * reading where the page is silent: a comp_mask bit it does not define
 * asks for what the library cannot do (EOPNOTSUPP, as for every extended
 * verb here); IBV_CQ_INIT_ATTR_MASK_PD asks for a parent domain, and the
 * reference makes none, so a PD given there cannot be one (EINVAL); of
 * the flags, IBV_CREATE_CQ_ATTR_SINGLE_THREADED is a promise the
 * reference needs nothing from, IGNORE_OVERRUN goes to the kernel
 * (IB_UVERBS_CQ_FLAGS_IGNORE_OVERRUN), any other is EOPNOTSUPP.
 */
struct ibv_cq_ex *ref_ibv_create_cq_ex(struct ibv_context *context,
				       struct ibv_cq_init_attr_ex *attr)
{
	const uint32_t masks = IBV_CQ_INIT_ATTR_MASK_FLAGS |
			       IBV_CQ_INIT_ATTR_MASK_PD;
	const uint32_t known = IBV_CREATE_CQ_ATTR_SINGLE_THREADED |
			       IBV_CREATE_CQ_ATTR_IGNORE_OVERRUN;
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_ex_cmd_hdr ex;
		struct ib_uverbs_ex_create_cq body;
		__aligned_u64 drv[REF_UDATA_WORDS];
	} cmd = {};
	struct {
		struct ib_uverbs_ex_create_cq_resp core;
		__aligned_u64 drv[REF_UDATA_WORDS];
	} resp = {};
	struct ref_udata u = {};
	uint32_t flags;
	struct ref_cq *cq;
	int err;

	BUILD_ASSERT(offsetof(typeof(cmd), drv) ==
		     sizeof(cmd.hdr) + sizeof(cmd.ex) + sizeof(cmd.body));
	BUILD_ASSERT(offsetof(typeof(resp), drv) == sizeof(resp.core));
	if (!context || !attr ||
	    ((attr->comp_mask & IBV_CQ_INIT_ATTR_MASK_PD) &&
	     attr->parent_domain) ||
	    !vector_ok(context, attr->comp_vector))
		return ref_fail_null(EINVAL);
	if (attr->comp_mask & ~masks)
		return ref_fail_null(EOPNOTSUPP);
	flags = attr->comp_mask & IBV_CQ_INIT_ATTR_MASK_FLAGS ? attr->flags : 0;
	if ((flags & ~known) || (attr->wc_flags & ~IBV_WC_STANDARD_FLAGS))
		return ref_fail_null(EOPNOTSUPP);
	cq = new_cq(context, attr->cq_context, attr->channel, attr->wc_flags);
	if (!cq)
		return ref_fail_null(ENOMEM);
	if (ref_ctx(context)->prov->cq_in)
		ref_ctx(context)->prov->cq_in(&u);
	memcpy(cmd.drv, u.in, u.in_len);
	cmd.body.user_handle = (uintptr_t)cq;
	cmd.body.cqe = attr->cqe;
	cmd.body.comp_vector = attr->comp_vector;
	cmd.body.comp_channel = attr->channel ? attr->channel->fd : -1;
	if (flags & IBV_CREATE_CQ_ATTR_IGNORE_OVERRUN)
		cmd.body.flags |= IB_UVERBS_CQ_FLAGS_IGNORE_OVERRUN;
	/* the driver data's lengths are 8-byte words here */
	err = ref_write_ex(context->cmd_fd, IB_USER_VERBS_EX_CMD_CREATE_CQ,
			   &cmd, sizeof(cmd.body), (u.in_len + 7) & ~7, &resp,
			   sizeof(resp.core), (u.out_len + 7) & ~7);
	if (err)
		goto err_free;
	cq->cq.handle = resp.core.base.cq_handle;
	cq->cq.cqe = resp.core.base.cqe;
	memcpy(u.out, resp.drv, u.out_len);
	err = finish(cq, &u);
	if (err)
		goto err_free;
	channel_ref(attr->channel, 1);
	return &cq->cq;

err_free:
	free_cq(cq);
	return ref_fail_null(err);
}

/* "returns 0 on success, or the value of errno on failure"; "The cqe
 * member of cq will be updated to the actual size." */
int ref_ibv_resize_cq(struct ibv_cq *ibcq, int cqe)
{
	struct ref_cq *cq = ref_cq(ibcq);
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_resize_cq body;
		__aligned_u64 drv[REF_UDATA_WORDS];
	} cmd = {};
	struct {
		struct ib_uverbs_resize_cq_resp core;
		__aligned_u64 drv[REF_UDATA_WORDS];
	} resp = {};
	const struct ref_provider *prov;
	struct ref_udata u = {};
	int err;

	BUILD_ASSERT(offsetof(typeof(cmd), drv) ==
		     sizeof(cmd.hdr) + sizeof(cmd.body));
	BUILD_ASSERT(offsetof(typeof(resp), drv) == sizeof(resp.core));
	if (!cq)
		return ref_fail(EINVAL);
	prov = ref_ctx(ibcq->context)->prov;
	if (prov->resize_cq_in)
		prov->resize_cq_in(&u);
	memcpy(cmd.drv, u.in, u.in_len);
	cmd.body.response = (uintptr_t)&resp;
	cmd.body.cq_handle = ibcq->handle;
	cmd.body.cqe = cqe;
	/* the kernel copies the queue's entries into the new one: no poll
	 * may consume one until the new queue is mapped */
	pthread_mutex_lock(&cq->lock);
	err = ref_write(ibcq->context->cmd_fd, IB_USER_VERBS_CMD_RESIZE_CQ,
			&cmd, sizeof(cmd.hdr) + sizeof(cmd.body) + u.in_len,
			sizeof(resp.core) + u.out_len);
	if (!err) {
		ibcq->cqe = resp.core.cqe;
		memcpy(u.out, resp.drv, u.out_len);
		if (prov->resize_cq_done)
			err = prov->resize_cq_done(cq, &u);
	}
	pthread_mutex_unlock(&cq->lock);
	return err ? ref_fail(err) : 0;
}

/* "returns 0 on success, or the value of errno on failure"; "fails if any
 * queue pair is still associated with this CQ" (the kernel refuses) */
int ref_ibv_destroy_cq(struct ibv_cq *ibcq)
{
	struct ref_cq *cq = ref_cq(ibcq);
	struct ib_uverbs_destroy_cq_resp r = {};
	int err;

	if (!cq)
		return ref_fail(EINVAL);
	err = destroy_cmd(cq, &r);
	if (err)
		return ref_fail(err);
	/* the completion events too, which ibv_ack_cq_events(3) counts */
	ref_events_wait(&ibcq->mutex, &ibcq->cond, &ibcq->comp_events_completed,
			r.comp_events_reported);
	ref_events_wait(&ibcq->mutex, &ibcq->cond,
			&ibcq->async_events_completed, r.async_events_reported);
	ref_queue_unmap(&cq->q);
	channel_ref(ibcq->channel, -1);
	free_cq(cq);
	return 0;
}
