// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * umad_set_grh(3) on the wire: "sets the GRH fields (grh_present, gid,
 * hop_limit, traffic_class, flow_label) within the specified umad buffer
 * based on the mad_addr supplied."  A MAD whose GRH umad_set_grh wrote is
 * sent with umad_send to the own port; the receiver's address must show
 * what was set: the sender's GID, hop limit, traffic class and flow label.
 *
 * gid_index, qpn and qkey are written by the row, not by calls under test;
 * the GID is the port's own IPv6 GID (see umad_mad.h).
 */
#include <endian.h>
#include <stdio.h>
#include <string.h>

#include "umad_mad.h"

#define DOC_WIRE                                                           \
	"umad_set_grh() sets the GRH fields (grh_present, gid, "           \
	"hop_limit, traffic_class, flow_label) within the specified umad " \
	"buffer based on the mad_addr supplied."

static const struct rc_field fields[] = {
	{ "grh_present", 0, 1 },   { "hop_limit", 1, 1 },
	{ "traffic_class", 2, 1 }, { "gid", 3, 16 },
	{ "flow_label", 19, 4 },
};

static const struct rc_layout received = {
	.name = "the receiver's address",
	.fields = fields,
	.nfields = ARRAY_SIZE(fields),
};

#define WIRE_OK RC_RETURNS(0), .layout = &received

static const struct mad_row rows[] = {
	{ .c = { .id = "umad/set_grh/wire-hop-7-class-0x20-flow-0x12345",
		 .doc = DOC_WIRE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the receiver's address shows the "
			 "values set",
		 .needs = NEEDS_UMAD | RC_NEED_ROCE,
		 .contract = { WIRE_OK } },
	  .arg = 7,
	  .timeout_ms = 0x20,
	  .retries = 0x12345 },
	{ .c = { .id = "umad/set_grh/wire-hop-255-class-0xb8-flow-0xfffff",
		 .doc = DOC_WIRE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the largest values of each field",
		 .needs = NEEDS_UMAD | RC_NEED_ROCE,
		 .contract = { WIRE_OK } },
	  .arg = 255,
	  .timeout_ms = 0xb8,
	  .retries = 0xfffff },
	{ .c = { .id = "umad/set_grh/wire-hop-64-class-0-flow-0",
		 .doc = DOC_WIRE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "defaults: flow label 0 may be "
			 "replaced by the sender; the rest arrives",
		 .needs = NEEDS_UMAD | RC_NEED_ROCE,
		 .contract = { WIRE_OK } },
	  .arg = 64,
	  .timeout_ms = 0,
	  .retries = 0 },
};

static void check(struct rc_ctx *ctx, const struct mad_row *row,
		  const uint8_t *in, const uint8_t gid[16])
{
	char msg[RC_REASON_MAX];
	uint8_t got[23];
	uint32_t flow;
	int len = 0;

	got[0] = in[REF_UMAD_OFF_GRH_PRESENT];
	got[1] = in[REF_UMAD_OFF_HOP_LIMIT];
	got[2] = in[REF_UMAD_OFF_TRAFFIC_CLASS];
	memcpy(got + 3, in + REF_UMAD_OFF_GID, 16);
	memcpy(got + 19, in + REF_UMAD_OFF_FLOW_LABEL, 4);
	rc_obs_out(ctx->obs, got, sizeof(got));
	memcpy(&flow, got + 19, 4);
	flow = be32toh(flow);
	/* every field that did not arrive as set, in one message */
	if (!got[0])
		len += snprintf(msg + len, sizeof(msg) - len, "; no GRH");
	if (memcmp(got + 3, gid, 16))
		len += snprintf(msg + len, sizeof(msg) - len,
				"; gid is not the sender's");
	if (got[1] != row->arg)
		len += snprintf(msg + len, sizeof(msg) - len,
				"; hop_limit "
				"sent %d, received %d",
				row->arg, got[1]);
	if (got[2] != row->timeout_ms)
		len += snprintf(msg + len, sizeof(msg) - len,
				"; traffic_class "
				"sent 0x%02x, received 0x%02x",
				row->timeout_ms, got[2]);
	if (row->retries && flow != (uint32_t)row->retries)
		len += snprintf(msg + len, sizeof(msg) - len,
				"; flow_label "
				"sent 0x%05x, received 0x%05x",
				row->retries, flow);
	if (len)
		rc_obs_violation(ctx->obs, "%s", msg + 2);
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct mad_row *row = r;
	const struct rc_ops *ops = ctx->ops;
	uint8_t req[MAD_BUF_LEN], in[MAD_BUF_LEN], gid[16];
	struct peer server = { .fd = -1 };
	ib_mad_addr_t addr;
	int portid, agent, n;

	if (!NEED_MAD_CALLS(ctx) ||
	    !rc_need_call(ctx, ops->umad_set_grh, "umad_set_grh") ||
	    !rc_need_call(ctx, ops->umad_send, "umad_send"))
		return;
	if (!impl_open(ctx, &portid))
		return;
	if (!impl_agent(ctx, portid, CLASS_V2, 0, &agent) ||
	    !peer_open(ctx, &server, CLASS_V2, METHOD_BIT(METHOD_GET), 0))
		goto out;
	mad_build(ctx, req, CLASS_V2, METHOD_GET, 0x3a);
	if (!mad_address_self(ctx, req) || mad_self_gid(ctx, gid) < 0)
		goto out;
	/* what umad_set_grh must write: the rest of the address is set */
	memset(&addr, 0, sizeof(addr));
	memcpy(addr.gid, gid, 16);
	addr.hop_limit = row->arg;
	addr.traffic_class = row->timeout_ms;
	addr.flow_label = (__be32)row->retries; /* host order, as documented */
	RC_OBSERVE(ctx, ops->umad_set_grh(req, &addr));
	if (ctx->obs->ret)
		goto out;
	n = ops->umad_send(portid, agent, req, MAD_SIZE, 0, 0);
	if (n) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN, "umad_send: %d", n);
		goto out;
	}
	n = mad_wait(ctx, server.fd, in, sizeof(in), ARRIVE_MS);
	if (n <= 0)
		rc_obs_violation(ctx->obs, "the MAD did not arrive");
	else
		check(ctx, row, in, gid);
out:
	peer_close(&server);
	ops->umad_close_port(portid);
}

static const struct rc_group group = {
	.call = "umad_set_grh",
	.conv = RC_CONV_NEG,
	.lib = "umad",
	.rows = rows,
	.row_size = sizeof(rows[0]),
	.nrows = ARRAY_SIZE(rows),
	.run = run,
	.shares = RC_SHARE_VENDOR_OUI,
};
RC_GROUP(group);
