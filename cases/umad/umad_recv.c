// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * umad_recv(3): "waits up to timeout_ms milliseconds for an incoming MAD
 * message to be received from the port specified by portid."  "The message
 * is copied to the umad buffer if there is sufficient room and the received
 * length is indicated.  If the buffer is not large enough, the size of the
 * umad buffer needed is returned in length.  A negative timeout_ms makes
 * the function block until a packet is received.  A timeout_ms parameter of
 * zero indicates a non blocking read."  "*length must be >= 256 bytes."
 * "on success return the agentid; on error, errno is set and a negative
 * value is returned as follows: -EINVAL invalid port handle or agentid or
 * *length is less than the minimum supported -EIO receive operation failed
 * -EWOULDBLOCK non blocking read can't be fulfilled -ENOSPC The provided
 * buffer is not long enough for the complete message."
 *
 * The output of every row is *length after the call (host order), and
 * after a MAD is received, the summary of that MAD.
 */
#include <string.h>

#include "umad_mad.h"

#define DOC_WAIT "umad_recv() waits up to timeout_ms milliseconds for an " \
	"incoming MAD message to be received from the port specified by portid."
#define DOC_NB "A timeout_ms parameter of zero indicates a non blocking read."
#define DOC_EWOULDBLOCK "-EWOULDBLOCK non blocking read can't be fulfilled"
#define DOC_BLOCK "A negative timeout_ms makes the function block until a " \
	"packet is received."
#define DOC_RET "umad_recv() on success return the agentid"
#define DOC_LEN "The message is copied to the umad buffer if there is " \
	"sufficient room and the received length is indicated."
#define DOC_EINVAL "-EINVAL invalid port handle or agentid or *length is " \
	"less than the minimum supported"
#define DOC_ENOSPC "If the buffer is not large enough, the size of the umad " \
	"buffer needed is returned in length. ... -ENOSPC The provided " \
	"buffer is not long enough for the complete message."

enum { EMPTY, QUEUED, BLOCKS, AGENT_ID, SHORT_LEN, NULL_BUF, NULL_LEN,
       BAD_PORT, TOO_SMALL };

/* an RMPP message larger than one MAD (TOO_SMALL) */
#define RMPP_DATA 1000
#define RMPP_MAD_LEN (MAD_OFF_V2_DATA + RMPP_DATA)

#define OK_RECV RC_SUCCEEDS, .layout = &mad_summary_layout

