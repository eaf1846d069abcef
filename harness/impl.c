// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impl.h"
#include "../reference/umad/ref_umad.h"
#include "../reference/verbs/ref_verbs.h"
#include "../reference/rdmacm/ref_rdmacm.h"
#include <rdma/rdma_verbs.h>

struct rc_lib {
	const char *soname;
	void *handle;
	char error[256];
};

static struct rc_lib lib_umad = { .soname = "libibumad.so.3" };
static struct rc_lib lib_verbs = { .soname = "libibverbs.so.1" };
static struct rc_lib lib_rdmacm = { .soname = "librdmacm.so.1" };

static void lib_open(struct rc_lib *lib)
{
	const char *err;

	if (lib->handle || lib->error[0])
		return;
	/* RTLD_GLOBAL: the lookups below go through the global scope, where
	 * LD_PRELOAD objects come first, exactly as for a program linked
	 * against the library. */
	lib->handle = dlopen(lib->soname, RTLD_NOW | RTLD_GLOBAL);
	if (!lib->handle) {
		err = dlerror();
		snprintf(lib->error, sizeof(lib->error), "%s",
			 err ? err : "dlopen failed");
	}
}

static void *lookup(struct rc_lib *lib, const char *name)
{
	lib_open(lib);
	if (!lib->handle)
		return NULL;
	return dlsym(RTLD_DEFAULT, name);
}

static struct rc_ops system_ops = { .name = "system",
				    .id = RC_IMPL_SYSTEM,
				    .provider_objects = true };

/*
 * umad_alloc(3) and umad_free(3) are static inline in <infiniband/umad.h>:
 * rdma-core's implementation is the header's, compiled into every caller,
 * and no symbol of the library.  These carry it into the ops table.
 */
static void *system_umad_alloc(int num, size_t size)
{
	return umad_alloc(num, size);
}

static void system_umad_free(void *umad)
{
	umad_free(umad);
}

/*
 * ibv_query_gid_ex(3) and ibv_query_gid_table(3) are static inline in
 * <infiniband/verbs.h> too, over the library's _ibv_query_gid_ex and
 * _ibv_query_gid_table with the size of the caller's entry: the same call,
 * through the symbol as the dynamic linker finds it.
 */
static int (*system_query_gid_ex_sym)(struct ibv_context *, uint32_t, uint32_t,
				      struct ibv_gid_entry *, uint32_t, size_t);
static ssize_t (*system_query_gid_table_sym)(struct ibv_context *,
					     struct ibv_gid_entry *, size_t,
					     uint32_t, size_t);

static int system_ibv_query_gid_ex(struct ibv_context *context,
				   uint32_t port_num, uint32_t gid_index,
				   struct ibv_gid_entry *entry, uint32_t flags)
{
	return system_query_gid_ex_sym(context, port_num, gid_index, entry,
				       flags, sizeof(*entry));
}

static ssize_t system_ibv_query_gid_table(struct ibv_context *context,
					  struct ibv_gid_entry *entries,
					  size_t max_entries, uint32_t flags)
{
	return system_query_gid_table_sym(context, entries, max_entries, flags,
					  sizeof(*entries));
}

/*
 * The libibverbs calls that <infiniband/verbs.h> makes static inline or a
 * macro over the context's ops (and, for some, a library function to fall
 * back on): a caller's code is the header's, and so is this.  A wrapper
 * is installed only when the library exports what it falls back on;
 * those calling only the context's ops are always there.  ibv_reg_mr and
 * ibv_reg_mr_iova are what a caller with run-time access flags gets (the
 * header chooses ibv_reg_mr_iova2 then).
 */
static int system_ibv_query_port(struct ibv_context *context, uint8_t port_num,
				 struct ibv_port_attr *port_attr)
{
	return ibv_query_port(context, port_num, port_attr);
}

static int
system_ibv_query_device_ex(struct ibv_context *context,
			   const struct ibv_query_device_ex_input *input,
			   struct ibv_device_attr_ex *attr)
{
	return ibv_query_device_ex(context, input, attr);
}

