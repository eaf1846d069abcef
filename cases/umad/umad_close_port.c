// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * umad_close_port(3): "closes the port specified by the handle portid."
 * "returns 0 on success, and a negative value on error.  -EINVAL is
 * returned if the portid is not a handle to a valid (open) port."
 *
 * - an open port closes with 0, and its descriptor is closed after it
 * - a handle never opened, and a handle closed before: -EINVAL; so is a
 *   descriptor of another file below an open port's, which stays open
 * - three ports open, the first closed and opened again (its descriptor
 *   reused): each of the three closes with 0
 */
#include <fcntl.h>
#include <unistd.h>

#include "umad_dev.h"

#define DOC_OK                                                       \
	"umad_close_port() closes the port specified by the handle " \
	"portid."
#define DOC_EINVAL                                                \
	"-EINVAL is returned if the portid is not a handle to a " \
	"valid (open) port."

static dev_check closes_open_port, rejects_never_opened, rejects_closed_twice,
	rejects_negative_handle, rejects_other_file, closes_after_reopen;

static const struct dev_row rows[] = {
	{ .c = { .id = "umad/close_port/open-port",
		 .doc = DOC_OK,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = NEEDS_UMAD,
		 .contract = { .ret = RC_RET_EQ, .value = 0 } },
	  .ca = CA_TARGET,
	  .port = PORT_TARGET,
	  .check = closes_open_port },
	{ .c = { .id = "umad/close_port/never-opened",
		 .doc = DOC_EINVAL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "handle 1000: not a descriptor umad_open_port gave",
		 .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS(EINVAL) } },
	  .check = rejects_never_opened },
	{ .c = { .id = "umad/close_port/closed-twice",
		 .doc = DOC_EINVAL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS(EINVAL) } },
	  .ca = CA_TARGET,
	  .port = PORT_TARGET,
	  .check = rejects_closed_twice },
	{ .c = { .id = "umad/close_port/descriptor-of-another-file",
		 .doc = DOC_EINVAL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a descriptor of /dev/null opened before a port (a "
			 "lower number): not a port, and it stays open",
		 .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS(EINVAL) } },
	  .ca = CA_TARGET,
	  .port = PORT_TARGET,
	  .check = rejects_other_file },
	{ .c = { .id = "umad/close_port/each-after-reopen",
		 .doc = DOC_OK,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "three ports open, the first closed and the port "
			 "opened again, which reuses its descriptor: each of the "
			 "three open handles closes with 0 (the call observed is "
			 "the last's)",
		 .needs = NEEDS_UMAD,
		 .contract = { .ret = RC_RET_EQ, .value = 0 } },
	  .ca = CA_TARGET,
	  .port = PORT_TARGET,
	  .check = closes_after_reopen },
	{ .c = { .id = "umad/close_port/negative-handle",
		 .doc = DOC_EINVAL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = NOTE_NEG_PORTID,
		 .needs = NEEDS_UMAD,
		 .contract = { RC_FAILS(EINVAL) } },
	  .check = rejects_negative_handle },
};

/* The target's port opened, not the call under test; -1 (BROKEN) when it
 * does not open. */
static int open_target(const struct dev_row *row, struct rc_ctx *ctx)
{
	int fd = ctx->ops->umad_open_port(dev_row_ca(row, ctx),
					  dev_row_port(row, ctx));

	if (fd < 0) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN, "umad_open_port: %d",
			     fd);
		return -1;
	}
	return fd;
}

static void closes_open_port(const struct dev_row *row, struct rc_ctx *ctx)
{
	int fd = open_target(row, ctx);

	if (fd < 0)
		return;
	RC_OBSERVE(ctx, ctx->ops->umad_close_port(fd));
	if (fcntl(fd, F_GETFD) >= 0)
		rc_obs_violation(ctx->obs,
				 "descriptor %d still open after "
				 "umad_close_port",
				 fd);
}

static void rejects_never_opened(const struct dev_row *row, struct rc_ctx *ctx)
{
	RC_OBSERVE(ctx, ctx->ops->umad_close_port(1000));
}

static void rejects_negative_handle(const struct dev_row *row,
				    struct rc_ctx *ctx)
{
	RC_OBSERVE(ctx, ctx->ops->umad_close_port(NEG_PORTID));
}

static void rejects_other_file(const struct dev_row *row, struct rc_ctx *ctx)
{
	int other = open("/dev/null", O_RDONLY | O_CLOEXEC), fd;

	if (other < 0) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN, "open /dev/null");
		return;
	}
	fd = open_target(row, ctx);
	if (fd >= 0) {
		RC_OBSERVE(ctx, ctx->ops->umad_close_port(other));
		ctx->ops->umad_close_port(fd);
	}
	if (fcntl(other, F_GETFD) < 0)
		rc_obs_violation(ctx->obs, "descriptor %d of /dev/null closed",
				 other);
	close(other);
}

static void closes_after_reopen(const struct dev_row *row, struct rc_ctx *ctx)
{
	int fd[3], i;

	for (i = 0; i < 3; i++)
		if ((fd[i] = open_target(row, ctx)) < 0)
			return;
	ctx->ops->umad_close_port(fd[0]);
	if ((fd[0] = open_target(row, ctx)) < 0)
		return;
	dev_close_each(ctx, fd, 2);
	RC_OBSERVE(ctx, ctx->ops->umad_close_port(fd[2]));
}

static void rejects_closed_twice(const struct dev_row *row, struct rc_ctx *ctx)
{
	int fd = open_target(row, ctx);

	if (fd < 0)
		return;
	ctx->ops->umad_close_port(fd);
	RC_OBSERVE(ctx, ctx->ops->umad_close_port(fd));
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct dev_row *row = r;
	const struct rc_ops *ops = ctx->ops;

	if (!rc_need_call(ctx, ops->umad_open_port, "umad_open_port") ||
	    !rc_need_call(ctx, ops->umad_close_port, "umad_close_port"))
		return;
	row->check(row, ctx);
}

RC_TABLE_GROUP(group, "umad_close_port", RC_CONV_NEG_ERRNO, "umad", rows, run);
