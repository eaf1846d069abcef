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
	static union ibv_gid mgid = { .raw = { 0xff, 0x0e, [10] = 0x0d,
					       0xb8, [15] = 0x01 } };

	mgid.raw[12] = ctx->slot >> 8;
	mgid.raw[13] = ctx->slot;
	return &mgid;
}

#define DOC_ATTACH                                                \
	"ibv_attach_mcast() attaches the QP qp to the multicast " \
	"group having MGID gid and MLID lid."
#define DOC_DETACH                                                \
	"ibv_detach_mcast() detaches the QP qp to the multicast " \
	"group having MGID gid and MLID lid."
#define DOC_UD                                                  \
	"Only QPs of Transport Service Type IBV_QPT_UD may be " \
	"attached to multicast groups."
#define DOC_TWICE                                                   \
	"If a QP is attached to the same multicast group multiple " \
	"times, the QP will still receive a single copy of a multicast message."

struct mcast_row;
/* What a row does with its QP @a: not yet attached, its receives posted
 * (UD), the fabric's part of joining @mgid done. */
typedef void mcast_check(const struct mcast_row *row, struct rc_ctx *ctx,
			 struct vres *a, const union ibv_gid *mgid);

struct mcast_row {
	struct rc_case c;
	mcast_check *check;
	bool rc_qp; /* an RC QP (no receives posted), not UD */
};

static mcast_check attached_qp_receives, attached_twice_one_copy,
	unicast_lid_receives, both_qps_receive, receives_from_other_device,
	detached_receives_nothing, detached_once_after_two,
	detach_never_attached, detach_other_lid, detached_from_other_device;

/* a unicast LID: on InfiniBand no MLID (0xc000 to 0xfffe) */
#define UNICAST_LID_VALUE 0x0001

static const struct mcast_row rows[] = {
	{ .c = { .id = "verbs/attach_mcast/ud-receives",
		 .doc = DOC_ATTACH,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "one message to the group: one copy arrives",
		 .needs = NEEDS_VERBS,
		 .contract = { RC_RETURNS(0) } },
	  .check = attached_qp_receives },
	{ .c = { .id = "verbs/attach_mcast/twice-one-copy",
		 .doc = DOC_TWICE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the second attach is the call observed",
		 .needs = NEEDS_VERBS,
		 .contract = { RC_RETURNS(0) } },
	  .check = attached_twice_one_copy },
	{ .c = { .id = "verbs/attach_mcast/roce-unicast-lid",
		 .doc = DOC_ATTACH,
		 .basis = RC_BASIS_LINUX,
		 .note = "LID 0x0001, no InfiniBand MLID: RoCE has no LIDs, "
			 "and Linux checks the MLID only on InfiniBand "
			 "(ib_attach_mcast): attached, one copy arrives",
		 .needs = NEEDS_VERBS | RC_NEED_ROCE,
		 .contract = { RC_RETURNS(0) } },
	  .check = unicast_lid_receives },
	{ .c = { .id = "verbs/attach_mcast/rc-qp",
		 .doc = DOC_UD,
		 .basis = RC_BASIS_LINUX,
		 .note = "the page forbids it; EINVAL is the kernel's "
			 "(ib_attach_mcast refuses a QP that is not UD)",
		 .needs = NEEDS_VERBS,
		 .contract = { RC_FAILS(EINVAL) } },
	  .check = attached_qp_receives,
	  .rc_qp = true },
	{ .c = { .id = "verbs/attach_mcast/two-qps-both-receive",
		 .doc = DOC_ATTACH,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "two QPs in one group: each gets "
			 "one copy of one message",
		 .needs = NEEDS_VERBS,
		 .contract = { RC_RETURNS(0) } },
	  .check = both_qps_receive },
	{ .c = { .id = "verbs/attach_mcast/from-other-device",
		 .doc = DOC_ATTACH,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a message to the group from a "
			 "second device arrives once",
		 .needs = NEEDS_VERBS | RC_NEED_PEER,
		 .contract = { RC_RETURNS(0) } },
	  .check = receives_from_other_device },
};