static int system_ibv_query_rt_values_ex(struct ibv_context *context,
					 struct ibv_values_ex *values)
{
	return ibv_query_rt_values_ex(context, values);
}

static struct ibv_mr *system_ibv_reg_mr(struct ibv_pd *pd, void *addr,
					size_t length, int access)
{
	return ibv_reg_mr(pd, addr, length, access);
}

static struct ibv_mr *system_ibv_reg_mr_iova(struct ibv_pd *pd, void *addr,
					     size_t length, uint64_t iova,
					     int access)
{
	return ibv_reg_mr_iova(pd, addr, length, iova, access);
}

static struct ibv_mw *system_ibv_alloc_mw(struct ibv_pd *pd,
					  enum ibv_mw_type type)
{
	return ibv_alloc_mw(pd, type);
}

static int system_ibv_dealloc_mw(struct ibv_mw *mw)
{
	return ibv_dealloc_mw(mw);
}

static uint32_t system_ibv_inc_rkey(uint32_t rkey)
{
	return ibv_inc_rkey(rkey);
}

static struct ibv_cq_ex *
system_ibv_create_cq_ex(struct ibv_context *context,
			struct ibv_cq_init_attr_ex *cq_attr)
{
	return ibv_create_cq_ex(context, cq_attr);
}

static struct ibv_qp *system_ibv_create_qp_ex(struct ibv_context *context,
					      struct ibv_qp_init_attr_ex *attr)
{
	return ibv_create_qp_ex(context, attr);
}

static struct ibv_srq *
system_ibv_create_srq_ex(struct ibv_context *context,
			 struct ibv_srq_init_attr_ex *attr)
{
	return ibv_create_srq_ex(context, attr);
}

static int system_ibv_get_srq_num(struct ibv_srq *srq, uint32_t *srq_num)
{
	return ibv_get_srq_num(srq, srq_num);
}

/* The data path: the header's calls through the context's ops. */
static int system_ibv_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr,
				struct ibv_send_wr **bad_wr)
{
	return ibv_post_send(qp, wr, bad_wr);
}

static int system_ibv_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr,
				struct ibv_recv_wr **bad_wr)
{
	return ibv_post_recv(qp, wr, bad_wr);
}

static int system_ibv_post_srq_recv(struct ibv_srq *srq, struct ibv_recv_wr *wr,
				    struct ibv_recv_wr **bad_wr)
{
	return ibv_post_srq_recv(srq, wr, bad_wr);
}

static int system_ibv_poll_cq(struct ibv_cq *cq, int num_entries,
			      struct ibv_wc *wc)
{
	return ibv_poll_cq(cq, num_entries, wc);
}

static int system_ibv_req_notify_cq(struct ibv_cq *cq, int solicited_only)
{
	return ibv_req_notify_cq(cq, solicited_only);
}

/*
 * The header's inline verbs over the context's optional ops (thread and
 * parent domains, device memory, counters, flows, WQs and their tables,
 * XRC domains, CQ moderation, null MRs, MR advice, rate limits, SRQ
 * operations): what a caller compiles, installed when the library is.
 */
static struct ibv_td *system_ibv_alloc_td(struct ibv_context *context,
					  struct ibv_td_init_attr *init_attr)
{
	return ibv_alloc_td(context, init_attr);
}

static int system_ibv_dealloc_td(struct ibv_td *td)
{
	return ibv_dealloc_td(td);
}

static struct ibv_pd *
system_ibv_alloc_parent_domain(struct ibv_context *context,
			       struct ibv_parent_domain_init_attr *attr)
{
	return ibv_alloc_parent_domain(context, attr);
}

static struct ibv_dm *system_ibv_alloc_dm(struct ibv_context *context,
					  struct ibv_alloc_dm_attr *attr)
{
	return ibv_alloc_dm(context, attr);
}

