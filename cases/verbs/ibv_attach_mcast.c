// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_attach_mcast(3): "attaches the QP qp to the multicast group having
 * MGID gid and MLID lid."  ibv_detach_mcast(3): "detaches the QP qp to the
 * multicast group having MGID gid and MLID lid."  Both "returns 0 on
 * success, or the value of errno on failure".  NOTES: "Only QPs of
 * Transport Service Type IBV_QPT_UD may be attached to multicast groups.
 * If a QP is attached to the same multicast group multiple times, the QP
 * will still receive a single copy of a multicast message."
 *
 * Delivery is checked by sending UD messages to the group's MGID from the
 * port's IPv6 GID and counting receive completions within a deadline.
 */
#include <string.h>
#include <unistd.h>

#include "verbs_res.h"

#define MCAST_QPN 0xffffff
#define MLID 0xc001

/* ff0e::db8:S:1 for the run's pool slot S (rc_ctx.slot): no two rows
 * running at once share a group, so they need not wait for each other */
static const union ibv_gid *group_of(const struct rc_ctx *ctx)
{
	/* a row is a process of its own */
	static union ibv_gid mgid = { .raw = { 0xff, 0x0e, [10] = 0x0d, 0xb8,
					       [15] = 0x01 } };

	mgid.raw[12] = ctx->slot >> 8;
	mgid.raw[13] = ctx->slot;
	return &mgid;
}

#define DOC_ATTACH "ibv_attach_mcast() attaches the QP qp to the multicast " \
	"group having MGID gid and MLID lid."
#define DOC_DETACH "ibv_detach_mcast() detaches the QP qp to the multicast " \
	"group having MGID gid and MLID lid."
#define DOC_UD "Only QPs of Transport Service Type IBV_QPT_UD may be " \
	"attached to multicast groups."
#define DOC_TWICE "If a QP is attached to the same multicast group multiple " \
	"times, the QP will still receive a single copy of a multicast message."


struct mcast_row {
	struct rc_case c;
	int mode;
};

enum { ATTACH, TWICE, NOT_UD, TWO_QPS, DETACH, NEVER, OTHER_LID, FROM_PEER,
       DETACH_PEER, UNICAST_LID, TWICE_DETACH_ONCE };

/* a unicast LID: on InfiniBand no MLID (0xc000 to 0xfffe) */
#define UNICAST_LID_VALUE 0x0001

static const struct mcast_row rows[] = {
	{ .c = { .id = "verbs/attach_mcast/ud-receives", .doc = DOC_ATTACH,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "one message to the group: one copy arrives",
		 .needs = NEEDS_VERBS, .contract = { RC_RETURNS(0) } }, .mode = ATTACH },
	{ .c = { .id = "verbs/attach_mcast/twice-one-copy", .doc = DOC_TWICE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the second attach is the call observed",
		 .needs = NEEDS_VERBS, .contract = { RC_RETURNS(0) } }, .mode = TWICE },
	{ .c = { .id = "verbs/attach_mcast/roce-unicast-lid", .doc = DOC_ATTACH,
		 .basis = RC_BASIS_LINUX,
		 .note = "LID 0x0001, no InfiniBand MLID: RoCE has no LIDs, "
		 "and Linux checks the MLID only on InfiniBand "
		 "(ib_attach_mcast): attached, one copy arrives",
		 .needs = NEEDS_VERBS | RC_NEED_ROCE, .contract = { RC_RETURNS(0) } },
	  .mode = UNICAST_LID },
	{ .c = { .id = "verbs/attach_mcast/rc-qp", .doc = DOC_UD,
		 .basis = RC_BASIS_LINUX,
		 .note = "the page forbids it; EINVAL is the kernel's "
		 "(ib_attach_mcast refuses a QP that is not UD)",
		 .needs = NEEDS_VERBS, .contract = { RC_FAILS(EINVAL) } },
	  .mode = NOT_UD },
	{ .c = { .id = "verbs/attach_mcast/two-qps-both-receive",
		 .doc = DOC_ATTACH, .basis = RC_BASIS_DOCUMENTED,
		 .note = "two QPs in one group: each gets "
		 "one copy of one message", .needs = NEEDS_VERBS,
		 .contract = { RC_RETURNS(0) } }, .mode = TWO_QPS },
	{ .c = { .id = "verbs/attach_mcast/from-other-device",
		 .doc = DOC_ATTACH, .basis = RC_BASIS_DOCUMENTED,
		 .note = "a message to the group from a "
		 "second device arrives once", .needs = NEEDS_VERBS |
		 RC_NEED_PEER, .contract = { RC_RETURNS(0) } }, .mode = FROM_PEER },
};

