// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * umad_register_oui(3): "registers the specified class in vendor range 2,
 * the specified oui, and whether RMPP is being used for the port specified
 * by the portid handle.  If method_mask array is provided, the caller is
 * registered as a replier (server) for the methods having their
 * corresponding bit on in the method_mask.  If method_mask is NULL, the
 * caller is registered as a MAD client, meaning that it can only receive
 * replies on MADs that it sent (solicited MADs)."  "returns non-negative
 * agent id number on success, and a negative value on error as follows:
 * -EINVAL invalid port handle or class is not in the vendor class 2 range
 * -EPERM registration failed".
 *
 * - the bounds of vendor range 2: 0x2f and 0x50 -EINVAL, 0x30 and 0x4f ids
 * - an unopened handle: -EINVAL
 * - a second server for the same class and methods: -EPERM; two clients:
 *   both registered
 * - rmpp_version 0 and 1 register, 2 (no such RMPP version) fails
 * - the id sends a request that a server on the port answers
 * - a server gets requests for its methods, not for others; a client gets
 *   no unsolicited request
 * - InfiniBand fabric: a Get by LID to another node is answered there
 */
#include <string.h>

#include "umad_fabric.h"

#define DOC_RANGE "-EINVAL invalid port handle or class is not in the " \
	"vendor class 2 range"
#define DOC_RET "umad_register() returns non-negative agent id number on " \
	"success"
#define DOC_EPERM "-EPERM  registration failed"
#define DOC_SERVER "If method_mask array is provided, the caller is " \
	"registered as a replier (server) for the methods having their " \
	"corresponding bit on in the method_mask."
#define DOC_CLIENT "If method_mask is NULL, the caller is registered as a " \
	"MAD client, meaning that it can only receive replies on MADs that " \
	"it sent (solicited MADs)."
#define DOC_RMPP "registers the specified class in vendor range 2, the " \
	"specified oui, and whether RMPP is being used"

enum { CLIENT, BAD_PORT, DUP_SERVER, DUP_CLIENT, RMPP, SENDS, SERVER_METHODS,
       CLIENT_UNSOLICITED, REMOTE };

#define ROW(i, d, b, m, cls, ...) \
	{ .c = { .id = "umad/register_oui/" i, .doc = d, .basis = b, \
		 .needs = NEEDS_UMAD, \
		 .contract = { __VA_ARGS__ } }, .mode = m, .mgmt_class = cls }

