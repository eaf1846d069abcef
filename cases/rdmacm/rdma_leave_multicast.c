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
 */
#include <arpa/inet.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "rdmacm_member.h"

#define LEAVE_WATCHDOG_MS 4000

enum mode { AFTER_JOIN, BEFORE_JOIN, NEVER, TWICE, OTHER_FAMILY, OTHER_PORT,
	    DESTROY_ID, TWO_IDS, UNACKED };

struct leave_row {
	struct rc_case c;
	enum mode mode;
	int family;
};

#define DOC_LEAVE "Leaves a multicast group and detaches an associated QP " \
	"from the group."
#define DOC_ERR "Returns 0 on success, or -1 on error.  If an error occurs, " \
	"errno will be set to indicate the failure reason."
#define DOC_CANCEL "Calling this function before a group has been fully " \
	"joined results in canceling the join operation."
#define DOC_DESTROY "Destroying an rdma_cm_id will automatically leave all " \
	"multicast groups."

#define NEEDS (RC_NEED_DEVICE | RC_NEED_ROCE)

static const struct leave_row rows[] = {
	{ .c = { .id = "rdmacm/leave_multicast/ipv4-after-join", .doc = DOC_LEAVE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a message arrives before; none after, and the netdev "
		 "leaves the IPv4 group", .needs = NEEDS, .contract = { RC_RETURNS(0) } },
	  .mode = AFTER_JOIN, .family = AF_INET },
	{ .c = { .id = "rdmacm/leave_multicast/ipv6-after-join", .doc = DOC_LEAVE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a message arrives before; none after", .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } }, .mode = AFTER_JOIN, .family = AF_INET6 },
	{ .c = { .id = "rdmacm/leave_multicast/before-join-completes",
		 .doc = DOC_CANCEL, .basis = RC_BASIS_DOCUMENTED,
		 .note = "leave right after the join, before "
		 "its event is taken: no join event follows (the event seen, "
		 "if any, is the output)", .needs = NEEDS, .contract = { RC_RETURNS(0) } },
	  .mode = BEFORE_JOIN, .family = AF_INET },
	{ .c = { .id = "rdmacm/leave_multicast/never-joined", .doc = DOC_ERR,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "a group the id never joined: the page does not say "
		 "that this fails; read as an error, as there is nothing to "
		 "leave", .needs = NEEDS, .contract = { RC_FAILS() } },
	  .mode = NEVER, .family = AF_INET },
	{ .c = { .id = "rdmacm/leave_multicast/twice", .doc = DOC_ERR,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the second leave: the group is no longer "
		 "joined, read as an error like a group never joined",
		 .needs = NEEDS,
		 .contract = { RC_FAILS() } }, .mode = TWICE, .family = AF_INET },
	{ .c = { .id = "rdmacm/leave_multicast/other-family", .doc = DOC_ERR,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "joined the IPv4 group, leaving the IPv6 one: a group "
		 "never joined, read as an error", .needs = NEEDS,
		 .contract = { RC_FAILS() } }, .mode = OTHER_FAMILY, .family = AF_INET },
	{ .c = { .id = "rdmacm/leave_multicast/address-differs-in-port-only",
		 .doc = DOC_LEAVE, .basis = RC_BASIS_INTERPRETATION,
		 .note = "joined the IPv4 group port 0, leaving it at port "
		 "4791: an IP multicast group has no port, so "
		 "this is the group joined", .needs = NEEDS, .contract = { RC_RETURNS(0) } },
	  .mode = OTHER_PORT, .family = AF_INET },
	{ .c = { .id = "rdmacm/leave_multicast/destroy-id-leaves-all",
		 .doc = DOC_DESTROY, .basis = RC_BASIS_DOCUMENTED,
		 .note = "two groups; after rdma_destroy_qp "
		 "and rdma_destroy_id (the call observed) the netdev is in "
		 "neither IPv4 group", .needs = NEEDS, .contract = { RC_RETURNS(0) } },
	  .mode = DESTROY_ID, .family = AF_INET },
	{ .c = { .id = "rdmacm/leave_multicast/two-ids-one-leaves",
		 .doc = DOC_LEAVE, .basis = RC_BASIS_DOCUMENTED,
		 .note = "two ids in one group: after one "
		 "leaves, the other still gets each message, the leaver none",
		 .needs = NEEDS, .contract = { RC_RETURNS(0) } },
	  .mode = TWO_IDS, .family = AF_INET },
	{ .c = { .id = "rdmacm/leave_multicast/join-event-not-acked",
		 .doc = DOC_LEAVE, .basis = RC_BASIS_INTERPRETATION,
		 .note = "the join event is taken but not yet "
		 "acknowledged; nothing in the man pages makes leave wait "
		 "for it", .needs = NEEDS, .watchdog_ms = LEAVE_WATCHDOG_MS,
		 .contract = { RC_RETURNS(0) } }, .mode = UNACKED, .family = AF_INET },
};

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct leave_row *row = r;
	const struct rc_ops *ops = ctx->ops;
	struct sockaddr_storage group, other;
	static struct member m, m2;
	struct rdma_cm_event *ev;
	const char *ip = MC_GROUP_OF(ctx, row->family);
	struct vres sender = {};
	int join6 = -1, type;

	if (!rc_need_call(ctx, ops->rdma_leave_multicast,
			  "rdma_leave_multicast") ||
	    !rc_need_call(ctx, ops->rdma_join_multicast, "rdma_join_multicast"))
		return;
	mc_addr_of(row->family, ip, 0, &group);
	if (!member_open(ctx, &m, row->family) ||
	    !vres_open(ctx, &sender, IBV_QPT_UD))
		goto out;
	if (row->family == AF_INET6) {
		uint8_t mgid[16];

		inet_pton(AF_INET6, mc_group(ctx, MC_IPV6), mgid);
		join6 = vres_ip_join(ctx, ctx->target->ca, ctx->target->port,
				     sender.gid6, mgid);
		if (join6 < 0)
			goto out;
	}
	switch (row->mode) {
	case NEVER:
		RC_OBSERVE(ctx, ops->rdma_leave_multicast(m.id,
					(struct sockaddr *)&group));
		goto out;
	case BEFORE_JOIN:
		if (ops->rdma_join_multicast(m.id, (struct sockaddr *)&group,
					     NULL)) {
			mc_broken(ctx, "rdma_join_multicast");
			goto out;
		}
		RC_OBSERVE(ctx, ops->rdma_leave_multicast(m.id,
					(struct sockaddr *)&group));
		type = mc_next_event(ctx, &m, VRES_QUIET_MS, &ev);
		if (type >= 0)
			ops->rdma_ack_cm_event(ev);
		rc_obs_out(ctx->obs, &type, sizeof(type));
		if (type == RDMA_CM_EVENT_MULTICAST_JOIN)
			rc_obs_violation(ctx->obs, "a join event came after "
					 "the join was cancelled");
		goto out;
	default:
		break;
	}
	if (!member_join(ctx, &m, &group, row->mode == UNACKED))
		goto out;
	if (row->mode == TWO_IDS &&
	    (!member_open(ctx, &m2, row->family) ||
	     !member_join(ctx, &m2, &group, false)))
		goto out;
	/* the group delivers before the leave, or the row proves nothing */
	if (!mc_send_to_group(ctx, &sender, &m))
		goto out;
	if (member_count(ctx, &m, VRES_QUIET_MS) != 1) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN, "a message to the "
			     "joined group did not arrive");
		goto out;
	}
	if (m2.cq)
		member_count(ctx, &m2, VRES_QUIET_MS);
	switch (row->mode) {
	case TWICE:
		ops->rdma_leave_multicast(m.id, (struct sockaddr *)&group);
		__attribute__((fallthrough));
	case AFTER_JOIN:
	case TWO_IDS:
	case UNACKED:
		RC_OBSERVE(ctx, ops->rdma_leave_multicast(m.id,
					(struct sockaddr *)&group));
		break;
	case OTHER_FAMILY:
		mc_addr_of(AF_INET6, mc_group(ctx, MC_IPV6), 0, &other);
		RC_OBSERVE(ctx, ops->rdma_leave_multicast(m.id,
					(struct sockaddr *)&other));
		break;
	case OTHER_PORT:
		mc_addr_of(AF_INET, ip, 4791, &other);
		RC_OBSERVE(ctx, ops->rdma_leave_multicast(m.id,
					(struct sockaddr *)&other));
		break;
	case DESTROY_ID:
		mc_addr_of(AF_INET, mc_group(ctx, MC_IPV4_OTHER), 0,
			   &other);
		if (!member_join(ctx, &m, &other, false))
			goto out;
		ops->rdma_destroy_qp(m.id);
		RC_OBSERVE(ctx, ops->rdma_destroy_id(m.id));
		m.id = NULL;
		if (mc_igmp_member(ip) ||
		    mc_igmp_member(mc_group(ctx, MC_IPV4_OTHER)))
			rc_obs_violation(ctx->obs, "the netdev is still in a "
					 "group of the destroyed id");
		goto out;
	default:
		break;
	}
	if (ctx->obs->ret || row->mode == TWICE)
		goto out;
	if (!mc_send_to_group(ctx, &sender, row->mode == TWO_IDS ? &m2 : &m))
		goto out;
	if (row->mode == TWO_IDS && member_count(ctx, &m2, VRES_QUIET_MS) != 1)
		rc_obs_violation(ctx->obs, "the id that stayed got no copy");
	if (member_count(ctx, &m, VRES_QUIET_MS))
		rc_obs_violation(ctx->obs, "a message sent after the leave "
				 "reached the QP");
	if (row->family == AF_INET && row->mode != TWO_IDS && mc_igmp_member(ip))
		rc_obs_violation(ctx->obs, "the netdev is still in %s", ip);
out:
	if (join6 >= 0)
		close(join6);
	member_close(ctx, &m2);
	member_close(ctx, &m);
	if (sender.ctx)
		vres_close(&sender);
}

static const struct rc_group group = {
	.call = "rdma_leave_multicast", .conv = RC_CONV_M1_ERRNO,
	.lib = "rdmacm", .rows = rows,
	.row_size = sizeof(rows[0]), .nrows = ARRAY_SIZE(rows), .run = run,
};
RC_GROUP(group);
