// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The GID table.
 * ibv_query_gid(3): "returns the GID value in entry index of port
 * port_num for device context context through the pointer gid."  "returns
 * 0 on success, and -1 on error."
 * ibv_query_gid_ex(3): "returns the GID entry at entry for gid_index of
 * port port_num"; the entry's gid, gid_index, port_num, gid_type and
 * ndev_ifindex; "flags ... for now must be 0"; "returns 0 on success or
 * errno value on error"; "ENODATA gid_index is within the GID table size
 * of port port_num but there is no data in this index."
 * ibv_query_gid_table(3): "returns the valid GID table entries"; "If there
 * are more valid GID entries than the provided value of max_entries ...
 * the call will fail."; "A caller must pass non zero number of entries at
 * max_entries"; "returns the number of entries that were read on success
 * or negative errno value on error."
 *
 * What an entry holds is checked against sysfs (gids/N, gid_attrs/types/N,
 * gid_attrs/ndevs/N).  Only the first SCAN entries of a port are read
 * there: reading all 1024 of rxe's under TCG takes a minute, and the
 * kernel fills the table from index 0.  Rows that change the port's
 * addresses check that a second call sees the table as it is now.  No
 * call writes past what it returns: the 16 bytes of a GID, the entries
 * it counts (a table exactly as large as the valid entries included).
 */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verbs_res.h"
#include "../../harness/device.h"

#define DOC_GID                                                    \
	"ibv_query_gid() returns the GID value in entry index of " \
	"port port_num for device context context through the pointer gid."
#define DOC_GID_RET "ibv_query_gid() returns 0 on success, and -1 on error."
#define DOC_EX                                                   \
	"ibv_query_gid_ex() returns the GID entry at entry for " \
	"gid_index of port port_num for device context context."
#define DOC_EX_RET                                                \
	"ibv_query_gid_ex() returns 0 on success or errno value " \
	"on error."
#define DOC_ENODATA                                               \
	"ENODATA gid_index is within the GID table size of port " \
	"port_num but there is no data in this index."
#define DOC_FLAGS                                                 \
	"flags Extra fields to query post ndev_ifindex, for now " \
	"must be 0."
#define DOC_TABLE                                            \
	"ibv_query_gid_table() returns the valid GID table " \
	"entries of the RDMA device context context at the pointer entries."
#define DOC_TABLE_FAIL                                  \
	"If there are more valid GID entries than the " \
	"provided value of max_entries and entries array, the call will fail."
#define DOC_TABLE_ZERO                                      \
	"A caller must pass non zero number of entries at " \
	"max_entries that corresponds to the size of entries array."
#define DOC_TABLE_FLAGS                     \
	"flags Extra fields to query post " \
	"entries->ndev_ifindex, for now must be 0."

/* the entries of a port read in sysfs; see above */
#define SCAN 32
/* an index rxe's table (1024 entries) has, and nothing in it */
#define UNUSED_INDEX 200
#define TABLE_ROOM 256

struct gid_row;
/* What a row does on the target port (@r: its context, port and GIDs). */
typedef void gid_check(const struct gid_row *row, struct rc_ctx *ctx,
		       struct vres *r);

struct gid_row {
	struct rc_case c;
	gid_check *check;
};

static gid_check gid_at_zero, gid_at_ipv6_address, gid_unused_is_zero,
	gid_past_table, gid_port_zero, gid_follows_added, ex_at_ipv6_address,
	ex_at_zero, ex_unused, ex_nonzero_flags, ex_past_table,
	ex_follows_added, table_all_valid, table_exact_fit, table_max_too_small,
	table_zero_max, table_nonzero_flags, table_follows_added;

#define NEEDS_CHANGE (NEEDS_VERBS | RC_NEED_ROCE | RC_NEED_ROOT)

