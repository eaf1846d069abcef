// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_alloc_buf(3), ibv_free_buf(3), ibv_reg_buf_mr(3),
 * ibv_export_buf_dmabuf_fd(3): documented since rdma-core 64 (IBVERBS_1.17;
 * the export 1.18), written from upstream's page.
 *
 * ibv_alloc_buf "allocates a buffer using the allocation method selected
 * by the provider for the protection domain pd".  No provider the
 * reference knows (rxe, siw, none) selects one: their buffers are ordinary
 * memory, fresh anonymous pages of the process, which "For ordinary memory
 * it behaves like ibv_reg_mr()" registers, and which no DMA-buf backs
 * ("If buf is not backed by a DMA-buf, errno is set to ENODATA").  The
 * handle remembers the PD, the address and the size asked for: the
 * registered range must lie within those bytes, not within the page they
 * were rounded up to.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ref_verbs.h"
#include "objects.h"

struct ref_buf {
	struct ibv_pd *pd; /* "The pd argument must be the same" */
	void *addr;
	size_t size; /* as asked */
	size_t mapped; /* the pages behind it */
};

static struct ref_buf *ref_buf(struct ibv_buf *buf)
{
	return (struct ref_buf *)buf;
}

/* "returns the mapped buffer address on success, or NULL if the request
 * fails" */
void *ref_ibv_alloc_buf(struct ibv_pd *pd, size_t size, struct ibv_buf **buf)
{
	size_t page = sysconf(_SC_PAGESIZE);
	struct ref_buf *b;
	void *p;

	/* a size of 0 has no bytes to map; one that does not round up to
	 * whole pages cannot be mapped */
	if (!pd || !buf || !size || size > SIZE_MAX - page)
		return ref_fail_null(EINVAL);
	b = calloc(1, sizeof(*b));
	if (!b)
		return ref_fail_null(ENOMEM);
	b->mapped = (size + page - 1) / page * page;
	p = mmap(NULL, b->mapped, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		free(b);
		return ref_fail_null(ENOMEM);
	}
	b->pd = pd;
	b->addr = p;
	b->size = size;
	*buf = (struct ibv_buf *)b;
	return p;
}

/* "releases a buffer handle returned by ibv_alloc_buf()": its memory is
 * the process's no more */
void ref_ibv_free_buf(struct ibv_buf *buf)
{
	struct ref_buf *b = ref_buf(buf);

	if (!b)
		return;
	munmap(b->addr, b->mapped);
	free(b);
}

int ref_buf_range(struct ibv_pd *pd, struct ibv_buf *buf, void *addr,
		  size_t length)
{
	struct ref_buf *b = ref_buf(buf);
	uintptr_t start, a = (uintptr_t)addr;

	if (!b || !pd)
		return EINVAL;
	/* "If a different protection domain is supplied, registration fails
	 * with EINVAL." */
	if (pd != b->pd)
		return EINVAL;
	/* "the buffer base returned by ibv_alloc_buf() or an address within
	 * that buffer"; "addr + length must stay within the buffer" */
	start = (uintptr_t)b->addr;
	if (a < start || a - start >= b->size || length > b->size - (a - start))
		return EINVAL;
	return 0;
}

/* "returns a pointer to the registered MR on success, or NULL if the
 * request fails" */
struct ibv_mr *ref_ibv_reg_buf_mr(struct ibv_pd *pd, struct ibv_buf *buf,
				  void *addr, size_t length, int access)
{
	int err = ref_buf_range(pd, buf, addr, length);

	if (err)
		return ref_fail_null(err);
	return ref_ibv_reg_mr(pd, addr, length, access);
}

/* "returns a file descriptor >= 0 on success, or -1 if the request fails
 * with errno set.  If buf is not backed by a DMA-buf, errno is set to
 * ENODATA." */
int ref_ibv_export_buf_dmabuf_fd(struct ibv_buf *buf)
{
	errno = buf ? ENODATA : EINVAL;
	return -1;
}
