// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_leave_multicast(3): "Leaves a multicast group and detaches an
 * associated QP from the group."  "Calling this function before a group
 * has been fully joined results in canceling the join operation."
 * "Destroying an rdma_cm_id will automatically leave all multicast
 * groups."  rdma_join_multicast(3): "After the join operation completes, if
 * a QP is associated with the rdma_cm_id, it is automatically attached to
 * the multicast group when the multicast event is retrieved by the user."
 * "The join context is returned to the user through the private_data
 * field in the rdma_cm_event."
 *
 * A group is its multicast IP address: the port of a sockaddr is not part
 * of it (IP multicast memberships have none), so leave matches family and
 * address.  Leaving never waits: a join event the user still holds stays
 * valid until it is acknowledged, and the group's memory goes with the
 * last of them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <netinet/in.h>

#include "ref_rdmacm.h"
#include "ucma.h"
#include "../verbs/ref_verbs.h"

struct ref_mc {
	struct sockaddr_storage addr;
	uint32_t handle;
	void *context;
	union ibv_gid mgid;
	uint16_t mlid;
	bool attached; /* the id's QP is in the group */
	bool left;
	unsigned int held; /* events given out, not acknowledged */
	struct ref_id *owner;
	struct ref_mc *next;
};

struct ref_id {
	struct rdma_cm_id id; /* first: what the caller sees */
	uint32_t handle;
	struct ref_mc *mcs;
	struct ibv_context *own_verbs;
};

struct ref_event {
	struct rdma_cm_event ev;
	struct ref_mc *mc;
};

static int fail(int err)
{
	errno = err;
	return -1;
}

static struct ref_id *ref_of(struct rdma_cm_id *id)
{
	return (struct ref_id *)id;
}

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

int ref_rdma_create_id(struct rdma_event_channel *channel,
		       struct rdma_cm_id **id, void *context,
		       enum rdma_port_space ps)
{
	struct ref_id *r;

	if (!channel || !id)
		return fail(EINVAL);
	r = calloc(1, sizeof(*r));
	if (!r)
		return fail(ENOMEM);
	r->id.channel = channel;
	r->id.context = context;
	r->id.ps = ps;
	r->id.qp_type = ps == RDMA_PS_UDP || ps == RDMA_PS_IPOIB ? IBV_QPT_UD :
								   IBV_QPT_RC;
	if (ucma_create_id(channel->fd, (uintptr_t)r, ps, r->id.qp_type,
			   &r->handle)) {
		int err = errno;

		free(r);
		return fail(err);
	}
	*id = &r->id;
	return 0;
}

static void free_mc(struct ref_mc *mc)
{
	if (mc->left && !mc->held)
		free(mc);
}

static void detach(struct ref_id *r, struct ref_mc *mc)
{
	if (mc->attached && r->id.qp)
		ref_ibv_detach_mcast(r->id.qp, &mc->mgid, mc->mlid);
	mc->attached = false;
}

int ref_rdma_destroy_id(struct rdma_cm_id *id)
{
	struct ref_id *r = ref_of(id);
	struct ref_mc *mc, *next;
	uint32_t reported;

	if (!id)
		return fail(EINVAL);
	if (ucma_destroy_id(id->channel->fd, r->handle, &reported))
		return -1;
	/* the kernel left every group with the id: so do the QP and we */
	for (mc = r->mcs; mc; mc = next) {
		next = mc->next;
		detach(r, mc);
		mc->left = true;
		mc->owner = NULL;
		free_mc(mc);
	}
	if (r->own_verbs)
		ibv_close_device(r->own_verbs);
	free(r);
	return 0;
}

/* the RDMA device the kernel bound the id to, by node GUID */
static struct ibv_context *open_by_guid(uint64_t guid_be)
{
	struct ibv_device **list = ibv_get_device_list(NULL);
	struct ibv_context *c = NULL;
	int i;

	for (i = 0; list && list[i] && !c; i++)
		if (ibv_get_device_guid(list[i]) == guid_be)
			c = ibv_open_device(list[i]);
	ibv_free_device_list(list);
	return c;
}

static socklen_t addr_len(const struct sockaddr *a)
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

