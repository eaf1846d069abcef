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
 * - an unopened handle: -EINVAL; no OUI (NULL): a failure (interpretation)
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

#define DOC_RANGE                                             \
	"-EINVAL invalid port handle or class is not in the " \
	"vendor class 2 range"
#define DOC_RET                                                    \
	"umad_register() returns non-negative agent id number on " \
	"success"
#define DOC_EPERM "-EPERM  registration failed"
#define DOC_REGISTERS                                                        \
	"umad_register_oui() registers the specified class in vendor range " \
	"2, the specified oui, and whether RMPP is being used for the port " \
	"specified by the portid handle."
#define DOC_SERVER                                                       \
	"If method_mask array is provided, the caller is "               \
	"registered as a replier (server) for the methods having their " \
	"corresponding bit on in the method_mask."
#define DOC_CLIENT                                                           \
	"If method_mask is NULL, the caller is registered as a "             \
	"MAD client, meaning that it can only receive replies on MADs that " \
	"it sent (solicited MADs)."
#define DOC_RMPP                                                \
	"registers the specified class in vendor range 2, the " \
	"specified oui, and whether RMPP is being used"

#define ROW(i, d, b, m, cls, ...)                     \
	{                                             \
		.c = { .id = "umad/register_oui/" i,  \
		       .doc = d,                      \
		       .basis = b,                    \
		       .needs = NEEDS_UMAD,           \
		       .contract = { __VA_ARGS__ } }, \
		.check = m, .mgmt_class = cls         \
	}

#define B_DOC RC_BASIS_DOCUMENTED

static mad_check rejects_unopened_port, rejects_no_oui, registers_client,
	client_sends_request, remote_node_answers, rejects_second_server,
	two_clients_registered, server_gets_its_methods_only,
	client_gets_no_unsolicited;

static const struct mad_row rows[] = {
	ROW("class-0x2f", DOC_RANGE, B_DOC, registers_client, 0x2f,
	    RC_FAILS(EINVAL)),
	ROW("class-0x30", DOC_RET, B_DOC, registers_client, 0x30, RC_SUCCEEDS),
	ROW("class-0x4f", DOC_RET, B_DOC, registers_client, 0x4f, RC_SUCCEEDS),
	ROW("class-0x50", DOC_RANGE, B_DOC, registers_client, 0x50,
	    RC_FAILS(EINVAL)),
	ROW("unopened-port", DOC_RANGE, B_DOC, rejects_unopened_port, CLASS_V2,
	    RC_FAILS(EINVAL)),
	{ .c = { .id = "umad/register_oui/no-oui",
		 .doc = DOC_REGISTERS,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "oui NULL: no OUI is specified, so nothing can be "
			 "registered under one; the call fails (with any code) "
			 "and does not read address 0",
		 .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS() } },
	  .check = rejects_no_oui,
	  .mgmt_class = CLASS_V2 },
	{ .c = { .id = "umad/register_oui/second-server-same-methods",
		 .doc = DOC_EPERM,
		 .basis = RC_BASIS_LINUX,
		 .note = "the kernel's user_mad allows one replier per class, "
			 "OUI and method (ib_register_mad_agent), and the page gives "
			 "-EPERM for a failed registration",
		 .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS(EPERM) } },
	  .check = rejects_second_server,
	  .mgmt_class = CLASS_V2 },
	ROW("two-clients", DOC_CLIENT, B_DOC, two_clients_registered, CLASS_V2,
	    RC_SUCCEEDS),
	{ .c = { .id = "umad/register_oui/rmpp-version-0",
		 .doc = DOC_RMPP,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "0: RMPP not used",
		 .needs = NEEDS_UMAD,
		 .contract = { RC_SUCCEEDS } },
	  .check = registers_client,
	  .mgmt_class = CLASS_V2 },
	{ .c = { .id = "umad/register_oui/rmpp-version-1",
		 .doc = DOC_RMPP,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "1: the RMPP version of IBA 13.6; vendor range 2 "
			 "classes may use RMPP",
		 .needs = NEEDS_UMAD,
		 .contract = { RC_SUCCEEDS } },
	  .check = registers_client,
	  .mgmt_class = CLASS_V2,
	  .arg = 1 },
	{ .c = { .id = "umad/register_oui/rmpp-version-2",
		 .doc = DOC_EPERM,
		 .basis = RC_BASIS_LINUX,
		 .note = "there is no RMPP version 2: the kernel's "
			 "ib_register_mad_agent refuses it, and the page gives "
			 "-EPERM for a failed registration",
		 .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS(EPERM) } },
	  .check = registers_client,
	  .mgmt_class = CLASS_V2,
	  .arg = 2 },
	ROW("id-sends-request", DOC_RET, B_DOC, client_sends_request, CLASS_V2,
	    RC_SUCCEEDS),
	ROW("server-gets-its-methods-only", DOC_SERVER, B_DOC,
	    server_gets_its_methods_only, CLASS_V2, RC_SUCCEEDS),
	ROW("client-gets-no-unsolicited", DOC_CLIENT, B_DOC,
	    client_gets_no_unsolicited, CLASS_V2, RC_SUCCEEDS),
	{ .c = { .id = "umad/register_oui/vendor-class-to-remote-node",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a Get of the class and OUI, by LID "
			 "to another node, is answered by rdmaconf-peer there, "
			 "registered for them",
		 .needs = NEEDS_FABRIC | RC_NEED_REMOTE,
		 .contract = { RC_SUCCEEDS } },
	  .check = remote_node_answers,
	  .mgmt_class = CLASS_V2 },
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

/* The port opened, and its read channel: where every row on a port
 * starts.  False (BROKEN) when it does not open. */
