// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_reg_mr(3), of ibv_reg_mr_ex, documented since rdma-core 59
 * (IBVERBS_1.15): "ibv_reg_mr_ex is a an API that enables all the
 * variants of the other ibv_reg_mr_xxx()", the fields that count marked
 * in mr_init_attr->comp_mask; "One among mr_init_attr->fd and
 * mr_init_attr->addr is required, both can't come together."  With
 * IBV_REG_MR_MASK_BUF it registers a range of a buffer of ibv_alloc_buf(3)
 * (rdma-core 64), whose page adds what the caller must not set.  44.0 has
 * neither: ABSENT there, as rdma-core.expect records.
 *
 * - addr: the MR as ibv_reg_mr's, the kernel holds it (documented)
 * - addr and iova: an RDMA Write to the iova lands at the address
 *   (documented)
 * - neither addr nor fd; both: NULL (documented)
 * - a buffer, its address and length: the MR (documented)
 * - a buffer and a range one byte beyond it: NULL (documented)
 * - a buffer without IBV_REG_MR_MASK_ADDR: NULL (documented)
 * - a buffer with IBV_REG_MR_MASK_FD_OFFSET: NULL, EINVAL (documented, in
 *   ibv_alloc_buf(3))
 * - a buffer of another PD: NULL, EINVAL (documented, in ibv_alloc_buf(3))
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "verbs_ctl.h"
#include "verbs_traffic.h"

#define DOC_EX                                                            \
	"ibv_reg_mr_ex() ibv_reg_mr_ex is a an API that enables all the " \
	"variants of the other ibv_reg_mr_xxx() that desecibed in that man page."
#define DOC_MASK                                                            \
	"It has the mr_init_attr->comp_mask field to let application mark " \
	"which fields are applicable."
#define DOC_ONE                                                              \
	"ibv_reg_mr_ex() One among mr_init_attr->fd and mr_init_attr->addr " \
	"is required, both can't come together."
#define DOC_BUF                                                              \
	"When IBV_REG_MR_MASK_BUF is set, mr_init_attr->buf must point to "  \
	"the buffer handle and mr_init_attr->addr and mr_init_attr->length " \
	"describe the buffer range to register."
#define DOC_RANGE                                                           \
	"The protection domain must be the same protection domain used to " \
	"allocate the buffer, and the range must be within the allocated "  \
	"buffer."
#define DOC_ADDR_MASK \
	"mr_init_attr->addr is required and IBV_REG_MR_MASK_ADDR must be set"
#define DOC_NO_FD                                                              \
	"When IBV_REG_MR_MASK_BUF is set the caller must not set "             \
	"IBV_REG_MR_MASK_FD or IBV_REG_MR_MASK_FD_OFFSET, and, for a DMA-buf " \
	"backed buffer, must not set IBV_REG_MR_MASK_IOVA; libibverbs "        \
	"derives these from the buffer handle and otherwise fails with EINVAL."
#define DOC_PD                                                              \
	"If a different protection domain is supplied, registration fails " \
	"with EINVAL."

/* an MR 100 bytes into a page and into the next; a buffer of 10000 */
#define OFF 100
#define LEN 5000
#define BUF_LEN 10000
#define IOVA 0x0123456789ab0000ull

static vc_check by_addr, by_iova, neither, both, buf_range, buf_no_addr,
	buf_fd_offset, buf_other_pd;

enum { B_WHOLE, B_BEYOND };

