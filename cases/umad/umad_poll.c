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

#define DOC_READY "Once a packet is ready to be read, the function returns " \
	"0.  After that the packet can be read using umad_recv()."
#define DOC_TIMEDOUT "Otherwise, -ETIMEDOUT is returned."
#define DOC_EINVAL "-EINVAL    invalid port handle or agentid"

enum { EMPTY, QUEUED, ARRIVES, BAD_PORT };

static const struct mad_row rows[] = {
	{ .c = { .id = "umad/poll/empty-100ms", .doc = DOC_TIMEDOUT,
		 .basis = RC_BASIS_DOCUMENTED, .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS(ETIMEDOUT), .ms = 100, .tol_ms = 40 } },
	  .mode = EMPTY, .timeout_ms = 100 },
	{ .c = { .id = "umad/poll/empty-zero-timeout", .doc = DOC_TIMEDOUT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "timeout 0: at once", .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS(ETIMEDOUT), .ms = 0, .tol_ms = 50 } },
	  .mode = EMPTY, .timeout_ms = 0 },
	{ .c = { .id = "umad/poll/queued", .doc = DOC_READY,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "then umad_recv with timeout 0 gets it",
		 .needs = NEEDS_UMAD,
		 .contract = { .ret = RC_RET_EQ } },
	  .mode = QUEUED, .timeout_ms = 1000 },
	{ .c = { .id = "umad/poll/arrives-while-waiting", .doc = DOC_READY,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a Get sent 200 ms into a 5 s wait",
		 .needs = NEEDS_UMAD,
		 /* above the wait, whatever the run's watchdog: a Get that
		  * never comes ends the poll, not the row */
		 .watchdog_ms = 8000,
		 .contract = { .ret = RC_RET_EQ, .ms = 200,
			     .tol_ms = 80 } },
	  .mode = ARRIVES, .timeout_ms = 5000 },
	{ .c = { .id = "umad/poll/unopened-port", .doc = DOC_EINVAL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = NEEDS_UMAD, .contract = { RC_FAILS(EINVAL) } },
	  .mode = BAD_PORT, .timeout_ms = 100 },
};

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct mad_row *row = r;
	const struct rc_ops *ops = ctx->ops;
	uint8_t buf[MAD_BUF_LEN];
	struct peer peer = { .fd = -1 };
	int portid, agent, len = MAD_SIZE;

	if (!NEED_MAD_CALLS(ctx) ||
	    !rc_need_call(ctx, ops->umad_poll, "umad_poll") ||
	    !rc_need_call(ctx, ops->umad_recv, "umad_recv"))
		return;
	if (row->mode == BAD_PORT) {
		RC_OBSERVE(ctx, ops->umad_poll(BAD_PORTID, row->timeout_ms));
		return;
	}
	if (!impl_open(ctx, &portid))
		return;
	if (!impl_agent(ctx, portid, CLASS_V2, METHOD_BIT(METHOD_GET), &agent))
		goto out;
	if (row->mode != EMPTY &&
	    (!peer_open(ctx, &peer, CLASS_V2, 0, 0) ||
	     !peer_get(ctx, &peer, CLASS_V2, row->mode == ARRIVES ? 200 : 0) ||
	     (row->mode == QUEUED &&
	      !mad_ready(ctx, ops->umad_get_fd(portid), ARRIVE_MS)))) {
		if (ctx->obs->state != RC_STATE_BROKEN)
			rc_obs_state(ctx->obs, RC_STATE_BROKEN, "the peer's "
				     "Get did not arrive");
		goto out;
	}
	RC_OBSERVE(ctx, ops->umad_poll(portid, row->timeout_ms));
	if (ctx->obs->ret == 0 &&
	    ops->umad_recv(portid, buf, &len, 0) != agent)
		rc_obs_violation(ctx->obs, "umad_recv after it got no MAD");
out:
	peer_close(&peer);
	ops->umad_close_port(portid);
}

static const struct rc_group group = {
	.call = "umad_poll", .conv = RC_CONV_NEG_ERRNO,
	.lib = "umad", .rows = rows,
	.row_size = sizeof(rows[0]), .nrows = ARRAY_SIZE(rows), .run = run,
	.shares = RC_SHARE_VENDOR_OUI,
};
RC_GROUP(group);

#define DOC_FD "umad_get_fd() returns the umad fd for the port specified " \
	"by portid."
#define DOC_FD_EINVAL "umad_get_fd() returns the fd for the portid " \
	"requested or -EINVAL if portid is invalid."

static const struct mad_row fd_rows[] = {
	{ .c = { .id = "umad/get_fd/open-port", .doc = DOC_FD,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "an open /dev/infiniband/umadN on which a MAD for the "
			 "port's agent is readable", .needs = NEEDS_UMAD,
		 .contract = { RC_SUCCEEDS } },
	  .mode = QUEUED },
	{ .c = { .id = "umad/get_fd/unopened-port", .doc = DOC_FD_EINVAL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = NEEDS_UMAD, .contract = { RC_FAILS(EINVAL) } },
	  .mode = BAD_PORT },
};

static void run_fd(const void *r, struct rc_ctx *ctx)
{
	const struct mad_row *row = r;
	const struct rc_ops *ops = ctx->ops;
	char link[64], target[256];
	uint8_t buf[MAD_BUF_LEN];
	struct peer peer = { .fd = -1 };
	int portid, agent, fd;
	ssize_t n;

	if (!NEED_MAD_CALLS(ctx))
		return;
	if (row->mode == BAD_PORT) {
		RC_OBSERVE(ctx, ops->umad_get_fd(BAD_PORTID));
		return;
	}
	if (!impl_open(ctx, &portid))
		return;
	if (!impl_agent(ctx, portid, CLASS_V2, METHOD_BIT(METHOD_GET), &agent))
		goto out;
	RC_OBSERVE(ctx, fd = ops->umad_get_fd(portid));
	if (fd < 0)
		goto out;
	ctx->obs->ret = 0;	/* descriptor numbers differ between runs */
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
		rc_obs_violation(ctx->obs, "no MAD for agent %d readable on "
				 "fd %d", agent, fd);
out:
	peer_close(&peer);
	ops->umad_close_port(portid);
}

static const struct rc_group fd_group = {
	.call = "umad_get_fd", .conv = RC_CONV_NEG_ERRNO,
	.lib = "umad", .rows = fd_rows,
	.row_size = sizeof(fd_rows[0]), .nrows = ARRAY_SIZE(fd_rows),
	.run = run_fd,
	.shares = RC_SHARE_VENDOR_OUI,
};
RC_GROUP(fd_group);
