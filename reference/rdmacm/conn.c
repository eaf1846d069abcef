// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Connections: rdma_listen(3), rdma_connect(3), rdma_accept(3),
 * rdma_reject(3), rdma_establish(3), rdma_disconnect(3).
 *
 * rdma_connect(3) and rdma_accept(3): srq and qp_num are "ignored by the
 * library if a QP has been created on the rdma_cm_id"; the QP's are sent
 * instead.  rdma_accept(3): "If the conn_param parameter is NULL, the
 * values reported in the connection request event are used".  With a QP
 * on an InfiniBand-transport device, accept moves it to RTR and RTS
 * before the reply goes (event.c does the same for the active side when
 * the reply comes).  rdma_establish(3): "This function should not be used
 * on an rdma_cm_id on which a QP has been created."  rdma_disconnect(3):
 * "Disconnects a connection and transitions any associated QP to the
 * error state".  The limits of the private data ("56 bytes for
 * RDMA_PS_TCP" to connect, 196 to accept, on InfiniBand) are the
 * kernel's to enforce: it knows the transport.
 */
#include <string.h>

#include "cm_priv.h"
#include "ucma.h"
#include "../verbs/ref_verbs.h"

int ref_rdma_listen(struct rdma_cm_id *id, int backlog)
{
	if (!id)
		return ref_cm_fail(EINVAL);
	if (ucma_listen(id->channel->fd, ref_of(id)->handle,
			backlog > 0 ? backlog : 0))
		return -1;
	return ref_cm_sync_addr(ref_of(id));
}

/* The caller's parameters as the kernel takes them, the QP's number
 * and SRQ in place of the caller's when the id has a QP. */
static int to_kernel(const struct ref_id *r, const struct rdma_conn_param *p,
		     struct ucma_conn *k)
{
	memset(k, 0, sizeof(*k));
	if (p->private_data_len && !p->private_data)
		return ref_cm_fail(EINVAL);
	if (p->private_data_len)
		memcpy(k->private_data, p->private_data, p->private_data_len);
	k->private_data_len = p->private_data_len;
	k->responder_resources = p->responder_resources;
	k->initiator_depth = p->initiator_depth;
	k->flow_control = p->flow_control;
	k->retry_count = p->retry_count;
	k->rnr_retry_count = p->rnr_retry_count;
	k->srq = r->id.qp ? r->id.srq != NULL : p->srq;
	k->qp_num = r->id.qp ? r->id.qp->qp_num : p->qp_num;
	/* rdma_set_local_ece(3): "Set local ECE paraemters to be used for
	 * REQ/REP communication." */
	k->ece_vendor_id = r->local_ece.vendor_id;
	k->ece_attr_mod = r->local_ece.options;
	return 0;
}

/* rdma_connect(3), rdma_accept(3): responder_resources "must be less
 * than or equal to the local RDMA device attribute max_qp_rd_atom", and
 * initiator_depth to max_qp_init_rd_atom.  RDMA_MAX_RESP_RES and
 * RDMA_MAX_INIT_DEPTH (rdma_cma.h) ask for the device's own. */
static int depths_allowed(const struct ref_id *r,
			  const struct rdma_conn_param *p)
{
	struct ibv_device_attr a;

	if (!r->id.verbs)
		return 0; /* not resolved: the kernel refuses the id */
	if (ref_ibv_query_device(r->id.verbs, &a))
		return -1;
	if ((p->responder_resources != RDMA_MAX_RESP_RES &&
	     p->responder_resources > a.max_qp_rd_atom) ||
	    (p->initiator_depth != RDMA_MAX_INIT_DEPTH &&
	     p->initiator_depth > a.max_qp_init_rd_atom))
		return ref_cm_fail(EINVAL);
	return 0;
}

int ref_rdma_connect(struct rdma_cm_id *id, struct rdma_conn_param *conn_param)
{
	struct rdma_conn_param none = {};
	struct ucma_conn k;

	if (!id)
		return ref_cm_fail(EINVAL);
	if (depths_allowed(ref_of(id), conn_param ? conn_param : &none) ||
	    to_kernel(ref_of(id), conn_param ? conn_param : &none, &k) ||
	    ucma_connect(id->channel->fd, ref_of(id)->handle, &k))
		return -1;
	/* without a QP the reply is CONNECT_RESPONSE, for rdma_establish */
	return ref_cm_sync_complete(ref_of(id), RDMA_CM_EVENT_ESTABLISHED,
				    RDMA_CM_EVENT_CONNECT_RESPONSE);
}

