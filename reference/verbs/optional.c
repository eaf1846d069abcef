// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The verbs a device may not have: ibv_alloc_td(3), ibv_alloc_parent_domain(3),
 * ibv_alloc_dm(3), ibv_create_counters(3), ibv_attach_counters_point_flow(3),
 * ibv_read_counters(3), ibv_create_flow(3), ibv_create_wq(3),
 * ibv_modify_wq(3), ibv_create_rwq_ind_table(3), ibv_open_xrcd(3),
 * ibv_open_qp(3), ibv_query_ece(3), ibv_set_ece(3), ibv_modify_cq(3),
 * ibv_alloc_null_mr(3), ibv_advise_mr(3), ibv_reg_dmabuf_mr (ibv_reg_mr(3)),
 * ibv_query_qp_data_in_order(3), ibv_modify_qp_rate_limit(3),
 * ibv_post_srq_ops(3).
 *
 * Where the kernel has a command, the reference sends it, and the answer
 * is the kernel's: a device whose driver lacks the verb has the write
 * command disabled (EOPNOTSUPP, uverbs_uapi.c's ib_uverbs_notsupp) or the
 * ioctl method left out of its tree (uverbs_ioctl.c); the latter's
 * "no such method" (EPROTONOSUPPORT) is given as EOPNOTSUPP, the errno
 * the pages that name one for a device without the verb name
 * (ibv_create_counters(3), ibv_advise_mr(3)).  ibv_create_flow(3) names
 * its own: "ENXIO Device managed flow steering isn't currently supported".
 *
 * Thread and parent domains, ECE, null MRs, counters points, the data
 * order and SRQ operations have no command of the kernel's: they are the
 * provider's, kept in its library or in its own driver data.  The
 * reference's providers (rxe, siw: <rdma/rdma_user_rxe.h>,
 * <rdma/siw-abi.h>) have no field for any of them, so these verbs are
 * EOPNOTSUPP there, decided here and said at each.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_ioctl_verbs.h>

#include "ref_verbs.h"
#include "objects.h"

/* An ioctl's -errno as the verb's errno value */
static int ioctl_err(int ret)
{
	return ret == -EPROTONOSUPPORT ? EOPNOTSUPP : -ret;
}

static int ctx_ioctl(struct ibv_context *c, uint16_t object, uint16_t method,
		     struct ib_uverbs_attr *a, unsigned int n)
{
	return ioctl_err(ref_ioctl(c->cmd_fd, ref_ctx(c)->driver_id, object,
				   method, a, n));
}

/* ---- thread and parent domains: the provider's alone ---- */

struct ibv_td *ref_ibv_alloc_td(struct ibv_context *context,
				struct ibv_td_init_attr *init_attr)
{
	if (!context || !init_attr)
		return ref_fail_null(EINVAL);
	if (init_attr->comp_mask)
		return ref_fail_null(EINVAL);
	return ref_fail_null(EOPNOTSUPP);
}

/* the reference makes no TD, so @td is none of its own */
int ref_ibv_dealloc_td(struct ibv_td *td)
{
	return ref_fail(td ? EOPNOTSUPP : EINVAL);
}

/* the PD "can't be NULL"; the rest is the provider's, which has none */
struct ibv_pd *
ref_ibv_alloc_parent_domain(struct ibv_context *context,
			    struct ibv_parent_domain_init_attr *attr)
{
	if (!context || !attr || !attr->pd)
		return ref_fail_null(EINVAL);
	if (attr->comp_mask &
	    ~(uint32_t)(IBV_PARENT_DOMAIN_INIT_ATTR_ALLOCATORS |
			IBV_PARENT_DOMAIN_INIT_ATTR_PD_CONTEXT))
		return ref_fail_null(EINVAL);
	return ref_fail_null(EOPNOTSUPP);
}

/* ---- device memory: UVERBS_OBJECT_DM ---- */

/* The generic ABI maps no device memory into the process (a driver that
 * has DM maps it through mmap offsets of its own): no copy. */
static int dm_copy_to(struct ibv_dm *dm, uint64_t off, const void *host,
		      size_t len)
{
	return ref_fail(EOPNOTSUPP);
}