static const struct vc_row rows[] = {
	{ .c = { .id = "verbs/reg_mr_ex/addr",
		 .doc = DOC_EX,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "IBV_REG_MR_MASK_ADDR, 5000 bytes from 100 into a "
			 "page: addr, length, pd, context as given; the "
			 "kernel's MR of its lkey has its length and rkey",
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = by_addr,
	  .rung = VL_PD },
	{ .c = { .id = "verbs/reg_mr_ex/iova-carries-rdma-write",
		 .doc = DOC_MASK,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "ADDR and IOVA (0x0123456789ab0064, addr's page "
			 "offset): an RC QP's RDMA Write of 256 bytes through "
			 "the rkey to iova + 16 lands at addr + 16, the bytes "
			 "beside it unchanged",
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = by_iova,
	  .rung = VC_BARE },
	{ .c = { .id = "verbs/reg_mr_ex/neither-addr-nor-fd",
		 .doc = DOC_ONE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "comp_mask 0, addr and length of memory that would "
			 "register",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = neither,
	  .rung = VL_PD },
	{ .c = { .id = "verbs/reg_mr_ex/addr-and-fd",
		 .doc = DOC_ONE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "ADDR and FD (a memfd of 4 KiB) together",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = both,
	  .rung = VL_PD },
	{ .c = { .id = "verbs/reg_mr_ex/buf-whole",
		 .doc = DOC_BUF,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "BUF and ADDR, the 10000 bytes of an ibv_alloc_buf "
			 "buffer: the MR of them, held by the kernel",
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = buf_range,
	  .rung = VL_PD,
	  .arg = B_WHOLE },
	{ .c = { .id = "verbs/reg_mr_ex/buf-one-byte-beyond",
		 .doc = DOC_RANGE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "from byte 5000 of a buffer of 10000, 5001 bytes: one "
			 "past it, though still in its mapped page",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = buf_range,
	  .rung = VL_PD,
	  .arg = B_BEYOND },
	{ .c = { .id = "verbs/reg_mr_ex/buf-without-addr-mask",
		 .doc = DOC_ADDR_MASK,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "BUF alone, addr and length of the buffer filled in",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = buf_no_addr,
	  .rung = VL_PD },
	{ .c = { .id = "verbs/reg_mr_ex/buf-with-fd-offset",
		 .doc = DOC_NO_FD,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "ibv_alloc_buf(3): BUF, ADDR and FD_OFFSET (0) over "
			 "the whole buffer",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS(EINVAL) } },
	  .check = buf_fd_offset,
	  .rung = VL_PD },
	{ .c = { .id = "verbs/reg_mr_ex/buf-other-pd",
		 .doc = DOC_PD,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "ibv_alloc_buf(3): BUF and ADDR on a second PD of the "
			 "context",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS(EINVAL) } },
	  .check = buf_other_pd,
	  .rung = VL_PD },
};

/* the call under test on @a, its MR deregistered unless @keep */
static struct ibv_mr *reg(struct rc_ctx *ctx, struct ibv_pd *pd,
			  struct rc_ibv_mr_init_attr *a, bool keep)
{
	struct ibv_mr *mr;

	RC_OBSERVE(ctx, mr = ctx->ops->ibv_reg_mr_ex(pd, a));
	if (mr && !keep) {
		ctx->ops->ibv_dereg_mr(mr);
		return NULL;
	}
	return mr;
}

static void by_addr(const struct vc_row *row, struct rc_ctx *ctx, struct vl *l)
{
	uint8_t *p = vc_pages(ctx, PROT_READ | PROT_WRITE);
	struct rc_ibv_mr_init_attr a = {
		.comp_mask = RC_IBV_REG_MR_MASK_ADDR,
		.length = LEN,
		.access = IBV_ACCESS_LOCAL_WRITE,
	};
	struct ibv_mr *mr;

	if (!p)
		return;
	a.addr = p + OFF;
	mr = reg(ctx, l->pd, &a, true);
	if (mr) {
		vc_check_mr(ctx, l->pd, mr, p + OFF, LEN);
		ctx->ops->ibv_dereg_mr(mr);
	}
	vc_unpages(p);
}

static void by_iova(const struct vc_row *row, struct rc_ctx *ctx, struct vl *l)
{
	const struct vt_opts o = { .type = IBV_QPT_RC };
	struct rc_ibv_mr_init_attr a = {
		.comp_mask = RC_IBV_REG_MR_MASK_ADDR | RC_IBV_REG_MR_MASK_IOVA,
		.length = LEN,
		.access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE,
		.iova = IOVA + OFF,
	};
	struct ibv_mr *mr;
	uint8_t *p = NULL;
	struct vt t;

	if (vt_up(ctx, &t, &o) && (p = vc_pages(ctx, PROT_READ | PROT_WRITE))) {
		a.addr = p + OFF;
		/* b's memory, whose QP the write reaches */
		mr = reg(ctx, vt_pd(&t, 2), &a, true);
		if (mr) {
			vt_write_lands(ctx, &t, mr->rkey, IOVA + OFF + 16,
				       p + OFF + 16, 256);
			ctx->ops->ibv_dereg_mr(mr);
		}
		vc_unpages(p);
	}
	vt_down(ctx, &t);
}

static void neither(const struct vc_row *row, struct rc_ctx *ctx, struct vl *l)
{
	uint8_t *p = vc_pages(ctx, PROT_READ | PROT_WRITE);
	struct rc_ibv_mr_init_attr a = { .length = LEN, .fd = -1 };

	if (!p)
		return;
	a.addr = p;
	reg(ctx, l->pd, &a, false);
	vc_unpages(p);
}

static void both(const struct vc_row *row, struct rc_ctx *ctx, struct vl *l)
{
	uint8_t *p = vc_pages(ctx, PROT_READ | PROT_WRITE);
	int fd = memfd_create("rdmaconf", 0);
	struct rc_ibv_mr_init_attr a = {
		.comp_mask = RC_IBV_REG_MR_MASK_ADDR | RC_IBV_REG_MR_MASK_FD,
		.length = LEN,
		.access = IBV_ACCESS_LOCAL_WRITE,
	};

	if (p && fd >= 0 && !ftruncate(fd, 4096)) {
		a.addr = p;
		a.fd = fd;
		reg(ctx, l->pd, &a, false);
	} else if (p) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN, "memfd (set-up): %m");
	}
	if (fd >= 0)
		close(fd);
	if (p)
		vc_unpages(p);
}

static void buf_range(const struct vc_row *row, struct rc_ctx *ctx,
		      struct vl *l)
{
	struct rc_ibv_mr_init_attr a = {
		.comp_mask = RC_IBV_REG_MR_MASK_BUF | RC_IBV_REG_MR_MASK_ADDR,
		.access = IBV_ACCESS_LOCAL_WRITE,
	};
	struct ibv_buf *b;
	struct ibv_mr *mr;
	uint8_t *p;

	if (!(p = vc_buf(ctx, l->pd, BUF_LEN, &b)))
		return;
	a.buf = b;
	a.addr = row->arg == B_WHOLE ? p : p + BUF_LEN / 2;
	a.length = row->arg == B_WHOLE ? BUF_LEN : BUF_LEN / 2 + 1;
	mr = reg(ctx, l->pd, &a, true);
	if (mr) {
		if (row->arg == B_WHOLE)
			vc_check_mr(ctx, l->pd, mr, a.addr, a.length);
		ctx->ops->ibv_dereg_mr(mr);
	}
	ctx->ops->ibv_free_buf(b);
}

static void buf_no_addr(const struct vc_row *row, struct rc_ctx *ctx,
			struct vl *l)
{
	struct rc_ibv_mr_init_attr a = {
		.comp_mask = RC_IBV_REG_MR_MASK_BUF,
		.length = BUF_LEN,
		.access = IBV_ACCESS_LOCAL_WRITE,
	};
	struct ibv_buf *b;

	if (!(a.addr = vc_buf(ctx, l->pd, BUF_LEN, &b)))
		return;
	a.buf = b;
	reg(ctx, l->pd, &a, false);
	ctx->ops->ibv_free_buf(b);
}

static void buf_fd_offset(const struct vc_row *row, struct rc_ctx *ctx,
			  struct vl *l)
{
	struct rc_ibv_mr_init_attr a = {
		.comp_mask = RC_IBV_REG_MR_MASK_BUF | RC_IBV_REG_MR_MASK_ADDR |
			     RC_IBV_REG_MR_MASK_FD_OFFSET,
		.length = BUF_LEN,
		.access = IBV_ACCESS_LOCAL_WRITE,
	};
	struct ibv_buf *b;

	if (!(a.addr = vc_buf(ctx, l->pd, BUF_LEN, &b)))
		return;
	a.buf = b;
	reg(ctx, l->pd, &a, false);
	ctx->ops->ibv_free_buf(b);
}

static void buf_other_pd(const struct vc_row *row, struct rc_ctx *ctx,
			 struct vl *l)
{
	struct rc_ibv_mr_init_attr a = {
		.comp_mask = RC_IBV_REG_MR_MASK_BUF | RC_IBV_REG_MR_MASK_ADDR,
		.length = BUF_LEN,
		.access = IBV_ACCESS_LOCAL_WRITE,
	};
	struct ibv_buf *b;
	struct ibv_pd *pd2;

	if (!(a.addr = vc_buf(ctx, l->pd, BUF_LEN, &b)))
		return;
	a.buf = b;
	pd2 = ctx->ops->ibv_alloc_pd(l->ctx);
	if (pd2) {
		reg(ctx, pd2, &a, false);
		ctx->ops->ibv_dealloc_pd(pd2);
	} else {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_alloc_pd (set-up): %m");
	}
	ctx->ops->ibv_free_buf(b);
}

VC_GROUP(ex, ibv_reg_mr_ex, RC_CONV_NULL_ERRNO, rows);