static int system_ibv_free_dm(struct ibv_dm *dm)
{
	return ibv_free_dm(dm);
}

static int system_ibv_memcpy_to_dm(struct ibv_dm *dm, uint64_t dm_offset,
				   const void *host_addr, size_t length)
{
	return ibv_memcpy_to_dm(dm, dm_offset, host_addr, length);
}

static int system_ibv_memcpy_from_dm(void *host_addr, struct ibv_dm *dm,
				     uint64_t dm_offset, size_t length)
{
	return ibv_memcpy_from_dm(host_addr, dm, dm_offset, length);
}

static struct ibv_counters *
system_ibv_create_counters(struct ibv_context *context,
			   struct ibv_counters_init_attr *init_attr)
{
	return ibv_create_counters(context, init_attr);
}

static int system_ibv_destroy_counters(struct ibv_counters *counters)
{
	return ibv_destroy_counters(counters);
}

static int
system_ibv_attach_counters_point_flow(struct ibv_counters *counters,
				      struct ibv_counter_attach_attr *attr,
				      struct ibv_flow *flow)
{
	return ibv_attach_counters_point_flow(counters, attr, flow);
}

static int system_ibv_read_counters(struct ibv_counters *counters,
				    uint64_t *counters_value,
				    uint32_t ncounters, uint32_t flags)
{
	return ibv_read_counters(counters, counters_value, ncounters, flags);
}

static struct ibv_flow *system_ibv_create_flow(struct ibv_qp *qp,
					       struct ibv_flow_attr *flow)
{
	return ibv_create_flow(qp, flow);
}

static int system_ibv_destroy_flow(struct ibv_flow *flow_id)
{
	return ibv_destroy_flow(flow_id);
}

static struct ibv_wq *
system_ibv_create_wq(struct ibv_context *context,
		     struct ibv_wq_init_attr *wq_init_attr)
{
	return ibv_create_wq(context, wq_init_attr);
}

static int system_ibv_modify_wq(struct ibv_wq *wq, struct ibv_wq_attr *attr)
{
	return ibv_modify_wq(wq, attr);
}

static int system_ibv_destroy_wq(struct ibv_wq *wq)
{
	return ibv_destroy_wq(wq);
}

static struct ibv_rwq_ind_table *
system_ibv_create_rwq_ind_table(struct ibv_context *context,
				struct ibv_rwq_ind_table_init_attr *init_attr)
{
	return ibv_create_rwq_ind_table(context, init_attr);
}

static int
system_ibv_destroy_rwq_ind_table(struct ibv_rwq_ind_table *rwq_ind_table)
{
	return ibv_destroy_rwq_ind_table(rwq_ind_table);
}

static struct ibv_xrcd *
system_ibv_open_xrcd(struct ibv_context *context,
		     struct ibv_xrcd_init_attr *xrcd_init_attr)
{
	return ibv_open_xrcd(context, xrcd_init_attr);
}

static int system_ibv_close_xrcd(struct ibv_xrcd *xrcd)
{
	return ibv_close_xrcd(xrcd);
}

static struct ibv_qp *system_ibv_open_qp(struct ibv_context *context,
					 struct ibv_qp_open_attr *qp_open_attr)
{
	return ibv_open_qp(context, qp_open_attr);
}

static int system_ibv_modify_cq(struct ibv_cq *cq,
				struct ibv_modify_cq_attr *attr)
{
	return ibv_modify_cq(cq, attr);
}

static struct ibv_mr *system_ibv_alloc_null_mr(struct ibv_pd *pd)
{
	return ibv_alloc_null_mr(pd);
}

static int system_ibv_advise_mr(struct ibv_pd *pd,
				enum ibv_advise_mr_advice advice,
				uint32_t flags, struct ibv_sge *sg_list,
				uint32_t num_sge)
{
	return ibv_advise_mr(pd, advice, flags, sg_list, num_sge);
}