static const struct gid_row gid_rows[] = {
	{ .c = { .id = "verbs/query_gid/index-0",
		 .doc = DOC_GID,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the GID sysfs shows",
		 .needs = NEEDS_VERBS,
		 .contract = { RC_RETURNS(0) } },
	  .check = gid_at_zero },
	{ .c = { .id = "verbs/query_gid/ipv6-address-entry",
		 .doc = DOC_GID,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the entry of the port's IPv6 address",
		 .needs = NEEDS_VERBS,
		 .contract = { RC_RETURNS(0) } },
	  .check = gid_at_ipv6_address },
	{ .c = { .id = "verbs/query_gid/unused-entry",
		 .doc = DOC_GID,
		 .basis = RC_BASIS_LINUX,
		 .note = "an entry of the table that holds no GID: 0 and the "
			 "zero GID, as sysfs shows such an entry",
		 .needs = NEEDS_VERBS,
		 .contract = { RC_RETURNS(0) } },
	  .check = gid_unused_is_zero },
	{ .c = { .id = "verbs/query_gid/index-past-table",
		 .doc = DOC_GID_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "an index the table does not have: there is no entry "
			 "to return, read as an error",
		 .needs = NEEDS_VERBS,
		 .contract = { RC_FAILS() } },
	  .check = gid_past_table },
	{ .c = { .id = "verbs/query_gid/port-0",
		 .doc = DOC_GID_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "ports are numbered from 1: port 0 has no table, read "
			 "as an error",
		 .needs = NEEDS_VERBS,
		 .contract = { RC_FAILS() } },
	  .check = gid_port_zero },
	{ .c = { .id = "verbs/query_gid/follows-added-address",
		 .doc = DOC_GID,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "after a first call, 2001:db8::42 is added to the "
			 "port's netdev: its entry holds its GID",
		 .needs = NEEDS_CHANGE,
		 .shares = RC_SHARE_ALONE,
		 .contract = { RC_RETURNS(0) } },
	  .check = gid_follows_added },
};

static const struct gid_row ex_rows[] = {
	{ .c = { .id = "verbs/query_gid_ex/ipv6-address-entry",
		 .doc = DOC_EX,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "gid, gid_index, port_num, gid_type and ndev_ifindex "
			 "as sysfs has them",
		 .needs = NEEDS_VERBS,
		 .contract = { RC_RETURNS(0) } },
	  .check = ex_at_ipv6_address },
	{ .c = { .id = "verbs/query_gid_ex/index-0",
		 .doc = DOC_EX,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the same for entry 0",
		 .needs = NEEDS_VERBS,
		 .contract = { RC_RETURNS(0) } },
	  .check = ex_at_zero },
	{ .c = { .id = "verbs/query_gid_ex/unused-entry",
		 .doc = DOC_ENODATA,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = NEEDS_VERBS,
		 .contract = { RC_FAILS(ENODATA) } },
	  .check = ex_unused },
	{ .c = { .id = "verbs/query_gid_ex/nonzero-flags",
		 .doc = DOC_FLAGS,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "flags 1: an errno value",
		 .needs = NEEDS_VERBS,
		 .contract = { RC_FAILS() } },
	  .check = ex_nonzero_flags },
	{ .c = { .id = "verbs/query_gid_ex/index-past-table",
		 .doc = DOC_EX_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "an index the table does not have: read as an error "
			 "(ENODATA is for indexes within the table)",
		 .needs = NEEDS_VERBS,
		 .contract = { RC_FAILS() } },
	  .check = ex_past_table },
	{ .c = { .id = "verbs/query_gid_ex/follows-added-address",
		 .doc = DOC_EX,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "after a first call, 2001:db8::42 is added: its entry",
		 .needs = NEEDS_CHANGE,
		 .shares = RC_SHARE_ALONE,
		 .contract = { RC_RETURNS(0) } },
	  .check = ex_follows_added },
};

