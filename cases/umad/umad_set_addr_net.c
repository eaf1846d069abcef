// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * umad_set_addr_net(3): "sets the MAD address fields within the specified
 * umad buffer using the provided network ordered fields."
 *
 * - dlid, dqp and qkey given in network order are copied byte for byte
 * - sl (an int, in no particular order) is stored in its byte
 * - nothing else in the buffer changes; returns 0
 */
#include <endian.h>

#include "umad_hdr.h"

#define DOC                                                                 \
	"umad_set_addr_net() sets the MAD address fields within the "       \
	"specified umad buffer using the provided network ordered fields. " \
	"dlid is the destination LID. dqp is the destination QP (queue "    \
	"pair). sl is the SL (service level). qkey is the Q_Key (queue key)."

/* host values; the run function passes them in network order */
struct addr_net_row {
	struct rc_case c;
	uint16_t dlid;
	uint32_t dqp, qkey;
	int sl;
};

static const struct addr_net_row rows[] = {
	{ .c = { .id = "umad/set_addr_net/gsi-typical",
		 .doc = DOC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .contract = { HDR_OK, .out = UMAD_OUT(ADDR(0x1234, 1, 0,
							    0x80010000)) } },
	  .dlid = 0x1234,
	  .dqp = 1,
	  .qkey = 0x80010000 },
	{ .c = { .id = "umad/set_addr_net/byte-order-distinct-bytes",
		 .doc = DOC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .contract = { HDR_OK, .out = UMAD_OUT(ADDR(0x0102, 0x03040506,
							    7, 0x08090a0b)) } },
	  .dlid = 0x0102,
	  .dqp = 0x03040506,
	  .sl = 7,
	  .qkey = 0x08090a0b },
	{ .c = { .id = "umad/set_addr_net/all-zero",
		 .doc = DOC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .contract = { HDR_OK, .out = UMAD_OUT(ADDR(0, 0, 0, 0)) } } },
	{ .c = { .id = "umad/set_addr_net/all-max",
		 .doc = DOC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .contract = { HDR_OK,
			       .out = UMAD_OUT(ADDR(0xffff, 0xffffffff, 0xff,
						    0xffffffff)) } },
	  .dlid = 0xffff,
	  .dqp = 0xffffffff,
	  .sl = 0xff,
	  .qkey = 0xffffffff },
};

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct addr_net_row *row = r;
	uint8_t buf[UMAD_BUF_LEN];

	if (!rc_need_call(ctx, ctx->ops->umad_set_addr_net,
			  "umad_set_addr_net"))
		return;
	umad_buf_init(buf);
	RC_OBSERVE(ctx, ctx->ops->umad_set_addr_net(buf, htobe16(row->dlid),
						    htobe32(row->dqp), row->sl,
						    htobe32(row->qkey)));
	rc_obs_out(ctx->obs, buf, sizeof(buf));
}

RC_TABLE_GROUP(group, "umad_set_addr_net", RC_CONV_NEG, "umad", rows, run);