#define B_DOC RC_BASIS_DOCUMENTED
static const struct mad_row rows[] = {
	ROW("class-0x2f", DOC_RANGE, B_DOC, CLIENT, 0x2f, RC_FAILS(EINVAL)),
	ROW("class-0x30", DOC_RET, B_DOC, CLIENT, 0x30, RC_SUCCEEDS),
	ROW("class-0x4f", DOC_RET, B_DOC, CLIENT, 0x4f, RC_SUCCEEDS),
	ROW("class-0x50", DOC_RANGE, B_DOC, CLIENT, 0x50, RC_FAILS(EINVAL)),
	ROW("unopened-port", DOC_RANGE, B_DOC, BAD_PORT, CLASS_V2,
	    RC_FAILS(EINVAL)),
	{ .c = { .id = "umad/register_oui/second-server-same-methods",
		 .doc = DOC_EPERM, .basis = RC_BASIS_LINUX,
		 .note = "the kernel's user_mad allows one replier per class, "
		 "OUI and method (ib_register_mad_agent), and the page gives "
		 "-EPERM for a failed registration",
		 .needs = NEEDS_UMAD, .contract = { RC_FAILS(EPERM) } },
	  .mode = DUP_SERVER, .mgmt_class = CLASS_V2 },
	ROW("two-clients", DOC_CLIENT, B_DOC, DUP_CLIENT, CLASS_V2, RC_SUCCEEDS),
	{ .c = { .id = "umad/register_oui/rmpp-version-0", .doc = DOC_RMPP,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "0: RMPP not used", .needs = NEEDS_UMAD,
		 .contract = { RC_SUCCEEDS } }, .mode = RMPP, .mgmt_class = CLASS_V2 },
	{ .c = { .id = "umad/register_oui/rmpp-version-1", .doc = DOC_RMPP,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "1: the RMPP version of IBA 13.6; vendor range 2 "
			 "classes may use RMPP", .needs = NEEDS_UMAD,
		 .contract = { RC_SUCCEEDS } },
	  .mode = RMPP, .mgmt_class = CLASS_V2, .arg = 1 },
	{ .c = { .id = "umad/register_oui/rmpp-version-2", .doc = DOC_EPERM,
		 .basis = RC_BASIS_LINUX,
		 .note = "there is no RMPP version 2: the kernel's "
		 "ib_register_mad_agent refuses it, and the page gives "
		 "-EPERM for a failed registration",
		 .needs = NEEDS_UMAD, .contract = { RC_FAILS(EPERM) } },
	  .mode = RMPP, .mgmt_class = CLASS_V2, .arg = 2 },
	ROW("id-sends-request", DOC_RET, B_DOC, SENDS, CLASS_V2, RC_SUCCEEDS),
	ROW("server-gets-its-methods-only", DOC_SERVER, B_DOC, SERVER_METHODS,
	    CLASS_V2, RC_SUCCEEDS),
	ROW("client-gets-no-unsolicited", DOC_CLIENT, B_DOC, CLIENT_UNSOLICITED,
	    CLASS_V2, RC_SUCCEEDS),
	{ .c = { .id = "umad/register_oui/vendor-class-to-remote-node",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a Get of the class and OUI, by LID "
		 "to another node, is answered by rdmaconf-peer there, "
		 "registered for them", .needs = NEEDS_FABRIC |
		 RC_NEED_REMOTE, .contract = { RC_SUCCEEDS } },
	  .mode = REMOTE, .mgmt_class = CLASS_V2 },
};

/* The peer sends @method to the port; does @fd get it within @ms? */
static bool delivered(struct rc_ctx *ctx, struct peer *client, int fd,
		      int method, int ms)
{
	uint8_t req[MAD_BUF_LEN], in[MAD_BUF_LEN];

	mad_build(ctx, req, CLASS_V2, method, 0x1000 + method);
	if (!mad_address_self(ctx, req) || peer_send(client, req, 0, 0, 0))
		return false;
	return mad_wait(ctx, fd, in, sizeof(in), ms) > 0 &&
	       in[REF_UMAD_HDR_SIZE + MAD_OFF_METHOD] == method;
}

/* Send a Get through @agent; a peer server answers; the answer arrives. */
static void check_sends(struct rc_ctx *ctx, int portid, int agent)
{
	uint8_t req[MAD_BUF_LEN], in[MAD_BUF_LEN];
	struct peer server;
	int fd = ctx->ops->umad_get_fd(portid), n;

	if (!peer_open(ctx, &server, CLASS_V2, METHOD_BIT(METHOD_GET), 0))
		return;
	mad_build(ctx, req, CLASS_V2, METHOD_GET, 0x42);
	if (!mad_address_self(ctx, req))
		return;
	n = ctx->ops->umad_send(portid, agent, req, MAD_SIZE, 1000, 0);
	if (n) {
		rc_obs_violation(ctx->obs, "umad_send with the id: %d", n);
		return;
	}
	n = mad_wait(ctx, server.fd, in, sizeof(in), ARRIVE_MS);
	if (n > 0)
		peer_reply(&server, in);
	n = mad_wait(ctx, fd, in, sizeof(in), ARRIVE_MS);
	if (n <= 0 || in[REF_UMAD_HDR_SIZE + MAD_OFF_METHOD] != METHOD_GET_RESP)
		rc_obs_violation(ctx->obs, "no answer reached agent %d", agent);
	peer_close(&server);
}

