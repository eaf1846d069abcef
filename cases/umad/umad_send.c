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
#include <limits.h>
#include <string.h>

#include "umad_fabric.h"

#define DOC_SEND                                                         \
	"umad_send() sends length bytes from the specified umad "        \
	"buffer from the port specified by portid, and using the agent " \
	"specified by agentid."
#define DOC_EINVAL "-EINVAL invalid port handle or agentid"
#define DOC_EIO "-EIO    send operation failed"
#define DOC_ERRNO "on error, errno is set and a negative value is returned"
#define DOC_TIMEOUT                                                     \
	"If reply is not received within the specified value, "         \
	"the original buffer is returned in the read channel with the " \
	"status field set (to non zero)."
#define DOC_RETRIES                                              \
	"retries indicates the number of times the MAD will be " \
	"retried before giving up."
#define DOC_ZERO "zero value means not solicited."
#define DOC_FOREVER                                              \
	"Negative timeout_ms makes kernel wait forever for the " \
	"reply."

#define OK_SEND RC_RETURNS(0), .layout = &mad_summary_layout
#define TIMED(t, r) \
	OK_SEND, .ms = (t) * ((r) + 1), .tol_ms = 40 + (t) * ((r) + 1) / 4

static mad_check rejects_unopened_port, rejects_unknown_agent,
	rejects_unregistered_agent, fails_with_length, sets_errno_unknown_agent,
	fails_without_grh, answered_by_server, waits_for_answer,
	times_out_after_retries, returns_original_buffer,
	unsolicited_not_returned, remote_node_answers, unassigned_lid_returned;
/* .arg of a row whose buffer holds another agent id than the call's */
#define STALE_AGENT_ID 1

