// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ref-smoke: completion channels and CQs (ibv_create_cq, _ex, resize,
 * destroy), SRQs (create, _ex, query, modify, ibv_get_srq_num, destroy).
 */
#include <errno.h>
#include <stdio.h>

#include "smoke.h"

static void walk_cq(struct side *s, struct ibv_context *ctx)
{
	const struct rc_ops *o = s->ops;
	struct ibv_comp_channel *ch;
	struct ibv_cq *cq;
	int err;

	errno = 0;
	ch = o->ibv_create_comp_channel(ctx);
	if (!require(s, ch, "ibv_create_comp_channel: NULL, %s",
		     errname(errno)))
		return;
	require(s, ch->context == ctx && ch->fd >= 0, "channel fields");
	errno = 0;
	cq = o->ibv_create_cq(ctx, 100, s, ch, 0);
	see(s, "cq/create", "%s", cq ? "CQ" : errname(errno));
	if (cq) {
		/* "may create a CQ with size greater than or equal to the
		 * requested size" */
		require(s, cq->cqe >= 100, "cq->cqe %d < 100", cq->cqe);
		require(s,
			cq->context == ctx && cq->channel == ch &&
				cq->cq_context == s,
			"cq fields");
		see(s, "cq/cqe", "%d", cq->cqe);
		/* "fails if any CQs are still associated with the
		 * completion event channel" */
		err = o->ibv_destroy_comp_channel(ch);
		see(s, "comp_channel/destroy_busy", "%s", errname(err));
		if (!err)
			ch = NULL;
		err = o->ibv_resize_cq(cq, 300);
		see(s, "cq/resize", "%s", errname(err));
		if (!err) {
			require(s, cq->cqe >= 300, "resized cqe %d < 300",
				cq->cqe);
			see(s, "cq/cqe_resized", "%d", cq->cqe);
		}
		see(s, "cq/destroy", "%s", errname(o->ibv_destroy_cq(cq)));
	}
	if (ch)
		see(s, "comp_channel/destroy", "%s",
		    errname(o->ibv_destroy_comp_channel(ch)));
	/* "it must be at least zero and less than
	 * context->num_comp_vectors" */
	errno = 0;
	cq = o->ibv_create_cq(ctx, 10, NULL, NULL, ctx->num_comp_vectors);
	see(s, "cq/vector_out_of_range", "%s", cq ? "CQ" : errname(errno));
	if (cq)
		o->ibv_destroy_cq(cq);
}

static void walk_cq_ex(struct side *s, struct ibv_context *ctx)
{
	const struct rc_ops *o = s->ops;
	struct ibv_cq_init_attr_ex a = {
		.cqe = 50,
		.wc_flags = IBV_WC_EX_WITH_BYTE_LEN | IBV_WC_EX_WITH_QP_NUM,
		.comp_mask = IBV_CQ_INIT_ATTR_MASK_FLAGS,
		.flags = IBV_CREATE_CQ_ATTR_SINGLE_THREADED,
	};
	struct ibv_cq_ex *cq;

	errno = 0;
	cq = o->ibv_create_cq_ex(ctx, &a);
	see(s, "cq_ex/create", "%s", cq ? "CQ" : errname(errno));
	if (cq) {
		require(s, cq->cqe >= 50, "cq_ex cqe %d < 50", cq->cqe);
		see(s, "cq_ex/cqe", "%d", cq->cqe);
		/* "CQ should be destroyed with ibv_destroy_cq." */
		see(s, "cq_ex/destroy", "%s",
		    errname(o->ibv_destroy_cq((struct ibv_cq *)cq)));
	}
	a.wc_flags |= IBV_WC_EX_WITH_COMPLETION_TIMESTAMP;
	errno = 0;
	cq = o->ibv_create_cq_ex(ctx, &a);
	see(s, "cq_ex/timestamp", "%s", cq ? "CQ" : errname(errno));
	if (cq)
		o->ibv_destroy_cq((struct ibv_cq *)cq);
	a.wc_flags = 0;
	a.flags = IBV_CREATE_CQ_ATTR_IGNORE_OVERRUN;
	errno = 0;
	cq = o->ibv_create_cq_ex(ctx, &a);
	see(s, "cq_ex/ignore_overrun", "%s", cq ? "CQ" : errname(errno));
	if (cq)
		o->ibv_destroy_cq((struct ibv_cq *)cq);
}

static void see_srq_attr(struct side *s, const char *what,
			 const struct ibv_srq_attr *a)
{
	char k[64];

	snprintf(k, sizeof(k), "%s/max_wr", what);
	see(s, k, "%u", a->max_wr);
	snprintf(k, sizeof(k), "%s/max_sge", what);
	see(s, k, "%u", a->max_sge);
	snprintf(k, sizeof(k), "%s/srq_limit", what);
	see(s, k, "%u", a->srq_limit);
}

