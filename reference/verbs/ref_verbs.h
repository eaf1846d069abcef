/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The reference libibverbs calls, each with libibverbs' own prototype,
 * written from their man pages, the kernel's uverbs ABI
 * (<rdma/ib_user_verbs.h>, <rdma/ib_user_ioctl_cmds.h>), the providers'
 * parts of it (<rdma/rdma_user_rxe.h>, <rdma/siw-abi.h>) and sysfs
 * (Documentation/ABI/stable/sysfs-class-infiniband).  No rdma-core
 * function is called.
 *
 * The control path (devices, contexts, PDs, MRs, MWs, CQs, QPs, SRQs,
 * async events) makes its own objects (objects.h): they may be given
 * only to these calls, and to the data path's (posting, polling, CQ
 * events), which a context of the reference also carries in its ops, so
 * that <infiniband/verbs.h>'s inline verbs reach them too.  The address-handle, GID and multicast calls take
 * a context, PD or QP of either side: only their public fields are read
 * (the command fd, the device name, the kernel handles).
 */
#ifndef RDMACONF_REF_VERBS_H
#define RDMACONF_REF_VERBS_H

#include <stdbool.h>
#include <infiniband/verbs.h>

#include "verbs_newer.h"

/* devices and contexts (device.c, context.c) */
struct ibv_device **ref_ibv_get_device_list(int *num_devices);
void ref_ibv_free_device_list(struct ibv_device **list);
const char *ref_ibv_get_device_name(struct ibv_device *device);
uint64_t ref_ibv_get_device_guid(struct ibv_device *device);
int ref_ibv_get_device_index(struct ibv_device *device);
struct ibv_context *ref_ibv_open_device(struct ibv_device *device);
int ref_ibv_close_device(struct ibv_context *context);
struct ibv_context *ref_ibv_import_device(int cmd_fd);

/* attributes (query.c) */
int ref_ibv_query_device(struct ibv_context *context,
			 struct ibv_device_attr *device_attr);
int ref_ibv_query_device_ex(struct ibv_context *context,
			    const struct ibv_query_device_ex_input *input,
			    struct ibv_device_attr_ex *attr);
int ref_ibv_query_port(struct ibv_context *context, uint8_t port_num,
		       struct ibv_port_attr *port_attr);
int ref_ibv_query_pkey(struct ibv_context *context, uint8_t port_num, int index,
		       uint16_t *pkey);
int ref_ibv_get_pkey_index(struct ibv_context *context, uint8_t port_num,
			   __be16 pkey);
int ref_ibv_query_rt_values_ex(struct ibv_context *context,
			       struct ibv_values_ex *values);

/* names and rates (strings.c, rate.c) */
const char *ref_ibv_node_type_str(enum ibv_node_type node_type);
const char *ref_ibv_port_state_str(enum ibv_port_state port_state);
const char *ref_ibv_event_type_str(enum ibv_event_type event);
const char *ref_ibv_wc_status_str(enum ibv_wc_status status);
int ref_ibv_rate_to_mult(enum ibv_rate rate);
enum ibv_rate ref_mult_to_ibv_rate(int mult);
int ref_ibv_rate_to_mbps(enum ibv_rate rate);
enum ibv_rate ref_mbps_to_ibv_rate(int mbps);

/* fork (fork.c) */
int ref_ibv_fork_init(void);
enum ibv_fork_status ref_ibv_is_fork_initialized(void);

/* PDs, MRs, MWs (pd.c, mr.c) */
struct ibv_pd *ref_ibv_alloc_pd(struct ibv_context *context);
int ref_ibv_dealloc_pd(struct ibv_pd *pd);
struct ibv_pd *ref_ibv_import_pd(struct ibv_context *context,
				 uint32_t pd_handle);
void ref_ibv_unimport_pd(struct ibv_pd *pd);
struct ibv_mr *ref_ibv_reg_mr(struct ibv_pd *pd, void *addr, size_t length,
			      int access);
struct ibv_mr *ref_ibv_reg_mr_iova(struct ibv_pd *pd, void *addr, size_t length,
				   uint64_t hca_va, int access);