static const struct mad_row rows[] = {
	{ .c = { .id = "umad/send/answered-by-server",
		 .doc = DOC_SEND,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the server's GetResp reaches the sending agent",
		 .needs = NEEDS_UMAD,
		 .contract = { OK_SEND } },
	  .check = answered_by_server,
	  .timeout_ms = 1000 },
	{ .c = { .id = "umad/send/agent-from-argument",
		 .doc = DOC_SEND,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the buffer's agent_id holds 0xa5a5a5a5, no agent: "
			 "the call sends with agentid, and the server's "
			 "GetResp reaches the sending agent",
		 .needs = NEEDS_UMAD,
		 .contract = { OK_SEND } },
	  .check = answered_by_server,
	  .timeout_ms = 1000,
	  .arg = STALE_AGENT_ID },
	{ .c = { .id = "umad/send/unopened-port",
		 .doc = DOC_EINVAL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS(EINVAL) } },
	  .check = rejects_unopened_port },
	{ .c = { .id = "umad/send/agent-never-registered",
		 .doc = DOC_EINVAL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "agent id 7 on a port whose only agent is 0",
		 .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS(EINVAL) } },
	  .check = rejects_unknown_agent,
	  .arg = 7 },
	{ .c = { .id = "umad/send/agent-id-32",
		 .doc = DOC_EINVAL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the first id beyond the 32 a port can have "
			 "(IB_UMAD_MAX_AGENTS), on a port whose only agent is 0",
		 .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS(EINVAL) } },
	  .check = rejects_unknown_agent,
	  .arg = 32 },
	{ .c = { .id = "umad/send/agent-id-negative",
		 .doc = DOC_EINVAL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "agent id -1 on a port whose only agent is 0",
		 .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS(EINVAL) } },
	  .check = rejects_unknown_agent,
	  .arg = -1 },
	{ .c = { .id = "umad/send/agent-unregistered",
		 .doc = DOC_EINVAL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS(EINVAL) } },
	  .check = rejects_unregistered_agent },
	{ .c = { .id = "umad/send/shorter-than-mad-header",
		 .doc = DOC_EIO,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "10 bytes cannot hold the 24-byte MAD header: the "
			 "send fails",
		 .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS(EIO) } },
	  .check = fails_with_length,
	  .arg = 10 },
	{ .c = { .id = "umad/send/length-minus-one",
		 .doc = DOC_EIO,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "length -1: no byte count can be sent, the send fails "
			 "(the page gives no range for length)",
		 .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS(EIO) } },
	  .check = fails_with_length,
	  .arg = -1 },
	{ .c = { .id = "umad/send/length-wraps-to-minus-one",
		 .doc = DOC_EIO,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "length -65, one below minus umad_size() (64): header "
			 "and data add up to (size_t)-1, a count write() refuses "
			 "with -1; nothing is sent, so the call must not return 0",
		 .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS(EIO) } },
	  .check = fails_with_length,
	  .arg = -(REF_UMAD_HDR_SIZE + 1) },
	{ .c = { .id = "umad/send/length-int-min",
		 .doc = DOC_EIO,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "length INT_MIN: no byte count can be sent, the send "
			 "fails",
		 .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS(EIO) } },
	  .check = fails_with_length,
	  .arg = INT_MIN },
	{ .c = { .id = "umad/send/errno-agent-never-registered",
		 .doc = DOC_ERRNO,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "\"errno is set\": to the code the call returns, "
			 "negated, where the call refuses by itself (agent id 7 "
			 "on a port whose only agent is 0); as umad_recv(3)'s "
			 "errno rows read the same words",
		 .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS() } },
	  .check = sets_errno_unknown_agent,
	  .arg = 7 },
	{ .c = { .id = "umad/send/roce-without-grh",
		 .doc = DOC_EIO,
		 .basis = RC_BASIS_LINUX,
		 .note = "RoCE has no LIDs: the kernel's user_mad refuses a "
			 "MAD without a GRH on RoCE (ib_umad_write), and the page "
			 "gives -EIO for a failed send",
		 .needs = NEEDS_UMAD | RC_NEED_ROCE,
		 .contract = { RC_FAILS(EIO) } },
	  .check = fails_without_grh },
	{ .c = { .id = "umad/send/timeout-returns-original-buffer",
		 .doc = DOC_TIMEOUT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "all that was sent comes back: "
			 "header and the whole MAD",
		 .needs = NEEDS_UMAD,
		 .contract = { OK_SEND } },
	  .check = returns_original_buffer,
	  .timeout_ms = 200,
	  .retries = 0 },
	{ .c = { .id = "umad/send/timeout-200ms-retries-0",
		 .doc = DOC_TIMEOUT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "status set, after the timeout",
		 .needs = NEEDS_UMAD,
		 .contract = { TIMED(200, 0) } },
	  .check = times_out_after_retries,
	  .timeout_ms = 200,
	  .retries = 0 },
	{ .c = { .id = "umad/send/timeout-200ms-retries-1",
		 .doc = DOC_RETRIES,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "1 retry: the server sees 2 copies, the request "
			 "returns after 2 timeouts",
		 .needs = NEEDS_UMAD,
		 .contract = { TIMED(200, 1) } },
	  .check = times_out_after_retries,
	  .timeout_ms = 200,
	  .retries = 1 },
	{ .c = { .id = "umad/send/timeout-200ms-retries-3",
		 .doc = DOC_RETRIES,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "3 retries: the server sees 4 copies, the request "
			 "returns after 4 timeouts",
		 .needs = NEEDS_UMAD,
		 .contract = { TIMED(200, 3) } },
	  .check = times_out_after_retries,
	  .timeout_ms = 200,
	  .retries = 3 },
	{ .c = { .id = "umad/send/timeout-zero-not-solicited",
		 .doc = DOC_ZERO,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "nothing comes back on the read channel; the server "
			 "gets the request once",
		 .needs = NEEDS_UMAD,
		 .contract = { OK_SEND } },
	  .check = unsolicited_not_returned,
	  .timeout_ms = 0 },
	{ .c = { .id = "umad/send/timeout-negative-waits",
		 .doc = DOC_FOREVER,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "nothing comes back for 600 ms; then the server "
			 "answers and the answer arrives",
		 .needs = NEEDS_UMAD,
		 .contract = { OK_SEND } },
	  .check = waits_for_answer,
	  .timeout_ms = -1 },
	{ .c = { .id = "umad/send/lid-to-remote-node",
		 .doc = DOC_SEND,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a Get of vendor class 0x0a to another node's LID, "
			 "QP1: rdmaconf-peer there answers with its port GUID",
		 .needs = NEEDS_FABRIC | RC_NEED_REMOTE,
		 .contract = { OK_SEND } },
	  .check = remote_node_answers,
	  .timeout_ms = 1000 },
	{ .c = { .id = "umad/send/unassigned-lid-returned",
		 .doc = DOC_TIMEOUT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a request to LID 0xbfff, which no port of the subnet "
			 "has, comes back with its status set",
		 .needs = NEEDS_FABRIC,
		 .contract = { OK_SEND } },
	  .check = unassigned_lid_returned,
	  .timeout_ms = 200 },
};

