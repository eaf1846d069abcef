// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * umad_get_ca_device_list(3), umad_free_ca_device_list(3),
 * umad_sort_ca_device_list(3): a list of the CA names, freed and sorted.
 * rdma-core 44.0 documents them in its source (libibumad/man, as .3.md
 * pages), but its build installs no page for them (the citations come from the
 * source's pages, tests/e2e/test_citations.py).
 *
 * - the list holds the target device, as many names as
 *   umad_get_cas_names gives (the same "local IB devices (CAs) names"),
 *   ends with NULL, and is a list of its own at every call
 * - names of the device of UMAD_CA_NAME_LEN - 1 characters, one more and
 *   63 (umad_attrs.c): all in the list, whole (interpretation)
 * - ten devices more, one of each node_type 0 to 8 (umad_attrs.c) and
 *   one without it: those of 1 to 3 in the list, once each, the rest not
 *   (linux)
 * - no /sys/class/infiniband: NULL, errno not set
 * - freeing it gives back every byte the list took, on the heap; an
 *   empty list (NULL, what get returns for no device) frees
 * - sorting: size zero counts the list; an exact size; every order of
 *   four names that strcmp tells apart only late; two names; the caller's
 *   nodes relinked, none copied or lost; an empty list
 * - a size that is not the list's (one short, one beyond): an error,
 *   non-zero, and the list as it was
 */
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "umad_dev.h"

#define DOC_GET                                             \
	"umad_get_ca_device_list() returns list of struct " \
	"umad_device_node filled with local IB devices(CAs) names."
#define DOC_FILLS                                                 \
	"umad_get_ca_device_list() fills the cas list of struct " \
	"umad_device_node with local IB devices (CAs) names."
#define DOC_LAST                                                   \
	"The last value of the list is NULL in order to indicate " \
	"the number of entries filled."
#define DOC_FREE                                                    \
	"umad_free_ca_device_list() frees the struct "              \
	"umad_device_node list and its values that allocated with " \
	"umad_get_ca_namelist()."
#define DOC_EMPTY                                                  \
	"In case of empty list (zero elements), NULL is returned " \
	"and errno is not set."
#define DOC_SORT                                              \
	"sort the cas list of struct umad_device_node by IB " \
	"devices (CAs) names (Alphabetical sorting)."
#define DOC_SIZE0                                               \
	"if size_t size input parameter is zero, the function " \
	"will calculate the size of the cas list."
#define DOC_SORTED "returns zero value if sorting was succeded."
#define DOC_ERROR "On error, non-zero value is returned."

/* a list longer than any host has devices is one that never ends */
#define MAX_WALK 256

struct list_row;
typedef void list_check(const struct list_row *row, struct rc_ctx *ctx);

struct list_row {
	struct rc_case c;
	list_check *check;
	size_t size; /* umad_sort_ca_device_list's size */
};

static list_check lists_target, long_names_whole, node_types,
	none_without_class, same_as_cas_names, ends_with_null,
	own_list_each_call, frees_every_byte, frees_empty, sorts_counted,
	sorts_every_order, relinks_nodes, sorts_two, sorts_empty,
	refuses_wrong_size;

static const struct list_row get_rows[] = {
	{ .c = { .id = "umad/get_ca_device_list/lists-target-device",
		 .doc = DOC_GET,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the target device is a name of the list, no name "
			 "twice; the names, sorted, compared between the "
			 "implementations",
		 .needs = NEEDS_CA,
		 .contract = { RC_SUCCEEDS } },
	  .check = lists_target },
	{ .c = { .id = "umad/get_ca_device_list/long-names-whole",
		 .doc = DOC_FILLS,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the device under three names more (in the row's own "
			 "mount namespace), of UMAD_CA_NAME_LEN - 1 characters, "
			 "of UMAD_CA_NAME_LEN and of 63 (Linux's longest): a "
			 "node's ca_name is a pointer, which no array bounds: "
			 "the three there, whole, once each",
		 .needs = NEEDS_ATTRS,
		 .contract = { RC_SUCCEEDS } },
	  .check = long_names_whole },
	{ .c = { .id = "umad/get_ca_device_list/every-node-type",
		 .doc = DOC_GET,
		 .basis = RC_BASIS_LINUX,
		 .note = "ten devices more (in the row's own mount namespace): "
			 "one of each node_type 0 to 8 as node_type_show "
			 "prints it and one without the attribute: the CA names "
			 "are those of IB nodes (1 CA, 2 switch, 3 router; an "
			 "iWARP RNIC is 4), in the list once each, the rest not "
			 "(Documentation/ABI/stable/sysfs-class-infiniband)",
		 .needs = NEEDS_ATTRS,
		 .contract = { RC_SUCCEEDS } },
	  .check = node_types },
	{ .c = { .id = "umad/get_ca_device_list/no-rdma-subsystem",
		 .doc = DOC_EMPTY,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "no /sys/class/infiniband (a kernel without ib_core; "
			 "in the row's own mount namespace): the empty list, "
			 "NULL, and errno, 0 before the call, not set",
		 .needs = NEEDS_NO_CLASS,
		 .contract = { RC_ANY_RETURN } },
	  .check = none_without_class },
	{ .c = { .id = "umad/get_ca_device_list/names-of-get-cas-names",
		 .doc = DOC_FILLS,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "umad_get_cas_names(3) fills its array with \"local IB "
			 "devices (CAs) names\" too: the same names, as sets",
		 .needs = NEEDS_CA,
		 .contract = { RC_SUCCEEDS } },
	  .check = same_as_cas_names },
	{ .c = { .id = "umad/get_ca_device_list/ends-with-null",
		 .doc = DOC_LAST,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the walk to NULL counts as many nodes as "
			 "umad_get_cas_names gives names",
		 .needs = NEEDS_CA,
		 .contract = { RC_SUCCEEDS } },
	  .check = ends_with_null },
	{ .c = { .id = "umad/get_ca_device_list/a-list-of-its-own-each-call",
		 .doc = DOC_GET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "two calls, two lists: freeing the first leaves the "
			 "second whole (no node or name shared)",
		 .needs = NEEDS_CA,
		 .contract = { RC_SUCCEEDS } },
	  .check = own_list_each_call },
};

static const struct list_row free_rows[] = {
	{ .c = { .id = "umad/free_ca_device_list/every-byte-back",
		 .doc = DOC_FREE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the heap in use (mallinfo2) is what it was before "
			 "umad_get_ca_device_list, after eight warm-up call pairs",
		 .needs = NEEDS_CA,
		 .contract = { RC_RETURNS(0) } },
	  .check = frees_every_byte },
	{ .c = { .id = "umad/free_ca_device_list/empty-list",
		 .doc = DOC_EMPTY,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "NULL is the empty list umad_get_ca_device_list "
			 "returns: freeing it returns",
		 .contract = { RC_RETURNS(0) } },
	  .check = frees_empty },
};

static const struct list_row sort_rows[] = {
	{ .c = { .id = "umad/sort_ca_device_list/size-zero-counts-the-list",
		 .doc = DOC_SIZE0,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "five names out of order, size 0: all five sorted",
		 .contract = { RC_RETURNS(0) } },
	  .check = sorts_counted,
	  .size = 0 },
	{ .c = { .id = "umad/sort_ca_device_list/exact-size",
		 .doc = DOC_SORTED,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "five names out of order, size 5: all five sorted",
		 .contract = { RC_RETURNS(0) } },
	  .check = sorts_counted,
	  .size = 5 },
	{ .c = { .id = "umad/sort_ca_device_list/every-order-of-four",
		 .doc = DOC_SORT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "all 24 orders of mlx5_1, mlx5_10, mlx5_2, rxe0 "
			 "(strcmp's order; the first three differ late), "
			 "each sorted alike; returns the last call's value",
		 .contract = { RC_RETURNS(0) } },
	  .check = sorts_every_order },
	{ .c = { .id = "umad/sort_ca_device_list/nodes-relinked-not-copied",
		 .doc = DOC_SORT,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the list is the caller's: after the sort *head and "
			 "every next are the same five nodes, none new, none "
			 "lost, names untouched",
		 .contract = { RC_RETURNS(0) } },
	  .check = relinks_nodes },
	{ .c = { .id = "umad/sort_ca_device_list/two-names",
		 .doc = DOC_SORT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the shortest list with an order to change: rxe1, "
			 "rxe0 becomes rxe0, rxe1",
		 .contract = { RC_RETURNS(0) } },
	  .check = sorts_two },
	{ .c = { .id = "umad/sort_ca_device_list/empty-list",
		 .doc = DOC_SIZE0,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "an empty list (head NULL) counts zero nodes: "
			 "nothing to sort, success, *head still NULL",
		 .contract = { RC_RETURNS(0) } },
	  .check = sorts_empty },
	{ .c = { .id = "umad/sort_ca_device_list/size-one-short",
		 .doc = DOC_ERROR,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "size is \"the size of the cas list\" (or zero, for "
			 "the function to count it): 4 for a list of five is a "
			 "wrong argument, non-zero, and the list as it was",
		 .contract = { RC_ANY_RETURN } },
	  .check = refuses_wrong_size,
	  .size = 4 },
	{ .c = { .id = "umad/sort_ca_device_list/size-one-beyond",
		 .doc = DOC_ERROR,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "6 for a list of five: non-zero, and the list as it "
			 "was",
		 .contract = { RC_ANY_RETURN } },
	  .check = refuses_wrong_size,
	  .size = 6 },
};

static int by_name(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* The names of @l, sorted, NUL-padded to UMAD_CA_NAME_LEN; how many, or
 * -1 when the list does not end within MAX_WALK nodes. */
static int names_of(struct umad_device_node *l, char names[][UMAD_CA_NAME_LEN])
{
	int n;

	for (n = 0; l && n < MAX_WALK; l = l->next, n++) {
		memset(names[n], 0, UMAD_CA_NAME_LEN);
		strncpy(names[n], l->ca_name ? l->ca_name : "(null)",
			UMAD_CA_NAME_LEN - 1);
	}
	if (l)
		return -1;
	qsort(names, n, UMAD_CA_NAME_LEN, by_name);
	return n;
}

static struct umad_device_node *get(struct rc_ctx *ctx)
{
	struct umad_device_node *l;

	RC_OBSERVE(ctx, l = ctx->ops->umad_get_ca_device_list());
	return l;
}

static void lists_target(const struct list_row *row, struct rc_ctx *ctx)
{
	char names[MAX_WALK][UMAD_CA_NAME_LEN];
	struct umad_device_node *l = get(ctx);
	bool found = false;
	int n, i;

	if (!l)
		return;
	n = names_of(l, names);
	for (i = 0; i < n; i++) {
		found |= !strcmp(names[i], ctx->target->ca);
		if (i && !strcmp(names[i], names[i - 1]))
			rc_obs_violation(ctx->obs, "%s is listed twice",
					 names[i]);
	}
	if (n < 0)
		rc_obs_violation(ctx->obs, "the list does not end");
	else if (!found)
		rc_obs_violation(ctx->obs, "%s is not in the list",
				 ctx->target->ca);
	else
		rc_obs_out(ctx->obs, names, n * UMAD_CA_NAME_LEN);
	ctx->ops->umad_free_ca_device_list(l);
}

/*
 * With the device overlay @attrs, how many times the list holds each of
 * the @n names @want, in @seen; false when the overlay or the list failed
 * (recorded)
 */
static bool times_listed(struct rc_ctx *ctx, unsigned int attrs,
			 const char *const *want, int n, int *seen)
{
	struct umad_device_node *l, *node;
	int i, k = 0;

	if (!dev_attrs_overlay(ctx, attrs))
		return false;
	l = get(ctx);
	if (!l)
		return false;
	for (node = l; node && k < MAX_WALK; node = node->next, k++)
		for (i = 0; i < n; i++)
			seen[i] += node->ca_name &&
				   !strcmp(node->ca_name, want[i]);
	ctx->ops->umad_free_ca_device_list(l);
	return true;
}

static void long_names_whole(const struct list_row *row, struct rc_ctx *ctx)
{
	static const char *const want[] = { DEV_NAME_FITS, DEV_NAME_TOO_LONG,
					    DEV_NAME_LONGEST };
	int seen[3] = { 0, 0, 0 }, i;

	if (!times_listed(ctx, ATTRS_LONG_NAMES, want, 3, seen))
		return;
	for (i = 0; i < 3; i++)
		if (seen[i] != 1)
			rc_obs_violation(ctx->obs, "%s listed %d times",
					 want[i], seen[i]);
}

/* the devices of node_type 0 to DEV_NODE_TYPES - 1, then the one without */
static void node_types(const struct list_row *row, struct rc_ctx *ctx)
{
	char names[DEV_NODE_TYPES][DEV_NODE_TYPE_NAME_LEN];
	const char *want[DEV_NODE_TYPES + 1];
	int seen[DEV_NODE_TYPES + 1] = { 0 }, t;

	dev_node_type_names(names, want);
	if (!times_listed(ctx, ATTRS_NODE_TYPES, want, DEV_NODE_TYPES + 1,
			  seen))
		return;
	for (t = 0; t <= DEV_NODE_TYPES; t++)
		if (seen[t] != (t >= 1 && t <= 3))
			rc_obs_violation(ctx->obs, "%s listed %d times",
					 want[t], seen[t]);
}

static void none_without_class(const struct list_row *row, struct rc_ctx *ctx)
{
	struct umad_device_node *l;
	int err;

	if (!dev_attrs_overlay(ctx, ATTRS_NO_CLASS))
		return;
	/* errno read at once, before the harness's own calls */
	errno = 0;
	RC_OBSERVE(ctx,
		   (l = ctx->ops->umad_get_ca_device_list(), err = errno, l));
	if (l) {
		rc_obs_violation(ctx->obs, "a list, not NULL");
		ctx->ops->umad_free_ca_device_list(l);
	} else if (err) {
		rc_obs_violation(ctx->obs, "errno %s, set", rc_errno_name(err));
	}
}

static void same_as_cas_names(const struct list_row *row, struct rc_ctx *ctx)
{
	char names[MAX_WALK][UMAD_CA_NAME_LEN], cas[MAX_WALK][UMAD_CA_NAME_LEN];
	struct umad_device_node *l = get(ctx);
	int n, k;

	if (!l)
		return;
	n = names_of(l, names);
	ctx->ops->umad_free_ca_device_list(l);
	memset(cas, 0, sizeof(cas));
	k = ctx->ops->umad_get_cas_names(cas, MAX_WALK);
	if (k < 0) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "umad_get_cas_names failed");
		return;
	}
	qsort(cas, k, UMAD_CA_NAME_LEN, by_name);
	if (n != k || memcmp(names, cas, n * UMAD_CA_NAME_LEN))
		rc_obs_violation(ctx->obs,
				 "%d names, umad_get_cas_names "
				 "gives %d others",
				 n, k);
}

static void ends_with_null(const struct list_row *row, struct rc_ctx *ctx)
{
	char names[MAX_WALK][UMAD_CA_NAME_LEN], cas[MAX_WALK][UMAD_CA_NAME_LEN];
	struct umad_device_node *l = get(ctx);
	int n, k;

	if (!l)
		return;
	n = names_of(l, names);
	ctx->ops->umad_free_ca_device_list(l);
	k = ctx->ops->umad_get_cas_names(cas, MAX_WALK);
	if (n < 0)
		rc_obs_violation(ctx->obs, "no NULL within %d nodes", MAX_WALK);
	else if (n != k)
		rc_obs_violation(ctx->obs, "NULL after %d nodes, for %d names",
				 n, k);
}

static void own_list_each_call(const struct list_row *row, struct rc_ctx *ctx)
{
	char before[MAX_WALK][UMAD_CA_NAME_LEN],
		after[MAX_WALK][UMAD_CA_NAME_LEN];
	struct umad_device_node *a = ctx->ops->umad_get_ca_device_list();
	struct umad_device_node *b = get(ctx);
	int n;

	if (!a || !b) {
		ctx->ops->umad_free_ca_device_list(a);
		ctx->ops->umad_free_ca_device_list(b);
		return;
	}
	n = names_of(b, before);
	/* the first list's memory reused: what it held is gone */
	ctx->ops->umad_free_ca_device_list(a);
	free(calloc(1, 4096));
	if (n != names_of(b, after) ||
	    memcmp(before, after, n * UMAD_CA_NAME_LEN))
		rc_obs_violation(ctx->obs, "freeing one list changed the "
					   "other");
	ctx->ops->umad_free_ca_device_list(b);
}

static void frees_every_byte(const struct list_row *row, struct rc_ctx *ctx)
{
	struct umad_device_node *l;
	size_t before, after;
	int i;

	/*
	 * Pairs first: what a library keeps for good is kept by then, and
	 * glibc's per-thread cache of freed chunks (7 of a size), which
	 * mallinfo2 counts as in use, is full (one pair was not enough on
	 * ibsim).
	 */
	for (i = 0; i < 8; i++)
		ctx->ops->umad_free_ca_device_list(
			ctx->ops->umad_get_ca_device_list());
	before = mallinfo2().uordblks;
	l = ctx->ops->umad_get_ca_device_list();
	if (!l) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "umad_get_ca_device_list failed");
		return;
	}
	RC_OBSERVE(ctx, (ctx->ops->umad_free_ca_device_list(l), 0));
	after = mallinfo2().uordblks;
	if (after != before)
		rc_obs_violation(ctx->obs,
				 "%zd bytes of the list still in "
				 "use",
				 (ssize_t)(after - before));
}

