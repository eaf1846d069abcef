// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * umad_register(3): "registers the specified management class, management
 * version, and whether RMPP is being used for the port specified by the
 * portid parameter."  Servers and clients as in umad_register_oui(3).
 * "returns non-negative agent id number on success, and a negative value
 * on error as follows: -EINVAL invalid port handle -EPERM registration
 * failed".
 *
 * - a vendor range 1 class, as client and as server; the server gets the
 *   requests for its method
 * - an unopened handle: -EINVAL
 * - a second server for the same class, version and method: -EPERM
 * - the subnet management class (QP0): InfiniBand only
 * - every class 0x00-0xff as a client: registered or -EPERM as Linux's
 *   rules for the class say; vendor range 2 registers (no OUI is named)
 * - InfiniBand fabric: the SMI classes answered on QP0 (0x81 by the node's
 *   own SMA, directed route; 0x01 by a remote node's SMA, by LID), and the
 *   SA class answered by the subnet manager
 */
#include "umad_fabric.h"

#define DOC_RET                                                    \
	"umad_register() returns non-negative agent id number on " \
	"success"
#define DOC_EINVAL "-EINVAL invalid port handle"
#define DOC_REGISTERS                                                 \
	"umad_register() registers the specified management class, "  \
	"management version, and whether RMPP is being used for the " \
	"port specified by the portid parameter."
#define DOC_EPERM "-EPERM  registration failed"
#define DOC_SERVER                                                       \
	"If method_mask array is provided, the caller is "               \
	"registered as a replier (server) for the methods having their " \
	"corresponding bit on in the method_mask."

/* .arg of the every-class rows: the classes each judges */
#define CLASSES_BUT_VENDOR_RANGE2 0
#define VENDOR_RANGE2_CLASSES 1

static mad_check registers_client, second_client_id_works, agent_33_refused,
	every_class_by_linux_rules, rejects_unopened_port,
	rejects_second_server, server_gets_requests,
	smi_directed_route_answered, smi_lid_routed_answered, sa_answered_by_sm;

static const struct mad_row rows[] = {
	{ .c = { .id = "umad/register/vendor-class-client",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = NEEDS_UMAD,
		 .contract = { RC_SUCCEEDS } },
	  .check = registers_client,
	  .mgmt_class = CLASS_V1,
	  .arg = 1 },
	{ .c = { .id = "umad/register/second-client-id-works",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "two clients of 0x0a on one port: two different ids, "
			 "the second observed; each is an agent id "
			 "umad_unregister then takes (0)",
		 .needs = NEEDS_UMAD,
		 .contract = { RC_SUCCEEDS } },
	  .check = second_client_id_works,
	  .mgmt_class = CLASS_V1,
	  .arg = 1 },
	{ .c = { .id = "umad/register/agent-33-refused",
		 .doc = DOC_EPERM,
		 .basis = RC_BASIS_LINUX,
		 .note = "32 clients of 0x0a on one port, each a different "
			 "id that umad_unregister takes; the 33rd is refused: "
			 "Linux keeps 32 agents per descriptor "
			 "(IB_UMAD_MAX_AGENTS), and the page gives -EPERM for a "
			 "failed registration",
		 .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS(EPERM) } },
	  .check = agent_33_refused,
	  .mgmt_class = CLASS_V1,
	  .arg = 1 },
	{ .c = { .id = "umad/register/unopened-port",
		 .doc = DOC_EINVAL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS(EINVAL) } },
	  .check = rejects_unopened_port,
	  .mgmt_class = CLASS_V1,
	  .arg = 1 },
	{ .c = { .id = "umad/register/second-server-same-method",
		 .doc = DOC_EPERM,
		 .basis = RC_BASIS_LINUX,
		 .note = "the kernel's user_mad allows one replier per class "
			 "and method (ib_register_mad_agent), and the page gives "
			 "-EPERM for a failed registration",
		 .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS(EPERM) } },
	  .check = rejects_second_server,
	  .mgmt_class = CLASS_V1,
	  .arg = 1 },
	{ .c = { .id = "umad/register/server-gets-requests",
		 .doc = DOC_SERVER,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = NEEDS_UMAD,
		 .contract = { RC_SUCCEEDS } },
	  .check = server_gets_requests,
	  .mgmt_class = CLASS_V1,
	  .arg = 1 },
	{ .c = { .id = "umad/register/subnet-management-class",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "class 0x01 lives on QP0, which only InfiniBand has",
		 .needs = NEEDS_UMAD | RC_NEED_IB | RC_NEED_ROOT,
		 .contract = { RC_SUCCEEDS } },
	  .check = registers_client,
	  .mgmt_class = 0x01,
	  .arg = 1 },
	{ .c = { .id = "umad/register/every-class",
		 .doc = DOC_EPERM,
		 .basis = RC_BASIS_LINUX,
		 .note = "every class but vendor range 2, version 1, client, "
			 "no RMPP: the kernel registers class 0 (no class: a "
			 "client that only sends, ib_umad_reg_agent), 0x01 and "
			 "0x81 on InfiniBand only (QP0), and 0x02-0x2f; it "
			 "refuses 0x50 up but for 0x81 (ib_register_mad_agent); "
			 "a refusal is -EPERM; the map of outcomes (r or p, - "
			 "for vendor range 2) is the output",
		 .needs = NEEDS_UMAD,
		 .contract = { RC_SUCCEEDS } },
	  .check = every_class_by_linux_rules,
	  .arg = CLASSES_BUT_VENDOR_RANGE2 },
	{ .c = { .id = "umad/register/every-vendor-range-2-class",
		 .doc = DOC_REGISTERS,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "0x30-0x4f, version 1, client: the page names no OUI "
			 "and refuses no class, so each registers (the kernel "
			 "registers vendor range 2 only with an OUI: which one "
			 "the call gives it is its own choice)",
		 .needs = NEEDS_UMAD,
		 .shares = RC_SHARE_ALONE,
		 .contract = { RC_SUCCEEDS } },
	  .check = every_class_by_linux_rules,
	  .arg = VENDOR_RANGE2_CLASSES },
	{ .c = { .id = "umad/register/smi-directed-route-answered",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "class 0x81, directed-route SMPs: "
			 "the agent is on QP0, and a SubnGet(NodeInfo) over 0 hops "
			 "is answered by the node's own SMA with its node GUID",
		 .needs = NEEDS_SMI,
		 .contract = { RC_SUCCEEDS } },
	  .check = smi_directed_route_answered },
	{ .c = { .id = "umad/register/smi-lid-routed-to-remote-node",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "class 0x01, LID-routed SMPs: a "
			 "SubnGet(NodeInfo) to another node's LID is answered by its "
			 "SMA with that port's GUID",
		 .needs = NEEDS_SMI | RC_NEED_REMOTE,
		 .contract = { RC_SUCCEEDS } },
	  .check = smi_lid_routed_answered },
	{ .c = { .id = "umad/register/sa-class-answered-by-sm",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "class 0x03 version 2: the SA of the "
			 "subnet manager answers a SubnAdmGet(NodeRecord) of the "
			 "port's LID with one record, the port's",
		 .needs = NEEDS_FABRIC,
		 .contract = { RC_SUCCEEDS } },
	  .check = sa_answered_by_sm },
};

