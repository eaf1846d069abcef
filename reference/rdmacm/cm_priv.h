/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the reference rdma_cm's files share: an id and an event as the
 * reference keeps them behind the caller's struct rdma_cm_id and struct
 * rdma_cm_event.
 */
#ifndef RDMACONF_REF_CM_PRIV_H
#define RDMACONF_REF_CM_PRIV_H

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "ref_rdmacm.h"

struct ref_id;
struct ref_ep_qp; /* ep.c */

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
	bool own_cqs;
	/* "connected": from the connection's ESTABLISHED (or
	 * CONNECT_RESPONSE) to its DISCONNECTED */
	bool connected;
	struct sockaddr_storage no_addr; /* all zeroes, always */
	/* a connection request's id: the request's read depths */
	uint8_t req_responder_resources, req_initiator_depth;
	/* synchronous (created or migrated with no channel): the channel
	 * is the id's own, and each call that results in an event waits
	 * for it and leaves it in id->event until the next call */
	bool sync;
	/* rdma_set_local_ece(3)'s, sent with the id's REQ or REP; and
	 * what the peer's REQ or REP carried (rdma_get_remote_ece(3)) */
	struct ibv_ece local_ece, remote_ece;
	/* a passive endpoint's PD and QP attributes for its requests */
	struct ref_ep_qp *ep_qp;
	/* the events the kernel counted to this id that the caller has
	 * acknowledged: rdma_destroy_id waits for the kernel's count */
	pthread_mutex_t lock;
	pthread_cond_t acked_cond;
	unsigned int acked;
	/* rdma_resolve_addrinfo(3)'s result, until rdma_query_addrinfo
	 * takes it (addrinfo_async.c; under lock) */
	struct rdma_addrinfo *resolved_ai;
};

/*
 * librdmacm's names that Debian 12's <rdma/rdma_cma.h> (rdma-core 44.0)
 * lacks, as upstream's rdma_cma.h numbers them (rdma-core 60): the
 * events after RDMA_CM_EVENT_TIMEWAIT_EXIT, in order, and the resolution
 * flags of rdma_resolve_addrinfo(3).  RDMA_CM_EVENT_INTERNAL is the one
 * the kernel takes besides RDMA_CM_EVENT_USER (its ucma_write_cm_event):
 * the reference reports its own results with it.
 */
#define REF_CM_EVENT_ADDRINFO_RESOLVED (RDMA_CM_EVENT_TIMEWAIT_EXIT + 1)
#define REF_CM_EVENT_ADDRINFO_ERROR (RDMA_CM_EVENT_TIMEWAIT_EXIT + 2)
#define REF_CM_EVENT_USER (RDMA_CM_EVENT_TIMEWAIT_EXIT + 3)
#define REF_CM_EVENT_INTERNAL (RDMA_CM_EVENT_TIMEWAIT_EXIT + 4)
#define REF_RAI_SA 0x00000010
#define REF_RAI_DNS 0x00000020

struct ref_event {
	struct rdma_cm_event ev;
	struct ref_mc *mc;
	struct ref_id *counted; /* whose events_reported it is in */
	uint8_t private_data[256];
};

static inline int ref_cm_fail(int err)
{
	errno = err;
	return -1;
}

static inline struct ref_id *ref_of(struct rdma_cm_id *id)
{
	return (struct ref_id *)id;
}

/* sizeof the sockaddr of @a's family, 0 for none or an unknown one */
socklen_t ref_cm_addr_len(const struct sockaddr *a);
/* A new id over the kernel's @handle (create_id, or a connection
 * request's new id), or NULL with errno. */
struct ref_id *ref_cm_id_new(struct rdma_event_channel *channel, void *context,
			     enum rdma_port_space ps, uint32_t handle);
void ref_cm_id_free(struct ref_id *r);
/* Read the id's addresses and device back from the kernel (QUERY) into
 * id->route.addr, id->verbs and id->port_num; 0 or -1 with errno. */
int ref_cm_sync_addr(struct ref_id *r);
/* The same for its addresses alone. */
int ref_cm_sync_addresses(struct ref_id *r);
/* Move the id's QP to @state with the kernel's attributes for it (qp.c);
 * @conn, when given, adjusts the RDMA read depths as the caller asked. */
int ref_cm_modify_qp(struct ref_id *r, int state,
		     const struct rdma_conn_param *conn);
/* Free a group left and no longer in any event held (mcast.c). */
void ref_cm_mc_put(struct ref_mc *mc);
/* Detach the id's QP from all its groups (before the QP goes). */
void ref_cm_mc_detach_all(struct rdma_cm_id *id);
/* A synchronous id: acknowledge the event id->event holds (rdma_create_id
 * (3): "available for access until another rdma_cm call is made"). */
void ref_cm_sync_release(struct ref_id *r);
/* After a call that results in an event: on a synchronous id, wait for
 * it on the id's channel and keep it in id->event; 0 when it is @want
 * (or @alt, when not -1) with status 0, else -1 and errno.  0 at once on
 * an asynchronous id. */
int ref_cm_sync_complete(struct ref_id *r, int want, int alt);
/* Does the id's device speak iWARP (its QP moved by the kernel)? */
bool ref_cm_iwarp(const struct ref_id *r);
/* A datagram id (a UD QP): its verbs are libibverbs' (cm.c's
 * open_by_guid), a connected id's the verbs reference's; the PD, CQs,
 * channels and SRQ the rdma_cm makes for it are of the same kind (qp.c) */
bool ref_cm_datagram(const struct ref_id *r);
/* The default PD of @c, a context of the shared table (cm.c): one per
 * device, made the first time it is asked for and freed with the
 * context; NULL and errno when it cannot be made */
struct ibv_pd *ref_cm_device_pd(struct ibv_context *c);
/* The default PD of the id's device */
struct ibv_pd *ref_cm_default_pd(struct ref_id *r);
/* A written event (USER, or INTERNAL carrying the event it reports in
 * @arg) as the caller gets it: false when @event is neither
 * (addrinfo_async.c) */
bool ref_cm_written_event(struct ref_event *e, uint32_t event, uint64_t arg);

#endif
