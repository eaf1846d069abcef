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
 * - an unopened handle: a positive errno; so is an RMPP version for a
 *   class without RMPP
 * - every class 0x00-0xff as a client with an OUI: 0 or +ERRNO as Linux's
 *   rules for the class say
 */
#include "umad_mad.h"

#define DOC                                                              \
	"umad_register2() registers for a MAD agent using the provided " \
	"registration attributes"
#define DOC_RET "umad_register2() returns 0 on success and +ERRNO on failure."
#define DOC_FLAGS                                                          \
	"If a flag specified is not supported by the kernel, an "          \
	"error is returned, and the supported flags are returned in this " \
	"field."
#define DOC_MASK                                                     \
	"A bit mask which indicates which unsolicited methods this " \
	"agent should receive."

/* a flag no kernel defines (IB_USER_MAD_REG_FLAGS_CAP is bit 0 today) */
#define UNKNOWN_FLAG (1u << 30)

static mad_check registers_client, server_gets_requests,
	reports_supported_flags, accepts_user_rmpp, rejects_unopened_port,
	every_class_by_linux_rules, rejects_rmpp_version;

static const struct mad_row rows[] = {
	{ .c = { .id = "umad/register2/client",
		 .doc = DOC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "vendor range 1 class 0x0a, no methods: 0, and "
			 "umad_unregister takes the agent id it gave",
		 .needs = NEEDS_UMAD,
		 .contract = { RC_RETURNS(0) } },
	  .check = registers_client,
	  .mgmt_class = CLASS_V1 },
	{ .c = { .id = "umad/register2/server-gets-requests",
		 .doc = DOC_MASK,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the Get bit set: a peer's Get reaches the agent",
		 .needs = NEEDS_UMAD,
		 .contract = { RC_RETURNS(0) } },
	  .check = server_gets_requests,
	  .mgmt_class = CLASS_V1 },
	{ .c = { .id = "umad/register2/unsupported-flag",
		 .doc = DOC_FLAGS,
		 .basis = RC_BASIS_LINUX,
		 .note = "flag bit 30: a positive errno, and attr->flags then "
			 "holds the supported set, which Linux's user_mad "
			 "gives as IB_USER_MAD_REG_FLAGS_CAP, UMAD_USER_RMPP "
			 "(<rdma/ib_user_mad.h>)",
		 .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS() } },
	  .check = reports_supported_flags,
	  .mgmt_class = CLASS_V1 },
	{ .c = { .id = "umad/register2/user-rmpp-flag",
		 .doc = DOC,
		 .basis = RC_BASIS_LINUX,
		 .note = "UMAD_USER_RMPP, a flag Linux supports "
			 "(IB_USER_MAD_REG_FLAGS_CAP): registered",
		 .needs = NEEDS_UMAD,
		 .contract = { RC_RETURNS(0) } },
	  .check = accepts_user_rmpp,
	  .mgmt_class = CLASS_V1 },
	{ .c = { .id = "umad/register2/rmpp-version-class-without-rmpp",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_LINUX,
		 .note = "rmpp_version 1 for vendor range 1 class 0x0a, which "
			 "has no RMPP: the kernel refuses it "
			 "(ib_register_mad_agent, ib_is_mad_class_rmpp), a "
			 "positive errno",
		 .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS() } },
	  .check = rejects_rmpp_version,
	  .mgmt_class = CLASS_V1 },
	{ .c = { .id = "umad/register2/unopened-port",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS() } },
	  .check = rejects_unopened_port,
	  .mgmt_class = CLASS_V1 },
	{ .c = { .id = "umad/register2/every-class",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_LINUX,
		 .note = "all 256 classes, version 1, client, the row's OUI: the "
			 "kernel registers class 0 (no class: a client that only "
			 "sends, ib_umad_reg_agent2), 0x01 and 0x81 on "
			 "InfiniBand only (QP0), and 0x02-0x4f, and refuses 0x50 "
			 "up but for 0x81 (ib_register_mad_agent); the return "
			 "value is class 0's, the map of outcomes (r for 0, e for "
			 "+ERRNO) the output",
		 .needs = NEEDS_UMAD,
		 .shares = RC_SHARE_VENDOR_OUI,
		 .contract = { RC_RETURNS(0) } },
	  .check = every_class_by_linux_rules },
};

/* What every row registers: a vendor range 1 class, version 1. */
#define ATTR_OF(row)                                                     \
	{                                                                \
		.mgmt_class = (row)->mgmt_class, .mgmt_class_version = 1 \
	}
/* what *agent_id holds before the call */
#define AGENT_FILL 0xa5a5a5a5

static void rejects_unopened_port(const struct mad_row *row, struct rc_ctx *ctx)
{
	struct umad_reg_attr attr = ATTR_OF(row);
	uint32_t agent = AGENT_FILL;

	RC_OBSERVE(ctx, ctx->ops->umad_register2(BAD_PORTID, &attr, &agent));
}

/* Open the port, then the call under test with @attr: true when it
 * returned 0, with the agent id in @agent.  The port stays open. */
