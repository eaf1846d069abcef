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
struct ucma_event {
	uint64_t uid;
	uint32_t id;
	uint32_t event;
	int32_t status;
	uint32_t qp_num;
	uint32_t qkey;
	struct ib_uverbs_ah_attr ah_attr;
};

int ucma_open(void);
int ucma_create_id(int fd, uint64_t uid, uint16_t ps, uint8_t qp_type,
		   uint32_t *id);
int ucma_destroy_id(int fd, uint32_t id, uint32_t *events_reported);
int ucma_bind(int fd, uint32_t id, const struct sockaddr *addr, socklen_t len);
int ucma_query_addr(int fd, uint32_t id, uint64_t *node_guid_be, uint8_t *port);
/* @join_flags: enum rdma_ucm_mc_join_flags (the kernel's numbering of
 * librdmacm's RDMA_MC_JOIN_FLAG_*) */
int ucma_join(int fd, uint32_t id, uint64_t uid, const struct sockaddr *addr,
	      socklen_t len, uint32_t join_flags, uint32_t *mc);
int ucma_leave(int fd, uint32_t mc, uint32_t *events_reported);
int ucma_get_event(int fd, struct ucma_event *ev);
/* the attributes the kernel wants for moving the id's QP to @state */
int ucma_init_qp_attr(int fd, uint32_t id, int state, uint32_t *qkey,
		      uint16_t *pkey_index, uint8_t *port);

#endif
