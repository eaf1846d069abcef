// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_alloc_dm(3): "allocates a device memory buffer for the RDMA device
 * context context."  "returns a pointer to an ibv_dm struct or NULL if
 * the request fails."  NOTES: "may fail if device has no more free device
 * memory left, where the maximum amount of allocated memory is provided by
 * the max_dm_size attribute in ibv_device_attr_ex struct."
 * "ibv_memcpy_to_dm()/ibv_memcpy_from_dm() returns 0 on success or the
 * failure reason value on failure."
 *
 * rxe and siw have no device memory (max_dm_size 0; the kernel's DM
 * methods need the driver's alloc_dm, which neither has).
 *
 * ibv_alloc_dm:
 * - max_dm_size 0: NULL (interpretation: no memory at all is none left)
 * - within max_dm_size: a DM of the context (documented; UNSUPPORTED
 *   without device memory)
 * ibv_free_dm: a DM just made: 0 (documented)
 * ibv_memcpy_to_dm / ibv_memcpy_from_dm: bytes copied to the DM come back
 * (documented)
 */
#include <errno.h>
#include <string.h>

#include "verbs_opt.h"

#define DM_LEN 64

#define DOC_ALLOC                                                       \
	"ibv_alloc_dm() allocates a device memory buffer for the RDMA " \
	"device context context."
#define DOC_ALLOC_RET \
	"ibv_alloc_dm() returns a pointer to an ibv_dm struct or NULL if the request fails."
#define DOC_NOTE                                                             \
	"ibv_alloc_dm() may fail if device has no more free device memory "  \
	"left, where the maximum amount of allocated memory is provided by " \
	"the max_dm_size attribute in ibv_device_attr_ex struct."
#define DOC_FREE_RET                                                    \
	"ibv_free_dm() returns 0 on success, or the value of errno on " \
	"failure (which indicates the failure reason)."
#define DOC_COPY_RET                                                       \
	"ibv_memcpy_to_dm()/ibv_memcpy_from_dm() returns 0 on success or " \
	"the failure reason value on failure."

static vc_check alloc_none, alloc_within, free_made, copy_to, copy_from;

static const struct vc_row alloc_rows[] = {
	{ .c = { .id = "verbs/alloc_dm/no-device-memory",
		 .doc = DOC_NOTE,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "max_dm_size 0 (rxe, siw): no device memory is left "
			 "to allocate, so NULL",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = alloc_none,
	  .rung = VL_CONTEXT },
	{ .c = { .id = "verbs/alloc_dm/within-max",
		 .doc = DOC_ALLOC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "64 bytes within max_dm_size: a DM of the context; "
			 "UNSUPPORTED without device memory",
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = alloc_within,
	  .rung = VL_CONTEXT },
};

static const struct vc_row free_rows[] = {
	{ .c = { .id = "verbs/free_dm/made",
		 .doc = DOC_FREE_RET,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a DM just made: 0; UNSUPPORTED without device memory",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = free_made,
	  .rung = VL_CONTEXT },
};

static const struct vc_row to_rows[] = {
	{ .c = { .id = "verbs/memcpy_to_dm/round-trip",
		 .doc = DOC_COPY_RET,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "64 distinct bytes copied in come back out; "
			 "UNSUPPORTED without device memory",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = copy_to,
	  .rung = VL_CONTEXT },
};

static const struct vc_row from_rows[] = {
	{ .c = { .id = "verbs/memcpy_from_dm/round-trip",
		 .doc = DOC_COPY_RET,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the bytes copied in at offset 8 are read back; "
			 "UNSUPPORTED without device memory",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = copy_from,
	  .rung = VL_CONTEXT },
};

static struct ibv_dm *alloc(struct rc_ctx *ctx, struct vl *l)
{
	struct ibv_alloc_dm_attr a = { .length = DM_LEN };

	return ctx->ops->ibv_alloc_dm(l->ctx, &a);
}

/* A DM (set-up) where the device has device memory, or NULL and the row
 * UNSUPPORTED or BROKEN */
static struct ibv_dm *dm(struct rc_ctx *ctx, struct vl *l)
{
	struct ibv_device_attr_ex a;
	struct ibv_dm *d;

	if (!vo_attr_ex(ctx, l, &a) || !vo_has(ctx, a.max_dm_size >= DM_LEN,
					       "device memory (max_dm_size)"))
		return NULL;
	if (!(d = alloc(ctx, l)))
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_alloc_dm (set-up): %m");
	return d;
}

static void alloc_none(const struct vc_row *row, struct rc_ctx *ctx,
		       struct vl *l)
{
	struct ibv_device_attr_ex a;
	struct ibv_dm *d;

	if (!vo_attr_ex(ctx, l, &a) ||
	    !vo_lacks(ctx, a.max_dm_size, "device memory (max_dm_size)"))
		return;
	RC_OBSERVE(ctx, d = alloc(ctx, l));
	if (d)
		ctx->ops->ibv_free_dm(d);
}

static void alloc_within(const struct vc_row *row, struct rc_ctx *ctx,
			 struct vl *l)
{
	struct ibv_dm *d = dm(ctx, l);

	if (!d)
		return;
	ctx->ops->ibv_free_dm(d);
	RC_OBSERVE(ctx, d = alloc(ctx, l));
	if (!d)
		return;
	if (d->context != l->ctx)
		rc_obs_violation(ctx->obs, "context: not the one asked");
	ctx->ops->ibv_free_dm(d);
}

static void free_made(const struct vc_row *row, struct rc_ctx *ctx,
		      struct vl *l)
{
	struct ibv_dm *d = dm(ctx, l);

	if (d)
		RC_OBSERVE(ctx, ctx->ops->ibv_free_dm(d));
}

static void round_trip(struct rc_ctx *ctx, struct vl *l, bool observe_to)
{
	uint8_t in[DM_LEN / 2], out[DM_LEN / 2] = { 0 };
	struct ibv_dm *d = dm(ctx, l);
	unsigned int i;
	int ret;

	if (!d)
		return;
	for (i = 0; i < sizeof(in); i++)
		in[i] = 0xa0 + i;
	if (observe_to)
		RC_OBSERVE(ctx, ret = ctx->ops->ibv_memcpy_to_dm(d, 8, in,
								 sizeof(in)));
	else
		ret = ctx->ops->ibv_memcpy_to_dm(d, 8, in, sizeof(in));
	if (ret) {
		if (!observe_to)
			rc_obs_state(ctx->obs, RC_STATE_BROKEN,
				     "ibv_memcpy_to_dm (set-up): %d", ret);
		ctx->ops->ibv_free_dm(d);
		return;
	}
	if (observe_to)
		ret = ctx->ops->ibv_memcpy_from_dm(out, d, 8, sizeof(out));
	else
		RC_OBSERVE(ctx, ret = ctx->ops->ibv_memcpy_from_dm(
					out, d, 8, sizeof(out)));
	if (!ret && memcmp(in, out, sizeof(in)))
		rc_obs_violation(ctx->obs, "the bytes read back differ");
	rc_obs_out(ctx->obs, out, sizeof(out));
	ctx->ops->ibv_free_dm(d);
}

static void copy_to(const struct vc_row *row, struct rc_ctx *ctx, struct vl *l)
{
	round_trip(ctx, l, true);
}

static void copy_from(const struct vc_row *row, struct rc_ctx *ctx,
		      struct vl *l)
{
	round_trip(ctx, l, false);
}

VC_GROUP(alloc, ibv_alloc_dm, RC_CONV_NULL_ERRNO, alloc_rows);
VC_GROUP(free, ibv_free_dm, RC_CONV_ERRNO_RET, free_rows);
VC_GROUP(to, ibv_memcpy_to_dm, RC_CONV_ERRNO_RET, to_rows);
VC_GROUP(from, ibv_memcpy_from_dm, RC_CONV_ERRNO_RET, from_rows);
