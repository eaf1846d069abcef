// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Events the caller (or the library itself) writes into an id's channel,
 * and the asynchronous address resolution built on them (rdma-core 60's
 * pages; the kernel's WRITE_CM_EVENT command, Linux 6.15 and later).
 *
 * rdma_write_cm_event(3): "This call allows an application to write a
 * user-defined event to the event channel associated with the specified
 * rdma_cm_id.  Valid user events are: RDMA_CM_EVENT_USER." -- any other
 * event is refused (EINVAL) before the kernel sees it; "status The
 * status value reported in the rdma_cm_event", "arg A user-specified
 * value reported in the rdma_cm_event".
 *
 * rdma_resolve_addrinfo(3): "The behavior is similar to
 * rdma_getaddrinfo(), except that the operation is asynchronous,
 * generating an event on the RDMA CM event channel that is associated
 * with the specified rdma_cm_id when complete."  With RAI_DNS (or
 * neither flag: "If none of them is set then DNS is the default") the
 * name is resolved as rdma_getaddrinfo(3) does, and "The result of the
 * resolution, whether successful or failed, will be reported as an
 * event": RDMA_CM_EVENT_ADDRINFO_RESOLVED, or RDMA_CM_EVENT_ADDRINFO_ERROR
 * with rdma_getaddrinfo's failure as its status, written through the
 * kernel as RDMA_CM_EVENT_INTERNAL.  "Returns -1 on error ... The address
 * resolution was not started, and no event will be generated": when the
 * kernel takes no written event, or the arguments are refused:
 * - "These 2 flags are mutual-exclusive": both, EINVAL;
 * - RAI_SA: "The %node parameter must be null (not supported)": a node,
 *   EOPNOTSUPP; "The rdma_cm_id associated with the call must be bound
 *   to an Infiniband port, or an error will occur": an id on no port of
 *   InfiniBand's link layer, EINVAL; the reference has no SA client
 *   (the kernel's RESOLVE_IB_SERVICE), so on InfiniBand, EOPNOTSUPP.
 * rdma_query_addrinfo(3): "retrieves the resulting rdma_addrinfo
 * structures from a successful rdma_resolve_addrinfo() operation": once,
 * since the caller releases them with rdma_freeaddrinfo(3); with none
 * waiting, ENOENT.
 */
#include <stdlib.h>
#include <string.h>

#include "cm_priv.h"
#include "ucma.h"
#include "../verbs/ref_verbs.h"

int ref_rdma_write_cm_event(struct rdma_cm_id *id,
			    enum rdma_cm_event_type event, int status,
			    uint64_t arg)
{
	if (!id || (int)event != REF_CM_EVENT_USER)
		return ref_cm_fail(EINVAL);
	return ucma_write_cm_event(id->channel->fd, ref_of(id)->handle,
				   REF_CM_EVENT_USER, status, arg);
}

bool ref_cm_written_event(struct ref_event *e, uint32_t event, uint64_t arg)
{
	if (event == REF_CM_EVENT_USER) {
		/* the union's first 8 bytes: upstream's param.arg */
		memcpy(&e->ev.param, &arg, sizeof(arg));
		return true;
	}
	if (event != REF_CM_EVENT_INTERNAL)
		return false;
	e->ev.event = (enum rdma_cm_event_type)arg;
	return true;
}

/* Is @id bound to a port of InfiniBand's link layer? */
static bool on_ib_port(struct rdma_cm_id *id)
{
	struct ibv_port_attr pa;

	return id->verbs && id->port_num &&
	       !ref_ibv_query_port(id->verbs, id->port_num, &pa) &&
	       pa.link_layer == IBV_LINK_LAYER_INFINIBAND;
}

int ref_rdma_resolve_addrinfo(struct rdma_cm_id *id, const char *node,
			      const char *service,
			      const struct rdma_addrinfo *hints)
{
	struct rdma_addrinfo h = {}, *res = NULL;
	struct ref_id *r = ref_of(id);
	int flags = hints ? hints->ai_flags : 0;
	uint64_t what = REF_CM_EVENT_ADDRINFO_RESOLVED;
	int err;

	if (!id)
		return ref_cm_fail(EINVAL);
	if ((flags & REF_RAI_SA) && (flags & REF_RAI_DNS))
		return ref_cm_fail(EINVAL);
	if (flags & REF_RAI_SA) {
		if (node)
			return ref_cm_fail(EOPNOTSUPP);
		return ref_cm_fail(on_ib_port(id) ? EOPNOTSUPP : EINVAL);
	}
	if (hints) {
		h = *hints;
		h.ai_flags &= ~REF_RAI_DNS;
	}
	err = ref_rdma_getaddrinfo(node, service, hints ? &h : NULL, &res);
	if (err) {
		what = REF_CM_EVENT_ADDRINFO_ERROR;
		res = NULL;
	}
	pthread_mutex_lock(&r->lock);
	if (r->resolved_ai)
		ref_rdma_freeaddrinfo(r->resolved_ai);
	r->resolved_ai = res;
	pthread_mutex_unlock(&r->lock);
	if (ucma_write_cm_event(id->channel->fd, r->handle,
				REF_CM_EVENT_INTERNAL, err, what)) {
		err = errno;
		pthread_mutex_lock(&r->lock);
		r->resolved_ai = NULL;
		pthread_mutex_unlock(&r->lock);
		if (res)
			ref_rdma_freeaddrinfo(res);
		return ref_cm_fail(err);
	}
	return 0;
}

int ref_rdma_query_addrinfo(struct rdma_cm_id *id, struct rdma_addrinfo **info)
{
	struct ref_id *r = ref_of(id);
	struct rdma_addrinfo *res;

	if (!id || !info)
		return ref_cm_fail(EINVAL);
	pthread_mutex_lock(&r->lock);
	res = r->resolved_ai;
	r->resolved_ai = NULL;
	pthread_mutex_unlock(&r->lock);
	if (!res)
		return ref_cm_fail(ENOENT);
	*info = res;
	return 0;
}