static bool open_port(struct rc_ctx *ctx, int *portid, int *fd)
{
	if (!impl_open(ctx, portid))
		return false;
	*fd = ctx->ops->umad_get_fd(*portid);
	return true;
}

static void rejects_unopened_port(const struct mad_row *row, struct rc_ctx *ctx)
{
	RC_OBSERVE(ctx, ctx->ops->umad_register_oui(BAD_PORTID, row->mgmt_class,
						    0, mad_oui(ctx), NULL));
}

/* A client of the row's class under @oui with its rmpp_version (.arg):
 * the call under test; registered, @then (if any) tries its id. */
static void client_then(const struct mad_row *row, struct rc_ctx *ctx,
			uint8_t *oui,
			void (*then)(struct rc_ctx *ctx, int portid, int agent))
{
	int portid, fd, id;

	if (!open_port(ctx, &portid, &fd))
		return;
	RC_OBSERVE(ctx, id = ctx->ops->umad_register_oui(
				portid, row->mgmt_class, row->arg, oui, NULL));
	if (id >= 0 && then)
		then(ctx, portid, id);
	ctx->ops->umad_close_port(portid);
}

static void registers_client(const struct mad_row *row, struct rc_ctx *ctx)
{
	client_then(row, ctx, mad_oui(ctx), NULL);
}

static void rejects_no_oui(const struct mad_row *row, struct rc_ctx *ctx)
{
	client_then(row, ctx, NULL, NULL);
}

static void client_sends_request(const struct mad_row *row, struct rc_ctx *ctx)
{
	client_then(row, ctx, mad_oui(ctx), check_sends);
}

static void remote_node_answers(const struct mad_row *row, struct rc_ctx *ctx)
{
	/* a client of the class the remote peer serves: test_oui */
	client_then(row, ctx, test_oui, check_remote);
}

static void rejects_second_server(const struct mad_row *row, struct rc_ctx *ctx)
{
	const struct rc_ops *ops = ctx->ops;
	long mask[16 / sizeof(long)];
	int portid, fd;

	if (!open_port(ctx, &portid, &fd))
		return;
	method_mask(mask, METHOD_BIT(METHOD_GET));
	if (ops->umad_register_oui(portid, row->mgmt_class, 0, mad_oui(ctx),
				   mask) < 0)
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "first registration failed");
	else
		RC_OBSERVE(ctx, ops->umad_register_oui(portid, row->mgmt_class,
						       0, mad_oui(ctx), mask));
	ops->umad_close_port(portid);
}

static void two_clients_registered(const struct mad_row *row,
				   struct rc_ctx *ctx)
{
	const struct rc_ops *ops = ctx->ops;
	int portid, fd, id;

	if (!open_port(ctx, &portid, &fd))
		return;
	id = ops->umad_register_oui(portid, row->mgmt_class, 0, mad_oui(ctx),
				    NULL);
	RC_OBSERVE(ctx, ops->umad_register_oui(portid, row->mgmt_class, 0,
					       mad_oui(ctx), NULL));
	if (ctx->obs->ret >= 0 && ctx->obs->ret == id)
		rc_obs_violation(ctx->obs, "both clients got id %d", id);
	ops->umad_close_port(portid);
}

static void server_gets_its_methods_only(const struct mad_row *row,
					 struct rc_ctx *ctx)
{
	long mask[16 / sizeof(long)];
	struct peer peer;
	int portid, fd, id;

	if (!open_port(ctx, &portid, &fd))
		return;
	method_mask(mask, METHOD_BIT(METHOD_GET));
	RC_OBSERVE(ctx,
		   id = ctx->ops->umad_register_oui(portid, row->mgmt_class, 0,
						    mad_oui(ctx), mask));
	if (id >= 0 && peer_open(ctx, &peer, CLASS_V2, 0, 0)) {
		if (!delivered(ctx, &peer, fd, METHOD_GET, ARRIVE_MS))
			rc_obs_violation(ctx->obs, "a Get did not reach the "
						   "server registered for Get");
		else if (delivered(ctx, &peer, fd, METHOD_SET, QUIET_MS))
			rc_obs_violation(ctx->obs, "a Set reached the server "
						   "registered for Get only");
		peer_close(&peer);
	}
	ctx->ops->umad_close_port(portid);
}

static void client_gets_no_unsolicited(const struct mad_row *row,
				       struct rc_ctx *ctx)
{
	struct peer peer;
	int portid, fd, id;

	if (!open_port(ctx, &portid, &fd))
		return;
	RC_OBSERVE(ctx,
		   id = ctx->ops->umad_register_oui(portid, row->mgmt_class, 0,
						    mad_oui(ctx), NULL));
	if (id >= 0 && peer_open(ctx, &peer, CLASS_V2, 0, 0)) {
		if (delivered(ctx, &peer, fd, METHOD_GET, QUIET_MS))
			rc_obs_violation(ctx->obs, "an unsolicited Get reached "
						   "a client");
		peer_close(&peer);
	}
	ctx->ops->umad_close_port(portid);
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct mad_row *row = r;

	if (!NEED_MAD_CALLS(ctx) ||
	    !rc_need_call(ctx, ctx->ops->umad_register_oui,
			  "umad_register_oui"))
		return;
	row->check(row, ctx);
}

static const struct rc_group group = {
	.call = "umad_register_oui",
	.conv = RC_CONV_NEG_ERRNO,
	.lib = "umad",
	.rows = rows,
	.row_size = sizeof(rows[0]),
	.nrows = ARRAY_SIZE(rows),
	.run = run,
	.shares = RC_SHARE_VENDOR_OUI,
};
RC_GROUP(group);