static const struct mcast_row detach_rows[] = {
	{ .c = { .id = "verbs/detach_mcast/after-attach",
		 .doc = DOC_DETACH,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "then no copy of a message to the group arrives",
		 .needs = NEEDS_VERBS,
		 .contract = { RC_RETURNS(0) } },
	  .check = detached_receives_nothing },
	{ .c = { .id = "verbs/detach_mcast/once-after-two-attaches",
		 .doc = DOC_DETACH,
		 .basis = RC_BASIS_LINUX,
		 .note = "attached twice, detached once: the page says a QP "
			 "attached twice gets one copy; Linux keeps one attachment "
			 "per (MGID, MLID), which one detach removes: no copy arrives",
		 .needs = NEEDS_VERBS,
		 .contract = { RC_RETURNS(0) } },
	  .check = detached_once_after_two },
	{ .c = { .id = "verbs/detach_mcast/never-attached",
		 .doc = DOC_DETACH,
		 .basis = RC_BASIS_LINUX,
		 .note = "a group the QP is not in: the page does not say; "
			 "the kernel's uverbs DETACH_MCAST fails when the QP has no "
			 "such (MGID, MLID) entry",
		 .needs = NEEDS_VERBS,
		 .contract = { RC_FAILS(0) } },
	  .check = detach_never_attached },
	{ .c = { .id = "verbs/detach_mcast/other-lid",
		 .doc = DOC_DETACH,
		 .basis = RC_BASIS_LINUX,
		 .note = "attached with MLID 0xc001, detached with 0xc002: "
			 "the QP is not in that (MGID, MLID) group, and the kernel's "
			 "uverbs DETACH_MCAST matches both",
		 .needs = NEEDS_VERBS,
		 .contract = { RC_FAILS(0) } },
	  .check = detach_other_lid },
	{ .c = { .id = "verbs/detach_mcast/from-other-device",
		 .doc = DOC_DETACH,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "after it, a message to the group "
			 "from a second device does not arrive",
		 .needs = NEEDS_VERBS | RC_NEED_PEER,
		 .contract = { RC_RETURNS(0) } },
	  .check = detached_from_other_device },
};

/* Send one message to the group from @from; how many copies reach @to? */
static int copies(struct rc_ctx *ctx, struct vres *from, struct vres *to)
{
	struct ibv_ah *ah = vres_ah(from, from->gid6, group_of(ctx));
	int n = -1;

	if (!ah) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_create_ah to the "
			     "MGID: %m");
		return -1;
	}
	if (vres_send(ctx, from, ah, MCAST_QPN, 0x6d63))
		n = vres_count(ctx, to, VRES_QUIET_MS);
	else
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "multicast send failed");
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
		rc_obs_violation(ctx->obs,
				 "%s got %d copies of one message, "
				 "not %d",
				 who, n, want);
}

static void attached_qp_receives(const struct mcast_row *row,
				 struct rc_ctx *ctx, struct vres *a,
				 const union ibv_gid *mgid)
{
	RC_OBSERVE(ctx, ctx->ops->ibv_attach_mcast(a->qp, mgid, MLID));
	expect_copies(ctx, a, a, 1, "the QP");
}

static void attached_twice_one_copy(const struct mcast_row *row,
				    struct rc_ctx *ctx, struct vres *a,
				    const union ibv_gid *mgid)
{
	ctx->ops->ibv_attach_mcast(a->qp, mgid, MLID);
	RC_OBSERVE(ctx, ctx->ops->ibv_attach_mcast(a->qp, mgid, MLID));
	expect_copies(ctx, a, a, 1, "the QP attached twice");
}

static void unicast_lid_receives(const struct mcast_row *row,
				 struct rc_ctx *ctx, struct vres *a,
				 const union ibv_gid *mgid)
{
	RC_OBSERVE(ctx,
		   ctx->ops->ibv_attach_mcast(a->qp, mgid, UNICAST_LID_VALUE));
	expect_copies(ctx, a, a, 1, "the QP");
}

static void both_qps_receive(const struct mcast_row *row, struct rc_ctx *ctx,
			     struct vres *a, const union ibv_gid *mgid)
{
	struct vres b = {};

	if (vres_open(ctx, &b, IBV_QPT_UD) && vres_post_recv(ctx, &b, 4)) {
		ctx->ops->ibv_attach_mcast(b.qp, mgid, MLID);
		RC_OBSERVE(ctx, ctx->ops->ibv_attach_mcast(a->qp, mgid, MLID));
		expect_copies(ctx, a, &b, 1, "the other QP");
		if (ctx->obs->ret == 0 && vres_count(ctx, a, 0) != 1)
			rc_obs_violation(ctx->obs, "the sending QP, attached "
						   "too, did not get its copy");
	}
	if (b.ctx)
		vres_close(&b);
}

/*
 * The QP attached (the call observed) and, if @detach, detached again
 * (observed); then a message to the group from the run's second device
 * must reach it @want times.
 */
