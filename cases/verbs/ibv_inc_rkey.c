// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_inc_rkey(3): "Increases the 8 LSB of rkey and returns the new
 * value."  NOTES: "The verb generates a new rkey that is different from
 * the previous one on its tag part but has the same index (bits
 * 0xffffff00)."
 *
 * - every tag (all 256 values of the 8 LSB) under indexes of all-distinct
 *   bytes, all zeros and all ones: the tag is one more, modulo 256, and
 *   the index is kept (documented)
 * - tag 0xff wraps to 0x00 without carrying into the index (documented:
 *   "the same index")
 * - a whole chain: 256 calls from a key come back to it, each key new
 *   (documented: "different from the previous one on its tag part")
 * Returned values of the walk are compared across the implementations.
 */
#include "verbs_ctl.h"

#define DOC_INC                                                       \
	"ibv_inc_rkey() Increases the 8 LSB of rkey and returns the " \
	"new value."
#define DOC_INDEX                                                    \
	"The verb generates a new rkey that is different from the "  \
	"previous one on its tag part but has the same index (bits " \
	"0xffffff00)."

static vc_check every_tag, wraps, chain;

static const struct vc_row rows[] = {
	{ .c = { .id = "verbs/inc_rkey/every-tag",
		 .doc = DOC_INC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "256 tags under 0x123456, 0x000000 and 0xffffff; "
			 "returns how many of the 768 are right",
		 .contract = { RC_RETURNS(768) } },
	  .check = every_tag,
	  .rung = VC_BARE },
	{ .c = { .id = "verbs/inc_rkey/tag-wraps-index-kept",
		 .doc = DOC_INDEX,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "0x123456ff becomes 0x12345600",
		 .contract = { RC_RETURNS(0x12345600) } },
	  .check = wraps,
	  .rung = VC_BARE,
	  .arg = 0x123456ff },
	{ .c = { .id = "verbs/inc_rkey/all-ones-wraps",
		 .doc = DOC_INDEX,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "0xffffffff becomes 0xffffff00: no carry",
		 .contract = { RC_RETURNS(0xffffff00) } },
	  .check = wraps,
	  .rung = VC_BARE,
	  .arg = 0xffffffff },
	{ .c = { .id = "verbs/inc_rkey/chain-of-256",
		 .doc = DOC_INDEX,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "from 0xa1b2c3d4, 256 calls: every key new, the 256th "
			 "the first again; returns the last",
		 .contract = { RC_RETURNS(0xa1b2c3d4) } },
	  .check = chain,
	  .rung = VC_BARE,
	  .arg = 0xa1b2c3d4 },
};

static int tags_ok(struct rc_ctx *ctx)
{
	static const uint32_t index[] = { 0x12345600, 0, 0xffffff00 };
	static uint32_t got[3][256];
	uint32_t k, want;
	int i, t, ok = 0;

	for (i = 0; i < 3; i++)
		for (t = 0; t < 256; t++) {
			k = index[i] | t;
			want = index[i] | ((t + 1) & 0xff);
			got[i][t] = ctx->ops->ibv_inc_rkey(k);
			if (got[i][t] == want)
				ok++;
			else
				rc_obs_violation(ctx->obs,
						 "rkey 0x%08x: "
						 "0x%08x, not 0x%08x",
						 k, got[i][t], want);
		}
	/* the first index's walk: RC_OUT_MAX holds 256 keys */
	rc_obs_out(ctx->obs, got[0], sizeof(got[0]));
	return ok;
}

static void every_tag(const struct vc_row *row, struct rc_ctx *ctx,
		      struct vl *l)
{
	RC_OBSERVE(ctx, tags_ok(ctx));
}

static void wraps(const struct vc_row *row, struct rc_ctx *ctx, struct vl *l)
{
	RC_OBSERVE(ctx, ctx->ops->ibv_inc_rkey((uint32_t)row->arg));
}

static uint32_t walk(struct rc_ctx *ctx, uint32_t k)
{
	bool seen[256] = { false };
	uint32_t n;
	int i;

	for (i = 0; i < 256; i++) {
		n = ctx->ops->ibv_inc_rkey(k);
		if ((n & 0xff) == (k & 0xff) || (n & ~0xffu) != (k & ~0xffu))
			rc_obs_violation(ctx->obs, "rkey 0x%08x: 0x%08x", k, n);
		if (seen[n & 0xff] && i < 255)
			rc_obs_violation(ctx->obs,
					 "rkey 0x%08x came again "
					 "after %d calls",
					 n, i + 1);
		seen[n & 0xff] = true;
		k = n;
	}
	return k;
}

static void chain(const struct vc_row *row, struct rc_ctx *ctx, struct vl *l)
{
	RC_OBSERVE(ctx, walk(ctx, (uint32_t)row->arg));
}

VC_GROUP(inc, ibv_inc_rkey, RC_CONV_VALUE, rows);
