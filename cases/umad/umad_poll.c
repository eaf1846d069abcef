// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * umad_poll(3): "waits up to timeout_ms milliseconds for a packet to be
 * received from the port specified by portid.  Once a packet is ready to be
 * read, the function returns 0.  After that the packet can be read using
 * umad_recv().  Otherwise, -ETIMEDOUT is returned."  "returns 0 on success,
 * and a negative value on error as follows: -EINVAL invalid port handle or
 * agentid -ETIMEDOUT poll operation timed out -EIO poll operation failed".
 *
 * Also umad_get_fd(3): "returns the umad fd for the port specified by
 * portid."  "returns the fd for the portid requested or -EINVAL if portid
 * is invalid."
 */
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "umad_mad.h"

#define DOC_READY                                                  \
	"Once a packet is ready to be read, the function returns " \
	"0.  After that the packet can be read using umad_recv()."
#define DOC_TIMEDOUT "Otherwise, -ETIMEDOUT is returned."
#define DOC_EINVAL "-EINVAL    invalid port handle or agentid"

static mad_check times_out_empty, ready_when_queued, ready_when_arrives,
	rejects_unopened_port, rejects_negative_handle, fd_reads_agent_mads,
	no_fd_for_unopened_port, no_fd_for_negative_handle;

static const struct mad_row rows[] = {
	{ .c = { .id = "umad/poll/empty-100ms",
		 .doc = DOC_TIMEDOUT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS(ETIMEDOUT), .ms = 100, .tol_ms = 40 } },
	  .check = times_out_empty,
	  .timeout_ms = 100 },
	{ .c = { .id = "umad/poll/empty-zero-timeout",
		 .doc = DOC_TIMEDOUT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "timeout 0: at once",
		 .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS(ETIMEDOUT), .ms = 0, .tol_ms = 50 } },
	  .check = times_out_empty,
	  .timeout_ms = 0 },
	{ .c = { .id = "umad/poll/queued",
		 .doc = DOC_READY,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "then umad_recv with timeout 0 gets it",
		 .needs = NEEDS_UMAD,
		 .contract = { .ret = RC_RET_EQ } },
	  .check = ready_when_queued,
	  .timeout_ms = 1000 },
	{ .c = { .id = "umad/poll/arrives-while-waiting",
		 .doc = DOC_READY,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a Get sent 200 ms into a 2 s wait",
		 .needs = NEEDS_UMAD,
		 /* above the wait, whatever the run's watchdog: a Get that
		  * never comes ends the poll, not the row */
		 .watchdog_ms = 5000,
		 .contract = { .ret = RC_RET_EQ, .ms = 200, .tol_ms = 80 } },
	  .check = ready_when_arrives,
	  /* ten times what the Get takes: where it never comes (ibsim),
	   * the row waits this out */
	  .timeout_ms = 2000 },
	{ .c = { .id = "umad/poll/unopened-port",
		 .doc = DOC_EINVAL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS(EINVAL) } },
	  .check = rejects_unopened_port,
	  .timeout_ms = 100 },
	{ .c = { .id = "umad/poll/negative-handle",
		 .doc = DOC_EINVAL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = NOTE_NEG_PORTID,
		 .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS(EINVAL) } },
	  .check = rejects_negative_handle,
	  .timeout_ms = 100 },
};

/* The port opened and a server of CLASS_V2 registered on it: the agent a
 * polled MAD is for.  False (BROKEN) when either fails; close_server in
 * any case. */
static bool open_server(struct rc_ctx *ctx, int *portid, int *agent)
{
	return impl_open(ctx, portid) &&
	       impl_agent(ctx, *portid, CLASS_V2, METHOD_BIT(METHOD_GET),
			  agent);
}

static void close_server(struct rc_ctx *ctx, int portid)
{
	if (portid >= 0)
		ctx->ops->umad_close_port(portid);
}

/* The call under test; a MAD it says is ready, umad_recv must get. */
static void poll_then_recv(const struct mad_row *row, struct rc_ctx *ctx,
			   int portid, int agent)
{
	const struct rc_ops *ops = ctx->ops;
	uint8_t buf[MAD_BUF_LEN];
	int len = MAD_SIZE;

	RC_OBSERVE(ctx, ops->umad_poll(portid, row->timeout_ms));
	if (ctx->obs->ret == 0 && ops->umad_recv(portid, buf, &len, 0) != agent)
		rc_obs_violation(ctx->obs, "umad_recv after it got no MAD");
}

static void times_out_empty(const struct mad_row *row, struct rc_ctx *ctx)
{
	int portid, agent;

	if (open_server(ctx, &portid, &agent))
		poll_then_recv(row, ctx, portid, agent);
	close_server(ctx, portid);
}

/* Poll for a peer's Get sent after @delay_ms (0: queued before). */
static void poll_for_get(const struct mad_row *row, struct rc_ctx *ctx,
			 int delay_ms)
{
	struct peer peer = { .fd = -1 };
	int portid, agent;

	if (open_server(ctx, &portid, &agent) &&
	    peer_get_for(ctx, &peer, portid, CLASS_V2, delay_ms))
		poll_then_recv(row, ctx, portid, agent);
	peer_close(&peer);
	close_server(ctx, portid);
}

