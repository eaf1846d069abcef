// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_get_async_event(3), ibv_ack_async_event(3).
 *
 * The context's async fd gives one struct ib_uverbs_async_event_desc per
 * read(): the event type (the kernel's enum ib_event_type, whose values
 * are enum ibv_event_type's) and its element, which for a QP, CQ, SRQ or
 * WQ event is the user handle the object was made with (the reference's
 * struct itself) and for a port event the port number.  "ibv_get_async_
 * event() is a blocking function" unless the caller made the fd
 * non-blocking (then EAGAIN).  Acknowledging counts the event on its
 * object, which its destruction waits for.
 */
#include <errno.h>
#include <pthread.h>
#include <unistd.h>

#include "ref_verbs.h"
#include "objects.h"

BUILD_ASSERT(sizeof(struct ib_uverbs_async_event_desc) == 16);

/* EL_UNKNOWN: a type later kernels may add, whose element is not known */
enum element { EL_QP, EL_CQ, EL_SRQ, EL_WQ, EL_PORT, EL_DEVICE, EL_UNKNOWN };

/* ibv_get_async_event(3): "One member of the element union will be
 * valid, depending on the event_type member of the structure." */
static enum element element_of(enum ibv_event_type type)
{
	switch (type) {
	case IBV_EVENT_CQ_ERR:
		return EL_CQ;
	case IBV_EVENT_SRQ_ERR:
	case IBV_EVENT_SRQ_LIMIT_REACHED:
		return EL_SRQ;
	case IBV_EVENT_WQ_FATAL:
		return EL_WQ;
	case IBV_EVENT_PORT_ACTIVE:
	case IBV_EVENT_PORT_ERR:
	case IBV_EVENT_LID_CHANGE:
	case IBV_EVENT_PKEY_CHANGE:
	case IBV_EVENT_SM_CHANGE:
	case IBV_EVENT_CLIENT_REREGISTER:
	case IBV_EVENT_GID_CHANGE:
		return EL_PORT;
	case IBV_EVENT_DEVICE_FATAL:
		return EL_DEVICE;
	case IBV_EVENT_QP_FATAL:
	case IBV_EVENT_QP_REQ_ERR:
	case IBV_EVENT_QP_ACCESS_ERR:
	case IBV_EVENT_COMM_EST:
	case IBV_EVENT_SQ_DRAINED:
	case IBV_EVENT_PATH_MIG:
	case IBV_EVENT_PATH_MIG_ERR:
	case IBV_EVENT_QP_LAST_WQE_REACHED:
		return EL_QP;
	}
	return EL_UNKNOWN;
}

/* "returns 0 on success, and -1 on error" */
int ref_ibv_get_async_event(struct ibv_context *context,
			    struct ibv_async_event *event)
{
	struct ib_uverbs_async_event_desc d;
	ssize_t n;

	if (!context || !event) {
		errno = EINVAL;
		return -1;
	}
	n = read(context->async_fd, &d, sizeof(d));
	if (n != sizeof(d)) {
		if (n >= 0)
			errno = EIO;
		return -1;
	}
	event->event_type = d.event_type;
	switch (element_of(event->event_type)) {
	case EL_QP:
		event->element.qp = (struct ibv_qp *)(uintptr_t)d.element;
		break;
	case EL_CQ:
		event->element.cq = (struct ibv_cq *)(uintptr_t)d.element;
		break;
	case EL_SRQ:
		event->element.srq = (struct ibv_srq *)(uintptr_t)d.element;
		break;
	case EL_WQ:
		event->element.wq = (struct ibv_wq *)(uintptr_t)d.element;
		break;
	case EL_PORT:
		event->element.port_num = d.element;
		break;
	case EL_DEVICE:
	case EL_UNKNOWN:
		break;
	}
	return 0;
}

static void count(pthread_mutex_t *m, pthread_cond_t *c, uint32_t *n)
{
	pthread_mutex_lock(m);
	++*n;
	pthread_cond_broadcast(c);
	pthread_mutex_unlock(m);
}

void ref_events_wait(pthread_mutex_t *m, pthread_cond_t *c,
		     const uint32_t *acked, uint32_t reported)
{
	pthread_mutex_lock(m);
	while (*acked < reported)
		pthread_cond_wait(c, m);
	pthread_mutex_unlock(m);
}

void ref_ibv_ack_async_event(struct ibv_async_event *event)
{
	struct ibv_qp *qp;
	struct ibv_cq *cq;
	struct ibv_srq *srq;
	struct ibv_wq *wq;

	if (!event)
		return;
	switch (element_of(event->event_type)) {
	case EL_QP:
		qp = event->element.qp;
		count(&qp->mutex, &qp->cond, &qp->events_completed);
		break;
	case EL_CQ:
		cq = event->element.cq;
		count(&cq->mutex, &cq->cond, &cq->async_events_completed);
		break;
	case EL_SRQ:
		srq = event->element.srq;
		count(&srq->mutex, &srq->cond, &srq->events_completed);
		break;
	case EL_WQ:
		wq = event->element.wq;
		count(&wq->mutex, &wq->cond, &wq->events_completed);
		break;
	case EL_PORT:
	case EL_DEVICE:
	case EL_UNKNOWN:
		break;
	}
}