static int dm_copy_from(void *host, struct ibv_dm *dm, uint64_t off, size_t len)
{
	return ref_fail(EOPNOTSUPP);
}

struct ibv_dm *ref_ibv_alloc_dm(struct ibv_context *context,
				struct ibv_alloc_dm_attr *attr)
{
	struct ib_uverbs_attr a[] = {
		REF_ATTR_IDR(UVERBS_ATTR_ALLOC_DM_HANDLE, 0),
		REF_ATTR_CONST(UVERBS_ATTR_ALLOC_DM_LENGTH, 0),
		REF_ATTR_CONST(UVERBS_ATTR_ALLOC_DM_ALIGNMENT, 0),
	};
	struct ibv_dm *dm;
	int err;

	if (!context || !attr || attr->comp_mask)
		return ref_fail_null(EINVAL);
	a[1].data = attr->length;
	a[2].data = attr->log_align_req;
	err = ctx_ioctl(context, UVERBS_OBJECT_DM, UVERBS_METHOD_DM_ALLOC, a,
			(sizeof(a) / sizeof(a[0])));
	if (err)
		return ref_fail_null(err);
	dm = calloc(1, sizeof(*dm));
	if (!dm)
		return ref_fail_null(ENOMEM);
	dm->context = context;
	dm->handle = a[0].data;
	dm->memcpy_to_dm = dm_copy_to;
	dm->memcpy_from_dm = dm_copy_from;
	return dm;
}

int ref_ibv_free_dm(struct ibv_dm *dm)
{
	struct ib_uverbs_attr a[] = {
		REF_ATTR_IDR(UVERBS_ATTR_FREE_DM_HANDLE, 0),
	};
	int err;

	if (!dm)
		return ref_fail(EINVAL);
	a[0].data = dm->handle;
	err = ctx_ioctl(dm->context, UVERBS_OBJECT_DM, UVERBS_METHOD_DM_FREE, a,
			1);
	if (err)
		return ref_fail(err);
	free(dm);
	return 0;
}

int ref_ibv_memcpy_to_dm(struct ibv_dm *dm, uint64_t dm_offset,
			 const void *host_addr, size_t length)
{
	return dm->memcpy_to_dm(dm, dm_offset, host_addr, length);
}

int ref_ibv_memcpy_from_dm(void *host_addr, struct ibv_dm *dm,
			   uint64_t dm_offset, size_t length)
{
	return dm->memcpy_from_dm(host_addr, dm, dm_offset, length);
}

/* ---- counters: UVERBS_OBJECT_COUNTERS ---- */

struct ref_counters {
	struct ibv_counters c; /* first */
	uint32_t handle;
};

struct ibv_counters *
ref_ibv_create_counters(struct ibv_context *context,
			struct ibv_counters_init_attr *init_attr)
{
	struct ib_uverbs_attr a[] = {
		REF_ATTR_IDR(UVERBS_ATTR_CREATE_COUNTERS_HANDLE, 0),
	};
	struct ref_counters *c;
	int err;

	if (!context || !init_attr || init_attr->comp_mask)
		return ref_fail_null(EINVAL);
	err = ctx_ioctl(context, UVERBS_OBJECT_COUNTERS,
			UVERBS_METHOD_COUNTERS_CREATE, a, 1);
	if (err)
		return ref_fail_null(err);
	c = calloc(1, sizeof(*c));
	if (!c)
		return ref_fail_null(ENOMEM);
	c->c.context = context;
	c->handle = a[0].data;
	return &c->c;
}

int ref_ibv_destroy_counters(struct ibv_counters *counters)
{
	struct ref_counters *c = (struct ref_counters *)counters;
	struct ib_uverbs_attr a[] = {
		REF_ATTR_IDR(UVERBS_ATTR_DESTROY_COUNTERS_HANDLE, 0),
	};
	int err;

	if (!counters)
		return ref_fail(EINVAL);
	a[0].data = c->handle;
	err = ctx_ioctl(counters->context, UVERBS_OBJECT_COUNTERS,
			UVERBS_METHOD_COUNTERS_DESTROY, a, 1);
	if (err)
		return ref_fail(err);
	free(c);
	return 0;
}

