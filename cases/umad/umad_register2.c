// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * umad_register2(3): "registers for a MAD agent using the provided
 * registration attributes"; "agent_id returned on success"; "flags ...
 * If a flag specified is not supported by the kernel, an error is
 * returned, and the supported flags are returned in this field."
 * "method_mask ... Setting this array to 0 will result in the agent only
 * receiving response MADs for which a request was sent."  "returns 0 on
 * success and +ERRNO on failure."
 *
 * - a client of a vendor range 1 class: 0, and an agent id that
 *   umad_unregister then takes
 * - a server (a method bit set): a peer's Get reaches it
 * - a flag the kernel does not know: a positive errno, and the supported
 *   flags in attr->flags
 * - an unopened handle: a positive errno
 */
#include "umad_mad.h"

#define DOC "umad_register2() registers for a MAD agent using the provided " \
	"registration attributes"
#define DOC_RET "umad_register2() returns 0 on success and +ERRNO on failure."
#define DOC_FLAGS "If a flag specified is not supported by the kernel, an " \
	"error is returned, and the supported flags are returned in this " \
	"field."
#define DOC_MASK "A bit mask which indicates which unsolicited methods this " \
	"agent should receive."

enum { CLIENT, SERVER, BAD_FLAG, RMPP_FLAG, BAD_PORT };

/* a flag no kernel defines (IB_USER_MAD_REG_FLAGS_CAP is bit 0 today) */
#define UNKNOWN_FLAG (1u << 30)

static const struct mad_row rows[] = {
	{ .c = { .id = "umad/register2/client", .doc = DOC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "vendor range 1 class 0x0a, no methods: 0, and "
			 "umad_unregister takes the agent id it gave",
		 .needs = NEEDS_UMAD, .contract = { RC_RETURNS(0) } },
	  .mode = CLIENT, .mgmt_class = CLASS_V1 },
	{ .c = { .id = "umad/register2/server-gets-requests", .doc = DOC_MASK,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the Get bit set: a peer's Get reaches the agent",
		 .needs = NEEDS_UMAD, .contract = { RC_RETURNS(0) } },
	  .mode = SERVER, .mgmt_class = CLASS_V1 },
	{ .c = { .id = "umad/register2/unsupported-flag", .doc = DOC_FLAGS,
		 .basis = RC_BASIS_LINUX,
		 .note = "flag bit 30: a positive errno, and attr->flags then "
			 "holds the supported set, which Linux's user_mad "
			 "gives as IB_USER_MAD_REG_FLAGS_CAP, UMAD_USER_RMPP "
			 "(<rdma/ib_user_mad.h>)",
		 .needs = NEEDS_UMAD, .contract = { RC_FAILS() } },
	  .mode = BAD_FLAG, .mgmt_class = CLASS_V1 },
	{ .c = { .id = "umad/register2/user-rmpp-flag", .doc = DOC,
		 .basis = RC_BASIS_LINUX,
		 .note = "UMAD_USER_RMPP, a flag Linux supports "
			 "(IB_USER_MAD_REG_FLAGS_CAP): registered",
		 .needs = NEEDS_UMAD, .contract = { RC_RETURNS(0) } },
	  .mode = RMPP_FLAG, .mgmt_class = CLASS_V1 },
	{ .c = { .id = "umad/register2/unopened-port", .doc = DOC_RET,
		 .basis = RC_BASIS_DOCUMENTED, .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS() } }, .mode = BAD_PORT,
	  .mgmt_class = CLASS_V1 },
};

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct mad_row *row = r;
	const struct rc_ops *ops = ctx->ops;
	struct umad_reg_attr attr = { .mgmt_class = row->mgmt_class,
				      .mgmt_class_version = 1 };
	uint8_t req[MAD_BUF_LEN], in[MAD_BUF_LEN];
	uint32_t agent = 0xa5a5a5a5;
	struct peer client;
	int portid, ret;

	if (!NEED_MAD_CALLS(ctx) ||
	    !rc_need_call(ctx, ops->umad_register2, "umad_register2") ||
	    !rc_need_call(ctx, ops->umad_unregister, "umad_unregister"))
		return;
	if (row->mode == BAD_PORT) {
		RC_OBSERVE(ctx, ops->umad_register2(BAD_PORTID, &attr, &agent));
		return;
	}
	if (!impl_open(ctx, &portid))
		return;
	if (row->mode == SERVER)
		attr.method_mask[0] = METHOD_BIT(METHOD_GET);
	if (row->mode == BAD_FLAG)
		attr.flags = UNKNOWN_FLAG;
	if (row->mode == RMPP_FLAG)
		attr.flags = UMAD_USER_RMPP;
	RC_OBSERVE(ctx, ret = ops->umad_register2(portid, &attr, &agent));
	if (row->mode == BAD_FLAG) {
		if (attr.flags != UMAD_USER_RMPP)
			rc_obs_violation(ctx->obs, "flags 0x%x after the call, "
					 "not the supported set 0x%x",
					 attr.flags, UMAD_USER_RMPP);
		rc_obs_out(ctx->obs, &attr.flags, sizeof(attr.flags));
		return;
	}
	if (ret)
		return;
	if (row->mode == SERVER) {
		if (!peer_open(ctx, &client, row->mgmt_class, 0, 0))
			return;
		mad_build(ctx, req, row->mgmt_class, METHOD_GET, 9);
		if (mad_address_self(ctx, req) &&
		    (peer_send(&client, req, 0, 0, 0) ||
		     mad_wait(ctx, ops->umad_get_fd(portid), in, sizeof(in),
			      ARRIVE_MS) <= 0))
			rc_obs_violation(ctx->obs, "agent: a Get did not reach "
					 "it");
		peer_close(&client);
	}
	if (ops->umad_unregister(portid, agent))
		rc_obs_violation(ctx->obs, "agent id %u: umad_unregister "
				 "refuses it", agent);
}

static const struct rc_group group = {
	.call = "umad_register2", .conv = RC_CONV_ERRNO_RET,
	.lib = "umad", .rows = rows,
	.row_size = sizeof(rows[0]), .nrows = ARRAY_SIZE(rows), .run = run,
	.shares = RC_SHARE_MAD,
};
RC_GROUP(group);
