// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_get_device_guid(3): "returns the Global Unique IDentifier (GUID) of
 * the RDMA device device."  "returns the GUID of the device in network
 * byte order."
 *
 * - every device of the list: its node GUID as sysfs has it, in network
 *   byte order (documented); the target's 8 bytes are compared across
 *   the implementations (rxe's GUID comes from a MAC address: its bytes
 *   are not the same when swapped)
 * - the same as ibv_query_device's node_guid, "in network byte order"
 *   too (documented)
 * - the same from a second list (state across calls)
 */
#include <endian.h>
#include <string.h>

#include "verbs_ctl.h"
#include "../../harness/device.h"

#define DOC_GUID                                           \
	"ibv_get_device_guid() returns the Global Unique " \
	"IDentifier (GUID) of the RDMA device device."
#define DOC_ORDER                                                  \
	"ibv_get_device_guid() returns the GUID of the device in " \
	"network byte order."

static vc_check every_device, as_query_device, second_list;

static const struct vc_row rows[] = {
	{ .c = { .id = "verbs/get_device_guid/node-guid-network-order",
		 .doc = DOC_ORDER,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "each entry's: sysfs's node_guid of its device, "
			 "stored big endian",
		 .needs = VC_NEEDS,
		 .contract = { RC_ANY_RETURN } },
	  .check = every_device,
	  .rung = VL_LIST },
	{ .c = { .id = "verbs/get_device_guid/as-query-device",
		 .doc = DOC_GUID,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the target's: ibv_query_device's node_guid",
		 .needs = VC_NEEDS,
		 .contract = { RC_ANY_RETURN } },
	  .check = as_query_device,
	  .rung = VL_CONTEXT },
	{ .c = { .id = "verbs/get_device_guid/second-list",
		 .doc = DOC_GUID,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the target of a second list: the same GUID",
		 .needs = VC_NEEDS,
		 .contract = { RC_ANY_RETURN } },
	  .check = second_list,
	  .rung = VL_LIST },
};

/* sysfs's node_guid of @ca in network byte order, or 0 */
static uint64_t sysfs_guid(const char *ca)
{
	char buf[64];
	uint64_t g;

	if (rc_sysfs_read(buf, sizeof(buf), RC_SYSFS_IB "/%s/node_guid", ca) ||
	    rc_guid_parse(buf, &g))
		return 0;
	return htobe64(g);
}

static void every_device(const struct vc_row *row, struct rc_ctx *ctx,
			 struct vl *l)
{
	uint64_t g, want;
	const char *name;
	int i;

	RC_OBSERVE(ctx, g = ctx->ops->ibv_get_device_guid(l->dev));
	rc_obs_out(ctx->obs, &g, sizeof(g));
	for (i = 0; l->list[i]; i++) {
		name = ctx->ops->ibv_get_device_name(l->list[i]);
		g = ctx->ops->ibv_get_device_guid(l->list[i]);
		want = name ? sysfs_guid(name) : 0;
		if (g != want)
			rc_obs_violation(ctx->obs,
					 "guid of %s: %016llx, "
					 "sysfs's in network order %016llx",
					 name ? name : "?",
					 (unsigned long long)g,
					 (unsigned long long)want);
	}
}

static void as_query_device(const struct vc_row *row, struct rc_ctx *ctx,
			    struct vl *l)
{
	struct ibv_device_attr a;
	uint64_t g;

	if (!vc_attr(ctx, l, &a))
		return;
	RC_OBSERVE(ctx, g = ctx->ops->ibv_get_device_guid(l->dev));
	if (g != a.node_guid)
		rc_obs_violation(ctx->obs, "guid %016llx, node_guid %016llx",
				 (unsigned long long)g,
				 (unsigned long long)a.node_guid);
	rc_obs_out(ctx->obs, &g, sizeof(g));
}

static void second_list(const struct vc_row *row, struct rc_ctx *ctx,
			struct vl *l)
{
	struct ibv_device **list = ctx->ops->ibv_get_device_list(NULL);
	struct ibv_device *d = list ? vl_target(ctx, list) : NULL;
	uint64_t first = ctx->ops->ibv_get_device_guid(l->dev), g;

	if (!d) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "a second list with "
			     "the target (set-up): %m");
		if (list)
			ctx->ops->ibv_free_device_list(list);
		return;
	}
	RC_OBSERVE(ctx, g = ctx->ops->ibv_get_device_guid(d));
	if (g != first)
		rc_obs_violation(ctx->obs,
				 "guid %016llx, the first list's "
				 "%016llx",
				 (unsigned long long)g,
				 (unsigned long long)first);
	rc_obs_out(ctx->obs, &g, sizeof(g));
	ctx->ops->ibv_free_device_list(list);
}

VC_GROUP(guid, ibv_get_device_guid, RC_CONV_VALUE, rows);
