// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_create_ah(3)'s attributes where they take effect: in the GRH of a
 * UD message sent through the AH, as the receiver gets it.  The AH is
 * made by the implementation under test on the UD rung (verbs_traffic.h)
 * and carries a's SEND to b, so the reference's AHs carry traffic as the
 * system's do.  On RoCE v2 over IPv6 the GRH in the first 40 bytes of
 * the receive (ibv_post_recv(3)) is the packet's IPv6 header: version
 * and traffic class in the first 12 bits, then the 20-bit flow label,
 * the hop limit in byte 7, the source and destination GIDs after.
 * - create_ah/traffic-class-at-receiver: grh.traffic_class 0xb4 arrives
 * - create_ah/flow-label-at-receiver: grh.flow_label 0x9a5c3 arrives
 * - create_ah/hop-limit-at-receiver: grh.hop_limit 0x2d arrives
 * - create_ah/sgid-and-dgid-at-receiver: the GRH's source is the GID at
 *   grh.sgid_index, its destination grh.dgid
 * The values' bytes are all distinct, so a field in the wrong place or
 * the wrong byte order shows.
 */
#include <string.h>

#include "verbs_traffic.h"

#define DOC_CREATE                                        \
	"ibv_create_ah() creates an address handle (AH) " \
	"associated with the protection domain pd."

#define GRH 40
#define LEN 64
#define TCLASS 0xb4
#define FLOW 0x9a5c3
#define HOP 0x2d

enum field { F_TCLASS, F_FLOW, F_HOP, F_GIDS };

struct grh_row {
	struct rc_case c;
	enum field field;
};

static const struct grh_row rows[] = {
	{ .c = { .id = "verbs/create_ah/traffic-class-at-receiver",
		 .doc = DOC_CREATE,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "an AH with grh.traffic_class 0xb4, a UD SEND "
			 "through it: the GRH b receives has traffic class "
			 "0xb4 (the IPv6 header's bits 4-11)",
		 .needs = RC_NEED_DEVICE | RC_NEED_UD,
		 .contract = { RC_SUCCEEDS } },
	  .field = F_TCLASS },
	{ .c = { .id = "verbs/create_ah/flow-label-at-receiver",
		 .doc = DOC_CREATE,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "grh.flow_label 0x9a5c3: the GRH b receives has flow "
			 "label 0x9a5c3 (bits 12-31)",
		 .needs = RC_NEED_DEVICE | RC_NEED_UD,
		 .contract = { RC_SUCCEEDS } },
	  .field = F_FLOW },
	{ .c = { .id = "verbs/create_ah/hop-limit-at-receiver",
		 .doc = DOC_CREATE,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "grh.hop_limit 0x2d: the GRH b receives has hop limit "
			 "0x2d (byte 7); a and b are on one link, so no router "
			 "lowers it",
		 .needs = RC_NEED_DEVICE | RC_NEED_UD,
		 .contract = { RC_SUCCEEDS } },
	  .field = F_HOP },
	{ .c = { .id = "verbs/create_ah/sgid-and-dgid-at-receiver",
		 .doc = DOC_CREATE,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the GRH b receives has as source the port's GID at "
			 "grh.sgid_index and as destination grh.dgid",
		 .needs = RC_NEED_DEVICE | RC_NEED_UD,
		 .contract = { RC_SUCCEEDS } },
	  .field = F_GIDS },
};

/* The received GRH's field @f (@g: its 40 bytes) against what the AH
 * asked, or a violation */
static void check_field(struct rc_ctx *ctx, struct vt *t, enum field f,
			const uint8_t *g)
{
	uint32_t flow = (uint32_t)(g[1] & 0xf) << 16 | g[2] << 8 | g[3];
	uint8_t tclass = (uint8_t)(g[0] << 4 | g[1] >> 4);

	if (g[0] >> 4 != 6) {
		rc_obs_violation(ctx->obs, "grh: version %u, not 6", g[0] >> 4);
		return;
	}
	switch (f) {
	case F_TCLASS:
		if (tclass != TCLASS)
			rc_obs_violation(ctx->obs,
					 "grh: traffic class 0x%02x, the AH's "
					 "0x%02x",
					 tclass, TCLASS);
		break;
	case F_FLOW:
		if (flow != FLOW)
			rc_obs_violation(ctx->obs,
					 "grh: flow label 0x%05x, the AH's "
					 "0x%05x",
					 flow, FLOW);
		break;
	case F_HOP:
		if (g[7] != HOP)
			rc_obs_violation(ctx->obs,
					 "grh: hop limit %u, the AH's %u", g[7],
					 HOP);
		break;
	case F_GIDS:
		if (vt_same(ctx, "grh.sgid", g + 8, t->gid_a.raw, 16))
			vt_same(ctx, "grh.dgid", g + 24, t->gid_b.raw, 16);
		break;
	}
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct grh_row *row = r;
	struct vt_opts o = { .type = IBV_QPT_UD };
	struct ibv_ah_attr aa = { .is_global = 1,
				  .port_num = ctx->target->port };
	struct ibv_send_wr wr, *bad;
	struct ibv_sge sg;
	struct ibv_ah *ah;
	struct vt t;
	int err;

	if (!vt_up(ctx, &t, &o))
		goto out;
	aa.grh.dgid = t.gid_b;
	aa.grh.sgid_index = t.gid_index;
	aa.grh.traffic_class = TCLASS;
	aa.grh.flow_label = FLOW;
	aa.grh.hop_limit = HOP;
	RC_OBSERVE(ctx, ah = ctx->ops->ibv_create_ah(t.l.pd, &aa));
	if (!ah)
		goto out;
	sg = vt_sge(&t, 0, 0, LEN);
	wr = vt_wr(&t, IBV_WR_SEND, 1, &sg, 1);
	wr.wr.ud.ah = ah;
	vt_pattern(&t, 0, LEN, 53);
	if (!vt_recv_ready(ctx, &t, 2, GRH + LEN))
		goto destroy;
	err = ctx->ops->ibv_post_send(t.a, &wr, &bad);
	if (err) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_post_send through the AH failed (set-up): %s",
			     rc_errno_name(err));
		goto destroy;
	}
	if (vt_one_wc(ctx, t.rcq, "recv",
		      &(struct vt_wc){ .wr_id = 2,
				       .opcode = IBV_WC_RECV,
				       .byte_len = GRH + LEN,
				       .qp_num = t.b->qp_num,
				       .src_qp = t.a->qp_num,
				       .wc_flags = IBV_WC_GRH,
				       .ud = true }))
		check_field(ctx, &t, row->field, vt_region(&t, 1));
	/* the send's completion before the AH goes (ibv_post_send(3)'s
	 * NOTES) */
	vt_one_wc(ctx, t.scq, "send",
		  &(struct vt_wc){ .wr_id = 1,
				   .opcode = IBV_WC_SEND,
				   .byte_len = -1,
				   .qp_num = t.a->qp_num,
				   .src_qp = -1,
				   .wc_flags = -1 });
destroy:
	ctx->ops->ibv_destroy_ah(ah);
out:
	vt_down(ctx, &t);
}

RC_TABLE_GROUP(group, "ibv_create_ah", RC_CONV_NULL_ERRNO, "verbs", rows, run);