int ref_ibv_rereg_mr(struct ibv_mr *mr, int flags, struct ibv_pd *pd,
		     void *addr, size_t length, int access);
int ref_ibv_dereg_mr(struct ibv_mr *mr);
struct ibv_mr *ref_ibv_import_mr(struct ibv_pd *pd, uint32_t mr_handle);
void ref_ibv_unimport_mr(struct ibv_mr *mr);
struct ibv_mw *ref_ibv_alloc_mw(struct ibv_pd *pd, enum ibv_mw_type type);
int ref_ibv_dealloc_mw(struct ibv_mw *mw);
uint32_t ref_ibv_inc_rkey(uint32_t rkey);
int ref_ibv_bind_mw(struct ibv_qp *qp, struct ibv_mw *mw,
		    struct ibv_mw_bind *mw_bind);

/* completion channels and CQs (cq.c) */
struct ibv_comp_channel *
ref_ibv_create_comp_channel(struct ibv_context *context);
int ref_ibv_destroy_comp_channel(struct ibv_comp_channel *channel);
struct ibv_cq *ref_ibv_create_cq(struct ibv_context *context, int cqe,
				 void *cq_context,
				 struct ibv_comp_channel *channel,
				 int comp_vector);
struct ibv_cq_ex *ref_ibv_create_cq_ex(struct ibv_context *context,
				       struct ibv_cq_init_attr_ex *cq_attr);
int ref_ibv_resize_cq(struct ibv_cq *cq, int cqe);
int ref_ibv_destroy_cq(struct ibv_cq *cq);

/* QPs (qp.c) and SRQs (srq.c) */
struct ibv_qp *ref_ibv_create_qp(struct ibv_pd *pd,
				 struct ibv_qp_init_attr *qp_init_attr);
struct ibv_qp *ref_ibv_create_qp_ex(struct ibv_context *context,
				    struct ibv_qp_init_attr_ex *qp_init_attr);
int ref_ibv_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask,
		     struct ibv_qp_init_attr *init_attr);
int ref_ibv_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr,
		      int attr_mask);
int ref_ibv_destroy_qp(struct ibv_qp *qp);
struct ibv_qp_ex *ref_ibv_qp_to_qp_ex(struct ibv_qp *qp);
struct ibv_srq *ref_ibv_create_srq(struct ibv_pd *pd,
				   struct ibv_srq_init_attr *srq_init_attr);
struct ibv_srq *ref_ibv_create_srq_ex(struct ibv_context *context,
				      struct ibv_srq_init_attr_ex *attr);
int ref_ibv_modify_srq(struct ibv_srq *srq, struct ibv_srq_attr *srq_attr,
		       int srq_attr_mask);
int ref_ibv_query_srq(struct ibv_srq *srq, struct ibv_srq_attr *srq_attr);
int ref_ibv_destroy_srq(struct ibv_srq *srq);
int ref_ibv_get_srq_num(struct ibv_srq *srq, uint32_t *srq_num);

/* the data path (datapath.c, the provider's dp_<driver>.c) */
int ref_ibv_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr,
		      struct ibv_send_wr **bad_wr);
int ref_ibv_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr,
		      struct ibv_recv_wr **bad_wr);
int ref_ibv_post_srq_recv(struct ibv_srq *srq, struct ibv_recv_wr *wr,
			  struct ibv_recv_wr **bad_wr);
int ref_ibv_poll_cq(struct ibv_cq *cq, int num_entries, struct ibv_wc *wc);
int ref_ibv_req_notify_cq(struct ibv_cq *cq, int solicited_only);
int ref_ibv_get_cq_event(struct ibv_comp_channel *channel, struct ibv_cq **cq,
			 void **cq_context);
void ref_ibv_ack_cq_events(struct ibv_cq *cq, unsigned int nevents);

/* async events (async.c) */
int ref_ibv_get_async_event(struct ibv_context *context,
			    struct ibv_async_event *event);
void ref_ibv_ack_async_event(struct ibv_async_event *event);

