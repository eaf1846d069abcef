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

/* X(name, return type, parameter list): every call under test, once. */
#define RC_UMAD_CALLS(X) \
	X(umad_init, int, (void)) \
	X(umad_done, int, (void)) \
	X(umad_get_cas_names, int, (char cas[][UMAD_CA_NAME_LEN], int max)) \
	X(umad_get_ca, int, (const char *ca_name, umad_ca_t *ca)) \
	X(umad_get_ca_portguids, int, (const char *ca_name, __be64 *portguids, \
				       int max)) \
	X(umad_get_issm_path, int, (const char *ca_name, int portnum, \
				    char path[], int max)) \
	X(umad_release_ca, int, (umad_ca_t *ca)) \
	X(umad_get_port, int, (const char *ca_name, int portnum, umad_port_t *port)) \
	X(umad_release_port, int, (umad_port_t *port)) \
	X(umad_open_port, int, (const char *ca_name, int portnum)) \
	X(umad_close_port, int, (int portid)) \
	X(umad_register, int, (int portid, int mgmt_class, int mgmt_version, \
			       uint8_t rmpp_version, long method_mask[16 / sizeof(long)])) \
	X(umad_register_oui, int, (int portid, int mgmt_class, uint8_t rmpp_version, \
				   uint8_t oui[3], long method_mask[16 / sizeof(long)])) \
	X(umad_register2, int, (int port_fd, struct umad_reg_attr *attr, \
				uint32_t *agent_id)) \
	X(umad_unregister, int, (int portid, int agentid)) \
	X(umad_send, int, (int portid, int agentid, void *umad, int length, \
			   int timeout_ms, int retries)) \
	X(umad_recv, int, (int portid, void *umad, int *length, int timeout_ms)) \
	X(umad_poll, int, (int portid, int timeout_ms)) \
	X(umad_get_fd, int, (int portid)) \
	X(umad_get_mad, void *, (void *umad)) \
	X(umad_size, size_t, (void)) \
	X(umad_status, int, (void *umad)) \
	X(umad_get_mad_addr, ib_mad_addr_t *, (void *umad)) \
	X(umad_set_grh_net, int, (void *umad, void *mad_addr)) \
	X(umad_set_grh, int, (void *umad, void *mad_addr)) \
	X(umad_set_addr_net, int, (void *umad, __be16 dlid, __be32 dqp, int sl, __be32 qkey)) \
	X(umad_set_addr, int, (void *umad, int dlid, int dqp, int sl, int qkey)) \
	X(umad_set_pkey, int, (void *umad, int pkey_index)) \
	X(umad_get_pkey, int, (void *umad)) \
	X(umad_alloc, void *, (int num, size_t size)) \
	X(umad_free, void, (void *umad)) \
	X(umad_debug, int, (int level)) \
	X(umad_dump, void, (void *umad)) \
	X(umad_addr_dump, void, (ib_mad_addr_t *addr)) \
	X(umad_class_str, const char *, (uint8_t mgmt_class)) \
	X(umad_method_str, const char *, (uint8_t mgmt_class, uint8_t method)) \
	X(umad_attribute_str, const char *, (uint8_t mgmt_class, __be16 attr_id)) \
	X(umad_common_mad_status_str, const char *, (__be16 status)) \
	X(umad_sa_mad_status_str, const char *, (__be16 status))

#define RC_VERBS_CALLS(X) \
	X(ibv_create_ah, struct ibv_ah *, (struct ibv_pd *pd, struct ibv_ah_attr *attr)) \
	X(ibv_destroy_ah, int, (struct ibv_ah *ah)) \
	X(ibv_query_gid, int, (struct ibv_context *context, uint8_t port_num, \
			       int index, union ibv_gid *gid)) \
	X(ibv_query_gid_ex, int, (struct ibv_context *context, uint32_t port_num, \
				  uint32_t gid_index, struct ibv_gid_entry *entry, \
				  uint32_t flags)) \
	X(ibv_query_gid_table, ssize_t, (struct ibv_context *context, \
					 struct ibv_gid_entry *entries, \
					 size_t max_entries, uint32_t flags)) \
	X(ibv_init_ah_from_wc, int, (struct ibv_context *context, uint8_t port_num, \
				     struct ibv_wc *wc, struct ibv_grh *grh, \
				     struct ibv_ah_attr *ah_attr)) \
	X(ibv_create_ah_from_wc, struct ibv_ah *, (struct ibv_pd *pd, struct ibv_wc *wc, \
						   struct ibv_grh *grh, uint8_t port_num)) \
	X(ibv_attach_mcast, int, (struct ibv_qp *qp, const union ibv_gid *gid, uint16_t lid)) \
	X(ibv_detach_mcast, int, (struct ibv_qp *qp, const union ibv_gid *gid, uint16_t lid))

#define RC_RDMACM_CALLS(X) \
	X(rdma_create_event_channel, struct rdma_event_channel *, (void)) \
	X(rdma_destroy_event_channel, void, (struct rdma_event_channel *channel)) \
	X(rdma_create_id, int, (struct rdma_event_channel *channel, struct rdma_cm_id **id, \
				void *context, enum rdma_port_space ps)) \
	X(rdma_destroy_id, int, (struct rdma_cm_id *id)) \
	X(rdma_bind_addr, int, (struct rdma_cm_id *id, struct sockaddr *addr)) \
	X(rdma_join_multicast, int, (struct rdma_cm_id *id, struct sockaddr *addr, \
				     void *context)) \
	X(rdma_join_multicast_ex, int, (struct rdma_cm_id *id, \
					struct rdma_cm_join_mc_attr_ex *attr, \
					void *context)) \
	X(rdma_leave_multicast, int, (struct rdma_cm_id *id, struct sockaddr *addr)) \
	X(rdma_get_cm_event, int, (struct rdma_event_channel *channel, \
				   struct rdma_cm_event **event)) \
	X(rdma_ack_cm_event, int, (struct rdma_cm_event *event)) \
	X(rdma_create_qp, int, (struct rdma_cm_id *id, struct ibv_pd *pd, \
				struct ibv_qp_init_attr *qp_init_attr)) \
	X(rdma_destroy_qp, void, (struct rdma_cm_id *id))

#define RC_ALL_CALLS(X) RC_UMAD_CALLS(X) RC_VERBS_CALLS(X) RC_RDMACM_CALLS(X)


struct rc_ops {
	const char *name;	/* "system" or "reference" */
	enum rc_impl_id id;
	/* The objects it creates (AHs) are the provider's own, so rdma-core's
	 * data path (ibv_post_send) can use them.  The reference's are kernel
	 * objects only: traffic through them is not tried. */
	bool provider_objects;
#define RC_OPS_MEMBER(n, r, a) r (*n) a;
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