static int system_ibv_modify_qp_rate_limit(struct ibv_qp *qp,
					   struct ibv_qp_rate_limit_attr *attr)
{
	return ibv_modify_qp_rate_limit(qp, attr);
}

static int system_ibv_post_srq_ops(struct ibv_srq *srq, struct ibv_ops_wr *op,
				   struct ibv_ops_wr **bad_op)
{
	return ibv_post_srq_ops(srq, op, bad_op);
}

/* The header's inline verbs, each installed if what it calls is there. */
/* ibv_bind_mw(3): the header checks the MW's type and the MR's PD, then
 * calls the context's bind_mw */
static int system_ibv_bind_mw(struct ibv_qp *qp, struct ibv_mw *mw,
			      struct ibv_mw_bind *mw_bind)
{
	return ibv_bind_mw(qp, mw, mw_bind);
}

static void system_inline_verbs(struct rc_ops *o)
{
	bool has_query_port = lookup(&lib_verbs, "ibv_query_port");
	bool has_query_device = lookup(&lib_verbs, "ibv_query_device");
	bool has_iova2 = lookup(&lib_verbs, "ibv_reg_mr_iova2");
	bool has_create_qp = lookup(&lib_verbs, "ibv_create_qp");
	bool has_create_srq = lookup(&lib_verbs, "ibv_create_srq");
	bool has_lib = lib_verbs.handle;

	o->ibv_query_port = has_query_port ? system_ibv_query_port : NULL;
	o->ibv_query_device_ex = has_query_device ? system_ibv_query_device_ex :
						    NULL;
	o->ibv_query_rt_values_ex = has_lib ? system_ibv_query_rt_values_ex :
					      NULL;
	o->ibv_reg_mr = has_iova2 ? system_ibv_reg_mr : NULL;
	o->ibv_reg_mr_iova = has_iova2 ? system_ibv_reg_mr_iova : NULL;
	o->ibv_alloc_mw = has_lib ? system_ibv_alloc_mw : NULL;
	o->ibv_dealloc_mw = has_lib ? system_ibv_dealloc_mw : NULL;
	o->ibv_inc_rkey = has_lib ? system_ibv_inc_rkey : NULL;
	o->ibv_bind_mw = has_lib ? system_ibv_bind_mw : NULL;
	o->ibv_create_cq_ex = has_lib ? system_ibv_create_cq_ex : NULL;
	o->ibv_create_qp_ex = has_create_qp ? system_ibv_create_qp_ex : NULL;
	o->ibv_create_srq_ex = has_create_srq ? system_ibv_create_srq_ex : NULL;
	o->ibv_get_srq_num = has_lib ? system_ibv_get_srq_num : NULL;
	o->ibv_post_send = has_lib ? system_ibv_post_send : NULL;
	o->ibv_post_recv = has_lib ? system_ibv_post_recv : NULL;
	o->ibv_post_srq_recv = has_lib ? system_ibv_post_srq_recv : NULL;
	o->ibv_poll_cq = has_lib ? system_ibv_poll_cq : NULL;
	o->ibv_req_notify_cq = has_lib ? system_ibv_req_notify_cq : NULL;
	o->ibv_alloc_td = has_lib ? system_ibv_alloc_td : NULL;
	o->ibv_dealloc_td = has_lib ? system_ibv_dealloc_td : NULL;
	o->ibv_alloc_parent_domain = has_lib ? system_ibv_alloc_parent_domain :
					       NULL;
	o->ibv_alloc_dm = has_lib ? system_ibv_alloc_dm : NULL;
	o->ibv_free_dm = has_lib ? system_ibv_free_dm : NULL;
	o->ibv_memcpy_to_dm = has_lib ? system_ibv_memcpy_to_dm : NULL;
	o->ibv_memcpy_from_dm = has_lib ? system_ibv_memcpy_from_dm : NULL;
	o->ibv_create_counters = has_lib ? system_ibv_create_counters : NULL;
	o->ibv_destroy_counters = has_lib ? system_ibv_destroy_counters : NULL;
	o->ibv_attach_counters_point_flow =
		has_lib ? system_ibv_attach_counters_point_flow : NULL;
	o->ibv_read_counters = has_lib ? system_ibv_read_counters : NULL;
	o->ibv_create_flow = has_lib ? system_ibv_create_flow : NULL;
	o->ibv_destroy_flow = has_lib ? system_ibv_destroy_flow : NULL;
	o->ibv_create_wq = has_lib ? system_ibv_create_wq : NULL;
	o->ibv_modify_wq = has_lib ? system_ibv_modify_wq : NULL;
	o->ibv_destroy_wq = has_lib ? system_ibv_destroy_wq : NULL;
	o->ibv_create_rwq_ind_table =
		has_lib ? system_ibv_create_rwq_ind_table : NULL;
	o->ibv_destroy_rwq_ind_table =
		has_lib ? system_ibv_destroy_rwq_ind_table : NULL;
	o->ibv_open_xrcd = has_lib ? system_ibv_open_xrcd : NULL;
	o->ibv_close_xrcd = has_lib ? system_ibv_close_xrcd : NULL;
	o->ibv_open_qp = has_lib ? system_ibv_open_qp : NULL;
	o->ibv_modify_cq = has_lib ? system_ibv_modify_cq : NULL;
	o->ibv_alloc_null_mr = has_lib ? system_ibv_alloc_null_mr : NULL;
	o->ibv_advise_mr = has_lib ? system_ibv_advise_mr : NULL;
	o->ibv_modify_qp_rate_limit =
		has_lib ? system_ibv_modify_qp_rate_limit : NULL;
	o->ibv_post_srq_ops = has_lib ? system_ibv_post_srq_ops : NULL;
}

