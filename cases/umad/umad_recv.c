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
 * After a failure, errno is the code returned, negated (interpretation
 * of "errno is set").
 *
 * The output of every row is *length after the call (host order), and
 * after a MAD is received, the summary of that MAD.
 */
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "umad_mad.h"

#define DOC_WAIT                                                  \
	"umad_recv() waits up to timeout_ms milliseconds for an " \
	"incoming MAD message to be received from the port specified by portid."
#define DOC_NB "A timeout_ms parameter of zero indicates a non blocking read."
#define DOC_EWOULDBLOCK "-EWOULDBLOCK non blocking read can't be fulfilled"
#define DOC_BLOCK                                                 \
	"A negative timeout_ms makes the function block until a " \
	"packet is received."
#define DOC_RET "umad_recv() on success return the agentid"
#define DOC_LEN                                                 \
	"The message is copied to the umad buffer if there is " \
	"sufficient room and the received length is indicated."
#define DOC_EINVAL                                              \
	"-EINVAL invalid port handle or agentid or *length is " \
	"less than the minimum supported"
#define DOC_EIO "-EIO receive operation failed"
#define DOC_ERRNO                                               \
	"umad_recv() on success return the agentid; on error, " \
	"errno is set and a negative value is returned as follows:"
#define DOC_ENOSPC                                                       \
	"If the buffer is not large enough, the size of the umad "       \
	"buffer needed is returned in length. ... -ENOSPC The provided " \
	"buffer is not long enough for the complete message."

/* an RMPP message larger than one MAD (buffer_too_small) */
#define RMPP_DATA 1000
#define RMPP_MAD_LEN (MAD_OFF_V2_DATA + RMPP_DATA)

#define OK_RECV RC_SUCCEEDS, .layout = &mad_summary_layout
/* umad_recv(3): "*length must be >= 256 bytes" */
#define MIN_LENGTH 256
/* the data room of a receiver's buffer: more than a MAD */
#define RECV_ROOM 1024

static mad_check fails_when_empty, gets_queued, rejects_null_buffer,
	rejects_null_length, blocks_until_arrival, returns_receiving_agent,
	rejects_unopened_port, rejects_negative_handle, buffer_too_small,
	sets_errno_when_empty, sets_errno_null_buffer, fails_read_only_buffer,
	sets_errno_too_small;

