// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_free_devices(3): "Frees the device array returned by
 * rdma_get_devices."  rdma_get_devices(3) NOTES: "The returned array must
 * be released by calling rdma_free_devices.  Devices remain opened while
 * the librdmacm is loaded."
 *
 * - the devices stay open: after the free, a context of the freed array
 *   still answers ibv_query_device and allocates a PD
 * - one of two arrays: freeing the first leaves the second whole (its
 *   contexts where they were, and open)
 * - an id bound before the free keeps its device: a PD and a QP made on
 *   it after
 * - again: rdma_get_devices after the free gives as many devices
 */
#include <string.h>

#include "rdmacm_conn.h"

#define DOC_FREE "Frees the device array returned by rdma_get_devices."
#define DOC_OPEN "Devices remain opened while the librdmacm is loaded."

struct fd_row;
typedef void fd_check(const struct fd_row *row, struct rc_ctx *ctx,
		      struct ibv_context **list, int n);

struct fd_row {
	struct rc_case c;
	fd_check *check;
};

static fd_check stay_open, one_of_two, id_keeps_device, again;

#define NEEDS (RC_NEED_DEVICE | RC_NEED_PEER)

static const struct fd_row rows[] = {
	{ .c = { .id = "rdmacm/free_devices/devices-stay-open",
		 .doc = DOC_OPEN,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "after the free, the first context of the freed array "
			 "answers ibv_query_device and allocates a PD",
		 .needs = NEEDS,
		 .contract = { RC_ANY_RETURN } },
	  .check = stay_open },
	{ .c = { .id = "rdmacm/free_devices/one-of-two",
		 .doc = DOC_FREE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the array given, not another: with two arrays, "
			 "freeing the first leaves the second's entries as they "
			 "were, each context open",
		 .needs = NEEDS,
		 .contract = { RC_ANY_RETURN } },
	  .check = one_of_two },
	{ .c = { .id = "rdmacm/free_devices/id-keeps-device",
		 .doc = DOC_OPEN,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "an id bound to the target's address before the free: "
			 "after it, rdma_create_qp on the id (its own PD and "
			 "CQs) succeeds",
		 .needs = NEEDS,
		 .contract = { RC_ANY_RETURN } },
	  .check = id_keeps_device },
	{ .c = { .id = "rdmacm/free_devices/get-again",
		 .doc = DOC_FREE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "only the array goes: rdma_get_devices after the free "
			 "gives as many devices as before",
		 .needs = NEEDS,
		 .contract = { RC_ANY_RETURN } },
	  .check = again },
};

static bool answers(struct rc_ctx *ctx, struct ibv_context *c, const char *what)
{
	struct ibv_device_attr da;
	struct ibv_pd *pd;
	int err = ctx->ops->ibv_query_device(c, &da);

	if (err) {
		rc_obs_violation(ctx->obs, "%s: ibv_query_device %d", what,
				 err);
		return false;
	}
	pd = ctx->ops->ibv_alloc_pd(c);
	if (!pd) {
		rc_obs_violation(ctx->obs, "%s: ibv_alloc_pd fails (%m)", what);
		return false;
	}
	ctx->ops->ibv_dealloc_pd(pd);
	return true;
}

static void stay_open(const struct fd_row *row, struct rc_ctx *ctx,
		      struct ibv_context **list, int n)
{
	struct ibv_context *c = list[0];

	RC_OBSERVE(ctx, (ctx->ops->rdma_free_devices(list), 0));
	answers(ctx, c, "context");
}

static void one_of_two(const struct fd_row *row, struct rc_ctx *ctx,
		       struct ibv_context **list, int n)
{
	struct ibv_context *copy[16], **second;
	int n2 = -7, i;

	second = ctx->ops->rdma_get_devices(&n2);
	if (!second) {
		ctx->ops->rdma_free_devices(list);
		cm_broken(ctx, "the second rdma_get_devices");
		return;
	}
	for (i = 0; i < n2 && i < (int)ARRAY_SIZE(copy); i++)
		copy[i] = second[i];
	RC_OBSERVE(ctx, (ctx->ops->rdma_free_devices(list), 0));
	for (i = 0; i < n2 && i < (int)ARRAY_SIZE(copy); i++) {
		if (second[i] != copy[i]) {
			rc_obs_violation(ctx->obs,
					 "second entry %d changed by the free",
					 i);
			break;
		}
		if (!answers(ctx, second[i], "second"))
			break;
	}
	if (second[n2])
		rc_obs_violation(ctx->obs, "second no NULL after %d entries",
				 n2);
	ctx->ops->rdma_free_devices(second);
}

static void id_keeps_device(const struct fd_row *row, struct rc_ctx *ctx,
			    struct ibv_context **list, int n)
{
	struct ibv_qp_init_attr qa = {
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 2,
			 .max_recv_wr = 2,
			 .max_send_sge = 1,
			 .max_recv_sge = 1 },
	};
	struct ibv_pd *pd;
	struct cm_pair p;

	if (!cm_pair_open(ctx, &p, AF_INET, false, ctx->ops, ctx->ops) ||
	    ctx->ops->rdma_bind_addr(p.srv.id,
				     (struct sockaddr *)&p.srv_addr)) {
		ctx->ops->rdma_free_devices(list);
		cm_broken(ctx, "the bound id");
		goto out;
	}
	RC_OBSERVE(ctx, (ctx->ops->rdma_free_devices(list), 0));
	pd = ctx->ops->ibv_alloc_pd(p.srv.id->verbs);
	if (!pd) {
		rc_obs_violation(ctx->obs, "pd ibv_alloc_pd on the id's device "
					   "fails (%m)");
		goto out;
	}
	if (ctx->ops->rdma_create_qp(p.srv.id, pd, &qa))
		rc_obs_violation(ctx->obs, "qp rdma_create_qp fails (%m)");
	else
		ctx->ops->rdma_destroy_qp(p.srv.id);
	ctx->ops->ibv_dealloc_pd(pd);
out:
	cm_pair_close(ctx, &p);
}

static void again(const struct fd_row *row, struct rc_ctx *ctx,
		  struct ibv_context **list, int n)
{
	struct ibv_context **next;
	int n2 = -7;

	RC_OBSERVE(ctx, (ctx->ops->rdma_free_devices(list), 0));
	next = ctx->ops->rdma_get_devices(&n2);
	if (!next) {
		rc_obs_violation(ctx->obs,
				 "again rdma_get_devices fails after the "
				 "free (%m)");
		return;
	}
	if (n2 != n)
		rc_obs_violation(ctx->obs, "again %d devices, before %d", n2,
				 n);
	ctx->ops->rdma_free_devices(next);
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct fd_row *row = r;
	struct ibv_context **list;
	int n = -7;

	if (!rc_need_call(ctx, ctx->ops->rdma_get_devices,
			  "rdma_get_devices") ||
	    !rc_need_call(ctx, ctx->ops->rdma_free_devices,
			  "rdma_free_devices"))
		return;
	list = ctx->ops->rdma_get_devices(&n);
	if (!list || n < 1) {
		cm_broken(ctx, "rdma_get_devices");
		return;
	}
	row->check(row, ctx, list, n);
}

RC_TABLE_GROUP(group, "rdma_free_devices", RC_CONV_VALUE, "rdmacm", rows, run);
