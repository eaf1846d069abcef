/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The reference librdmacm: channels, ids, bind, multicast join and leave,
 * address and route resolution, connections, events, QPs,
 * written from the librdmacm man pages and the kernel's rdma_cm command
 * interface.  It never calls librdmacm.  Its ids are its own objects
 * behind a struct rdma_cm_id; never mix them with librdmacm's.  The QP's
 * multicast attachment goes through the reference libibverbs.
 */
#ifndef RDMACONF_REF_RDMACM_H
#define RDMACONF_REF_RDMACM_H

#include <rdma/rdma_cma.h>
#include <infiniband/ib.h>

struct rdma_event_channel *ref_rdma_create_event_channel(void);
void ref_rdma_destroy_event_channel(struct rdma_event_channel *channel);
int ref_rdma_create_id(struct rdma_event_channel *channel,
		       struct rdma_cm_id **id, void *context,
		       enum rdma_port_space ps);
int ref_rdma_destroy_id(struct rdma_cm_id *id);
int ref_rdma_bind_addr(struct rdma_cm_id *id, struct sockaddr *addr);
int ref_rdma_join_multicast_ex(struct rdma_cm_id *id,
			       struct rdma_cm_join_mc_attr_ex *attr,
			       void *context);
int ref_rdma_join_multicast(struct rdma_cm_id *id, struct sockaddr *addr,
			    void *context);
int ref_rdma_leave_multicast(struct rdma_cm_id *id, struct sockaddr *addr);
int ref_rdma_get_cm_event(struct rdma_event_channel *channel,
			  struct rdma_cm_event **event);
int ref_rdma_ack_cm_event(struct rdma_cm_event *event);
int ref_rdma_resolve_addr(struct rdma_cm_id *id, struct sockaddr *src_addr,
			  struct sockaddr *dst_addr, int timeout_ms);
int ref_rdma_resolve_route(struct rdma_cm_id *id, int timeout_ms);
int ref_rdma_listen(struct rdma_cm_id *id, int backlog);
int ref_rdma_connect(struct rdma_cm_id *id, struct rdma_conn_param *conn_param);
int ref_rdma_accept(struct rdma_cm_id *id, struct rdma_conn_param *conn_param);
int ref_rdma_reject(struct rdma_cm_id *id, const void *private_data,
		    uint8_t private_data_len);
int ref_rdma_establish(struct rdma_cm_id *id);
int ref_rdma_disconnect(struct rdma_cm_id *id);
int ref_rdma_init_qp_attr(struct rdma_cm_id *id, struct ibv_qp_attr *qp_attr,
			  int *qp_attr_mask);
__be16 ref_rdma_get_src_port(struct rdma_cm_id *id);
__be16 ref_rdma_get_dst_port(struct rdma_cm_id *id);
struct sockaddr *ref_rdma_get_local_addr(struct rdma_cm_id *id);
struct sockaddr *ref_rdma_get_peer_addr(struct rdma_cm_id *id);
const char *ref_rdma_event_str(enum rdma_cm_event_type event);
int ref_rdma_create_qp(struct rdma_cm_id *id, struct ibv_pd *pd,
		       struct ibv_qp_init_attr *qp_init_attr);
void ref_rdma_destroy_qp(struct rdma_cm_id *id);
struct ibv_context **ref_rdma_get_devices(int *num_devices);
void ref_rdma_free_devices(struct ibv_context **list);
int ref_rdma_notify(struct rdma_cm_id *id, enum ibv_event_type event);
int ref_rdma_migrate_id(struct rdma_cm_id *id,
			struct rdma_event_channel *channel);
int ref_rdma_getaddrinfo(const char *node, const char *service,
			 const struct rdma_addrinfo *hints,
			 struct rdma_addrinfo **res);
void ref_rdma_freeaddrinfo(struct rdma_addrinfo *res);
/* rdma-core 60's (RDMACM_1.4), which Debian 12's header does not declare */
int ref_rdma_write_cm_event(struct rdma_cm_id *id,
			    enum rdma_cm_event_type event, int status,
			    uint64_t arg);
int ref_rdma_resolve_addrinfo(struct rdma_cm_id *id, const char *node,
			      const char *service,
			      const struct rdma_addrinfo *hints);
int ref_rdma_query_addrinfo(struct rdma_cm_id *id, struct rdma_addrinfo **info);
int ref_rdma_create_ep(struct rdma_cm_id **id, struct rdma_addrinfo *res,
		       struct ibv_pd *pd,
		       struct ibv_qp_init_attr *qp_init_attr);
void ref_rdma_destroy_ep(struct rdma_cm_id *id);
int ref_rdma_get_request(struct rdma_cm_id *listen, struct rdma_cm_id **id);
int ref_rdma_create_srq(struct rdma_cm_id *id, struct ibv_pd *pd,
			struct ibv_srq_init_attr *attr);
void ref_rdma_destroy_srq(struct rdma_cm_id *id);
struct ibv_mr *ref_rdma_reg_msgs(struct rdma_cm_id *id, void *addr,
				 size_t length);
struct ibv_mr *ref_rdma_reg_read(struct rdma_cm_id *id, void *addr,
				 size_t length);
struct ibv_mr *ref_rdma_reg_write(struct rdma_cm_id *id, void *addr,
				  size_t length);
int ref_rdma_dereg_mr(struct ibv_mr *mr);
int ref_rdma_post_send(struct rdma_cm_id *id, void *context, void *addr,
		       size_t length, struct ibv_mr *mr, int flags);
int ref_rdma_post_recv(struct rdma_cm_id *id, void *context, void *addr,
		       size_t length, struct ibv_mr *mr);
int ref_rdma_post_read(struct rdma_cm_id *id, void *context, void *addr,
		       size_t length, struct ibv_mr *mr, int flags,
		       uint64_t remote_addr, uint32_t rkey);
int ref_rdma_post_write(struct rdma_cm_id *id, void *context, void *addr,
			size_t length, struct ibv_mr *mr, int flags,
			uint64_t remote_addr, uint32_t rkey);
int ref_rdma_post_sendv(struct rdma_cm_id *id, void *context,
			struct ibv_sge *sgl, int nsge, int flags);
int ref_rdma_post_recvv(struct rdma_cm_id *id, void *context,
			struct ibv_sge *sgl, int nsge);
int ref_rdma_post_readv(struct rdma_cm_id *id, void *context,
			struct ibv_sge *sgl, int nsge, int flags,
			uint64_t remote_addr, uint32_t rkey);
int ref_rdma_post_writev(struct rdma_cm_id *id, void *context,
			 struct ibv_sge *sgl, int nsge, int flags,
			 uint64_t remote_addr, uint32_t rkey);
int ref_rdma_post_ud_send(struct rdma_cm_id *id, void *context, void *addr,
			  size_t length, struct ibv_mr *mr, int flags,
			  struct ibv_ah *ah, uint32_t remote_qpn);
int ref_rdma_get_send_comp(struct rdma_cm_id *id, struct ibv_wc *wc);
int ref_rdma_get_recv_comp(struct rdma_cm_id *id, struct ibv_wc *wc);
int ref_rdma_set_option(struct rdma_cm_id *id, int level, int optname,
			void *optval, size_t optlen);
int ref_rdma_set_local_ece(struct rdma_cm_id *id, struct ibv_ece *ece);
int ref_rdma_get_remote_ece(struct rdma_cm_id *id, struct ibv_ece *ece);

#endif
