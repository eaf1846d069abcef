// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_reg_mr(3): "registers a memory region (MR) associated with the
 * protection domain pd.  The MR's starting address is addr and its size
 * is length."  access "is either 0 or the bitwise OR of one or more of the
 * following flags"; "If IBV_ACCESS_REMOTE_WRITE or IBV_ACCESS_REMOTE_ATOMIC
 * is set, then IBV_ACCESS_LOCAL_WRITE must be set too."  "Local read access
 * is always enabled for the MR."  ibv_reg_mr_iova "is the same as the
 * normal reg_mr, except that the user is allowed to specify the virtual
 * base address of the MR when accessed through a lkey or rkey."
 * "ibv_dereg_mr() deregisters the MR mr."
 *
 * Where an MR lands is the kernel's record of it (RDMA netlink, `rdma res
 * show mr`: its length, lkey and rkey, for this process), read for both
 * implementations alike.
 *
 * ibv_reg_mr:
 * - an MR not page-aligned across a page boundary: addr, length, pd,
 *   context as given, and the kernel holds it with its keys (documented)
 * - access 0 (documented)
 * - every combination of the five access flags that need no device
 *   feature but atomics: refused exactly where REMOTE_WRITE or
 *   REMOTE_ATOMIC come without LOCAL_WRITE (documented; REMOTE_ATOMIC
 *   counts only where the device has atomics, "if supported")
 * - REMOTE_WRITE alone, REMOTE_ATOMIC alone: NULL (documented)
 * - read-only memory: access 0 registers it ("Local read access is always
 *   enabled"), LOCAL_WRITE does not (interpretation: the kernel pins the
 *   pages for writing)
 * - memory not mapped, length 0: NULL (interpretation: there is nothing
 *   to register)
 * ibv_reg_mr_iova:
 * - hca_va of distinct bytes with addr's page offset: addr and length as
 *   given, the kernel holds it (documented)
 * - hca_va 0 (documented: "the same effect as IBV_ACCESS_ZERO_BASED")
 * - hca_va of another page offset than addr: NULL (linux:
 *   ib_uverbs_reg_mr refuses start and hca_va of different offsets)
 * ibv_dereg_mr:
 * - 0, and the kernel no longer holds the MR (documented)
 * - then its PD deallocates (state across calls)
 * - the command file gone: an errno value (interpretation)
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include "verbs_ctl.h"

#define DOC_REG                                                             \
	"ibv_reg_mr() registers a memory region (MR) associated "           \
	"with the protection domain pd. The MR's starting address is addr " \
	"and its size is length."
#define DOC_ACCESS                                                           \
	"The argument access describes the desired memory "                  \
	"protection attributes; it is either 0 or the bitwise OR of one or " \
	"more of the following flags:"
#define DOC_LOCAL_WRITE                                                         \
	"If IBV_ACCESS_REMOTE_WRITE or "                                        \
	"IBV_ACCESS_REMOTE_ATOMIC is set, then IBV_ACCESS_LOCAL_WRITE must be " \
	"set too."
#define DOC_READ "Local read access is always enabled for the MR."
#define DOC_RET                                                   \
	"ibv_reg_mr() / ibv_reg_mr_iova() / ibv_reg_dmabuf_mr() " \
	"returns a pointer to the registered MR, or NULL if the request fails."
#define DOC_IOVA                                                         \
	"ibv_reg_mr_iova() ibv_reg_mr_iova is the same as the "          \
	"normal reg_mr, except that the user is allowed to specify the " \
	"virtual base address of the MR when accessed through a lkey or rkey."
#define DOC_IOVA0                                         \
	"Specifying 0 for hca_va has the same effect as " \
	"IBV_ACCESS_ZERO_BASED."
#define DOC_DEREG "ibv_dereg_mr() deregisters the MR mr."
#define DOC_DEREG_RET                                        \
	"ibv_dereg_mr() returns 0 on success, or the value " \
	"of errno on failure (which indicates the failure reason)."

/* an MR that starts 100 bytes into a page and ends in the next one */
#define OFF 100
#define LEN 5000
#define IOVA 0x0123456789ab0000ull

static vc_check reg_lands, reg_access, reg_all_access, reg_read_only,
	reg_unmapped, reg_zero_length, iova_lands, iova_other_offset,
	dereg_gone, dereg_then_pd, dereg_severed;

enum { RO_NONE, RO_WRITE };

static const struct vc_row reg_rows[] = {
	{ .c = { .id = "verbs/reg_mr/lands-in-kernel",
		 .doc = DOC_REG,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "5000 bytes from 100 into a page: addr, length, pd, "
			 "context as given; the kernel's MR of its lkey has "
			 "its length and rkey",
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = reg_lands,
	  .rung = VL_PD },
	{ .c = { .id = "verbs/reg_mr/access-0",
		 .doc = DOC_ACCESS,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = reg_access,
	  .rung = VL_PD,
	  .arg = 0 },
	{ .c = { .id = "verbs/reg_mr/every-access-combination",
		 .doc = DOC_LOCAL_WRITE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the 32 combinations of LOCAL_WRITE, REMOTE_WRITE, "
			 "REMOTE_READ, REMOTE_ATOMIC, MW_BIND: refused exactly "
			 "where a remote write or atomic lacks LOCAL_WRITE; "
			 "returns how many of the 32 behaved so",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(32) } },
	  .check = reg_all_access,
	  .rung = VL_PD },
	{ .c = { .id = "verbs/reg_mr/remote-write-without-local-write",
		 .doc = DOC_LOCAL_WRITE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = reg_access,
	  .rung = VL_PD,
	  .arg = IBV_ACCESS_REMOTE_WRITE },
	{ .c = { .id = "verbs/reg_mr/remote-atomic-without-local-write",
		 .doc = DOC_LOCAL_WRITE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = reg_access,
	  .rung = VL_PD,
	  .arg = IBV_ACCESS_REMOTE_ATOMIC },
	{ .c = { .id = "verbs/reg_mr/read-only-memory",
		 .doc = DOC_READ,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a PROT_READ mapping, access 0",
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = reg_read_only,
	  .rung = VL_PD,
	  .arg = RO_NONE },
	{ .c = { .id = "verbs/reg_mr/read-only-memory-local-write",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "a PROT_READ mapping with LOCAL_WRITE: the memory "
			 "cannot be written, so no MR",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = reg_read_only,
	  .rung = VL_PD,
	  .arg = RO_WRITE },
	{ .c = { .id = "verbs/reg_mr/unmapped-memory",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "two pages just unmapped: nothing to register",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = reg_unmapped,
	  .rung = VL_PD },
	{ .c = { .id = "verbs/reg_mr/length-0",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "a region of no bytes: nothing to register",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = reg_zero_length,
	  .rung = VL_PD },
};

static const struct vc_row iova_rows[] = {
	{ .c = { .id = "verbs/reg_mr_iova/lands-in-kernel",
		 .doc = DOC_IOVA,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "hca_va 0x0123456789ab0064 (addr's page offset): addr "
			 "and length as given, the kernel holds it",
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = iova_lands,
	  .rung = VL_PD,
	  .arg = 1 },
	{ .c = { .id = "verbs/reg_mr_iova/hca-va-0",
		 .doc = DOC_IOVA0,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a page-aligned region at hca_va 0",
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = iova_lands,
	  .rung = VL_PD,
	  .arg = 0 },
	{ .c = { .id = "verbs/reg_mr_iova/other-page-offset",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_LINUX,
		 .note = "hca_va 1 byte past addr's page offset: "
			 "ib_uverbs_reg_mr (drivers/infiniband/core/"
			 "uverbs_cmd.c) refuses start and hca_va of different "
			 "page offsets",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = iova_other_offset,
	  .rung = VL_PD },
};

static const struct vc_row dereg_rows[] = {
	{ .c = { .id = "verbs/dereg_mr/gone-from-kernel",
		 .doc = DOC_DEREG,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "0, and the kernel no longer has an MR of its lkey",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = dereg_gone,
	  .rung = VL_PD },
	{ .c = { .id = "verbs/dereg_mr/pd-then-deallocates",
		 .doc = DOC_DEREG,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the PD the MR held deallocates after it (it did not "
			 "before)",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = dereg_then_pd,
	  .rung = VL_PD },
	{ .c = { .id = "verbs/dereg_mr/command-file-gone",
		 .doc = DOC_DEREG_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the context's command file replaced by an O_PATH "
			 "descriptor: an errno value",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = dereg_severed,
	  .rung = VL_PD },
};

static void reg_lands(const struct vc_row *row, struct rc_ctx *ctx,
		      struct vl *l)
{
	uint8_t *p = vc_pages(ctx, PROT_READ | PROT_WRITE);
	struct ibv_mr *mr;

	if (!p)
		return;
	RC_OBSERVE(ctx, mr = (ctx->ops->ibv_reg_mr)(l->pd, p + OFF, LEN,
						    IBV_ACCESS_LOCAL_WRITE));
	if (mr) {
		vc_check_mr(ctx, l->pd, mr, p + OFF, LEN);
		ctx->ops->ibv_dereg_mr(mr);
	}
	vc_unpages(p);
}

static void reg_access(const struct vc_row *row, struct rc_ctx *ctx,
		       struct vl *l)
{
	uint8_t *p = vc_pages(ctx, PROT_READ | PROT_WRITE);
	struct ibv_mr *mr;

	if (!p)
		return;
	RC_OBSERVE(ctx, mr = (ctx->ops->ibv_reg_mr)(l->pd, p, LEN, row->arg));
	if (mr)
		ctx->ops->ibv_dereg_mr(mr);
	vc_unpages(p);
}

static int combinations(struct rc_ctx *ctx, struct vl *l, uint8_t *p,
			bool atomics)
{
	static const int flag[] = { IBV_ACCESS_LOCAL_WRITE,
				    IBV_ACCESS_REMOTE_WRITE,
				    IBV_ACCESS_REMOTE_READ,
				    IBV_ACCESS_REMOTE_ATOMIC,
				    IBV_ACCESS_MW_BIND };
	struct ibv_mr *mr;
	int c, i, access, ok = 0;
	bool refuse;

	for (c = 0; c < 32; c++) {
		for (access = 0, i = 0; i < 5; i++)
			if (c & (1 << i))
				access |= flag[i];
		refuse = (access & (IBV_ACCESS_REMOTE_WRITE |
				    IBV_ACCESS_REMOTE_ATOMIC)) &&
			 !(access & IBV_ACCESS_LOCAL_WRITE);
		mr = (ctx->ops->ibv_reg_mr)(l->pd, p, LEN, access);
		if (!mr == refuse ||
		    (!atomics && (access & IBV_ACCESS_REMOTE_ATOMIC)))
			ok++;
		else
			rc_obs_violation(ctx->obs, "access 0x%x: %s", access,
					 mr ? "registered" : "refused");
		if (mr)
			ctx->ops->ibv_dereg_mr(mr);
	}
	return ok;
}

static void reg_all_access(const struct vc_row *row, struct rc_ctx *ctx,
			   struct vl *l)
{
	struct ibv_device_attr a;
	uint8_t *p;

	if (!vc_attr(ctx, l, &a) ||
	    !(p = vc_pages(ctx, PROT_READ | PROT_WRITE)))
		return;
	RC_OBSERVE(ctx,
		   combinations(ctx, l, p, a.atomic_cap != IBV_ATOMIC_NONE));
	vc_unpages(p);
}

static void reg_read_only(const struct vc_row *row, struct rc_ctx *ctx,
			  struct vl *l)
{
	uint8_t *p = vc_pages(ctx, PROT_READ);
	struct ibv_mr *mr;

	if (!p)
		return;
	RC_OBSERVE(ctx,
		   mr = (ctx->ops->ibv_reg_mr)(
			   l->pd, p, LEN,
			   row->arg == RO_WRITE ? IBV_ACCESS_LOCAL_WRITE : 0));
	if (mr) {
		vc_check_mr(ctx, l->pd, mr, p, LEN);
		ctx->ops->ibv_dereg_mr(mr);
	}
	vc_unpages(p);
}

static void reg_unmapped(const struct vc_row *row, struct rc_ctx *ctx,
			 struct vl *l)
{
	uint8_t *p = vc_pages(ctx, PROT_READ | PROT_WRITE);
	struct ibv_mr *mr;

	if (!p)
		return;
	vc_unpages(p);
	RC_OBSERVE(ctx, mr = (ctx->ops->ibv_reg_mr)(l->pd, p, LEN, 0));
	if (mr)
		ctx->ops->ibv_dereg_mr(mr);
}

static void reg_zero_length(const struct vc_row *row, struct rc_ctx *ctx,
			    struct vl *l)
{
	uint8_t *p = vc_pages(ctx, PROT_READ | PROT_WRITE);
	struct ibv_mr *mr;

	if (!p)
		return;
	RC_OBSERVE(ctx, mr = (ctx->ops->ibv_reg_mr)(l->pd, p, 0, 0));
	if (mr)
		ctx->ops->ibv_dereg_mr(mr);
	vc_unpages(p);
}

static void iova_lands(const struct vc_row *row, struct rc_ctx *ctx,
		       struct vl *l)
{
	uint8_t *p = vc_pages(ctx, PROT_READ | PROT_WRITE);
	size_t off = row->arg ? OFF : 0;
	struct ibv_mr *mr;

	if (!p)
		return;
	RC_OBSERVE(ctx, mr = (ctx->ops->ibv_reg_mr_iova)(
				l->pd, p + off, LEN, row->arg ? IOVA + OFF : 0,
				IBV_ACCESS_LOCAL_WRITE));
	if (mr) {
		vc_check_mr(ctx, l->pd, mr, p + off, LEN);
		ctx->ops->ibv_dereg_mr(mr);
	}
	vc_unpages(p);
}

static void iova_other_offset(const struct vc_row *row, struct rc_ctx *ctx,
			      struct vl *l)
{
	uint8_t *p = vc_pages(ctx, PROT_READ | PROT_WRITE);
	struct ibv_mr *mr;

	if (!p)
		return;
	RC_OBSERVE(ctx, mr = (ctx->ops->ibv_reg_mr_iova)(
				l->pd, p + OFF, LEN, IOVA + OFF + 1,
				IBV_ACCESS_LOCAL_WRITE));
	if (mr)
		ctx->ops->ibv_dereg_mr(mr);
	vc_unpages(p);
}

static void dereg_gone(const struct vc_row *row, struct rc_ctx *ctx,
		       struct vl *l)
{
	uint8_t *p = vc_pages(ctx, PROT_READ | PROT_WRITE);
	struct ibv_mr *mr;
	uint32_t lkey, rkey;
	uint64_t len;
	int ret;

	if (!p)
		return;
	mr = (ctx->ops->ibv_reg_mr)(l->pd, p, LEN, 0);
	if (!mr) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_reg_mr (set-up): "
			     "%m");
		vc_unpages(p);
		return;
	}
	lkey = mr->lkey;
	RC_OBSERVE(ctx, ret = ctx->ops->ibv_dereg_mr(mr));
	if (!ret && vc_kernel_mr(ctx, lkey, &len, &rkey))
		rc_obs_violation(ctx->obs,
				 "lkey 0x%x: the kernel still has "
				 "the MR",
				 lkey);
	vc_unpages(p);
}

static void dereg_then_pd(const struct vc_row *row, struct rc_ctx *ctx,
			  struct vl *l)
{
	uint8_t *p = vc_pages(ctx, PROT_READ | PROT_WRITE);
	struct ibv_mr *mr;
	int ret;

	if (!p)
		return;
	mr = (ctx->ops->ibv_reg_mr)(l->pd, p, LEN, 0);
	if (!mr || !ctx->ops->ibv_dealloc_pd(l->pd)) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "an MR that holds its "
			     "PD (set-up)");
		if (!mr)
			vc_unpages(p);
		else
			l->pd = NULL;
		return;
	}
	RC_OBSERVE(ctx, ret = ctx->ops->ibv_dereg_mr(mr));
	if (!ret && ctx->ops->ibv_dealloc_pd(l->pd))
		rc_obs_violation(ctx->obs, "pd: still refuses to deallocate");
	else if (!ret)
		l->pd = NULL;
	vc_unpages(p);
}

static void dereg_severed(const struct vc_row *row, struct rc_ctx *ctx,
			  struct vl *l)
{
	uint8_t *p = vc_pages(ctx, PROT_READ | PROT_WRITE);
	struct ibv_mr *mr;

	if (!p)
		return;
	mr = (ctx->ops->ibv_reg_mr)(l->pd, p, LEN, 0);
	if (!mr)
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_reg_mr (set-up): "
			     "%m");
	else if (vc_sever(ctx, l))
		RC_OBSERVE(ctx, ctx->ops->ibv_dereg_mr(mr));
	vc_unpages(p);
}

VC_GROUP(reg, ibv_reg_mr, RC_CONV_NULL_ERRNO, reg_rows);
VC_GROUP(iova, ibv_reg_mr_iova, RC_CONV_NULL_ERRNO, iova_rows);
VC_GROUP(dereg, ibv_dereg_mr, RC_CONV_ERRNO_RET, dereg_rows);
