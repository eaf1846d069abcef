// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * umad_status(3): "get the internal umad status field."  "After a packet is
 * received, umad_status() returns 0 on a successful receive, or a non zero
 * status.  ETIMEDOUT means that the packet had a send-timeout indication."
 *
 * - returns the host-order 32-bit status word: 0, ETIMEDOUT, 1
 * - reads only: the buffer is unchanged
 */
#include <errno.h>

#include "umad_hdr.h"

#define DOC "umad_status() get the internal umad status field."

#define ROW(name, v)                                                  \
	{                                                             \
		.c = { .id = "umad/status/" name,                     \
		       .doc = DOC,                                    \
		       .basis = RC_BASIS_DOCUMENTED,                  \
		       .contract = { .ret = RC_RET_EQ,                \
				     .value = (v),                    \
				     .layout = &umad_hdr_layout,      \
				     .out = UMAD_OUT(RC_PATCH_HOST(   \
					     OFF(STATUS), 4, v)) } }, \
		.preset = {                                           \
			.patch = { RC_PATCH_HOST(OFF(STATUS), 4, v) } \
		}                                                     \
	}

static const struct accessor_row rows[] = {
	ROW("zero-success", 0),
	ROW("etimedout", ETIMEDOUT),
	ROW("host-order-distinct-bytes", 0x01020304),
};

static long long status(const struct rc_ops *ops,
			const struct accessor_row *row, uint8_t *buf)
{
	return ops->umad_status(buf);
}

static void run(const void *r, struct rc_ctx *ctx)
{
	accessor_row_run(r, ctx, ctx->ops->umad_status, "umad_status", status);
}

RC_TABLE_GROUP(group, "umad_status", RC_CONV_VALUE, "umad", rows, run);
