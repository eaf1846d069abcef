// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * umad_set_grh_net(3): "sets the GRH fields (grh_present, gid, hop_limit,
 * traffic_class, flow_label) within the specified umad buffer based on the
 * mad_addr supplied.  The provided mad_addr fields are expected to be in
 * network order.  If the mad_addr pointer supplied is NULL, no GRH is set."
 *
 * - flow_label given in network order is copied byte for byte, including
 *   bits above the 20-bit field width
 * - gid, hop_limit, traffic_class copied; grh_present becomes 1
 * - NULL mad_addr leaves a buffer without GRH; no other byte changes
 *
 * The same page says under KNOWN BUGS "Not implemented."; the rows hold the
 * DESCRIPTION, which rdma-core's implementation is expected to meet.
 */
#include "umad_hdr.h"

#define DOC_SETS                                                               \
	"umad_set_grh_net() sets the GRH fields (grh_present, gid, "           \
	"hop_limit, traffic_class, flow_label) within the specified umad "     \
	"buffer based on the mad_addr supplied. The provided mad_addr fields " \
	"are expected to be in network order."
#define DOC_NULL "If the mad_addr pointer supplied is NULL, no GRH is set."
#define NOTE_BUG                                                     \
	"KNOWN BUGS says \"Not implemented.\"; checked against the " \
	"DESCRIPTION"

static const struct grh_row rows[] = {
	{ .c = { .id = "umad/set_grh_net/flow-label-verbatim",
		 .doc = DOC_SETS,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = NOTE_BUG,
		 .contract = { HDR_OK, .out = UMAD_OUT(GRH(gid_a, 64, 0,
							   0x000abcde)) } },
	  .gid = gid_a,
	  .hop_limit = 64,
	  .flow_label = 0x000abcde },
	{ .c = { .id = "umad/set_grh_net/flow-label-max-20-bit",
		 .doc = DOC_SETS,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = NOTE_BUG,
		 .contract = { HDR_OK,
			       .out = UMAD_OUT(GRH(gid_a, 64, 0, 0xfffff)) } },
	  .gid = gid_a,
	  .hop_limit = 64,
	  .flow_label = 0xfffff },
	{ .c = { .id = "umad/set_grh_net/flow-label-above-20-bits",
		 .doc = DOC_SETS,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "no mask is documented: the 32-bit field is copied whole",
		 .contract = { HDR_OK, .out = UMAD_OUT(GRH(gid_a, 64, 0,
							   0xfff12345)) } },
	  .gid = gid_a,
	  .hop_limit = 64,
	  .flow_label = 0xfff12345 },
	{ .c = { .id = "umad/set_grh_net/gid-verbatim",
		 .doc = DOC_SETS,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = NOTE_BUG,
		 .contract = { HDR_OK, .out = UMAD_OUT(GRH(gid_v4, 1, 0, 1)) } },
	  .gid = gid_v4,
	  .hop_limit = 1,
	  .flow_label = 1 },
	{ .c = { .id = "umad/set_grh_net/hop-limit-traffic-class-max",
		 .doc = DOC_SETS,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = NOTE_BUG,
		 .contract = { HDR_OK,
			       .out = UMAD_OUT(GRH(gid_ones, 255, 255, 0)) } },
	  .gid = gid_ones,
	  .hop_limit = 255,
	  .traffic_class = 255 },
	{ .c = { .id = "umad/set_grh_net/grh-present-set-from-zero",
		 .doc = DOC_SETS,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = NOTE_BUG,
		 .contract = { HDR_OK,
			       .out = UMAD_OUT(GRH(gid_zero, 0, 0, 0)) } },
	  .grh_clear = true },
	{ .c = { .id = "umad/set_grh_net/null-mad-addr-no-grh",
		 .doc = DOC_NULL,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "read as: the buffer then carries no GRH "
			 "(grh_present 0), and nothing else is written",
		 .contract = { HDR_OK, .out = UMAD_OUT(RC_PATCH_BE(
					       OFF(GRH_PRESENT), 1, 0)) } },
	  .null_addr = true },
};

static void run(const void *r, struct rc_ctx *ctx)
{
	grh_row_run(r, ctx, ctx->ops->umad_set_grh_net, "umad_set_grh_net",
		    false);
}

RC_TABLE_GROUP(group, "umad_set_grh_net", RC_CONV_NEG, "umad", rows, run);
