// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ref-smoke, the reference alone: what a device of a driver the reference
 * has no part for gets.  A context of the device is given the provider
 * with no driver data, and the objects are made as for any device: each
 * either works (where the driver needs no driver data) or fails cleanly
 * with the kernel's errno.  A crash or a hang here is the walking child's
 * end, a FAIL.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "smoke.h"
#include "../../reference/verbs/objects.h"

void walk_no_provider(struct side *s, const char *name)
{
	const struct rc_ops *o = s->ops;
	struct ibv_srq_init_attr sa = { .attr = { .max_wr = 8, .max_sge = 1 } };
	struct ibv_qp_init_attr qa = { .cap = { 4, 4, 1, 1, 0 },
				       .qp_type = IBV_QPT_UD };
	struct ibv_context *ctx;
	struct ibv_srq *srq;
	struct ibv_qp *qp = NULL;
	struct ibv_cq *cq;
	struct ibv_mr *mr;
	struct ibv_pd *pd;
	void *buf;

	if (o != rc_impl(RC_IMPL_REFERENCE))
		return;
	ctx = open_by_name(s, name);
	if (!ctx)
		return;
	ref_ctx(ctx)->prov = ref_provider_for(-1);
	errno = 0;
	pd = o->ibv_alloc_pd(ctx);
	note(s, "no_provider/alloc_pd", "%s", pd ? "PD" : errname(errno));
	buf = calloc(1, 4096);
	errno = 0;
	mr = pd && buf ?
		     (o->ibv_reg_mr)(pd, buf, 4096, IBV_ACCESS_LOCAL_WRITE) :
		     NULL;
	note(s, "no_provider/reg_mr", "%s", mr ? "MR" : errname(errno));
	errno = 0;
	cq = o->ibv_create_cq(ctx, 8, NULL, NULL, 0);
	note(s, "no_provider/create_cq", "%s", cq ? "CQ" : errname(errno));
	errno = 0;
	srq = pd ? o->ibv_create_srq(pd, &sa) : NULL;
	note(s, "no_provider/create_srq", "%s", srq ? "SRQ" : errname(errno));
	if (pd && cq) {
		qa.send_cq = qa.recv_cq = cq;
		errno = 0;
		qp = o->ibv_create_qp(pd, &qa);
		note(s, "no_provider/create_qp", "%s",
		     qp ? "QP" : errname(errno));
	}
	require(s,
		(!qp || !o->ibv_destroy_qp(qp)) &&
			(!srq || !o->ibv_destroy_srq(srq)) &&
			(!cq || !o->ibv_destroy_cq(cq)) &&
			(!mr || !o->ibv_dereg_mr(mr)) &&
			(!pd || !o->ibv_dealloc_pd(pd)),
		"no provider: what was made is destroyed");
	free(buf);
	require(s, !o->ibv_close_device(ctx), "no provider: closed");
}
