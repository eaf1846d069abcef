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
 * last of them (event.c).
 */
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>

#include "cm_priv.h"
#include "ucma.h"
#include "../verbs/ref_verbs.h"

void ref_cm_mc_put(struct ref_mc *mc)
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

/* One join, with the kernel's join flag (the same numbering as librdmacm's
 * enum rdma_cm_mc_join_flags). */
static int join(struct rdma_cm_id *id, struct sockaddr *addr,
		uint32_t join_flags, void *context)
{
	struct ref_id *r = ref_of(id);
	socklen_t len = ref_cm_addr_len(addr);
	struct ref_mc *mc;

	if (!id || !len)
		return ref_cm_fail(EINVAL);
	/* rdma_join_multicast(3): "must be bound to an RDMA device" */
	if (!id->verbs)
		return ref_cm_fail(ENODEV);
	mc = calloc(1, sizeof(*mc));
	if (!mc)
		return ref_cm_fail(ENOMEM);
	memcpy(&mc->addr, addr, len);
	mc->context = context;
	mc->owner = r;
	if (ucma_join(id->channel->fd, r->handle, (uintptr_t)mc, addr, len,
		      join_flags, &mc->handle)) {
		int err = errno;

		free(mc);
		return ref_cm_fail(err);
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
		return ref_cm_fail(EINVAL);
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
	return !memcmp(a, b, ref_cm_addr_len(b));
}

int ref_rdma_leave_multicast(struct rdma_cm_id *id, struct sockaddr *addr)
{
	struct ref_id *r = ref_of(id);
	struct ref_mc **pos, *mc;
	uint32_t reported;

	if (!id || !ref_cm_addr_len(addr))
		return ref_cm_fail(EINVAL);
	for (pos = &r->mcs; *pos; pos = &(*pos)->next)
		if (same_group(&(*pos)->addr, addr))
			break;
	mc = *pos;
	if (!mc)
		return ref_cm_fail(EADDRNOTAVAIL); /* not a group of this id */
	/* "and detaches an associated QP from the group" */
	detach(r, mc);
	/* the kernel cancels a join still in progress, and drops its
	 * events not yet retrieved */
	if (ucma_leave(id->channel->fd, mc->handle, &reported))
		return -1;
	*pos = mc->next;
	mc->left = true;
	mc->owner = NULL;
	ref_cm_mc_put(mc);
	return 0;
}

void ref_cm_mc_detach_all(struct rdma_cm_id *id)
{
	struct ref_id *r = ref_of(id);
	struct ref_mc *mc;

	for (mc = r->mcs; mc; mc = mc->next)
		detach(r, mc);
}
