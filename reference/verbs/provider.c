// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Which provider a device has (objects.h), and the queue buffers a
 * provider maps: the kernel gives each an offset into the context's
 * command fd (rxe: struct mminfo, siw: a *_key), mapped shared and
 * writable, as both drivers' mmap handlers expect.
 */
#include <errno.h>
#include <sys/mman.h>
#include <rdma/ib_user_ioctl_verbs.h>

#include "objects.h"

extern const struct ref_provider ref_provider_rxe;
extern const struct ref_provider ref_provider_siw;

/* A driver the reference has no part for: the commands go without one. */
static const struct ref_provider provider_none = {
	.name = "none",
	.driver_id = RDMA_DRIVER_UNKNOWN,
};

const struct ref_provider *ref_provider_for(int driver_id)
{
	if (driver_id == ref_provider_rxe.driver_id)
		return &ref_provider_rxe;
	if (driver_id == ref_provider_siw.driver_id)
		return &ref_provider_siw;
	return &provider_none;
}

int ref_queue_map(struct ref_context *ctx, struct ref_queue *q, uint64_t offset,
		  size_t len)
{
	void *addr;

	if (!len)
		return EINVAL;
	addr = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED,
		    ctx->ctx.cmd_fd, offset);
	if (addr == MAP_FAILED)
		return errno;
	q->addr = addr;
	q->len = len;
	return 0;
}

void ref_queue_unmap(struct ref_queue *q)
{
	if (q->addr)
		munmap(q->addr, q->len);
	q->addr = NULL;
	q->len = 0;
}