/* A counters point is the provider's description, handed to the kernel
 * in its driver data when a flow is made (mlx5's); rxe and siw make no
 * flows and have none. */
int ref_ibv_attach_counters_point_flow(struct ibv_counters *counters,
				       struct ibv_counter_attach_attr *attr,
				       struct ibv_flow *flow)
{
	if (!counters || !attr || attr->comp_mask)
		return ref_fail(EINVAL);
	if (attr->counter_desc != IBV_COUNTER_PACKETS &&
	    attr->counter_desc != IBV_COUNTER_BYTES)
		return ref_fail(ENOTSUP);
	return ref_fail(EOPNOTSUPP);
}

int ref_ibv_read_counters(struct ibv_counters *counters,
			  uint64_t *counters_value, uint32_t ncounters,
			  uint32_t flags)
{
	struct ref_counters *c = (struct ref_counters *)counters;
	struct ib_uverbs_attr a[] = {
		REF_ATTR_IDR(UVERBS_ATTR_READ_COUNTERS_HANDLE, 0),
		REF_ATTR(UVERBS_ATTR_READ_COUNTERS_BUFF, 0, 0),
		REF_ATTR_CONST(UVERBS_ATTR_READ_COUNTERS_FLAGS, 0),
	};

	if (!counters || (ncounters && !counters_value))
		return ref_fail(EINVAL);
	a[0].data = c->handle;
	a[1].len = ncounters * sizeof(*counters_value);
	a[1].data = (uintptr_t)counters_value;
	a[2].data = flags;
	return ref_fail(ctx_ioctl(counters->context, UVERBS_OBJECT_COUNTERS,
				  UVERBS_METHOD_COUNTERS_READ, a, 3));
}

/* ---- flows: the extended write commands ---- */

struct ref_flow {
	struct ibv_flow f; /* first */
};

/*
 * The rule's header goes to the kernel; its specs are not translated
 * (struct ibv_flow_spec is not the kernel's ib_uverbs_flow_spec), so a
 * rule with specs is refused here with EINVAL, the reference's limit.
 * A device without the verb is the page's ENXIO.
 */
struct ibv_flow *ref_ibv_create_flow(struct ibv_qp *qp,
				     struct ibv_flow_attr *flow)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_ex_cmd_hdr ex;
		struct ib_uverbs_create_flow body;
	} cmd = {};
	struct ib_uverbs_create_flow_resp resp = {};
	struct ref_flow *f;
	int err;

	if (!qp || !flow || flow->comp_mask)
		return ref_fail_null(EINVAL);
	if (flow->num_of_specs)
		return ref_fail_null(EINVAL);
	cmd.body.qp_handle = qp->handle;
	cmd.body.flow_attr.type = flow->type;
	cmd.body.flow_attr.size = sizeof(cmd.body.flow_attr);
	cmd.body.flow_attr.priority = flow->priority;
	cmd.body.flow_attr.num_of_specs = 0;
	cmd.body.flow_attr.port = flow->port;
	cmd.body.flow_attr.flags = flow->flags;
	err = ref_write_ex(qp->context->cmd_fd,
			   IB_USER_VERBS_EX_CMD_CREATE_FLOW, &cmd,
			   sizeof(cmd.body), 0, &resp, sizeof(resp), 0);
	if (err == EOPNOTSUPP)
		err = ENXIO;
	if (err)
		return ref_fail_null(err);
	f = calloc(1, sizeof(*f));
	if (!f)
		return ref_fail_null(ENOMEM);
	f->f.context = qp->context;
	f->f.handle = resp.flow_handle;
	return &f->f;
}

int ref_ibv_destroy_flow(struct ibv_flow *flow_id)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_ex_cmd_hdr ex;
		struct ib_uverbs_destroy_flow body;
	} cmd = {};
	int err;

	if (!flow_id)
		return ref_fail(EINVAL);
	cmd.body.flow_handle = flow_id->handle;
	err = ref_write_ex(flow_id->context->cmd_fd,
			   IB_USER_VERBS_EX_CMD_DESTROY_FLOW, &cmd,
			   sizeof(cmd.body), 0, NULL, 0, 0);
	if (err)
		return ref_fail(err);
	free(flow_id);
	return 0;
}

/* ---- WQs and their indirection tables ---- */

