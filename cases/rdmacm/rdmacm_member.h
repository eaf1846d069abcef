/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Shared by the rdma_cm multicast rows (join and leave): a member of a
 * group is an rdma_cm_id bound to the port's own address, with a UD QP
 * whose receives are posted, made through the implementation under test;
 * the harness's own QP (verbs_res.h) sends to the group.
 */
#ifndef RDMACONF_CASES_RDMACM_MEMBER_H
#define RDMACONF_CASES_RDMACM_MEMBER_H

#include <sys/socket.h>
#include <rdma/rdma_cma.h>

#include "../verbs/verbs_res.h"

/*
 * The groups a row joins: 239.2.S.3, 239.2.S.4 and ff0e::db8:S:7 for the
 * run's pool slot S (rc_ctx.slot).  No two rows running at once share a
 * group, so the rows need not wait for each other.
 */
enum mc_group { MC_IPV4, MC_IPV4_OTHER, MC_IPV6 };
const char *mc_group(const struct rc_ctx *ctx, enum mc_group g);
#define MC_GROUP_OF(ctx, family) \
	mc_group(ctx, (family) == AF_INET ? MC_IPV4 : MC_IPV6)
/* Linux's ENOTSUPP (524): the kernel refuses a join it cannot do */
#define KERNEL_ENOTSUPP 524

/* One member of a group: an id with its UD QP, through the implementation. */
struct member {
	struct rdma_event_channel *ch;
	struct rdma_cm_id *id;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_mr *mr;
	/* an event member_join held: acknowledged before the id goes
	 * (rdma_get_cm_event(3): destroying the id waits for it) */
	struct rdma_cm_event *held;
	uint8_t buf[VRES_SLOTS * VRES_SLOT];
	struct ibv_ah_attr group_ah;
	uint32_t group_qkey;
};

void mc_addr_of(int family, const char *ip, int port,
		struct sockaddr_storage *ss);
/* Mark the row BROKEN (once) with @what and errno; false. */
bool mc_broken(struct rc_ctx *ctx, const char *what);
/* The port's own address of @family, from its GID. */
bool mc_own_addr(struct rc_ctx *ctx, int family, struct sockaddr_storage *ss);
bool member_open(struct rc_ctx *ctx, struct member *m, int family);
void member_close(struct rc_ctx *ctx, struct member *m);
/* The next event of the channel within @ms (scaled): its type, or -1. */
int mc_next_event(struct rc_ctx *ctx, struct member *m, int ms,
		  struct rdma_cm_event **ev);
/* Join @group and take the join event; acknowledge it unless @hold. */
bool member_join(struct rc_ctx *ctx, struct member *m,
		 struct sockaddr_storage *group, bool hold);
/* How many receive completions @m gets within @ms (scaled). */
int member_count(struct rc_ctx *ctx, struct member *m, int ms);
/* The same, for @want that must come: waits for them (VRES_WAIT_MS at
 * most), then VRES_QUIET_MS for any more, not the whole deadline. */
int member_expect(struct rc_ctx *ctx, struct member *m, int want);
/* One message to @m's group from a QP of the harness. */
bool mc_send_to_group(struct rc_ctx *ctx, struct vres *sender,
		      struct member *m);
/* Is the group @ip in /proc/net/igmp (the kernel's IPv4 memberships)? */
bool mc_igmp_member(const char *ip);

#endif
