// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * umad_get_ca(3): "gets the attributes of the InfiniBand device ca_name.
 * It fills the ca structure with the device attributes specified by the
 * ca_name or with the default device attributes if ca_name is NULL."
 * "return 0 on success, and a negative value on error."
 *
 * - the device under test: its name, node GUID and ports as sysfs has them
 * - the device under test: every field and every port's as sysfs has
 *   them, a port for each port directory and none other (linux)
 * - the device as other drivers show it (umad_attrs.c): no fw_ver or
 *   hw_rev, ports whose rate cannot be read (interpretation), a second
 *   port of the InfiniBand link layer; a switch, its only port port 0
 *   (linux)
 * - the device under a name that fills ca_name with its NUL: whole
 *   (interpretation)
 * - every port of the device down: each there, every field as sysfs has
 *   it (linux)
 * - NULL: some device's attributes (which one is compared across the
 *   implementations)
 * - an unknown device: a negative value
 * - umad_release_ca() of a filled structure returns 0, and gives back
 *   every byte umad_get_ca took (interpretation)
 */
#include <endian.h>
#include <malloc.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "umad_dev.h"
#include "../../harness/device.h"

#define DOC                                                                  \
	"umad_get_ca() gets the attributes of the InfiniBand device "        \
	"ca_name. It fills the ca structure with the device attributes "     \
	"specified by the ca_name or with the default device attributes if " \
	"ca_name is NULL."
#define DOC_RET                                                     \
	"umad_get_ca() and umad_release_ca() return 0 on success, " \
	"and a negative value on error."

static const struct dev_row rows[] = {
	{ .c = { .id = "umad/get_ca/target-device",
		 .doc = DOC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = NEEDS_CA,
		 .contract = { .ret = RC_RET_EQ, .value = 0 } },
	  .ca = CA_TARGET },
	{ .c = { .id = "umad/get_ca/every-field",
		 .doc = DOC,
		 .basis = RC_BASIS_LINUX,
		 .note = "node_type, fw_ver, hca_type as ca_type, hw_rev as "
			 "hw_ver, node_guid, sys_image_guid as system_guid; the highest "
			 "port directory as numports, ports[p] set for each port "
			 "directory p only, every field of each as umad_get_port's "
			 "every-field row (Documentation/ABI/stable/"
			 "sysfs-class-infiniband; drivers/infiniband/core/sysfs.c)",
		 .needs = NEEDS_CA,
		 .contract = { .ret = RC_RET_EQ, .value = 0 } },
	  .ca = CA_TARGET,
	  .every_field = true },
	{ .c = { .id = "umad/get_ca/no-fw-ver-or-hw-rev",
		 .doc = DOC,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "a device without fw_ver and hw_rev (hw_rev is a "
			 "driver's own attribute; here, in the row's own mount "
			 "namespace, both gone): 0, fw_ver and hw_ver empty, "
			 "every other field as sysfs has it (the page has no "
			 "attribute without which a device is none)",
		 .needs = NEEDS_ATTRS,
		 .contract = { .ret = RC_RET_EQ, .value = 0 } },
	  .ca = CA_TARGET,
	  .every_field = true,
	  .attrs = ATTRS_NO_VERSIONS },
	{ .c = { .id = "umad/get_ca/rate-unreadable",
		 .doc = DOC,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "a device whose ports' rate cannot be read (read(2) "
			 "fails, as Linux's rate_show refuses, EINVAL, an "
			 "active width it does not know; here, in the row's "
			 "own mount namespace, a directory in its place): 0, "
			 "each port there, every other field as sysfs has it",
		 .needs = NEEDS_ATTRS,
		 .contract = { .ret = RC_RET_EQ, .value = 0 } },
	  .ca = CA_TARGET,
	  .every_field = true,
	  .attrs = ATTRS_RATE_UNREADABLE },
	{ .c = { .id = "umad/get_ca/second-port-infiniband",
		 .doc = DOC,
		 .basis = RC_BASIS_LINUX,
		 .note = "a port after the last, of the InfiniBand link "
			 "layer, as a VPI adapter's (in the row's own mount "
			 "namespace: the last port's attributes but link_layer "
			 "\"InfiniBand\", lid 0x1a28, lid_mask_count 3, "
			 "sm_lid 0x3c4d, sm_sl 5, cap_mask 0x2651e848, a GUID "
			 "and four P_Keys of its own, an SM's subnet prefix): "
			 "numports that port, both ports, every field as sysfs "
			 "has it",
		 .needs = NEEDS_ATTRS,
		 .contract = { .ret = RC_RET_EQ, .value = 0 } },
	  .ca = CA_TARGET,
	  .every_field = true,
	  .attrs = ATTRS_IB_PORT },
	{ .c = { .id = "umad/get_ca/port-9-the-last-that-fits",
		 .doc = DOC,
		 .basis = RC_BASIS_LINUX,
		 .note = "a port numbered UMAD_CA_MAX_PORTS - 1, the last "
			 "umad_ca_t's ports[] holds (in the row's own mount "
			 "namespace, with the added InfiniBand port's "
			 "attributes): numports 9, ports[1] and ports[9] and "
			 "none between, every field as sysfs has it",
		 .needs = NEEDS_ATTRS,
		 .contract = { .ret = RC_RET_EQ, .value = 0 } },
	  .ca = CA_TARGET,
	  .every_field = true,
	  .attrs = ATTRS_PORT_LAST_FITS },
	{ .c = { .id = "umad/get_ca/switch",
		 .doc = DOC,
		 .basis = RC_BASIS_LINUX,
		 .note = "a switch: node_type \"2: switch\" and one port, "
			 "port 0, its management port (rdma_start_port() and "
			 "rdma_end_port() are 0 for a switch; in the row's own "
			 "mount namespace, the device's port as port 0): "
			 "node_type 2, numports 0, ports[0] alone, every field "
			 "as sysfs has it",
		 .needs = NEEDS_ATTRS,
		 .contract = { .ret = RC_RET_EQ, .value = 0 } },
	  .ca = CA_TARGET,
	  .every_field = true,
	  .attrs = ATTRS_SWITCH },
	{ .c = { .id = "umad/get_ca/ca-name-exact-fit",
		 .doc = DOC,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = NOTE_AS_FITS
		 "that name whole in ca_name and each port's, every field as sysfs has it",
		 .needs = NEEDS_ATTRS,
		 .contract = { .ret = RC_RET_EQ, .value = 0 } },
	  .ca = CA_TARGET,
	  .every_field = true,
	  .attrs = ATTRS_AS_FITS },
	{ .c = { .id = "umad/get_ca/every-port-down",
		 .doc = DOC,
		 .basis = RC_BASIS_LINUX,
		 .note = "the device's ports all down, no cable (in the row's "
			 "own mount namespace, state \"1: DOWN\", phys_state "
			 "\"2: Polling\"): a device is a device whatever its "
			 "links: 0, each port there, every field as sysfs has "
			 "it",
		 .needs = NEEDS_ATTRS,
		 .contract = { .ret = RC_RET_EQ, .value = 0 } },
	  .ca = CA_TARGET,
	  .every_field = true,
	  .attrs = ATTRS_PORTS_DOWN },
	{ .c = { .id = "umad/get_ca/default-device",
		 .doc = DOC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = RC_NEED_DEVICE,
		 .contract = { .ret = RC_RET_EQ, .value = 0 } },
	  .ca = CA_NULL },
	{ .c = { .id = "umad/get_ca/default-device-has-an-active-port",
		 .doc = DOC,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "every port of the device under test down (in the "
			 "row's own mount namespace), a second device ACTIVE, "
			 "and NULL: the default device is the one the default "
			 "port (umad_get_port's) is on, a device with an "
			 "ACTIVE port, the other one",
		 .needs = NEEDS_ATTRS | RC_NEED_PEER,
		 .contract = { .ret = RC_RET_EQ, .value = 0 } },
	  .ca = CA_NULL,
	  .attrs = ATTRS_PORTS_DOWN },
	{ .c = { .id = "umad/get_ca/unknown-device",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_FAILS() } },
	  .ca = CA_BOGUS },
};

