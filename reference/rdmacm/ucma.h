/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The kernel's rdma_cm command interface (/dev/infiniband/rdma_cm,
 * <rdma/rdma_user_cm.h>), one function per command, in plain types:
 * <rdma/rdma_user_cm.h> and librdmacm's <rdma/rdma_cma.h> define the same
 * names, so only ucma.c sees the kernel's header.  Each returns 0, or -1
 * with errno set by the kernel.
 */
#ifndef RDMACONF_REF_UCMA_H
#define RDMACONF_REF_UCMA_H

#include <stdint.h>
#include <sys/socket.h>
#include <rdma/ib_user_verbs.h>

/* An event as GET_EVENT reports it; the AH attributes of a UD event as
 * the kernel gives them (<rdma/ib_user_verbs.h> clashes with neither
 * header). */
/* The connection parameters of CONNECT, ACCEPT and a connection's event
 * (struct rdma_ucm_conn_param): the private data travels in the command. */
struct ucma_conn {
	uint32_t qp_num;
	uint8_t private_data[256];
	uint8_t private_data_len;
	uint8_t srq;
	uint8_t responder_resources;
	uint8_t initiator_depth;
	uint8_t flow_control;
	uint8_t retry_count;
	uint8_t rnr_retry_count;
	/* ECE (struct rdma_ucm_ece): sent with CONNECT and ACCEPT, and
	 * what a connection's event carries from the peer's REQ or REP */
	uint32_t ece_vendor_id;
	uint32_t ece_attr_mod;
};

struct ucma_event {
	uint64_t uid;
	uint32_t id;
	uint32_t event;
	int32_t status;
	uint32_t qp_num;
	uint32_t qkey;
	struct ib_uverbs_ah_attr ah_attr;
	struct ucma_conn conn; /* a connection's event (not UD) */
	/* a written event's argument (WRITE_CM_EVENT): the first 8 bytes
	 * of the response's parameters */
	uint64_t arg;
};

/* What QUERY (RDMA_USER_CM_QUERY_ADDR) says of an id: its device (node
 * GUID in network order, 0 for none), port and addresses. */
struct ucma_addr {
	uint64_t node_guid_be;
	uint8_t port;
	struct sockaddr_storage src, dst;
};

int ucma_open(void);
int ucma_create_id(int fd, uint64_t uid, uint16_t ps, uint8_t qp_type,
		   uint32_t *id);
int ucma_destroy_id(int fd, uint32_t id, uint32_t *events_reported);
int ucma_bind(int fd, uint32_t id, const struct sockaddr *addr, socklen_t len);
int ucma_query_addr(int fd, uint32_t id, struct ucma_addr *a);
int ucma_resolve_addr(int fd, uint32_t id, const struct sockaddr *src,
		      socklen_t src_len, const struct sockaddr *dst,
		      socklen_t dst_len, uint32_t timeout_ms);
int ucma_resolve_route(int fd, uint32_t id, uint32_t timeout_ms);
int ucma_listen(int fd, uint32_t id, uint32_t backlog);
int ucma_connect(int fd, uint32_t id, const struct ucma_conn *p);
/* @p NULL: the active side's acknowledgement of the reply (no
 * parameters); else the passive side's accept, which sets the new id's
 * @uid (the kernel reports its events only from then on) */
int ucma_accept(int fd, uint32_t id, uint64_t uid, const struct ucma_conn *p);
int ucma_reject(int fd, uint32_t id, const void *data, uint8_t len);
int ucma_disconnect(int fd, uint32_t id);
/* @join_flags: enum rdma_ucm_mc_join_flags (the kernel's numbering of
 * librdmacm's RDMA_MC_JOIN_FLAG_*) */
int ucma_join(int fd, uint32_t id, uint64_t uid, const struct sockaddr *addr,
	      socklen_t len, uint32_t join_flags, uint32_t *mc);
int ucma_leave(int fd, uint32_t mc, uint32_t *events_reported);
int ucma_get_event(int fd, struct ucma_event *ev);
/* WRITE_CM_EVENT (Linux's newer ABI, not in Debian 12's header): an
 * event of @event (the kernel takes RDMA_CM_EVENT_USER and _INTERNAL)
 * with @status and @arg queued on @id's channel */
int ucma_write_cm_event(int fd, uint32_t id, uint32_t event, int32_t status,
			uint64_t arg);
/* the attributes the kernel wants for moving the id's QP to @state */
int ucma_init_qp_attr(int fd, uint32_t id, int state,
		      struct ib_uverbs_qp_attr *attr);
/* MIGRATE_ID, written to the new channel @new_fd: the id of @cur_fd's
 * moves to it with its pending events; the events reported so far */
int ucma_migrate_id(int new_fd, uint32_t id, int cur_fd,
		    uint32_t *events_reported);
/* @event: the kernel's enum ib_event_type, as libibverbs numbers it */
int ucma_notify(int fd, uint32_t id, uint32_t event);
/* @optval's @optlen bytes are the kernel's to read and judge */
int ucma_set_option(int fd, uint32_t id, uint32_t level, uint32_t optname,
		    const void *optval, uint32_t optlen);

#endif