static uint8_t at_most(uint8_t v, int max)
{
	return v < max ? v : max;
}

/* "the values reported in the connection request event are used,
 * adjusted down based on local hardware restrictions" */
static int request_values(const struct ref_id *r, struct rdma_conn_param *p)
{
	struct ibv_device_attr a;

	if (ref_ibv_query_device(r->id.verbs, &a))
		return -1;
	p->responder_resources =
		at_most(r->req_responder_resources, a.max_qp_rd_atom);
	p->initiator_depth =
		at_most(r->req_initiator_depth, a.max_qp_init_rd_atom);
	p->rnr_retry_count = 7;
	return 0;
}

int ref_rdma_accept(struct rdma_cm_id *id, struct rdma_conn_param *conn_param)
{
	struct ref_id *r = ref_of(id);
	struct rdma_conn_param p = {};
	struct ucma_conn k;

	if (!id)
		return ref_cm_fail(EINVAL);
	if (conn_param) {
		if (depths_allowed(r, conn_param))
			return -1;
		p = *conn_param;
	} else if (request_values(r, &p)) {
		return -1;
	}
	if (id->qp && !ref_cm_iwarp(r) &&
	    (ref_cm_modify_qp(r, IBV_QPS_RTR, &p) ||
	     ref_cm_modify_qp(r, IBV_QPS_RTS, &p)))
		return -1;
	if (to_kernel(r, &p, &k) ||
	    ucma_accept(id->channel->fd, r->handle, (uintptr_t)r, &k))
		return -1;
	return ref_cm_sync_complete(r, RDMA_CM_EVENT_ESTABLISHED, -1);
}

int ref_rdma_reject(struct rdma_cm_id *id, const void *private_data,
		    uint8_t private_data_len)
{
	if (!id || (private_data_len && !private_data))
		return ref_cm_fail(EINVAL);
	/* rdma_get_request(3): the request's event is the new id's "until
	 * the user calls rdma_reject, rdma_accept, or rdma_destroy_id" */
	ref_cm_sync_release(ref_of(id));
	return ucma_reject(id->channel->fd, ref_of(id)->handle, private_data,
			   private_data_len);
}

int ref_rdma_establish(struct rdma_cm_id *id)
{
	if (!id)
		return ref_cm_fail(EINVAL);
	if (id->qp)
		return ref_cm_fail(EINVAL);
	return ucma_accept(id->channel->fd, ref_of(id)->handle, 0, NULL);
}

int ref_rdma_disconnect(struct rdma_cm_id *id)
{
	struct ibv_qp_attr err = { .qp_state = IBV_QPS_ERR };

	if (!id)
		return ref_cm_fail(EINVAL);
	if (id->qp && !ref_cm_iwarp(ref_of(id)) &&
	    ref_ibv_modify_qp(id->qp, &err, IBV_QP_STATE))
		return -1;
	return ucma_disconnect(id->channel->fd, ref_of(id)->handle);
}

/*
 * rdma_set_local_ece(3) and rdma_get_remote_ece(3): "This function is
 * suppose to be used by the users of external QPs."  Read as: an id with
 * a QP of its own, which rdma_cm moves, is none the calls serve (EINVAL).
 * No comp_mask bit is defined: any is refused.  The kernel carries the
 * parameters (CONNECT's and ACCEPT's struct rdma_ucm_ece, and the event's
 * of the peer's REQ or REP): the reference only keeps them.
 */
int ref_rdma_set_local_ece(struct rdma_cm_id *id, struct ibv_ece *ece)
{
	if (!id || !ece || id->qp || ece->comp_mask)
		return ref_cm_fail(EINVAL);
	ref_of(id)->local_ece.vendor_id = ece->vendor_id;
	ref_of(id)->local_ece.options = ece->options;
	return 0;
}

int ref_rdma_get_remote_ece(struct rdma_cm_id *id, struct ibv_ece *ece)
{
	if (!id || !ece || id->qp)
		return ref_cm_fail(EINVAL);
	*ece = ref_of(id)->remote_ece;
	ece->comp_mask = 0;
	return 0;
}
