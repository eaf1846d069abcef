// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * umad_unregister(3): "unregisters the specified agentid previously
 * registered using umad_register() or umad_register_oui()."  "returns 0 on
 * success and negative value on error as follows: -EINVAL invalid port
 * handle or agentid * (kernel error codes)".
 *
 * - a registered agent: 0, and requests for it stop arriving; of three,
 *   the middle one only: the others unregister after it, and a send
 *   with its id fails -EINVAL where one with another's is sent
 * - an id never registered, an id unregistered before, an unopened handle:
 *   -EINVAL
 */
#include "umad_mad.h"

#define DOC_OK                                                 \
	"umad_unregister() unregisters the specified agentid " \
	"previously registered using umad_register() or umad_register_oui()."
#define DOC_EINVAL "-EINVAL invalid port handle or agentid"

static mad_check unregisters_agent, rejects_never_registered,
	rejects_beside_agent, rejects_second_unregister, rejects_unopened_port,
	server_stops_receiving, others_stay, gone_for_send, last_gone_for_send;

static const struct mad_row rows[] = {
	{ .c = { .id = "umad/unregister/registered",
		 .doc = DOC_OK,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = NEEDS_UMAD,
		 .contract = { .ret = RC_RET_EQ } },
	  .check = unregisters_agent },
	{ .c = { .id = "umad/unregister/never-registered",
		 .doc = DOC_EINVAL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "agent id 5 on a port with no agent",
		 .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS(EINVAL) } },
	  .check = rejects_never_registered },
	{ .c = { .id = "umad/unregister/agent-id-32",
		 .doc = DOC_EINVAL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the first id beyond the 32 a port can have "
			 "(IB_UMAD_MAX_AGENTS), on a port whose agent 0 is "
			 "registered",
		 .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS(EINVAL) } },
	  .check = rejects_beside_agent,
	  .arg = 32 },
	{ .c = { .id = "umad/unregister/agent-id-negative",
		 .doc = DOC_EINVAL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "agent id -1 on a port whose agent 0 is registered",
		 .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS(EINVAL) } },
	  .check = rejects_beside_agent,
	  .arg = -1 },
	{ .c = { .id = "umad/unregister/twice",
		 .doc = DOC_EINVAL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS(EINVAL) } },
	  .check = rejects_second_unregister },
	{ .c = { .id = "umad/unregister/unopened-port",
		 .doc = DOC_EINVAL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS(EINVAL) } },
	  .check = rejects_unopened_port },
	{ .c = { .id = "umad/unregister/server-stops-receiving",
		 .doc = DOC_OK,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "after it, a Get for the former server does not "
			 "arrive",
		 .needs = NEEDS_UMAD,
		 .contract = { .ret = RC_RET_EQ } },
	  .check = server_stops_receiving },
	{ .c = { .id = "umad/unregister/one-of-three-others-stay",
		 .doc = DOC_OK,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "three client agents on one port, the middle one "
			 "unregistered: \"the specified agentid\" only, the "
			 "first and the last then unregister with 0",
		 .needs = NEEDS_UMAD,
		 .contract = { .ret = RC_RET_EQ } },
	  .check = others_stay },
	{ .c = { .id = "umad/unregister/agent-gone-for-send",
		 .doc = DOC_OK,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "where it lands: the middle of three agents "
			 "unregistered, a Get sent with its id fails as "
			 "umad_send(3) says for an invalid agentid, -EINVAL, and "
			 "one with the first agent's id is sent (0)",
		 .needs = NEEDS_UMAD,
		 .contract = { .ret = RC_RET_EQ } },
	  .check = gone_for_send },
	{ .c = { .id = "umad/unregister/last-agent-gone-for-send",
		 .doc = DOC_OK,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "32 agents on a port, the most a port has "
			 "(IB_UMAD_MAX_AGENTS), the last (id 31) unregistered "
			 "(0, observed); a Get sent with its id fails as "
			 "umad_send(3) says for an invalid agentid, -EINVAL",
		 .needs = NEEDS_UMAD,
		 .contract = { .ret = RC_RET_EQ } },
	  .check = last_gone_for_send },
};

/* Open the port and register an agent of CLASS_V2 serving @methods (0: a
 * client); false (BROKEN) when either fails.  close_port in any case. */
static bool open_agent(struct rc_ctx *ctx, int *portid, uint32_t methods,
		       int *id)
{
	return impl_open(ctx, portid) &&
	       impl_agent(ctx, *portid, CLASS_V2, methods, id);
}

static void close_port(struct rc_ctx *ctx, int portid)
{
	if (portid >= 0)
		ctx->ops->umad_close_port(portid);
}

static void unregisters_agent(const struct mad_row *row, struct rc_ctx *ctx)
{
	int portid, id;

	if (open_agent(ctx, &portid, 0, &id))
		RC_OBSERVE(ctx, ctx->ops->umad_unregister(portid, id));
	close_port(ctx, portid);
}

static void rejects_never_registered(const struct mad_row *row,
				     struct rc_ctx *ctx)
{
	int portid;

	if (!impl_open(ctx, &portid))
		return;
	RC_OBSERVE(ctx, ctx->ops->umad_unregister(portid, 5));
	ctx->ops->umad_close_port(portid);
}

/* agent id @row->arg on a port whose only agent is the first it got */
static void rejects_beside_agent(const struct mad_row *row, struct rc_ctx *ctx)
{
	int portid, id;

	if (open_agent(ctx, &portid, 0, &id))
		RC_OBSERVE(ctx, ctx->ops->umad_unregister(portid, row->arg));
	close_port(ctx, portid);
}