struct ibv_wq *ref_ibv_create_wq(struct ibv_context *context,
				 struct ibv_wq_init_attr *attr)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_ex_cmd_hdr ex;
		struct ib_uverbs_ex_create_wq body;
	} cmd = {};
	struct ib_uverbs_ex_create_wq_resp resp = {};
	struct ibv_wq *wq;
	int err;

	if (!context || !attr || !attr->pd || !attr->cq)
		return ref_fail_null(EINVAL);
	if (attr->comp_mask & ~(uint32_t)IBV_WQ_INIT_ATTR_FLAGS)
		return ref_fail_null(EINVAL);
	cmd.body.wq_type = attr->wq_type;
	cmd.body.user_handle = (uintptr_t)attr->wq_context;
	cmd.body.pd_handle = attr->pd->handle;
	cmd.body.cq_handle = attr->cq->handle;
	cmd.body.max_wr = attr->max_wr;
	cmd.body.max_sge = attr->max_sge;
	if (attr->comp_mask & IBV_WQ_INIT_ATTR_FLAGS)
		cmd.body.create_flags = attr->create_flags;
	err = ref_write_ex(context->cmd_fd, IB_USER_VERBS_EX_CMD_CREATE_WQ,
			   &cmd, sizeof(cmd.body), 0, &resp, sizeof(resp), 0);
	if (err)
		return ref_fail_null(err);
	wq = calloc(1, sizeof(*wq));
	if (!wq)
		return ref_fail_null(ENOMEM);
	wq->context = context;
	wq->wq_context = attr->wq_context;
	wq->pd = attr->pd;
	wq->cq = attr->cq;
	wq->wq_type = attr->wq_type;
	wq->handle = resp.wq_handle;
	wq->wq_num = resp.wqn;
	wq->state = IBV_WQS_RESET;
	return wq;
}

int ref_ibv_modify_wq(struct ibv_wq *wq, struct ibv_wq_attr *attr)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_ex_cmd_hdr ex;
		struct ib_uverbs_ex_modify_wq body;
	} cmd = {};
	int err;

	if (!wq || !attr)
		return ref_fail(EINVAL);
	cmd.body.attr_mask = attr->attr_mask;
	cmd.body.wq_handle = wq->handle;
	cmd.body.wq_state = attr->wq_state;
	cmd.body.curr_wq_state = attr->curr_wq_state;
	cmd.body.flags = attr->flags;
	cmd.body.flags_mask = attr->flags_mask;
	err = ref_write_ex(wq->context->cmd_fd, IB_USER_VERBS_EX_CMD_MODIFY_WQ,
			   &cmd, sizeof(cmd.body), 0, NULL, 0, 0);
	if (err)
		return ref_fail(err);
	if (attr->attr_mask & IBV_WQ_ATTR_STATE)
		wq->state = attr->wq_state;
	return 0;
}

int ref_ibv_destroy_wq(struct ibv_wq *wq)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_ex_cmd_hdr ex;
		struct ib_uverbs_ex_destroy_wq body;
	} cmd = {};
	struct ib_uverbs_ex_destroy_wq_resp resp = {};
	int err;

	if (!wq)
		return ref_fail(EINVAL);
	cmd.body.wq_handle = wq->handle;
	err = ref_write_ex(wq->context->cmd_fd, IB_USER_VERBS_EX_CMD_DESTROY_WQ,
			   &cmd, sizeof(cmd.body), 0, &resp, sizeof(resp), 0);
	if (err)
		return ref_fail(err);
	free(wq);
	return 0;
}

#define RWQ_MAX_LOG 8

