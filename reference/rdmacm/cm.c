// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Event channels, ids and binding.  rdma_create_event_channel(3),
 * rdma_create_id(3), rdma_destroy_id(3): "Destroys the specified
 * rdma_cm_id and cancels any outstanding asynchronous operation."
 * rdma_get_cm_event(3): "Destruction of an rdma_cm_id will block until
 * related events have been acknowledged."  The kernel answers DESTROY_ID
 * with the number of events it reported for the id; the reference waits
 * until the caller has acknowledged as many.
 *
 * An id's device is opened when the kernel binds it (by node GUID), once
 * per process and device for all its ids.  A connected id's
 * (RDMA_PS_TCP) is the verbs reference's, so that its QPs are the
 * reference's too; a datagram id's is libibverbs' own, whose data path
 * the multicast rows use (the verbs reference has none yet).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <netinet/in.h>

#include "cm_priv.h"
#include "ucma.h"
#include "../verbs/ref_verbs.h"

struct rdma_event_channel *ref_rdma_create_event_channel(void)
{
	struct rdma_event_channel *ch = calloc(1, sizeof(*ch));

	if (!ch)
		return NULL;
	ch->fd = ucma_open();
	if (ch->fd < 0) {
		int err = errno;

		free(ch);
		errno = err == ENOENT ? ENODEV : err;
		return NULL;
	}
	return ch;
}

void ref_rdma_destroy_event_channel(struct rdma_event_channel *channel)
{
	if (!channel)
		return;
	close(channel->fd);
	free(channel);
}

struct ref_id *ref_cm_id_new(struct rdma_event_channel *channel, void *context,
			     enum rdma_port_space ps, uint32_t handle)
{
	struct ref_id *r = calloc(1, sizeof(*r));

	if (!r) {
		errno = ENOMEM;
		return NULL;
	}
	r->id.channel = channel;
	r->id.context = context;
	r->id.ps = ps;
	r->id.qp_type = ps == RDMA_PS_UDP || ps == RDMA_PS_IPOIB ? IBV_QPT_UD :
								   IBV_QPT_RC;
	r->handle = handle;
	pthread_mutex_init(&r->lock, NULL);
	pthread_cond_init(&r->acked_cond, NULL);
	return r;
}

static void put_device(struct ibv_context *c);

void ref_cm_id_free(struct ref_id *r)
{
	if (r->resolved_ai)
		ref_rdma_freeaddrinfo(r->resolved_ai);
	if (r->own_verbs)
		put_device(r->own_verbs);
	pthread_cond_destroy(&r->acked_cond);
	pthread_mutex_destroy(&r->lock);
	free(r);
}

int ref_rdma_create_id(struct rdma_event_channel *channel,
		       struct rdma_cm_id **id, void *context,
		       enum rdma_port_space ps)
{
	struct rdma_event_channel *ch = channel;
	struct ref_id *r;
	uint8_t qp_type;

	if (!id)
		return ref_cm_fail(EINVAL);
	/* "This may be NULL": a synchronous id, on a channel of its own */
	if (!ch) {
		ch = ref_rdma_create_event_channel();
		if (!ch)
			return -1;
	}
	r = ref_cm_id_new(ch, context, ps, 0);
	if (!r) {
		if (!channel)
			ref_rdma_destroy_event_channel(ch);
		return -1;
	}
	r->sync = !channel;
	qp_type = r->id.qp_type;
	if (ucma_create_id(ch->fd, (uintptr_t)r, ps, qp_type, &r->handle)) {
		int err = errno;

		ref_cm_id_free(r);
		if (!channel)
			ref_rdma_destroy_event_channel(ch);
		return ref_cm_fail(err);
	}
	*id = &r->id;
	return 0;
}

int ref_rdma_destroy_id(struct rdma_cm_id *id)
{
	struct ref_id *r = ref_of(id);
	struct rdma_event_channel *own;
	struct ref_mc *mc, *next;
	uint32_t reported;

	if (!id)
		return ref_cm_fail(EINVAL);
	if (ucma_destroy_id(id->channel->fd, r->handle, &reported))
		return -1;
	ref_cm_sync_release(r);
	own = r->sync ? id->channel : NULL;
	pthread_mutex_lock(&r->lock);
	while (r->acked < reported)
		pthread_cond_wait(&r->acked_cond, &r->lock);
	pthread_mutex_unlock(&r->lock);
	/* the kernel left every group with the id: so do the QP and we */
	for (mc = r->mcs; mc; mc = next) {
		next = mc->next;
		if (mc->attached && id->qp)
			ref_ibv_detach_mcast(id->qp, &mc->mgid, mc->mlid);
		mc->attached = false;
		mc->left = true;
		mc->owner = NULL;
		if (!mc->held)
			free(mc);
	}
	ref_cm_id_free(r);
	if (own)
		ref_rdma_destroy_event_channel(own);
	return 0;
}

