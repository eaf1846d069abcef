// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_get_device_index(3): "returns stable IB device index as it is
 * assigned by the kernel."  "returns an index, or -1 if the kernel
 * doesn't support device indexes."
 *
 * - the target's: the kernel's index of the device, as RDMA netlink
 *   gives it (`rdma dev show`; verbs_nl.h) (documented); compared across
 *   the implementations
 * - every device of the list: its own kernel index, none twice
 *   (documented: "as it is assigned by the kernel")
 * - stable: a second list gives the same (documented)
 * Every kernel the suite runs on has device indexes (4.17 and later):
 * no row takes the -1.
 */
#include "verbs_ctl.h"
#include "verbs_nl.h"

#define DOC_INDEX                                                \
	"ibv_get_device_index() returns stable IB device index " \
	"as it is assigned by the kernel."

static vc_check target_index, every_device, second_list;

static const struct vc_row rows[] = {
	{ .c = { .id = "verbs/get_device_index/kernel-index",
		 .doc = DOC_INDEX,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the target's: RDMA netlink's index of the device "
			 "(as rdma dev show has it)",
		 .needs = VC_NEEDS,
		 .contract = { RC_ANY_RETURN } },
	  .check = target_index,
	  .rung = VL_LIST },
	{ .c = { .id = "verbs/get_device_index/every-device",
		 .doc = DOC_INDEX,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "each entry's: its device's netlink index",
		 .needs = VC_NEEDS,
		 .contract = { RC_ANY_RETURN } },
	  .check = every_device,
	  .rung = VL_LIST },
	{ .c = { .id = "verbs/get_device_index/stable",
		 .doc = DOC_INDEX,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the target of a second list: the same index",
		 .needs = VC_NEEDS,
		 .contract = { RC_ANY_RETURN } },
	  .check = second_list,
	  .rung = VL_LIST },
};

static int kernel_index(const char *name)
{
	return vn_dev_index(name);
}

static void target_index(const struct vc_row *row, struct rc_ctx *ctx,
			 struct vl *l)
{
	int want = kernel_index(ctx->target->ca), i;

	if (want < 0) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "RDMA netlink has no index of %s",
			     ctx->target->ca);
		return;
	}
	RC_OBSERVE(ctx, i = ctx->ops->ibv_get_device_index(l->dev));
	if (i != want)
		rc_obs_violation(ctx->obs, "index %d, the kernel's is %d", i,
				 want);
	rc_obs_out(ctx->obs, &i, sizeof(i));
}

static void every_device(const struct vc_row *row, struct rc_ctx *ctx,
			 struct vl *l)
{
	int seen[64], n, j, want;
	const char *name;

	RC_OBSERVE(ctx, ctx->ops->ibv_get_device_index(l->list[0]));
	for (n = 0; l->list[n] && n < 64; n++) {
		name = ctx->ops->ibv_get_device_name(l->list[n]);
		seen[n] = ctx->ops->ibv_get_device_index(l->list[n]);
		want = name ? kernel_index(name) : -2;
		if (seen[n] != want)
			rc_obs_violation(ctx->obs,
					 "index of %s: %d, the "
					 "kernel's is %d",
					 name ? name : "?", seen[n], want);
		for (j = 0; j < n; j++)
			if (seen[j] == seen[n])
				rc_obs_violation(ctx->obs,
						 "index %d: two "
						 "devices",
						 seen[n]);
	}
}

static void second_list(const struct vc_row *row, struct rc_ctx *ctx,
			struct vl *l)
{
	struct ibv_device **list = ctx->ops->ibv_get_device_list(NULL);
	struct ibv_device *d = list ? vl_target(ctx, list) : NULL;
	int first = ctx->ops->ibv_get_device_index(l->dev), i;

	if (!d) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "a second list with "
			     "the target (set-up): %m");
		if (list)
			ctx->ops->ibv_free_device_list(list);
		return;
	}
	RC_OBSERVE(ctx, i = ctx->ops->ibv_get_device_index(d));
	if (i != first)
		rc_obs_violation(ctx->obs, "index %d, the first list's %d", i,
				 first);
	rc_obs_out(ctx->obs, &i, sizeof(i));
	ctx->ops->ibv_free_device_list(list);
}

VC_GROUP(index, ibv_get_device_index, RC_CONV_VALUE, rows);