static void ready_when_queued(const struct mad_row *row, struct rc_ctx *ctx)
{
	poll_for_get(row, ctx, 0);
}

static void ready_when_arrives(const struct mad_row *row, struct rc_ctx *ctx)
{
	poll_for_get(row, ctx, 200);
}

static void rejects_unopened_port(const struct mad_row *row, struct rc_ctx *ctx)
{
	RC_OBSERVE(ctx, ctx->ops->umad_poll(BAD_PORTID, row->timeout_ms));
}

static void rejects_negative_handle(const struct mad_row *row,
				    struct rc_ctx *ctx)
{
	RC_OBSERVE(ctx, ctx->ops->umad_poll(NEG_PORTID, row->timeout_ms));
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct mad_row *row = r;
	const struct rc_ops *ops = ctx->ops;

	if (!NEED_MAD_CALLS(ctx) ||
	    !rc_need_call(ctx, ops->umad_poll, "umad_poll") ||
	    !rc_need_call(ctx, ops->umad_recv, "umad_recv"))
		return;
	row->check(row, ctx);
}

static const struct rc_group group = {
	.call = "umad_poll",
	.conv = RC_CONV_NEG_ERRNO,
	.lib = "umad",
	.rows = rows,
	.row_size = sizeof(rows[0]),
	.nrows = ARRAY_SIZE(rows),
	.run = run,
	.shares = RC_SHARE_VENDOR_OUI,
};
RC_GROUP(group);

#define DOC_FD                                                      \
	"umad_get_fd() returns the umad fd for the port specified " \
	"by portid."
#define DOC_FD_EINVAL                                  \
	"umad_get_fd() returns the fd for the portid " \
	"requested or -EINVAL if portid is invalid."

static const struct mad_row fd_rows[] = {
	{ .c = { .id = "umad/get_fd/open-port",
		 .doc = DOC_FD,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "an open /dev/infiniband/umadN on which a MAD for the "
			 "port's agent is readable",
		 .needs = NEEDS_UMAD,
		 .contract = { RC_SUCCEEDS } },
	  .check = fd_reads_agent_mads },
	{ .c = { .id = "umad/get_fd/unopened-port",
		 .doc = DOC_FD_EINVAL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS(EINVAL) } },
	  .check = no_fd_for_unopened_port },
	{ .c = { .id = "umad/get_fd/negative-handle",
		 .doc = DOC_FD_EINVAL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = NOTE_NEG_PORTID,
		 .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS(EINVAL) } },
	  .check = no_fd_for_negative_handle },
};

static void fd_reads_agent_mads(const struct mad_row *row, struct rc_ctx *ctx)
{
	char link[64], target[256];
	uint8_t buf[MAD_BUF_LEN];
	struct peer peer = { .fd = -1 };
	int portid, agent, fd;
	ssize_t n;

	if (!open_server(ctx, &portid, &agent))
		goto out;
	RC_OBSERVE(ctx, fd = ctx->ops->umad_get_fd(portid));
	if (fd < 0)
		goto out;
	ctx->obs->ret = 0; /* descriptor numbers differ between runs */
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, target, sizeof(target) - 1);
	target[n > 0 ? n : 0] = 0;
	if (strncmp(target, "/dev/infiniband/umad", 20)) {
		rc_obs_violation(ctx->obs, "fd %d is \"%s\"", fd, target);
		goto out;
	}
	if (peer_open(ctx, &peer, CLASS_V2, 0, 0) &&
	    peer_get(ctx, &peer, CLASS_V2, 0) &&
	    mad_wait(ctx, fd, buf, sizeof(buf), ARRIVE_MS) <= 0)
		rc_obs_violation(ctx->obs,
				 "no MAD for agent %d readable on "
				 "fd %d",
				 agent, fd);
out:
	peer_close(&peer);
	close_server(ctx, portid);
}

static void no_fd_for_unopened_port(const struct mad_row *row,
				    struct rc_ctx *ctx)
{
	RC_OBSERVE(ctx, ctx->ops->umad_get_fd(BAD_PORTID));
}

static void no_fd_for_negative_handle(const struct mad_row *row,
				      struct rc_ctx *ctx)
{
	RC_OBSERVE(ctx, ctx->ops->umad_get_fd(NEG_PORTID));
}

static void run_fd(const void *r, struct rc_ctx *ctx)
{
	const struct mad_row *row = r;

	if (NEED_MAD_CALLS(ctx))
		row->check(row, ctx);
}

static const struct rc_group fd_group = {
	.call = "umad_get_fd",
	.conv = RC_CONV_NEG_ERRNO,
	.lib = "umad",
	.rows = fd_rows,
	.row_size = sizeof(fd_rows[0]),
	.nrows = ARRAY_SIZE(fd_rows),
	.run = run_fd,
	.shares = RC_SHARE_VENDOR_OUI,
};
RC_GROUP(fd_group);