/* address handles and multicast (ah.c), the GID table (gid_query.c) */
int ref_ibv_init_ah_from_wc(struct ibv_context *context, uint8_t port_num,
			    struct ibv_wc *wc, struct ibv_grh *grh,
			    struct ibv_ah_attr *ah_attr);
struct ibv_ah *ref_ibv_create_ah_from_wc(struct ibv_pd *pd, struct ibv_wc *wc,
					 struct ibv_grh *grh, uint8_t port_num);
struct ibv_ah *ref_ibv_create_ah(struct ibv_pd *pd, struct ibv_ah_attr *attr);
int ref_ibv_destroy_ah(struct ibv_ah *ah);
int ref_ibv_query_gid(struct ibv_context *context, uint8_t port_num, int index,
		      union ibv_gid *gid);
int ref_ibv_query_gid_ex(struct ibv_context *context, uint32_t port_num,
			 uint32_t gid_index, struct ibv_gid_entry *entry,
			 uint32_t flags);
ssize_t ref_ibv_query_gid_table(struct ibv_context *context,
				struct ibv_gid_entry *entries,
				size_t max_entries, uint32_t flags);
int ref_ibv_attach_mcast(struct ibv_qp *qp, const union ibv_gid *gid,
			 uint16_t lid);
int ref_ibv_detach_mcast(struct ibv_qp *qp, const union ibv_gid *gid,
			 uint16_t lid);

struct ib_uverbs_ah_attr; /* <rdma/ib_user_verbs.h> */
void ref_ah_attr_to_uverbs(const struct ibv_ah_attr *attr,
			   struct ib_uverbs_ah_attr *a);
void ref_ah_attr_from_uverbs(const struct ib_uverbs_ah_attr *a,
			     struct ibv_ah_attr *attr);

/* The port's GID table, from the uverbs ioctls on @cmd_fd, else sysfs
 * (gid_table.c). */
enum ref_gid_type { REF_GID_IB_ROCE_V1, REF_GID_ROCE_V2 };
/* Index of @gid of @type on @dev port @port, or -ENOENT. */
int ref_gid_find(int cmd_fd, const char *dev, int port, const uint8_t gid[16],
		 enum ref_gid_type type);
/* Entries in the table (used or not), or -errno. */
int ref_gid_table_size(const char *dev, int port);
/* One used entry as the kernel has it now. */
struct ref_gid {
	uint8_t gid[16];
	uint32_t index, port;
	uint32_t type; /* enum ib_uverbs_gid_type */
	uint32_t ifindex;
};
/* Entry @index of @dev port @port: 0, -ENODATA unused, -EINVAL beyond
 * the table (or no such port). */
int ref_gid_entry(int cmd_fd, const char *dev, int port, int index,
		  struct ref_gid *out);
/* The port's used entries, up to @max into @out: how many there are, or
 * -EINVAL. */
ssize_t ref_gid_entries(int cmd_fd, const char *dev, int port,
			struct ref_gid *out, size_t max);
/* true: the port's link layer is Ethernet (RoCE) */
bool ref_port_is_roce(const char *dev, int port);

/* optional.c: the verbs a device may not have */
struct ibv_td *ref_ibv_alloc_td(struct ibv_context *context,
				struct ibv_td_init_attr *init_attr);
int ref_ibv_dealloc_td(struct ibv_td *td);
struct ibv_pd *
ref_ibv_alloc_parent_domain(struct ibv_context *context,
			    struct ibv_parent_domain_init_attr *attr);
struct ibv_dm *ref_ibv_alloc_dm(struct ibv_context *context,
				struct ibv_alloc_dm_attr *attr);
int ref_ibv_free_dm(struct ibv_dm *dm);
int ref_ibv_memcpy_to_dm(struct ibv_dm *dm, uint64_t dm_offset,
			 const void *host_addr, size_t length);
int ref_ibv_memcpy_from_dm(void *host_addr, struct ibv_dm *dm,
			   uint64_t dm_offset, size_t length);
struct ibv_counters *
ref_ibv_create_counters(struct ibv_context *context,
			struct ibv_counters_init_attr *init_attr);