int ref_rdma_bind_addr(struct rdma_cm_id *id, struct sockaddr *addr)
{
	struct ref_id *r = ref_of(id);
	socklen_t len = addr_len(addr);
	uint64_t guid;
	uint8_t port;

	if (!id || !len)
		return fail(EINVAL);
	if (ucma_bind(id->channel->fd, r->handle, addr, len) ||
	    ucma_query_addr(id->channel->fd, r->handle, &guid, &port))
		return -1;
	memcpy(&id->route.addr.src_addr, addr, len);
	if (!guid) /* bound to a wildcard: no device yet */
		return 0;
	r->own_verbs = open_by_guid(guid);
	if (!r->own_verbs)
		return fail(ENODEV);
	id->verbs = r->own_verbs;
	id->port_num = port;
	return 0;
}

/* One join, with the kernel's join flag (the same numbering as librdmacm's
 * enum rdma_cm_mc_join_flags). */
static int join(struct rdma_cm_id *id, struct sockaddr *addr,
		uint32_t join_flags, void *context)
{
	struct ref_id *r = ref_of(id);
	socklen_t len = addr_len(addr);
	struct ref_mc *mc;

	if (!id || !len)
		return fail(EINVAL);
	/* rdma_join_multicast(3): "must be bound to an RDMA device" */
	if (!id->verbs)
		return fail(ENODEV);
	mc = calloc(1, sizeof(*mc));
	if (!mc)
		return fail(ENOMEM);
	memcpy(&mc->addr, addr, len);
	mc->context = context;
	mc->owner = r;
	if (ucma_join(id->channel->fd, r->handle, (uintptr_t)mc, addr, len,
		      join_flags, &mc->handle)) {
		int err = errno;

		free(mc);
		return fail(err);
	}
	mc->next = r->mcs;
	r->mcs = mc;
	return 0;
}

int ref_rdma_join_multicast(struct rdma_cm_id *id, struct sockaddr *addr,
			    void *context)
{
	return join(id, addr, RDMA_MC_JOIN_FLAG_FULLMEMBER, context);
}

/*
 * rdma_join_multicast_ex(3): the attributes' comp_mask says which fields
 * are valid ("Bitwise OR between rdma_cm_join_mc_attr_mask enum"); the
 * address is the group, and join_flags is "a single flag from
 * rdma_cm_mc_join_flags enum".  A join with no address or no flag, or a
 * bit or flag the page does not name, fails.
 */
int ref_rdma_join_multicast_ex(struct rdma_cm_id *id,
			       struct rdma_cm_join_mc_attr_ex *attr,
			       void *context)
{
	const uint32_t known = RDMA_CM_JOIN_MC_ATTR_ADDRESS |
			       RDMA_CM_JOIN_MC_ATTR_JOIN_FLAGS;

	if (!attr || (attr->comp_mask & ~known) ||
	    !(attr->comp_mask & RDMA_CM_JOIN_MC_ATTR_ADDRESS) ||
	    !(attr->comp_mask & RDMA_CM_JOIN_MC_ATTR_JOIN_FLAGS) ||
	    (attr->join_flags != RDMA_MC_JOIN_FLAG_FULLMEMBER &&
	     attr->join_flags != RDMA_MC_JOIN_FLAG_SENDONLY_FULLMEMBER))
		return fail(EINVAL);
	return join(id, attr->addr, attr->join_flags, context);
}

/* Same group: same family and multicast address; the port does not count. */
static bool same_group(const struct sockaddr_storage *a,
		       const struct sockaddr *b)
{
	const struct sockaddr_in *a4 = (const void *)a, *b4 = (const void *)b;
	const struct sockaddr_in6 *a6 = (const void *)a, *b6 = (const void *)b;

	if (a->ss_family != b->sa_family)
		return false;
	if (b->sa_family == AF_INET)
		return a4->sin_addr.s_addr == b4->sin_addr.s_addr;
	if (b->sa_family == AF_INET6)
		return !memcmp(&a6->sin6_addr, &b6->sin6_addr, 16);
	return !memcmp(a, b, addr_len(b));
}

int ref_rdma_leave_multicast(struct rdma_cm_id *id, struct sockaddr *addr)
{
	struct ref_id *r = ref_of(id);
	struct ref_mc **pos, *mc;
	uint32_t reported;

	if (!id || !addr_len(addr))
		return fail(EINVAL);
	for (pos = &r->mcs; *pos; pos = &(*pos)->next)
		if (same_group(&(*pos)->addr, addr))
			break;
	mc = *pos;
	if (!mc)
		return fail(EADDRNOTAVAIL); /* not a group of this id */
	/* "and detaches an associated QP from the group" */
	detach(r, mc);
	/* the kernel cancels a join still in progress, and drops its
	 * events not yet retrieved */
	if (ucma_leave(id->channel->fd, mc->handle, &reported))
		return -1;
	*pos = mc->next;
	mc->left = true;
	mc->owner = NULL;
	free_mc(mc);
	return 0;
}

