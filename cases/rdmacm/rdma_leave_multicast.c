// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_leave_multicast(3): "Leaves a multicast group and detaches an
 * associated QP from the group."  "Returns 0 on success, or -1 on error.
 * If an error occurs, errno will be set to indicate the failure reason."
 * NOTES: "Calling this function before a group has been fully joined
 * results in canceling the join operation.  Users should be aware that
 * messages received from the multicast group may stilled be queued for
 * completion processing immediately after leaving a multicast group.
 * Destroying an rdma_cm_id will automatically leave all multicast groups."
 *
 * Every row binds a UDP-port-space id to the port's own address, creates
 * its UD QP with rdma_create_qp, joins with rdma_join_multicast and takes
 * the join event (all through the implementation under test), and checks
 * delivery by sending to the group from a QP of its own (rdma-core) and
 * counting receive completions within a deadline: a message must arrive
 * before the leave, none after.  For IPv4 groups the port's netdev must
 * also leave the IP group (/proc/net/igmp).  IPv6 groups on RoCE get no
 * MLD join from the kernel; the rows join the IPv6 group on the netdev
 * themselves so that the IP stack delivers.
 *
 * destroy-id-leaves-all observes rdma_destroy_id; rdma_destroy_id's own
 * table below holds the same row again as that call's.
 */
#include <arpa/inet.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "rdmacm_member.h"

#define LEAVE_WATCHDOG_MS 4000

/*
 * What every row starts from: an id bound to the port's own address with
 * its UD QP (through the implementation), a QP of the harness's to send to
 * the group from, and the group of the row's family.
 */
struct leaver {
	struct member *m;
	struct member *m2; /* a second id, for the row that needs one */
	const char *ip; /* the group */
	struct sockaddr_storage group;
	struct vres sender;
};

struct leave_row;
typedef void leave_check(const struct leave_row *row, struct rc_ctx *ctx,
			 struct leaver *l);

struct leave_row {
	struct rc_case c;
	leave_check *check;
	int family;
};

static leave_check leaves_after_join, cancels_join, fails_never_joined,
	fails_other_group, fails_second_leave, fails_other_family,
	leaves_at_other_port, destroy_id_leaves_all, other_id_stays,
	leaves_unacked_join;

#define DOC_LEAVE                                                 \
	"Leaves a multicast group and detaches an associated QP " \
	"from the group."
#define DOC_ERR                                                       \
	"Returns 0 on success, or -1 on error.  If an error occurs, " \
	"errno will be set to indicate the failure reason."
#define DOC_CANCEL                                             \
	"Calling this function before a group has been fully " \
	"joined results in canceling the join operation."
#define DOC_DESTROY                                              \
	"Destroying an rdma_cm_id will automatically leave all " \
	"multicast groups."

#define NEEDS (RC_NEED_DEVICE | RC_NEED_ROCE | RC_NEED_UD)

