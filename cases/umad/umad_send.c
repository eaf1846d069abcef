// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * umad_send(3): "sends length bytes from the specified umad buffer from the
 * port specified by portid, and using the agent specified by agentid."
 * "timeout_ms controls the solicited MADs behavior as follows: zero value
 * means not solicited.  Positive value makes kernel indicate timeout in
 * milliseconds.  If reply is not received within the specified value, the
 * original buffer is returned in the read channel with the status field set
 * (to non zero).  Negative timeout_ms makes kernel wait forever for the
 * reply.  retries indicates the number of times the MAD will be retried
 * before giving up."  "returns 0 on success; on error, errno is set and a
 * negative value is returned as follows: -EINVAL invalid port handle or
 * agentid -EIO send operation failed".
 *
 * Every row sends a Get of vendor class 0x30 to its own port (loopback).
 * The peer on the other end is a server that answers, or one that stays
 * silent, so that the request times out.
 *
 * On InfiniBand two rows address by LID instead: a Get of vendor class 0x0a
 * to another node, answered by rdmaconf-peer there, and one to a LID no
 * port has, which comes back with its status set.
 *
 * Timed rows: the time from the call to the request's return on the read
 * channel, against timeout x (retries + 1), +/- (100 ms + 25 %), the
 * tolerance scaled by the host's measured slowness.
 */
#include <string.h>

#include "umad_fabric.h"

#define DOC_SEND "umad_send() sends length bytes from the specified umad " \
	"buffer from the port specified by portid, and using the agent " \
	"specified by agentid."
#define DOC_EINVAL "-EINVAL invalid port handle or agentid"
#define DOC_EIO "-EIO    send operation failed"
#define DOC_TIMEOUT "If reply is not received within the specified value, " \
	"the original buffer is returned in the read channel with the " \
	"status field set (to non zero)."
#define DOC_RETRIES "retries indicates the number of times the MAD will be " \
	"retried before giving up."
#define DOC_ZERO "zero value means not solicited."
#define DOC_FOREVER "Negative timeout_ms makes kernel wait forever for the " \
	"reply."

enum { ANSWERED, BAD_PORT, BAD_AGENT, UNREGISTERED, SHORT, NO_GRH, TIMEOUT,
       RETURNED, UNSOLICITED, FOREVER, LID_REMOTE, LID_NOBODY };

#define OK_SEND RC_RETURNS(0), .layout = &mad_summary_layout
#define TIMED(t, r) OK_SEND, .ms = (t) * ((r) + 1), \
		    .tol_ms = 40 + (t) * ((r) + 1) / 4