static const struct mcast_row detach_rows[] = {
	{ .c = { .id = "verbs/detach_mcast/after-attach", .doc = DOC_DETACH,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "then no copy of a message to the group arrives",
		 .needs = NEEDS_VERBS, .contract = { RC_RETURNS(0) } }, .mode = DETACH },
	{ .c = { .id = "verbs/detach_mcast/once-after-two-attaches",
		 .doc = DOC_DETACH, .basis = RC_BASIS_LINUX,
		 .note = "attached twice, detached once: the page says a QP "
		 "attached twice gets one copy; Linux keeps one attachment "
		 "per (MGID, MLID), which one detach removes: no copy arrives",
		 .needs = NEEDS_VERBS, .contract = { RC_RETURNS(0) } },
	  .mode = TWICE_DETACH_ONCE },
	{ .c = { .id = "verbs/detach_mcast/never-attached", .doc = DOC_DETACH,
		 .basis = RC_BASIS_LINUX,
		 .note = "a group the QP is not in: the page does not say; "
		 "the kernel's uverbs DETACH_MCAST fails when the QP has no "
		 "such (MGID, MLID) entry",
		 .needs = NEEDS_VERBS, .contract = { RC_FAILS(0) } }, .mode = NEVER },
	{ .c = { .id = "verbs/detach_mcast/other-lid", .doc = DOC_DETACH,
		 .basis = RC_BASIS_LINUX,
		 .note = "attached with MLID 0xc001, detached with 0xc002: "
		 "the QP is not in that (MGID, MLID) group, and the kernel's "
		 "uverbs DETACH_MCAST matches both",
		 .needs = NEEDS_VERBS, .contract = { RC_FAILS(0) } },
	  .mode = OTHER_LID },
	{ .c = { .id = "verbs/detach_mcast/from-other-device",
		 .doc = DOC_DETACH, .basis = RC_BASIS_DOCUMENTED,
		 .note = "after it, a message to the group "
		 "from a second device does not arrive", .needs = NEEDS_VERBS |
		 RC_NEED_PEER, .contract = { RC_RETURNS(0) } }, .mode = DETACH_PEER },
};

/* Send one message to the group from @from; how many copies reach @to? */
static int copies(struct rc_ctx *ctx, struct vres *from, struct vres *to)
{
	struct ibv_ah *ah = vres_ah(from, from->gid6, group_of(ctx));
	int n = -1;

	if (!ah) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN, "ibv_create_ah to the "
			     "MGID: %m");
		return -1;
	}
	if (vres_send(ctx, from, ah, MCAST_QPN, 0x6d63))
		n = vres_count(ctx, to, VRES_QUIET_MS);
	else
		rc_obs_state(ctx->obs, RC_STATE_BROKEN, "multicast send failed");
	ibv_destroy_ah(ah);
	return n;
}

static void expect_copies(struct rc_ctx *ctx, struct vres *from,
			  struct vres *to, int want, const char *who)
{
	int n;

	if (ctx->obs->state != RC_STATE_RAN || ctx->obs->ret)
		return;
	n = copies(ctx, from, to);
	if (n >= 0 && n != want)
		rc_obs_violation(ctx->obs, "%s got %d copies of one message, "
				 "not %d", who, n, want);
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct mcast_row *row = r;
	const struct rc_ops *ops = ctx->ops;
	const union ibv_gid *mgid = group_of(ctx);
	struct vres a, b = {};
	int join = -1;