static void frees_empty(const struct list_row *row, struct rc_ctx *ctx)
{
	RC_OBSERVE(ctx, (ctx->ops->umad_free_ca_device_list(NULL), 0));
}

/* the five names the sort rows start from, out of order */
static const char *const five[] = { "rxe1", "mlx5_0", "ibp0s9", "rxe0",
				    "hfi1_0" };

/* @n nodes of @names, in that order, in @v */
static struct umad_device_node *make_list(struct umad_device_node *v,
					  const char *const *names, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		v[i].ca_name = names[i];
		v[i].next = i + 1 < n ? &v[i + 1] : NULL;
	}
	return n ? &v[0] : NULL;
}

/* Is @l @want, in that order, and nothing after? */
static bool is_order(struct umad_device_node *l, const char *const *want, int n)
{
	int i;

	for (i = 0; i < n; i++, l = l->next)
		if (!l || strcmp(l->ca_name, want[i]))
			return false;
	return !l;
}

static void sorts_counted(const struct list_row *row, struct rc_ctx *ctx)
{
	static const char *const sorted[] = { "hfi1_0", "ibp0s9", "mlx5_0",
					      "rxe0", "rxe1" };
	struct umad_device_node v[5], *head = make_list(v, five, 5);

	RC_OBSERVE(ctx, ctx->ops->umad_sort_ca_device_list(&head, row->size));
	if (!is_order(head, sorted, 5))
		rc_obs_violation(ctx->obs, "the list is not hfi1_0, ibp0s9, "
					   "mlx5_0, rxe0, rxe1");
}