static const struct gid_row table_rows[] = {
	{ .c = { .id = "verbs/query_gid_table/all-valid-entries",
		 .doc = DOC_TABLE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "every used entry of every port, each as sysfs has it",
		 .needs = NEEDS_VERBS,
		 .contract = { RC_SUCCEEDS } },
	  .check = table_all_valid },
	{ .c = { .id = "verbs/query_gid_table/exact-fit",
		 .doc = DOC_TABLE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "max_entries exactly the valid entries: all of them, "
			 "the entry after the array untouched",
		 .needs = NEEDS_VERBS,
		 .contract = { RC_SUCCEEDS } },
	  .check = table_exact_fit },
	{ .c = { .id = "verbs/query_gid_table/max-too-small",
		 .doc = DOC_TABLE_FAIL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "max_entries one less than the valid entries",
		 .needs = NEEDS_VERBS,
		 .contract = { RC_FAILS() } },
	  .check = table_max_too_small },
	{ .c = { .id = "verbs/query_gid_table/zero-max",
		 .doc = DOC_TABLE_ZERO,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "max_entries 0: a negative errno value",
		 .needs = NEEDS_VERBS,
		 .contract = { RC_FAILS() } },
	  .check = table_zero_max },
	{ .c = { .id = "verbs/query_gid_table/nonzero-flags",
		 .doc = DOC_TABLE_FLAGS,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "flags 1: a negative errno value",
		 .needs = NEEDS_VERBS,
		 .contract = { RC_FAILS() } },
	  .check = table_nonzero_flags },
	{ .c = { .id = "verbs/query_gid_table/follows-added-address",
		 .doc = DOC_TABLE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "after a first call, 2001:db8::42 is added: one entry "
			 "more, holding its GID",
		 .needs = NEEDS_CHANGE,
		 .shares = RC_SHARE_ALONE,
		 .contract = { RC_SUCCEEDS } },
	  .check = table_follows_added },
};

/* Entry @i of @port as sysfs has it: true when it holds a GID. */
static bool sysfs_entry(struct rc_ctx *ctx, int port, int i,
			struct ibv_gid_entry *e)
{
	char buf[64], type[32];

	memset(e, 0, sizeof(*e));
	if (rc_sysfs_read(type, sizeof(type),
			  RC_SYSFS_IB "/%s/ports/%d/"
				      "gid_attrs/types/%d",
			  ctx->target->ca, port, i) ||
	    !type[0] ||
	    rc_sysfs_read(buf, sizeof(buf), RC_SYSFS_IB "/%s/ports/%d/gids/%d",
			  ctx->target->ca, port, i) ||
	    rc_gid_parse(buf, e->gid.raw))
		return false;
	e->gid_type = !strcmp(type, "RoCE v2") ? IBV_GID_TYPE_ROCE_V2 :
		      !strcmp(ctx->target->link_layer, "Ethernet") ?
						 IBV_GID_TYPE_ROCE_V1 :
						 IBV_GID_TYPE_IB;
	e->gid_index = i;
	e->port_num = port;
	if (!rc_sysfs_read(buf, sizeof(buf),
			   RC_SYSFS_IB "/%s/ports/%d/"
				       "gid_attrs/ndevs/%d",
			   ctx->target->ca, port, i))
		e->ndev_ifindex = if_nametoindex(buf);
	return true;
}

/* Does @got say what sysfs says of its entry?  A violation if not. */
static void same_as_sysfs(struct rc_ctx *ctx, const struct ibv_gid_entry *got)
{
	struct ibv_gid_entry want;

	if (!sysfs_entry(ctx, got->port_num, got->gid_index, &want))
		rc_obs_violation(ctx->obs,
				 "gid_index %u of port %u holds no "
				 "GID in sysfs",
				 got->gid_index, got->port_num);
	else if (memcmp(&want.gid, &got->gid, 16))
		rc_obs_violation(ctx->obs, "gid of index %u is not sysfs's",
				 got->gid_index);
	else if (want.gid_type != got->gid_type)
		rc_obs_violation(ctx->obs, "gid_type %u, sysfs says %u",
				 got->gid_type, want.gid_type);
	else if (want.ndev_ifindex != got->ndev_ifindex)
		rc_obs_violation(ctx->obs,
				 "ndev_ifindex %u, sysfs's netdev is "
				 "%u",
				 got->ndev_ifindex, want.ndev_ifindex);
}

/* The used entries of the port's first SCAN, as sysfs has them. */
static int sysfs_count(struct rc_ctx *ctx, int port)
{
	struct ibv_gid_entry e;
	int i, n = 0;

	for (i = 0; i < SCAN; i++)
		n += sysfs_entry(ctx, port, i, &e);
	return n;
}

static int table_size(struct rc_ctx *ctx, int port)
{
	char path[160];

	snprintf(path, sizeof(path), RC_SYSFS_IB "/%s/ports/%d/gids",
		 ctx->target->ca, port);
	return rc_dir_count(path);
}