int ref_rdma_get_cm_event(struct rdma_event_channel *channel,
			  struct rdma_cm_event **event)
{
	struct ucma_event ue;
	struct ref_event *e;
	struct ref_mc *mc;

	if (!channel || !event)
		return fail(EINVAL);
	e = calloc(1, sizeof(*e));
	if (!e)
		return fail(ENOMEM);
	if (ucma_get_event(channel->fd, &ue)) {
		int err = errno;

		free(e);
		return fail(err);
	}
	e->ev.event = ue.event;
	e->ev.status = ue.status;
	if (ue.event != RDMA_CM_EVENT_MULTICAST_JOIN &&
	    ue.event != RDMA_CM_EVENT_MULTICAST_ERROR) {
		e->ev.id = &((struct ref_id *)(uintptr_t)ue.uid)->id;
		*event = &e->ev;
		return 0;
	}
	/* a group's event: its uid is the group, its context the join's */
	mc = (struct ref_mc *)(uintptr_t)ue.uid;
	e->mc = mc;
	mc->held++;
	e->ev.id = mc->owner ? &mc->owner->id : NULL;
	e->ev.param.ud.private_data = mc->context;
	e->ev.param.ud.qp_num = ue.qp_num;
	e->ev.param.ud.qkey = ue.qkey;
	ref_ah_attr_from_uverbs(&ue.ah_attr, &e->ev.param.ud.ah_attr);
	if (ue.event == RDMA_CM_EVENT_MULTICAST_JOIN && !ue.status) {
		memcpy(mc->mgid.raw, ue.ah_attr.grh.dgid, 16);
		mc->mlid = ue.ah_attr.dlid;
		if (mc->owner && mc->owner->id.qp && !mc->attached &&
		    !ref_ibv_attach_mcast(mc->owner->id.qp, &mc->mgid,
					  mc->mlid))
			mc->attached = true;
	}
	*event = &e->ev;
	return 0;
}

int ref_rdma_ack_cm_event(struct rdma_cm_event *event)
{
	struct ref_event *e = (struct ref_event *)event;

	if (!event)
		return fail(EINVAL);
	if (e->mc) {
		e->mc->held--;
		free_mc(e->mc);
	}
	free(e);
	return 0;
}

static int modify(struct rdma_cm_id *id, struct ibv_qp *qp)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT };
	uint8_t port;

	if (ucma_init_qp_attr(id->channel->fd, ref_of(id)->handle, IBV_QPS_INIT,
			      &a.qkey, &a.pkey_index, &port))
		return -1;
	a.port_num = port;
	if (ibv_modify_qp(qp, &a,
			  IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
				  IBV_QP_QKEY))
		return -1;
	a.qp_state = IBV_QPS_RTR;
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE))
		return -1;
	a.qp_state = IBV_QPS_RTS;
	a.sq_psn = 0;
	return ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_SQ_PSN) ? -1 : 0;
}

/* The QP itself is rdma-core's (a resource); the reference moves it to
 * RTS with the attributes the kernel gives for the id (its Q_Key). */
int ref_rdma_create_qp(struct rdma_cm_id *id, struct ibv_pd *pd,
		       struct ibv_qp_init_attr *qp_init_attr)
{
	struct ibv_qp *qp;

	if (!id || !pd || !qp_init_attr || !id->verbs ||
	    pd->context != id->verbs)
		return fail(EINVAL);
	if (id->qp_type != IBV_QPT_UD || qp_init_attr->qp_type != IBV_QPT_UD)
		return fail(EOPNOTSUPP); /* beyond what the cases need */
	qp = ibv_create_qp(pd, qp_init_attr);
	if (!qp)
		return -1;
	if (modify(id, qp)) {
		int err = errno;

		ibv_destroy_qp(qp);
		return fail(err);
	}
	id->qp = qp;
	id->pd = pd;
	return 0;
}

void ref_rdma_destroy_qp(struct rdma_cm_id *id)
{
	struct ref_id *r = ref_of(id);
	struct ref_mc *mc;

	if (!id || !id->qp)
		return;
	for (mc = r->mcs; mc; mc = mc->next)
		detach(r, mc);
	ibv_destroy_qp(id->qp);
	id->qp = NULL;
}
