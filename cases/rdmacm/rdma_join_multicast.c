// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_join_multicast(3): "Joins a multicast group and attaches an
 * associated QP to the group."  NOTES: "Before joining a multicast group,
 * the rdma_cm_id must be bound to an RDMA device"; "After the join
 * operation completes, if a QP is associated with the rdma_cm_id, it is
 * automatically attached to the multicast group when the multicast event
 * is retrieved by the user."; "The join context is returned to the user
 * through the private_data field in the rdma_cm_event."
 * rdma_join_multicast_ex(3): "Joins a multicast group (MCG) with extended
 * options."; RDMA_MC_JOIN_FLAG_FULLMEMBER and _SENDONLY_FULLMEMBER; "Use a
 * single flag"; on RoCE v2 a send-only join "will not send any IGMP
 * messages" and "the QP will not be attached to the MCG".
 * Both: "Returns 0 on success, or -1 on error."
 *
 * - IPv4 group: the join event, with the join's context, then a message
 *   to the group reaches the QP; the netdev joins the IP group
 * - IPv6 group: Linux refuses it on RoCE v2 (UNSUPPORTED there)
 * - an id bound to nothing: an error; a bound id with no QP: the event
 * - not tried: a join that fails after returning 0 (the event's status on
 *   failure), which rxe gives no way to provoke
 * - join_ex: full member as join; send-only: the event, no message, no
 *   IGMP membership; a flag or a comp_mask bit the page does not name,
 *   or no address: an error
 */
#include <errno.h>
#include <poll.h>
#include <string.h>

#include "rdmacm_member.h"

#define DOC_JOIN "Joins a multicast group and attaches an associated QP to " \
	"the group."
#define DOC_CONTEXT "The join context is returned to the user through the " \
	"private_data field in the rdma_cm_event."
#define DOC_BOUND "Before joining a multicast group, the rdma_cm_id must be " \
	"bound to an RDMA device by calling rdma_bind_addr or " \
	"rdma_resolve_addr."
#define DOC_NO_QP "Otherwise, the user is responsible for calling " \
	"ibv_attach_mcast to bind the QP to the multicast group."
#define DOC_EX "Joins a multicast group (MCG) with extended options."
#define DOC_SENDONLY "When \"Send Only Full Member\" is used the QP will " \
	"not be attached to the MCG."
#define DOC_NO_IGMP "Initiating a MC join as \"Send Only Full Member\" on " \
	"RoCEv2/ETH will not send any IGMP messages unlike a Full Member MC " \
	"join."
#define DOC_FLAG "join_flags; /* Use a single flag from " \
	"\"rdma_cm_mc_join_flags\" enum */"
#define DOC_MASK "comp_mask; /* Bitwise OR between " \
	"\"rdma_cm_join_mc_attr_mask\" enum */"
#define DOC_ERR "Returns 0 on success, or -1 on error."

enum mode { ARRIVES, CONTEXT, TWICE, UNBOUND, NO_QP, SENDONLY, NO_IGMP,
	    BAD_FLAG, BAD_MASK, NO_ADDRESS };

struct join_row {
	struct rc_case c;
	enum mode mode;
	int family;
	bool ex;
};

#define NEEDS (RC_NEED_DEVICE | RC_NEED_ROCE)

static const struct join_row rows[] = {
	{ .c = { .id = "rdmacm/join_multicast/ipv4-message-arrives",
		 .doc = DOC_JOIN, .basis = RC_BASIS_DOCUMENTED,
		 .note = "after the join event, one message to the group "
			 "reaches the QP, and the netdev is in the IPv4 group",
		 .needs = NEEDS, .contract = { RC_RETURNS(0) } },
	  .mode = ARRIVES, .family = AF_INET },
	{ .c = { .id = "rdmacm/join_multicast/ipv6-message-arrives",
		 .doc = DOC_JOIN, .basis = RC_BASIS_DOCUMENTED,
		 .note = "the same for an IPv6 group (Linux refuses these on "
			 "RoCE v2)", .needs = NEEDS, .contract = { RC_RETURNS(0) } },
	  .mode = ARRIVES, .family = AF_INET6 },
	{ .c = { .id = "rdmacm/join_multicast/context-in-event",
		 .doc = DOC_CONTEXT, .basis = RC_BASIS_DOCUMENTED,
		 .needs = NEEDS, .contract = { RC_RETURNS(0) } },
	  .mode = CONTEXT, .family = AF_INET },
	{ .c = { .id = "rdmacm/join_multicast/twice-one-copy", .doc = DOC_JOIN,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the same group joined twice on one id: the page is "
			 "silent on a second join, which may fail (-1); if it "
			 "succeeds, a message to the group still reaches the QP "
			 "once, as for a QP attached twice (ibv_attach_mcast(3))",
		 .needs = NEEDS,
		 .contract = { .ret = RC_RET_IN,
			     .value = 0, .alt = { -1, -1 } } },
	  .mode = TWICE, .family = AF_INET },
	{ .c = { .id = "rdmacm/join_multicast/id-without-qp", .doc = DOC_NO_QP,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a bound id with no QP joins: 0, and the join event "
			 "comes with status 0 (attaching is the caller's)",
		 .needs = NEEDS, .contract = { RC_RETURNS(0) } },
	  .mode = NO_QP, .family = AF_INET },
	{ .c = { .id = "rdmacm/join_multicast/id-not-bound", .doc = DOC_BOUND,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "an id bound to nothing cannot join: read as -1",
		 .needs = NEEDS, .contract = { RC_FAILS() } },
	  .mode = UNBOUND, .family = AF_INET },
};

