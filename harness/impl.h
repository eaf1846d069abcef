/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The two implementations behind one ops table.
 *
 * "system" is rdma-core as the dynamic linker finds it: the library is
 * dlopen()ed by soname with RTLD_GLOBAL and every call is looked up with
 * dlsym(RTLD_DEFAULT), so LD_PRELOAD and LD_LIBRARY_PATH decide what is
 * tested, and a call the library does not export is NULL (ABSENT), not a
 * link error.  "reference" is reference/, whose symbols carry a ref_ prefix
 * so that they can never interpose on, or be interposed by, rdma-core.
 */
#ifndef RDMACONF_IMPL_H
#define RDMACONF_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <infiniband/umad.h>
#include <infiniband/umad_str.h>
#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#include "vocab.h"
#include "../reference/umad/umad_pair.h"
#include "../reference/verbs/verbs_newer.h"

/* X(name, return type, parameter list): every call under test, once. */
#define RC_UMAD_CALLS(X)                                                       \
	X(umad_init, int, (void))                                              \
	X(umad_done, int, (void))                                              \
	X(umad_get_cas_names, int, (char cas[][UMAD_CA_NAME_LEN], int max))    \
	X(umad_get_ca, int, (const char *ca_name, umad_ca_t *ca))              \
	X(umad_get_ca_portguids, int,                                          \
	  (const char *ca_name, __be64 *portguids, int max))                   \
	X(umad_get_issm_path, int,                                             \
	  (const char *ca_name, int portnum, char path[], int max))            \
	X(umad_release_ca, int, (umad_ca_t * ca))                              \
	X(umad_get_ca_device_list, struct umad_device_node *, (void))          \
	X(umad_free_ca_device_list, void, (struct umad_device_node * head))    \
	X(umad_sort_ca_device_list, int,                                       \
	  (struct umad_device_node * *head, size_t size))                      \
	X(umad_get_port, int,                                                  \
	  (const char *ca_name, int portnum, umad_port_t *port))               \
	X(umad_release_port, int, (umad_port_t * port))                        \
	X(umad_open_port, int, (const char *ca_name, int portnum))             \
	X(umad_open_smi_port, int, (char *ca_name, int portnum))               \
	X(umad_get_smi_gsi_pairs, int,                                         \
	  (struct rc_umad_ca_pair cas[], size_t max))                          \
	X(umad_get_smi_gsi_pair_by_ca_name, int,                               \
	  (const char *devname, uint8_t portnum, struct rc_umad_ca_pair *ca,   \
	   unsigned enforce_smi))                                              \
	X(umad_close_port, int, (int portid))                                  \
	X(umad_register, int,                                                  \
	  (int portid, int mgmt_class, int mgmt_version, uint8_t rmpp_version, \
	   long method_mask[16 / sizeof(long)]))                               \
	X(umad_register_oui, int,                                              \
	  (int portid, int mgmt_class, uint8_t rmpp_version, uint8_t oui[3],   \
	   long method_mask[16 / sizeof(long)]))                               \
	X(umad_register2, int,                                                 \
	  (int port_fd, struct umad_reg_attr *attr, uint32_t *agent_id))       \
	X(umad_unregister, int, (int portid, int agentid))                     \
	X(umad_send, int,                                                      \
	  (int portid, int agentid, void *umad, int length, int timeout_ms,    \
	   int retries))                                                       \
	X(umad_recv, int,                                                      \
	  (int portid, void *umad, int *length, int timeout_ms))               \
	X(umad_poll, int, (int portid, int timeout_ms))                        \
	X(umad_get_fd, int, (int portid))                                      \
	X(umad_get_mad, void *, (void *umad))                                  \
	X(umad_size, size_t, (void))                                           \
	X(umad_status, int, (void *umad))                                      \
	X(umad_get_mad_addr, ib_mad_addr_t *, (void *umad))                    \
	X(umad_set_grh_net, int, (void *umad, void *mad_addr))                 \
	X(umad_set_grh, int, (void *umad, void *mad_addr))                     \
	X(umad_set_addr_net, int,                                              \
	  (void *umad, __be16 dlid, __be32 dqp, int sl, __be32 qkey))          \
	X(umad_set_addr, int,                                                  \
	  (void *umad, int dlid, int dqp, int sl, int qkey))                   \
	X(umad_set_pkey, int, (void *umad, int pkey_index))                    \
	X(umad_get_pkey, int, (void *umad))                                    \
	X(umad_alloc, void *, (int num, size_t size))                          \
	X(umad_free, void, (void *umad))                                       \
	X(umad_debug, int, (int level))                                        \
	X(umad_dump, void, (void *umad))                                       \
	X(umad_addr_dump, void, (ib_mad_addr_t * addr))                        \
	X(umad_class_str, const char *, (uint8_t mgmt_class))                  \
	X(umad_method_str, const char *, (uint8_t mgmt_class, uint8_t method)) \
	X(umad_attribute_str, const char *,                                    \
	  (uint8_t mgmt_class, __be16 attr_id))                                \
	X(umad_common_mad_status_str, const char *, (__be16 status))           \
	X(umad_sa_mad_status_str, const char *, (__be16 status))

