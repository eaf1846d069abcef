// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Address and route resolution, and an id's addresses and ports.
 * rdma_resolve_addr(3): "Resolve destination and optional source
 * addresses from IP addresses to an RDMA address.  If successful, the
 * specified rdma_cm_id will be bound to a local device."  "If a source
 * address is given, the rdma_cm_id is bound to that address, the same as
 * if rdma_bind_addr were called."  The device is known from the
 * ADDR_RESOLVED event on (event.c).  rdma_resolve_route(3): "The
 * destination address must have already been resolved".
 *
 * rdma_get_src_port(3) and rdma_get_local_addr(3) answer what the id is
 * bound to; rdma_get_dst_port(3): "If the rdma_cm_id is not connected, the
 * returned value is 0."; rdma_get_peer_addr(3): "If the rdma_cm_id is not
 * connected, the contents of the sockaddr structure will be set to all
 * zeroes."  Connected is from ESTABLISHED to DISCONNECTED.  Ports are as
 * the sockaddr holds them, in network order (<rdma/rdma_cma.h> declares
 * them __be16).
 */
#include <string.h>
#include <netinet/in.h>

#include "cm_priv.h"
#include "ucma.h"

int ref_rdma_resolve_addr(struct rdma_cm_id *id, struct sockaddr *src_addr,
			  struct sockaddr *dst_addr, int timeout_ms)
{
	socklen_t src_len = ref_cm_addr_len(src_addr);
	socklen_t dst_len = ref_cm_addr_len(dst_addr);
	struct ref_id *r = ref_of(id);

	/* timeout_ms has no range in the page; Linux's ABI carries it as a
	 * __u32 (rdma_user_cm.h), so a negative one is passed on as is */
	if (!id || !dst_len || (src_addr && !src_len))
		return ref_cm_fail(EINVAL);
	/* the source is bound at once ("the same as if rdma_bind_addr were
	 * called"); the device is the resolution's, known from its event
	 * alone: the kernel may bind it while the call runs, or just after */
	if (ucma_resolve_addr(id->channel->fd, r->handle, src_addr, src_len,
			      dst_addr, dst_len, timeout_ms) ||
	    ref_cm_sync_addresses(r))
		return -1;
	return ref_cm_sync_complete(r, RDMA_CM_EVENT_ADDR_RESOLVED, -1);
}

int ref_rdma_resolve_route(struct rdma_cm_id *id, int timeout_ms)
{
	if (!id)
		return ref_cm_fail(EINVAL);
	if (ucma_resolve_route(id->channel->fd, ref_of(id)->handle, timeout_ms))
		return -1;
	return ref_cm_sync_complete(ref_of(id), RDMA_CM_EVENT_ROUTE_RESOLVED,
				    -1);
}

static __be16 port_of(const struct sockaddr *a)
{
	if (a->sa_family == AF_INET)
		return ((const struct sockaddr_in *)a)->sin_port;
	if (a->sa_family == AF_INET6)
		return ((const struct sockaddr_in6 *)a)->sin6_port;
	return 0;
}

__be16 ref_rdma_get_src_port(struct rdma_cm_id *id)
{
	return port_of(&id->route.addr.src_addr);
}

__be16 ref_rdma_get_dst_port(struct rdma_cm_id *id)
{
	return ref_of(id)->connected ? port_of(&id->route.addr.dst_addr) : 0;
}

struct sockaddr *ref_rdma_get_local_addr(struct rdma_cm_id *id)
{
	return &id->route.addr.src_addr;
}

struct sockaddr *ref_rdma_get_peer_addr(struct rdma_cm_id *id)
{
	struct ref_id *r = ref_of(id);

	return r->connected ? &id->route.addr.dst_addr :
			      (struct sockaddr *)&r->no_addr;
}