static void rejects_unopened_port(const struct mad_row *row, struct rc_ctx *ctx)
{
	RC_OBSERVE(ctx, ctx->ops->umad_register(BAD_PORTID, row->mgmt_class,
						row->arg, 0, NULL));
}

static void registers_client(const struct mad_row *row, struct rc_ctx *ctx)
{
	int portid;

	if (!impl_open(ctx, &portid))
		return;
	RC_OBSERVE(ctx, ctx->ops->umad_register(portid, row->mgmt_class,
						row->arg, 0, NULL));
	ctx->ops->umad_close_port(portid);
}

static void second_client_id_works(const struct mad_row *row,
				   struct rc_ctx *ctx)
{
	const struct rc_ops *ops = ctx->ops;
	int portid, first, second, i;

	if (!impl_open(ctx, &portid))
		return;
	first = ops->umad_register(portid, row->mgmt_class, row->arg, 0, NULL);
	if (first < 0) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "first registration failed");
		goto out;
	}
	RC_OBSERVE(ctx, second = ops->umad_register(portid, row->mgmt_class,
						    row->arg, 0, NULL));
	if (second < 0)
		goto out;
	if (second == first)
		rc_obs_violation(ctx->obs, "both clients got id %d", first);
	for (i = 0; i < 2; i++)
		if (ops->umad_unregister(portid, i ? second : first))
			rc_obs_violation(ctx->obs,
					 "umad_unregister refuses id %d",
					 i ? second : first);
out:
	ops->umad_close_port(portid);
}

/* the call observed is the 33rd */
static void agent_33_refused(const struct mad_row *row, struct rc_ctx *ctx)
{
	const struct rc_ops *ops = ctx->ops;
	int portid, id[MAD_AGENTS_PER_PORT], n, i;

	if (!impl_open(ctx, &portid))
		return;
	for (n = 0; n < MAD_AGENTS_PER_PORT; n++) {
		id[n] = ops->umad_register(portid, row->mgmt_class, row->arg, 0,
					   NULL);
		for (i = 0; id[n] >= 0 && i < n && id[i] != id[n]; i++)
			;
		if (id[n] < 0 || i < n) {
			rc_obs_state(ctx->obs, RC_STATE_BROKEN,
				     "registration %d of %d gave %d", n + 1,
				     MAD_AGENTS_PER_PORT, id[n]);
			goto out;
		}
	}
	RC_OBSERVE(ctx, ops->umad_register(portid, row->mgmt_class, row->arg, 0,
					   NULL));
	for (i = 0; i < n; i++)
		if (ops->umad_unregister(portid, id[i]))
			rc_obs_violation(ctx->obs,
					 "umad_unregister refuses id %d (agent "
					 "%d of %d)",
					 id[i], i + 1, MAD_AGENTS_PER_PORT);
out:
	ops->umad_close_port(portid);
}