/* <rdma/rdma_cma.h>'s inline address calls, as the header has them: the
 * id's own route addresses.  Installed when librdmacm is there. */
static struct sockaddr *system_rdma_get_local_addr(struct rdma_cm_id *id)
{
	return rdma_get_local_addr(id);
}

static struct sockaddr *system_rdma_get_peer_addr(struct rdma_cm_id *id)
{
	return rdma_get_peer_addr(id);
}

/* <rdma/rdma_verbs.h>'s registrations, static inline there (ibv_reg_mr on
 * id->pd, ibv_dereg_mr): the header's code, as every caller compiles
 * it.  Installed when librdmacm is there. */
static struct ibv_mr *system_rdma_reg_msgs(struct rdma_cm_id *id, void *addr,
					   size_t length)
{
	return rdma_reg_msgs(id, addr, length);
}

static struct ibv_mr *system_rdma_reg_read(struct rdma_cm_id *id, void *addr,
					   size_t length)
{
	return rdma_reg_read(id, addr, length);
}

static struct ibv_mr *system_rdma_reg_write(struct rdma_cm_id *id, void *addr,
					    size_t length)
{
	return rdma_reg_write(id, addr, length);
}

static int system_rdma_dereg_mr(struct ibv_mr *mr)
{
	return rdma_dereg_mr(mr);
}

/* <rdma/rdma_verbs.h>'s data path, static inline there (ibv_post_send,
 * ibv_post_recv on id->qp; ibv_poll_cq, ibv_req_notify_cq and
 * ibv_get_cq_event on the id's CQs and channels): the header's code.
 * Installed when librdmacm is there. */
static int system_rdma_post_send(struct rdma_cm_id *id, void *context,
				 void *addr, size_t length, struct ibv_mr *mr,
				 int flags)
{
	return rdma_post_send(id, context, addr, length, mr, flags);
}

static int system_rdma_post_recv(struct rdma_cm_id *id, void *context,
				 void *addr, size_t length, struct ibv_mr *mr)
{
	return rdma_post_recv(id, context, addr, length, mr);
}