/* the RDMA device the kernel bound the id to, by node GUID: through the
 * verbs reference for a connected id, libibverbs for a datagram one */
static struct ibv_context *open_by_guid(uint64_t guid_be, bool ud)
{
	struct ibv_device **list = ud ? ibv_get_device_list(NULL) :
					ref_ibv_get_device_list(NULL);
	struct ibv_context *c = NULL;
	int i;

	for (i = 0; list && list[i] && !c; i++) {
		if ((ud ? ibv_get_device_guid(list[i]) :
			  ref_ibv_get_device_guid(list[i])) != guid_be)
			continue;
		c = ud ? ibv_open_device(list[i]) :
			 ref_ibv_open_device(list[i]);
	}
	if (ud)
		ibv_free_device_list(list);
	else
		ref_ibv_free_device_list(list);
	return c;
}

/*
 * A process's ids share one context per device and kind (as librdmacm
 * keeps one per device), opened for the first id bound to it and closed
 * with the last: a context per id would cost a device list and an open
 * each time.
 */
#define MAX_DEVICES 16
static struct shared_dev {
	uint64_t guid_be;
	bool ud;
	struct ibv_context *c;
	unsigned int refs;
	bool pinned; /* in a list of rdma_get_devices: one ref for good */
	/* "One default protection domain is allocated per RDMA device"
	 * (rdma_create_qp(3), rdma_create_srq(3)): made for the first id
	 * that asks, freed with the context (as librdmacm keeps its own for
	 * as long as the device is open) */
	struct ibv_pd *pd;
} devs[MAX_DEVICES];
static pthread_mutex_t devs_lock = PTHREAD_MUTEX_INITIALIZER;

static struct ibv_context *get_device(uint64_t guid_be, bool ud)
{
	struct shared_dev *free_slot = NULL, *d = NULL;
	struct ibv_context *c = NULL;
	int i;

	pthread_mutex_lock(&devs_lock);
	for (i = 0; i < MAX_DEVICES && !d; i++) {
		if (devs[i].refs && devs[i].guid_be == guid_be &&
		    devs[i].ud == ud)
			d = &devs[i];
		else if (!devs[i].refs && !free_slot)
			free_slot = &devs[i];
	}
	if (!d && free_slot) {
		free_slot->c = open_by_guid(guid_be, ud);
		if (free_slot->c) {
			d = free_slot;
			d->guid_be = guid_be;
			d->ud = ud;
		}
	}
	if (d) {
		d->refs++;
		c = d->c;
	}
	pthread_mutex_unlock(&devs_lock);
	return c;
}

static void put_device(struct ibv_context *c)
{
	int i;

	pthread_mutex_lock(&devs_lock);
	for (i = 0; i < MAX_DEVICES; i++) {
		if (!devs[i].refs || devs[i].c != c)
			continue;
		if (--devs[i].refs)
			break;
		if (devs[i].pd)
			(devs[i].ud ? ibv_dealloc_pd :
				      ref_ibv_dealloc_pd)(devs[i].pd);
		devs[i].pd = NULL;
		(devs[i].ud ? ibv_close_device : ref_ibv_close_device)(c);
		break;
	}
	pthread_mutex_unlock(&devs_lock);
}

struct ibv_pd *ref_cm_device_pd(struct ibv_context *c)
{
	struct ibv_pd *pd = NULL;
	int i;

	pthread_mutex_lock(&devs_lock);
	for (i = 0; i < MAX_DEVICES; i++) {
		if (!devs[i].refs || devs[i].c != c)
			continue;
		if (!devs[i].pd)
			devs[i].pd = devs[i].ud ? ibv_alloc_pd(c) :
						  ref_ibv_alloc_pd(c);
		pd = devs[i].pd;
		break;
	}
	pthread_mutex_unlock(&devs_lock);
	if (i == MAX_DEVICES)
		errno = EINVAL;
	return pd;
}

