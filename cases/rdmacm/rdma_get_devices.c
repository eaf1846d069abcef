// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_get_devices(3): "Return a NULL-terminated array of opened RDMA
 * devices.  Callers can use this routine to allocate resources on
 * specific RDMA devices that will be shared across multiple
 * rdma_cm_id's."  ARGUMENTS: "If non-NULL, set to the number of devices
 * returned."  RETURN VALUE: "Returns an array of available RDMA devices,
 * or NULL if the request fails."  NOTES: "Devices remain opened while the
 * librdmacm is loaded."
 *
 * - every device: as many contexts as the implementation's own
 *   ibv_get_device_list has devices, each device once, the target's and
 *   the peer's among them, NULL after the last, *num_devices their count
 * - num_devices NULL: the same array, nothing written
 * - opened: each context answers ibv_query_device and ibv_query_port
 * - shared with ids: an id bound to the target's address has the list's
 *   context of that device as id->verbs, and a PD allocated on it makes
 *   the id's QP
 * - twice: a second call gives the same contexts (they stay open)
 * - no descriptor left (RLIMIT_NOFILE 0): nothing can be opened; NULL
 *   and errno
 */
#include <string.h>

#include "rdmacm_conn.h"

#define DOC_LIST "Return a NULL-terminated array of opened RDMA devices."
#define DOC_COUNT "If non-NULL, set to the number of devices returned."
#define DOC_SHARED                                                        \
	"Callers can use this routine to allocate resources on specific " \
	"RDMA devices that will be shared across multiple rdma_cm_id's."
#define DOC_OPEN "Devices remain opened while the librdmacm is loaded."
#define DOC_FAIL                                                              \
	"Returns an array of available RDMA devices, or NULL if the request " \
	"fails."

struct gd_row;
typedef void gd_check(const struct gd_row *row, struct rc_ctx *ctx);

struct gd_row {
	struct rc_case c;
	gd_check *check;
};

static gd_check every_device, null_count, opened, shared_with_ids, twice,
	no_descriptor;

#define NEEDS (RC_NEED_DEVICE | RC_NEED_PEER)

