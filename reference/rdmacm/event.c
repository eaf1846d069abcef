// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_get_cm_event(3) and rdma_ack_cm_event(3).  "If the event type is
 * RDMA_CM_EVENT_CONNECT_REQUEST, then this references a new id for that
 * communication" and listen_id "references the corresponding listening
 * request identifier": the kernel's event names the listener (its uid)
 * and the new id's handle.  CONNECT_RESPONSE "is only generated on
 * rdma_cm_id's that do not have a QP associated with them": with a QP,
 * the reference moves it to RTS, acknowledges the reply (the kernel's
 * ACCEPT without parameters sends the RTU) and reports ESTABLISHED.
 * Private data: "This field is NULL if the event does not include private
 * data.  The buffer referenced by this pointer is deallocated when
 * calling rdma_ack_cm_event."
 */
#include <stdlib.h>
#include <string.h>

#include "cm_priv.h"
#include "ucma.h"
#include "../verbs/ref_verbs.h"

static void conn_event(struct ref_event *e, const struct ucma_event *ue)
{
	struct rdma_conn_param *p = &e->ev.param.conn;

	memcpy(e->private_data, ue->conn.private_data, sizeof(e->private_data));
	p->private_data = ue->conn.private_data_len ? e->private_data : NULL;
	p->private_data_len = ue->conn.private_data_len;
	p->responder_resources = ue->conn.responder_resources;
	p->initiator_depth = ue->conn.initiator_depth;
	p->flow_control = ue->conn.flow_control;
	p->retry_count = ue->conn.retry_count;
	p->rnr_retry_count = ue->conn.rnr_retry_count;
	p->srq = ue->conn.srq;
	p->qp_num = ue->conn.qp_num;
}

/* rdma_get_remote_ece(3): "get ECE parameters as were received from the
 * communication peer": the REQ's on the request's new id, the REP's on
 * the active side's id */
static void remote_ece(struct ref_id *r, const struct ucma_event *ue)
{
	r->remote_ece.vendor_id = ue->conn.ece_vendor_id;
	r->remote_ece.options = ue->conn.ece_attr_mod;
	r->remote_ece.comp_mask = 0;
}

/* a group's event: its uid is the group, its context the join's */
static void mc_event(struct ref_event *e, const struct ucma_event *ue)
{
	struct ref_mc *mc = (struct ref_mc *)(uintptr_t)ue->uid;

	e->mc = mc;
	mc->held++;
	e->counted = mc->owner;
	e->ev.id = mc->owner ? &mc->owner->id : NULL;
	e->ev.param.ud.private_data = mc->context;
	e->ev.param.ud.qp_num = ue->qp_num;
	e->ev.param.ud.qkey = ue->qkey;
	ref_ah_attr_from_uverbs(&ue->ah_attr, &e->ev.param.ud.ah_attr);
	if (ue->event != RDMA_CM_EVENT_MULTICAST_JOIN || ue->status)
		return;
	memcpy(mc->mgid.raw, ue->ah_attr.grh.dgid, 16);
	mc->mlid = ue->ah_attr.dlid;
	if (mc->owner && mc->owner->id.qp && !mc->attached &&
	    !ref_ibv_attach_mcast(mc->owner->id.qp, &mc->mgid, mc->mlid))
		mc->attached = true;
}

/* The new id of a connection request, on the listener's channel, with
 * its addresses and device as the kernel has them. */
static int conn_request(struct ref_event *e, const struct ucma_event *ue)
{
	struct ref_id *listen = e->counted;
	struct ref_id *r = ref_cm_id_new(listen->id.channel, listen->id.context,
					 listen->id.ps, ue->id);
	uint32_t reported;

	if (!r)
		return -1;
	if (ref_cm_sync_addr(r)) {
		int err = errno;

		ucma_destroy_id(listen->id.channel->fd, ue->id, &reported);
		ref_cm_id_free(r);
		return ref_cm_fail(err);
	}
	r->req_responder_resources = ue->conn.responder_resources;
	r->req_initiator_depth = ue->conn.initiator_depth;
	remote_ece(r, ue);
	e->ev.listen_id = &listen->id;
	e->ev.id = &r->id;
	return 0;
}

/* A reply to the connection of an id with a QP: RTR, RTS, the RTU. */
static void conn_response(struct ref_event *e)
{
	struct ref_id *r = e->counted;

	if (ref_cm_modify_qp(r, IBV_QPS_RTR, NULL) ||
	    ref_cm_modify_qp(r, IBV_QPS_RTS, NULL) ||
	    ucma_accept(r->id.channel->fd, r->handle, 0, NULL)) {
		e->ev.event = RDMA_CM_EVENT_CONNECT_ERROR;
		e->ev.status = -errno;
		return;
	}
	e->ev.event = RDMA_CM_EVENT_ESTABLISHED;
}