/* Add 2001:db8::42 to the netdev of the port's IPv6 GID; its GID index,
 * or -1 with the row BROKEN. */
static int add_address(struct rc_ctx *ctx, struct vres *r, char *dev,
		       size_t len)
{
	int idx;

	if (rc_sysfs_read(dev, len,
			  RC_SYSFS_IB "/%s/ports/%d/gid_attrs/ndevs/"
				      "%d",
			  ctx->target->ca, r->port, r->gid6) ||
	    vres_change_address(ctx, dev, true) ||
	    (idx = vres_wait_added_gid(ctx, r->port, true)) < 0) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "could not add "
			     "2001:db8::42 to the port's netdev");
		return -1;
	}
	return idx;
}

/* The call under test on entry @idx of @port, into a filled @gid; true
 * when it returned 0. */
static bool observe_gid(struct rc_ctx *ctx, struct vres *r, int port, int idx,
			union ibv_gid *gid)
{
	int ret;

	/* what must not happen: a byte written past the caller's 16 */
	struct {
		union ibv_gid gid;
		uint8_t after[16];
	} b;
	uint8_t fill[sizeof(b.after)];

	memset(&b, 0xa5, sizeof(b));
	memset(fill, 0xa5, sizeof(fill));
	RC_OBSERVE(ctx,
		   ret = ctx->ops->ibv_query_gid(r->ctx, port, idx, &b.gid));
	if (memcmp(b.after, fill, sizeof(fill)))
		rc_obs_violation(ctx->obs, "bytes written past the 16 of the "
					   "gid");
	*gid = b.gid;
	return !ret && !ctx->obs->violation[0];
}

/* The GID returned for entry @idx is @want; recorded. */
static void expect_gid(struct rc_ctx *ctx, int idx, const union ibv_gid *want,
		       const union ibv_gid *gid)
{
	if (memcmp(want, gid, 16))
		rc_obs_violation(ctx->obs, "gid of index %d is not sysfs's",
				 idx);
	rc_obs_out(ctx->obs, gid, sizeof(*gid));
}

/* Entry @idx asked of @port holds what sysfs has at @idx of the port. */
static void gid_as_sysfs(struct rc_ctx *ctx, struct vres *r, int port, int idx)
{
	struct ibv_gid_entry want;
	union ibv_gid gid;

	if (!observe_gid(ctx, r, port, idx, &gid))
		return;
	if (!sysfs_entry(ctx, r->port, idx, &want)) {
		rc_obs_violation(ctx->obs, "index %d holds no GID in sysfs",
				 idx);
		return;
	}
	expect_gid(ctx, idx, &want.gid, &gid);
}

static void gid_at_zero(const struct gid_row *row, struct rc_ctx *ctx,
			struct vres *r)
{
	gid_as_sysfs(ctx, r, r->port, 0);
}

static void gid_at_ipv6_address(const struct gid_row *row, struct rc_ctx *ctx,
				struct vres *r)
{
	gid_as_sysfs(ctx, r, r->port, r->gid6);
}

static void gid_unused_is_zero(const struct gid_row *row, struct rc_ctx *ctx,
			       struct vres *r)
{
	union ibv_gid gid, zero = {};

	if (observe_gid(ctx, r, r->port, UNUSED_INDEX, &gid))
		expect_gid(ctx, UNUSED_INDEX, &zero, &gid);
}

static void gid_past_table(const struct gid_row *row, struct rc_ctx *ctx,
			   struct vres *r)
{
	gid_as_sysfs(ctx, r, r->port, table_size(ctx, r->port));
}

static void gid_port_zero(const struct gid_row *row, struct rc_ctx *ctx,
			  struct vres *r)
{
	gid_as_sysfs(ctx, r, 0, 0);
}

static void gid_follows_added(const struct gid_row *row, struct rc_ctx *ctx,
			      struct vres *r)
{
	char dev[IF_NAMESIZE + 1];
	union ibv_gid gid;
	int added;

	ctx->ops->ibv_query_gid(r->ctx, r->port, 0, &gid);
	added = add_address(ctx, r, dev, sizeof(dev));
	if (added < 0)
		return;
	gid_as_sysfs(ctx, r, r->port, added);
	vres_change_address(ctx, dev, false);
}