static const struct mad_row rows[] = {
	{ .c = { .id = "umad/recv/nonblocking-empty", .doc = DOC_EWOULDBLOCK,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = NEEDS_UMAD, .contract = { RC_FAILS(EWOULDBLOCK) } },
	  .mode = EMPTY, .timeout_ms = 0, .arg = MAD_SIZE },
	{ .c = { .id = "umad/recv/timeout-200ms-empty", .doc = DOC_WAIT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "nothing arrives: a negative value after about "
			 "200 ms (which one is not documented)",
		 .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS(), .ms = 200, .tol_ms = 80 } },
	  .mode = EMPTY, .timeout_ms = 200, .arg = MAD_SIZE },
	{ .c = { .id = "umad/recv/nonblocking-queued", .doc = DOC_LEN,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a queued Get is returned at once, *length 256",
		 .needs = NEEDS_UMAD, .contract = { OK_RECV } },
	  .mode = QUEUED, .timeout_ms = 0, .arg = MAD_SIZE },
	{ .c = { .id = "umad/recv/negative-timeout-blocks", .doc = DOC_BLOCK,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a second agent sends 300 ms after the call",
		 .needs = NEEDS_UMAD,
		 .contract = { OK_RECV, .ms = 300, .tol_ms = 120 } },
	  .mode = BLOCKS, .timeout_ms = -1, .arg = MAD_SIZE },
	{ .c = { .id = "umad/recv/returns-receiving-agent", .doc = DOC_RET,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "of two agents, the one the Get is for",
		 .needs = NEEDS_UMAD, .contract = { OK_RECV } },
	  .mode = AGENT_ID, .timeout_ms = 1000, .arg = MAD_SIZE },
	{ .c = { .id = "umad/recv/length-below-256-queued", .doc = DOC_EINVAL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "*length 100 with a MAD queued", .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS(EINVAL) } },
	  .mode = SHORT_LEN, .timeout_ms = 0, .arg = 100 },
	{ .c = { .id = "umad/recv/length-below-256-empty", .doc = DOC_EINVAL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "*length 100, nothing queued", .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS(EINVAL) } },
	  .mode = EMPTY, .timeout_ms = 0, .arg = 100 },
	{ .c = { .id = "umad/recv/null-buffer", .doc = DOC_EINVAL,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the page lists no NULL buffer among the -EINVAL "
		 "causes; read as an argument as invalid as a short *length",
		 .needs = NEEDS_UMAD, .contract = { RC_FAILS(EINVAL) } },
	  .mode = NULL_BUF, .timeout_ms = 0, .arg = MAD_SIZE },
	{ .c = { .id = "umad/recv/null-length", .doc = DOC_EINVAL,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "no *length at all is read as less than the minimum "
		 "supported; the page does not name NULL",
		 .needs = NEEDS_UMAD, .contract = { RC_FAILS(EINVAL) } },
	  .mode = NULL_LEN, .timeout_ms = 0, .arg = MAD_SIZE },
	{ .c = { .id = "umad/recv/unopened-port", .doc = DOC_EINVAL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = NEEDS_UMAD, .contract = { RC_FAILS(EINVAL) } },
	  .mode = BAD_PORT, .timeout_ms = 0, .arg = MAD_SIZE },
	{ .c = { .id = "umad/recv/buffer-too-small-rmpp", .doc = DOC_ENOSPC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a 1040-byte RMPP message into 256 bytes: -ENOSPC, "
			 "*length large enough, and a second call with it "
			 "gets the message", .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS(ENOSPC) } },
	  .mode = TOO_SMALL, .timeout_ms = 2000, .arg = MAD_SIZE },
};

/* A peer client sends a 1040-byte RMPP Set to the port. */
static bool send_rmpp(struct rc_ctx *ctx, struct peer *p)
{
	uint8_t umad[REF_UMAD_HDR_SIZE + RMPP_MAD_LEN];
	uint8_t *mad = umad + REF_UMAD_HDR_SIZE;

	if (!peer_open(ctx, p, CLASS_V2, 0, 1))
		return false;
	mad_build(ctx, umad, CLASS_V2, METHOD_SET, 0x4a4a);	/* first 256 bytes */
	memset(mad + MAD_OFF_V2_DATA, 0x3c, RMPP_DATA);
	mad[MAD_OFF_RMPP] = 1;			/* RMPP version */
	mad[MAD_OFF_RMPP + 1] = 1;		/* DATA */
	mad[MAD_OFF_RMPP + 2] = 0x01;		/* RMPPFlags.Active */
	return mad_address_self(ctx, umad) &&
	       !peer_send(p, umad, sizeof(umad), 2000, 0);
}

static void too_small(struct rc_ctx *ctx, int portid, uint8_t *buf,
		      int *len)
{
	const struct rc_ops *ops = ctx->ops;
	uint8_t big[REF_UMAD_HDR_SIZE + 4096];
	long mask[16 / sizeof(long)];
	struct peer client;
	int agent, need;

	method_mask(mask, METHOD_BIT(METHOD_SET));
	agent = ops->umad_register_oui(portid, CLASS_V2, 1, mad_oui(ctx), mask);
	if (agent < 0) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN, "registering an RMPP "
			     "server: %d", agent);
		return;
	}
	if (!send_rmpp(ctx, &client))
		goto out;
	if (!mad_ready(ctx, ops->umad_get_fd(portid), ARRIVE_MS)) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN, "the RMPP message "
			     "did not arrive");
		goto out;
	}
	RC_OBSERVE(ctx, ops->umad_recv(portid, buf, len, 0));
	need = *len;
	rc_obs_out(ctx->obs, len, sizeof(*len));
	if (ctx->obs->ret != -ENOSPC)
		goto out;
	if (need < RMPP_DATA || need > 4096) {
		rc_obs_violation(ctx->obs, "*length %d after -ENOSPC; the "
				 "message has %d bytes", need, RMPP_MAD_LEN);
		goto out;
	}
	if (ops->umad_recv(portid, big, &need, 0) != agent)
		rc_obs_violation(ctx->obs, "a buffer of the size returned "
				 "did not get the message");