static const struct mad_row rows[] = {
	{ .c = { .id = "umad/recv/nonblocking-empty",
		 .doc = DOC_EWOULDBLOCK,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS(EWOULDBLOCK) } },
	  .check = fails_when_empty,
	  .timeout_ms = 0,
	  .arg = MAD_SIZE },
	{ .c = { .id = "umad/recv/timeout-200ms-empty",
		 .doc = DOC_WAIT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "nothing arrives: a negative value after about "
			 "200 ms (which one is not documented)",
		 .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS(), .ms = 200, .tol_ms = 80 } },
	  .check = fails_when_empty,
	  .timeout_ms = 200,
	  .arg = MAD_SIZE },
	{ .c = { .id = "umad/recv/nonblocking-queued",
		 .doc = DOC_LEN,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a queued Get is returned at once, *length 256",
		 .needs = NEEDS_UMAD,
		 .contract = { OK_RECV } },
	  .check = gets_queued,
	  .timeout_ms = 0,
	  .arg = MAD_SIZE },
	{ .c = { .id = "umad/recv/length-set-to-message",
		 .doc = DOC_LEN,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "*length 1024 given, a 256-byte Get queued: *length "
			 "256 after",
		 .needs = NEEDS_UMAD,
		 .contract = { OK_RECV } },
	  .check = gets_queued,
	  .timeout_ms = 0,
	  .arg = RECV_ROOM },
	{ .c = { .id = "umad/recv/negative-timeout-blocks",
		 .doc = DOC_BLOCK,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a second agent sends 300 ms after the call",
		 .needs = NEEDS_UMAD,
		 /* the call must return after 300 ms: still blocked after
		  * ten times that, it hangs (where the MAD never comes) */
		 .watchdog_ms = 3000,
		 .contract = { OK_RECV, .ms = 300, .tol_ms = 120 } },
	  .check = blocks_until_arrival,
	  .timeout_ms = -1,
	  .arg = MAD_SIZE },
	{ .c = { .id = "umad/recv/returns-receiving-agent",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "of two agents, the one the Get is for",
		 .needs = NEEDS_UMAD,
		 .contract = { OK_RECV } },
	  .check = returns_receiving_agent,
	  .timeout_ms = 1000,
	  .arg = MAD_SIZE },
	{ .c = { .id = "umad/recv/length-below-256-queued",
		 .doc = DOC_EINVAL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "*length 100 with a MAD queued",
		 .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS(EINVAL) } },
	  .check = gets_queued,
	  .timeout_ms = 0,
	  .arg = 100 },
	{ .c = { .id = "umad/recv/length-255-queued",
		 .doc = DOC_EINVAL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "*length 255, one below the 256 the page asks for, "
			 "with a MAD queued",
		 .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS(EINVAL) } },
	  .check = gets_queued,
	  .timeout_ms = 0,
	  .arg = MIN_LENGTH - 1 },
	{ .c = { .id = "umad/recv/buffer-read-only",
		 .doc = DOC_EIO,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a MAD queued, the buffer a read-only page: the "
			 "kernel cannot copy the message out (read() fails "
			 "with EFAULT), the receive operation failed",
		 .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS(EIO) } },
	  .check = fails_read_only_buffer,
	  .timeout_ms = 0,
	  .arg = MAD_SIZE },
	{ .c = { .id = "umad/recv/length-below-256-empty",
		 .doc = DOC_EINVAL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "*length 100, nothing queued",
		 .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS(EINVAL) } },
	  .check = fails_when_empty,
	  .timeout_ms = 0,
	  .arg = 100 },
	{ .c = { .id = "umad/recv/null-buffer",
		 .doc = DOC_EINVAL,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the page lists no NULL buffer among the -EINVAL "
			 "causes; read as an argument as invalid as a short *length",
		 .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS(EINVAL) } },
	  .check = rejects_null_buffer,
	  .timeout_ms = 0,
	  .arg = MAD_SIZE },
	{ .c = { .id = "umad/recv/null-length",
		 .doc = DOC_EINVAL,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "no *length at all is read as less than the minimum "
			 "supported; the page does not name NULL",
		 .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS(EINVAL) } },
	  .check = rejects_null_length,
	  .timeout_ms = 0,
	  .arg = MAD_SIZE },
	{ .c = { .id = "umad/recv/unopened-port",
		 .doc = DOC_EINVAL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS(EINVAL) } },
	  .check = rejects_unopened_port,
	  .timeout_ms = 0,
	  .arg = MAD_SIZE },
	{ .c = { .id = "umad/recv/negative-handle",
		 .doc = DOC_EINVAL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = NOTE_NEG_PORTID,
		 .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS(EINVAL) } },
	  .check = rejects_negative_handle,
	  .timeout_ms = 0,
	  .arg = MAD_SIZE },
	{ .c = { .id = "umad/recv/buffer-too-small-rmpp",
		 .doc = DOC_ENOSPC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a 1040-byte RMPP message into 256 bytes: -ENOSPC, "
			 "and *length the size needed: a call with one byte less "
			 "gets -ENOSPC again, one with it the message",
		 .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS(ENOSPC) } },
	  .check = buffer_too_small,
	  .timeout_ms = 2000,
	  .arg = MAD_SIZE },
	{ .c = { .id = "umad/recv/errno-buffer-too-small",
		 .doc = DOC_ERRNO,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "\"errno is set\": to the code the call returns, "
			 "negated (ENOSPC for -ENOSPC, buffer-too-small-rmpp's "
			 "message)",
		 .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS(ENOSPC) } },
	  .check = sets_errno_too_small,
	  .timeout_ms = 2000,
	  .arg = MAD_SIZE },
	{ .c = { .id = "umad/recv/errno-nonblocking-empty",
		 .doc = DOC_ERRNO,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "\"errno is set\": to the code the call returns, "
			 "negated (EWOULDBLOCK for -EWOULDBLOCK)",
		 .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS(EWOULDBLOCK) } },
	  .check = sets_errno_when_empty,
	  .timeout_ms = 0,
	  .arg = MAD_SIZE },
	{ .c = { .id = "umad/recv/errno-timeout-empty",
		 .doc = DOC_ERRNO,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "\"errno is set\": to the code the call returns, "
			 "negated, after a 20 ms wait in which nothing arrives "
			 "(which code is not documented)",
		 .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS() } },
	  .check = sets_errno_when_empty,
	  .timeout_ms = 20,
	  .arg = MAD_SIZE },
	{ .c = { .id = "umad/recv/errno-null-buffer",
		 .doc = DOC_ERRNO,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "\"errno is set\": to the code the call returns, "
			 "negated (EINVAL for -EINVAL, no buffer)",
		 .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS(EINVAL) } },
	  .check = sets_errno_null_buffer,
	  .timeout_ms = 0,
	  .arg = MAD_SIZE },
};

