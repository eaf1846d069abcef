// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * umad_set_addr(3): "sets the MAD address fields within the specified umad
 * buffer using the provided host ordered fields.  dlid is the destination
 * LID.  dqp is the destination QP (queue pair).  sl is the SL (service
 * level).  qkey is the Q_Key (queue key)."  "Currently, there are no errors
 * indicated."
 *
 * - lid (16 bits), qpn and qkey (32 bits) land in network order, sl as is
 * - 0, 1, each field's maximum, and values with bits above the ABI field
 *   (converted to the field's width, as C converts: no range check is
 *   documented)
 * - GRH fields, pkey_index, the other header words and the MAD stay untouched
 */
#include "umad_hdr.h"

#define DOC                                                                   \
	"umad_set_addr() sets the MAD address fields within the specified "   \
	"umad buffer using the provided host ordered fields. dlid is the "    \
	"destination LID. dqp is the destination QP (queue pair). sl is the " \
	"SL (service level). qkey is the Q_Key (queue key)."
#define NOTE_WIDTH                                        \
	"no range check is documented and no errors are " \
	"indicated: the value is converted to the ABI field's width"

struct addr_row {
	struct rc_case c;
	int dlid, dqp, sl, qkey;
};

static const struct addr_row rows[] = {
	{ .c = { .id = "umad/set_addr/gsi-typical",
		 .doc = DOC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .contract = { HDR_OK, .out = UMAD_OUT(ADDR(0x1234, 1, 0,
							    0x80010000)) } },
	  .dlid = 0x1234,
	  .dqp = 1,
	  .sl = 0,
	  .qkey = (int)0x80010000 },
	{ .c = { .id = "umad/set_addr/all-zero",
		 .doc = DOC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .contract = { HDR_OK, .out = UMAD_OUT(ADDR(0, 0, 0, 0)) } } },
	{ .c = { .id = "umad/set_addr/all-one",
		 .doc = DOC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .contract = { HDR_OK, .out = UMAD_OUT(ADDR(1, 1, 1, 1)) } },
	  .dlid = 1,
	  .dqp = 1,
	  .sl = 1,
	  .qkey = 1 },
	{ .c = { .id = "umad/set_addr/lid-max",
		 .doc = DOC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .contract = { HDR_OK,
			       .out = UMAD_OUT(ADDR(0xffff, 1, 0, 0)) } },
	  .dlid = 0xffff,
	  .dqp = 1 },
	{ .c = { .id = "umad/set_addr/lid-above-16-bits",
		 .doc = DOC,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = NOTE_WIDTH,
		 .contract = { HDR_OK,
			       .out = UMAD_OUT(ADDR(0x2345, 1, 0, 0)) } },
	  .dlid = 0x12345,
	  .dqp = 1 },
	{ .c = { .id = "umad/set_addr/qpn-max-24-bit",
		 .doc = DOC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .contract = { HDR_OK,
			       .out = UMAD_OUT(ADDR(1, 0xffffff, 0, 0)) } },
	  .dlid = 1,
	  .dqp = 0xffffff },
	{ .c = { .id = "umad/set_addr/qpn-above-24-bits",
		 .doc = DOC,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "QPNs are 24 bits on the wire, but the ABI field is "
			 "32 bits and no mask is documented",
		 .contract = { HDR_OK,
			       .out = UMAD_OUT(ADDR(1, 0x01000002, 0, 0)) } },
	  .dlid = 1,
	  .dqp = 0x01000002 },
	{ .c = { .id = "umad/set_addr/sl-max-4-bit",
		 .doc = DOC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .contract = { HDR_OK, .out = UMAD_OUT(ADDR(1, 1, 15, 0)) } },
	  .dlid = 1,
	  .dqp = 1,
	  .sl = 15 },
	{ .c = { .id = "umad/set_addr/sl-above-4-bits",
		 .doc = DOC,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "SLs are 4 bits; the ABI field is a byte: stored as is",
		 .contract = { HDR_OK, .out = UMAD_OUT(ADDR(1, 1, 0x10, 0)) } },
	  .dlid = 1,
	  .dqp = 1,
	  .sl = 0x10 },
	{ .c = { .id = "umad/set_addr/sl-above-8-bits",
		 .doc = DOC,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = NOTE_WIDTH,
		 .contract = { HDR_OK, .out = UMAD_OUT(ADDR(1, 1, 0x01, 0)) } },
	  .dlid = 1,
	  .dqp = 1,
	  .sl = 0x101 },
	{ .c = { .id = "umad/set_addr/qkey-all-ones",
		 .doc = DOC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .contract = { HDR_OK,
			       .out = UMAD_OUT(ADDR(1, 1, 0, 0xffffffff)) } },
	  .dlid = 1,
	  .dqp = 1,
	  .qkey = -1 },
	{ .c = { .id = "umad/set_addr/byte-order-distinct-bytes",
		 .doc = DOC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "every byte distinct, so a swapped or shifted field "
			 "cannot match by accident",
		 .contract = { HDR_OK,
			       .out = UMAD_OUT(ADDR(0x0102, 0x03040506, 0x07,
						    0x08090a0b)) } },
	  .dlid = 0x0102,
	  .dqp = 0x03040506,
	  .sl = 7,
	  .qkey = 0x08090a0b },
};

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct addr_row *row = r;
	uint8_t buf[UMAD_BUF_LEN];

	if (!rc_need_call(ctx, ctx->ops->umad_set_addr, "umad_set_addr"))
		return;
	umad_buf_init(buf);
	RC_OBSERVE(ctx, ctx->ops->umad_set_addr(buf, row->dlid, row->dqp,
						row->sl, row->qkey));
	rc_obs_out(ctx->obs, buf, sizeof(buf));
}

RC_TABLE_GROUP(group, "umad_set_addr", RC_CONV_NEG, "umad", rows, run);