static const struct mad_row rows[] = {
	{ .c = { .id = "umad/send/answered-by-server", .doc = DOC_SEND,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the server's GetResp reaches the sending agent",
		 .needs = NEEDS_UMAD, .contract = { OK_SEND } },
	  .mode = ANSWERED, .timeout_ms = 1000 },
	{ .c = { .id = "umad/send/unopened-port", .doc = DOC_EINVAL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = NEEDS_UMAD, .contract = { RC_FAILS(EINVAL) } },
	  .mode = BAD_PORT },
	{ .c = { .id = "umad/send/agent-never-registered", .doc = DOC_EINVAL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "agent id 7 on a port whose only agent is 0",
		 .needs = NEEDS_UMAD, .contract = { RC_FAILS(EINVAL) } },
	  .mode = BAD_AGENT },
	{ .c = { .id = "umad/send/agent-unregistered", .doc = DOC_EINVAL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = NEEDS_UMAD, .contract = { RC_FAILS(EINVAL) } },
	  .mode = UNREGISTERED },
	{ .c = { .id = "umad/send/shorter-than-mad-header", .doc = DOC_EIO,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "10 bytes cannot hold the 24-byte MAD header: the "
			 "send fails", .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS(EIO) } },
	  .mode = SHORT, .arg = 10 },
	{ .c = { .id = "umad/send/roce-without-grh", .doc = DOC_EIO,
		 .basis = RC_BASIS_LINUX,
		 .note = "RoCE has no LIDs: the kernel's user_mad refuses a "
		 "MAD without a GRH on RoCE (ib_umad_write), and the page "
		 "gives -EIO for a failed send",
		 .needs = NEEDS_UMAD | RC_NEED_ROCE,
		 .contract = { RC_FAILS(EIO) } },
	  .mode = NO_GRH },
	{ .c = { .id = "umad/send/timeout-returns-original-buffer",
		 .doc = DOC_TIMEOUT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "all that was sent comes back: "
		 "header and the whole MAD", .needs = NEEDS_UMAD,
		 .contract = { OK_SEND } },
	  .mode = RETURNED, .timeout_ms = 200, .retries = 0 },
	{ .c = { .id = "umad/send/timeout-200ms-retries-0", .doc = DOC_TIMEOUT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "status set, after the timeout",
		 .needs = NEEDS_UMAD, .contract = { TIMED(200, 0) } },
	  .mode = TIMEOUT, .timeout_ms = 200, .retries = 0 },
	{ .c = { .id = "umad/send/timeout-200ms-retries-1", .doc = DOC_RETRIES,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "1 retry: the server sees 2 copies, the request "
			 "returns after 2 timeouts", .needs = NEEDS_UMAD,
		 .contract = { TIMED(200, 1) } },
	  .mode = TIMEOUT, .timeout_ms = 200, .retries = 1 },
	{ .c = { .id = "umad/send/timeout-200ms-retries-3", .doc = DOC_RETRIES,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "3 retries: the server sees 4 copies, the request "
			 "returns after 4 timeouts", .needs = NEEDS_UMAD,
		 .contract = { TIMED(200, 3) } },
	  .mode = TIMEOUT, .timeout_ms = 200, .retries = 3 },
	{ .c = { .id = "umad/send/timeout-zero-not-solicited", .doc = DOC_ZERO,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "nothing comes back on the read channel; the server "
			 "gets the request once", .needs = NEEDS_UMAD,
		 .contract = { OK_SEND } },
	  .mode = UNSOLICITED, .timeout_ms = 0 },
	{ .c = { .id = "umad/send/timeout-negative-waits", .doc = DOC_FOREVER,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "nothing comes back for 600 ms; then the server "
			 "answers and the answer arrives", .needs = NEEDS_UMAD,
		 .contract = { OK_SEND } },
	  .mode = FOREVER, .timeout_ms = -1 },
	{ .c = { .id = "umad/send/lid-to-remote-node", .doc = DOC_SEND,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a Get of vendor class 0x0a to another node's LID, "
			 "QP1: rdmaconf-peer there answers with its port GUID",
		 .needs = NEEDS_FABRIC | RC_NEED_REMOTE,
		 .contract = { OK_SEND } },
	  .mode = LID_REMOTE, .timeout_ms = 1000 },
	{ .c = { .id = "umad/send/unassigned-lid-returned", .doc = DOC_TIMEOUT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a request to LID 0xbfff, which no port of the subnet "
			 "has, comes back with its status set",
		 .needs = NEEDS_FABRIC, .contract = { OK_SEND } },
	  .mode = LID_NOBODY, .timeout_ms = 200 },
};