static const struct join_row ex_rows[] = {
	{ .c = { .id = "rdmacm/join_multicast_ex/fullmember-message-arrives",
		 .doc = DOC_EX, .basis = RC_BASIS_DOCUMENTED,
		 .note = "RDMA_MC_JOIN_FLAG_FULLMEMBER: as rdma_join_multicast",
		 .needs = NEEDS, .contract = { RC_RETURNS(0) } },
	  .mode = ARRIVES, .family = AF_INET, .ex = true },
	{ .c = { .id = "rdmacm/join_multicast_ex/sendonly-not-attached",
		 .doc = DOC_SENDONLY, .basis = RC_BASIS_DOCUMENTED,
		 .note = "the join event comes; a message to the group does "
			 "not reach the QP", .needs = NEEDS, .contract = { RC_RETURNS(0) } },
	  .mode = SENDONLY, .family = AF_INET, .ex = true },
	{ .c = { .id = "rdmacm/join_multicast_ex/sendonly-no-igmp",
		 .doc = DOC_NO_IGMP, .basis = RC_BASIS_DOCUMENTED,
		 .note = "after the join event, the netdev is not in the IPv4 "
			 "group", .needs = NEEDS, .contract = { RC_RETURNS(0) } },
	  .mode = NO_IGMP, .family = AF_INET, .ex = true },
	{ .c = { .id = "rdmacm/join_multicast_ex/unknown-flag",
		 .doc = DOC_FLAG, .basis = RC_BASIS_DOCUMENTED,
		 .note = "join_flags RDMA_MC_JOIN_FLAG_RESERVED: -1",
		 .needs = NEEDS, .contract = { RC_FAILS() } },
	  .mode = BAD_FLAG, .family = AF_INET, .ex = true },
	{ .c = { .id = "rdmacm/join_multicast_ex/unknown-comp-mask-bit",
		 .doc = DOC_MASK, .basis = RC_BASIS_INTERPRETATION,
		 .note = "RDMA_CM_JOIN_MC_ATTR_RESERVED set: a field the page "
			 "does not have, read as -1", .needs = NEEDS,
		 .contract = { RC_FAILS() } },
	  .mode = BAD_MASK, .family = AF_INET, .ex = true },
	{ .c = { .id = "rdmacm/join_multicast_ex/no-address",
		 .doc = DOC_MASK, .basis = RC_BASIS_INTERPRETATION,
		 .note = "comp_mask without RDMA_CM_JOIN_MC_ATTR_ADDRESS: no "
			 "group to join, read as -1", .needs = NEEDS,
		 .contract = { RC_FAILS() } },
	  .mode = NO_ADDRESS, .family = AF_INET, .ex = true },
};

/* The call observed: rdma_join_multicast, or _ex with the row's attrs. */
static int call_join(struct rc_ctx *ctx, const struct join_row *row,
		     struct rdma_cm_id *id, struct sockaddr_storage *group)
{
	struct rdma_cm_join_mc_attr_ex a = {
		.comp_mask = RDMA_CM_JOIN_MC_ATTR_ADDRESS |
			     RDMA_CM_JOIN_MC_ATTR_JOIN_FLAGS,
		.join_flags = RDMA_MC_JOIN_FLAG_FULLMEMBER,
		.addr = (struct sockaddr *)group,
	};
	int ret;

	if (!row->ex) {
		RC_OBSERVE(ctx, ret = ctx->ops->rdma_join_multicast(id,
					(struct sockaddr *)group, group));
		return ret;
	}
	if (row->mode == SENDONLY || row->mode == NO_IGMP)
		a.join_flags = RDMA_MC_JOIN_FLAG_SENDONLY_FULLMEMBER;
	if (row->mode == BAD_FLAG)
		a.join_flags = RDMA_MC_JOIN_FLAG_RESERVED;
	if (row->mode == BAD_MASK)
		a.comp_mask |= RDMA_CM_JOIN_MC_ATTR_RESERVED;
	if (row->mode == NO_ADDRESS)
		a.comp_mask &= ~RDMA_CM_JOIN_MC_ATTR_ADDRESS;
	RC_OBSERVE(ctx, ret = ctx->ops->rdma_join_multicast_ex(id, &a, group));
	return ret;
}

/*
 * An id on its own channel with no QP: bound to nothing (UNBOUND), or to
 * the port's own address (NO_QP, whose join event must then come).
 */