static const struct gd_row rows[] = {
	{ .c = { .id = "rdmacm/get_devices/every-device",
		 .doc = DOC_LIST,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "one context per device of the implementation's own "
			 "ibv_get_device_list, none twice, the target's and the "
			 "peer's among them; list[n] NULL, *num_devices n "
			 "(preset to -7)",
		 .needs = NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = every_device },
	{ .c = { .id = "rdmacm/get_devices/null-count",
		 .doc = DOC_COUNT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "num_devices NULL: an array all the same, as long as "
			 "the one a call with a count gives",
		 .needs = NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = null_count },
	{ .c = { .id = "rdmacm/get_devices/opened",
		 .doc = DOC_LIST,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "opened: every context answers ibv_query_device and "
			 "ibv_query_port of port 1 (the implementation's verbs)",
		 .needs = NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = opened },
	{ .c = { .id = "rdmacm/get_devices/shared-with-ids",
		 .doc = DOC_SHARED,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "an RDMA_PS_TCP id bound to the target's address has "
			 "as id->verbs the list's context of the target's "
			 "device, and rdma_create_qp on the id with a PD "
			 "allocated on that context succeeds",
		 .needs = NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = shared_with_ids },
	{ .c = { .id = "rdmacm/get_devices/twice-same-contexts",
		 .doc = DOC_OPEN,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "devices that remain opened are opened once: a second "
			 "call's array holds the same contexts as the first's "
			 "(the page says nothing of a second open)",
		 .needs = NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = twice },
	{ .c = { .id = "rdmacm/get_devices/no-descriptor",
		 .doc = DOC_FAIL,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "RLIMIT_NOFILE 0 in a process that never opened a "
			 "device: none can be opened, the request fails: NULL "
			 "and errno (which one the page does not say), never "
			 "an array of devices that are not open",
		 .needs = NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = no_descriptor },
};

static int count(struct ibv_context **list)
{
	int n = 0;

	while (list[n])
		n++;
	return n;
}

static const char *name_of(const struct rc_ctx *ctx, struct ibv_context *c)
{
	return c->device ? ctx->ops->ibv_get_device_name(c->device) : NULL;
}

/* the list's context of device @ca, or NULL */
static struct ibv_context *context_of(const struct rc_ctx *ctx,
				      struct ibv_context **list, const char *ca)
{
	const char *name;
	int i;

	for (i = 0; list[i]; i++) {
		name = name_of(ctx, list[i]);
		if (name && !strcmp(name, ca))
			return list[i];
	}
	return NULL;
}

static void every_device(const struct gd_row *row, struct rc_ctx *ctx)
{
	struct ibv_context **list;
	struct ibv_device **devs;
	int n = -7, ndevs = 0, i, j;

	RC_OBSERVE(ctx, list = ctx->ops->rdma_get_devices(&n));
	if (!list)
		return;
	devs = ctx->ops->ibv_get_device_list(&ndevs);
	if (count(list) != n)
		rc_obs_violation(ctx->obs,
				 "num_devices %d, the array has %d before "
				 "its NULL",
				 n, count(list));
	if (devs && ndevs != n)
		rc_obs_violation(
			ctx->obs,
			"num_devices %d, where ibv_get_device_list has %d "
			"devices",
			n, ndevs);
	for (i = 0; list[i]; i++)
		for (j = 0; j < i; j++)
			if (name_of(ctx, list[i]) && name_of(ctx, list[j]) &&
			    !strcmp(name_of(ctx, list[i]),
				    name_of(ctx, list[j])))
				rc_obs_violation(ctx->obs,
						 "list %s twice, at %d and %d",
						 name_of(ctx, list[i]), j, i);
	if (!context_of(ctx, list, ctx->target->ca))
		rc_obs_violation(ctx->obs, "list has not the target's %s",
				 ctx->target->ca);
	if (!context_of(ctx, list, ctx->target->peer))
		rc_obs_violation(ctx->obs, "list has not the peer's %s",
				 ctx->target->peer);
	if (devs)
		ctx->ops->ibv_free_device_list(devs);
	ctx->ops->rdma_free_devices(list);
}

static void null_count(const struct gd_row *row, struct rc_ctx *ctx)
{
	struct ibv_context **list, **counted;
	int n = -7;

	RC_OBSERVE(ctx, list = ctx->ops->rdma_get_devices(NULL));
	if (!list)
		return;
	counted = ctx->ops->rdma_get_devices(&n);
	if (!counted)
		cm_broken(ctx, "rdma_get_devices with a count");
	else if (count(list) != n)
		rc_obs_violation(ctx->obs, "list %d devices, with a count %d",
				 count(list), n);
	if (counted)
		ctx->ops->rdma_free_devices(counted);
	ctx->ops->rdma_free_devices(list);
}

static void opened(const struct gd_row *row, struct rc_ctx *ctx)
{
	struct ibv_context **list;
	struct ibv_device_attr da;
	struct ibv_port_attr pa;
	int i, err;

	RC_OBSERVE(ctx, list = ctx->ops->rdma_get_devices(NULL));
	if (!list)
		return;
	for (i = 0; list[i]; i++) {
		err = ctx->ops->ibv_query_device(list[i], &da);
		if (err)
			rc_obs_violation(ctx->obs,
					 "device %d (%s): ibv_query_device %d",
					 i, name_of(ctx, list[i]), err);
		else if (!da.phys_port_cnt)
			rc_obs_violation(ctx->obs, "device %d: no port", i);
		err = (ctx->ops->ibv_query_port)(list[i], 1, &pa);
		if (err)
			rc_obs_violation(ctx->obs,
					 "device %d (%s): ibv_query_port %d", i,
					 name_of(ctx, list[i]), err);
	}
	ctx->ops->rdma_free_devices(list);
}

static void shared_with_ids(const struct gd_row *row, struct rc_ctx *ctx)
{
	struct ibv_qp_init_attr qa = {
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 2,
			 .max_recv_wr = 2,
			 .max_send_sge = 1,
			 .max_recv_sge = 1 },
	};
	struct ibv_context **list, *c;
	struct ibv_pd *pd = NULL;
	struct cm_pair p;

	if (!cm_pair_open(ctx, &p, AF_INET, false, ctx->ops, ctx->ops))
		goto out;
	RC_OBSERVE(ctx, list = ctx->ops->rdma_get_devices(NULL));
	if (!list)
		goto out;
	c = context_of(ctx, list, ctx->target->ca);
	if (!c) {
		rc_obs_violation(ctx->obs, "list has not the target's %s",
				 ctx->target->ca);
		goto free;
	}
	if (ctx->ops->rdma_bind_addr(p.srv.id,
				     (struct sockaddr *)&p.srv_addr)) {
		cm_broken(ctx, "rdma_bind_addr");
		goto free;
	}
	if (p.srv.id->verbs != c)
		rc_obs_violation(ctx->obs,
				 "verbs the bound id's context %p is not the "
				 "list's %p",
				 (void *)p.srv.id->verbs, (void *)c);
	pd = ctx->ops->ibv_alloc_pd(c);
	if (!pd) {
		cm_broken(ctx, "ibv_alloc_pd on the list's context");
		goto free;
	}
	if (ctx->ops->rdma_create_qp(p.srv.id, pd, &qa))
		rc_obs_violation(ctx->obs,
				 "qp rdma_create_qp with a PD of the list's "
				 "context fails (%m)");
	else
		ctx->ops->rdma_destroy_qp(p.srv.id);
	ctx->ops->ibv_dealloc_pd(pd);
free:
	ctx->ops->rdma_free_devices(list);
out:
	cm_pair_close(ctx, &p);
}

static void twice(const struct gd_row *row, struct rc_ctx *ctx)
{
	struct ibv_context **first, **second;
	int n1 = -7, n2 = -7, i;

	first = ctx->ops->rdma_get_devices(&n1);
	if (!first) {
		cm_broken(ctx, "the first rdma_get_devices");
		return;
	}
	RC_OBSERVE(ctx, second = ctx->ops->rdma_get_devices(&n2));
	if (second) {
		if (n1 != n2)
			rc_obs_violation(ctx->obs, "num_devices %d, then %d",
					 n1, n2);
		for (i = 0; i < n1 && i < n2; i++)
			if (!context_of(ctx, second, name_of(ctx, first[i])) ||
			    context_of(ctx, second, name_of(ctx, first[i])) !=
				    first[i])
				rc_obs_violation(ctx->obs,
						 "list %s: another context the "
						 "second time",
						 name_of(ctx, first[i]));
		ctx->ops->rdma_free_devices(second);
	}
	ctx->ops->rdma_free_devices(first);
}

static void no_descriptor(const struct gd_row *row, struct rc_ctx *ctx)
{
	struct rlimit old;
	struct ibv_context **list;
	int n = -7;

	if (!cm_no_fds(ctx, &old))
		return;
	RC_OBSERVE(ctx, list = ctx->ops->rdma_get_devices(&n));
	cm_fds_back(&old);
	if (list) {
		rc_obs_violation(ctx->obs,
				 "list %d devices with no descriptor to open "
				 "them with",
				 n);
		ctx->ops->rdma_free_devices(list);
	}
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct gd_row *row = r;

	if (!rc_need_call(ctx, ctx->ops->rdma_get_devices,
			  "rdma_get_devices") ||
	    !rc_need_call(ctx, ctx->ops->rdma_free_devices,
			  "rdma_free_devices"))
		return;
	row->check(row, ctx);
}

RC_TABLE_GROUP(group, "rdma_get_devices", RC_CONV_NULL_ERRNO, "rdmacm", rows,
	       run);
