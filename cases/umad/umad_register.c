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
 * - InfiniBand fabric: the SMI classes answered on QP0 (0x81 by the node's
 *   own SMA, directed route; 0x01 by a remote node's SMA, by LID), and the
 *   SA class answered by the subnet manager
 */
#include "umad_fabric.h"

#define DOC_RET "umad_register() returns non-negative agent id number on " \
	"success"
#define DOC_EINVAL "-EINVAL invalid port handle"
#define DOC_EPERM "-EPERM  registration failed"
#define DOC_SERVER "If method_mask array is provided, the caller is " \
	"registered as a replier (server) for the methods having their " \
	"corresponding bit on in the method_mask."

enum { CLIENT, BAD_PORT, DUP_SERVER, SERVER, FABRIC };

static const struct mad_row rows[] = {
	{ .c = { .id = "umad/register/vendor-class-client", .doc = DOC_RET,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = NEEDS_UMAD, .contract = { RC_SUCCEEDS } },
	  .mode = CLIENT, .mgmt_class = CLASS_V1, .arg = 1 },
	{ .c = { .id = "umad/register/unopened-port", .doc = DOC_EINVAL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = NEEDS_UMAD, .contract = { RC_FAILS(EINVAL) } },
	  .mode = BAD_PORT, .mgmt_class = CLASS_V1, .arg = 1 },
	{ .c = { .id = "umad/register/second-server-same-method",
		 .doc = DOC_EPERM, .basis = RC_BASIS_LINUX,
		 .note = "the kernel's user_mad allows one replier per class "
		 "and method (ib_register_mad_agent), and the page gives "
		 "-EPERM for a failed registration",
		 .needs = NEEDS_UMAD, .contract = { RC_FAILS(EPERM) } },
	  .mode = DUP_SERVER, .mgmt_class = CLASS_V1, .arg = 1 },
	{ .c = { .id = "umad/register/server-gets-requests", .doc = DOC_SERVER,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = NEEDS_UMAD, .contract = { RC_SUCCEEDS } },
	  .mode = SERVER, .mgmt_class = CLASS_V1, .arg = 1 },
	{ .c = { .id = "umad/register/subnet-management-class", .doc = DOC_RET,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "class 0x01 lives on QP0, which only InfiniBand has",
		 .needs = NEEDS_UMAD | RC_NEED_IB | RC_NEED_ROOT,
		 .contract = { RC_SUCCEEDS } },
	  .mode = CLIENT, .mgmt_class = 0x01, .arg = 1 },
	{ .c = { .id = "umad/register/smi-directed-route-answered",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "class 0x81, directed-route SMPs: "
		 "the agent is on QP0, and a SubnGet(NodeInfo) over 0 hops "
		 "is answered by the node's own SMA with its node GUID",
		 .needs = NEEDS_SMI, .contract = { RC_SUCCEEDS } },
	  .mode = FABRIC, .arg = FQ_SMP_DR_SELF },
	{ .c = { .id = "umad/register/smi-lid-routed-to-remote-node",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "class 0x01, LID-routed SMPs: a "
		 "SubnGet(NodeInfo) to another node's LID is answered by its "
		 "SMA with that port's GUID", .needs = NEEDS_SMI |
		 RC_NEED_REMOTE, .contract = { RC_SUCCEEDS } },
	  .mode = FABRIC, .arg = FQ_SMP_LID_REMOTE },
	{ .c = { .id = "umad/register/sa-class-answered-by-sm",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "class 0x03 version 2: the SA of the "
		 "subnet manager answers a SubnAdmGet(NodeRecord) of the "
		 "port's LID with one record, the port's", .needs =
		 NEEDS_FABRIC, .contract = { RC_SUCCEEDS } },
	  .mode = FABRIC, .arg = FQ_SA_SELF },
};

/* Register for the class of the fabric query @q, ask it, check the answer. */
static void run_fabric(struct rc_ctx *ctx, int portid, enum fabric_query q)
{
	const struct rc_ops *ops = ctx->ops;
	int mgmt_class = fabric_class(q, 0), id, n;
	uint8_t req[MAD_BUF_LEN];

	RC_OBSERVE(ctx, id = ops->umad_register(portid, mgmt_class,
			mgmt_class == MAD_CLASS_SA ? 2 : 1, 0, NULL));
	if (id < 0 || !fabric_build(ctx, q, 0, req) ||
	    !rc_need_call(ctx, ops->umad_send, "umad_send"))
		return;
	n = ops->umad_send(portid, id, req, MAD_SIZE, 1000, 0);
	if (n)
		rc_obs_violation(ctx->obs, "umad_send through agent %d: %d",
				 id, n);
	else
		fabric_check_answer(ctx, q, ops->umad_get_fd(portid));
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct mad_row *row = r;
	const struct rc_ops *ops = ctx->ops;
	uint8_t req[MAD_BUF_LEN], in[MAD_BUF_LEN];
	long mask[16 / sizeof(long)];
	struct peer client;
	int portid, id;

	if (!NEED_MAD_CALLS(ctx) ||
	    !rc_need_call(ctx, ops->umad_register, "umad_register"))
		return;
	method_mask(mask, METHOD_BIT(METHOD_GET));
	if (row->mode == BAD_PORT) {
		RC_OBSERVE(ctx, ops->umad_register(BAD_PORTID, row->mgmt_class,
						   row->arg, 0, NULL));
		return;
	}
	if (!impl_open(ctx, &portid))
		return;
	switch (row->mode) {
	case CLIENT:
		RC_OBSERVE(ctx, ops->umad_register(portid, row->mgmt_class,
						   row->arg, 0, NULL));
		break;
	case DUP_SERVER:
		if (ops->umad_register(portid, row->mgmt_class, row->arg, 0,
				       mask) < 0) {
			rc_obs_state(ctx->obs, RC_STATE_BROKEN,
				     "first registration failed");
			break;
		}
		RC_OBSERVE(ctx, ops->umad_register(portid, row->mgmt_class,
						   row->arg, 0, mask));
		break;
	case SERVER:
		RC_OBSERVE(ctx, id = ops->umad_register(portid, row->mgmt_class,
							row->arg, 0, mask));
		if (id < 0 || !peer_open(ctx, &client, row->mgmt_class, 0, 0))
			break;
		mad_build(ctx, req, row->mgmt_class, METHOD_GET, 7);
		if (mad_address_self(ctx, req) &&
		    (peer_send(&client, req, 0, 0, 0) ||
		     mad_wait(ctx, ops->umad_get_fd(portid), in, sizeof(in),
			      ARRIVE_MS) <= 0))
			rc_obs_violation(ctx->obs, "a Get did not reach the "
					 "server");
		peer_close(&client);
		break;
	case FABRIC:
		run_fabric(ctx, portid, row->arg);
		break;
	}
	ops->umad_close_port(portid);
}

static const struct rc_group group = {
	.call = "umad_register", .conv = RC_CONV_NEG_ERRNO,
	.lib = "umad", .rows = rows,
	.row_size = sizeof(rows[0]), .nrows = ARRAY_SIZE(rows), .run = run,
	.shares = RC_SHARE_MAD,
};
RC_GROUP(group);
