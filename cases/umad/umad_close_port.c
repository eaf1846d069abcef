// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * umad_close_port(3): "closes the port specified by the handle portid."
 * "returns 0 on success, and a negative value on error.  -EINVAL is
 * returned if the portid is not a handle to a valid (open) port."
 *
 * - an open port closes with 0, and its descriptor is closed after it
 * - a handle never opened, and a handle closed before: -EINVAL
 */
#include <fcntl.h>

#include "umad_dev.h"

#define DOC_OK "umad_close_port() closes the port specified by the handle " \
	"portid."
#define DOC_EINVAL "-EINVAL is returned if the portid is not a handle to a " \
	"valid (open) port."

enum { OPEN_ONCE, NEVER_OPENED, CLOSE_TWICE };

static const struct dev_row rows[] = {
	{ .c = { .id = "umad/close_port/open-port", .doc = DOC_OK,
		 .basis = RC_BASIS_DOCUMENTED, .needs = NEEDS_UMAD,
		 .contract = { .ret = RC_RET_EQ, .value = 0 } },
	  .ca = CA_TARGET, .port = PORT_TARGET, .mode = OPEN_ONCE },
	{ .c = { .id = "umad/close_port/never-opened", .doc = DOC_EINVAL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "handle 1000: not a descriptor umad_open_port gave",
		 .needs = NEEDS_UMAD, .contract = { RC_FAILS(EINVAL) } },
	  .mode = NEVER_OPENED },
	{ .c = { .id = "umad/close_port/closed-twice", .doc = DOC_EINVAL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = NEEDS_UMAD, .contract = { RC_FAILS(EINVAL) } },
	  .ca = CA_TARGET, .port = PORT_TARGET, .mode = CLOSE_TWICE },
};

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct dev_row *row = r;
	const struct rc_ops *ops = ctx->ops;
	int fd = 1000;

	if (!rc_need_call(ctx, ops->umad_open_port, "umad_open_port") ||
	    !rc_need_call(ctx, ops->umad_close_port, "umad_close_port"))
		return;
	if (row->mode != NEVER_OPENED) {
		fd = ops->umad_open_port(dev_row_ca(row, ctx),
					 dev_row_port(row, ctx));
		if (fd < 0) {
			rc_obs_state(ctx->obs, RC_STATE_BROKEN,
				     "umad_open_port: %d", fd);
			return;
		}
	}
	if (row->mode == CLOSE_TWICE)
		ops->umad_close_port(fd);
	RC_OBSERVE(ctx, ops->umad_close_port(fd));
	if (row->mode == OPEN_ONCE && fcntl(fd, F_GETFD) >= 0)
		rc_obs_violation(ctx->obs, "descriptor %d still open after "
				 "umad_close_port", fd);
}

static const struct rc_group group = {
	.call = "umad_close_port", .conv = RC_CONV_NEG_ERRNO,
	.lib = "umad", .rows = rows,
	.row_size = sizeof(rows[0]), .nrows = ARRAY_SIZE(rows), .run = run,
};
RC_GROUP(group);
