// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * umad_get_mad_addr(3): "returns a pointer to the ib_mad_addr struct within
 * the specified umad buffer."
 *
 * - the ib_mad_addr_t starts after agent_id, status, timeout_ms, retries
 *   and length: offset 20
 * - reads only: the buffer is unchanged
 */
#include "umad_hdr.h"

#define DOC                                                         \
	"umad_get_mad_addr() returns a pointer to the ib_mad_addr " \
	"struct within the specified umad buffer."

static const struct accessor_row rows[] = {
	{ .c = { .id = "umad/get_mad_addr/offset-of-addr",
		 .doc = DOC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "recorded as the offset from the buffer",
		 .contract = { .ret = RC_RET_EQ,
			       .value = REF_UMAD_OFF_QPN,
			       .layout = &umad_hdr_layout,
			       .out = UMAD_OUT() } } },
};

static long long get_mad_addr(const struct rc_ops *ops,
			      const struct accessor_row *row, uint8_t *buf)
{
	return (uint8_t *)ops->umad_get_mad_addr(buf) - buf;
}

static void run(const void *r, struct rc_ctx *ctx)
{
	accessor_row_run(r, ctx, ctx->ops->umad_get_mad_addr,
			 "umad_get_mad_addr", get_mad_addr);
}

RC_TABLE_GROUP(group, "umad_get_mad_addr", RC_CONV_OFFSET, "umad", rows, run);
