// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Whether the kernel takes written rdma_cm events (rdmacm_written.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <unistd.h>

#include "rdmacm_written.h"

/*
 * The kernel's rdma_cm takes a written event (RDMA_USER_CM_CMD_WRITE_CM_EVENT,
 * the command after RESOLVE_IB_SERVICE) when it answers one for an id it
 * does not have with ENOENT (ucma_get_ctx); a kernel without the command
 * refuses its number (EINVAL).  Asked of the device here, not through
 * either implementation.
 */
int cm_written_events(void)
{
	struct {
		uint32_t cmd;
		uint16_t in, out;
		uint32_t id, reserved, event, status;
		uint8_t param[280];
	} req = { .cmd = 24, .id = UINT32_MAX, .event = 18 };
	int fd = open("/dev/infiniband/rdma_cm", O_RDWR | O_CLOEXEC);
	int has;

	if (fd < 0)
		return -1;
	req.in = sizeof(req) - 8;
	has = write(fd, &req, sizeof(req)) < 0 && errno == ENOENT;
	close(fd);
	return has;
}

bool cm_kernel_writes_events(struct rc_ctx *ctx)
{
	int has = cm_written_events();

	if (has < 0)
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "open /dev/infiniband/rdma_cm: %m");
	else if (!has)
		rc_obs_state(ctx->obs, RC_STATE_SKIP,
			     "the kernel's rdma_cm takes no written events "
			     "(RDMA_USER_CM_CMD_WRITE_CM_EVENT, Linux 6.15)");
	return has > 0;
}