static void check(struct rc_ctx *ctx, const umad_ca_t *ca)
{
	char buf[64];
	uint64_t guid;
	int p = ctx->target->port;

	if (strcmp(ca->ca_name, ctx->target->ca)) {
		rc_obs_violation(ctx->obs, "ca_name '%s', not %s", ca->ca_name,
				 ctx->target->ca);
		return;
	}
	if (!dev_sysfs(ctx, 0, "node_guid", buf, sizeof(buf)) &&
	    !rc_guid_parse(buf, &guid)) {
		if (be64toh(ca->node_guid) != guid)
			rc_obs_violation(
				ctx->obs, "node_guid %016llx, sysfs %s",
				(unsigned long long)be64toh(ca->node_guid),
				buf);
	}
	if (ca->numports < p || !ca->ports[p] || ca->ports[p]->portnum != p)
		rc_obs_violation(ctx->obs, "port %d missing (numports %d)", p,
				 ca->numports);
}

/*
 * The fields of @ca as values: strings up to their NUL, no padding.  A
 * field the call left unwritten keeps OUT_PARAM_FILL and shows; the bytes
 * after a string's NUL, and the padding, are no field and do not.
 */
static void fields(const umad_ca_t *ca, umad_ca_t *f)
{
	memset(f, 0, sizeof(*f));
	strncpy(f->ca_name, ca->ca_name, sizeof(f->ca_name));
	f->node_type = ca->node_type;
	f->numports = ca->numports;
	strncpy(f->fw_ver, ca->fw_ver, sizeof(f->fw_ver));
	strncpy(f->ca_type, ca->ca_type, sizeof(f->ca_type));
	strncpy(f->hw_ver, ca->hw_ver, sizeof(f->hw_ver));
	f->node_guid = ca->node_guid;
	f->system_guid = ca->system_guid;
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct dev_row *row = r;
	const struct rc_ops *ops = ctx->ops;
	umad_ca_t ca, seen;
	int ret;

	if (!rc_need_call(ctx, ops->umad_get_ca, "umad_get_ca") ||
	    !rc_need_call(ctx, ops->umad_release_ca, "umad_release_ca"))
		return;
	if (!dev_attrs_overlay(ctx, row->attrs))
		return;
	/* a fill no right answer has: a field left unwritten shows */
	memset(&ca, OUT_PARAM_FILL, sizeof(ca));
	RC_OBSERVE(ctx, ret = ops->umad_get_ca(dev_row_ca(row, ctx), &ca));
	/* the page says nothing of the structure after a failure */
	if (ret)
		return;
	if (row->every_field)
		dev_check_ca(ctx, &ca);
	else if (row->ca == CA_TARGET)
		check(ctx, &ca);
	else if ((row->attrs & ATTRS_PORTS_DOWN) &&
		 (!ctx->target->peer || strcmp(ca.ca_name, ctx->target->peer)))
		rc_obs_violation(ctx->obs,
				 "ca_name %.20s, not %s (%s's ports are "
				 "down, %s's ACTIVE)",
				 ca.ca_name, ctx->target->peer ?: "-",
				 ctx->target->ca, ctx->target->peer ?: "-");
	/* every field up to the port pointers, for the comparison */
	fields(&ca, &seen);
	rc_obs_out(ctx->obs, &seen, offsetof(umad_ca_t, ports));
	ret = ops->umad_release_ca(&ca);
	if (ret)
		rc_obs_violation(ctx->obs, "umad_release_ca returned %d", ret);
}

