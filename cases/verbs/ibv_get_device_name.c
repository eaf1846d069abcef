// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_get_device_name(3): "returns a human-readable name associated with
 * the RDMA device device."  "returns a pointer to the device name, or NULL
 * if the request fails."
 *
 * - every device of the list is named as the kernel names the device
 *   behind its uverbs node (sysfs's ibdev of ibv_device's dev_name)
 *   (documented)
 * - the device an open context holds is named as the list's entry was
 *   (state across calls)
 * - names are compared across the implementations
 * - no device at all (NULL): NULL (interpretation: the request cannot be
 *   met)
 */
#include <string.h>

#include "verbs_ctl.h"
#include "../../harness/device.h"

#define DOC_NAME                                               \
	"ibv_get_device_name() returns a human-readable name " \
	"associated with the RDMA device device."
#define DOC_RET                                                  \
	"ibv_get_device_name() returns a pointer to the device " \
	"name, or NULL if the request fails."

static vc_check every_device, context_device, null_device;

static const struct vc_row rows[] = {
	{ .c = { .id = "verbs/get_device_name/every-device-as-sysfs",
		 .doc = DOC_NAME,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "each entry's name is the ibdev of its uverbs node in "
			 "sysfs",
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = every_device,
	  .rung = VL_LIST },
	{ .c = { .id = "verbs/get_device_name/open-context-device",
		 .doc = DOC_NAME,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "context->device of an open context: the name its list "
			 "entry had",
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = context_device,
	  .rung = VL_CONTEXT },
	{ .c = { .id = "verbs/get_device_name/null-device",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "no device: the request cannot be met, so NULL",
		 .contract = { RC_FAILS() } },
	  .check = null_device,
	  .rung = VC_BARE },
};

static void every_device(const struct vc_row *row, struct rc_ctx *ctx,
			 struct vl *l)
{
	const char *s = NULL, *target = NULL;
	char want[64];
	int i;

	RC_OBSERVE(ctx, s = ctx->ops->ibv_get_device_name(l->list[0]));
	for (i = 0; l->list[i]; i++) {
		s = ctx->ops->ibv_get_device_name(l->list[i]);
		if (rc_sysfs_read(want, sizeof(want),
				  "/sys/class/"
				  "infiniband_verbs/%s/ibdev",
				  l->list[i]->dev_name)) {
			rc_obs_violation(ctx->obs,
					 "dev_name %.32s: no such "
					 "uverbs node",
					 l->list[i]->dev_name);
			continue;
		}
		if (!s || strcmp(s, want))
			rc_obs_violation(ctx->obs, "name %.32s, sysfs says %s",
					 s ? s : "(NULL)", want);
		if (!strcmp(want, ctx->target->ca))
			target = s;
	}
	/* the target's: the two lists' orders may differ */
	if (target)
		rc_obs_out(ctx->obs, target, strlen(target));
}

static void context_device(const struct vc_row *row, struct rc_ctx *ctx,
			   struct vl *l)
{
	const char *s;

	RC_OBSERVE(ctx, s = ctx->ops->ibv_get_device_name(l->ctx->device));
	if (s && strcmp(s, ctx->target->ca))
		rc_obs_violation(ctx->obs,
				 "name %.32s of the context's device, "
				 "its entry's was %s",
				 s, ctx->target->ca);
	if (s)
		rc_obs_out(ctx->obs, s, strlen(s));
}

static void null_device(const struct vc_row *row, struct rc_ctx *ctx,
			struct vl *l)
{
	RC_OBSERVE(ctx, ctx->ops->ibv_get_device_name(NULL));
}

VC_GROUP(name, ibv_get_device_name, RC_CONV_NULL_ERRNO, rows);
