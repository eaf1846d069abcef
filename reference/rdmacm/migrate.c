// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_migrate_id(3): "This routine migrates a communication identifier
 * to the specified event channel and moves any pending events associated
 * with the rdma_cm_id to the new channel."  "This call will block while
 * there are any unacknowledged events on the current event channel."
 * "If the channel parameter is NULL, the specified rdma_cm_id will be
 * placed into synchronous operation mode."  The kernel moves the id and
 * its queued events (MIGRATE_ID, written to the new channel) and answers
 * with the events it has reported for the id; the reference waits until
 * the caller has acknowledged as many.  A synchronous id's channel is its
 * own, made here and closed when the id leaves it.
 *
 * rdma_notify(3): "Used to notify the librdmacm of asynchronous events
 * that have occurred on a QP associated with the rdma_cm_id."  The event
 * goes to the kernel's communication manager as it is (NOTIFY): libibverbs'
 * enum ibv_event_type numbers the kernel's enum ib_event_type.
 */
#include "cm_priv.h"
#include "ucma.h"

int ref_rdma_migrate_id(struct rdma_cm_id *id,
			struct rdma_event_channel *channel)
{
	struct ref_id *r = ref_of(id);
	struct rdma_event_channel *ch = channel, *old;
	bool was_sync;
	uint32_t reported;

	if (!id)
		return ref_cm_fail(EINVAL);
	if (!ch) {
		ch = ref_rdma_create_event_channel();
		if (!ch)
			return -1;
	}
	if (ucma_migrate_id(ch->fd, r->handle, id->channel->fd, &reported)) {
		int err = errno;

		if (!channel)
			ref_rdma_destroy_event_channel(ch);
		return ref_cm_fail(err);
	}
	/* the event a synchronous id holds is one of the unacknowledged */
	ref_cm_sync_release(r);
	old = id->channel;
	was_sync = r->sync;
	pthread_mutex_lock(&r->lock);
	id->channel = ch;
	r->sync = !channel;
	while (r->acked < reported)
		pthread_cond_wait(&r->acked_cond, &r->lock);
	pthread_mutex_unlock(&r->lock);
	if (was_sync)
		ref_rdma_destroy_event_channel(old);
	return 0;
}

int ref_rdma_notify(struct rdma_cm_id *id, enum ibv_event_type event)
{
	if (!id)
		return ref_cm_fail(EINVAL);
	ref_cm_sync_release(ref_of(id));
	return ucma_notify(id->channel->fd, ref_of(id)->handle, event);
}