out:
	peer_close(&client);
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct mad_row *row = r;
	const struct rc_ops *ops = ctx->ops;
	uint8_t buf[MAD_BUF_LEN];
	struct peer peer = { .fd = -1 };
	int portid, agent = -1, server = -1, len = row->arg;

	if (!NEED_MAD_CALLS(ctx) ||
	    !rc_need_call(ctx, ops->umad_recv, "umad_recv"))
		return;
	/* a filled buffer shows what a failed call writes into *length */
	memset(buf, UMAD_FILL, sizeof(buf));
	if (row->mode == BAD_PORT) {
		RC_OBSERVE(ctx, ops->umad_recv(BAD_PORTID, buf, &len, 0));
		rc_obs_out(ctx->obs, &len, sizeof(len));
		return;
	}
	if (!impl_open(ctx, &portid))
		return;
	if (row->mode == TOO_SMALL) {
		too_small(ctx, portid, buf, &len);
		goto out;
	}
	if (!impl_agent(ctx, portid, CLASS_V2, METHOD_BIT(METHOD_GET), &agent))
		goto out;
	if (row->mode == AGENT_ID &&
	    !impl_agent(ctx, portid, CLASS_V2_OTHER, METHOD_BIT(METHOD_GET),
			&server))
		goto out;
	if (row->mode != EMPTY && row->mode != BLOCKS &&
	    (!peer_open(ctx, &peer, CLASS_V2, 0, 0) ||
	     !peer_get(ctx, &peer, row->mode == AGENT_ID ? CLASS_V2_OTHER :
		       CLASS_V2, 0) ||
	     !mad_ready(ctx, ops->umad_get_fd(portid), ARRIVE_MS)))
		goto broken;
	if (row->mode == BLOCKS &&
	    (!peer_open(ctx, &peer, CLASS_V2, 0, 0) ||
	     !peer_get(ctx, &peer, CLASS_V2, 300)))
		goto broken;
	RC_OBSERVE(ctx, ops->umad_recv(portid, row->mode == NULL_BUF ? NULL : buf,
				       row->mode == NULL_LEN ? NULL : &len,
				       row->timeout_ms));
	if (ctx->obs->ret < 0) {
		rc_obs_out(ctx->obs, &len, sizeof(len));
		goto out;
	}
	mad_summary(ctx, buf);
	if (row->mode == AGENT_ID && ctx->obs->ret != server)
		rc_obs_violation(ctx->obs, "returned %lld; the Get was for "
				 "agent %d", ctx->obs->ret, server);
	else if (row->mode != AGENT_ID && ctx->obs->ret != agent)
		rc_obs_violation(ctx->obs, "returned %lld; the only server is "
				 "agent %d", ctx->obs->ret, agent);
	if (len != MAD_SIZE)
		rc_obs_violation(ctx->obs, "*length %d for a %d-byte MAD", len,
				 MAD_SIZE);
	goto out;
broken:
	if (ctx->obs->state != RC_STATE_BROKEN)
		rc_obs_state(ctx->obs, RC_STATE_BROKEN, "the peer's Get did not "
			     "arrive");
out:
	peer_close(&peer);
	ops->umad_close_port(portid);
}

static const struct rc_group group = {
	.call = "umad_recv", .conv = RC_CONV_NEG_ERRNO,
	.lib = "umad", .rows = rows,
	.row_size = sizeof(rows[0]), .nrows = ARRAY_SIZE(rows), .run = run,
	.shares = RC_SHARE_VENDOR_OUI,
};
RC_GROUP(group);