/*
 * The libibverbs calls.  Some are function-like macros in
 * <infiniband/verbs.h> (ibv_query_port, ibv_reg_mr, ibv_reg_mr_iova):
 * call them through the table as (ops->ibv_query_port)(...), or the
 * header's macro rewrites the member's name.
 */
#define RC_VERBS_CALLS(X)                                                      \
	X(ibv_get_device_list, struct ibv_device **, (int *num_devices))       \
	X(ibv_free_device_list, void, (struct ibv_device * *list))             \
	X(ibv_get_device_name, const char *, (struct ibv_device * device))     \
	X(ibv_get_device_guid, uint64_t, (struct ibv_device * device))         \
	X(ibv_get_device_index, int, (struct ibv_device * device))             \
	X(ibv_open_device, struct ibv_context *, (struct ibv_device * device)) \
	X(ibv_close_device, int, (struct ibv_context * context))               \
	X(ibv_import_device, struct ibv_context *, (int cmd_fd))               \
	X(ibv_query_device, int,                                               \
	  (struct ibv_context * context,                                       \
	   struct ibv_device_attr * device_attr))                              \
	X(ibv_query_device_ex, int,                                            \
	  (struct ibv_context * context,                                       \
	   const struct ibv_query_device_ex_input *input,                      \
	   struct ibv_device_attr_ex *attr))                                   \
	X(ibv_query_port, int,                                                 \
	  (struct ibv_context * context, uint8_t port_num,                     \
	   struct ibv_port_attr * port_attr))                                  \
	X(ibv_query_pkey, int,                                                 \
	  (struct ibv_context * context, uint8_t port_num, int index,          \
	   uint16_t *pkey))                                                    \
	X(ibv_get_pkey_index, int,                                             \
	  (struct ibv_context * context, uint8_t port_num, __be16 pkey))       \
	X(ibv_query_rt_values_ex, int,                                         \
	  (struct ibv_context * context, struct ibv_values_ex * values))       \
	X(ibv_node_type_str, const char *, (enum ibv_node_type node_type))     \
	X(ibv_port_state_str, const char *, (enum ibv_port_state port_state))  \
	X(ibv_event_type_str, const char *, (enum ibv_event_type event))       \
	X(ibv_wc_status_str, const char *, (enum ibv_wc_status status))        \
	X(ibv_rate_to_mult, int, (enum ibv_rate rate))                         \
	X(mult_to_ibv_rate, enum ibv_rate, (int mult))                         \
	X(ibv_rate_to_mbps, int, (enum ibv_rate rate))                         \
	X(mbps_to_ibv_rate, enum ibv_rate, (int mbps))                         \
	X(ibv_fork_init, int, (void))                                          \
	X(ibv_is_fork_initialized, enum ibv_fork_status, (void))               \
	X(ibv_alloc_pd, struct ibv_pd *, (struct ibv_context * context))       \
	X(ibv_dealloc_pd, int, (struct ibv_pd * pd))                           \
	X(ibv_import_pd, struct ibv_pd *,                                      \
	  (struct ibv_context * context, uint32_t pd_handle))                  \
	X(ibv_unimport_pd, void, (struct ibv_pd * pd))                         \
	X(ibv_reg_mr, struct ibv_mr *,                                         \
	  (struct ibv_pd * pd, void *addr, size_t length, int access))         \
	X(ibv_reg_mr_iova, struct ibv_mr *,                                    \
	  (struct ibv_pd * pd, void *addr, size_t length, uint64_t iova,       \
	   int access))                                                        \
	X(ibv_rereg_mr, int,                                                   \
	  (struct ibv_mr * mr, int flags, struct ibv_pd *pd, void *addr,       \
	   size_t length, int access))                                         \
	X(ibv_dereg_mr, int, (struct ibv_mr * mr))                             \
	X(ibv_import_mr, struct ibv_mr *,                                      \
	  (struct ibv_pd * pd, uint32_t mr_handle))                            \
	X(ibv_unimport_mr, void, (struct ibv_mr * mr))                         \
	X(ibv_alloc_mw, struct ibv_mw *,                                       \
	  (struct ibv_pd * pd, enum ibv_mw_type type))                         \
	X(ibv_dealloc_mw, int, (struct ibv_mw * mw))                           \
	X(ibv_inc_rkey, uint32_t, (uint32_t rkey))                             \
	X(ibv_bind_mw, int,                                                    \
	  (struct ibv_qp * qp, struct ibv_mw * mw,                             \
	   struct ibv_mw_bind * mw_bind))                                      \
	X(ibv_create_comp_channel, struct ibv_comp_channel *,                  \
	  (struct ibv_context * context))                                      \
	X(ibv_destroy_comp_channel, int, (struct ibv_comp_channel * channel))  \
	X(ibv_create_cq, struct ibv_cq *,                                      \
	  (struct ibv_context * context, int cqe, void *cq_context,            \
	   struct ibv_comp_channel *channel, int comp_vector))                 \
	X(ibv_create_cq_ex, struct ibv_cq_ex *,                                \
	  (struct ibv_context * context,                                       \
	   struct ibv_cq_init_attr_ex * cq_attr))                              \
	X(ibv_resize_cq, int, (struct ibv_cq * cq, int cqe))                   \
	X(ibv_destroy_cq, int, (struct ibv_cq * cq))                           \
	X(ibv_create_qp, struct ibv_qp *,                                      \
	  (struct ibv_pd * pd, struct ibv_qp_init_attr * qp_init_attr))        \
	X(ibv_create_qp_ex, struct ibv_qp *,                                   \
	  (struct ibv_context * context,                                       \
	   struct ibv_qp_init_attr_ex * qp_init_attr_ex))                      \
	X(ibv_query_qp, int,                                                   \
	  (struct ibv_qp * qp, struct ibv_qp_attr * attr, int attr_mask,       \
	   struct ibv_qp_init_attr *init_attr))                                \
	X(ibv_modify_qp, int,                                                  \
	  (struct ibv_qp * qp, struct ibv_qp_attr * attr, int attr_mask))      \
	X(ibv_destroy_qp, int, (struct ibv_qp * qp))                           \
	X(ibv_qp_to_qp_ex, struct ibv_qp_ex *, (struct ibv_qp * qp))           \
	X(ibv_create_srq, struct ibv_srq *,                                    \
	  (struct ibv_pd * pd, struct ibv_srq_init_attr * srq_init_attr))      \
	X(ibv_create_srq_ex, struct ibv_srq *,                                 \
	  (struct ibv_context * context,                                       \
	   struct ibv_srq_init_attr_ex * srq_init_attr_ex))                    \
	X(ibv_modify_srq, int,                                                 \
	  (struct ibv_srq * srq, struct ibv_srq_attr * srq_attr,               \
	   int srq_attr_mask))                                                 \
	X(ibv_query_srq, int,                                                  \
	  (struct ibv_srq * srq, struct ibv_srq_attr * srq_attr))              \
	X(ibv_destroy_srq, int, (struct ibv_srq * srq))                        \
	X(ibv_get_srq_num, int, (struct ibv_srq * srq, uint32_t * srq_num))    \
	X(ibv_post_send, int,                                                  \
	  (struct ibv_qp * qp, struct ibv_send_wr * wr,                        \
	   struct ibv_send_wr * *bad_wr))                                      \
	X(ibv_post_recv, int,                                                  \
	  (struct ibv_qp * qp, struct ibv_recv_wr * wr,                        \
	   struct ibv_recv_wr * *bad_wr))                                      \
	X(ibv_post_srq_recv, int,                                              \
	  (struct ibv_srq * srq, struct ibv_recv_wr * wr,                      \
	   struct ibv_recv_wr * *bad_wr))                                      \
	X(ibv_poll_cq, int,                                                    \
	  (struct ibv_cq * cq, int num_entries, struct ibv_wc *wc))            \
	X(ibv_req_notify_cq, int, (struct ibv_cq * cq, int solicited_only))    \
	X(ibv_get_cq_event, int,                                               \
	  (struct ibv_comp_channel * channel, struct ibv_cq * *cq,             \
	   void **cq_context))                                                 \
	X(ibv_ack_cq_events, void, (struct ibv_cq * cq, unsigned int nevents)) \
	X(ibv_get_async_event, int,                                            \
	  (struct ibv_context * context, struct ibv_async_event * event))      \
	X(ibv_ack_async_event, void, (struct ibv_async_event * event))         \
	X(ibv_create_ah, struct ibv_ah *,                                      \
	  (struct ibv_pd * pd, struct ibv_ah_attr * attr))                     \
	X(ibv_destroy_ah, int, (struct ibv_ah * ah))                           \
	X(ibv_query_gid, int,                                                  \
	  (struct ibv_context * context, uint8_t port_num, int index,          \
	   union ibv_gid *gid))                                                \
	X(ibv_query_gid_ex, int,                                               \
	  (struct ibv_context * context, uint32_t port_num,                    \
	   uint32_t gid_index, struct ibv_gid_entry * entry, uint32_t flags))  \
	X(ibv_query_gid_table, ssize_t,                                        \
	  (struct ibv_context * context, struct ibv_gid_entry * entries,       \
	   size_t max_entries, uint32_t flags))                                \
	X(ibv_init_ah_from_wc, int,                                            \
	  (struct ibv_context * context, uint8_t port_num, struct ibv_wc * wc, \
	   struct ibv_grh * grh, struct ibv_ah_attr * ah_attr))                \
	X(ibv_create_ah_from_wc, struct ibv_ah *,                              \
	  (struct ibv_pd * pd, struct ibv_wc * wc, struct ibv_grh * grh,       \
	   uint8_t port_num))                                                  \
	X(ibv_attach_mcast, int,                                               \
	  (struct ibv_qp * qp, const union ibv_gid *gid, uint16_t lid))        \
	X(ibv_detach_mcast, int,                                               \
	  (struct ibv_qp * qp, const union ibv_gid *gid, uint16_t lid))        \
	X(ibv_alloc_td, struct ibv_td *,                                       \
	  (struct ibv_context * context, struct ibv_td_init_attr * init_attr)) \
	X(ibv_dealloc_td, int, (struct ibv_td * td))                           \
	X(ibv_alloc_parent_domain, struct ibv_pd *,                            \
	  (struct ibv_context * context,                                       \
	   struct ibv_parent_domain_init_attr * attr))                         \
	X(ibv_alloc_dm, struct ibv_dm *,                                       \
	  (struct ibv_context * context, struct ibv_alloc_dm_attr * attr))     \
	X(ibv_free_dm, int, (struct ibv_dm * dm))                              \
	X(ibv_memcpy_to_dm, int,                                               \
	  (struct ibv_dm * dm, uint64_t dm_offset, const void *host_addr,      \
	   size_t length))                                                     \
	X(ibv_memcpy_from_dm, int,                                             \
	  (void *host_addr, struct ibv_dm *dm, uint64_t dm_offset,             \
	   size_t length))                                                     \
	X(ibv_create_counters, struct ibv_counters *,                          \
	  (struct ibv_context * context,                                       \
	   struct ibv_counters_init_attr * init_attr))                         \
	X(ibv_destroy_counters, int, (struct ibv_counters * counters))         \
	X(ibv_attach_counters_point_flow, int,                                 \
	  (struct ibv_counters * counters,                                     \
	   struct ibv_counter_attach_attr * attr, struct ibv_flow * flow))     \
	X(ibv_read_counters, int,                                              \
	  (struct ibv_counters * counters, uint64_t * counters_value,          \
	   uint32_t ncounters, uint32_t flags))                                \
	X(ibv_create_flow, struct ibv_flow *,                                  \
	  (struct ibv_qp * qp, struct ibv_flow_attr * flow))                   \
	X(ibv_destroy_flow, int, (struct ibv_flow * flow_id))                  \
	X(ibv_create_wq, struct ibv_wq *,                                      \
	  (struct ibv_context * context,                                       \
	   struct ibv_wq_init_attr * wq_init_attr))                            \
	X(ibv_modify_wq, int, (struct ibv_wq * wq, struct ibv_wq_attr * attr)) \
	X(ibv_destroy_wq, int, (struct ibv_wq * wq))                           \
	X(ibv_create_rwq_ind_table, struct ibv_rwq_ind_table *,                \
	  (struct ibv_context * context,                                       \
	   struct ibv_rwq_ind_table_init_attr * init_attr))                    \
	X(ibv_destroy_rwq_ind_table, int,                                      \
	  (struct ibv_rwq_ind_table * rwq_ind_table))                          \
	X(ibv_open_xrcd, struct ibv_xrcd *,                                    \
	  (struct ibv_context * context,                                       \
	   struct ibv_xrcd_init_attr * xrcd_init_attr))                        \
	X(ibv_close_xrcd, int, (struct ibv_xrcd * xrcd))                       \
	X(ibv_open_qp, struct ibv_qp *,                                        \
	  (struct ibv_context * context,                                       \
	   struct ibv_qp_open_attr * qp_open_attr))                            \
	X(ibv_query_ece, int, (struct ibv_qp * qp, struct ibv_ece * ece))      \
	X(ibv_set_ece, int, (struct ibv_qp * qp, struct ibv_ece * ece))        \
	X(ibv_modify_cq, int,                                                  \
	  (struct ibv_cq * cq, struct ibv_modify_cq_attr * attr))              \
	X(ibv_alloc_null_mr, struct ibv_mr *, (struct ibv_pd * pd))            \
	X(ibv_advise_mr, int,                                                  \
	  (struct ibv_pd * pd, enum ibv_advise_mr_advice advice,               \
	   uint32_t flags, struct ibv_sge * sg_list, uint32_t num_sge))        \
	X(ibv_reg_dmabuf_mr, struct ibv_mr *,                                  \
	  (struct ibv_pd * pd, uint64_t offset, size_t length, uint64_t iova,  \
	   int fd, int access))                                                \
	X(ibv_query_qp_data_in_order, int,                                     \
	  (struct ibv_qp * qp, enum ibv_wr_opcode op, uint32_t flags))         \
	X(ibv_modify_qp_rate_limit, int,                                       \
	  (struct ibv_qp * qp, struct ibv_qp_rate_limit_attr * attr))          \
	X(ibv_post_srq_ops, int,                                               \
	  (struct ibv_srq * srq, struct ibv_ops_wr * op,                       \
	   struct ibv_ops_wr * *bad_op))                                       \
	X(ibv_alloc_buf, void *,                                               \
	  (struct ibv_pd * pd, size_t size, struct ibv_buf * *buf))            \
	X(ibv_free_buf, void, (struct ibv_buf * buf))                          \
	X(ibv_reg_buf_mr, struct ibv_mr *,                                     \
	  (struct ibv_pd * pd, struct ibv_buf * buf, void *addr,               \
	   size_t length, int access))                                         \
	X(ibv_export_buf_dmabuf_fd, int, (struct ibv_buf * buf))               \
	X(ibv_reg_mr_ex, struct ibv_mr *,                                      \
	  (struct ibv_pd * pd, struct rc_ibv_mr_init_attr * mr_init_attr))     \
	X(ibv_query_port_speed, int,                                           \
	  (struct ibv_context * context, uint32_t port_num,                    \
	   uint64_t * port_speed))                                             \
	X(ibv_alloc_dmah, struct ibv_dmah *,                                   \
	  (struct ibv_context * context, struct rc_ibv_dmah_init_attr * attr)) \
	X(ibv_dealloc_dmah, int, (struct ibv_dmah * dmah))

