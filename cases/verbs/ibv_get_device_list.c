// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_get_device_list(3): "returns a NULL-terminated array of RDMA devices
 * currently available.  The argument num_devices is optional; if not
 * NULL, it is set to the number of devices returned in the array."
 * "returns the array of available RDMA devices, or sets errno and returns
 * NULL if the request fails."  ERRORS: "ENOSYS No kernel support for
 * RDMA."  NOTES: "Once it frees the array with ibv_free_device_list(), it
 * will be able to use only the open devices".
 *
 * ibv_get_device_list:
 * - the array holds every uverbs device the kernel has
 *   (/sys/class/infiniband_verbs/uverbsN/ibdev), their names compared
 *   across the implementations (documented)
 * - *num_devices is the number of entries before the NULL (documented)
 * - num_devices NULL: the same array (documented: optional)
 * No row makes it fail: ENOSYS needs a kernel without the verbs ABI, and
 * hiding /sys/class/infiniband_verbs from a row does not take it away
 * (netlink still lists the devices, and libibverbs read the ABI version
 * when the harness took the device's fingerprint).
 * ibv_free_device_list:
 * - a device opened from the list is still usable after it is freed
 *   (documented)
 * - a list asked for after one is freed holds the same devices (state
 *   across calls)
 * - freeing one of two lists leaves the other's devices usable
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verbs_ctl.h"
#include "../../harness/device.h"

#define DOC_LIST                                                    \
	"ibv_get_device_list() returns a NULL-terminated array of " \
	"RDMA devices currently available."
#define DOC_NUM                                                     \
	"The argument num_devices is optional; if not NULL, it is " \
	"set to the number of devices returned in the array."
#define DOC_FREE                                                           \
	"Once it frees the array with ibv_free_device_list(), it "         \
	"will be able to use only the open devices; pointers to unopened " \
	"devices will no longer be valid."
#define DOC_FREES                                                 \
	"ibv_free_device_list() frees the array of devices list " \
	"returned by ibv_get_device_list()."

#define SYS_VERBS "/sys/class/infiniband_verbs"
#define MAXDEV 16
#define NAMELEN 64

static vc_check list_every_device, list_num_is_count, list_num_optional,
	free_open_outlives, free_then_again, free_one_of_two;

static const struct vc_row list_rows[] = {
	{ .c = { .id = "verbs/get_device_list/every-uverbs-device",
		 .doc = DOC_LIST,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the devices of /sys/class/infiniband_verbs, by name",
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = list_every_device,
	  .rung = VC_BARE },
	{ .c = { .id = "verbs/get_device_list/num-devices-is-count",
		 .doc = DOC_NUM,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "*num_devices, filled with 0xa5 first, is the number "
			 "of entries before the NULL",
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = list_num_is_count,
	  .rung = VC_BARE },
	{ .c = { .id = "verbs/get_device_list/num-devices-null",
		 .doc = DOC_NUM,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "num_devices NULL: as many entries as with it",
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = list_num_optional,
	  .rung = VC_BARE },
};

static const struct vc_row free_rows[] = {
	{ .c = { .id = "verbs/free_device_list/open-device-outlives-list",
		 .doc = DOC_FREE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a context opened before the free answers "
			 "ibv_query_device after it",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = free_open_outlives,
	  .rung = VL_CONTEXT },
	{ .c = { .id = "verbs/free_device_list/list-again-after-free",
		 .doc = DOC_FREES,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a list asked for after the free holds the same "
			 "devices, by name",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = free_then_again,
	  .rung = VC_BARE },
	{ .c = { .id = "verbs/free_device_list/one-of-two-lists",
		 .doc = DOC_FREES,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "of two lists, the one freed is that one only: the "
			 "other's devices still name themselves and open",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = free_one_of_two,
	  .rung = VC_BARE },
};

static int by_name(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* The ibdev of every uverbs node, sorted: how many. */
static int sysfs_names(char names[][NAMELEN])
{
	struct dirent *e;
	DIR *d = opendir(SYS_VERBS);
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)) && n < MAXDEV) {
		if (strncmp(e->d_name, "uverbs", 6))
			continue;
		if (!rc_sysfs_read(names[n], NAMELEN, SYS_VERBS "/%s/ibdev",
				   e->d_name))
			n++;
	}
	closedir(d);
	qsort(names, n, NAMELEN, by_name);
	return n;
}

/* The names of @list's devices, sorted: how many entries before NULL. */
static int list_names(struct rc_ctx *ctx, struct ibv_device **list,
		      char names[][NAMELEN])
{
	const char *s;
	int n;

	for (n = 0; list[n]; n++)
		if (n < MAXDEV) {
			s = ctx->ops->ibv_get_device_name(list[n]);
			snprintf(names[n], NAMELEN, "%s", s ? s : "");
		}
	qsort(names, n < MAXDEV ? n : MAXDEV, NAMELEN, by_name);
	return n;
}

static bool named(struct rc_ctx *ctx)
{
	return rc_need_call(ctx, (const void *)ctx->ops->ibv_get_device_name,
			    "ibv_get_device_name") &&
	       rc_need_call(ctx, (const void *)ctx->ops->ibv_free_device_list,
			    "ibv_free_device_list");
}

static void list_every_device(const struct vc_row *row, struct rc_ctx *ctx,
			      struct vl *l)
{
	char want[MAXDEV][NAMELEN] = { { 0 } },
	     got[MAXDEV][NAMELEN] = { { 0 } };
	struct ibv_device **list;
	int nw, ng, i;

	if (!named(ctx))
		return;
	nw = sysfs_names(want);
	RC_OBSERVE(ctx, list = ctx->ops->ibv_get_device_list(NULL));
	if (!list)
		return;
	ng = list_names(ctx, list, got);
	if (ng != nw)
		rc_obs_violation(ctx->obs, "devices: %d, sysfs has %d", ng, nw);
	for (i = 0; i < nw && i < ng; i++)
		if (strcmp(want[i], got[i]))
			rc_obs_violation(ctx->obs, "devices: %s, sysfs has %s",
					 got[i], want[i]);
	rc_obs_out(ctx->obs, got,
		   (ng < MAXDEV ? ng : MAXDEV) * NAMELEN > RC_OUT_MAX ?
			   RC_OUT_MAX :
			   (ng < MAXDEV ? ng : MAXDEV) * NAMELEN);
	ctx->ops->ibv_free_device_list(list);
}

static void list_num_is_count(const struct vc_row *row, struct rc_ctx *ctx,
			      struct vl *l)
{
	struct ibv_device **list;
	int num, n;

	if (!named(ctx))
		return;
	memset(&num, 0xa5, sizeof(num));
	RC_OBSERVE(ctx, list = ctx->ops->ibv_get_device_list(&num));
	if (!list)
		return;
	for (n = 0; list[n]; n++)
		;
	if (num != n)
		rc_obs_violation(ctx->obs, "num_devices %d, the array has %d",
				 num, n);
	rc_obs_out(ctx->obs, &num, sizeof(num));
	ctx->ops->ibv_free_device_list(list);
}

static void list_num_optional(const struct vc_row *row, struct rc_ctx *ctx,
			      struct vl *l)
{
	struct ibv_device **list;
	int want = 0, n;

	if (!named(ctx))
		return;
	list = ctx->ops->ibv_get_device_list(&want);
	if (!list) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_get_device_list "
			     "with num_devices failed (set-up): %m");
		return;
	}
	ctx->ops->ibv_free_device_list(list);
	RC_OBSERVE(ctx, list = ctx->ops->ibv_get_device_list(NULL));
	if (!list)
		return;
	for (n = 0; list[n]; n++)
		;
	if (n != want)
		rc_obs_violation(ctx->obs, "entries %d, %d with num_devices", n,
				 want);
	ctx->ops->ibv_free_device_list(list);
}

static void free_open_outlives(const struct vc_row *row, struct rc_ctx *ctx,
			       struct vl *l)
{
	struct ibv_device_attr a;

	RC_OBSERVE(ctx, (ctx->ops->ibv_free_device_list(l->list), 0));
	l->list = NULL;
	l->dev = NULL;
	if (!rc_need_call(ctx, (const void *)ctx->ops->ibv_query_device,
			  "ibv_query_device"))
		return;
	errno = ctx->ops->ibv_query_device(l->ctx, &a);
	if (errno)
		rc_obs_violation(ctx->obs, "query_device of the open context "
					   "after the free: %m");
}

static void free_then_again(const struct vc_row *row, struct rc_ctx *ctx,
			    struct vl *l)
{
	char first[MAXDEV][NAMELEN] = { { 0 } },
	     again[MAXDEV][NAMELEN] = { { 0 } };
	struct ibv_device **list;
	int n1, n2;

	if (!named(ctx))
		return;
	list = ctx->ops->ibv_get_device_list(NULL);
	if (!list) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_get_device_list "
			     "(set-up): %m");
		return;
	}
	n1 = list_names(ctx, list, first);
	RC_OBSERVE(ctx, (ctx->ops->ibv_free_device_list(list), 0));
	list = ctx->ops->ibv_get_device_list(NULL);
	if (!list) {
		rc_obs_violation(ctx->obs, "list after the free: %m");
		return;
	}
	n2 = list_names(ctx, list, again);
	if (n1 != n2 || memcmp(first, again, sizeof(first)))
		rc_obs_violation(ctx->obs,
				 "devices: %d after the free, %d "
				 "before, or other names",
				 n2, n1);
	ctx->ops->ibv_free_device_list(list);
}

static void free_one_of_two(const struct vc_row *row, struct rc_ctx *ctx,
			    struct vl *l)
{
	struct ibv_device **a, **b;
	struct ibv_context *c;
	struct ibv_device *d;

	if (!named(ctx) ||
	    !rc_need_call(ctx, (const void *)ctx->ops->ibv_open_device,
			  "ibv_open_device"))
		return;
	a = ctx->ops->ibv_get_device_list(NULL);
	b = ctx->ops->ibv_get_device_list(NULL);
	if (!a || !b || !(d = vl_target(ctx, b))) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "two device lists with "
			     "the target (set-up): %m");
		return;
	}
	RC_OBSERVE(ctx, (ctx->ops->ibv_free_device_list(a), 0));
	if (!vl_target(ctx, b))
		rc_obs_violation(ctx->obs, "name: the other list's device no "
					   "longer names itself");
	c = ctx->ops->ibv_open_device(d);
	if (!c)
		rc_obs_violation(ctx->obs, "open: the other list's device "
					   "does not open: %m");
	else
		ctx->ops->ibv_close_device(c);
	ctx->ops->ibv_free_device_list(b);
}

VC_GROUP(list, ibv_get_device_list, RC_CONV_NULL_ERRNO, list_rows);
VC_GROUP(free, ibv_free_device_list, RC_CONV_VALUE, free_rows);
