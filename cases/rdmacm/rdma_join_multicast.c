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

#define DOC_JOIN                                                    \
	"Joins a multicast group and attaches an associated QP to " \
	"the group."
#define DOC_CONTEXT                                             \
	"The join context is returned to the user through the " \
	"private_data field in the rdma_cm_event."
#define DOC_BOUND                                                   \
	"Before joining a multicast group, the rdma_cm_id must be " \
	"bound to an RDMA device by calling rdma_bind_addr or "     \
	"rdma_resolve_addr."
#define DOC_NO_QP                                         \
	"Otherwise, the user is responsible for calling " \
	"ibv_attach_mcast to bind the QP to the multicast group."
#define DOC_EX "Joins a multicast group (MCG) with extended options."
#define DOC_SENDONLY                                          \
	"When \"Send Only Full Member\" is used the QP will " \
	"not be attached to the MCG."
#define DOC_NO_IGMP                                                           \
	"Initiating a MC join as \"Send Only Full Member\" on "               \
	"RoCEv2/ETH will not send any IGMP messages unlike a Full Member MC " \
	"join."
#define DOC_FLAG                                 \
	"join_flags; /* Use a single flag from " \
	"\"rdma_cm_mc_join_flags\" enum */"
#define DOC_MASK                            \
	"comp_mask; /* Bitwise OR between " \
	"\"rdma_cm_join_mc_attr_mask\" enum */"
#define DOC_ERR "Returns 0 on success, or -1 on error."

struct join_row;
/* What a row does to join @group (the group of its family). */
typedef void join_check(const struct join_row *row, struct rc_ctx *ctx,
			struct sockaddr_storage *group);

struct join_row {
	struct rc_case c;
	join_check *check;
	int family;
	bool ex; /* rdma_join_multicast_ex, with these: */
	uint32_t comp_mask;
	uint32_t join_flags;
};

/* the attributes of a full member's rdma_join_multicast_ex */
#define EX_MASK (RDMA_CM_JOIN_MC_ATTR_ADDRESS | RDMA_CM_JOIN_MC_ATTR_JOIN_FLAGS)

static join_check message_arrives, context_in_event, second_join_one_copy,
	id_without_qp_joins, unbound_id_fails, sendonly_not_attached,
	sendonly_no_igmp, join_refused;

#define NEEDS (RC_NEED_DEVICE | RC_NEED_ROCE | RC_NEED_UD)