/* A port of the implementation under test, and an agent on it. */
struct sender {
	int portid;
	int agent;
};

/* Open the port and register a client of @mgmt_class; false (BROKEN)
 * when either fails.  sender_close in any case. */
static bool sender_open(struct rc_ctx *ctx, struct sender *s, int mgmt_class)
{
	return impl_open(ctx, &s->portid) &&
	       impl_agent(ctx, s->portid, mgmt_class, 0, &s->agent);
}

static void sender_close(struct rc_ctx *ctx, struct sender *s)
{
	if (s->portid >= 0)
		ctx->ops->umad_close_port(s->portid);
}

static void rejects_unopened_port(const struct mad_row *row, struct rc_ctx *ctx)
{
	uint8_t req[MAD_BUF_LEN];

	mad_build(ctx, req, CLASS_V2, METHOD_GET, 1);
	RC_OBSERVE(ctx,
		   ctx->ops->umad_send(BAD_PORTID, 0, req, MAD_SIZE, 0, 0));
}

/* A Get to the own port (unless !@addressed) through @agent, @len bytes,
 * unsolicited: the rows whose send must fail. */
static void send_get(struct rc_ctx *ctx, const struct sender *s, int agent,
		     int length, bool addressed)
{
	uint8_t req[MAD_BUF_LEN];

	mad_build(ctx, req, CLASS_V2, METHOD_GET, 1);
	if (addressed && !mad_address_self(ctx, req))
		return;
	RC_OBSERVE(ctx,
		   ctx->ops->umad_send(s->portid, agent, req, length, 0, 0));
}

static void rejects_unknown_agent(const struct mad_row *row, struct rc_ctx *ctx)
{
	struct sender s;

	if (sender_open(ctx, &s, CLASS_V2))
		send_get(ctx, &s, row->arg, MAD_SIZE, true);
	sender_close(ctx, &s);
}

static void rejects_unregistered_agent(const struct mad_row *row,
				       struct rc_ctx *ctx)
{
	struct sender s;

	if (sender_open(ctx, &s, CLASS_V2)) {
		ctx->ops->umad_unregister(s.portid, s.agent);
		send_get(ctx, &s, s.agent, MAD_SIZE, true);
	}
	sender_close(ctx, &s);
}

/* a Get to the own port of @row->arg bytes (below zero too) */
static void fails_with_length(const struct mad_row *row, struct rc_ctx *ctx)
{
	struct sender s;

	if (sender_open(ctx, &s, CLASS_V2))
		send_get(ctx, &s, s.agent, row->arg, true);
	sender_close(ctx, &s);
}

static void sets_errno_unknown_agent(const struct mad_row *row,
				     struct rc_ctx *ctx)
{
	rejects_unknown_agent(row, ctx);
	mad_errno_is_code(ctx);
}

static void fails_without_grh(const struct mad_row *row, struct rc_ctx *ctx)
{
	struct sender s;

	if (sender_open(ctx, &s, CLASS_V2))
		send_get(ctx, &s, s.agent, MAD_SIZE, false);
	sender_close(ctx, &s);
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
			rc_obs_violation(ctx->obs,
					 "MAD byte %d came back as "
					 "0x%02x, sent 0x%02x",
					 i - REF_UMAD_HDR_SIZE, in[i], sent[i]);
			break;
		}
	}
}

/* A request solicited through the row's agent, and a server on the port
 * that gets it. */
struct exchange {
	struct sender s;
	int fd; /* the agent's read channel */
	struct peer server;
	uint8_t sent[MAD_BUF_LEN];
	double t0; /* when the request was sent */
};

/*
 * Send a Get to the server with the row's timeout and retries: the call
 * observed.  True when it returned 0 and there is traffic to follow;
 * exchange_end in any case.
 */
static bool exchange_start(const struct mad_row *row, struct rc_ctx *ctx,
			   struct exchange *x)
{
	const struct rc_ops *ops = ctx->ops;
	uint8_t req[MAD_BUF_LEN];