RC_TABLE_GROUP(group, "umad_get_ca", RC_CONV_NEG, "umad", rows, run);

/* umad_release_ca(3): "umad_release_ca() should be called before the ca
 * structure is deallocated."; 0 on success. */
static const struct dev_row release_rows[] = {
	{ .c = { .id = "umad/release_ca/after-get-ca",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "of the structure umad_get_ca filled: 0",
		 .needs = NEEDS_CA,
		 .contract = { .ret = RC_RET_EQ, .value = 0 } },
	  .ca = CA_TARGET },
	{ .c = { .id = "umad/release_ca/frees-what-get-ca-allocated",
		 .doc = "umad_release_ca() releases the resources that were "
			"allocated in the function umad_get_ca().",
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the heap in use (mallinfo2) after a umad_get_ca and "
			 "its umad_release_ca is what it was before them, measured "
			 "after eight such pairs (what a library keeps once, and "
			 "glibc's per-thread cache of freed chunks, are full by then)",
		 .needs = NEEDS_CA,
		 .contract = { .ret = RC_RET_EQ, .value = 0 } },
	  .ca = CA_TARGET,
	  .every_field = true },
	{ .c = { .id = "umad/release_ca/null",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "NULL is no structure umad_get_ca filled: an error, "
			 "a negative value",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_FAILS() } },
	  .ca = CA_NULL },
};

/*
 * The heap's bytes in use.  glibc counts the chunks its per-thread cache
 * holds (7 of a size) as in use: the pairs before the one measured fill
 * it, so that what the measured pair frees goes back to the heap.
 */
#define WARM_PAIRS 8

static size_t heap_in_use(void)
{
	return mallinfo2().uordblks;
}

static void run_release(const void *r, struct rc_ctx *ctx)
{
	const struct dev_row *row = r;
	const struct rc_ops *ops = ctx->ops;
	size_t before;
	umad_ca_t ca;
	int i;

	if (!rc_need_call(ctx, ops->umad_get_ca, "umad_get_ca") ||
	    !rc_need_call(ctx, ops->umad_release_ca, "umad_release_ca"))
		return;
	if (row->ca == CA_NULL) {
		RC_OBSERVE(ctx, ops->umad_release_ca(NULL));
		return;
	}
	memset(&ca, OUT_PARAM_FILL, sizeof(ca));
	for (i = 0; row->every_field && i < WARM_PAIRS; i++) {
		if (ops->umad_get_ca(ctx->target->ca, &ca) ||
		    ops->umad_release_ca(&ca)) {
			rc_obs_state(ctx->obs, RC_STATE_BROKEN,
				     "umad_get_ca or umad_release_ca failed");
			return;
		}
		memset(&ca, OUT_PARAM_FILL, sizeof(ca));
	}
	before = heap_in_use();
	if (ops->umad_get_ca(ctx->target->ca, &ca)) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN, "umad_get_ca failed");
		return;
	}
	RC_OBSERVE(ctx, ops->umad_release_ca(&ca));
	if (row->every_field && heap_in_use() != before)
		rc_obs_violation(ctx->obs,
				 "heap %zu bytes in use after "
				 "umad_release_ca, %zu before umad_get_ca",
				 heap_in_use(), before);
}

RC_TABLE_GROUP(release_group, "umad_release_ca", RC_CONV_NEG, "umad",
	       release_rows, run_release);
