// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * umad_get_pkey(3): "gets the pkey index from the specified umad buffer."
 * "returns value of pkey index (or zero if pkey index is not supported by
 * user_mad interface)."
 *
 * - returns the host-order 16-bit pkey_index field: 0, 1, 0x1234, 0xffff,
 *   or 0 where the pkey index is not in use (no port was opened with the
 *   kernel's IB_USER_MAD_ENABLE_PKEY: these rows open none)
 * - reads only: the buffer is unchanged
 */
#include "umad_dev.h"
#include "umad_hdr.h"

#define DOC                                                             \
	"umad_get_pkey() returns value of pkey index (or zero if pkey " \
	"index is not supported by user_mad interface)."

#define ROW(name, v)                                                                \
	{                                                                           \
		.c = { .id = "umad/get_pkey/" name,                                 \
		       .doc = DOC,                                                  \
		       .basis = RC_BASIS_DOCUMENTED,                                \
		       .note = "no port is open: 0 (not supported) is allowed too", \
		       .contract = { .ret = RC_RET_IN,                              \
				     .value = (v),                                  \
				     .alt = { 0, 0 },                               \
				     .layout = &umad_hdr_layout,                    \
				     .out = UMAD_OUT(RC_PATCH_HOST(                 \
					     OFF(PKEY_INDEX), 2, v)) } },           \
		.preset = {                                                         \
			.patch = { RC_PATCH_HOST(OFF(PKEY_INDEX), 2, v) }           \
		}                                                                   \
	}

static const struct accessor_row rows[] = {
	ROW("zero", 0),
	ROW("one", 1),
	ROW("host-order-distinct-bytes", 0x1234),
	ROW("max-16-bit", 0xffff),
};

static long long get_pkey(const struct rc_ops *ops,
			  const struct accessor_row *row, uint8_t *buf)
{
	return ops->umad_get_pkey(buf);
}

static void run(const void *r, struct rc_ctx *ctx)
{
	accessor_row_run(r, ctx, ctx->ops->umad_get_pkey, "umad_get_pkey",
			 get_pkey);
}

RC_TABLE_GROUP(group, "umad_get_pkey", RC_CONV_VALUE, "umad", rows, run);

static const struct accessor_row open_rows[] = {
	{ .c = { .id = "umad/get_pkey/after-open-port",
		 .doc = DOC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = NEEDS_UMAD,
		 .note = "with a port open the kernel supports the P_Key index "
			 "(IB_USER_MAD_ENABLE_PKEY): the field, host order",
		 .contract = { .ret = RC_RET_EQ,
			       .value = 0x1234,
			       .layout = &umad_hdr_layout,
			       .out = UMAD_OUT(RC_PATCH_HOST(OFF(PKEY_INDEX), 2,
							     0x1234)) } },
	  .preset = { .patch = { RC_PATCH_HOST(OFF(PKEY_INDEX), 2, 0x1234) } } },
};

static void run_open(const void *r, struct rc_ctx *ctx)
{
	accessor_row_run_open(r, ctx, ctx->ops->umad_get_pkey, "umad_get_pkey",
			      get_pkey);
}

RC_TABLE_GROUP(open_group, "umad_get_pkey", RC_CONV_VALUE, "umad", open_rows,
	       run_open);