int ref_ibv_destroy_counters(struct ibv_counters *counters);
int ref_ibv_attach_counters_point_flow(struct ibv_counters *counters,
				       struct ibv_counter_attach_attr *attr,
				       struct ibv_flow *flow);
int ref_ibv_read_counters(struct ibv_counters *counters,
			  uint64_t *counters_value, uint32_t ncounters,
			  uint32_t flags);
struct ibv_flow *ref_ibv_create_flow(struct ibv_qp *qp,
				     struct ibv_flow_attr *flow);
int ref_ibv_destroy_flow(struct ibv_flow *flow_id);
struct ibv_wq *ref_ibv_create_wq(struct ibv_context *context,
				 struct ibv_wq_init_attr *wq_init_attr);
int ref_ibv_modify_wq(struct ibv_wq *wq, struct ibv_wq_attr *attr);
int ref_ibv_destroy_wq(struct ibv_wq *wq);
struct ibv_rwq_ind_table *
ref_ibv_create_rwq_ind_table(struct ibv_context *context,
			     struct ibv_rwq_ind_table_init_attr *init_attr);
int ref_ibv_destroy_rwq_ind_table(struct ibv_rwq_ind_table *rwq_ind_table);
struct ibv_xrcd *ref_ibv_open_xrcd(struct ibv_context *context,
				   struct ibv_xrcd_init_attr *xrcd_init_attr);
int ref_ibv_close_xrcd(struct ibv_xrcd *xrcd);
struct ibv_qp *ref_ibv_open_qp(struct ibv_context *context,
			       struct ibv_qp_open_attr *qp_open_attr);
int ref_ibv_query_ece(struct ibv_qp *qp, struct ibv_ece *ece);
int ref_ibv_set_ece(struct ibv_qp *qp, struct ibv_ece *ece);
int ref_ibv_modify_cq(struct ibv_cq *cq, struct ibv_modify_cq_attr *attr);
struct ibv_mr *ref_ibv_alloc_null_mr(struct ibv_pd *pd);
int ref_ibv_advise_mr(struct ibv_pd *pd, enum ibv_advise_mr_advice advice,
		      uint32_t flags, struct ibv_sge *sg_list,
		      uint32_t num_sge);
struct ibv_mr *ref_ibv_reg_dmabuf_mr(struct ibv_pd *pd, uint64_t offset,
				     size_t length, uint64_t iova, int fd,
				     int access);
int ref_ibv_query_qp_data_in_order(struct ibv_qp *qp, enum ibv_wr_opcode op,
				   uint32_t flags);
int ref_ibv_modify_qp_rate_limit(struct ibv_qp *qp,
				 struct ibv_qp_rate_limit_attr *attr);
int ref_ibv_post_srq_ops(struct ibv_srq *srq, struct ibv_ops_wr *op,
			 struct ibv_ops_wr **bad_op);

/* documented after 44.0 (verbs_newer.h): buffers (buf.c), ibv_reg_mr_ex
 * (mr.c), the port's speed (query.c), DMA handles (dmah.c) */
void *ref_ibv_alloc_buf(struct ibv_pd *pd, size_t size, struct ibv_buf **buf);
void ref_ibv_free_buf(struct ibv_buf *buf);
struct ibv_mr *ref_ibv_reg_buf_mr(struct ibv_pd *pd, struct ibv_buf *buf,
				  void *addr, size_t length, int access);
int ref_ibv_export_buf_dmabuf_fd(struct ibv_buf *buf);
/* 0 when @addr, @length lie within @buf and @pd is the one it was
 * allocated from, else EINVAL */
int ref_buf_range(struct ibv_pd *pd, struct ibv_buf *buf, void *addr,
		  size_t length);
struct ibv_mr *ref_ibv_reg_mr_ex(struct ibv_pd *pd,
				 struct rc_ibv_mr_init_attr *mr_init_attr);
int ref_ibv_query_port_speed(struct ibv_context *context, uint32_t port_num,
			     uint64_t *port_speed);
struct ibv_dmah *ref_ibv_alloc_dmah(struct ibv_context *context,
				    struct rc_ibv_dmah_init_attr *attr);
int ref_ibv_dealloc_dmah(struct ibv_dmah *dmah);

#endif
