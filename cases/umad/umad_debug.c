// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * umad_debug(3): "sets the umad library internal debug level to level.
 * ... 0 - no debug (the default) ... Negative values are ignored in terms
 * of set. Note that the current debug level can be queried by passing a
 * negative value as level."  "returns the actual debug level."
 *
 * - a query of a fresh process gives 0, the default
 * - a set returns the level set; a later query gives it
 * - a negative value after a set changes nothing
 */
#include "umad_hdr.h"

#define DOC                                                           \
	"umad_debug() sets the umad library internal debug level to " \
	"level."
#define DOC_DEFAULT "0 - no debug (the default)"
#define DOC_QUERY                                              \
	"Note that the current debug level can be queried by " \
	"passing a negative value as level."
#define DOC_NEGATIVE "Negative values are ignored in terms of set."

struct debug_row {
	struct rc_case c;
	int set; /* -1: no set first */
	int level; /* the call observed */
};

#define LEVEL(v)              \
	{                     \
		RC_RETURNS(v) \
	}

static const struct debug_row rows[] = {
	{ .c = { .id = "umad/debug/default-is-zero",
		 .doc = DOC_DEFAULT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "queried with -1 in a process that set nothing",
		 .contract = LEVEL(0) },
	  .set = -1,
	  .level = -1 },
	{ .c = { .id = "umad/debug/set-returns-level",
		 .doc = DOC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "\"returns the actual debug level\": 1 after setting 1",
		 .contract = LEVEL(1) },
	  .set = -1,
	  .level = 1 },
	{ .c = { .id = "umad/debug/query-after-set",
		 .doc = DOC_QUERY,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "2 set, then -1",
		 .contract = LEVEL(2) },
	  .set = 2,
	  .level = -1 },
	{ .c = { .id = "umad/debug/negative-does-not-set",
		 .doc = DOC_NEGATIVE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "1 set, then -5",
		 .contract = LEVEL(1) },
	  .set = 1,
	  .level = -5 },
	{ .c = { .id = "umad/debug/back-to-zero",
		 .doc = DOC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "2 set, then 0",
		 .contract = LEVEL(0) },
	  .set = 2,
	  .level = 0 },
};

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct debug_row *row = r;

	if (!rc_need_call(ctx, ctx->ops->umad_debug, "umad_debug"))
		return;
	if (row->set >= 0)
		ctx->ops->umad_debug(row->set);
	RC_OBSERVE(ctx, ctx->ops->umad_debug(row->level));
}

RC_TABLE_GROUP(group, "umad_debug", RC_CONV_VALUE, "umad", rows, run);
