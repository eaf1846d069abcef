// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * umad_unregister(3): "unregisters the specified agentid previously
 * registered using umad_register() or umad_register_oui()."  "returns 0 on
 * success and negative value on error as follows: -EINVAL invalid port
 * handle or agentid * (kernel error codes)".
 *
 * - a registered agent: 0, and requests for it stop arriving
 * - an id never registered, an id unregistered before, an unopened handle:
 *   -EINVAL
 */
#include "umad_mad.h"

#define DOC_OK "umad_unregister() unregisters the specified agentid " \
	"previously registered using umad_register() or umad_register_oui()."
#define DOC_EINVAL "-EINVAL invalid port handle or agentid"

enum { REGISTERED, NEVER, TWICE, BAD_PORT, SILENCED };

static const struct mad_row rows[] = {
	{ .c = { .id = "umad/unregister/registered", .doc = DOC_OK,
		 .basis = RC_BASIS_DOCUMENTED, .needs = NEEDS_UMAD,
		 .contract = { .ret = RC_RET_EQ } },
	  .mode = REGISTERED },
	{ .c = { .id = "umad/unregister/never-registered", .doc = DOC_EINVAL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "agent id 5 on a port with no agent",
		 .needs = NEEDS_UMAD, .contract = { RC_FAILS(EINVAL) } },
	  .mode = NEVER },
	{ .c = { .id = "umad/unregister/twice", .doc = DOC_EINVAL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = NEEDS_UMAD, .contract = { RC_FAILS(EINVAL) } },
	  .mode = TWICE },
	{ .c = { .id = "umad/unregister/unopened-port", .doc = DOC_EINVAL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = NEEDS_UMAD, .contract = { RC_FAILS(EINVAL) } },
	  .mode = BAD_PORT },
	{ .c = { .id = "umad/unregister/server-stops-receiving", .doc = DOC_OK,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "after it, a Get for the former server does not "
			 "arrive", .needs = NEEDS_UMAD,
		 .contract = { .ret = RC_RET_EQ } },
	  .mode = SILENCED },
};

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct mad_row *row = r;
	const struct rc_ops *ops = ctx->ops;
	uint8_t req[MAD_BUF_LEN], in[MAD_BUF_LEN];
	struct peer client;
	int portid, id = 5;

	if (!NEED_MAD_CALLS(ctx) ||
	    !rc_need_call(ctx, ops->umad_unregister, "umad_unregister"))
		return;
	if (row->mode == BAD_PORT) {
		RC_OBSERVE(ctx, ops->umad_unregister(BAD_PORTID, 0));
		return;
	}
	if (!impl_open(ctx, &portid))
		return;
	if (row->mode != NEVER &&
	    !impl_agent(ctx, portid, CLASS_V2,
			row->mode == SILENCED ? METHOD_BIT(METHOD_GET) : 0, &id))
		goto out;
	if (row->mode == TWICE)
		ops->umad_unregister(portid, id);
	RC_OBSERVE(ctx, ops->umad_unregister(portid, id));
	if (row->mode != SILENCED || !peer_open(ctx, &client, CLASS_V2, 0, 0))
		goto out;
	mad_build(ctx, req, CLASS_V2, METHOD_GET, 9);
	if (mad_address_self(ctx, req) && !peer_send(&client, req, 0, 0, 0) &&
	    mad_wait(ctx, ops->umad_get_fd(portid), in, sizeof(in),
		     QUIET_MS) > 0)
		rc_obs_violation(ctx->obs, "a Get reached the unregistered "
				 "agent");
	peer_close(&client);
out:
	ops->umad_close_port(portid);
}

static const struct rc_group group = {
	.call = "umad_unregister", .conv = RC_CONV_NEG_ERRNO,
	.lib = "umad", .rows = rows,
	.row_size = sizeof(rows[0]), .nrows = ARRAY_SIZE(rows), .run = run,
	.shares = RC_SHARE_VENDOR_OUI,
};
RC_GROUP(group);
