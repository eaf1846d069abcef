// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The members of a multicast group that the rdma_cm rows use. */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "rdmacm_member.h"
#include "../../harness/device.h"

void mc_addr_of(int family, const char *ip, int port,
		struct sockaddr_storage *ss)
{
	memset(ss, 0, sizeof(*ss));
	ss->ss_family = family;
	if (family == AF_INET) {
		struct sockaddr_in *a = (void *)ss;

		inet_pton(AF_INET, ip, &a->sin_addr);
		a->sin_port = htons(port);
	} else {
		struct sockaddr_in6 *a = (void *)ss;

		inet_pton(AF_INET6, ip, &a->sin6_addr);
		a->sin6_port = htons(port);
	}
}

bool mc_broken(struct rc_ctx *ctx, const char *what)
{
	if (ctx->obs->state != RC_STATE_BROKEN)
		rc_obs_state(ctx->obs, RC_STATE_BROKEN, "%s: %m", what);
	return false;
}

/* The port's own address of @family, from its GID. */
bool mc_own_addr(struct rc_ctx *ctx, int family, struct sockaddr_storage *ss)
{
	uint8_t gid[16];
	char ip[INET6_ADDRSTRLEN];

	if (rc_port_gid(ctx->target->ca, ctx->target->port,
			family == AF_INET ? RC_GID_IPV4 : RC_GID_IPV6, gid) < 0)
		return mc_broken(ctx, "no GID of the family on the port");
	inet_ntop(family, family == AF_INET ? gid + 12 : gid, ip, sizeof(ip));
	mc_addr_of(family, ip, 0, ss);
	return true;
}

bool member_open(struct rc_ctx *ctx, struct member *m, int family)
{
	const struct rc_ops *ops = ctx->ops;
	struct ibv_qp_init_attr qa = {
		.qp_type = IBV_QPT_UD,
		.cap = { .max_send_wr = 4,
			 .max_recv_wr = VRES_SLOTS,
			 .max_send_sge = 1,
			 .max_recv_sge = 1 },
	};
	struct ibv_recv_wr wr = {}, *bad;
	struct sockaddr_storage ss;
	struct ibv_sge sge;
	int i;

	memset(m, 0, sizeof(*m) - sizeof(m->buf));
	if (!mc_own_addr(ctx, family, &ss))
		return false;
	m->ch = ops->rdma_create_event_channel();
	if (!m->ch)
		return mc_broken(ctx, "rdma_create_event_channel");
	if (ops->rdma_create_id(m->ch, &m->id, m, RDMA_PS_UDP)) {
		m->id = NULL;
		return mc_broken(ctx, "rdma_create_id");
	}
	if (ops->rdma_bind_addr(m->id, (struct sockaddr *)&ss) || !m->id->verbs)
		return mc_broken(ctx, "rdma_bind_addr to the port's address");
	m->pd = ibv_alloc_pd(m->id->verbs);
	m->cq = m->pd ? ibv_create_cq(m->id->verbs, VRES_SLOTS, NULL, NULL, 0) :
			NULL;
	m->mr = m->cq ? ibv_reg_mr(m->pd, m->buf, sizeof(m->buf),
				   IBV_ACCESS_LOCAL_WRITE) :
			NULL;
	if (!m->mr)
		return mc_broken(ctx, "PD, CQ or MR");
	qa.send_cq = qa.recv_cq = m->cq;
	if (ops->rdma_create_qp(m->id, m->pd, &qa))
		return mc_broken(ctx, "rdma_create_qp");
	for (i = 0; i < VRES_SLOTS; i++) {
		sge.addr = (uintptr_t)(m->buf + i * VRES_SLOT);
		sge.length = VRES_SLOT;
		sge.lkey = m->mr->lkey;
		wr.wr_id = i;
		wr.sg_list = &sge;
		wr.num_sge = 1;
		if (ibv_post_recv(m->id->qp, &wr, &bad))
			return mc_broken(ctx, "ibv_post_recv");
	}
	return true;
}

void member_close(struct rc_ctx *ctx, struct member *m)
{
	const struct rc_ops *ops = ctx->ops;

	if (m->held)
		ops->rdma_ack_cm_event(m->held);
	m->held = NULL;
	if (m->id && m->id->qp)
		ops->rdma_destroy_qp(m->id);
	if (m->mr)
		ibv_dereg_mr(m->mr);
	if (m->cq)
		ibv_destroy_cq(m->cq);
	if (m->pd)
		ibv_dealloc_pd(m->pd);
	if (m->id)
		ops->rdma_destroy_id(m->id);
	if (m->ch)
		ops->rdma_destroy_event_channel(m->ch);
	m->id = NULL;
	m->ch = NULL;
}