struct ibv_rwq_ind_table *
ref_ibv_create_rwq_ind_table(struct ibv_context *context,
			     struct ibv_rwq_ind_table_init_attr *attr)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_ex_cmd_hdr ex;
		struct ib_uverbs_ex_create_rwq_ind_table body;
		uint32_t wqs[(1 << RWQ_MAX_LOG) + 1];
	} cmd = {};
	struct ib_uverbs_ex_create_rwq_ind_table_resp resp = {};
	struct ibv_rwq_ind_table *t;
	size_t n, i, len;
	int err;

	if (!context || !attr || !attr->ind_tbl || attr->comp_mask ||
	    attr->log_ind_tbl_size > RWQ_MAX_LOG)
		return ref_fail_null(EINVAL);
	n = 1u << attr->log_ind_tbl_size;
	for (i = 0; i < n; i++) {
		if (!attr->ind_tbl[i])
			return ref_fail_null(EINVAL);
		cmd.wqs[i] = attr->ind_tbl[i]->handle;
	}
	cmd.body.log_ind_tbl_size = attr->log_ind_tbl_size;
	/* the handles padded to 8 bytes (the header's u32 array) */
	len = sizeof(cmd.body) + (n * sizeof(uint32_t) + 7) / 8 * 8;
	err = ref_write_ex(context->cmd_fd,
			   IB_USER_VERBS_EX_CMD_CREATE_RWQ_IND_TBL, &cmd, len,
			   0, &resp, sizeof(resp), 0);
	if (err)
		return ref_fail_null(err);
	t = calloc(1, sizeof(*t));
	if (!t)
		return ref_fail_null(ENOMEM);
	t->context = context;
	t->ind_tbl_handle = resp.ind_tbl_handle;
	t->ind_tbl_num = resp.ind_tbl_num;
	return t;
}

int ref_ibv_destroy_rwq_ind_table(struct ibv_rwq_ind_table *t)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_ex_cmd_hdr ex;
		struct ib_uverbs_ex_destroy_rwq_ind_table body;
	} cmd = {};
	int err;

	if (!t)
		return ref_fail(EINVAL);
	cmd.body.ind_tbl_handle = t->ind_tbl_handle;
	err = ref_write_ex(t->context->cmd_fd,
			   IB_USER_VERBS_EX_CMD_DESTROY_RWQ_IND_TBL, &cmd,
			   sizeof(cmd.body), 0, NULL, 0, 0);
	if (err)
		return ref_fail(err);
	free(t);
	return 0;
}

/* ---- XRC domains and shared QPs ---- */

struct ref_xrcd {
	struct ibv_xrcd xrcd; /* first */
	uint32_t handle;
};

struct ibv_xrcd *ref_ibv_open_xrcd(struct ibv_context *context,
				   struct ibv_xrcd_init_attr *attr)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_open_xrcd body;
	} cmd = {};
	struct ib_uverbs_open_xrcd_resp resp = {};
	struct ref_xrcd *x;
	int err;

	if (!context || !attr || !(attr->comp_mask & IBV_XRCD_INIT_ATTR_FD) ||
	    !(attr->comp_mask & IBV_XRCD_INIT_ATTR_OFLAGS) ||
	    (attr->comp_mask &
	     ~(uint32_t)(IBV_XRCD_INIT_ATTR_FD | IBV_XRCD_INIT_ATTR_OFLAGS)))
		return ref_fail_null(EINVAL);
	cmd.body.response = (uintptr_t)&resp;
	cmd.body.fd = attr->fd;
	cmd.body.oflags = attr->oflags;
	err = ref_write(context->cmd_fd, IB_USER_VERBS_CMD_OPEN_XRCD, &cmd,
			sizeof(cmd), sizeof(resp));
	if (err)
		return ref_fail_null(err);
	x = calloc(1, sizeof(*x));
	if (!x)
		return ref_fail_null(ENOMEM);
	x->xrcd.context = context;
	x->handle = resp.xrcd_handle;
	return &x->xrcd;
}

int ref_ibv_close_xrcd(struct ibv_xrcd *xrcd)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_close_xrcd body;
	} cmd = {};
	struct ref_xrcd *x = (struct ref_xrcd *)xrcd;
	int err;

	if (!xrcd)
		return ref_fail(EINVAL);
	cmd.body.xrcd_handle = x->handle;
	err = ref_write(xrcd->context->cmd_fd, IB_USER_VERBS_CMD_CLOSE_XRCD,
			&cmd, sizeof(cmd), 0);
	if (err)
		return ref_fail(err);
	free(x);
	return 0;
}

