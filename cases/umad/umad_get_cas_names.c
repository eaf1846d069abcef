// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * umad_get_cas_names(3): "fills the cas array with up to max local IB
 * devices (CAs) names."  "returns a non-negative value equal to the number
 * of entries filled, or -1 on errors."
 *
 * - the device under test is among the names; the count is at least 1
 * - max 1 fills exactly one entry; max 0 fills none
 * - every IB device (CA, switch, router) of /sys/class/infiniband, each
 *   once and nothing else,
 *   with max as large as the table and with max exactly the number of
 *   devices (linux)
 * - ten devices more, one of each node_type 0 to 8 (umad_attrs.c) and
 *   one without it: those of 1 to 3 only (linux)
 * - names of the device that fit UMAD_CA_NAME_LEN with their NUL exactly,
 *   by one character not, and as long as Linux allows (umad_attrs.c): the
 *   first listed whole, the others not at all (interpretation)
 * - no /sys/class/infiniband: 0, nothing written, whatever max
 * - max -1: nothing written (interpretation)
 * - the names (sorted) are compared between the implementations
 */
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

#include "umad_dev.h"
#include "../../harness/device.h"

#define DOC                                                              \
	"umad_get_cas_names() fills the cas array with up to max local " \
	"IB devices (CAs) names."
#define DOC_RET                                                       \
	"umad_get_cas_names() returns a non-negative value equal to " \
	"the number of entries filled, or -1 on errors."

/* .max: the number of devices sysfs has, an exact fit */
#define MAX_EXACT (-1000)
#define NOTE_SYSFS                                                            \
	"the entries of /sys/class/infiniband (Documentation/"                \
	"ABI/stable/sysfs-class-infiniband) whose node_type is an IB node's " \
	"(1 CA, 2 switch, 3 router; an iWARP RNIC is 4) and whose names fit " \
	"UMAD_CA_NAME_LEN, each once and nothing else, and their number "     \
	"returned"

static const struct dev_row rows[] = {
	{ .c = { .id = "umad/get_cas_names/lists-target-device",
		 .doc = DOC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = NEEDS_CA,
		 .contract = { .ret = RC_RET_OK } },
	  .max = UMAD_MAX_DEVICES },
	{ .c = { .id = "umad/get_cas_names/max-one",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = RC_NEED_DEVICE,
		 .contract = { .ret = RC_RET_EQ, .value = 1 } },
	  .max = 1 },
	{ .c = { .id = "umad/get_cas_names/max-zero",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = RC_NEED_DEVICE,
		 .contract = { .ret = RC_RET_EQ, .value = 0 } },
	  .max = 0 },
	{ .c = { .id = "umad/get_cas_names/every-device",
		 .doc = DOC,
		 .basis = RC_BASIS_LINUX,
		 .note = NOTE_SYSFS,
		 .needs = NEEDS_CA,
		 .contract = { .ret = RC_RET_OK } },
	  .max = UMAD_MAX_DEVICES },
	{ .c = { .id = "umad/get_cas_names/max-exactly-the-devices",
		 .doc = DOC,
		 .basis = RC_BASIS_LINUX,
		 .note = "max the number of devices sysfs has: " NOTE_SYSFS,
		 .needs = RC_NEED_DEVICE,
		 .contract = { .ret = RC_RET_OK } },
	  .max = MAX_EXACT },
	{ .c = { .id = "umad/get_cas_names/name-exact-fit-and-beyond",
		 .doc = DOC,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the device under three names more (in the row's own "
			 "mount namespace), of UMAD_CA_NAME_LEN - 1 characters, "
			 "of UMAD_CA_NAME_LEN and of 63 (Linux's longest): " NOTE_SYSFS
			 ": the first listed whole, the others not "
			 "at all (cut, they would name no device or another)",
		 .needs = NEEDS_ATTRS,
		 .contract = { .ret = RC_RET_OK } },
	  .max = UMAD_MAX_DEVICES,
	  .attrs = ATTRS_LONG_NAMES },
	{ .c = { .id = "umad/get_cas_names/every-node-type",
		 .doc = DOC,
		 .basis = RC_BASIS_LINUX,
		 .note = "ten devices more (in the row's own mount namespace): "
			 "one of each node_type 0 to 8 as node_type_show "
			 "prints it (\"1: CA\" ... \"8: <unknown>\") and one "
			 "without the attribute: " NOTE_SYSFS,
		 .needs = NEEDS_ATTRS,
		 .contract = { .ret = RC_RET_OK } },
	  .max = UMAD_MAX_DEVICES,
	  .attrs = ATTRS_NODE_TYPES },
	{ .c = { .id = "umad/get_cas_names/no-rdma-subsystem",
		 .doc = DOC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "no /sys/class/infiniband (a kernel without ib_core; "
			 "in the row's own mount namespace): no local IB "
			 "device, so no name is filled: 0, and max 4 entries "
			 "left as they were",
		 .needs = NEEDS_NO_CLASS,
		 .contract = { .ret = RC_RET_EQ, .value = 0 } },
	  .max = 4,
	  .attrs = ATTRS_NO_CLASS },
	{ .c = { .id = "umad/get_cas_names/no-rdma-subsystem-max-zero",
		 .doc = DOC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "no /sys/class/infiniband, and max 0: \"up to max\" "
			 "is none: 0, and nothing written",
		 .needs = NEEDS_NO_CLASS,
		 .contract = { .ret = RC_RET_EQ, .value = 0 } },
	  .max = 0,
	  .attrs = ATTRS_NO_CLASS },
	{ .c = { .id = "umad/get_cas_names/negative-max",
		 .doc = DOC,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "max -1: \"up to max\" is none; nothing written, and "
			 "0 or -1 returned",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_ANY_RETURN } },
	  .max = -1 },
};