static void rejects_second_unregister(const struct mad_row *row,
				      struct rc_ctx *ctx)
{
	int portid, id;

	if (open_agent(ctx, &portid, 0, &id)) {
		ctx->ops->umad_unregister(portid, id);
		RC_OBSERVE(ctx, ctx->ops->umad_unregister(portid, id));
	}
	close_port(ctx, portid);
}

static void rejects_unopened_port(const struct mad_row *row, struct rc_ctx *ctx)
{
	RC_OBSERVE(ctx, ctx->ops->umad_unregister(BAD_PORTID, 0));
}

static void server_stops_receiving(const struct mad_row *row,
				   struct rc_ctx *ctx)
{
	uint8_t req[MAD_BUF_LEN], in[MAD_BUF_LEN];
	struct peer client;
	int portid, id;

	if (!open_agent(ctx, &portid, METHOD_BIT(METHOD_GET), &id))
		goto out;
	RC_OBSERVE(ctx, ctx->ops->umad_unregister(portid, id));
	if (!peer_open(ctx, &client, CLASS_V2, 0, 0))
		goto out;
	mad_build(ctx, req, CLASS_V2, METHOD_GET, 9);
	if (mad_address_self(ctx, req) && !peer_send(&client, req, 0, 0, 0) &&
	    mad_wait(ctx, ctx->ops->umad_get_fd(portid), in, sizeof(in),
		     QUIET_MS) > 0)
		rc_obs_violation(ctx->obs, "a Get reached the unregistered "
					   "agent");
	peer_close(&client);
out:
	close_port(ctx, portid);
}

/* Three client agents of CLASS_V2 on a port of their own, the middle one
 * unregistered by the call under test; false when that cannot be set up */
static bool middle_of_three(struct rc_ctx *ctx, int *portid, int id[3])
{
	int i;

	if (!impl_open(ctx, portid))
		return false;
	for (i = 0; i < 3; i++)
		if (!impl_agent(ctx, *portid, CLASS_V2, 0, &id[i]))
			return false;
	RC_OBSERVE(ctx, ctx->ops->umad_unregister(*portid, id[1]));
	return true;
}

static void others_stay(const struct mad_row *row, struct rc_ctx *ctx)
{
	int portid = -1, id[3], i, ret;

	if (middle_of_three(ctx, &portid, id))
		for (i = 0; i < 3; i += 2) {
			ret = ctx->ops->umad_unregister(portid, id[i]);
			if (ret)
				rc_obs_violation(ctx->obs,
						 "agent %d (of %d, %d, %d) "
						 "then unregistered with %d",
						 id[i], id[0], id[1], id[2],
						 ret);
		}
	close_port(ctx, portid);
}

/* A Get of CLASS_V2 to the own port, in @req: what the agents send */
static bool get_to_self(struct rc_ctx *ctx, uint8_t req[MAD_BUF_LEN])
{
	mad_build(ctx, req, CLASS_V2, METHOD_GET, 1);
	return mad_address_self(ctx, req);
}

static void gone_for_send(const struct mad_row *row, struct rc_ctx *ctx)
{
	uint8_t req[MAD_BUF_LEN];
	int portid = -1, id[3], gone, kept;

	if (!middle_of_three(ctx, &portid, id) || !get_to_self(ctx, req))
		goto out;
	gone = ctx->ops->umad_send(portid, id[1], req, MAD_SIZE, 0, 0);
	kept = ctx->ops->umad_send(portid, id[0], req, MAD_SIZE, 0, 0);
	if (gone != -EINVAL || kept)
		rc_obs_violation(ctx->obs,
				 "umad_send with the unregistered agent %d "
				 "returned %d (not -EINVAL), with agent %d %d",
				 id[1], gone, id[0], kept);
out:
	close_port(ctx, portid);
}

static void last_gone_for_send(const struct mad_row *row, struct rc_ctx *ctx)
{
	uint8_t req[MAD_BUF_LEN];
	int portid, id, i, gone;

	if (!impl_open(ctx, &portid))
		return;
	for (i = 0; i < MAD_AGENTS_PER_PORT; i++)
		if (!impl_agent(ctx, portid, CLASS_V2, 0, &id))
			goto out;
	RC_OBSERVE(ctx, ctx->ops->umad_unregister(portid, id));
	if (!get_to_self(ctx, req))
		goto out;
	gone = ctx->ops->umad_send(portid, id, req, MAD_SIZE, 0, 0);
	if (gone != -EINVAL)
		rc_obs_violation(ctx->obs,
				 "umad_send with the unregistered agent %d "
				 "returned %d, not -EINVAL",
				 id, gone);
out:
	close_port(ctx, portid);
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct mad_row *row = r;

	if (!NEED_MAD_CALLS(ctx) ||
	    !rc_need_call(ctx, ctx->ops->umad_unregister, "umad_unregister"))
		return;
	row->check(row, ctx);
}

static const struct rc_group group = {
	.call = "umad_unregister",
	.conv = RC_CONV_NEG_ERRNO,
	.lib = "umad",
	.rows = rows,
	.row_size = sizeof(rows[0]),
	.nrows = ARRAY_SIZE(rows),
	.run = run,
	.shares = RC_SHARE_VENDOR_OUI,
};
RC_GROUP(group);