struct ibv_qp *ref_ibv_open_qp(struct ibv_context *context,
			       struct ibv_qp_open_attr *attr)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_open_qp body;
	} cmd = {};
	struct ib_uverbs_create_qp_resp resp = {};
	struct ref_xrcd *x;
	struct ibv_qp *qp;
	int err;

	if (!context || !attr || !attr->xrcd ||
	    (~attr->comp_mask & (IBV_QP_OPEN_ATTR_NUM | IBV_QP_OPEN_ATTR_XRCD |
				 IBV_QP_OPEN_ATTR_TYPE)))
		return ref_fail_null(EINVAL);
	x = (struct ref_xrcd *)attr->xrcd;
	cmd.body.response = (uintptr_t)&resp;
	cmd.body.user_handle = (uintptr_t)attr->qp_context;
	cmd.body.pd_handle = x->handle;
	cmd.body.qpn = attr->qp_num;
	cmd.body.qp_type = attr->qp_type;
	err = ref_write(context->cmd_fd, IB_USER_VERBS_CMD_OPEN_QP, &cmd,
			sizeof(cmd), sizeof(resp));
	if (err)
		return ref_fail_null(err);
	qp = calloc(1, sizeof(*qp));
	if (!qp)
		return ref_fail_null(ENOMEM);
	qp->context = context;
	qp->qp_context = attr->qp_context;
	qp->handle = resp.qp_handle;
	qp->qp_num = attr->qp_num;
	qp->qp_type = attr->qp_type;
	return qp;
}

/* ---- ECE: the provider's driver data, which rxe's and siw's lack ---- */

int ref_ibv_query_ece(struct ibv_qp *qp, struct ibv_ece *ece)
{
	if (!qp || !ece)
		return ref_fail(EINVAL);
	return ref_fail(EOPNOTSUPP);
}

int ref_ibv_set_ece(struct ibv_qp *qp, struct ibv_ece *ece)
{
	if (!qp || !ece)
		return ref_fail(EINVAL);
	return ref_fail(EOPNOTSUPP);
}

/* ---- CQ moderation ---- */

int ref_ibv_modify_cq(struct ibv_cq *cq, struct ibv_modify_cq_attr *attr)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_ex_cmd_hdr ex;
		struct ib_uverbs_ex_modify_cq body;
	} cmd = {};

	if (!cq || !attr || (attr->attr_mask & ~(uint32_t)IBV_CQ_ATTR_MODERATE))
		return ref_fail(EINVAL);
	cmd.body.cq_handle = cq->handle;
	cmd.body.attr_mask = attr->attr_mask;
	cmd.body.attr.cq_count = attr->moderate.cq_count;
	cmd.body.attr.cq_period = attr->moderate.cq_period;
	return ref_fail(ref_write_ex(cq->context->cmd_fd,
				     IB_USER_VERBS_EX_CMD_MODIFY_CQ, &cmd,
				     sizeof(cmd.body), 0, NULL, 0, 0));
}

/* ---- MRs ---- */

/* A null MR is a driver's own key (mlx5's, through its DEVX); the
 * kernel's common ABI has no command for one. */
struct ibv_mr *ref_ibv_alloc_null_mr(struct ibv_pd *pd)
{
	if (!pd)
		return ref_fail_null(EINVAL);
	return ref_fail_null(EOPNOTSUPP);
}

#define ADVISE_SGE_MAX 16

int ref_ibv_advise_mr(struct ibv_pd *pd, enum ibv_advise_mr_advice advice,
		      uint32_t flags, struct ibv_sge *sg_list, uint32_t num_sge)
{
	struct ib_uverbs_sge sge[ADVISE_SGE_MAX];
	struct ib_uverbs_attr a[] = {
		REF_ATTR_IDR(UVERBS_ATTR_ADVISE_MR_PD_HANDLE, 0),
		REF_ATTR_CONST(UVERBS_ATTR_ADVISE_MR_ADVICE, 0),
		REF_ATTR_CONST(UVERBS_ATTR_ADVISE_MR_FLAGS, 0),
		REF_ATTR(UVERBS_ATTR_ADVISE_MR_SGE_LIST, 0, 0),
	};
	uint32_t i;

	if (!pd || !sg_list || !num_sge || num_sge > ADVISE_SGE_MAX)
		return ref_fail(EINVAL);
	for (i = 0; i < num_sge; i++) {
		sge[i].addr = sg_list[i].addr;
		sge[i].length = sg_list[i].length;
		sge[i].lkey = sg_list[i].lkey;
	}
	a[0].data = pd->handle;
	a[1].data = advice;
	a[2].data = flags;
	a[3].len = num_sge * sizeof(sge[0]);
	a[3].data = (uintptr_t)sge;
	return ref_fail(ctx_ioctl(pd->context, UVERBS_OBJECT_MR,
				  UVERBS_METHOD_ADVISE_MR, a,
				  (sizeof(a) / sizeof(a[0]))));
}