static void walk_srq(struct side *s, struct ibv_pd *pd)
{
	const struct rc_ops *o = s->ops;
	struct ibv_srq_init_attr init = {
		.srq_context = s,
		.attr = { .max_wr = 64, .max_sge = 2 },
	};
	struct ibv_srq_attr a;
	struct ibv_srq *srq;
	uint32_t num;
	int err;

	errno = 0;
	srq = o->ibv_create_srq(pd, &init);
	see(s, "srq/create", "%s", srq ? "SRQ" : errname(errno));
	if (!srq)
		return;
	/* "the values of max_wr and max_sge will be greater than or equal
	 * to the values requested" */
	require(s, init.attr.max_wr >= 64 && init.attr.max_sge >= 2,
		"srq granted %u wr, %u sge", init.attr.max_wr,
		init.attr.max_sge);
	require(s,
		srq->context == pd->context && srq->pd == pd &&
			srq->srq_context == s,
		"srq fields");
	see_srq_attr(s, "srq/granted", &init.attr);
	err = o->ibv_query_srq(srq, &a);
	see(s, "srq/query", "%s", errname(err));
	if (!err)
		see_srq_attr(s, "srq/query", &a);
	a.srq_limit = 10;
	see(s, "srq/modify_limit", "%s",
	    errname(o->ibv_modify_srq(srq, &a, IBV_SRQ_LIMIT)));
	if (!o->ibv_query_srq(srq, &a))
		see_srq_attr(s, "srq/query_after_limit", &a);
	a.max_wr = 200;
	see(s, "srq/modify_max_wr", "%s",
	    errname(o->ibv_modify_srq(srq, &a, IBV_SRQ_MAX_WR)));
	if (!o->ibv_query_srq(srq, &a))
		see_srq_attr(s, "srq/query_after_resize", &a);
	/* "If any of the modify attributes is invalid, none of the
	 * attributes will be modified" */
	a.srq_limit = 5;
	a.max_wr = 1u << 30;
	err = o->ibv_modify_srq(srq, &a, IBV_SRQ_LIMIT | IBV_SRQ_MAX_WR);
	see(s, "srq/modify_invalid", "%s", errname(err));
	if (!o->ibv_query_srq(srq, &a))
		see_srq_attr(s, "srq/query_after_invalid", &a);
	see(s, "srq/get_srq_num", "%s", errname(o->ibv_get_srq_num(srq, &num)));
	see(s, "srq/destroy", "%s", errname(o->ibv_destroy_srq(srq)));
}

/* ibv_create_srq_ex(3): the cq is "CQ to associate with the SRQ for XRC
 * mode": a tag-matching SRQ asked for without one */
static void tm_without_cq(struct side *s, void *arg)
{
	struct ibv_srq_init_attr_ex *a = arg;
	struct ibv_srq *srq;

	errno = 0;
	srq = s->ops->ibv_create_srq_ex(a->pd->context, a);
	see(s, "srq_ex/tm_without_cq", "%s", srq ? "SRQ" : errname(errno));
	if (srq)
		s->ops->ibv_destroy_srq(srq);
}

static void walk_srq_ex(struct side *s, struct ibv_context *ctx,
			struct ibv_pd *pd)
{
	const struct rc_ops *o = s->ops;
	struct ibv_srq_init_attr_ex a = {
		.attr = { .max_wr = 16, .max_sge = 1 },
		.comp_mask = IBV_SRQ_INIT_ATTR_PD | IBV_SRQ_INIT_ATTR_TYPE,
		.srq_type = IBV_SRQT_BASIC,
		.pd = pd,
	};
	struct ibv_srq *srq;

	errno = 0;
	srq = o->ibv_create_srq_ex(ctx, &a);
	see(s, "srq_ex/basic", "%s", srq ? "SRQ" : errname(errno));
	if (srq) {
		require(s, a.attr.max_wr >= 16, "srq_ex max_wr %u",
			a.attr.max_wr);
		o->ibv_destroy_srq(srq);
	}
	a.srq_type = IBV_SRQT_TM;
	a.comp_mask |= IBV_SRQ_INIT_ATTR_TM | IBV_SRQ_INIT_ATTR_CQ;
	a.tm_cap.max_num_tags = 8;
	a.tm_cap.max_ops = 8;
	a.cq = NULL;
	isolated(s, "srq_ex/tm_without_cq", tm_without_cq, &a);
	a.cq = o->ibv_create_cq(ctx, 16, NULL, NULL, 0);
	if (!a.cq)
		return;
	errno = 0;
	srq = o->ibv_create_srq_ex(ctx, &a);
	see(s, "srq_ex/tm", "%s", srq ? "SRQ" : errname(errno));
	if (srq)
		o->ibv_destroy_srq(srq);
	o->ibv_destroy_cq(a.cq);
}

void walk_queues(struct side *s, struct ibv_context *ctx)
{
	struct ibv_pd *pd;

	walk_cq(s, ctx);
	walk_cq_ex(s, ctx);
	pd = s->ops->ibv_alloc_pd(ctx);
	if (!require(s, pd, "ibv_alloc_pd"))
		return;
	walk_srq(s, pd);
	walk_srq_ex(s, ctx, pd);
	s->ops->ibv_dealloc_pd(pd);
}
