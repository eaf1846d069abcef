// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Endpoints: rdma_create_ep(3), rdma_destroy_ep(3), rdma_get_request(3),
 * over the reference's own calls.
 *
 * rdma_create_ep(3): "The newly created rdma_cm_id will be set to use
 * synchronous operation."  Active side (no RAI_PASSIVE in ai_flags): the
 * address and route are resolved ("The active side calls
 * rdma_resolve_addr and rdma_resolve_route are not necessary.") and,
 * given qp_init_attr, a QP made "associated with the specified protection
 * domain, if provided, or a default protection domain if not" (what
 * rdma_create_qp does with no PD).  Passive side: bound to the source
 * address ("The passive side call rdma_bind_addr is not necessary."), pd
 * and qp_init_attr saved for the requests.
 *
 * rdma_get_request(3): "This call may only be used on listening
 * rdma_cm_id's operating synchronously.  On success, a new rdma_cm_id
 * representing the connection request will be returned to the user.  The
 * new rdma_cm_id will reference event information associated with the
 * request until the user calls rdma_reject, rdma_accept, or
 * rdma_destroy_id on the newly created identifier."  "If QP attributes
 * are associated with the listening endpoint, the returned rdma_cm_id
 * will also reference an allocated QP."  The new id is synchronous too,
 * on a channel of its own.
 *
 * rdma_destroy_ep(3): "rdma_destroy_ep will automatically destroy any QP
 * and SRQ associated with the rdma_cm_id."
 */
#include <stdlib.h>
#include <string.h>

#include "cm_priv.h"

#define EP_RESOLVE_MS 2000 /* the page gives no timeout: ours */

/* what a passive endpoint keeps for its requests */
struct ref_ep_qp {
	struct ibv_pd *pd;
	struct ibv_qp_init_attr attr;
};

int ref_rdma_create_ep(struct rdma_cm_id **id, struct rdma_addrinfo *res,
		       struct ibv_pd *pd, struct ibv_qp_init_attr *qp_init_attr)
{
	struct rdma_cm_id *cm;
	struct ref_id *r;
	int err;

	if (!id || !res)
		return ref_cm_fail(EINVAL);
	if (ref_rdma_create_id(NULL, &cm, NULL, res->ai_port_space))
		return -1;
	r = ref_of(cm);
	if (res->ai_flags & RAI_PASSIVE) {
		if (res->ai_src_addr &&
		    ref_rdma_bind_addr(cm, res->ai_src_addr))
			goto fail;
		if (qp_init_attr) {
			r->ep_qp = calloc(1, sizeof(*r->ep_qp));
			if (!r->ep_qp) {
				errno = ENOMEM;
				goto fail;
			}
			r->ep_qp->pd = pd;
			r->ep_qp->attr = *qp_init_attr;
		}
	} else {
		if (ref_rdma_resolve_addr(
			    cm, res->ai_src_len ? res->ai_src_addr : NULL,
			    res->ai_dst_addr, EP_RESOLVE_MS) ||
		    ref_rdma_resolve_route(cm, EP_RESOLVE_MS) ||
		    (qp_init_attr && ref_rdma_create_qp(cm, pd, qp_init_attr)))
			goto fail;
	}
	*id = cm;
	return 0;
fail:
	err = errno;
	ref_rdma_destroy_ep(cm);
	return ref_cm_fail(err);
}

void ref_rdma_destroy_ep(struct rdma_cm_id *id)
{
	struct ref_id *r = ref_of(id);

	if (!id)
		return;
	/* "rdma_destroy_ep will automatically destroy any QP and SRQ
	 * associated with the rdma_cm_id." */
	if (id->qp)
		ref_rdma_destroy_qp(id);
	if (id->srq)
		ref_rdma_destroy_srq(id);
	free(r->ep_qp);
	r->ep_qp = NULL;
	ref_rdma_destroy_id(id);
}

int ref_rdma_get_request(struct rdma_cm_id *listen, struct rdma_cm_id **id)
{
	struct ref_id *l = ref_of(listen);
	struct rdma_cm_event *ev;
	struct rdma_cm_id *new_id;
	int err;

	if (!listen || !id)
		return ref_cm_fail(EINVAL);
	if (!l->sync)
		return ref_cm_fail(EINVAL);
	ref_cm_sync_release(l);
	for (;;) {
		if (ref_rdma_get_cm_event(listen->channel, &ev))
			return -1;
		if (ev->event == RDMA_CM_EVENT_CONNECT_REQUEST && !ev->status)
			break;
		/* a listener's other events are not requests */
		ref_rdma_ack_cm_event(ev);
	}
	new_id = ev->id;
	/* its own channel, synchronous; it keeps the request's event */
	if (ref_rdma_migrate_id(new_id, NULL))
		goto fail;
	new_id->event = ev;
	if (l->ep_qp &&
	    ref_rdma_create_qp(new_id, l->ep_qp->pd, &l->ep_qp->attr))
		goto fail;
	*id = new_id;
	return 0;
fail:
	err = errno;
	if (new_id->event != ev)
		ref_rdma_ack_cm_event(ev);
	ref_rdma_destroy_id(new_id);
	return ref_cm_fail(err);
}
