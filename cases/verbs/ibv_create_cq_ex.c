// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_create_cq_ex(3): "creates a completion queue (CQ) for RDMA device
 * context context."  struct ibv_cq_init_attr_ex: cqe "Minimum number of
 * entries required for CQ", cq_context, channel, comp_vector "Must be >= 0
 * and < context->num_comp_vectors.", wc_flags, comp_mask "compatibility
 * mask (extended verb)".  "returns a pointer to the CQ, or NULL if the
 * request fails."  NOTES: "CQ should be destroyed with ibv_destroy_cq."
 *
 * - cqe 1, IBV_WC_EX_WITH_BYTE_LEN, a cq_context of distinct bytes and a
 *   channel: cqe >= 1, context, cq_context and channel as given, and
 *   ibv_destroy_cq takes it (documented)
 * - cqe = max_cqe, an exact fit (documented; UNSUPPORTED where such a CQ
 *   is more memory than a row takes); max_cqe + 1: NULL (interpretation)
 * - comp_vector num_comp_vectors: NULL (documented)
 * - a comp_mask bit beyond the two the page names: NULL (interpretation:
 *   no such extension)
 * - each IBV_WC_EX_WITH_* flag of IBV_WC_STANDARD_FLAGS asked alone: the
 *   CQ has that field's reader, and the poll functions and the readers no
 *   flag asks for (opcode, vendor_err, wc_flags); verbs.h's ibv_wc_read_*
 *   call them through the CQ, and "Only fields that the user requested via
 *   wc_flags in ibv_create_cq_ex could be queried" (interpretation: a field
 *   asked for has its reader; whether one not asked for has one, the page
 *   leaves open, and no row reads it)
 */
#include <errno.h>

#include "verbs_ctl.h"

#define DOC_CREATE                                                \
	"ibv_create_cq_ex() creates a completion queue (CQ) for " \
	"RDMA device context context."
#define DOC_CQE "int cqe; /* Minimum number of entries required for CQ */"
#define DOC_VECTOR                                              \
	"int comp_vector; /* Completion vector used to signal " \
	"completion events. Must be >= 0 and < context->num_comp_vectors. */"
#define DOC_MASK                                               \
	"uint32_t comp_mask; /* compatibility mask (extended " \
	"verb). */"
#define DOC_QUERIED                                            \
	"Only fields that the user requested via wc_flags in " \
	"ibv_create_cq_ex could be queried."
#define DOC_RET                                                       \
	"ibv_create_cq_ex() returns a pointer to the CQ, or NULL if " \
	"the request fails."

#define CQ_CONTEXT ((void *)0x0123456789abcdefull)

static vc_check ex_fields, ex_cqe, ex_bad, ex_readers;

/* ex_bad's: what is wrong with the attributes */
enum { PAST_MAX, PAST_VECTOR, UNKNOWN_MASK };

