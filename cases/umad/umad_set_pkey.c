// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * umad_set_pkey(3): "sets the pkey index within the specified umad buffer."
 * "returns 0 on success, and a negative value on an error."
 *
 * - pkey_index lands in the ABI's host-order 16-bit field (the kernel's
 *   ib_user_mad_hdr declares it __u16, unlike the network-order fields)
 * - 0, 1, 0xffff, and a value above 16 bits; no other byte changes
 */
#include "umad_dev.h"
#include "umad_hdr.h"

#define DOC                                                              \
	"umad_set_pkey() sets the pkey index within the specified umad " \
	"buffer."

#define PKEY(v) RC_PATCH_HOST(OFF(PKEY_INDEX), 2, v)

static const struct accessor_row rows[] = {
	{ .c = { .id = "umad/set_pkey/zero",
		 .doc = DOC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .contract = { HDR_OK, .out = UMAD_OUT(PKEY(0)) } },
	  .arg = 0 },
	{ .c = { .id = "umad/set_pkey/one",
		 .doc = DOC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .contract = { HDR_OK, .out = UMAD_OUT(PKEY(1)) } },
	  .arg = 1 },
	{ .c = { .id = "umad/set_pkey/host-order-distinct-bytes",
		 .doc = DOC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "pkey_index is host order in the ABI (__u16)",
		 .contract = { HDR_OK, .out = UMAD_OUT(PKEY(0x1234)) } },
	  .arg = 0x1234 },
	{ .c = { .id = "umad/set_pkey/max-16-bit",
		 .doc = DOC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .contract = { HDR_OK, .out = UMAD_OUT(PKEY(0xffff)) } },
	  .arg = 0xffff },
	{ .c = { .id = "umad/set_pkey/above-16-bits",
		 .doc = DOC,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "no range check is documented: the index is converted "
			 "to the 16-bit field",
		 .contract = { HDR_OK, .out = UMAD_OUT(PKEY(0x0002)) } },
	  .arg = 0x10002 },
};

static long long set_pkey(const struct rc_ops *ops,
			  const struct accessor_row *row, uint8_t *buf)
{
	return ops->umad_set_pkey(buf, row->arg);
}

static void run(const void *r, struct rc_ctx *ctx)
{
	accessor_row_run(r, ctx, ctx->ops->umad_set_pkey, "umad_set_pkey",
			 set_pkey);
}

RC_TABLE_GROUP(group, "umad_set_pkey", RC_CONV_NEG, "umad", rows, run);

static const struct accessor_row open_rows[] = {
	{ .c = { .id = "umad/set_pkey/after-open-port",
		 .doc = DOC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = NEEDS_UMAD,
		 .note = "with a port open (IB_USER_MAD_ENABLE_PKEY in "
			 "effect); distinct bytes, host order",
		 .contract = { HDR_OK, .out = UMAD_OUT(PKEY(0x1234)) } },
	  .arg = 0x1234 },
};

static void run_open(const void *r, struct rc_ctx *ctx)
{
	accessor_row_run_open(r, ctx, ctx->ops->umad_set_pkey, "umad_set_pkey",
			      set_pkey);
}

RC_TABLE_GROUP(open_group, "umad_set_pkey", RC_CONV_NEG, "umad", open_rows,
	       run_open);