/*
 * The IB devices of sysfs into @names (up to @max): node_type 1 to 3, a
 * CA, a switch or a router (IBA NodeInfo:NodeType; an RNIC is 4), whose
 * names fit; how many there are.
 */
static int sysfs_devices(char names[][UMAD_CA_NAME_LEN], int max)
{
	char path[300], type[32];
	struct dirent *d;
	DIR *dir = opendir(RC_SYSFS_IB);
	unsigned long t;
	size_t len;
	int n = 0;

	if (!dir)
		return -1;
	while ((d = readdir(dir))) {
		len = strlen(d->d_name);
		snprintf(path, sizeof(path), RC_SYSFS_IB "/%s/node_type",
			 d->d_name);
		if (d->d_name[0] == '.' || len >= UMAD_CA_NAME_LEN ||
		    rc_sysfs_read(type, sizeof(type), "%s", path))
			continue;
		t = strtoul(type, NULL, 0);
		if (t >= 1 && t <= 3 && n < max) {
			memcpy(names[n], d->d_name, len + 1);
			n++;
		}
	}
	closedir(dir);
	return n;
}

/* The @n names are the devices sysfs has, each once. */
static void same_devices(struct rc_ctx *ctx, char names[][UMAD_CA_NAME_LEN],
			 int n)
{
	char want[UMAD_MAX_DEVICES][UMAD_CA_NAME_LEN];
	int m = sysfs_devices(want, UMAD_MAX_DEVICES), i, j, seen;

	if (m < 0)
		return;
	if (n != m) {
		rc_obs_violation(ctx->obs, "count %d, sysfs has %d devices", n,
				 m);
		return;
	}
	for (i = 0; i < m; i++) {
		for (seen = 0, j = 0; j < n; j++)
			seen += !strncmp(names[j], want[i], UMAD_CA_NAME_LEN);
		if (seen != 1) {
			rc_obs_violation(ctx->obs, "names hold %s %d times",
					 want[i], seen);
			return;
		}
	}
}

static int cmp(const void *a, const void *b)
{
	return strcmp(a, b);
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct dev_row *row = r;
	/* one spare entry past max: it must stay untouched */
	char names[UMAD_MAX_DEVICES + 1][UMAD_CA_NAME_LEN];
	int n, i, max = row->max;
	bool found = false;

	if (!rc_need_call(ctx, ctx->ops->umad_get_cas_names,
			  "umad_get_cas_names"))
		return;
	if (!dev_attrs_overlay(ctx, row->attrs))
		return;
	if (max == MAX_EXACT)
		max = sysfs_devices(names, UMAD_MAX_DEVICES);
	if (max < 0 && row->max == MAX_EXACT) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN, "no " RC_SYSFS_IB);
		return;
	}
	memset(names, 0x5a, sizeof(names));
	RC_OBSERVE(ctx, n = ctx->ops->umad_get_cas_names(names, max));
	if (max < 0) {
		if (n != 0 && n != -1)
			rc_obs_violation(ctx->obs, "return %d, not 0 or -1", n);
		for (i = 0; i <= UMAD_MAX_DEVICES; i++)
			if (names[i][0] != 0x5a) {
				rc_obs_violation(ctx->obs, "entry %d written",
						 i);
				break;
			}
		return;
	}
	if (n < 0)
		return;
	if (row->attrs & ATTRS_NO_CLASS)
		for (i = 0; i <= max; i++)
			if (names[i][0] != 0x5a) {
				rc_obs_violation(ctx->obs,
						 "entry %d written: '%.20s'", i,
						 names[i]);
				break;
			}
	if (n > max || names[max][0] != 0x5a)
		rc_obs_violation(ctx->obs, "wrote past max (%d entries)", max);
	else if (row->c.basis == RC_BASIS_LINUX || row->attrs)
		same_devices(ctx, names, n);
	/* no device at all (no-rdma-subsystem on a host without one) */
	for (i = 0; ctx->target->ca && i < n && i < max; i++)
		found |= !strcmp(names[i], ctx->target->ca);
	if (row->max == UMAD_MAX_DEVICES && !found)
		rc_obs_violation(ctx->obs, "%s is not among the %d names",
				 ctx->target->ca, n);
	if (n > 0 && n <= max) {
		qsort(names, n, UMAD_CA_NAME_LEN, cmp);
		rc_obs_out(ctx->obs, names, n * UMAD_CA_NAME_LEN);
	}
}

RC_TABLE_GROUP(group, "umad_get_cas_names", RC_CONV_M1_ERRNO, "umad", rows,
	       run);