/* A peer client sends a 1040-byte RMPP Set to the port. */
static bool send_rmpp(struct rc_ctx *ctx, struct peer *p)
{
	uint8_t umad[REF_UMAD_HDR_SIZE + RMPP_MAD_LEN];
	uint8_t *mad = umad + REF_UMAD_HDR_SIZE;

	if (!peer_open(ctx, p, CLASS_V2, 0, 1))
		return false;
	mad_build(ctx, umad, CLASS_V2, METHOD_SET,
		  0x4a4a); /* first 256 bytes */
	memset(mad + MAD_OFF_V2_DATA, 0x3c, RMPP_DATA);
	mad[MAD_OFF_RMPP] = 1; /* RMPP version */
	mad[MAD_OFF_RMPP + 1] = 1; /* DATA */
	mad[MAD_OFF_RMPP + 2] = 0x01; /* RMPPFlags.Active */
	return mad_address_self(ctx, umad) &&
	       !peer_send(p, umad, sizeof(umad), 2000, 0);
}

static void too_small(struct rc_ctx *ctx, int portid, uint8_t *buf, int *len)
{
	const struct rc_ops *ops = ctx->ops;
	uint8_t big[REF_UMAD_HDR_SIZE + 4096];
	long mask[16 / sizeof(long)];
	struct peer client;
	int agent, need, short_by_one;

	method_mask(mask, METHOD_BIT(METHOD_SET));
	agent = ops->umad_register_oui(portid, CLASS_V2, 1, mad_oui(ctx), mask);
	if (agent < 0) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "registering an RMPP "
			     "server: %d",
			     agent);
		return;
	}
	if (!send_rmpp(ctx, &client))
		goto out;
	if (!mad_ready(ctx, ops->umad_get_fd(portid), ARRIVE_MS)) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "the RMPP message "
			     "did not arrive");
		goto out;
	}
	RC_OBSERVE(ctx, ops->umad_recv(portid, buf, len, 0));
	need = *len;
	rc_obs_out(ctx->obs, len, sizeof(*len));
	if (ctx->obs->ret != -ENOSPC)
		goto out;
	if (need < RMPP_DATA || need > 4096) {
		rc_obs_violation(ctx->obs,
				 "*length %d after -ENOSPC; the "
				 "message has %d bytes",
				 need, RMPP_MAD_LEN);
		goto out;
	}
	/* "the size of the umad buffer needed": one byte less is not
	 * enough (the message stays queued), that size is */
	short_by_one = need - 1;
	if (ops->umad_recv(portid, big, &short_by_one, 0) != -ENOSPC)
		rc_obs_violation(ctx->obs,
				 "a buffer one byte smaller than "
				 "the size returned is not too small");
	else if (ops->umad_recv(portid, big, &need, 0) != agent)
		rc_obs_violation(ctx->obs, "a buffer of the size returned "
					   "did not get the message");
out:
	peer_close(&client);
}

