// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * umad_alloc(3): "allocates memory for an array of num umad buffers of
 * size bytes."  "returns NULL if out of memory."
 * umad_free(3): "frees memory previously allocated with umad_alloc()."
 *
 * Both are static inline in <infiniband/umad.h>: rdma-core's
 * implementation is the header's, compiled into the caller (impl.c).
 *
 * - num buffers of size bytes: every byte of them can be written
 * - a request that no memory can hold: NULL
 * - no buffers at all: not NULL, since NULL means out of memory and none
 *   is asked for (interpretation)
 * - what umad_alloc gave, umad_free takes back
 */
#include <stdint.h>
#include <string.h>

#include "umad_hdr.h"

#define DOC                                                               \
	"umad_alloc() allocates memory for an array of num umad buffers " \
	"of size bytes."
#define DOC_NULL "umad_alloc() returns NULL if out of memory."
#define DOC_FREE                                              \
	"umad_free() frees memory previously allocated with " \
	"umad_alloc()."

struct alloc_row;
typedef void alloc_check(const struct alloc_row *row, struct rc_ctx *ctx);

struct alloc_row {
	struct rc_case c;
	alloc_check *check;
	int num;
	size_t size;
};

static alloc_check buffers_writable, allocates_and_frees, frees_allocated;

static const struct alloc_row rows[] = {
	{ .c = { .id = "umad/alloc/num-buffers-writable",
		 .doc = DOC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "4 buffers of 64 + 256 bytes: all 1280 written",
		 .contract = { .ret = RC_RET_OK } },
	  .check = buffers_writable,
	  .num = 4,
	  .size = 320 },
	{ .c = { .id = "umad/alloc/out-of-memory",
		 .doc = DOC_NULL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "2 buffers of SIZE_MAX / 2 + 1 bytes: more than any "
			 "address space",
		 .contract = { .ret = RC_RET_ERR } },
	  .check = allocates_and_frees,
	  .num = 2,
	  .size = SIZE_MAX / 2 + 1 },
	{ .c = { .id = "umad/alloc/zero-buffers",
		 .doc = DOC_NULL,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "0 buffers of 320 bytes ask for no memory, so none "
			 "can be out of it: not NULL (the page gives NULL no "
			 "other meaning); what it gives, umad_free takes",
		 .contract = { .ret = RC_RET_OK } },
	  .check = allocates_and_frees,
	  .num = 0,
	  .size = 320 },
};

static const struct alloc_row free_rows[] = {
	{ .c = { .id = "umad/free/allocated",
		 .doc = DOC_FREE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "returns, and the process goes on",
		 .contract = { .ret = RC_RET_EQ } },
	  .check = frees_allocated,
	  .num = 2,
	  .size = 320 },
};

static void buffers_writable(const struct alloc_row *row, struct rc_ctx *ctx)
{
	void *p;

	RC_OBSERVE(ctx, p = ctx->ops->umad_alloc(row->num, row->size));
	if (p) {
		memset(p, 0x5a, (size_t)row->num * row->size);
		ctx->ops->umad_free(p);
	}
}

static void allocates_and_frees(const struct alloc_row *row, struct rc_ctx *ctx)
{
	void *p;

	RC_OBSERVE(ctx, p = ctx->ops->umad_alloc(row->num, row->size));
	if (p)
		ctx->ops->umad_free(p);
}

static void frees_allocated(const struct alloc_row *row, struct rc_ctx *ctx)
{
	void *p = ctx->ops->umad_alloc(row->num, row->size);

	if (!p) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN, "umad_alloc failed");
		return;
	}
	RC_OBSERVE(ctx, (ctx->ops->umad_free(p), 0));
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct alloc_row *row = r;
	const struct rc_ops *ops = ctx->ops;

	if (!rc_need_call(ctx, ops->umad_alloc, "umad_alloc") ||
	    !rc_need_call(ctx, ops->umad_free, "umad_free"))
		return;
	row->check(row, ctx);
}

RC_TABLE_GROUP(group, "umad_alloc", RC_CONV_NULL_ERRNO, "umad", rows, run);

RC_TABLE_GROUP(free_group, "umad_free", RC_CONV_VALUE, "umad", free_rows, run);