int ref_rdma_get_cm_event(struct rdma_event_channel *channel,
			  struct rdma_cm_event **event)
{
	struct ucma_event ue;
	struct ref_event *e;

	if (!channel || !event)
		return ref_cm_fail(EINVAL);
	e = calloc(1, sizeof(*e));
	if (!e)
		return ref_cm_fail(ENOMEM);
	if (ucma_get_event(channel->fd, &ue)) {
		int err = errno;

		free(e);
		return ref_cm_fail(err);
	}
	e->ev.event = ue.event;
	e->ev.status = ue.status;
	if (ue.event == RDMA_CM_EVENT_MULTICAST_JOIN ||
	    ue.event == RDMA_CM_EVENT_MULTICAST_ERROR) {
		mc_event(e, &ue);
		*event = &e->ev;
		return 0;
	}
	e->counted = (struct ref_id *)(uintptr_t)ue.uid;
	e->ev.id = &e->counted->id;
	if (ref_cm_written_event(e, ue.event, ue.arg)) {
		*event = &e->ev;
		return 0;
	}
	if (e->counted->id.qp_type != IBV_QPT_UD)
		conn_event(e, &ue);
	switch (ue.event) {
	case RDMA_CM_EVENT_CONNECT_REQUEST:
		if (conn_request(e, &ue)) {
			int err = errno;

			/* the kernel counted it: count it as acknowledged */
			e->ev.id = NULL;
			ref_rdma_ack_cm_event(&e->ev);
			return ref_cm_fail(err);
		}
		break;
	case RDMA_CM_EVENT_ADDR_RESOLVED:
		if (ref_cm_sync_addr(e->counted)) {
			e->ev.event = RDMA_CM_EVENT_ADDR_ERROR;
			e->ev.status = -errno;
		}
		break;
	case RDMA_CM_EVENT_CONNECT_RESPONSE:
		remote_ece(e->counted, &ue);
		if (e->counted->id.qp)
			conn_response(e);
		if (e->ev.event != RDMA_CM_EVENT_CONNECT_ERROR)
			e->counted->connected = true;
		break;
	case RDMA_CM_EVENT_ESTABLISHED:
		e->counted->connected = true;
		break;
	case RDMA_CM_EVENT_DISCONNECTED:
		e->counted->connected = false;
		break;
	}
	*event = &e->ev;
	return 0;
}

int ref_rdma_ack_cm_event(struct rdma_cm_event *event)
{
	struct ref_event *e = (struct ref_event *)event;
	struct ref_id *r;

	if (!event)
		return ref_cm_fail(EINVAL);
	if (e->mc) {
		e->mc->held--;
		ref_cm_mc_put(e->mc);
	}
	r = e->counted;
	if (r) {
		pthread_mutex_lock(&r->lock);
		r->acked++;
		pthread_cond_broadcast(&r->acked_cond);
		pthread_mutex_unlock(&r->lock);
	}
	free(e);
	return 0;
}

void ref_cm_sync_release(struct ref_id *r)
{
	if (!r->sync || !r->id.event)
		return;
	ref_rdma_ack_cm_event(r->id.event);
	r->id.event = NULL;
}

/*
 * rdma_create_id(3) NOTES: "While operating synchronously, calls that
 * result in an event will block until the operation completes.  The
 * event will be returned to the user through the rdma_cm_id structure,
 * and be available for access until another rdma_cm call is made."  An
 * event other than the one the call completes with fails the call: with
 * the status's errno, ECONNREFUSED for a rejection (our reading: the page
 * names no errno).  The events it completes with carry no status in
 * Linux's cma.c (ADDR_RESOLVED, ROUTE_RESOLVED, CONNECT_RESPONSE and
 * ESTABLISHED are sent with 0; a failure is an event of its own:
 * ADDR_ERROR, ROUTE_ERROR, CONNECT_ERROR, UNREACHABLE, REJECTED).
 */
int ref_cm_sync_complete(struct ref_id *r, int want, int alt)
{
	struct rdma_cm_event *ev;

	if (!r->sync)
		return 0;
	ref_cm_sync_release(r);
	if (ref_rdma_get_cm_event(r->id.channel, &ev))
		return -1;
	r->id.event = ev;
	if ((int)ev->event != want && (alt < 0 || (int)ev->event != alt))
		return ref_cm_fail(ev->event == RDMA_CM_EVENT_REJECTED ?
					   ECONNREFUSED :
				   ev->status < 0 ? -ev->status :
						    EIO);
	return 0;
}