struct ibv_mr *ref_ibv_reg_dmabuf_mr(struct ibv_pd *pd, uint64_t offset,
				     size_t length, uint64_t iova, int fd,
				     int access)
{
	uint32_t lkey = 0, rkey = 0;
	struct ib_uverbs_attr a[] = {
		REF_ATTR_IDR(UVERBS_ATTR_REG_DMABUF_MR_HANDLE, 0),
		REF_ATTR_IDR(UVERBS_ATTR_REG_DMABUF_MR_PD_HANDLE, 0),
		REF_ATTR_CONST(UVERBS_ATTR_REG_DMABUF_MR_OFFSET, offset),
		REF_ATTR_CONST(UVERBS_ATTR_REG_DMABUF_MR_LENGTH, length),
		REF_ATTR_CONST(UVERBS_ATTR_REG_DMABUF_MR_IOVA, iova),
		/* a raw fd: the value inline, no length (uverbs_ioctl.c) */
		REF_ATTR(UVERBS_ATTR_REG_DMABUF_MR_FD, 0, 0),
		REF_ATTR_CONST(UVERBS_ATTR_REG_DMABUF_MR_ACCESS_FLAGS, 0),
		REF_ATTR(UVERBS_ATTR_REG_DMABUF_MR_RESP_LKEY, sizeof(lkey),
			 &lkey),
		REF_ATTR(UVERBS_ATTR_REG_DMABUF_MR_RESP_RKEY, sizeof(rkey),
			 &rkey),
	};
	struct ref_mr *mr;
	int err;

	if (!pd)
		return ref_fail_null(EINVAL);
	a[1].data = pd->handle;
	a[5].data = (uint64_t)(int64_t)fd;
	a[6].data = (uint32_t)access;
	err = ctx_ioctl(pd->context, UVERBS_OBJECT_MR,
			UVERBS_METHOD_REG_DMABUF_MR, a,
			(sizeof(a) / sizeof(a[0])));
	if (err)
		return ref_fail_null(err);
	mr = calloc(1, sizeof(*mr));
	if (!mr)
		return ref_fail_null(ENOMEM);
	mr->mr.context = pd->context;
	mr->mr.pd = pd;
	mr->mr.addr = (void *)(uintptr_t)iova;
	mr->mr.length = length;
	mr->mr.handle = a[0].data;
	mr->mr.lkey = lkey;
	mr->mr.rkey = rkey;
	return &mr->mr;
}

/* ---- QPs ---- */

/* The kernel's ABI says nothing of the order a device writes a message's
 * data in, so nothing is guaranteed: 0, as the page allows. */
int ref_ibv_query_qp_data_in_order(struct ibv_qp *qp, enum ibv_wr_opcode op,
				   uint32_t flags)
{
	return 0;
}

/* Packet pacing is a provider's: its caps come in the driver data of
 * QUERY_DEVICE (mlx5's), not in the kernel's common answer, and rxe's and
 * siw's ABI has none: "Function is not implemented for this device". */
int ref_ibv_modify_qp_rate_limit(struct ibv_qp *qp,
				 struct ibv_qp_rate_limit_attr *attr)
{
	if (!qp || !attr || attr->comp_mask)
		return ref_fail(EINVAL);
	return ref_fail(EOPNOTSUPP);
}

/* ---- SRQ operations: tag matching, which rxe and siw have not ---- */

int ref_ibv_post_srq_ops(struct ibv_srq *srq, struct ibv_ops_wr *op,
			 struct ibv_ops_wr **bad_op)
{
	if (bad_op)
		*bad_op = op;
	if (!srq || !op)
		return ref_fail(EINVAL);
	return ref_fail(EOPNOTSUPP);
}