/* The next event of the channel within @ms (scaled): its type, or -1. */
int mc_next_event(struct rc_ctx *ctx, struct member *m, int ms,
		  struct rdma_cm_event **ev)
{
	struct pollfd p = { .fd = m->ch->fd, .events = POLLIN };

	if (poll(&p, 1, rc_scaled_ms(ctx, ms)) != 1 ||
	    ctx->ops->rdma_get_cm_event(m->ch, ev))
		return -1;
	return (*ev)->event;
}

/* Join @group and take the join event; acknowledge it unless @hold. */
bool member_join(struct rc_ctx *ctx, struct member *m,
		 struct sockaddr_storage *group, bool hold)
{
	struct rdma_cm_event *ev;
	int type;

	if (ctx->ops->rdma_join_multicast(m->id, (struct sockaddr *)group,
					  group)) {
		/* the kernel's ENOTSUPP: no such join on this port */
		if (errno == KERNEL_ENOTSUPP) {
			rc_obs_state(
				ctx->obs, RC_STATE_UNSUPPORTED,
				"the kernel "
				"refuses this join on %s (ENOTSUPP): no IPv6 "
				"groups on RoCE v2",
				ctx->target->ca);
			return false;
		}
		return mc_broken(ctx, "rdma_join_multicast");
	}
	type = mc_next_event(ctx, m, VRES_WAIT_MS, &ev);
	if (type != RDMA_CM_EVENT_MULTICAST_JOIN || ev->status) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "join: event %d status "
			     "%d",
			     type, type < 0 ? 0 : ev->status);
		return false;
	}
	if (ev->param.ud.private_data != group)
		rc_obs_violation(ctx->obs, "the join event's private_data is "
					   "not the join's context");
	m->group_ah = ev->param.ud.ah_attr;
	m->group_qkey = ev->param.ud.qkey;
	if (!hold)
		ctx->ops->rdma_ack_cm_event(ev);
	else
		m->held = ev;
	return true;
}

/* How many receive completions @m gets within @ms (scaled). */
int member_count(struct rc_ctx *ctx, struct member *m, int ms)
{
	double deadline = rc_now_ms() + rc_scaled_ms(ctx, ms);
	struct ibv_wc wc;
	int n = 0;

	while (vres_poll_cq(m->cq, deadline, &wc) == 1)
		n += wc.opcode == IBV_WC_RECV;
	return n;
}

/* One message to @m's group from a QP of the harness. */
bool mc_send_to_group(struct rc_ctx *ctx, struct vres *sender, struct member *m)
{
	struct ibv_ah_attr a = m->group_ah;
	struct ibv_ah *ah;
	bool ok;

	a.port_num = sender->port;
	ah = ibv_create_ah(sender->pd, &a);
	if (!ah)
		return mc_broken(ctx, "AH to the group");
	sender->remote_qkey = m->group_qkey;
	ok = vres_send(ctx, sender, ah, 0xffffff, 0x6d);
	ibv_destroy_ah(ah);
	return ok || mc_broken(ctx, "send to the group");
}

const char *mc_group(const struct rc_ctx *ctx, enum mc_group g)
{
	/* a row is a process of its own */
	static char groups[3][INET6_ADDRSTRLEN];
	char *s = groups[g];

	if (g == MC_IPV6)
		snprintf(s, INET6_ADDRSTRLEN, "ff0e::db8:%x:7", ctx->slot);
	else
		snprintf(s, INET6_ADDRSTRLEN, "239.2.%u.%u", ctx->slot,
			 g == MC_IPV4 ? 3 : 4);
	return s;
}

/* Is the group @ip in /proc/net/igmp (the kernel's IPv4 memberships)? */
bool mc_igmp_member(const char *ip)
{
	char want[16], line[256];
	struct in_addr a;
	bool found = false;
	FILE *f;

	inet_pton(AF_INET, ip, &a);
	snprintf(want, sizeof(want), "%08X", a.s_addr);
	f = fopen("/proc/net/igmp", "re");
	while (f && fgets(line, sizeof(line), f))
		found |= strstr(line, want) != NULL;
	if (f)
		fclose(f);
	return found;
}

int member_expect(struct rc_ctx *ctx, struct member *m, int want)
{
	double deadline = rc_now_ms() + rc_scaled_ms(ctx, VRES_WAIT_MS);
	struct ibv_wc wc;
	int n = 0;

	while (n < want && vres_poll_cq(m->cq, deadline, &wc) == 1)
		n += wc.opcode == IBV_WC_RECV;
	/* then as long as a copy that must not come would take */
	return n + member_count(ctx, m, VRES_QUIET_MS);
}
