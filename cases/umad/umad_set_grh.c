// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * umad_set_grh(3): "sets the GRH fields (grh_present, gid, hop_limit,
 * traffic_class, flow_label) within the specified umad buffer based on the
 * mad_addr supplied.  The provided mad_addr fields are expected to be in
 * host order.  If the mad_addr pointer supplied is NULL, no GRH is set."
 *
 * - flow_label arrives in network order, at boundary values and with bits
 *   above the 20-bit field width
 * - gid is copied byte for byte; hop_limit and traffic_class at 0 and 255
 * - grh_present becomes 1; NULL mad_addr leaves a buffer without GRH
 * - no other byte of the buffer (address fields, reserved, the MAD) changes
 * - returns 0 ("Currently, there are no errors indicated")
 */
#include "umad_hdr.h"

#define DOC_SETS                                                               \
	"umad_set_grh() sets the GRH fields (grh_present, gid, "               \
	"hop_limit, traffic_class, flow_label) within the specified umad "     \
	"buffer based on the mad_addr supplied. The provided mad_addr fields " \
	"are expected to be in host order."
#define DOC_NULL "If the mad_addr pointer supplied is NULL, no GRH is set."

static const struct grh_row rows[] = {
	{ .c = { .id = "umad/set_grh/flow-label-host-to-net",
		 .doc = DOC_SETS,
		 .basis = RC_BASIS_DOCUMENTED,
		 .contract = { HDR_OK, .out = UMAD_OUT(GRH(gid_a, 64, 0,
							   0x000abcde)) } },
	  .gid = gid_a,
	  .hop_limit = 64,
	  .flow_label = 0x000abcde },
	{ .c = { .id = "umad/set_grh/flow-label-zero",
		 .doc = DOC_SETS,
		 .basis = RC_BASIS_DOCUMENTED,
		 .contract = { HDR_OK, .out = UMAD_OUT(GRH(gid_a, 64, 0, 0)) } },
	  .gid = gid_a,
	  .hop_limit = 64,
	  .flow_label = 0 },
	{ .c = { .id = "umad/set_grh/flow-label-one",
		 .doc = DOC_SETS,
		 .basis = RC_BASIS_DOCUMENTED,
		 .contract = { HDR_OK, .out = UMAD_OUT(GRH(gid_a, 64, 0, 1)) } },
	  .gid = gid_a,
	  .hop_limit = 64,
	  .flow_label = 1 },
	{ .c = { .id = "umad/set_grh/flow-label-max-20-bit",
		 .doc = DOC_SETS,
		 .basis = RC_BASIS_DOCUMENTED,
		 .contract = { HDR_OK,
			       .out = UMAD_OUT(GRH(gid_a, 64, 0, 0xfffff)) } },
	  .gid = gid_a,
	  .hop_limit = 64,
	  .flow_label = 0xfffff },
	{ .c = { .id = "umad/set_grh/flow-label-above-20-bits",
		 .doc = DOC_SETS,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the flow label is 20 bits on the wire, but the man "
			 "page names no mask and the ABI field is 32 bits: the "
			 "whole host-order value is expected in network order",
		 .contract = { HDR_OK, .out = UMAD_OUT(GRH(gid_a, 64, 0,
							   0xfff12345)) } },
	  .gid = gid_a,
	  .hop_limit = 64,
	  .flow_label = 0xfff12345 },
	{ .c = { .id = "umad/set_grh/gid-ipv4-mapped-verbatim",
		 .doc = DOC_SETS,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "gid is network order in ib_mad_addr_t in both calls: "
			 "copied byte for byte",
		 .contract = { HDR_OK, .out = UMAD_OUT(GRH(gid_v4, 1, 0, 0)) } },
	  .gid = gid_v4,
	  .hop_limit = 1 },
	{ .c = { .id = "umad/set_grh/gid-all-ones",
		 .doc = DOC_SETS,
		 .basis = RC_BASIS_DOCUMENTED,
		 .contract = { HDR_OK,
			       .out = UMAD_OUT(GRH(gid_ones, 0, 0, 0)) } },
	  .gid = gid_ones },
	{ .c = { .id = "umad/set_grh/hop-limit-max",
		 .doc = DOC_SETS,
		 .basis = RC_BASIS_DOCUMENTED,
		 .contract = { HDR_OK,
			       .out = UMAD_OUT(GRH(gid_zero, 255, 0, 0)) } },
	  .hop_limit = 255 },
	{ .c = { .id = "umad/set_grh/traffic-class-max",
		 .doc = DOC_SETS,
		 .basis = RC_BASIS_DOCUMENTED,
		 .contract = { HDR_OK,
			       .out = UMAD_OUT(GRH(gid_zero, 0, 255, 0)) } },
	  .traffic_class = 255 },
	{ .c = { .id = "umad/set_grh/traffic-class-one",
		 .doc = DOC_SETS,
		 .basis = RC_BASIS_DOCUMENTED,
		 .contract = { HDR_OK,
			       .out = UMAD_OUT(GRH(gid_zero, 0, 1, 0)) } },
	  .traffic_class = 1 },
	{ .c = { .id = "umad/set_grh/grh-present-set-from-zero",
		 .doc = DOC_SETS,
		 .basis = RC_BASIS_DOCUMENTED,
		 .contract = { HDR_OK, .out = UMAD_OUT(GRH(gid_a, 64, 3, 7)) } },
	  .grh_clear = true,
	  .gid = gid_a,
	  .hop_limit = 64,
	  .traffic_class = 3,
	  .flow_label = 7 },
	{ .c = { .id = "umad/set_grh/null-mad-addr-no-grh",
		 .doc = DOC_NULL,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "read as: the buffer then carries no GRH "
			 "(grh_present 0), and nothing else is written",
		 .contract = { HDR_OK, .out = UMAD_OUT(RC_PATCH_BE(
					       OFF(GRH_PRESENT), 1, 0)) } },
	  .null_addr = true },
	{ .c = { .id = "umad/set_grh/null-mad-addr-already-clear",
		 .doc = DOC_NULL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .contract = { HDR_OK, .out = UMAD_OUT(RC_PATCH_BE(
					       OFF(GRH_PRESENT), 1, 0)) } },
	  .null_addr = true,
	  .grh_clear = true },
};

static void run(const void *r, struct rc_ctx *ctx)
{
	grh_row_run(r, ctx, ctx->ops->umad_set_grh, "umad_set_grh", true);
}

RC_TABLE_GROUP(group, "umad_set_grh", RC_CONV_NEG, "umad", rows, run);