static int system_rdma_post_read(struct rdma_cm_id *id, void *context,
				 void *addr, size_t length, struct ibv_mr *mr,
				 int flags, uint64_t remote_addr, uint32_t rkey)
{
	return rdma_post_read(id, context, addr, length, mr, flags, remote_addr,
			      rkey);
}

static int system_rdma_post_write(struct rdma_cm_id *id, void *context,
				  void *addr, size_t length, struct ibv_mr *mr,
				  int flags, uint64_t remote_addr,
				  uint32_t rkey)
{
	return rdma_post_write(id, context, addr, length, mr, flags,
			       remote_addr, rkey);
}

static int system_rdma_post_sendv(struct rdma_cm_id *id, void *context,
				  struct ibv_sge *sgl, int nsge, int flags)
{
	return rdma_post_sendv(id, context, sgl, nsge, flags);
}

static int system_rdma_post_recvv(struct rdma_cm_id *id, void *context,
				  struct ibv_sge *sgl, int nsge)
{
	return rdma_post_recvv(id, context, sgl, nsge);
}

static int system_rdma_post_readv(struct rdma_cm_id *id, void *context,
				  struct ibv_sge *sgl, int nsge, int flags,
				  uint64_t remote_addr, uint32_t rkey)
{
	return rdma_post_readv(id, context, sgl, nsge, flags, remote_addr,
			       rkey);
}

static int system_rdma_post_writev(struct rdma_cm_id *id, void *context,
				   struct ibv_sge *sgl, int nsge, int flags,
				   uint64_t remote_addr, uint32_t rkey)
{
	return rdma_post_writev(id, context, sgl, nsge, flags, remote_addr,
				rkey);
}

static int system_rdma_post_ud_send(struct rdma_cm_id *id, void *context,
				    void *addr, size_t length,
				    struct ibv_mr *mr, int flags,
				    struct ibv_ah *ah, uint32_t remote_qpn)
{
	return rdma_post_ud_send(id, context, addr, length, mr, flags, ah,
				 remote_qpn);
}

static int system_rdma_get_send_comp(struct rdma_cm_id *id, struct ibv_wc *wc)
{
	return rdma_get_send_comp(id, wc);
}

static int system_rdma_get_recv_comp(struct rdma_cm_id *id, struct ibv_wc *wc)
{
	return rdma_get_recv_comp(id, wc);
}

static bool system_resolved;

static const struct rc_ops reference_ops = { .name = "reference",
					     .id = RC_IMPL_REFERENCE,
#define RC_REF_MEMBER(n, r, a) .n = ref_##n,
					     RC_ALL_CALLS(RC_REF_MEMBER)
#undef RC_REF_MEMBER
};

