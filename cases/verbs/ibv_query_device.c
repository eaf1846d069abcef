// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_query_device(3): "returns the attributes of the device with context
 * context."  ibv_query_device_ex(3): "returns the attributes of the
 * device with context context", struct ibv_device_attr_ex beginning with
 * orig_attr; "The argument input is a pointer to an
 * ibv_query_device_ex_input structure, used for future extensions".  Both
 * "return 0 on success, or the value of errno on failure".
 *
 * ibv_query_device:
 * - node_guid and sys_image_guid as sysfs has them, in network byte order
 *   (the struct's comments), fw_ver as sysfs's where sysfs has one (rxe's
 *   is empty; the providers format the kernel's number), phys_port_cnt the ports
 *   sysfs has; the whole struct compared across the implementations: one
 *   device, one set of attributes (documented)
 * - a second call answers the same bytes (state across calls)
 * - the limits a device with an active port has are at least 1
 *   (interpretation)
 * - the limits hold where the resources are made: an SRQ of max_srq_sge
 *   SGEs is made, one of max_srq_sge + 1 SGEs or max_srq_wr + 1 WRs is
 *   not; SRQs, MWs, AHs, multicast groups and attachments and P_Keys
 *   that can be had have a maximum of at least 1 (MWs with
 *   IBV_DEVICE_MEM_WINDOW), those that cannot be had one of 0; a page
 *   of this machine registers, so max_mr_size holds one and
 *   page_size_cap has a size no larger (interpretation)
 * - an RC QP goes to RTS with max_rd_atomic max_qp_init_rd_atom and not
 *   one more (interpretation)
 * - a context whose command file takes no command: an errno value
 *   (interpretation: the device cannot be asked)
 * ibv_query_device_ex:
 * - orig_attr is what ibv_query_device answers; the whole struct
 *   compared across the implementations (documented)
 * - phys_port_cnt_ex is the ports sysfs has (documented: the struct's
 *   comment)
 * - device_cap_flags_ex extends orig_attr.device_cap_flags (Linux's ABI:
 *   the kernel answers both from one 64-bit set of flags)
 * - input NULL: there is no extension to ask for (interpretation)
 * - an input comp_mask bit no extension has: an errno value
 *   (interpretation)
 * - the command file gone: an errno value (interpretation)
 */
#include <endian.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "verbs_ctl.h"
#include "verbs_qp.h"
#include "../../harness/device.h"

#define DOC_DEV                                                    \
	"ibv_query_device() returns the attributes of the device " \
	"with context context."
#define DOC_DEV_RET                                              \
	"ibv_query_device() returns 0 on success, or the value " \
	"of errno on failure (which indicates the failure reason)."
#define DOC_EX                                                        \
	"ibv_query_device_ex() returns the attributes of the device " \
	"with context context."
#define DOC_EX_INPUT                             \
	"The argument input is a pointer to an " \
	"ibv_query_device_ex_input structure, used for future extensions"
#define DOC_EX_RET                                            \
	"ibv_query_device_ex() returns 0 on success, or the " \
	"value of errno on failure (which indicates the failure reason)."
#define DOC_PORTS_EX                                                \
	"uint32_t phys_port_cnt_ex /* Extended number of physical " \
	"port count, allows exposing more than 255 ports device */"
#define DOC_MAX                                                 \
	"The maximum values returned by this function are the " \
	"upper limits of supported resources by the device."

static vc_check dev_as_sysfs, dev_twice, dev_limits, dev_limits_hold,
	dev_rd_atom, dev_severed, ex_orig_attr, ex_port_count, ex_cap_flags,
	ex_null_input, ex_unknown_mask, ex_severed;

static const struct rc_field dev_fields[] = {
	{ "fw_ver", offsetof(struct ibv_device_attr, fw_ver), 64 },
	{ "node_guid", offsetof(struct ibv_device_attr, node_guid), 8 },
	{ "sys_image_guid", offsetof(struct ibv_device_attr, sys_image_guid),
	  8 },
	{ "max_mr_size", offsetof(struct ibv_device_attr, max_mr_size), 8 },
	{ "page_size_cap", offsetof(struct ibv_device_attr, page_size_cap), 8 },
	{ "vendor_id", offsetof(struct ibv_device_attr, vendor_id), 4 },
	{ "vendor_part_id", offsetof(struct ibv_device_attr, vendor_part_id),
	  4 },
	{ "hw_ver", offsetof(struct ibv_device_attr, hw_ver), 4 },
	{ "max_qp", offsetof(struct ibv_device_attr, max_qp), 4 },
	{ "max_qp_wr", offsetof(struct ibv_device_attr, max_qp_wr), 4 },
	{ "device_cap_flags",
	  offsetof(struct ibv_device_attr, device_cap_flags), 4 },
	{ "max_sge", offsetof(struct ibv_device_attr, max_sge), 4 },
	{ "max_cq", offsetof(struct ibv_device_attr, max_cq), 4 },
	{ "max_cqe", offsetof(struct ibv_device_attr, max_cqe), 4 },
	{ "max_mr", offsetof(struct ibv_device_attr, max_mr), 4 },
	{ "max_pd", offsetof(struct ibv_device_attr, max_pd), 4 },
	{ "max_srq_wr", offsetof(struct ibv_device_attr, max_srq_wr), 4 },
	{ "max_pkeys", offsetof(struct ibv_device_attr, max_pkeys), 2 },
	{ "phys_port_cnt", offsetof(struct ibv_device_attr, phys_port_cnt), 1 },
};

static const struct rc_layout dev_layout = {
	"ibv_device_attr",
	dev_fields,
	ARRAY_SIZE(dev_fields),
};

static const struct rc_field ex_fields[] = {
	{ "orig_attr", 0, sizeof(struct ibv_device_attr) },
	{ "comp_mask", offsetof(struct ibv_device_attr_ex, comp_mask), 4 },
	{ "odp_caps", offsetof(struct ibv_device_attr_ex, odp_caps),
	  sizeof(struct ibv_odp_caps) },
	{ "completion_timestamp_mask",
	  offsetof(struct ibv_device_attr_ex, completion_timestamp_mask), 8 },
	{ "hca_core_clock", offsetof(struct ibv_device_attr_ex, hca_core_clock),
	  8 },
	{ "device_cap_flags_ex",
	  offsetof(struct ibv_device_attr_ex, device_cap_flags_ex), 8 },
	{ "phys_port_cnt_ex",
	  offsetof(struct ibv_device_attr_ex, phys_port_cnt_ex), 4 },
};

static const struct rc_layout ex_layout = {
	"ibv_device_attr_ex",
	ex_fields,
	ARRAY_SIZE(ex_fields),
};

static const struct vc_row dev_rows[] = {
	{ .c = { .id = "verbs/query_device/attrs-as-sysfs",
		 .doc = DOC_DEV,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "node_guid, sys_image_guid (network order), fw_ver, "
			 "phys_port_cnt as sysfs has them; the whole struct "
			 "the same on both implementations",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0), .layout = &dev_layout } },
	  .check = dev_as_sysfs,
	  .rung = VL_CONTEXT },
	{ .c = { .id = "verbs/query_device/second-call-same",
		 .doc = DOC_DEV,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a second call into a buffer of another fill: the "
			 "same bytes",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = dev_twice,
	  .rung = VL_CONTEXT },
	{ .c = { .id = "verbs/query_device/limits-at-least-one",
		 .doc = DOC_MAX,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "max_qp, max_qp_wr, max_sge, max_cq, max_cqe, max_mr, "
			 "max_pd, phys_port_cnt: a device whose port is active "
			 "supports one of each",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = dev_limits,
	  .rung = VL_CONTEXT },
	{ .c = { .id = "verbs/query_device/limits-hold",
		 .doc = DOC_MAX,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "an SRQ of max_srq_sge SGEs is made, of one SGE or WR "
			 "beyond max_srq_sge or max_srq_wr is not; SRQs, MWs "
			 "(with IBV_DEVICE_MEM_WINDOW), AHs, multicast "
			 "attachments and P_Keys that can be had have a maximum "
			 ">= 1, the others 0; a page "
			 "registers: max_mr_size holds it, page_size_cap has a "
			 "size <= it",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = dev_limits_hold,
	  .rung = VL_CQ },
	{ .c = { .id = "verbs/query_device/rd-atom-limit-holds",
		 .doc = DOC_MAX,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "an RC QP goes to RTS with max_rd_atomic "
			 "max_qp_init_rd_atom, and not with one more",
		 .needs = VC_NEEDS | RC_NEED_CA,
		 .contract = { RC_RETURNS(0) } },
	  .check = dev_rd_atom,
	  .rung = VL_QP },
	{ .c = { .id = "verbs/query_device/command-file-gone",
		 .doc = DOC_DEV_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the context's command file replaced by an O_PATH "
			 "descriptor: the device cannot be asked",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = dev_severed,
	  .rung = VL_CONTEXT },
};

static const struct vc_row ex_rows[] = {
	{ .c = { .id = "verbs/query_device_ex/orig-attr",
		 .doc = DOC_EX,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "orig_attr is ibv_query_device's answer; the whole "
			 "struct the same on both implementations",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0), .layout = &ex_layout } },
	  .check = ex_orig_attr,
	  .rung = VL_CONTEXT },
	{ .c = { .id = "verbs/query_device_ex/port-count-ex",
		 .doc = DOC_PORTS_EX,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "phys_port_cnt_ex counts the ports sysfs has, as "
			 "orig_attr.phys_port_cnt does below 256",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = ex_port_count,
	  .rung = VL_CONTEXT },
	{ .c = { .id = "verbs/query_device_ex/cap-flags-ex-low-bits",
		 .doc = DOC_EX,
		 .basis = RC_BASIS_LINUX,
		 .note = "device_cap_flags_ex's low 32 bits are orig_attr's "
			 "device_cap_flags: Linux answers both from one 64-bit "
			 "ib_device_attr.device_cap_flags",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = ex_cap_flags,
	  .rung = VL_CONTEXT },
	{ .c = { .id = "verbs/query_device_ex/null-input",
		 .doc = DOC_EX_INPUT,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "input NULL: no extension asked for, the attributes "
			 "answered",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = ex_null_input,
	  .rung = VL_CONTEXT },
	{ .c = { .id = "verbs/query_device_ex/unknown-input-comp-mask",
		 .doc = DOC_EX_INPUT,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "input comp_mask 1 << 31: an extension that does not "
			 "exist cannot be answered",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = ex_unknown_mask,
	  .rung = VL_CONTEXT },
	{ .c = { .id = "verbs/query_device_ex/command-file-gone",
		 .doc = DOC_EX_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the context's command file replaced by an O_PATH "
			 "descriptor",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = ex_severed,
	  .rung = VL_CONTEXT },
};

static uint64_t sysfs_guid(struct rc_ctx *ctx, const char *file)
{
	char buf[64];
	uint64_t g;

	if (rc_sysfs_read(buf, sizeof(buf), RC_SYSFS_IB "/%s/%s",
			  ctx->target->ca, file) ||
	    rc_guid_parse(buf, &g))
		return 0;
	return htobe64(g);
}

static int query(struct rc_ctx *ctx, struct vl *l, struct ibv_device_attr *a,
		 int fill)
{
	int ret;

	memset(a, fill, sizeof(*a));
	RC_OBSERVE(ctx, ret = ctx->ops->ibv_query_device(l->ctx, a));
	return ret;
}

static void dev_as_sysfs(const struct vc_row *row, struct rc_ctx *ctx,
			 struct vl *l)
{
	struct ibv_device_attr a;
	char fw[64];
	int ports = vc_sysfs_ports(ctx);

	if (query(ctx, l, &a, 0xa5))
		return;
	if (a.node_guid != sysfs_guid(ctx, "node_guid"))
		rc_obs_violation(ctx->obs,
				 "node_guid %016llx is not sysfs's "
				 "in network order",
				 (unsigned long long)a.node_guid);
	else if (a.sys_image_guid != sysfs_guid(ctx, "sys_image_guid"))
		rc_obs_violation(ctx->obs,
				 "sys_image_guid %016llx is not "
				 "sysfs's in network order",
				 (unsigned long long)a.sys_image_guid);
	else if (!rc_sysfs_read(fw, sizeof(fw), RC_SYSFS_IB "/%s/fw_ver",
				ctx->target->ca) &&
		 fw[0] && strcmp(fw, a.fw_ver))
		rc_obs_violation(ctx->obs, "fw_ver \"%.63s\", sysfs \"%s\"",
				 a.fw_ver, fw);
	else if (a.phys_port_cnt != ports)
		rc_obs_violation(ctx->obs, "phys_port_cnt %u, sysfs has %d",
				 a.phys_port_cnt, ports);
	rc_obs_out(ctx->obs, &a, sizeof(a));
}

static void dev_twice(const struct vc_row *row, struct rc_ctx *ctx,
		      struct vl *l)
{
	struct ibv_device_attr a, b;

	memset(&b, 0x5a, sizeof(b));
	if (ctx->ops->ibv_query_device(l->ctx, &b)) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "a first "
			     "ibv_query_device (set-up) failed");
		return;
	}
	if (query(ctx, l, &a, 0xa5))
		return;
	if (memcmp(&a, &b, sizeof(a)))
		rc_obs_violation(ctx->obs, "attributes: the second call's "
					   "differ from the first's");
}

static void dev_limits(const struct vc_row *row, struct rc_ctx *ctx,
		       struct vl *l)
{
	struct ibv_device_attr a;

	if (query(ctx, l, &a, 0))
		return;
#define AT_LEAST_ONE(f)                                                 \
	do {                                                            \
		if (a.f < 1)                                            \
			rc_obs_violation(ctx->obs, #f " %d", (int)a.f); \
	} while (0)
	AT_LEAST_ONE(max_qp);
	AT_LEAST_ONE(max_qp_wr);
	AT_LEAST_ONE(max_sge);
	AT_LEAST_ONE(max_cq);
	AT_LEAST_ONE(max_cqe);
	AT_LEAST_ONE(max_mr);
	AT_LEAST_ONE(max_pd);
	AT_LEAST_ONE(phys_port_cnt);
#undef AT_LEAST_ONE
}

/* Is an SRQ of @wr WRs and @sge SGEs made on @l's PD? */
static bool srq_made(struct rc_ctx *ctx, struct vl *l, uint32_t wr,
		     uint32_t sge)
{
	struct ibv_srq_init_attr init = { .attr = { .max_wr = wr,
						    .max_sge = sge } };
	struct ibv_srq *srq = ctx->ops->ibv_create_srq(l->pd, &init);

	if (srq)
		ctx->ops->ibv_destroy_srq(srq);
	return srq;
}

static bool mw_made(struct rc_ctx *ctx, struct vl *l)
{
	struct ibv_mw *mw = ctx->ops->ibv_alloc_mw(l->pd, IBV_MW_TYPE_1);

	if (mw)
		ctx->ops->ibv_dealloc_mw(mw);
	return mw;
}

/* an AH to the port's own first GID */
static bool ah_made(struct rc_ctx *ctx, struct vl *l)
{
	struct ibv_ah_attr attr = { .is_global = 1, .port_num = l->port };
	struct ibv_ah *ah;

	if (ctx->ops->ibv_query_gid(l->ctx, l->port, 0, &attr.grh.dgid))
		return false;
	attr.grh.hop_limit = 1;
	ah = ctx->ops->ibv_create_ah(l->pd, &attr);
	if (ah)
		ctx->ops->ibv_destroy_ah(ah);
	return ah;
}

/* a UD QP attached to a multicast group and detached again */
static bool mcast_attached(struct rc_ctx *ctx, struct vl *l)
{
	struct ibv_qp_init_attr init = { .send_cq = l->cq,
					 .recv_cq = l->cq,
					 .qp_type = IBV_QPT_UD,
					 .cap = { .max_send_wr = 1,
						  .max_recv_wr = 1,
						  .max_send_sge = 1,
						  .max_recv_sge = 1 } };
	union ibv_gid group = { .raw = { 0xff, 0x12, [15] = 0x7e } };
	struct ibv_qp *qp = ctx->ops->ibv_create_qp(l->pd, &init);
	bool ok;

	if (!qp)
		return false;
	ok = !ctx->ops->ibv_attach_mcast(qp, &group, 0);
	if (ok)
		ctx->ops->ibv_detach_mcast(qp, &group, 0);
	ctx->ops->ibv_destroy_qp(qp);
	return ok;
}

/* A maximum of what can be had is at least 1, of what cannot be had 0. */
static void max_as_had(struct rc_ctx *ctx, const char *what, long max, bool had)
{
	if (had && max < 1)
		rc_obs_violation(ctx->obs,
				 "%s: one was made, the maximum is %ld", what,
				 max);
	else if (!had && max > 0)
		rc_obs_violation(ctx->obs,
				 "%s: none could be made, the maximum "
				 "is %ld",
				 what, max);
}

static void dev_limits_hold(const struct vc_row *row, struct rc_ctx *ctx,
			    struct vl *l)
{
	long page = sysconf(_SC_PAGESIZE);
	struct ibv_device_attr a;
	struct ibv_mr *mr;
	uint16_t pkey;
	bool had;

	if (query(ctx, l, &a, 0))
		return;
	mr = vc_mr(ctx, l->pd, page, IBV_ACCESS_LOCAL_WRITE);
	if (!mr)
		return;
	vc_mr_free(ctx, mr);
	if (a.max_mr_size < (uint64_t)page)
		rc_obs_violation(ctx->obs,
				 "max_mr_size %llu: a page of %ld "
				 "bytes registered",
				 (unsigned long long)a.max_mr_size, page);
	if (!(a.page_size_cap & ((uint64_t)page | (page - 1))))
		rc_obs_violation(ctx->obs,
				 "page_size_cap %#llx: no size of "
				 "%ld bytes or less, yet a page "
				 "registered",
				 (unsigned long long)a.page_size_cap, page);
	had = srq_made(ctx, l, 1, 1);
	max_as_had(ctx, "an SRQ", a.max_srq, had);
	if (had && !srq_made(ctx, l, 1, a.max_srq_sge))
		rc_obs_violation(ctx->obs, "no SRQ of max_srq_sge (%d) SGEs",
				 a.max_srq_sge);
	if (had && srq_made(ctx, l, 1, a.max_srq_sge + 1))
		rc_obs_violation(ctx->obs,
				 "an SRQ of max_srq_sge + 1 (%d) SGEs",
				 a.max_srq_sge + 1);
	if (had && srq_made(ctx, l, a.max_srq_wr + 1, 1))
		rc_obs_violation(ctx->obs, "an SRQ of max_srq_wr + 1 (%d) WRs",
				 a.max_srq_wr + 1);
	had = mw_made(ctx, l);
	max_as_had(ctx, "a type 1 MW", a.max_mw, had);
	if (had && !(a.device_cap_flags & IBV_DEVICE_MEM_WINDOW))
		rc_obs_violation(ctx->obs,
				 "a type 1 MW was made, "
				 "device_cap_flags %#x has no "
				 "IBV_DEVICE_MEM_WINDOW",
				 a.device_cap_flags);
	max_as_had(ctx, "an AH", a.max_ah, ah_made(ctx, l));
	had = mcast_attached(ctx, l);
	max_as_had(ctx, "a multicast group", a.max_mcast_grp, had);
	max_as_had(ctx, "a QP attached to a group", a.max_mcast_qp_attach, had);
	max_as_had(ctx, "an attachment in all", a.max_total_mcast_qp_attach,
		   had);
	max_as_had(ctx, "a P_Key", a.max_pkeys,
		   !ctx->ops->ibv_query_pkey(l->ctx, l->port, 0, &pkey));
}

/* RTR to RTS with max_rd_atomic @n: taken? */
static bool rts_with(struct rc_ctx *ctx, struct vl *l, int n)
{
	int mask = vq_entry(IBV_QPT_RC, IBV_QPS_RTS) | IBV_QP_STATE;
	struct ibv_qp_attr a;

	vq_fill(ctx, &a, mask, IBV_QPS_RTS);
	a.max_rd_atomic = n;
	return !ctx->ops->ibv_modify_qp(l->qp, &a, mask);
}

static void dev_rd_atom(const struct vc_row *row, struct rc_ctx *ctx,
			struct vl *l)
{
	struct ibv_device_attr a;

	if (query(ctx, l, &a, 0) || !vq_walk(ctx, l, IBV_QPS_RTR))
		return;
	/* max_rd_atomic is a u8: a limit of 255 has no value beyond */
	if (a.max_qp_init_rd_atom < 255 &&
	    rts_with(ctx, l, a.max_qp_init_rd_atom + 1))
		rc_obs_violation(ctx->obs,
				 "RTS with max_rd_atomic "
				 "max_qp_init_rd_atom + 1 (%d)",
				 a.max_qp_init_rd_atom + 1);
	else if (!rts_with(ctx, l, a.max_qp_init_rd_atom))
		rc_obs_violation(ctx->obs,
				 "no RTS with max_rd_atomic "
				 "max_qp_init_rd_atom (%d): %m",
				 a.max_qp_init_rd_atom);
}

static void dev_severed(const struct vc_row *row, struct rc_ctx *ctx,
			struct vl *l)
{
	struct ibv_device_attr a;

	if (vc_sever(ctx, l))
		query(ctx, l, &a, 0);
}

static int query_ex(struct rc_ctx *ctx, struct vl *l,
		    const struct ibv_query_device_ex_input *in,
		    struct ibv_device_attr_ex *x)
{
	int ret;

	memset(x, 0xa5, sizeof(*x));
	RC_OBSERVE(ctx, ret = ctx->ops->ibv_query_device_ex(l->ctx, in, x));
	return ret;
}

static void ex_orig_attr(const struct vc_row *row, struct rc_ctx *ctx,
			 struct vl *l)
{
	struct ibv_query_device_ex_input in = { 0 };
	struct ibv_device_attr_ex x;
	struct ibv_device_attr a;

	BUILD_ASSERT(sizeof(x) <= RC_OUT_MAX);
	if (!vc_attr(ctx, l, &a) || query_ex(ctx, l, &in, &x))
		return;
	if (memcmp(&a, &x.orig_attr, sizeof(a)))
		rc_obs_violation(ctx->obs, "orig_attr: not ibv_query_device's "
					   "answer");
	rc_obs_out(ctx->obs, &x, sizeof(x));
}

static void ex_port_count(const struct vc_row *row, struct rc_ctx *ctx,
			  struct vl *l)
{
	struct ibv_query_device_ex_input in = { 0 };
	struct ibv_device_attr_ex x;
	int ports = vc_sysfs_ports(ctx);

	if (query_ex(ctx, l, &in, &x))
		return;
	if (x.phys_port_cnt_ex != (uint32_t)ports ||
	    x.orig_attr.phys_port_cnt != ports)
		rc_obs_violation(ctx->obs,
				 "phys_port_cnt_ex %u, phys_port_cnt "
				 "%u, sysfs has %d",
				 x.phys_port_cnt_ex, x.orig_attr.phys_port_cnt,
				 ports);
}

static void ex_cap_flags(const struct vc_row *row, struct rc_ctx *ctx,
			 struct vl *l)
{
	struct ibv_query_device_ex_input in = { 0 };
	struct ibv_device_attr_ex x;

	if (query_ex(ctx, l, &in, &x))
		return;
	if ((uint32_t)x.device_cap_flags_ex != x.orig_attr.device_cap_flags)
		rc_obs_violation(ctx->obs,
				 "device_cap_flags_ex %#llx, "
				 "device_cap_flags %#x",
				 (unsigned long long)x.device_cap_flags_ex,
				 x.orig_attr.device_cap_flags);
}

static void ex_null_input(const struct vc_row *row, struct rc_ctx *ctx,
			  struct vl *l)
{
	struct ibv_device_attr_ex x;
	struct ibv_device_attr a;

	if (vc_attr(ctx, l, &a) && !query_ex(ctx, l, NULL, &x) &&
	    memcmp(&a, &x.orig_attr, sizeof(a)))
		rc_obs_violation(ctx->obs, "orig_attr: not ibv_query_device's "
					   "answer");
}

static void ex_unknown_mask(const struct vc_row *row, struct rc_ctx *ctx,
			    struct vl *l)
{
	struct ibv_query_device_ex_input in = { .comp_mask = 1u << 31 };
	struct ibv_device_attr_ex x;

	query_ex(ctx, l, &in, &x);
}

static void ex_severed(const struct vc_row *row, struct rc_ctx *ctx,
		       struct vl *l)
{
	struct ibv_query_device_ex_input in = { 0 };
	struct ibv_device_attr_ex x;

	if (vc_sever(ctx, l))
		query_ex(ctx, l, &in, &x);
}

VC_GROUP(dev, ibv_query_device, RC_CONV_ERRNO_RET, dev_rows);
VC_GROUP(ex, ibv_query_device_ex, RC_CONV_ERRNO_RET, ex_rows);