/* The call under test on entry @idx of the port, with @flags: the entry
 * it returns is the one asked, as sysfs has it. */
static void ex_as_sysfs(struct rc_ctx *ctx, struct vres *r, int idx,
			uint32_t flags)
{
	struct ibv_gid_entry e;
	int ret;

	memset(&e, 0xa5, sizeof(e));
	RC_OBSERVE(ctx, ret = ctx->ops->ibv_query_gid_ex(r->ctx, r->port, idx,
							 &e, flags));
	if (ret)
		return;
	if (e.gid_index != (uint32_t)idx || e.port_num != (uint32_t)r->port)
		rc_obs_violation(ctx->obs,
				 "gid_index %u port_num %u, asked %d "
				 "of %d",
				 e.gid_index, e.port_num, idx, r->port);
	else
		same_as_sysfs(ctx, &e);
	rc_obs_out(ctx->obs, &e, sizeof(e));
}

static void ex_at_ipv6_address(const struct gid_row *row, struct rc_ctx *ctx,
			       struct vres *r)
{
	ex_as_sysfs(ctx, r, r->gid6, 0);
}

static void ex_at_zero(const struct gid_row *row, struct rc_ctx *ctx,
		       struct vres *r)
{
	ex_as_sysfs(ctx, r, 0, 0);
}

static void ex_unused(const struct gid_row *row, struct rc_ctx *ctx,
		      struct vres *r)
{
	ex_as_sysfs(ctx, r, UNUSED_INDEX, 0);
}

static void ex_nonzero_flags(const struct gid_row *row, struct rc_ctx *ctx,
			     struct vres *r)
{
	ex_as_sysfs(ctx, r, 0, 1);
}

static void ex_past_table(const struct gid_row *row, struct rc_ctx *ctx,
			  struct vres *r)
{
	ex_as_sysfs(ctx, r, table_size(ctx, r->port), 0);
}

static void ex_follows_added(const struct gid_row *row, struct rc_ctx *ctx,
			     struct vres *r)
{
	char dev[IF_NAMESIZE + 1];
	struct ibv_gid_entry e;
	int added;

	ctx->ops->ibv_query_gid_ex(r->ctx, r->port, 0, &e, 0);
	added = add_address(ctx, r, dev, sizeof(dev));
	if (added < 0)
		return;
	ex_as_sysfs(ctx, r, added, 0);
	vres_change_address(ctx, dev, false);
}

static int cmp_entry(const void *a, const void *b)
{
	const struct ibv_gid_entry *x = a, *y = b;

	return x->port_num != y->port_num ?
		       (int)x->port_num - (int)y->port_num :
		       (int)x->gid_index - (int)y->gid_index;
}

/* The used entries of every port, as sysfs has them. */
static int valid_entries(struct rc_ctx *ctx)
{
	int want = 0, p;

	for (p = 1; table_size(ctx, p) > 0; p++)
		want += sysfs_count(ctx, p);
	return want;
}

/*
 * The call under test with @max entries and @flags: @want entries, each as
 * sysfs has it; with @added, one of them holds the added address's GID.
 */
/* Does @p hold the 0xa5 fill throughout? */
static bool all_fill(const void *p, size_t len)
{
	const uint8_t *b = p;
	size_t i;

	for (i = 0; i < len; i++)
		if (b[i] != 0xa5)
			return false;
	return true;
}