const struct rc_ops *rc_impl(enum rc_impl_id id)
{
	if (id == RC_IMPL_REFERENCE)
		return &reference_ops;
	if (!system_resolved) {
#define RC_SYS_UMAD(n, r, a) system_ops.n = (r(*) a)lookup(&lib_umad, #n);
#define RC_SYS_VERBS(n, r, a) system_ops.n = (r(*) a)lookup(&lib_verbs, #n);
#define RC_SYS_RDMACM(n, r, a) system_ops.n = (r(*) a)lookup(&lib_rdmacm, #n);
		RC_UMAD_CALLS(RC_SYS_UMAD)
		RC_VERBS_CALLS(RC_SYS_VERBS)
		RC_RDMACM_CALLS(RC_SYS_RDMACM)
		system_ops.umad_alloc = system_umad_alloc;
		system_ops.umad_free = system_umad_free;
		system_query_gid_ex_sym =
			lookup(&lib_verbs, "_ibv_query_gid_ex");
		system_query_gid_table_sym =
			lookup(&lib_verbs, "_ibv_query_gid_table");
		system_ops.ibv_query_gid_ex = system_query_gid_ex_sym ?
						      system_ibv_query_gid_ex :
						      NULL;
		system_ops.ibv_query_gid_table =
			system_query_gid_table_sym ?
				system_ibv_query_gid_table :
				NULL;
		system_inline_verbs(&system_ops);
		system_ops.rdma_get_local_addr =
			lib_rdmacm.handle ? system_rdma_get_local_addr : NULL;
		system_ops.rdma_get_peer_addr =
			lib_rdmacm.handle ? system_rdma_get_peer_addr : NULL;
		system_ops.rdma_reg_msgs =
			lib_rdmacm.handle ? system_rdma_reg_msgs : NULL;
		system_ops.rdma_reg_read =
			lib_rdmacm.handle ? system_rdma_reg_read : NULL;
		system_ops.rdma_reg_write =
			lib_rdmacm.handle ? system_rdma_reg_write : NULL;
		system_ops.rdma_dereg_mr =
			lib_rdmacm.handle ? system_rdma_dereg_mr : NULL;
		system_ops.rdma_post_send =
			lib_rdmacm.handle ? system_rdma_post_send : NULL;
		system_ops.rdma_post_recv =
			lib_rdmacm.handle ? system_rdma_post_recv : NULL;
		system_ops.rdma_post_read =
			lib_rdmacm.handle ? system_rdma_post_read : NULL;
		system_ops.rdma_post_write =
			lib_rdmacm.handle ? system_rdma_post_write : NULL;
		system_ops.rdma_post_sendv =
			lib_rdmacm.handle ? system_rdma_post_sendv : NULL;
		system_ops.rdma_post_recvv =
			lib_rdmacm.handle ? system_rdma_post_recvv : NULL;
		system_ops.rdma_post_readv =
			lib_rdmacm.handle ? system_rdma_post_readv : NULL;
		system_ops.rdma_post_writev =
			lib_rdmacm.handle ? system_rdma_post_writev : NULL;
		system_ops.rdma_post_ud_send =
			lib_rdmacm.handle ? system_rdma_post_ud_send : NULL;
		system_ops.rdma_get_send_comp =
			lib_rdmacm.handle ? system_rdma_get_send_comp : NULL;
		system_ops.rdma_get_recv_comp =
			lib_rdmacm.handle ? system_rdma_get_recv_comp : NULL;
#undef RC_SYS_UMAD
#undef RC_SYS_VERBS
#undef RC_SYS_RDMACM
		system_resolved = true;
	}
	return &system_ops;
}

static struct rc_lib *lib_by_name(const char *name)
{
	if (!strcmp(name, "umad") || !strcmp(name, lib_umad.soname))
		return &lib_umad;
	if (!strcmp(name, "verbs") || !strcmp(name, lib_verbs.soname))
		return &lib_verbs;
	if (!strcmp(name, "rdmacm") || !strcmp(name, lib_rdmacm.soname))
		return &lib_rdmacm;
	return NULL;
}

const char *rc_impl_open_error(const char *name)
{
	struct rc_lib *lib = lib_by_name(name);

	if (!lib)
		return "unknown library";
	lib_open(lib);
	return lib->error[0] ? lib->error : NULL;
}

/* The file the dynamic linker picked for @name, or NULL. */
const char *rc_impl_system_origin(const char *name)
{
	static char path[4096];
	struct rc_lib *lib = lib_by_name(name);
	struct link_map *map;

	if (!lib)
		return NULL;
	lib_open(lib);
	if (!lib->handle || dlinfo(lib->handle, RTLD_DI_LINKMAP, &map))
		return NULL;
	if (!realpath(map->l_name, path))
		snprintf(path, sizeof(path), "%s", map->l_name);
	return path;
}

/* The rdma-core release of the library at @origin: rdma-core installs
 * libibumad.so.3.<minor>.<package version>. */
const char *rc_impl_rdma_core_version(const char *origin)
{
	static char v[64];
	const char *p;

	if (!origin || !(p = strstr(origin, ".so.")))
		return NULL;
	p += 4;
	if (!(p = strchr(p, '.')) || !(p = strchr(p + 1, '.')))
		return NULL;
	snprintf(v, sizeof(v), "%s", p + 1);
	return v;
}