/* Register each class the row judges and unregister it again: how many
 * registered (the row's return value); '-' in @map for the other row's.
 * Vendor range 2 is registered under the implementation's own OUI, which
 * may be none of the rows' (RC_SHARE_VENDOR_OUI): that row runs alone. */
static int register_every_class(const struct mad_row *row,
				const struct rc_ops *ops, int portid,
				char map[256])
{
	bool range2 = row->arg == VENDOR_RANGE2_CLASSES;
	int c, id, n = 0;

	for (c = 0; c < 256; c++) {
		if (range2 != (c >= CLASS_V2 && c <= VENDOR_RANGE2_LAST)) {
			map[c] = '-';
			continue;
		}
		id = ops->umad_register(portid, c, 1, 0, NULL);
		map[c] = id >= 0 ? 'r' : id == -EPERM ? 'p' : '?';
		if (id >= 0) {
			n++;
			ops->umad_unregister(portid, id);
		}
	}
	return n;
}

static void every_class_by_linux_rules(const struct mad_row *row,
				       struct rc_ctx *ctx)
{
	char map[256];
	int portid;

	if (!impl_open(ctx, &portid))
		return;
	RC_OBSERVE(ctx, register_every_class(row, ctx->ops, portid, map));
	rc_obs_out(ctx->obs, map, sizeof(map));
	mad_check_class_map(ctx, map, 'r', 'p');
	ctx->ops->umad_close_port(portid);
}

static void rejects_second_server(const struct mad_row *row, struct rc_ctx *ctx)
{
	const struct rc_ops *ops = ctx->ops;
	long mask[16 / sizeof(long)];
	int portid;

	method_mask(mask, METHOD_BIT(METHOD_GET));
	if (!impl_open(ctx, &portid))
		return;
	if (ops->umad_register(portid, row->mgmt_class, row->arg, 0, mask) < 0)
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "first registration failed");
	else
		RC_OBSERVE(ctx, ops->umad_register(portid, row->mgmt_class,
						   row->arg, 0, mask));
	ops->umad_close_port(portid);
}

static void server_gets_requests(const struct mad_row *row, struct rc_ctx *ctx)
{
	const struct rc_ops *ops = ctx->ops;
	long mask[16 / sizeof(long)];
	int portid, id;

	method_mask(mask, METHOD_BIT(METHOD_GET));
	if (!impl_open(ctx, &portid))
		return;
	RC_OBSERVE(ctx, id = ops->umad_register(portid, row->mgmt_class,
						row->arg, 0, mask));
	if (id >= 0)
		expect_get_served(ctx, portid, row->mgmt_class, 7,
				  "a Get did not reach the server");
	ops->umad_close_port(portid);
}

/* Register for the class of the fabric query @q, ask it, check the answer. */
static void fabric_answers(struct rc_ctx *ctx, const struct fabric_query *q)
{
	const struct rc_ops *ops = ctx->ops;
	int mgmt_class = fabric_class(q, 0), portid, id, n;
	uint8_t req[MAD_BUF_LEN];

	if (!impl_open(ctx, &portid))
		return;
	RC_OBSERVE(ctx, id = ops->umad_register(
				portid, mgmt_class,
				mgmt_class == MAD_CLASS_SA ? 2 : 1, 0, NULL));
	if (id < 0 || !fabric_build(ctx, q, 0, req) ||
	    !rc_need_call(ctx, ops->umad_send, "umad_send"))
		goto out;
	n = ops->umad_send(portid, id, req, MAD_SIZE, 1000, 0);
	if (n)
		rc_obs_violation(ctx->obs, "umad_send through agent %d: %d", id,
				 n);
	else
		fabric_check_answer(ctx, q, ops->umad_get_fd(portid));
out:
	ops->umad_close_port(portid);
}

static void smi_directed_route_answered(const struct mad_row *row,
					struct rc_ctx *ctx)
{
	fabric_answers(ctx, &fabric_smp_dr_self);
}

static void smi_lid_routed_answered(const struct mad_row *row,
				    struct rc_ctx *ctx)
{
	fabric_answers(ctx, &fabric_smp_lid_remote);
}

static void sa_answered_by_sm(const struct mad_row *row, struct rc_ctx *ctx)
{
	fabric_answers(ctx, &fabric_sa_self);
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct mad_row *row = r;

	if (!NEED_MAD_CALLS(ctx) ||
	    !rc_need_call(ctx, ctx->ops->umad_register, "umad_register") ||
	    !rc_need_call(ctx, ctx->ops->umad_unregister, "umad_unregister"))
		return;
	row->check(row, ctx);
}

static const struct rc_group group = {
	.call = "umad_register",
	.conv = RC_CONV_NEG_ERRNO,
	.lib = "umad",
	.rows = rows,
	.row_size = sizeof(rows[0]),
	.nrows = ARRAY_SIZE(rows),
	.run = run,
	.shares = RC_SHARE_MAD,
};
RC_GROUP(group);