static void from_other_device(struct rc_ctx *ctx, struct vres *a,
			      const union ibv_gid *mgid, bool detach, int want)
{
	struct vres b = {};

	if (!vres_open_peer(ctx, &b))
		goto out;
	if (b.gid6 < 0) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN, "no IPv6 GID on %s",
			     ctx->target->peer);
		goto out;
	}
	RC_OBSERVE(ctx, ctx->ops->ibv_attach_mcast(a->qp, mgid, MLID));
	if (detach && !ctx->obs->ret)
		RC_OBSERVE(ctx, ctx->ops->ibv_detach_mcast(a->qp, mgid, MLID));
	expect_copies(ctx, &b, a, want, "the QP");
out:
	if (b.ctx)
		vres_close(&b);
}

static void receives_from_other_device(const struct mcast_row *row,
				       struct rc_ctx *ctx, struct vres *a,
				       const union ibv_gid *mgid)
{
	from_other_device(ctx, a, mgid, false, 1);
}

static void detached_from_other_device(const struct mcast_row *row,
				       struct rc_ctx *ctx, struct vres *a,
				       const union ibv_gid *mgid)
{
	from_other_device(ctx, a, mgid, true, 0);
}

/* Attach the QP @times times, not the call under test; false (BROKEN)
 * when one fails. */
static bool attach_first(struct rc_ctx *ctx, struct vres *a,
			 const union ibv_gid *mgid, int times)
{
	while (times--) {
		if (ctx->ops->ibv_attach_mcast(a->qp, mgid, MLID)) {
			rc_obs_state(ctx->obs, RC_STATE_BROKEN,
				     "attach failed");
			return false;
		}
	}
	return true;
}

/* The QP attached @times times, then detached once: the call observed,
 * and no copy of a message to the group reaches it. */
static void detach_after(struct rc_ctx *ctx, struct vres *a,
			 const union ibv_gid *mgid, int times)
{
	if (!attach_first(ctx, a, mgid, times))
		return;
	RC_OBSERVE(ctx, ctx->ops->ibv_detach_mcast(a->qp, mgid, MLID));
	expect_copies(ctx, a, a, 0, "the detached QP");
}

static void detached_receives_nothing(const struct mcast_row *row,
				      struct rc_ctx *ctx, struct vres *a,
				      const union ibv_gid *mgid)
{
	detach_after(ctx, a, mgid, 1);
}

static void detached_once_after_two(const struct mcast_row *row,
				    struct rc_ctx *ctx, struct vres *a,
				    const union ibv_gid *mgid)
{
	detach_after(ctx, a, mgid, 2);
}

static void detach_never_attached(const struct mcast_row *row,
				  struct rc_ctx *ctx, struct vres *a,
				  const union ibv_gid *mgid)
{
	RC_OBSERVE(ctx, ctx->ops->ibv_detach_mcast(a->qp, mgid, MLID));
}

static void detach_other_lid(const struct mcast_row *row, struct rc_ctx *ctx,
			     struct vres *a, const union ibv_gid *mgid)
{
	if (attach_first(ctx, a, mgid, 1))
		RC_OBSERVE(ctx,
			   ctx->ops->ibv_detach_mcast(a->qp, mgid, MLID + 1));
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct mcast_row *row = r;
	const struct rc_ops *ops = ctx->ops;
	const union ibv_gid *mgid = group_of(ctx);
	struct vres a;
	int join = -1;

	if (!rc_need_call(ctx, ops->ibv_attach_mcast, "ibv_attach_mcast") ||
	    !rc_need_call(ctx, ops->ibv_detach_mcast, "ibv_detach_mcast") ||
	    !vres_open(ctx, &a, row->rc_qp ? IBV_QPT_RC : IBV_QPT_UD))
		return;
	if (a.gid6 < 0) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "no IPv6 GID on the "
			     "port to send to the group from");
		goto out;
	}
	if (!row->rc_qp && !vres_post_recv(ctx, &a, 4))
		goto out;
	join = vres_fabric_join(ctx, &a, mgid);
	if (join < 0)
		goto out;
	row->check(row, ctx, &a, mgid);
out:
	if (join >= 0)
		close(join);
	vres_close(&a);
}

RC_TABLE_GROUP(group, "ibv_attach_mcast", RC_CONV_ERRNO_RET, "verbs", rows,
	       run);

RC_TABLE_GROUP(detach_group, "ibv_detach_mcast", RC_CONV_ERRNO_RET, "verbs",
	       detach_rows, run);