static bool registered(struct rc_ctx *ctx, struct umad_reg_attr *attr,
		       int *portid, uint32_t *agent)
{
	int ret;

	*agent = AGENT_FILL;
	if (!impl_open(ctx, portid))
		return false;
	RC_OBSERVE(ctx, ret = ctx->ops->umad_register2(*portid, attr, agent));
	return !ret;
}

/* The agent id the call gave is one umad_unregister takes. */
static void unregisters(struct rc_ctx *ctx, int portid, uint32_t agent)
{
	if (ctx->ops->umad_unregister(portid, agent))
		rc_obs_violation(ctx->obs,
				 "agent id %u: umad_unregister "
				 "refuses it",
				 agent);
}

/* Registered with @attr; the id then unregistered. */
static void registers_with(struct rc_ctx *ctx, struct umad_reg_attr *attr)
{
	uint32_t agent;
	int portid;

	if (registered(ctx, attr, &portid, &agent))
		unregisters(ctx, portid, agent);
}

static void registers_client(const struct mad_row *row, struct rc_ctx *ctx)
{
	struct umad_reg_attr attr = ATTR_OF(row);

	registers_with(ctx, &attr);
}

static void accepts_user_rmpp(const struct mad_row *row, struct rc_ctx *ctx)
{
	struct umad_reg_attr attr = ATTR_OF(row);

	attr.flags = UMAD_USER_RMPP;
	registers_with(ctx, &attr);
}

static void rejects_rmpp_version(const struct mad_row *row, struct rc_ctx *ctx)
{
	struct umad_reg_attr attr = ATTR_OF(row);
	uint32_t agent;
	int portid;

	attr.rmpp_version = 1;
	if (registered(ctx, &attr, &portid, &agent))
		unregisters(ctx, portid, agent);
}

static void server_gets_requests(const struct mad_row *row, struct rc_ctx *ctx)
{
	struct umad_reg_attr attr = ATTR_OF(row);
	uint32_t agent;
	int portid;

	attr.method_mask[0] = METHOD_BIT(METHOD_GET);
	if (registered(ctx, &attr, &portid, &agent) &&
	    expect_get_served(ctx, portid, row->mgmt_class, 9,
			      "agent: a Get did not reach it"))
		unregisters(ctx, portid, agent);
}

static void reports_supported_flags(const struct mad_row *row,
				    struct rc_ctx *ctx)
{
	struct umad_reg_attr attr = ATTR_OF(row);
	uint32_t agent = AGENT_FILL;
	int portid;

	attr.flags = UNKNOWN_FLAG;
	if (!impl_open(ctx, &portid))
		return;
	RC_OBSERVE(ctx, ctx->ops->umad_register2(portid, &attr, &agent));
	if (attr.flags != UMAD_USER_RMPP)
		rc_obs_violation(ctx->obs,
				 "flags 0x%x after the call, not the "
				 "supported set 0x%x",
				 attr.flags, UMAD_USER_RMPP);
	rc_obs_out(ctx->obs, &attr.flags, sizeof(attr.flags));
}

/* Register @mgmt_class with an OUI, as a client, and unregister it
 * again: the call's return value, and its outcome in @map. */
static int register_class(struct rc_ctx *ctx, int portid, int mgmt_class,
			  char map[256])
{
	const struct rc_ops *ops = ctx->ops;
	const uint8_t *oui = mad_oui(ctx);
	struct umad_reg_attr attr = {
		.mgmt_class = mgmt_class,
		.mgmt_class_version = 1,
		/* "The oui (in host order)" */
		.oui = (uint32_t)oui[0] << 16 | oui[1] << 8 | oui[2],
	};
	uint32_t agent;
	int ret = ops->umad_register2(portid, &attr, &agent);

	map[mgmt_class] = !ret ? 'r' : ret > 0 ? 'e' : '?';
	if (!ret)
		ops->umad_unregister(portid, agent);
	return ret;
}

/* the call observed is class 0's, the first */
static void every_class_by_linux_rules(const struct mad_row *row,
				       struct rc_ctx *ctx)
{
	char map[256];
	int portid, c;

	if (!impl_open(ctx, &portid))
		return;
	RC_OBSERVE(ctx, register_class(ctx, portid, 0, map));
	for (c = 1; c < 256; c++)
		register_class(ctx, portid, c, map);
	rc_obs_out(ctx->obs, map, sizeof(map));
	mad_check_class_map(ctx, map, 'r', 'e');
}

/* No row closes the port it opened: its process ends with it. */
static void run(const void *r, struct rc_ctx *ctx)
{
	const struct mad_row *row = r;
	const struct rc_ops *ops = ctx->ops;

	if (!NEED_MAD_CALLS(ctx) ||
	    !rc_need_call(ctx, ops->umad_register2, "umad_register2") ||
	    !rc_need_call(ctx, ops->umad_unregister, "umad_unregister"))
		return;
	row->check(row, ctx);
}

static const struct rc_group group = {
	.call = "umad_register2",
	.conv = RC_CONV_ERRNO_RET,
	.lib = "umad",
	.rows = rows,
	.row_size = sizeof(rows[0]),
	.nrows = ARRAY_SIZE(rows),
	.run = run,
	.shares = RC_SHARE_MAD,
};
RC_GROUP(group);