static void run_bare_id(struct rc_ctx *ctx, const struct join_row *row,
			struct sockaddr_storage *group)
{
	const struct rc_ops *ops = ctx->ops;
	struct rdma_event_channel *ch = ops->rdma_create_event_channel();
	struct member m = { .ch = ch };
	struct sockaddr_storage own;
	struct rdma_cm_event *ev;
	int type;

	if (!ch || ops->rdma_create_id(ch, &m.id, NULL, RDMA_PS_UDP)) {
		mc_broken(ctx, "rdma_create_id");
		m.id = NULL;
		goto out;
	}
	if (row->mode == NO_QP &&
	    (!mc_own_addr(ctx, row->family, &own) ||
	     ops->rdma_bind_addr(m.id, (struct sockaddr *)&own))) {
		mc_broken(ctx, "rdma_bind_addr");
		goto out;
	}
	if (call_join(ctx, row, m.id, group) || row->mode != NO_QP)
		goto out;
	type = mc_next_event(ctx, &m, VRES_WAIT_MS, &ev);
	if (type != RDMA_CM_EVENT_MULTICAST_JOIN || ev->status)
		rc_obs_violation(ctx->obs, "event %d status %d after the join, "
				 "not MULTICAST_JOIN 0", type,
				 type < 0 ? 0 : ev->status);
	if (type >= 0)
		ops->rdma_ack_cm_event(ev);
out:
	if (m.id)
		ops->rdma_destroy_id(m.id);
	if (ch)
		ops->rdma_destroy_event_channel(ch);
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct join_row *row = r;
	const struct rc_ops *ops = ctx->ops;
	const char *ip = MC_GROUP_OF(ctx, row->family);
	struct sockaddr_storage group;
	static struct member m;
	struct rdma_cm_event *ev;
	struct vres sender = {};
	int type, got;
	bool full;

	if (!rc_need_call(ctx, row->ex ? (void *)ops->rdma_join_multicast_ex :
			  (void *)ops->rdma_join_multicast,
			  row->ex ? "rdma_join_multicast_ex" :
			  "rdma_join_multicast"))
		return;
	mc_addr_of(row->family, ip, 0, &group);
	if (row->mode == UNBOUND || row->mode == NO_QP) {
		run_bare_id(ctx, row, &group);
		return;
	}
	if (!member_open(ctx, &m, row->family) ||
	    !vres_open(ctx, &sender, IBV_QPT_UD))
		goto out;
	if (row->mode == TWICE && !member_join(ctx, &m, &group, false))
		goto out;
	if (call_join(ctx, row, m.id, &group)) {
		if (errno == KERNEL_ENOTSUPP)
			rc_obs_state(ctx->obs, RC_STATE_UNSUPPORTED, "the "
				     "kernel refuses this join on %s "
				     "(ENOTSUPP): no IPv6 groups on RoCE v2",
				     ctx->target->ca);
		goto out;
	}
	type = mc_next_event(ctx, &m, VRES_WAIT_MS, &ev);
	if (type != RDMA_CM_EVENT_MULTICAST_JOIN || ev->status) {
		rc_obs_violation(ctx->obs, "event %d status %d after the join, "
				 "not MULTICAST_JOIN 0", type,
				 type < 0 ? 0 : ev->status);
		goto out;
	}
	if (ev->param.ud.private_data != &group)
		rc_obs_violation(ctx->obs, "private_data of the join event is "
				 "not the join's context");
	m.group_ah = ev->param.ud.ah_attr;
	m.group_qkey = ev->param.ud.qkey;
	ops->rdma_ack_cm_event(ev);
	if (row->mode == CONTEXT)
		goto out;
	/* a full member's netdev joins the IP group; a send-only one's not */
	full = row->mode == ARRIVES || row->mode == TWICE;
	if (row->family == AF_INET && mc_igmp_member(ip) != full)
		rc_obs_violation(ctx->obs, "igmp: the netdev is %sin %s",
				 full ? "not " : "", ip);
	if (row->mode == NO_IGMP || !mc_send_to_group(ctx, &sender, &m))
		goto out;
	got = member_expect(ctx, &m, row->mode == SENDONLY ? 0 : 1);
	if (got != (row->mode == SENDONLY ? 0 : 1))
		rc_obs_violation(ctx->obs, "messages: %d of one sent to the "
				 "group reached the QP", got);
out:
	vres_close(&sender);
	member_close(ctx, &m);
}

static const struct rc_group group = {
	.call = "rdma_join_multicast", .conv = RC_CONV_M1_ERRNO,
	.lib = "rdmacm", .rows = rows,
	.row_size = sizeof(rows[0]), .nrows = ARRAY_SIZE(rows), .run = run,
};
RC_GROUP(group);

static const struct rc_group ex_group = {
	.call = "rdma_join_multicast_ex", .conv = RC_CONV_M1_ERRNO,
	.lib = "rdmacm", .rows = ex_rows,
	.row_size = sizeof(ex_rows[0]), .nrows = ARRAY_SIZE(ex_rows),
	.run = run,
};
RC_GROUP(ex_group);
