// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_getaddrinfo(3): "Resolves the destination node and service address
 * and returns information needed to establish communication.  Provides
 * the RDMA functional equivalent to getaddrinfo."  The kernel has no
 * command for it: names and numeric addresses are getaddrinfo(3)'s (libc),
 * the rest is the page's.
 *
 * - "Either node, service, or hints must be provided."  None: EAI_NONAME
 *   ("both node and service are NULL").
 * - "If RAI_PASSIVE is specified, the call will resolve address
 *   information for use on the passive side of a connection": the address
 *   is the source, and ai_dst_len "will be 0 if the RAI_PASSIVE flag was
 *   specified".  Otherwise it is the destination; the source is the
 *   hints' ai_src_addr when given, else none (ai_src_len "will be 0 if an
 *   appropriate source address could not be discovered").
 * - RAI_NUMERICHOST: "the node parameter, if provided, must be a
 *   numerical network address"; RAI_FAMILY: "the ai_family setting should
 *   be used as an input hint for interpretting the node parameter".
 * - ai_qp_type "Supported types are: IBV_QPT_UD (unreliable datagram) and
 *   IBV_QPT_RC (reliable connected)."; ai_port_space "Supported values
 *   are: RDMA_PS_UDP, RDMA_PS_TCP, and RDMA_PS_IB."  One given, the other
 *   follows it (UDP and UD, TCP and RC, IB and RC); both given and
 *   "inconsistent (e.g., IBV_QPT_UD and RDMA_PS_TCP, respectively)" is the
 *   page's EAI_QPTYPE, which no header defines: EAI_SOCKTYPE, getaddrinfo
 *   (3)'s "The requested socket type is not supported" (our reading).
 * - "hints.ai_flags contains invalid flags": EAI_BADFLAGS; a family other
 *   than AF_INET, AF_INET6, AF_IB: EAI_FAMILY.
 * - Without node and service, the hints' addresses are the answer ("based
 *   on the hints.ai_src_addr, hints.ai_dst_addr").
 * One rdma_addrinfo, with no route and no connection data (RAI_NOROUTE or
 * not: there is no route service here).
 */
#include <netdb.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "cm_priv.h"

#define RAI_ALL (RAI_PASSIVE | RAI_NUMERICHOST | RAI_NOROUTE | RAI_FAMILY)

struct ref_ai {
	struct rdma_addrinfo ai;
	struct sockaddr_storage src, dst;
};

/* the port space and QP type, each from the other when one is not given;
 * -1 when inconsistent or unsupported */
static int types(const struct rdma_addrinfo *h, int *ps, int *qpt)
{
	*ps = h ? h->ai_port_space : 0;
	*qpt = h ? h->ai_qp_type : 0;
	if (*qpt && *qpt != IBV_QPT_RC && *qpt != IBV_QPT_UD)
		return -1;
	if (!*ps)
		*ps = *qpt == IBV_QPT_UD ? RDMA_PS_UDP : RDMA_PS_TCP;
	if (*ps != RDMA_PS_TCP && *ps != RDMA_PS_UDP && *ps != RDMA_PS_IB)
		return -1;
	if (!*qpt)
		*qpt = *ps == RDMA_PS_UDP ? IBV_QPT_UD : IBV_QPT_RC;
	if ((*ps == RDMA_PS_TCP && *qpt != IBV_QPT_RC) ||
	    (*ps == RDMA_PS_UDP && *qpt != IBV_QPT_UD))
		return -1;
	return 0;
}

static void put_addr(struct sockaddr_storage *ss, struct sockaddr **at,
		     socklen_t *len, const struct sockaddr *a, socklen_t alen)
{
	if (!a || !alen || alen > sizeof(*ss))
		return;
	memcpy(ss, a, alen);
	*at = (struct sockaddr *)ss;
	*len = alen;
}

int ref_rdma_getaddrinfo(const char *node, const char *service,
			 const struct rdma_addrinfo *hints,
			 struct rdma_addrinfo **res)
{
	struct addrinfo gh = {}, *g = NULL;
	int flags = hints ? hints->ai_flags : 0;
	int family = hints ? hints->ai_family : 0;
	struct ref_ai *r;
	int ps, qpt, err;

	if (!res)
		return ref_cm_fail(EINVAL);
	if (!node && !service && !hints)
		return EAI_NONAME;
	if (flags & ~RAI_ALL)
		return EAI_BADFLAGS;
	if (family && family != AF_INET && family != AF_INET6 &&
	    family != AF_IB)
		return EAI_FAMILY;
	if (types(hints, &ps, &qpt))
		return EAI_SOCKTYPE;
	if (node || service) {
		gh.ai_flags = (flags & RAI_PASSIVE ? AI_PASSIVE : 0) |
			      (flags & RAI_NUMERICHOST ? AI_NUMERICHOST : 0);
		gh.ai_family = flags & RAI_FAMILY && family != AF_IB ?
				       family :
				       AF_UNSPEC;
		gh.ai_socktype = qpt == IBV_QPT_UD ? SOCK_DGRAM : SOCK_STREAM;
		err = getaddrinfo(node, service, &gh, &g);
		if (err)
			return err;
	} else if (!hints->ai_src_len && !hints->ai_dst_len) {
		return EAI_NONAME;
	}
	r = calloc(1, sizeof(*r));
	if (!r) {
		if (g)
			freeaddrinfo(g);
		return EAI_MEMORY;
	}
	r->ai.ai_flags = flags;
	r->ai.ai_qp_type = qpt;
	r->ai.ai_port_space = ps;
	if (g && flags & RAI_PASSIVE) {
		put_addr(&r->src, &r->ai.ai_src_addr, &r->ai.ai_src_len,
			 g->ai_addr, g->ai_addrlen);
	} else if (g) {
		put_addr(&r->dst, &r->ai.ai_dst_addr, &r->ai.ai_dst_len,
			 g->ai_addr, g->ai_addrlen);
		put_addr(&r->src, &r->ai.ai_src_addr, &r->ai.ai_src_len,
			 hints ? hints->ai_src_addr : NULL,
			 hints ? hints->ai_src_len : 0);
	} else {
		put_addr(&r->src, &r->ai.ai_src_addr, &r->ai.ai_src_len,
			 hints->ai_src_addr, hints->ai_src_len);
		if (!(flags & RAI_PASSIVE))
			put_addr(&r->dst, &r->ai.ai_dst_addr, &r->ai.ai_dst_len,
				 hints->ai_dst_addr, hints->ai_dst_len);
	}
	r->ai.ai_family = r->ai.ai_dst_addr ? r->ai.ai_dst_addr->sa_family :
			  r->ai.ai_src_addr ? r->ai.ai_src_addr->sa_family :
					      family;
	if (g)
		freeaddrinfo(g);
	*res = &r->ai;
	return 0;
}

void ref_rdma_freeaddrinfo(struct rdma_addrinfo *res)
{
	struct rdma_addrinfo *next;

	for (; res; res = next) {
		next = res->ai_next;
		free(res);
	}
}