static const struct leave_row rows[] = {
	{ .c = { .id = "rdmacm/leave_multicast/ipv4-after-join",
		 .doc = DOC_LEAVE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a message arrives before; none after, and the netdev "
			 "leaves the IPv4 group",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = leaves_after_join,
	  .family = AF_INET },
	{ .c = { .id = "rdmacm/leave_multicast/ipv6-after-join",
		 .doc = DOC_LEAVE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a message arrives before; none after",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = leaves_after_join,
	  .family = AF_INET6 },
	{ .c = { .id = "rdmacm/leave_multicast/before-join-completes",
		 .doc = DOC_CANCEL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "leave right after the join, before "
			 "its event is taken: no join event follows (the event seen, "
			 "if any, is the output)",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = cancels_join,
	  .family = AF_INET },
	{ .c = { .id = "rdmacm/leave_multicast/never-joined",
		 .doc = DOC_ERR,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "a group the id never joined: the page does not say "
			 "that this fails; read as an error, as there is nothing to "
			 "leave",
		 .needs = NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = fails_never_joined,
	  .family = AF_INET },
	{ .c = { .id = "rdmacm/leave_multicast/twice",
		 .doc = DOC_ERR,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the second leave: the group is no longer "
			 "joined, read as an error like a group never joined",
		 .needs = NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = fails_second_leave,
	  .family = AF_INET },
	{ .c = { .id = "rdmacm/leave_multicast/other-family",
		 .doc = DOC_ERR,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "joined the IPv4 group, leaving the IPv6 one: a group "
			 "never joined, read as an error",
		 .needs = NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = fails_other_family,
	  .family = AF_INET },
	{ .c = { .id = "rdmacm/leave_multicast/other-group-same-family",
		 .doc = DOC_ERR,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "joined the IPv4 group, leaving another IPv4 group: a "
			 "group never joined, read as an error; the group "
			 "joined still gets the next message to it",
		 .needs = NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = fails_other_group,
	  .family = AF_INET },
	{ .c = { .id = "rdmacm/leave_multicast/address-differs-in-port-only",
		 .doc = DOC_LEAVE,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "joined the IPv4 group port 0, leaving it at port "
			 "4791: an IP multicast group has no port, so "
			 "this is the group joined",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = leaves_at_other_port,
	  .family = AF_INET },
	{ .c = { .id = "rdmacm/leave_multicast/destroy-id-leaves-all",
		 .doc = DOC_DESTROY,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "two groups; after rdma_destroy_qp "
			 "and rdma_destroy_id (the call observed) the netdev is in "
			 "neither IPv4 group",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = destroy_id_leaves_all,
	  .family = AF_INET },
	{ .c = { .id = "rdmacm/leave_multicast/two-ids-one-leaves",
		 .doc = DOC_LEAVE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "two ids in one group: after one "
			 "leaves, the other still gets each message, the leaver none",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = other_id_stays,
	  .family = AF_INET },
	{ .c = { .id = "rdmacm/leave_multicast/join-event-not-acked",
		 .doc = DOC_LEAVE,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the join event is taken but not yet "
			 "acknowledged; nothing in the man pages makes leave wait "
			 "for it",
		 .needs = NEEDS,
		 .watchdog_ms = LEAVE_WATCHDOG_MS,
		 .contract = { RC_RETURNS(0) } },
	  .check = leaves_unacked_join,
	  .family = AF_INET },
};

/* The call under test on the first id, for the group at @addr. */
static void observe_leave(struct rc_ctx *ctx, struct leaver *l,
			  struct sockaddr_storage *addr)
{
	RC_OBSERVE(ctx, ctx->ops->rdma_leave_multicast(
				l->m->id, (struct sockaddr *)addr));
}

/* The group delivers before the leave, or the row proves nothing: a
 * message reaches the first id (and is taken off the second's QP). */
static bool delivers(struct rc_ctx *ctx, struct leaver *l)
{
	if (!mc_send_to_group(ctx, &l->sender, l->m))
		return false;
	if (member_count(ctx, l->m, VRES_QUIET_MS) != 1) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "a message to the "
			     "joined group did not arrive");
		return false;
	}
	if (l->m2->cq)
		member_count(ctx, l->m2, VRES_QUIET_MS);
	return true;
}

/* Joined the group (its event acknowledged unless @hold), delivering. */
static bool joined(struct rc_ctx *ctx, struct leaver *l, bool hold)
{
	return member_join(ctx, l->m, &l->group, hold) && delivers(ctx, l);
}

/*
 * After a leave that returned 0, a message to the group reaches the QP no
 * more, and the netdev leaves an IPv4 group, unless @stayed, an id still
 * in the group, gets it.
 */
static void left(const struct leave_row *row, struct rc_ctx *ctx,
		 struct leaver *l, struct member *stayed)
{
	if (ctx->obs->ret ||
	    !mc_send_to_group(ctx, &l->sender, stayed ? stayed : l->m))
		return;
	if (stayed && member_count(ctx, stayed, VRES_QUIET_MS) != 1)
		rc_obs_violation(ctx->obs, "the id that stayed got no copy");
	if (member_count(ctx, l->m, VRES_QUIET_MS))
		rc_obs_violation(ctx->obs, "a message sent after the leave "
					   "reached the QP");
	if (row->family == AF_INET && !stayed && mc_igmp_member(l->ip))
		rc_obs_violation(ctx->obs, "the netdev is still in %s", l->ip);
}

/* Joined (the event acknowledged unless @hold), the group left. */
static void leave_joined(const struct leave_row *row, struct rc_ctx *ctx,
			 struct leaver *l, bool hold)
{
	if (!joined(ctx, l, hold))
		return;
	observe_leave(ctx, l, &l->group);
	left(row, ctx, l, NULL);
}

static void leaves_after_join(const struct leave_row *row, struct rc_ctx *ctx,
			      struct leaver *l)
{
	leave_joined(row, ctx, l, false);
}

static void leaves_unacked_join(const struct leave_row *row, struct rc_ctx *ctx,
				struct leaver *l)
{
	leave_joined(row, ctx, l, true);
}

static void cancels_join(const struct leave_row *row, struct rc_ctx *ctx,
			 struct leaver *l)
{
	const struct rc_ops *ops = ctx->ops;
	struct rdma_cm_event *ev;
	int type;

	if (ops->rdma_join_multicast(l->m->id, (struct sockaddr *)&l->group,
				     NULL)) {
		mc_broken(ctx, "rdma_join_multicast");
		return;
	}
	observe_leave(ctx, l, &l->group);
	type = mc_next_event(ctx, l->m, VRES_QUIET_MS, &ev);
	if (type >= 0)
		ops->rdma_ack_cm_event(ev);
	rc_obs_out(ctx->obs, &type, sizeof(type));
	if (type == RDMA_CM_EVENT_MULTICAST_JOIN)
		rc_obs_violation(ctx->obs, "a join event came after the join "
					   "was cancelled");
}

static void fails_never_joined(const struct leave_row *row, struct rc_ctx *ctx,
			       struct leaver *l)
{
	observe_leave(ctx, l, &l->group);
}

static void fails_second_leave(const struct leave_row *row, struct rc_ctx *ctx,
			       struct leaver *l)
{
	if (!joined(ctx, l, false))
		return;
	ctx->ops->rdma_leave_multicast(l->m->id, (struct sockaddr *)&l->group);
	observe_leave(ctx, l, &l->group);
}

static void fails_other_family(const struct leave_row *row, struct rc_ctx *ctx,
			       struct leaver *l)
{
	struct sockaddr_storage other;

	if (!joined(ctx, l, false))
		return;
	mc_addr_of(AF_INET6, mc_group(ctx, MC_IPV6), 0, &other);
	observe_leave(ctx, l, &other);
	left(row, ctx, l, NULL);
}

static void fails_other_group(const struct leave_row *row, struct rc_ctx *ctx,
			      struct leaver *l)
{
	struct sockaddr_storage other;

	if (!joined(ctx, l, false))
		return;
	mc_addr_of(AF_INET, mc_group(ctx, MC_IPV4_OTHER), 0, &other);
	observe_leave(ctx, l, &other);
	/* a leave that went through is the contract's to judge */
	if (!ctx->obs->ret || !mc_send_to_group(ctx, &l->sender, l->m))
		return;
	if (member_count(ctx, l->m, VRES_QUIET_MS) != 1)
		rc_obs_violation(ctx->obs, "the group joined got no copy after "
					   "the failed leave of another");
}

static void leaves_at_other_port(const struct leave_row *row,
				 struct rc_ctx *ctx, struct leaver *l)
{
	struct sockaddr_storage other;

	if (!joined(ctx, l, false))
		return;
	mc_addr_of(AF_INET, l->ip, 4791, &other);
	observe_leave(ctx, l, &other);
	left(row, ctx, l, NULL);
}

static void destroy_id_leaves_all(const struct leave_row *row,
				  struct rc_ctx *ctx, struct leaver *l)
{
	struct sockaddr_storage other;

	if (!joined(ctx, l, false))
		return;
	mc_addr_of(AF_INET, mc_group(ctx, MC_IPV4_OTHER), 0, &other);
	if (!member_join(ctx, l->m, &other, false))
		return;
	ctx->ops->rdma_destroy_qp(l->m->id);
	RC_OBSERVE(ctx, ctx->ops->rdma_destroy_id(l->m->id));
	l->m->id = NULL;
	if (mc_igmp_member(l->ip) ||
	    mc_igmp_member(mc_group(ctx, MC_IPV4_OTHER)))
		rc_obs_violation(ctx->obs, "the netdev is still in a group of "
					   "the destroyed id");
}

static void other_id_stays(const struct leave_row *row, struct rc_ctx *ctx,
			   struct leaver *l)
{
	if (!member_join(ctx, l->m, &l->group, false) ||
	    !member_open(ctx, l->m2, row->family) ||
	    !member_join(ctx, l->m2, &l->group, false) || !delivers(ctx, l))
		return;
	observe_leave(ctx, l, &l->group);
	left(row, ctx, l, l->m2);
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct leave_row *row = r;
	const struct rc_ops *ops = ctx->ops;
	static struct member m, m2;
	struct leaver l = { .m = &m,
			    .m2 = &m2,
			    .ip = MC_GROUP_OF(ctx, row->family) };
	int join6 = -1;

	if (!rc_need_call(ctx, ops->rdma_leave_multicast,
			  "rdma_leave_multicast") ||
	    !rc_need_call(ctx, ops->rdma_join_multicast, "rdma_join_multicast"))
		return;
	mc_addr_of(row->family, l.ip, 0, &l.group);
	if (!member_open(ctx, &m, row->family) ||
	    !vres_open(ctx, &l.sender, IBV_QPT_UD))
		goto out;
	if (row->family == AF_INET6) {
		uint8_t mgid[16];

		inet_pton(AF_INET6, mc_group(ctx, MC_IPV6), mgid);
		join6 = vres_ip_join(ctx, ctx->target->ca, ctx->target->port,
				     l.sender.gid6, mgid);
		if (join6 < 0)
			goto out;
	}
	row->check(row, ctx, &l);
out:
	if (join6 >= 0)
		close(join6);
	member_close(ctx, &m2);
	member_close(ctx, &m);
	if (l.sender.ctx)
		vres_close(&l.sender);
}

RC_TABLE_GROUP(group, "rdma_leave_multicast", RC_CONV_M1_ERRNO, "rdmacm", rows,
	       run);

/*
 * The same, as a row of rdma_destroy_id, the call it observes: its
 * reference's leave of every group is judged by rdma_destroy_id's own
 * rows (run_srcmut.py judges a call by its rows alone).
 */
static const struct leave_row destroy_rows[] = {
	{ .c = { .id = "rdmacm/destroy_id/leaves-all-groups",
		 .doc = DOC_DESTROY,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "two groups joined, none left; after rdma_destroy_qp "
			 "and rdma_destroy_id the netdev is in neither IPv4 "
			 "group",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = destroy_id_leaves_all,
	  .family = AF_INET },
};

RC_TABLE_GROUP(destroy_group, "rdma_destroy_id", RC_CONV_M1_ERRNO, "rdmacm",
	       destroy_rows, run);
