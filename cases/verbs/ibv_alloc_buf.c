// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_alloc_buf(3), documented since rdma-core 64 (IBVERBS_1.17;
 * ibv_export_buf_dmabuf_fd since 65, IBVERBS_1.18): "ibv_alloc_buf()
 * allocates a buffer using the allocation method selected by the provider
 * for the protection domain pd."  rxe and siw select none: their buffers
 * are ordinary memory, which ibv_reg_buf_mr registers as ibv_reg_mr(3)
 * does and which no DMA-buf backs.  rdma-core 44.0 has none of the four:
 * ABSENT there, as rdma-core.expect records with the version.
 *
 * A buffer of 10000 bytes ends inside its third page, so a range one byte
 * beyond it is still memory ibv_reg_mr would take: only the handle's
 * bounds refuse it.
 *
 * ibv_alloc_buf:
 * - the mapped address and a handle; every byte writable (documented)
 * - the handle is the buffer's: with its PD it registers the buffer and
 *   not a byte more, and freeing it unmaps the buffer (documented: "an
 *   opaque buffer handle"; the effect where it lands)
 * - two buffers do not overlap (interpretation)
 * - a size no address space holds: NULL (interpretation)
 * ibv_free_buf:
 * - then the PD deallocates (interpretation: nothing holds it after)
 * - the buffer's memory is unmapped (interpretation of "releases")
 * - another buffer keeps its bytes and still registers (state across
 *   calls; interpretation)
 * ibv_reg_buf_mr:
 * - the whole buffer: addr, length, pd as given, the kernel holds it
 *   (documented: "behaves like ibv_reg_mr()")
 * - a range ending at the buffer's last byte; one byte beyond: NULL
 *   (documented)
 * - a range inside, touching neither end (documented); an empty range at
 *   the address past the last byte, and a byte of another buffer mapped
 *   above it: NULL (documented)
 * - an address of another buffer: NULL (documented)
 * - another PD: NULL, EINVAL (documented)
 * - REMOTE_WRITE without LOCAL_WRITE: NULL (documented, ibv_reg_mr(3)'s
 *   rule)
 * - the MR carries an RDMA Write into the buffer (documented)
 * ibv_export_buf_dmabuf_fd:
 * - ordinary memory: -1, ENODATA (documented)
 * - and no descriptor is opened (interpretation)
 * - the handle still registers and frees after it (documented)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "verbs_ctl.h"
#include "verbs_traffic.h"

#define DOC_ALLOC                                                            \
	"ibv_alloc_buf() allocates a buffer using the allocation method "    \
	"selected by the provider for the protection domain pd. On success " \
	"it returns the mapped address and stores an opaque buffer handle "  \
	"in buf."
#define DOC_ALLOC_RET                                                       \
	"ibv_alloc_buf() returns the mapped buffer address on success, or " \
	"NULL if the request fails."
#define DOC_FREE                                                                \
	"ibv_free_buf() releases a buffer handle returned by ibv_alloc_buf(). " \
	"The protection domain used for allocation must remain valid until "    \
	"the buffer is freed."
#define DOC_ORDINARY "For ordinary memory it behaves like ibv_reg_mr()."
#define DOC_LENGTH                                                       \
	"Length in bytes to register (ibv_reg_buf_mr()); addr + length " \
	"must stay within the buffer."
#define DOC_ADDR                                                             \
	"The start address to register (ibv_reg_buf_mr()): the buffer base " \
	"returned by ibv_alloc_buf() or an address within that buffer."
#define DOC_PD                                                              \
	"The pd argument must be the same protection domain that was used " \
	"to allocate the buffer. If a different protection domain is "      \
	"supplied, registration fails with EINVAL."
#define DOC_ACCESS                                                         \
	"Access flags for the memory region (ibv_reg_buf_mr()), the same " \
	"as for ibv_reg_mr()."
#define DOC_EXPORT_RET                                                       \
	"ibv_export_buf_dmabuf_fd() returns a file descriptor >= 0 on "      \
	"success, or -1 if the request fails with errno set. If buf is not " \
	"backed by a DMA-buf, errno is set to ENODATA."
#define DOC_EXPORT_OWN                                                       \
	"Calling ibv_export_buf_dmabuf_fd() does not transfer ownership of " \
	"the buffer handle or the internal descriptor used by libibverbs."

#define ORDINARY                                                           \
	"rxe and siw select no allocation method: the buffer is ordinary " \
	"memory"

/* ends 1808 bytes into its third page */
#define LEN 10000
#define HALF 5000
/* beyond what glibc's malloc ever serves from its heap (its mmap
 * threshold grows to 32 MiB at most), so a release can be seen */
#define BIG ((64u << 20) + 100)
/* the bytes at the end of a BIG buffer a row registers */
#define TAIL 100

static vc_check alloc_mapped, alloc_handle_holds, alloc_apart, alloc_too_big,
	free_then_pd, free_unmapped, free_other_kept, reg_whole, reg_range,
	reg_above, reg_other_buf, reg_other_pd, reg_remote_write,
	reg_rdma_write, export_ordinary, export_no_fd, export_keeps;

static const struct vc_row alloc_rows[] = {
	{ .c = { .id = "verbs/alloc_buf/mapped-and-writable",
		 .doc = DOC_ALLOC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "10000 bytes: an address, a handle, and every byte "
			 "holds what is written to it",
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = alloc_mapped,
	  .rung = VL_PD },
	{ .c = { .id = "verbs/alloc_buf/handle-holds-the-buffer",
		 .doc = DOC_ALLOC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the handle stored is this buffer's, on this PD: "
			 "with the PD it registers the last 100 bytes of a "
			 "buffer of 64 MiB + 100 and not one more, and freeing "
			 "it unmaps the buffer",
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = alloc_handle_holds,
	  .rung = VL_PD },
	{ .c = { .id = "verbs/alloc_buf/two-buffers-apart",
		 .doc = DOC_ALLOC,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "each allocation is a buffer of its own: a second one "
			 "of 10000 bytes overlaps neither the first nor its "
			 "handle, and writing it leaves the first's bytes",
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = alloc_apart,
	  .rung = VL_PD },
	{ .c = { .id = "verbs/alloc_buf/size-beyond-address-space",
		 .doc = DOC_ALLOC_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "2^62 bytes, more than a 64-bit process can map: the "
			 "request cannot succeed",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = alloc_too_big,
	  .rung = VL_PD },
};

static const struct vc_row free_rows[] = {
	{ .c = { .id = "verbs/free_buf/then-pd-deallocates",
		 .doc = DOC_FREE,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the PD must outlive the buffer, not more: once it "
			 "is freed, ibv_dealloc_pd of its PD returns 0",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = free_then_pd,
	  .rung = VL_PD },
	{ .c = { .id = "verbs/free_buf/memory-unmapped",
		 .doc = DOC_FREE,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "released, the buffer's memory is the process's no "
			 "more: of 64 MiB and 100 bytes (" ORDINARY
			 "), neither its first nor its last page is mapped "
			 "(mincore(2) ENOMEM)",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = free_unmapped,
	  .rung = VL_PD },
	{ .c = { .id = "verbs/free_buf/other-buffer-kept",
		 .doc = DOC_FREE,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "it releases the handle given, no other: of two "
			 "buffers, the one not freed keeps its bytes and "
			 "ibv_reg_buf_mr still registers it",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = free_other_kept,
	  .rung = VL_PD },
};

/* reg_range's ranges: up to the end, one byte beyond, inside (neither
 * end), and empty at the end */
enum { R_END, R_BEYOND, R_INSIDE, R_AT_END };

static const struct vc_row reg_rows[] = {
	{ .c = { .id = "verbs/reg_buf_mr/whole-buffer",
		 .doc = DOC_ORDINARY,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = ORDINARY
		 "; its 10000 bytes: addr, length, pd, context "
		 "as given, the kernel's MR of its lkey has "
		 "its length and rkey",
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = reg_whole,
	  .rung = VL_PD },
	{ .c = { .id = "verbs/reg_buf_mr/ends-at-buffer-end",
		 .doc = DOC_LENGTH,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "from byte 5000, 5000 bytes: up to the buffer's last",
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = reg_range,
	  .rung = VL_PD,
	  .arg = R_END },
	{ .c = { .id = "verbs/reg_buf_mr/one-byte-beyond-end",
		 .doc = DOC_LENGTH,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "from byte 5000, 5001 bytes: one past the buffer, "
			 "though still in its mapped page",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = reg_range,
	  .rung = VL_PD,
	  .arg = R_BEYOND },
	{ .c = { .id = "verbs/reg_buf_mr/inside-buffer",
		 .doc = DOC_ADDR,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "from byte 5000, 100 bytes: an address within the "
			 "buffer, a range touching neither end",
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = reg_range,
	  .rung = VL_PD,
	  .arg = R_INSIDE },
	{ .c = { .id = "verbs/reg_buf_mr/empty-at-buffer-end",
		 .doc = DOC_ADDR,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the address one past the buffer's last byte, 0 bytes: "
			 "no address within the buffer",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = reg_range,
	  .rung = VL_PD,
	  .arg = R_AT_END },
	{ .c = { .id = "verbs/reg_buf_mr/address-of-a-buffer-above",
		 .doc = DOC_ADDR,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "with one buffer's handle, a byte of another buffer "
			 "mapped above it: memory ibv_reg_mr would take, and no "
			 "address within the buffer",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = reg_above,
	  .rung = VL_PD },
	{ .c = { .id = "verbs/reg_buf_mr/address-of-another-buffer",
		 .doc = DOC_ADDR,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the handle of one buffer with the base of another "
			 "of the same PD, 100 bytes",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = reg_other_buf,
	  .rung = VL_PD },
	{ .c = { .id = "verbs/reg_buf_mr/other-pd",
		 .doc = DOC_PD,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a second PD of the same context",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS(EINVAL) } },
	  .check = reg_other_pd,
	  .rung = VL_PD },
	{ .c = { .id = "verbs/reg_buf_mr/remote-write-without-local-write",
		 .doc = DOC_ACCESS,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "ibv_reg_mr(3): \"If IBV_ACCESS_REMOTE_WRITE or "
			 "IBV_ACCESS_REMOTE_ATOMIC is set, then "
			 "IBV_ACCESS_LOCAL_WRITE must be set too.\"",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = reg_remote_write,
	  .rung = VL_PD },
	{ .c = { .id = "verbs/reg_buf_mr/carries-rdma-write",
		 .doc = DOC_ORDINARY,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "an RC QP's RDMA Write of 256 bytes through the MR's "
			 "rkey to byte 5000 lands there, the bytes beside it "
			 "unchanged",
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = reg_rdma_write,
	  .rung = VC_BARE },
};

static const struct vc_row export_rows[] = {
	{ .c = { .id = "verbs/export_buf_dmabuf_fd/ordinary-memory",
		 .doc = DOC_EXPORT_RET,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = ORDINARY ", backed by no DMA-buf",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS(ENODATA) } },
	  .check = export_ordinary,
	  .rung = VL_PD },
	{ .c = { .id = "verbs/export_buf_dmabuf_fd/failure-opens-no-fd",
		 .doc = DOC_EXPORT_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = ORDINARY
		 "; a failed export leaves no descriptor open: "
		 "the lowest free one is what it was",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS(ENODATA) } },
	  .check = export_no_fd,
	  .rung = VL_PD },
	{ .c = { .id = "verbs/export_buf_dmabuf_fd/handle-still-registers",
		 .doc = DOC_EXPORT_OWN,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "whatever the export answers, the handle is still "
			 "the caller's: ibv_reg_buf_mr registers its buffer "
			 "after it (a descriptor it returns is closed first)",
		 .needs = VC_NEEDS,
		 .contract = { RC_ANY_RETURN } },
	  .check = export_keeps,
	  .rung = VL_PD },
};

/* @len bytes at @p hold a pattern written to them; false and a violation
 * naming @what where not */
static bool holds(struct rc_ctx *ctx, const char *what, uint8_t *p, size_t len,
		  uint8_t seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i] != (uint8_t)(i * 13 + seed)) {
			rc_obs_violation(ctx->obs,
					 "%s: byte %zu is 0x%02x, 0x%02x was "
					 "written",
					 what, i, p[i],
					 (uint8_t)(i * 13 + seed));
			return false;
		}
	return true;
}

static void fill(uint8_t *p, size_t len, uint8_t seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (uint8_t)(i * 13 + seed);
}

static bool need_reg(struct rc_ctx *ctx)
{
	return rc_need_call(ctx, (const void *)ctx->ops->ibv_reg_buf_mr,
			    "ibv_reg_buf_mr");
}

static void alloc_mapped(const struct vc_row *row, struct rc_ctx *ctx,
			 struct vl *l)
{
	struct ibv_buf *b = NULL;
	uint8_t *p;

	RC_OBSERVE(ctx, p = ctx->ops->ibv_alloc_buf(l->pd, LEN, &b));
	if (!p)
		return;
	if (!b)
		rc_obs_violation(ctx->obs, "buf: no handle stored");
	fill(p, LEN, 1);
	holds(ctx, "buffer", p, LEN, 1);
	if (b)
		ctx->ops->ibv_free_buf(b);
}

/* whether the page at @p is mapped (mincore(2): ENOMEM when not) */
static bool mapped(void *p)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned char vec;

	p = (void *)((uintptr_t)p & ~(uintptr_t)(page - 1));
	return !mincore(p, page, &vec) || errno != ENOMEM;
}

static void alloc_handle_holds(const struct vc_row *row, struct rc_ctx *ctx,
			       struct vl *l)
{
	struct ibv_buf *b = NULL;
	struct ibv_mr *mr;
	uint8_t *p;
	int i;

	if (!need_reg(ctx))
		return;
	RC_OBSERVE(ctx, p = ctx->ops->ibv_alloc_buf(l->pd, BIG, &b));
	if (!p || !b)
		return;
	/* its last TAIL bytes register, and one more does not */
	for (i = 0; i < 2 && !ctx->obs->violation[0]; i++) {
		mr = ctx->ops->ibv_reg_buf_mr(l->pd, b, p + BIG - TAIL,
					      TAIL + i, IBV_ACCESS_LOCAL_WRITE);
		if ((mr == NULL) != (i == 1))
			rc_obs_violation(ctx->obs,
					 "its last %d bytes and %d more: %s",
					 TAIL, i,
					 mr ? "registered" : "not registered");
		if (mr)
			ctx->ops->ibv_dereg_mr(mr);
	}
	p[0] = 1;
	ctx->ops->ibv_free_buf(b);
	if (!ctx->obs->violation[0] && mapped(p))
		rc_obs_violation(ctx->obs, "memory: still mapped after the "
					   "handle was freed");
}

static void alloc_apart(const struct vc_row *row, struct rc_ctx *ctx,
			struct vl *l)
{
	struct ibv_buf *a, *b = NULL;
	uint8_t *p, *q;

	if (!(p = vc_buf(ctx, l->pd, LEN, &a)))
		return;
	fill(p, LEN, 2);
	RC_OBSERVE(ctx, q = ctx->ops->ibv_alloc_buf(l->pd, LEN, &b));
	if (q) {
		if (q < p + LEN && p < q + LEN)
			rc_obs_violation(ctx->obs,
					 "address: %p overlaps the first "
					 "buffer's %p",
					 q, p);
		else if (b == a)
			rc_obs_violation(ctx->obs,
					 "buf: the first buffer's handle");
		else {
			memset(q, 0x5a, LEN);
			holds(ctx, "first buffer", p, LEN, 2);
		}
		if (b && b != a)
			ctx->ops->ibv_free_buf(b);
	}
	ctx->ops->ibv_free_buf(a);
}

static void alloc_too_big(const struct vc_row *row, struct rc_ctx *ctx,
			  struct vl *l)
{
	struct ibv_buf *b = NULL;
	uint8_t *p;

	RC_OBSERVE(ctx,
		   p = ctx->ops->ibv_alloc_buf(l->pd, (size_t)1 << 62, &b));
	if (p && b)
		ctx->ops->ibv_free_buf(b);
}

static void free_then_pd(const struct vc_row *row, struct rc_ctx *ctx,
			 struct vl *l)
{
	struct ibv_buf *b;

	if (!vc_buf(ctx, l->pd, LEN, &b))
		return;
	RC_OBSERVE(ctx, (ctx->ops->ibv_free_buf(b), 0));
	if (ctx->ops->ibv_dealloc_pd(l->pd))
		rc_obs_violation(ctx->obs, "pd: does not deallocate: %m");
	else
		l->pd = NULL;
}

static void free_unmapped(const struct vc_row *row, struct rc_ctx *ctx,
			  struct vl *l)
{
	struct ibv_buf *b;
	uint8_t *p;

	if (!(p = vc_buf(ctx, l->pd, BIG, &b)))
		return;
	p[0] = 1;
	p[BIG - 1] = 1;
	RC_OBSERVE(ctx, (ctx->ops->ibv_free_buf(b), 0));
	if (mapped(p))
		rc_obs_violation(ctx->obs, "memory: its first page is still "
					   "mapped");
	else if (mapped(p + BIG - 1))
		rc_obs_violation(ctx->obs, "memory: its last page is still "
					   "mapped");
}

static void free_other_kept(const struct vc_row *row, struct rc_ctx *ctx,
			    struct vl *l)
{
	struct ibv_buf *a, *b;
	struct ibv_mr *mr;
	uint8_t *p, *q;

	if (!need_reg(ctx) || !(p = vc_buf(ctx, l->pd, LEN, &a)))
		return;
	if (!(q = vc_buf(ctx, l->pd, LEN, &b))) {
		ctx->ops->ibv_free_buf(a);
		return;
	}
	fill(q, LEN, 3);
	RC_OBSERVE(ctx, (ctx->ops->ibv_free_buf(a), 0));
	if (holds(ctx, "other buffer", q, LEN, 3)) {
		mr = ctx->ops->ibv_reg_buf_mr(l->pd, b, q, LEN,
					      IBV_ACCESS_LOCAL_WRITE);
		if (!mr)
			rc_obs_violation(ctx->obs,
					 "other buffer: no longer registers "
					 "(%s)",
					 rc_errno_name(errno));
		else
			ctx->ops->ibv_dereg_mr(mr);
	}
	ctx->ops->ibv_free_buf(b);
}

static void reg_whole(const struct vc_row *row, struct rc_ctx *ctx,
		      struct vl *l)
{
	struct ibv_buf *b;
	struct ibv_mr *mr;
	uint8_t *p;

	if (!(p = vc_buf(ctx, l->pd, LEN, &b)))
		return;
	RC_OBSERVE(ctx, mr = ctx->ops->ibv_reg_buf_mr(l->pd, b, p, LEN,
						      IBV_ACCESS_LOCAL_WRITE));
	if (mr) {
		vc_check_mr(ctx, l->pd, mr, p, LEN);
		ctx->ops->ibv_dereg_mr(mr);
	}
	ctx->ops->ibv_free_buf(b);
}

static void reg_range(const struct vc_row *row, struct rc_ctx *ctx,
		      struct vl *l)
{
	size_t at = row->arg == R_AT_END ? LEN : HALF;
	size_t len = row->arg == R_INSIDE ? 100 :
		     row->arg == R_AT_END ? 0 :
					    LEN - HALF + (row->arg == R_BEYOND);
	struct ibv_buf *b;
	struct ibv_mr *mr;
	uint8_t *p;

	if (!(p = vc_buf(ctx, l->pd, LEN, &b)))
		return;
	RC_OBSERVE(ctx, mr = ctx->ops->ibv_reg_buf_mr(l->pd, b, p + at, len,
						      IBV_ACCESS_LOCAL_WRITE));
	if (mr) {
		if (row->arg == R_END || row->arg == R_INSIDE)
			vc_check_mr(ctx, l->pd, mr, p + at, len);
		ctx->ops->ibv_dereg_mr(mr);
	}
	ctx->ops->ibv_free_buf(b);
}

static void reg_above(const struct vc_row *row, struct rc_ctx *ctx,
		      struct vl *l)
{
	struct ibv_buf *a, *b, *low;
	uint8_t *p, *q, *high;
	struct ibv_mr *mr;

	if (!(p = vc_buf(ctx, l->pd, LEN, &a)))
		return;
	if (!(q = vc_buf(ctx, l->pd, LEN, &b))) {
		ctx->ops->ibv_free_buf(a);
		return;
	}
	/* the lower buffer's handle, the higher buffer's first byte */
	low = p < q ? a : b;
	high = p < q ? q : p;
	RC_OBSERVE(ctx, mr = ctx->ops->ibv_reg_buf_mr(l->pd, low, high, 1,
						      IBV_ACCESS_LOCAL_WRITE));
	if (mr)
		ctx->ops->ibv_dereg_mr(mr);
	ctx->ops->ibv_free_buf(b);
	ctx->ops->ibv_free_buf(a);
}

static void reg_other_buf(const struct vc_row *row, struct rc_ctx *ctx,
			  struct vl *l)
{
	struct ibv_buf *a, *b;
	struct ibv_mr *mr;
	uint8_t *q;

	if (!vc_buf(ctx, l->pd, LEN, &a))
		return;
	if (!(q = vc_buf(ctx, l->pd, LEN, &b))) {
		ctx->ops->ibv_free_buf(a);
		return;
	}
	RC_OBSERVE(ctx, mr = ctx->ops->ibv_reg_buf_mr(l->pd, a, q, 100,
						      IBV_ACCESS_LOCAL_WRITE));
	if (mr)
		ctx->ops->ibv_dereg_mr(mr);
	ctx->ops->ibv_free_buf(b);
	ctx->ops->ibv_free_buf(a);
}

static void reg_other_pd(const struct vc_row *row, struct rc_ctx *ctx,
			 struct vl *l)
{
	struct ibv_pd *pd2;
	struct ibv_buf *b;
	struct ibv_mr *mr;
	uint8_t *p;

	if (!(p = vc_buf(ctx, l->pd, LEN, &b)))
		return;
	pd2 = ctx->ops->ibv_alloc_pd(l->ctx);
	if (!pd2) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_alloc_pd (set-up): %m");
		ctx->ops->ibv_free_buf(b);
		return;
	}
	RC_OBSERVE(ctx, mr = ctx->ops->ibv_reg_buf_mr(pd2, b, p, LEN,
						      IBV_ACCESS_LOCAL_WRITE));
	if (mr)
		ctx->ops->ibv_dereg_mr(mr);
	ctx->ops->ibv_dealloc_pd(pd2);
	ctx->ops->ibv_free_buf(b);
}

static void reg_remote_write(const struct vc_row *row, struct rc_ctx *ctx,
			     struct vl *l)
{
	struct ibv_buf *b;
	struct ibv_mr *mr;
	uint8_t *p;

	if (!(p = vc_buf(ctx, l->pd, LEN, &b)))
		return;
	RC_OBSERVE(ctx, mr = ctx->ops->ibv_reg_buf_mr(l->pd, b, p, LEN,
						      IBV_ACCESS_REMOTE_WRITE));
	if (mr)
		ctx->ops->ibv_dereg_mr(mr);
	ctx->ops->ibv_free_buf(b);
}

static void reg_rdma_write(const struct vc_row *row, struct rc_ctx *ctx,
			   struct vl *l)
{
	const struct vt_opts o = { .type = IBV_QPT_RC };
	struct ibv_buf *b;
	struct ibv_mr *mr;
	struct vt t;
	uint8_t *p;

	/* the buffer is b's, whose QP the write reaches */
	if (vt_up(ctx, &t, &o) && (p = vc_buf(ctx, vt_pd(&t, 2), LEN, &b))) {
		memset(p, 0, LEN);
		RC_OBSERVE(ctx, mr = ctx->ops->ibv_reg_buf_mr(
					vt_pd(&t, 2), b, p, LEN,
					IBV_ACCESS_LOCAL_WRITE |
						IBV_ACCESS_REMOTE_WRITE));
		if (mr) {
			vt_write_lands(ctx, &t, mr->rkey, (uintptr_t)(p + HALF),
				       p + HALF, 256);
			ctx->ops->ibv_dereg_mr(mr);
		}
		ctx->ops->ibv_free_buf(b);
	}
	vt_down(ctx, &t);
}

/* the lowest descriptor open(2) would give now */
static int lowest_free_fd(void)
{
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);

	if (fd >= 0)
		close(fd);
	return fd;
}

static void export_ordinary(const struct vc_row *row, struct rc_ctx *ctx,
			    struct vl *l)
{
	struct ibv_buf *b;
	int fd;

	if (!vc_buf(ctx, l->pd, LEN, &b))
		return;
	RC_OBSERVE(ctx, fd = ctx->ops->ibv_export_buf_dmabuf_fd(b));
	if (fd >= 0)
		close(fd);
	ctx->ops->ibv_free_buf(b);
}

static void export_no_fd(const struct vc_row *row, struct rc_ctx *ctx,
			 struct vl *l)
{
	struct ibv_buf *b;
	int fd, before, after;

	if (!vc_buf(ctx, l->pd, LEN, &b))
		return;
	before = lowest_free_fd();
	RC_OBSERVE(ctx, fd = ctx->ops->ibv_export_buf_dmabuf_fd(b));
	if (fd >= 0)
		close(fd);
	else if ((after = lowest_free_fd()) != before)
		rc_obs_violation(ctx->obs,
				 "fd: the lowest free descriptor went from %d "
				 "to %d",
				 before, after);
	ctx->ops->ibv_free_buf(b);
}

static void export_keeps(const struct vc_row *row, struct rc_ctx *ctx,
			 struct vl *l)
{
	struct ibv_buf *b;
	struct ibv_mr *mr;
	uint8_t *p;
	int fd;

	if (!need_reg(ctx) || !(p = vc_buf(ctx, l->pd, LEN, &b)))
		return;
	RC_OBSERVE(ctx, fd = ctx->ops->ibv_export_buf_dmabuf_fd(b));
	if (fd >= 0)
		close(fd);
	mr = ctx->ops->ibv_reg_buf_mr(l->pd, b, p, LEN, IBV_ACCESS_LOCAL_WRITE);
	if (!mr)
		rc_obs_violation(ctx->obs,
				 "buf: no longer registers after the export "
				 "(%s)",
				 rc_errno_name(errno));
	else
		ctx->ops->ibv_dereg_mr(mr);
	ctx->ops->ibv_free_buf(b);
}

VC_GROUP(alloc, ibv_alloc_buf, RC_CONV_NULL_ERRNO, alloc_rows);
VC_GROUP(free, ibv_free_buf, RC_CONV_VALUE, free_rows);
VC_GROUP(reg, ibv_reg_buf_mr, RC_CONV_NULL_ERRNO, reg_rows);
VC_GROUP(export, ibv_export_buf_dmabuf_fd, RC_CONV_M1_ERRNO, export_rows);