/* The LID rows: the vendor range 1 agent sends; no local peer. */
static void run_lid(const struct mad_row *row, struct rc_ctx *ctx, int portid,
		    int agent)
{
	const struct rc_ops *ops = ctx->ops;
	int fd = ops->umad_get_fd(portid), n;
	uint8_t req[MAD_BUF_LEN], in[MAD_BUF_LEN];

	if (row->mode == LID_REMOTE) {
		fabric_build(ctx, &fabric_vendor_remote, CLASS_V1, req);
	} else {
		mad_build(ctx, req, CLASS_V1, METHOD_GET, 0x1d);
		mad_address_lid(req, UNASSIGNED_LID);
	}
	RC_OBSERVE(ctx, ops->umad_send(portid, agent, req, MAD_SIZE,
				       row->timeout_ms, row->retries));
	if (ctx->obs->ret)
		return;
	if (row->mode == LID_REMOTE) {
		fabric_check_answer(ctx, &fabric_vendor_remote, fd);
		return;
	}
	n = mad_wait(ctx, fd, in, sizeof(in), row->timeout_ms + ARRIVE_MS);
	if (n <= 0) {
		rc_obs_violation(ctx->obs, "the request did not come back "
				 "within %d ms", row->timeout_ms + ARRIVE_MS);
		return;
	}
	mad_summary(ctx, in);
	if (!*(uint32_t *)(in + REF_UMAD_OFF_STATUS))
		rc_obs_violation(ctx->obs, "the request came back with status "
				 "0");
}

/* Drain @fd: how many messages arrive, each within QUIET_MS of the last. */
static int count_arrivals(struct rc_ctx *ctx, int fd)
{
	uint8_t in[MAD_BUF_LEN];
	int n = 0;

	while (mad_wait(ctx, fd, in, sizeof(in), QUIET_MS) > 0)
		n++;
	return n;
}

/* What came back after a timeout: the buffer that was sent. */
static void check_returned(struct rc_ctx *ctx, const uint8_t *sent,
			   const uint8_t *in, int n)
{
	int i;

	if (n < MAD_BUF_LEN)
		rc_obs_violation(ctx->obs, "%d of the %d bytes sent came back",
				 n, MAD_BUF_LEN);
	/* the kernel owns the high half of a request's TID */
	for (i = REF_UMAD_HDR_SIZE; i < n && i < MAD_BUF_LEN; i++) {
		if (i >= REF_UMAD_HDR_SIZE + MAD_OFF_TID &&
		    i < REF_UMAD_HDR_SIZE + MAD_OFF_TID + 4)
			continue;
		if (in[i] != sent[i]) {
			rc_obs_violation(ctx->obs, "MAD byte %d came back as "
					 "0x%02x, sent 0x%02x",
					 i - REF_UMAD_HDR_SIZE, in[i], sent[i]);
			break;
		}
	}
}