	x->server.fd = -1;
	x->server.thread = false;
	if (!sender_open(ctx, &x->s, CLASS_V2))
		return false;
	x->fd = ops->umad_get_fd(x->s.portid);
	if (!peer_open(ctx, &x->server, CLASS_V2, METHOD_BIT(METHOD_GET), 0))
		return false;
	mad_build(ctx, req, CLASS_V2, METHOD_GET, 0x5e4d);
	if (!mad_address_self(ctx, req))
		return false;
	if (row->arg == STALE_AGENT_ID)
		((ib_user_mad_t *)req)->agent_id = 0xa5a5a5a5;
	memcpy(x->sent, req, sizeof(x->sent));
	x->t0 = rc_now_ms();
	RC_OBSERVE(ctx, ops->umad_send(x->s.portid, x->s.agent, req, MAD_SIZE,
				       row->timeout_ms, row->retries));
	return !ctx->obs->ret;
}

static void exchange_end(struct rc_ctx *ctx, struct exchange *x)
{
	peer_close(&x->server);
	sender_close(ctx, &x->s);
}

/* The server got the request, into @in, every byte of its payload as it
 * was sent. */
static bool server_got_request(struct rc_ctx *ctx, struct exchange *x,
			       uint8_t *in)
{
	int at;

	if (mad_wait(ctx, x->server.fd, in, MAD_BUF_LEN, ARRIVE_MS) <= 0) {
		rc_obs_violation(ctx->obs, "the server got no request");
		return false;
	}
	/* "sends length bytes from the specified umad buffer" */
	at = mad_payload_differs(in);
	if (at >= 0)
		rc_obs_violation(ctx->obs,
				 "MAD byte %d arrived as 0x%02x, "
				 "0x%02x was sent",
				 at, in[REF_UMAD_HDR_SIZE + at],
				 x->sent[REF_UMAD_HDR_SIZE + at]);
	return true;
}

/* The server answers @in; the answer reaches the agent. */
static void answer_arrives(struct rc_ctx *ctx, struct exchange *x, uint8_t *in)
{
	peer_reply(&x->server, in);
	if (mad_wait(ctx, x->fd, in, MAD_BUF_LEN, ARRIVE_MS) <= 0)
		rc_obs_violation(ctx->obs, "no answer arrived");
	else
		mad_summary(ctx, in);
}

static void answered_by_server(const struct mad_row *row, struct rc_ctx *ctx)
{
	uint8_t in[MAD_BUF_LEN];
	struct exchange x;

	if (exchange_start(row, ctx, &x) && server_got_request(ctx, &x, in))
		answer_arrives(ctx, &x, in);
	exchange_end(ctx, &x);
}

static void waits_for_answer(const struct mad_row *row, struct rc_ctx *ctx)
{
	uint8_t in[MAD_BUF_LEN];
	struct exchange x;

	if (!exchange_start(row, ctx, &x) || !server_got_request(ctx, &x, in))
		goto out;
	if (mad_wait(ctx, x.fd, in, sizeof(in), 2 * QUIET_MS) > 0) {
		rc_obs_violation(ctx->obs,
				 "the request came back (status %u) "
				 "before any answer",
				 *(uint32_t *)(in + REF_UMAD_OFF_STATUS));
		goto out;
	}
	answer_arrives(ctx, &x, in);
out:
	exchange_end(ctx, &x);
}

/* The request came back within the row's timeouts, with its status set;
 * it is in @in, @n bytes. */
static bool came_back(const struct mad_row *row, struct rc_ctx *ctx,
		      struct exchange *x, uint8_t *in, int *n)
{
	int ms = row->timeout_ms * (row->retries + 1) + ARRIVE_MS;

	*n = mad_wait(ctx, x->fd, in, MAD_BUF_LEN, ms);
	ctx->obs->elapsed_ms = rc_now_ms() - x->t0;
	if (*n <= 0) {
		rc_obs_violation(ctx->obs,
				 "the request did not come back "
				 "within %d ms",
				 ms);
		return false;
	}
	mad_summary(ctx, in);
	if (!*(uint32_t *)(in + REF_UMAD_OFF_STATUS))
		rc_obs_violation(ctx->obs, "the request came back with status "
					   "0");
	return true;
}

static void times_out_after_retries(const struct mad_row *row,
				    struct rc_ctx *ctx)
{
	uint8_t in[MAD_BUF_LEN];
	struct exchange x;
	int n, copies;

	if (exchange_start(row, ctx, &x) && came_back(row, ctx, &x, in, &n)) {
		copies = count_arrivals(ctx, x.server.fd);
		if (copies != row->retries + 1)
			rc_obs_violation(ctx->obs,
					 "the server got %d copies; "
					 "retries %d means %d",
					 copies, row->retries,
					 row->retries + 1);
	}
	exchange_end(ctx, &x);
}