#define RC_RDMACM_CALLS(X)                                                     \
	X(rdma_create_event_channel, struct rdma_event_channel *, (void))      \
	X(rdma_destroy_event_channel, void,                                    \
	  (struct rdma_event_channel * channel))                               \
	X(rdma_create_id, int,                                                 \
	  (struct rdma_event_channel * channel, struct rdma_cm_id * *id,       \
	   void *context, enum rdma_port_space ps))                            \
	X(rdma_destroy_id, int, (struct rdma_cm_id * id))                      \
	X(rdma_bind_addr, int,                                                 \
	  (struct rdma_cm_id * id, struct sockaddr * addr))                    \
	X(rdma_join_multicast, int,                                            \
	  (struct rdma_cm_id * id, struct sockaddr * addr, void *context))     \
	X(rdma_join_multicast_ex, int,                                         \
	  (struct rdma_cm_id * id, struct rdma_cm_join_mc_attr_ex * attr,      \
	   void *context))                                                     \
	X(rdma_leave_multicast, int,                                           \
	  (struct rdma_cm_id * id, struct sockaddr * addr))                    \
	X(rdma_get_cm_event, int,                                              \
	  (struct rdma_event_channel * channel,                                \
	   struct rdma_cm_event * *event))                                     \
	X(rdma_ack_cm_event, int, (struct rdma_cm_event * event))              \
	X(rdma_create_qp, int,                                                 \
	  (struct rdma_cm_id * id, struct ibv_pd * pd,                         \
	   struct ibv_qp_init_attr * qp_init_attr))                            \
	X(rdma_destroy_qp, void, (struct rdma_cm_id * id))                     \
	X(rdma_resolve_addr, int,                                              \
	  (struct rdma_cm_id * id, struct sockaddr * src_addr,                 \
	   struct sockaddr * dst_addr, int timeout_ms))                        \
	X(rdma_resolve_route, int, (struct rdma_cm_id * id, int timeout_ms))   \
	X(rdma_listen, int, (struct rdma_cm_id * id, int backlog))             \
	X(rdma_connect, int,                                                   \
	  (struct rdma_cm_id * id, struct rdma_conn_param * conn_param))       \
	X(rdma_accept, int,                                                    \
	  (struct rdma_cm_id * id, struct rdma_conn_param * conn_param))       \
	X(rdma_reject, int,                                                    \
	  (struct rdma_cm_id * id, const void *private_data,                   \
	   uint8_t private_data_len))                                          \
	X(rdma_establish, int, (struct rdma_cm_id * id))                       \
	X(rdma_disconnect, int, (struct rdma_cm_id * id))                      \
	X(rdma_init_qp_attr, int,                                              \
	  (struct rdma_cm_id * id, struct ibv_qp_attr * qp_attr,               \
	   int *qp_attr_mask))                                                 \
	X(rdma_get_src_port, __be16, (struct rdma_cm_id * id))                 \
	X(rdma_get_dst_port, __be16, (struct rdma_cm_id * id))                 \
	X(rdma_get_local_addr, struct sockaddr *, (struct rdma_cm_id * id))    \
	X(rdma_get_peer_addr, struct sockaddr *, (struct rdma_cm_id * id))     \
	X(rdma_event_str, const char *, (enum rdma_cm_event_type event))       \
	X(rdma_get_devices, struct ibv_context **, (int *num_devices))         \
	X(rdma_free_devices, void, (struct ibv_context * *list))               \
	X(rdma_notify, int,                                                    \
	  (struct rdma_cm_id * id, enum ibv_event_type event))                 \
	X(rdma_migrate_id, int,                                                \
	  (struct rdma_cm_id * id, struct rdma_event_channel * channel))       \
	X(rdma_getaddrinfo, int,                                               \
	  (const char *node, const char *service,                              \
	   const struct rdma_addrinfo *hints, struct rdma_addrinfo **res))     \
	X(rdma_freeaddrinfo, void, (struct rdma_addrinfo * res))               \
	X(rdma_write_cm_event, int,                                            \
	  (struct rdma_cm_id * id, enum rdma_cm_event_type event, int status,  \
	   uint64_t arg))                                                      \
	X(rdma_resolve_addrinfo, int,                                          \
	  (struct rdma_cm_id * id, const char *node, const char *service,      \
	   const struct rdma_addrinfo *hints))                                 \
	X(rdma_query_addrinfo, int,                                            \
	  (struct rdma_cm_id * id, struct rdma_addrinfo * *info))              \
	X(rdma_create_ep, int,                                                 \
	  (struct rdma_cm_id * *id, struct rdma_addrinfo * res,                \
	   struct ibv_pd * pd, struct ibv_qp_init_attr * qp_init_attr))        \
	X(rdma_destroy_ep, void, (struct rdma_cm_id * id))                     \
	X(rdma_get_request, int,                                               \
	  (struct rdma_cm_id * listen, struct rdma_cm_id * *id))               \
	X(rdma_create_srq, int,                                                \
	  (struct rdma_cm_id * id, struct ibv_pd * pd,                         \
	   struct ibv_srq_init_attr * attr))                                   \
	X(rdma_destroy_srq, void, (struct rdma_cm_id * id))                    \
	X(rdma_reg_msgs, struct ibv_mr *,                                      \
	  (struct rdma_cm_id * id, void *addr, size_t length))                 \
	X(rdma_reg_read, struct ibv_mr *,                                      \
	  (struct rdma_cm_id * id, void *addr, size_t length))                 \
	X(rdma_reg_write, struct ibv_mr *,                                     \
	  (struct rdma_cm_id * id, void *addr, size_t length))                 \
	X(rdma_dereg_mr, int, (struct ibv_mr * mr))                            \
	X(rdma_post_send, int,                                                 \
	  (struct rdma_cm_id * id, void *context, void *addr, size_t length,   \
	   struct ibv_mr *mr, int flags))                                      \
	X(rdma_post_recv, int,                                                 \
	  (struct rdma_cm_id * id, void *context, void *addr, size_t length,   \
	   struct ibv_mr *mr))                                                 \
	X(rdma_post_read, int,                                                 \
	  (struct rdma_cm_id * id, void *context, void *addr, size_t length,   \
	   struct ibv_mr *mr, int flags, uint64_t remote_addr, uint32_t rkey)) \
	X(rdma_post_write, int,                                                \
	  (struct rdma_cm_id * id, void *context, void *addr, size_t length,   \
	   struct ibv_mr *mr, int flags, uint64_t remote_addr, uint32_t rkey)) \
	X(rdma_post_sendv, int,                                                \
	  (struct rdma_cm_id * id, void *context, struct ibv_sge *sgl,         \
	   int nsge, int flags))                                               \
	X(rdma_post_recvv, int,                                                \
	  (struct rdma_cm_id * id, void *context, struct ibv_sge *sgl,         \
	   int nsge))                                                          \
	X(rdma_post_readv, int,                                                \
	  (struct rdma_cm_id * id, void *context, struct ibv_sge *sgl,         \
	   int nsge, int flags, uint64_t remote_addr, uint32_t rkey))          \
	X(rdma_post_writev, int,                                               \
	  (struct rdma_cm_id * id, void *context, struct ibv_sge *sgl,         \
	   int nsge, int flags, uint64_t remote_addr, uint32_t rkey))          \
	X(rdma_post_ud_send, int,                                              \
	  (struct rdma_cm_id * id, void *context, void *addr, size_t length,   \
	   struct ibv_mr *mr, int flags, struct ibv_ah *ah,                    \
	   uint32_t remote_qpn))                                               \
	X(rdma_get_send_comp, int,                                             \
	  (struct rdma_cm_id * id, struct ibv_wc * wc))                        \
	X(rdma_get_recv_comp, int,                                             \
	  (struct rdma_cm_id * id, struct ibv_wc * wc))                        \
	X(rdma_set_option, int,                                                \
	  (struct rdma_cm_id * id, int level, int optname, void *optval,       \
	   size_t optlen))                                                     \
	X(rdma_set_local_ece, int,                                             \
	  (struct rdma_cm_id * id, struct ibv_ece * ece))                      \
	X(rdma_get_remote_ece, int,                                            \
	  (struct rdma_cm_id * id, struct ibv_ece * ece))

#define RC_ALL_CALLS(X) RC_UMAD_CALLS(X) RC_VERBS_CALLS(X) RC_RDMACM_CALLS(X)

struct rc_ops {
	const char *name; /* "system" or "reference" */
	enum rc_impl_id id;
	/* The objects it creates (AHs) are the provider's own, so rdma-core's
	 * data path (ibv_post_send) can use them.  The reference's are kernel
	 * objects only: traffic through them is not tried. */
	bool provider_objects;
#define RC_OPS_MEMBER(n, r, a) r(*n) a;
	RC_ALL_CALLS(RC_OPS_MEMBER)
#undef RC_OPS_MEMBER
};

/* Resolve the system implementation; safe to call more than once. */
const struct rc_ops *rc_impl(enum rc_impl_id id);
/* Where the system library came from, for the results' host object. */
const char *rc_impl_system_origin(const char *soname);
const char *rc_impl_open_error(const char *lib);
/* "44.0" from the path of an installed rdma-core library, or NULL */
const char *rc_impl_rdma_core_version(const char *origin);

#endif