static const struct vc_row rows[] = {
	{ .c = { .id = "verbs/create_cq_ex/fields",
		 .doc = DOC_CREATE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "cqe 1 with BYTE_LEN, cq_context 0x0123456789abcdef, "
			 "a channel: as given, and ibv_destroy_cq takes it",
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = ex_fields,
	  .rung = VL_CQ },
	{ .c = { .id = "verbs/create_cq_ex/max-cqe",
		 .doc = DOC_CQE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "cqe = max_cqe: at least that many",
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = ex_cqe,
	  .rung = VL_CONTEXT },
	{ .c = { .id = "verbs/create_cq_ex/max-cqe-plus-1",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "cqe = max_cqe + 1: beyond the device",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = ex_bad,
	  .rung = VL_CONTEXT,
	  .arg = PAST_MAX },
	{ .c = { .id = "verbs/create_cq_ex/comp-vector-num-comp-vectors",
		 .doc = DOC_VECTOR,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = ex_bad,
	  .rung = VL_CONTEXT,
	  .arg = PAST_VECTOR },
	{ .c = { .id = "verbs/create_cq_ex/unknown-comp-mask",
		 .doc = DOC_MASK,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "comp_mask 1 << 2, beyond IBV_CQ_INIT_ATTR_MASK_FLAGS "
			 "and _PD: no such extension",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = ex_bad,
	  .rung = VL_CONTEXT,
	  .arg = UNKNOWN_MASK },
	{ .c = { .id = "verbs/create_cq_ex/each-flag-alone-has-its-reader",
		 .doc = DOC_QUERIED,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "a CQ per IBV_WC_EX_WITH_* flag of "
			 "IBV_WC_STANDARD_FLAGS, asked alone: that field's "
			 "reader is there, and start/next/end_poll and the "
			 "opcode, vendor_err and wc_flags readers (a field "
			 "that could be queried has the reader verbs.h's "
			 "ibv_wc_read_* calls)",
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = ex_readers,
	  .rung = VL_CONTEXT },
};

static void ex_fields(const struct vc_row *row, struct rc_ctx *ctx,
		      struct vl *l)
{
	struct ibv_cq_init_attr_ex a = {
		.cqe = 1,
		.cq_context = CQ_CONTEXT,
		.channel = l->ch,
		.wc_flags = IBV_WC_EX_WITH_BYTE_LEN,
	};
	struct ibv_cq_ex *x;
	struct ibv_cq *cq;

	RC_OBSERVE(ctx, x = ctx->ops->ibv_create_cq_ex(l->ctx, &a));
	if (!x)
		return;
	cq = ibv_cq_ex_to_cq(x);
	if (cq->cqe < 1)
		rc_obs_violation(ctx->obs, "cqe %d, asked 1", cq->cqe);
	else if (cq->context != l->ctx || cq->channel != l->ch)
		rc_obs_violation(ctx->obs, "context/channel: not the ones "
					   "given");
	else if (cq->cq_context != CQ_CONTEXT)
		rc_obs_violation(ctx->obs, "cq_context %p, given %p",
				 cq->cq_context, CQ_CONTEXT);
	if (ctx->ops->ibv_destroy_cq(cq))
		rc_obs_violation(ctx->obs, "destroy: ibv_destroy_cq refuses "
					   "it: %m");
}

static void ex_cqe(const struct vc_row *row, struct rc_ctx *ctx, struct vl *l)
{
	struct ibv_cq_init_attr_ex a = { .wc_flags = IBV_WC_EX_WITH_BYTE_LEN };
	struct ibv_device_attr d;
	struct ibv_cq_ex *x;

	if (!vc_attr(ctx, l, &d) || !vc_cq_fits(ctx, d.max_cqe))
		return;
	a.cqe = d.max_cqe;
	RC_OBSERVE(ctx, x = ctx->ops->ibv_create_cq_ex(l->ctx, &a));
	if (!x)
		return;
	if (ibv_cq_ex_to_cq(x)->cqe < d.max_cqe)
		rc_obs_violation(ctx->obs, "cqe %d, asked %d",
				 ibv_cq_ex_to_cq(x)->cqe, d.max_cqe);
	ctx->ops->ibv_destroy_cq(ibv_cq_ex_to_cq(x));
}

static void ex_bad(const struct vc_row *row, struct rc_ctx *ctx, struct vl *l)
{
	struct ibv_cq_init_attr_ex a = { .cqe = VL_CQE,
					 .wc_flags = IBV_WC_EX_WITH_BYTE_LEN };
	struct ibv_device_attr d;
	struct ibv_cq_ex *x;

	if (!vc_attr(ctx, l, &d))
		return;
	if (row->arg == PAST_MAX)
		a.cqe = d.max_cqe + 1;
	else if (row->arg == PAST_VECTOR)
		a.comp_vector = l->ctx->num_comp_vectors;
	else
		a.comp_mask = 1 << 2;
	RC_OBSERVE(ctx, x = ctx->ops->ibv_create_cq_ex(l->ctx, &a));
	if (x)
		ctx->ops->ibv_destroy_cq(ibv_cq_ex_to_cq(x));
}

/* The reader of each flag's field, as verbs.h's ibv_wc_read_* reach it */
static bool has_reader(const struct ibv_cq_ex *x, uint64_t flag)
{
	switch (flag) {
	case IBV_WC_EX_WITH_BYTE_LEN:
		return x->read_byte_len;
	case IBV_WC_EX_WITH_IMM:
		return x->read_imm_data;
	case IBV_WC_EX_WITH_QP_NUM:
		return x->read_qp_num;
	case IBV_WC_EX_WITH_SRC_QP:
		return x->read_src_qp;
	case IBV_WC_EX_WITH_SLID:
		return x->read_slid;
	case IBV_WC_EX_WITH_SL:
		return x->read_sl;
	default:
		return x->read_dlid_path_bits;
	}
}

static void ex_readers(const struct vc_row *row, struct rc_ctx *ctx,
		       struct vl *l)
{
	uint64_t flag;
	struct ibv_cq_ex *x;

	for (flag = 1; flag <= IBV_WC_STANDARD_FLAGS; flag <<= 1) {
		struct ibv_cq_init_attr_ex a = { .cqe = 1, .wc_flags = flag };

		if (!(flag & IBV_WC_STANDARD_FLAGS))
			continue;
		/* each create observed: a refused one is the row's result */
		RC_OBSERVE(ctx, x = ctx->ops->ibv_create_cq_ex(l->ctx, &a));
		if (!x)
			return;
		if (!has_reader(x, flag) || !x->start_poll || !x->next_poll ||
		    !x->end_poll || !x->read_opcode || !x->read_vendor_err ||
		    !x->read_wc_flags)
			rc_obs_violation(ctx->obs,
					 "wc_flags %#llx alone: a CQ without "
					 "that field's reader, or without a "
					 "poll function or a reader no flag "
					 "asks for",
					 (unsigned long long)flag);
		ctx->ops->ibv_destroy_cq(ibv_cq_ex_to_cq(x));
		if (ctx->obs->violation[0])
			return;
	}
}

VC_GROUP(ex, ibv_create_cq_ex, RC_CONV_NULL_ERRNO, rows);