/* A connected id's context of the device, held for good: rdma_get_devices
 * (3) NOTES: "Devices remain opened while the librdmacm is loaded." */
static struct ibv_context *pin_device(uint64_t guid_be)
{
	struct ibv_context *c = get_device(guid_be, false);
	int i;

	if (!c)
		return NULL;
	pthread_mutex_lock(&devs_lock);
	for (i = 0; i < MAX_DEVICES; i++) {
		if (!devs[i].refs || devs[i].c != c || devs[i].ud)
			continue;
		if (devs[i].pinned)
			devs[i].refs--; /* the pin holds it already */
		devs[i].pinned = true;
		break;
	}
	pthread_mutex_unlock(&devs_lock);
	return c;
}

/*
 * rdma_get_devices(3): "Return a NULL-terminated array of opened RDMA
 * devices.  Callers can use this routine to allocate resources on
 * specific RDMA devices that will be shared across multiple
 * rdma_cm_id's."  The contexts are those a connected id bound to the
 * device gets (get_device), so that what the caller allocates on them
 * serves the ids.  "Returns an array of available RDMA devices, or NULL
 * if the request fails": no device, or none that opens, is a failure
 * (our reading), with the errno of the last open.
 */
struct ibv_context **ref_rdma_get_devices(int *num_devices)
{
	struct ibv_context **list;
	struct ibv_device **found;
	int n = 0, i, k = 0, err = ENODEV;

	found = ref_ibv_get_device_list(&n);
	if (!found)
		return NULL;
	list = calloc(n + 1, sizeof(*list));
	if (!list) {
		ref_ibv_free_device_list(found);
		errno = ENOMEM;
		return NULL;
	}
	for (i = 0; i < n; i++) {
		list[k] = pin_device(ref_ibv_get_device_guid(found[i]));
		if (list[k])
			k++;
		else
			err = errno;
	}
	ref_ibv_free_device_list(found);
	if (!k) {
		free(list);
		errno = err;
		return NULL;
	}
	if (num_devices)
		*num_devices = k;
	return list;
}

/* rdma_free_devices(3): "Frees the device array returned by
 * rdma_get_devices."  The array only: its devices stay open. */
void ref_rdma_free_devices(struct ibv_context **list)
{
	free(list);
}

socklen_t ref_cm_addr_len(const struct sockaddr *a)
{
	if (!a)
		return 0;
	switch (a->sa_family) {
	case AF_INET:
		return sizeof(struct sockaddr_in);
	case AF_INET6:
		return sizeof(struct sockaddr_in6);
	case AF_IB:
		return sizeof(struct sockaddr_ib);
	}
	return 0;
}

/* The id's addresses as the kernel has them; @a what it answered */
static int sync_addresses(struct ref_id *r, struct ucma_addr *a)
{
	if (ucma_query_addr(r->id.channel->fd, r->handle, a))
		return -1;
	memcpy(&r->id.route.addr.src_storage, &a->src, sizeof(a->src));
	memcpy(&r->id.route.addr.dst_storage, &a->dst, sizeof(a->dst));
	return 0;
}

int ref_cm_sync_addresses(struct ref_id *r)
{
	struct ucma_addr a;

	return sync_addresses(r, &a);
}

int ref_cm_sync_addr(struct ref_id *r)
{
	struct ucma_addr a;

	if (sync_addresses(r, &a))
		return -1;
	if (!a.node_guid_be || r->own_verbs) /* no device, or known */
		return 0;
	r->own_verbs = get_device(a.node_guid_be, r->id.qp_type == IBV_QPT_UD);
	if (!r->own_verbs)
		return ref_cm_fail(ENODEV);
	r->id.verbs = r->own_verbs;
	r->id.port_num = a.port;
	return 0;
}

int ref_rdma_bind_addr(struct rdma_cm_id *id, struct sockaddr *addr)
{
	socklen_t len = ref_cm_addr_len(addr);

	if (!id || !len)
		return ref_cm_fail(EINVAL);
	if (ucma_bind(id->channel->fd, ref_of(id)->handle, addr, len))
		return -1;
	return ref_cm_sync_addr(ref_of(id));
}