/* A port with a server of CLASS_V2 on it, and what the call is given. */
struct receiver {
	int portid;
	int agent;
	struct peer peer; /* a client sending to the port */
	/* filled: it shows what a failed call writes into *length */
	uint8_t buf[REF_UMAD_HDR_SIZE + RECV_ROOM];
	int len; /* the row's *length */
};

/* Open the port and register the server; false (BROKEN) when either
 * fails.  receiver_close in any case. */
static bool receiver_open(const struct mad_row *row, struct rc_ctx *ctx,
			  struct receiver *rx)
{
	memset(rx->buf, UMAD_FILL, sizeof(rx->buf));
	rx->len = row->arg;
	rx->peer.fd = -1;
	rx->peer.thread = false;
	return impl_open(ctx, &rx->portid) &&
	       impl_agent(ctx, rx->portid, CLASS_V2, METHOD_BIT(METHOD_GET),
			  &rx->agent);
}

static void receiver_close(struct rc_ctx *ctx, struct receiver *rx)
{
	peer_close(&rx->peer);
	if (rx->portid >= 0)
		ctx->ops->umad_close_port(rx->portid);
}

#define ONLY_SERVER "the only server is"

/*
 * The call under test with @buf and @len (either may be NULL, or the
 * receiver's); a MAD it returns must be whole, and for @agent: @whose says
 * why that one.
 */
static void recv_checked(const struct mad_row *row, struct rc_ctx *ctx,
			 struct receiver *rx, uint8_t *buf, int *len, int agent,
			 const char *whose)
{
	int at;

	RC_OBSERVE(ctx,
		   ctx->ops->umad_recv(rx->portid, buf, len, row->timeout_ms));
	if (ctx->obs->ret < 0) {
		rc_obs_out(ctx->obs, &rx->len, sizeof(rx->len));
		return;
	}
	mad_summary(ctx, rx->buf);
	if (ctx->obs->ret != agent)
		rc_obs_violation(ctx->obs, "returned %lld; %s agent %d",
				 ctx->obs->ret, whose, agent);
	if (rx->len != MAD_SIZE)
		rc_obs_violation(ctx->obs, "*length %d for a %d-byte MAD",
				 rx->len, MAD_SIZE);
	/* "The message is copied to the umad buffer" */
	at = mad_payload_differs(rx->buf);
	if (at >= 0)
		rc_obs_violation(ctx->obs, "MAD byte %d is not the one sent",
				 at);
}

static void fails_when_empty(const struct mad_row *row, struct rc_ctx *ctx)
{
	struct receiver rx;

	if (receiver_open(row, ctx, &rx))
		recv_checked(row, ctx, &rx, rx.buf, &rx.len, rx.agent,
			     ONLY_SERVER);
	receiver_close(ctx, &rx);
}

static void sets_errno_when_empty(const struct mad_row *row, struct rc_ctx *ctx)
{
	fails_when_empty(row, ctx);
	mad_errno_is_code(ctx);
}

static void sets_errno_null_buffer(const struct mad_row *row,
				   struct rc_ctx *ctx)
{
	struct receiver rx;

	if (receiver_open(row, ctx, &rx))
		recv_checked(row, ctx, &rx, NULL, &rx.len, rx.agent,
			     ONLY_SERVER);
	receiver_close(ctx, &rx);
	mad_errno_is_code(ctx);
}

/* A peer's Get queued for the server; then the call, given the buffer
 * and *length unless @null_buf or @null_len. */
static void recv_queued(const struct mad_row *row, struct rc_ctx *ctx,
			bool null_buf, bool null_len)
{
	struct receiver rx;

	if (receiver_open(row, ctx, &rx) &&
	    peer_get_for(ctx, &rx.peer, rx.portid, CLASS_V2, 0))
		recv_checked(row, ctx, &rx, null_buf ? NULL : rx.buf,
			     null_len ? NULL : &rx.len, rx.agent, ONLY_SERVER);
	receiver_close(ctx, &rx);
}

/* the row's MAD queued, and a page the process cannot write given */
static void fails_read_only_buffer(const struct mad_row *row,
				   struct rc_ctx *ctx)
{
	size_t size = sysconf(_SC_PAGESIZE);
	struct receiver rx;
	uint8_t *ro;