	if (!rc_need_call(ctx, ops->ibv_attach_mcast, "ibv_attach_mcast") ||
	    !rc_need_call(ctx, ops->ibv_detach_mcast, "ibv_detach_mcast") ||
	    !vres_open(ctx, &a, row->mode == NOT_UD ? IBV_QPT_RC : IBV_QPT_UD))
		return;
	if (a.gid6 < 0) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN, "no IPv6 GID on the "
			     "port to send to the group from");
		goto out;
	}
	if (row->mode != NOT_UD && !vres_post_recv(ctx, &a, 4))
		goto out;
	join = vres_fabric_join(ctx, &a, mgid);
	if (join < 0)
		goto out;
	switch (row->mode) {
	case ATTACH:
	case NOT_UD:
		RC_OBSERVE(ctx, ops->ibv_attach_mcast(a.qp, mgid, MLID));
		expect_copies(ctx, &a, &a, 1, "the QP");
		break;
	case TWICE:
		ops->ibv_attach_mcast(a.qp, mgid, MLID);
		RC_OBSERVE(ctx, ops->ibv_attach_mcast(a.qp, mgid, MLID));
		expect_copies(ctx, &a, &a, 1, "the QP attached twice");
		break;
	case TWO_QPS:
		if (!vres_open(ctx, &b, IBV_QPT_UD) ||
		    !vres_post_recv(ctx, &b, 4))
			break;
		ops->ibv_attach_mcast(b.qp, mgid, MLID);
		RC_OBSERVE(ctx, ops->ibv_attach_mcast(a.qp, mgid, MLID));
		expect_copies(ctx, &a, &b, 1, "the other QP");
		if (ctx->obs->ret == 0 && vres_count(ctx, &a, 0) != 1)
			rc_obs_violation(ctx->obs, "the sending QP, attached "
					 "too, did not get its copy");
		break;
	case UNICAST_LID:
		RC_OBSERVE(ctx, ops->ibv_attach_mcast(a.qp, mgid,
						      UNICAST_LID_VALUE));
		expect_copies(ctx, &a, &a, 1, "the QP");
		break;
	case DETACH:
	case TWICE_DETACH_ONCE:
		if (ops->ibv_attach_mcast(a.qp, mgid, MLID) ||
		    (row->mode == TWICE_DETACH_ONCE &&
		     ops->ibv_attach_mcast(a.qp, mgid, MLID))) {
			rc_obs_state(ctx->obs, RC_STATE_BROKEN, "attach failed");
			break;
		}
		RC_OBSERVE(ctx, ops->ibv_detach_mcast(a.qp, mgid, MLID));
		expect_copies(ctx, &a, &a, 0, "the detached QP");
		break;
	case NEVER:
		RC_OBSERVE(ctx, ops->ibv_detach_mcast(a.qp, mgid, MLID));
		break;
	case FROM_PEER:
	case DETACH_PEER:
		if (!vres_open_peer(ctx, &b))
			break;
		if (b.gid6 < 0) {
			rc_obs_state(ctx->obs, RC_STATE_BROKEN, "no IPv6 GID "
				     "on %s", ctx->target->peer);
			break;
		}
		RC_OBSERVE(ctx, ops->ibv_attach_mcast(a.qp, mgid, MLID));
		if (row->mode == DETACH_PEER && !ctx->obs->ret)
			RC_OBSERVE(ctx, ops->ibv_detach_mcast(a.qp, mgid,
							      MLID));
		expect_copies(ctx, &b, &a, row->mode == FROM_PEER, "the QP");
		break;
	case OTHER_LID:
		if (ops->ibv_attach_mcast(a.qp, mgid, MLID)) {
			rc_obs_state(ctx->obs, RC_STATE_BROKEN, "attach failed");
			break;
		}
		RC_OBSERVE(ctx, ops->ibv_detach_mcast(a.qp, mgid, MLID + 1));
		break;
	}
	if (b.ctx)
		vres_close(&b);
out:
	if (join >= 0)
		close(join);
	vres_close(&a);
}

static const struct rc_group group = {
	.call = "ibv_attach_mcast", .conv = RC_CONV_ERRNO_RET,
	.lib = "verbs", .rows = rows,
	.row_size = sizeof(rows[0]), .nrows = ARRAY_SIZE(rows), .run = run,
};
RC_GROUP(group);

static const struct rc_group detach_group = {
	.call = "ibv_detach_mcast", .conv = RC_CONV_ERRNO_RET,
	.lib = "verbs", .rows = detach_rows,
	.row_size = sizeof(detach_rows[0]), .nrows = ARRAY_SIZE(detach_rows),
	.run = run,
};
RC_GROUP(detach_group);