static void sorts_every_order(const struct list_row *row, struct rc_ctx *ctx)
{
	static const char *const sorted[] = { "mlx5_1", "mlx5_10", "mlx5_2",
					      "rxe0" };
	struct umad_device_node v[4], *head;
	const char *names[4];
	int p, i, k, ret = 0, wrong = 0, orders = 0;

	rc_obs_begin(ctx->obs);
	/* every tuple of four distinct indices: the 24 orders */
	for (p = 0; p < 256; p++) {
		unsigned int used = 0;

		for (i = 0; i < 4; i++) {
			k = p >> (2 * i) & 3;
			used |= 1u << k;
			names[i] = sorted[k];
		}
		if (used != 0xf)
			continue;
		head = make_list(v, names, 4);
		ret = ctx->ops->umad_sort_ca_device_list(&head, 0);
		if (ret || !is_order(head, sorted, 4))
			wrong++;
		orders++;
	}
	rc_obs_end(ctx->obs, ret);
	if (orders != 24)
		abort(); /* the loop above is wrong, not the library */
	if (wrong)
		rc_obs_violation(ctx->obs,
				 "%d of the 24 orders not sorted "
				 "(or not 0)",
				 wrong);
}

static void relinks_nodes(const struct list_row *row, struct rc_ctx *ctx)
{
	struct umad_device_node v[5], *head = make_list(v, five, 5), *l;
	unsigned int seen = 0;
	int i, n = 0;

	RC_OBSERVE(ctx, ctx->ops->umad_sort_ca_device_list(&head, 0));
	for (l = head; l && n <= 5; l = l->next, n++) {
		for (i = 0; i < 5 && l != &v[i]; i++)
			;
		if (i == 5 || l->ca_name != five[i]) {
			rc_obs_violation(ctx->obs,
					 "node %d is not one of the "
					 "caller's five, as it was",
					 n);
			return;
		}
		seen |= 1u << i;
	}
	if (n != 5 || seen != 0x1f)
		rc_obs_violation(ctx->obs,
				 "%d nodes after the sort, of the "
				 "caller's five",
				 n);
}