	ro = mmap(NULL, size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (ro == MAP_FAILED) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN, "mmap: %s",
			     strerror(errno));
		return;
	}
	if (receiver_open(row, ctx, &rx) &&
	    peer_get_for(ctx, &rx.peer, rx.portid, CLASS_V2, 0))
		recv_checked(row, ctx, &rx, ro, &rx.len, rx.agent, ONLY_SERVER);
	receiver_close(ctx, &rx);
	munmap(ro, size);
}

static void gets_queued(const struct mad_row *row, struct rc_ctx *ctx)
{
	recv_queued(row, ctx, false, false);
}

static void rejects_null_buffer(const struct mad_row *row, struct rc_ctx *ctx)
{
	recv_queued(row, ctx, true, false);
}

static void rejects_null_length(const struct mad_row *row, struct rc_ctx *ctx)
{
	recv_queued(row, ctx, false, true);
}

static void blocks_until_arrival(const struct mad_row *row, struct rc_ctx *ctx)
{
	struct receiver rx;

	if (receiver_open(row, ctx, &rx) &&
	    peer_get_for(ctx, &rx.peer, rx.portid, CLASS_V2, 300))
		recv_checked(row, ctx, &rx, rx.buf, &rx.len, rx.agent,
			     ONLY_SERVER);
	receiver_close(ctx, &rx);
}

static void returns_receiving_agent(const struct mad_row *row,
				    struct rc_ctx *ctx)
{
	struct receiver rx;
	int server;

	if (receiver_open(row, ctx, &rx) &&
	    impl_agent(ctx, rx.portid, CLASS_V2_OTHER, METHOD_BIT(METHOD_GET),
		       &server) &&
	    peer_get_for(ctx, &rx.peer, rx.portid, CLASS_V2_OTHER, 0))
		recv_checked(row, ctx, &rx, rx.buf, &rx.len, server,
			     "the Get was for");
	receiver_close(ctx, &rx);
}

/* umad_recv on handle @portid, which no open gave */
static void rejects_handle(const struct mad_row *row, struct rc_ctx *ctx,
			   int portid)
{
	uint8_t buf[MAD_BUF_LEN];
	int len = row->arg;

	memset(buf, UMAD_FILL, sizeof(buf));
	RC_OBSERVE(ctx, ctx->ops->umad_recv(portid, buf, &len, 0));
	rc_obs_out(ctx->obs, &len, sizeof(len));
}

static void rejects_unopened_port(const struct mad_row *row, struct rc_ctx *ctx)
{
	rejects_handle(row, ctx, BAD_PORTID);
}

static void rejects_negative_handle(const struct mad_row *row,
				    struct rc_ctx *ctx)
{
	rejects_handle(row, ctx, NEG_PORTID);
}

static void buffer_too_small(const struct mad_row *row, struct rc_ctx *ctx)
{
	uint8_t buf[MAD_BUF_LEN];
	int portid, len = row->arg;

	memset(buf, UMAD_FILL, sizeof(buf));
	if (!impl_open(ctx, &portid))
		return;
	too_small(ctx, portid, buf, &len);
	ctx->ops->umad_close_port(portid);
}

static void sets_errno_too_small(const struct mad_row *row, struct rc_ctx *ctx)
{
	buffer_too_small(row, ctx);
	mad_errno_is_code(ctx);
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct mad_row *row = r;

	if (!NEED_MAD_CALLS(ctx) ||
	    !rc_need_call(ctx, ctx->ops->umad_recv, "umad_recv"))
		return;
	row->check(row, ctx);
}

static const struct rc_group group = {
	.call = "umad_recv",
	.conv = RC_CONV_NEG_ERRNO,
	.lib = "umad",
	.rows = rows,
	.row_size = sizeof(rows[0]),
	.nrows = ARRAY_SIZE(rows),
	.run = run,
	.shares = RC_SHARE_VENDOR_OUI,
};
RC_GROUP(group);