static void run_traffic(const struct mad_row *row, struct rc_ctx *ctx,
			int portid, int agent)
{
	const struct rc_ops *ops = ctx->ops;
	uint8_t req[MAD_BUF_LEN], sent[MAD_BUF_LEN], in[MAD_BUF_LEN];
	int fd = ops->umad_get_fd(portid), n, copies;
	struct peer server;
	double t0;

	if (!peer_open(ctx, &server, CLASS_V2, METHOD_BIT(METHOD_GET), 0))
		return;
	mad_build(ctx, req, CLASS_V2, METHOD_GET, 0x5e4d);
	if (!mad_address_self(ctx, req))
		goto out;
	memcpy(sent, req, sizeof(sent));
	t0 = rc_now_ms();
	RC_OBSERVE(ctx, ops->umad_send(portid, agent, req, MAD_SIZE,
				       row->timeout_ms, row->retries));
	if (ctx->obs->ret)
		goto out;
	switch (row->mode) {
	case ANSWERED:
	case FOREVER:
		n = mad_wait(ctx, server.fd, in, sizeof(in), ARRIVE_MS);
		if (n <= 0) {
			rc_obs_violation(ctx->obs, "the server got no request");
			break;
		}
		if (row->mode == FOREVER &&
		    mad_wait(ctx, fd, in + 0, sizeof(in), 2 * QUIET_MS) > 0) {
			rc_obs_violation(ctx->obs, "the request came back "
					 "(status %u) before any answer",
					 *(uint32_t *)(in + REF_UMAD_OFF_STATUS));
			break;
		}
		peer_reply(&server, in);
		n = mad_wait(ctx, fd, in, sizeof(in), ARRIVE_MS);
		if (n <= 0)
			rc_obs_violation(ctx->obs, "no answer arrived");
		else
			mad_summary(ctx, in);
		break;
	case TIMEOUT:
	case RETURNED:
		n = mad_wait(ctx, fd, in, sizeof(in),
			     row->timeout_ms * (row->retries + 1) + ARRIVE_MS);
		ctx->obs->elapsed_ms = rc_now_ms() - t0;
		if (n <= 0) {
			rc_obs_violation(ctx->obs, "the request did not come "
					 "back within %d ms", row->timeout_ms *
					 (row->retries + 1) + ARRIVE_MS);
			break;
		}
		mad_summary(ctx, in);
		if (!*(uint32_t *)(in + REF_UMAD_OFF_STATUS))
			rc_obs_violation(ctx->obs, "the request came back with "
					 "status 0");
		if (row->mode == RETURNED) {
			check_returned(ctx, sent, in, n);
			break;
		}
		copies = count_arrivals(ctx, server.fd);
		if (copies != row->retries + 1)
			rc_obs_violation(ctx->obs, "the server got %d copies; "
					 "retries %d means %d", copies,
					 row->retries, row->retries + 1);
		break;
	case UNSOLICITED:
		if (mad_wait(ctx, fd, in, sizeof(in), 2 * QUIET_MS) > 0)
			rc_obs_violation(ctx->obs, "something came back "
					 "(status %u)",
					 *(uint32_t *)(in + REF_UMAD_OFF_STATUS));
		copies = count_arrivals(ctx, server.fd);
		if (copies != 1)
			rc_obs_violation(ctx->obs, "the server got %d copies",
					 copies);
		break;
	}
out:
	peer_close(&server);
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct mad_row *row = r;
	const struct rc_ops *ops = ctx->ops;
	uint8_t req[MAD_BUF_LEN];
	int portid, agent;

	if (!NEED_MAD_CALLS(ctx) ||
	    !rc_need_call(ctx, ops->umad_send, "umad_send") ||
	    !rc_need_call(ctx, ops->umad_unregister, "umad_unregister"))
		return;
	mad_build(ctx, req, CLASS_V2, METHOD_GET, 1);
	if (row->mode == BAD_PORT) {
		RC_OBSERVE(ctx, ops->umad_send(BAD_PORTID, 0, req, MAD_SIZE,
					       0, 0));
		goto errno_set;
	}
	if (!impl_open(ctx, &portid))
		return;
	if (row->mode == LID_REMOTE || row->mode == LID_NOBODY) {
		if (impl_agent(ctx, portid, CLASS_V1, 0, &agent))
			run_lid(row, ctx, portid, agent);
		goto out;
	}
	if (!impl_agent(ctx, portid, CLASS_V2, 0, &agent))
		goto out;
	switch (row->mode) {
	case BAD_AGENT:
		agent = 7;
		break;
	case UNREGISTERED:
		ops->umad_unregister(portid, agent);
		break;
	case NO_GRH:
		break;
	case SHORT:
		if (!mad_address_self(ctx, req))
			goto out;
		break;
	default:
		run_traffic(row, ctx, portid, agent);
		goto out;
	}
	if (row->mode != NO_GRH && row->mode != SHORT &&
	    !mad_address_self(ctx, req))
		goto out;
	RC_OBSERVE(ctx, ops->umad_send(portid, agent, req,
				       row->mode == SHORT ? row->arg : MAD_SIZE,
				       0, 0));
out:
	ops->umad_close_port(portid);
errno_set:
	if (ctx->obs->state == RC_STATE_RAN && ctx->obs->ret < 0 &&
	    !ctx->obs->err)
		rc_obs_violation(ctx->obs, "failed without setting errno");
}

static const struct rc_group group = {
	.call = "umad_send", .conv = RC_CONV_NEG_ERRNO,
	.lib = "umad", .rows = rows,
	.row_size = sizeof(rows[0]), .nrows = ARRAY_SIZE(rows), .run = run,
	.shares = RC_SHARE_VENDOR_OUI,
};
RC_GROUP(group);
