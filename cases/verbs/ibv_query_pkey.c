// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_query_pkey(3): "returns the P_Key value (in network byte order) in
 * entry index of port port_num for device context context through the
 * pointer pkey."  "returns 0 on success, and -1 on error."
 * ibv_get_pkey_index(3): "accepts a P_Key in network byte order and that
 * returns an index in the P_Key table as result."  "returns the P_Key
 * index on success, and -1 on error."
 *
 * ibv_query_pkey:
 * - entry 0 and the last entry (pkey_tbl_len - 1, an exact fit) as sysfs
 *   has them, in network byte order; compared across the implementations
 *   (documented).  rxe's only P_Key is 0xffff, which reads the same
 *   swapped: the order shows only where a device has another.
 * - the index one past the table, index -1, port 0: -1 (interpretation:
 *   no entry to return)
 * ibv_get_pkey_index:
 * - entry 0's P_Key gives 0 (documented)
 * - a P_Key of distinct bytes the table lacks (0x1234), and the limited
 *   member 0x7fff of a table with only the full member 0xffff: -1
 *   (interpretation: no index to return; the membership bit is part of
 *   the P_Key)
 * - port 0: -1 (interpretation)
 * A port without a P_Key table (iWARP's) is UNSUPPORTED for the rows that
 * read an entry.
 */
#include <endian.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verbs_ctl.h"
#include "../../harness/device.h"

#define DOC_PKEY                                                             \
	"ibv_query_pkey() returns the P_Key value (in network byte "         \
	"order) in entry index of port port_num for device context context " \
	"through the pointer pkey."
#define DOC_PKEY_RET                                        \
	"ibv_query_pkey() returns 0 on success, and -1 on " \
	"error."
#define DOC_INDEX                                                             \
	"Hence the function ibv_get_pkey_index() that accepts a "             \
	"P_Key in network byte order and that returns an index in the P_Key " \
	"table as result."
#define DOC_INDEX_RET                                      \
	"ibv_get_pkey_index() returns the P_Key index on " \
	"success, and -1 on error."

static vc_check pkey_at, pkey_bad, index_of, index_bad;

/* where a row asks: an entry, or a port */
enum { AT_0, AT_LAST, AT_PAST, AT_MINUS_1, AT_PORT_0 };

static const struct vc_row pkey_rows[] = {
	{ .c = { .id = "verbs/query_pkey/index-0",
		 .doc = DOC_PKEY,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "entry 0 as sysfs's pkeys/0, big endian",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = pkey_at,
	  .rung = VL_CONTEXT,
	  .arg = AT_0 },
	{ .c = { .id = "verbs/query_pkey/last-index",
		 .doc = DOC_PKEY,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "entry pkey_tbl_len - 1 (sysfs's count of pkeys), as "
			 "sysfs has it",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = pkey_at,
	  .rung = VL_CONTEXT,
	  .arg = AT_LAST },
	{ .c = { .id = "verbs/query_pkey/index-past-table",
		 .doc = DOC_PKEY_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "entry pkey_tbl_len: no entry to return",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = pkey_bad,
	  .rung = VL_CONTEXT,
	  .arg = AT_PAST },
	{ .c = { .id = "verbs/query_pkey/index-minus-1",
		 .doc = DOC_PKEY_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "index -1: no entry to return",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = pkey_bad,
	  .rung = VL_CONTEXT,
	  .arg = AT_MINUS_1 },
	{ .c = { .id = "verbs/query_pkey/port-0",
		 .doc = DOC_PKEY_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "ports are numbered from 1: no table",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = pkey_bad,
	  .rung = VL_CONTEXT,
	  .arg = AT_PORT_0 },
};

static const struct vc_row index_rows[] = {
	{ .c = { .id = "verbs/get_pkey_index/entry-0",
		 .doc = DOC_INDEX,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "sysfs's pkeys/0, big endian: index 0",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = index_of,
	  .rung = VL_CONTEXT },
	{ .c = { .id = "verbs/get_pkey_index/absent-pkey",
		 .doc = DOC_INDEX_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "0x1234, in no entry of the table (checked in sysfs): "
			 "no index to return",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = index_bad,
	  .rung = VL_CONTEXT,
	  .arg = 0x1234 },
	{ .c = { .id = "verbs/get_pkey_index/limited-member-of-full",
		 .doc = DOC_INDEX_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "0x7fff where the table has 0xffff only: the "
			 "membership bit is part of the P_Key, so no index",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = index_bad,
	  .rung = VL_CONTEXT,
	  .arg = 0x7fff },
	{ .c = { .id = "verbs/get_pkey_index/port-0",
		 .doc = DOC_INDEX_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "ports are numbered from 1: no table",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = index_bad,
	  .rung = VL_CONTEXT,
	  .arg = -1 },
};

static int table_len(struct rc_ctx *ctx, int port)
{
	char path[160];
	int n;

	snprintf(path, sizeof(path), RC_SYSFS_IB "/%s/ports/%d/pkeys",
		 ctx->target->ca, port);
	n = rc_dir_count(path);
	/* an iWARP port has no P_Key table in sysfs at all */
	return n < 0 ? 0 : n;
}

/* Entry @i of the port's table as sysfs has it, or -1 */
static int sysfs_pkey(struct rc_ctx *ctx, int port, int i)
{
	char buf[32];

	if (rc_sysfs_read(buf, sizeof(buf), RC_SYSFS_IB "/%s/ports/%d/pkeys/%d",
			  ctx->target->ca, port, i))
		return -1;
	return (int)strtol(buf, NULL, 16);
}

/* No entry @i in sysfs: UNSUPPORTED where the port has no P_Key table
 * (iWARP), BROKEN otherwise. */
static void no_table(struct rc_ctx *ctx, int i)
{
	if (!table_len(ctx, ctx->target->port) ||
	    ctx->target->link == RC_LINK_IWARP)
		rc_obs_state(ctx->obs, RC_STATE_UNSUPPORTED,
			     "the port has no "
			     "P_Key table");
	else
		rc_obs_state(ctx->obs, RC_STATE_BROKEN, "no pkeys/%d in sysfs",
			     i);
}

static bool in_table(struct rc_ctx *ctx, int port, int pkey)
{
	int i, n = table_len(ctx, port);

	for (i = 0; i < n; i++)
		if (sysfs_pkey(ctx, port, i) == pkey)
			return true;
	return false;
}

static void pkey_at(const struct vc_row *row, struct rc_ctx *ctx, struct vl *l)
{
	int i = row->arg == AT_LAST ? table_len(ctx, l->port) - 1 : 0;
	int want = sysfs_pkey(ctx, l->port, i), ret;
	uint16_t pkey = 0xa5a5;

	if (want < 0) {
		no_table(ctx, i);
		return;
	}
	RC_OBSERVE(ctx,
		   ret = ctx->ops->ibv_query_pkey(l->ctx, l->port, i, &pkey));
	if (ret)
		return;
	if (pkey != htobe16(want))
		rc_obs_violation(ctx->obs,
				 "pkey 0x%04x of entry %d, sysfs's "
				 "0x%04x in network order is 0x%04x",
				 pkey, i, want, htobe16(want));
	rc_obs_out(ctx->obs, &pkey, sizeof(pkey));
}

static void pkey_bad(const struct vc_row *row, struct rc_ctx *ctx, struct vl *l)
{
	int port = row->arg == AT_PORT_0 ? 0 : l->port;
	int i = row->arg == AT_PAST    ? table_len(ctx, l->port) :
		row->arg == AT_MINUS_1 ? -1 :
					 0;
	uint16_t pkey = 0xa5a5;

	RC_OBSERVE(ctx, ctx->ops->ibv_query_pkey(l->ctx, port, i, &pkey));
}

static void index_of(const struct vc_row *row, struct rc_ctx *ctx, struct vl *l)
{
	int want = sysfs_pkey(ctx, l->port, 0);

	if (want < 0) {
		no_table(ctx, 0);
		return;
	}
	RC_OBSERVE(ctx, ctx->ops->ibv_get_pkey_index(l->ctx, l->port,
						     htobe16(want)));
}

static void index_bad(const struct vc_row *row, struct rc_ctx *ctx,
		      struct vl *l)
{
	int port = row->arg < 0 ? 0 : l->port;
	int pkey = row->arg < 0 ? sysfs_pkey(ctx, l->port, 0) : row->arg;

	if (row->arg >= 0 && in_table(ctx, l->port, pkey)) {
		rc_obs_state(ctx->obs, RC_STATE_UNSUPPORTED,
			     "the port's table "
			     "has P_Key 0x%04x",
			     pkey);
		return;
	}
	RC_OBSERVE(ctx,
		   ctx->ops->ibv_get_pkey_index(l->ctx, port, htobe16(pkey)));
}

VC_GROUP(pkey, ibv_query_pkey, RC_CONV_M1_ERRNO, pkey_rows);
VC_GROUP(index, ibv_get_pkey_index, RC_CONV_M1_ERRNO, index_rows);