static void table_as_sysfs(struct rc_ctx *ctx, struct vres *r, int want,
			   int max, uint32_t flags, bool added)
{
	/* an entry before the array, to see that none is written there */
	static struct {
		struct ibv_gid_entry before;
		struct ibv_gid_entry e[TABLE_ROOM];
	} t;
	struct ibv_gid_entry *e = t.e;
	ssize_t n;
	int p;

	memset(&t, 0xa5, sizeof(t));
	RC_OBSERVE(ctx,
		   n = ctx->ops->ibv_query_gid_table(r->ctx, e, max, flags));
	if (!all_fill(&t.before, sizeof(t.before))) {
		rc_obs_violation(ctx->obs, "the entry before the array "
					   "written");
		return;
	}
	if (n < 0)
		return;
	/* what must not happen: an entry written past those returned */
	if (n < TABLE_ROOM && !all_fill(&e[n], sizeof(e[n]))) {
		rc_obs_violation(ctx->obs,
				 "entry %zd written, past the %zd "
				 "returned",
				 n, n);
		return;
	}
	if (n != want)
		rc_obs_violation(ctx->obs,
				 "count %zd entries, sysfs has %d "
				 "used",
				 n, want);
	qsort(e, n, sizeof(e[0]), cmp_entry);
	for (p = 0; p < n && !ctx->obs->violation[0]; p++)
		same_as_sysfs(ctx, &e[p]);
	if (added && !ctx->obs->violation[0]) {
		for (p = 0; p < n; p++)
			if (!memcmp(e[p].gid.raw, vres_added6, 16))
				break;
		if (p == n)
			rc_obs_violation(ctx->obs, "entries: none holds the "
						   "added address's GID");
	}
	rc_obs_out(ctx->obs, e,
		   n * sizeof(e[0]) < RC_OUT_MAX ? n * sizeof(e[0]) :
						   RC_OUT_MAX);
}

static void table_all_valid(const struct gid_row *row, struct rc_ctx *ctx,
			    struct vres *r)
{
	table_as_sysfs(ctx, r, valid_entries(ctx), TABLE_ROOM, 0, false);
}

static void table_exact_fit(const struct gid_row *row, struct rc_ctx *ctx,
			    struct vres *r)
{
	int want = valid_entries(ctx);

	table_as_sysfs(ctx, r, want, want, 0, false);
}

static void table_max_too_small(const struct gid_row *row, struct rc_ctx *ctx,
				struct vres *r)
{
	int want = valid_entries(ctx);

	table_as_sysfs(ctx, r, want, want - 1, 0, false);
}

static void table_zero_max(const struct gid_row *row, struct rc_ctx *ctx,
			   struct vres *r)
{
	table_as_sysfs(ctx, r, valid_entries(ctx), 0, 0, false);
}

static void table_nonzero_flags(const struct gid_row *row, struct rc_ctx *ctx,
				struct vres *r)
{
	table_as_sysfs(ctx, r, valid_entries(ctx), TABLE_ROOM, 1, false);
}

static void table_follows_added(const struct gid_row *row, struct rc_ctx *ctx,
				struct vres *r)
{
	static struct ibv_gid_entry first[TABLE_ROOM];
	char dev[IF_NAMESIZE + 1];

	ctx->ops->ibv_query_gid_table(r->ctx, first, TABLE_ROOM, 0);
	if (add_address(ctx, r, dev, sizeof(dev)) < 0)
		return;
	table_as_sysfs(ctx, r, valid_entries(ctx), TABLE_ROOM, 0, true);
	vres_change_address(ctx, dev, false);
}

/* The target port's resources around the row's check. */
static void run_on_port(const void *rw, struct rc_ctx *ctx, const void *fn,
			const char *name)
{
	const struct gid_row *row = rw;
	struct vres r;

	if (!rc_need_call(ctx, fn, name) || !vres_open(ctx, &r, IBV_QPT_UD))
		return;
	row->check(row, ctx, &r);
	vres_close(&r);
}

static void run_gid(const void *rw, struct rc_ctx *ctx)
{
	run_on_port(rw, ctx, ctx->ops->ibv_query_gid, "ibv_query_gid");
}

static void run_ex(const void *rw, struct rc_ctx *ctx)
{
	run_on_port(rw, ctx, ctx->ops->ibv_query_gid_ex, "ibv_query_gid_ex");
}

static void run_table(const void *rw, struct rc_ctx *ctx)
{
	run_on_port(rw, ctx, ctx->ops->ibv_query_gid_table,
		    "ibv_query_gid_table");
}

RC_TABLE_GROUP(gid_group, "ibv_query_gid", RC_CONV_M1_ERRNO, "verbs", gid_rows,
	       run_gid);

RC_TABLE_GROUP(ex_group, "ibv_query_gid_ex", RC_CONV_ERRNO_RET, "verbs",
	       ex_rows, run_ex);

RC_TABLE_GROUP(table_group, "ibv_query_gid_table", RC_CONV_NEG_ERRNO, "verbs",
	       table_rows, run_table);