static void returns_original_buffer(const struct mad_row *row,
				    struct rc_ctx *ctx)
{
	uint8_t in[MAD_BUF_LEN];
	struct exchange x;
	int n;

	if (exchange_start(row, ctx, &x) && came_back(row, ctx, &x, in, &n))
		check_returned(ctx, x.sent, in, n);
	exchange_end(ctx, &x);
}

static void unsolicited_not_returned(const struct mad_row *row,
				     struct rc_ctx *ctx)
{
	uint8_t in[MAD_BUF_LEN];
	struct exchange x;
	int copies;

	if (exchange_start(row, ctx, &x)) {
		if (mad_wait(ctx, x.fd, in, sizeof(in), 2 * QUIET_MS) > 0)
			rc_obs_violation(
				ctx->obs,
				"something came back "
				"(status %u)",
				*(uint32_t *)(in + REF_UMAD_OFF_STATUS));
		copies = count_arrivals(ctx, x.server.fd);
		if (copies != 1)
			rc_obs_violation(ctx->obs, "the server got %d copies",
					 copies);
	}
	exchange_end(ctx, &x);
}

/* The LID rows: the vendor range 1 agent sends @req with the row's timeout
 * and retries, no local peer; true when the send returned 0. */
static bool send_by_lid(const struct mad_row *row, struct rc_ctx *ctx,
			const struct sender *s, uint8_t *req)
{
	RC_OBSERVE(ctx, ctx->ops->umad_send(s->portid, s->agent, req, MAD_SIZE,
					    row->timeout_ms, row->retries));
	return !ctx->obs->ret;
}

static void remote_node_answers(const struct mad_row *row, struct rc_ctx *ctx)
{
	uint8_t req[MAD_BUF_LEN];
	struct sender s;
	int fd;

	if (sender_open(ctx, &s, CLASS_V1)) {
		fd = ctx->ops->umad_get_fd(s.portid);
		fabric_build(ctx, &fabric_vendor_remote, CLASS_V1, req);
		if (send_by_lid(row, ctx, &s, req))
			fabric_check_answer(ctx, &fabric_vendor_remote, fd);
	}
	sender_close(ctx, &s);
}

static void unassigned_lid_returned(const struct mad_row *row,
				    struct rc_ctx *ctx)
{
	int ms = row->timeout_ms + ARRIVE_MS, fd;
	uint8_t req[MAD_BUF_LEN], in[MAD_BUF_LEN];
	struct sender s;

	if (!sender_open(ctx, &s, CLASS_V1))
		goto out;
	fd = ctx->ops->umad_get_fd(s.portid);
	mad_build(ctx, req, CLASS_V1, METHOD_GET, 0x1d);
	mad_address_lid(req, UNASSIGNED_LID);
	if (!send_by_lid(row, ctx, &s, req))
		goto out;
	if (mad_wait(ctx, fd, in, sizeof(in), ms) <= 0) {
		rc_obs_violation(ctx->obs,
				 "the request did not come back "
				 "within %d ms",
				 ms);
		goto out;
	}
	mad_summary(ctx, in);
	if (!*(uint32_t *)(in + REF_UMAD_OFF_STATUS))
		rc_obs_violation(ctx->obs, "the request came back with status "
					   "0");
out:
	sender_close(ctx, &s);
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct mad_row *row = r;
	const struct rc_ops *ops = ctx->ops;

	if (!NEED_MAD_CALLS(ctx) ||
	    !rc_need_call(ctx, ops->umad_send, "umad_send") ||
	    !rc_need_call(ctx, ops->umad_unregister, "umad_unregister"))
		return;
	row->check(row, ctx);
	if (ctx->obs->state == RC_STATE_RAN && ctx->obs->ret < 0 &&
	    !ctx->obs->err)
		rc_obs_violation(ctx->obs, "failed without setting errno");
}

static const struct rc_group group = {
	.call = "umad_send",
	.conv = RC_CONV_NEG_ERRNO,
	.lib = "umad",
	.rows = rows,
	.row_size = sizeof(rows[0]),
	.nrows = ARRAY_SIZE(rows),
	.run = run,
	.shares = RC_SHARE_VENDOR_OUI,
};
RC_GROUP(group);