static const struct join_row rows[] = {
	{ .c = { .id = "rdmacm/join_multicast/ipv4-message-arrives",
		 .doc = DOC_JOIN,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "after the join event, one message to the group "
			 "reaches the QP, and the netdev is in the IPv4 group",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = message_arrives,
	  .family = AF_INET },
	{ .c = { .id = "rdmacm/join_multicast/ipv6-message-arrives",
		 .doc = DOC_JOIN,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the same for an IPv6 group (Linux refuses these on "
			 "RoCE v2)",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = message_arrives,
	  .family = AF_INET6 },
	{ .c = { .id = "rdmacm/join_multicast/context-in-event",
		 .doc = DOC_CONTEXT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = context_in_event,
	  .family = AF_INET },
	{ .c = { .id = "rdmacm/join_multicast/twice-one-copy",
		 .doc = DOC_JOIN,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the same group joined twice on one id: the page is "
			 "silent on a second join, which may fail (-1); if it "
			 "succeeds, a message to the group still reaches the QP "
			 "once, as for a QP attached twice (ibv_attach_mcast(3))",
		 .needs = NEEDS,
		 .contract = { .ret = RC_RET_IN,
			       .value = 0,
			       .alt = { -1, -1 } } },
	  .check = second_join_one_copy,
	  .family = AF_INET },
	{ .c = { .id = "rdmacm/join_multicast/id-without-qp",
		 .doc = DOC_NO_QP,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a bound id with no QP joins: 0, and the join event "
			 "comes with status 0 (attaching is the caller's)",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = id_without_qp_joins,
	  .family = AF_INET },
	{ .c = { .id = "rdmacm/join_multicast/id-not-bound",
		 .doc = DOC_BOUND,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "an id bound to nothing cannot join: read as -1",
		 .needs = NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = unbound_id_fails,
	  .family = AF_INET },
};

static const struct join_row ex_rows[] = {
	{ .c = { .id = "rdmacm/join_multicast_ex/fullmember-message-arrives",
		 .doc = DOC_EX,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "RDMA_MC_JOIN_FLAG_FULLMEMBER: as rdma_join_multicast",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = message_arrives,
	  .family = AF_INET,
	  .ex = true,
	  .comp_mask = EX_MASK },
	{ .c = { .id = "rdmacm/join_multicast_ex/sendonly-not-attached",
		 .doc = DOC_SENDONLY,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the join event comes; a message to the group does "
			 "not reach the QP",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = sendonly_not_attached,
	  .family = AF_INET,
	  .ex = true,
	  .comp_mask = EX_MASK,
	  .join_flags = RDMA_MC_JOIN_FLAG_SENDONLY_FULLMEMBER },
	{ .c = { .id = "rdmacm/join_multicast_ex/sendonly-no-igmp",
		 .doc = DOC_NO_IGMP,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "after the join event, the netdev is not in the IPv4 "
			 "group",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = sendonly_no_igmp,
	  .family = AF_INET,
	  .ex = true,
	  .comp_mask = EX_MASK,
	  .join_flags = RDMA_MC_JOIN_FLAG_SENDONLY_FULLMEMBER },
	{ .c = { .id = "rdmacm/join_multicast_ex/unknown-flag",
		 .doc = DOC_FLAG,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "join_flags RDMA_MC_JOIN_FLAG_RESERVED: -1",
		 .needs = NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = join_refused,
	  .family = AF_INET,
	  .ex = true,
	  .comp_mask = EX_MASK,
	  .join_flags = RDMA_MC_JOIN_FLAG_RESERVED },
	{ .c = { .id = "rdmacm/join_multicast_ex/unknown-comp-mask-bit",
		 .doc = DOC_MASK,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "RDMA_CM_JOIN_MC_ATTR_RESERVED set: a field the page "
			 "does not have, read as -1",
		 .needs = NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = join_refused,
	  .family = AF_INET,
	  .ex = true,
	  .comp_mask = EX_MASK | RDMA_CM_JOIN_MC_ATTR_RESERVED },
	{ .c = { .id = "rdmacm/join_multicast_ex/no-address",
		 .doc = DOC_MASK,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "comp_mask without RDMA_CM_JOIN_MC_ATTR_ADDRESS: no "
			 "group to join, read as -1",
		 .needs = NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = join_refused,
	  .family = AF_INET,
	  .ex = true,
	  .comp_mask = RDMA_CM_JOIN_MC_ATTR_JOIN_FLAGS },
	{ .c = { .id = "rdmacm/join_multicast_ex/no-join-flags-bit",
		 .doc = DOC_MASK,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "comp_mask without RDMA_CM_JOIN_MC_ATTR_JOIN_FLAGS "
			 "(join_flags a full member's): no join type given, "
			 "read as -1",
		 .needs = NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = join_refused,
	  .family = AF_INET,
	  .ex = true,
	  .comp_mask = RDMA_CM_JOIN_MC_ATTR_ADDRESS },
};

/* The call observed: rdma_join_multicast, or _ex with the row's attrs. */
static int call_join(struct rc_ctx *ctx, const struct join_row *row,
		     struct rdma_cm_id *id, struct sockaddr_storage *group)
{
	struct rdma_cm_join_mc_attr_ex a = {
		.comp_mask = row->comp_mask,
		.join_flags = row->join_flags,
		.addr = (struct sockaddr *)group,
	};
	int ret;

	if (!row->ex) {
		RC_OBSERVE(ctx, ret = ctx->ops->rdma_join_multicast(
					id, (struct sockaddr *)group, group));
		return ret;
	}
	RC_OBSERVE(ctx, ret = ctx->ops->rdma_join_multicast_ex(id, &a, group));
	return ret;
}

/*
 * An id on its own channel with no QP: bound to nothing, or (@bound) to
 * the port's own address, whose join event must then come.
 */
static void bare_id_joins(const struct join_row *row, struct rc_ctx *ctx,
			  struct sockaddr_storage *group, bool bound)
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
	if (bound && (!mc_own_addr(ctx, row->family, &own) ||
		      ops->rdma_bind_addr(m.id, (struct sockaddr *)&own))) {
		mc_broken(ctx, "rdma_bind_addr");
		goto out;
	}
	if (call_join(ctx, row, m.id, group) || !bound)
		goto out;
	type = mc_next_event(ctx, &m, VRES_WAIT_MS, &ev);
	if (type != RDMA_CM_EVENT_MULTICAST_JOIN || ev->status)
		rc_obs_violation(ctx->obs,
				 "event %d status %d after the join, "
				 "not MULTICAST_JOIN 0",
				 type, type < 0 ? 0 : ev->status);
	if (type >= 0)
		ops->rdma_ack_cm_event(ev);
out:
	if (m.id)
		ops->rdma_destroy_id(m.id);
	if (ch)
		ops->rdma_destroy_event_channel(ch);
}

static void unbound_id_fails(const struct join_row *row, struct rc_ctx *ctx,
			     struct sockaddr_storage *group)
{
	bare_id_joins(row, ctx, group, false);
}

static void id_without_qp_joins(const struct join_row *row, struct rc_ctx *ctx,
				struct sockaddr_storage *group)
{
	bare_id_joins(row, ctx, group, true);
}

/* A member of the group, and a QP of the harness's to send to it from. */
struct joiner {
	struct member *m;
	struct vres sender;
};

/* Open both; false (BROKEN) when either fails.  joiner_close in any
 * case. */
static bool joiner_open(const struct join_row *row, struct rc_ctx *ctx,
			struct joiner *j)
{
	static struct member m;

	j->m = &m;
	memset(&j->sender, 0, sizeof(j->sender));
	return member_open(ctx, j->m, row->family) &&
	       vres_open(ctx, &j->sender, IBV_QPT_UD);
}

static void joiner_close(struct rc_ctx *ctx, struct joiner *j)
{
	vres_close(&j->sender);
	member_close(ctx, j->m);
}

/* The call under test, then its event: the join's, with its context.
 * True when it came; its address and Q_Key are the member's then. */
static bool joined(const struct join_row *row, struct rc_ctx *ctx,
		   struct joiner *j, struct sockaddr_storage *group)
{
	struct rdma_cm_event *ev;
	int type;

	if (call_join(ctx, row, j->m->id, group)) {
		if (errno == KERNEL_ENOTSUPP)
			rc_obs_state(ctx->obs, RC_STATE_UNSUPPORTED,
				     "the "
				     "kernel refuses this join on %s "
				     "(ENOTSUPP): no IPv6 groups on RoCE v2",
				     ctx->target->ca);
		return false;
	}
	type = mc_next_event(ctx, j->m, VRES_WAIT_MS, &ev);
	if (type != RDMA_CM_EVENT_MULTICAST_JOIN || ev->status) {
		rc_obs_violation(ctx->obs,
				 "event %d status %d after the join, "
				 "not MULTICAST_JOIN 0",
				 type, type < 0 ? 0 : ev->status);
		return false;
	}
	if (ev->param.ud.private_data != group)
		rc_obs_violation(ctx->obs, "private_data of the join event is "
					   "not the join's context");
	j->m->group_ah = ev->param.ud.ah_attr;
	j->m->group_qkey = ev->param.ud.qkey;
	ctx->ops->rdma_ack_cm_event(ev);
	return true;
}

/* A full member's netdev joins the IPv4 group; a send-only one's not. */
static void expect_igmp(const struct join_row *row, struct rc_ctx *ctx,
			bool full)
{
	const char *ip = MC_GROUP_OF(ctx, row->family);

	if (row->family == AF_INET && mc_igmp_member(ip) != full)
		rc_obs_violation(ctx->obs, "igmp: the netdev is %sin %s",
				 full ? "not " : "", ip);
}

/* Of one message sent to the group, @want reach the QP. */
static void expect_messages(struct rc_ctx *ctx, struct joiner *j, int want)
{
	int got;

	if (!mc_send_to_group(ctx, &j->sender, j->m))
		return;
	got = member_expect(ctx, j->m, want);
	if (got != want)
		rc_obs_violation(ctx->obs,
				 "messages: %d of one sent to the "
				 "group reached the QP",
				 got);
}

/* Joined as a full member (after a first join, with @twice), the member
 * gets what the group is sent. */
static void full_member_gets(const struct join_row *row, struct rc_ctx *ctx,
			     struct sockaddr_storage *group, bool twice)
{
	struct joiner j;

	if (joiner_open(row, ctx, &j) &&
	    (!twice || member_join(ctx, j.m, group, false)) &&
	    joined(row, ctx, &j, group)) {
		expect_igmp(row, ctx, true);
		expect_messages(ctx, &j, 1);
	}
	joiner_close(ctx, &j);
}

static void message_arrives(const struct join_row *row, struct rc_ctx *ctx,
			    struct sockaddr_storage *group)
{
	full_member_gets(row, ctx, group, false);
}

static void second_join_one_copy(const struct join_row *row, struct rc_ctx *ctx,
				 struct sockaddr_storage *group)
{
	full_member_gets(row, ctx, group, true);
}

static void context_in_event(const struct join_row *row, struct rc_ctx *ctx,
			     struct sockaddr_storage *group)
{
	struct joiner j;

	if (joiner_open(row, ctx, &j))
		joined(row, ctx, &j, group);
	joiner_close(ctx, &j);
}

static void sendonly_not_attached(const struct join_row *row,
				  struct rc_ctx *ctx,
				  struct sockaddr_storage *group)
{
	struct joiner j;

	if (joiner_open(row, ctx, &j) && joined(row, ctx, &j, group)) {
		expect_igmp(row, ctx, false);
		expect_messages(ctx, &j, 0);
	}
	joiner_close(ctx, &j);
}

static void sendonly_no_igmp(const struct join_row *row, struct rc_ctx *ctx,
			     struct sockaddr_storage *group)
{
	struct joiner j;

	if (joiner_open(row, ctx, &j) && joined(row, ctx, &j, group))
		expect_igmp(row, ctx, false);
	joiner_close(ctx, &j);
}

/* Attributes the page does not allow: the call must fail.  Should it join
 * all the same, the row goes on: the netdev must not be in the IPv4
 * group, and the message must arrive. */
static void join_refused(const struct join_row *row, struct rc_ctx *ctx,
			 struct sockaddr_storage *group)
{
	struct joiner j;

	if (joiner_open(row, ctx, &j) && joined(row, ctx, &j, group)) {
		expect_igmp(row, ctx, false);
		expect_messages(ctx, &j, 1);
	}
	joiner_close(ctx, &j);
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct join_row *row = r;
	const struct rc_ops *ops = ctx->ops;
	struct sockaddr_storage group;

	if (!rc_need_call(ctx,
			  row->ex ? (void *)ops->rdma_join_multicast_ex :
				    (void *)ops->rdma_join_multicast,
			  row->ex ? "rdma_join_multicast_ex" :
				    "rdma_join_multicast"))
		return;
	mc_addr_of(row->family, MC_GROUP_OF(ctx, row->family), 0, &group);
	row->check(row, ctx, &group);
}

RC_TABLE_GROUP(group, "rdma_join_multicast", RC_CONV_M1_ERRNO, "rdmacm", rows,
	       run);

RC_TABLE_GROUP(ex_group, "rdma_join_multicast_ex", RC_CONV_M1_ERRNO, "rdmacm",
	       ex_rows, run);