static void sorts_two(const struct list_row *row, struct rc_ctx *ctx)
{
	static const char *const names[] = { "rxe1", "rxe0" };
	static const char *const sorted[] = { "rxe0", "rxe1" };
	struct umad_device_node v[2], *head = make_list(v, names, 2);

	RC_OBSERVE(ctx, ctx->ops->umad_sort_ca_device_list(&head, 0));
	if (!is_order(head, sorted, 2))
		rc_obs_violation(ctx->obs, "the list is not rxe0, rxe1");
}

static void refuses_wrong_size(const struct list_row *row, struct rc_ctx *ctx)
{
	struct umad_device_node v[5], *head = make_list(v, five, 5);
	int ret;

	RC_OBSERVE(ctx,
		   ret = ctx->ops->umad_sort_ca_device_list(&head, row->size));
	if (!ret)
		rc_obs_violation(ctx->obs,
				 "0 (success) for size %zu of a list "
				 "of 5",
				 row->size);
	if (!is_order(head, five, 5))
		rc_obs_violation(ctx->obs, "the list changed");
}

static void sorts_empty(const struct list_row *row, struct rc_ctx *ctx)
{
	struct umad_device_node *head = NULL;

	RC_OBSERVE(ctx, ctx->ops->umad_sort_ca_device_list(&head, 0));
	if (head)
		rc_obs_violation(ctx->obs, "*head is no longer NULL");
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct list_row *row = r;
	const struct rc_ops *ops = ctx->ops;

	if (!rc_need_call(ctx, ops->umad_get_ca_device_list,
			  "umad_get_ca_device_list") ||
	    !rc_need_call(ctx, ops->umad_free_ca_device_list,
			  "umad_free_ca_device_list") ||
	    !rc_need_call(ctx, ops->umad_sort_ca_device_list,
			  "umad_sort_ca_device_list") ||
	    !rc_need_call(ctx, ops->umad_get_cas_names, "umad_get_cas_names"))
		return;
	row->check(row, ctx);
}

RC_TABLE_GROUP(get_group, "umad_get_ca_device_list", RC_CONV_NULL_ERRNO, "umad",
	       get_rows, run);

RC_TABLE_GROUP(free_group, "umad_free_ca_device_list", RC_CONV_VALUE, "umad",
	       free_rows, run);

/* "On error, non-zero value is returned": a plain value, 0 the success */
RC_TABLE_GROUP(sort_group, "umad_sort_ca_device_list", RC_CONV_VALUE, "umad",
	       sort_rows, run);