/* Send a Get through @agent to the remote node; its answer arrives. */
static void check_remote(struct rc_ctx *ctx, int portid, int agent)
{
	uint8_t req[MAD_BUF_LEN];
	int n;

	fabric_build(ctx, &fabric_vendor_remote, CLASS_V2, req);
	n = ctx->ops->umad_send(portid, agent, req, MAD_SIZE, 1000, 0);
	if (n)
		rc_obs_violation(ctx->obs, "umad_send with the id: %d", n);
	else
		fabric_check_answer(ctx, &fabric_vendor_remote,
				    ctx->ops->umad_get_fd(portid));
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct mad_row *row = r;
	const struct rc_ops *ops = ctx->ops;
	long mask[16 / sizeof(long)];
	struct peer peer;
	int portid, id, fd;

	if (!NEED_MAD_CALLS(ctx) ||
	    !rc_need_call(ctx, ops->umad_register_oui, "umad_register_oui"))
		return;
	if (row->mode == BAD_PORT) {
		RC_OBSERVE(ctx, ops->umad_register_oui(BAD_PORTID, row->mgmt_class,
						       0, mad_oui(ctx), NULL));
		return;
	}
	if (!impl_open(ctx, &portid))
		return;
	fd = ops->umad_get_fd(portid);
	method_mask(mask, METHOD_BIT(METHOD_GET));
	switch (row->mode) {
	case CLIENT:
	case SENDS:
	case REMOTE:
		/* a client of the class the remote peer serves: test_oui */
		RC_OBSERVE(ctx, id = ops->umad_register_oui(portid,
				row->mgmt_class, 0, row->mode == REMOTE ?
				test_oui : mad_oui(ctx), NULL));
		if (row->mode == SENDS && id >= 0)
			check_sends(ctx, portid, id);
		if (row->mode == REMOTE && id >= 0)
			check_remote(ctx, portid, id);
		break;
	case DUP_SERVER:
		if (ops->umad_register_oui(portid, row->mgmt_class, 0, mad_oui(ctx),
					   mask) < 0) {
			rc_obs_state(ctx->obs, RC_STATE_BROKEN,
				     "first registration failed");
			break;
		}
		RC_OBSERVE(ctx, ops->umad_register_oui(portid, row->mgmt_class,
						       0, mad_oui(ctx), mask));
		break;
	case DUP_CLIENT:
		id = ops->umad_register_oui(portid, row->mgmt_class, 0,
					    mad_oui(ctx), NULL);
		RC_OBSERVE(ctx, ops->umad_register_oui(portid, row->mgmt_class,
						       0, mad_oui(ctx), NULL));
		if (ctx->obs->ret >= 0 && ctx->obs->ret == id)
			rc_obs_violation(ctx->obs, "both clients got id %d", id);
		break;
	case RMPP:
		RC_OBSERVE(ctx, ops->umad_register_oui(portid, row->mgmt_class,
						       row->arg, mad_oui(ctx), NULL));
		break;
	case SERVER_METHODS:
		RC_OBSERVE(ctx, id = ops->umad_register_oui(portid,
				row->mgmt_class, 0, mad_oui(ctx), mask));
		if (id < 0 || !peer_open(ctx, &peer, CLASS_V2, 0, 0))
			break;
		if (!delivered(ctx, &peer, fd, METHOD_GET, ARRIVE_MS))
			rc_obs_violation(ctx->obs, "a Get did not reach the "
					 "server registered for Get");
		else if (delivered(ctx, &peer, fd, METHOD_SET, QUIET_MS))
			rc_obs_violation(ctx->obs, "a Set reached the server "
					 "registered for Get only");
		peer_close(&peer);
		break;
	case CLIENT_UNSOLICITED:
		RC_OBSERVE(ctx, id = ops->umad_register_oui(portid,
				row->mgmt_class, 0, mad_oui(ctx), NULL));
		if (id < 0 || !peer_open(ctx, &peer, CLASS_V2, 0, 0))
			break;
		if (delivered(ctx, &peer, fd, METHOD_GET, QUIET_MS))
			rc_obs_violation(ctx->obs, "an unsolicited Get reached "
					 "a client");
		peer_close(&peer);
		break;
	}
	ops->umad_close_port(portid);
}

static const struct rc_group group = {
	.call = "umad_register_oui", .conv = RC_CONV_NEG_ERRNO,
	.lib = "umad", .rows = rows,
	.row_size = sizeof(rows[0]), .nrows = ARRAY_SIZE(rows), .run = run,
	.shares = RC_SHARE_VENDOR_OUI,
};
RC_GROUP(group);
