/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the QP rows share (ibv_modify_qp.c, ibv_qp_states.c,
 * ibv_create_qp.c): the attributes ibv_modify_qp(3)'s tables require for
 * each transition, filled with values whose bytes are all distinct, and
 * the walk that puts a QP in a state through the implementation under
 * test.
 */
#ifndef RDMACONF_CASES_VERBS_QP_H
#define RDMACONF_CASES_VERBS_QP_H

#include "verbs_ladder.h"

/* the values a transition sets: bytes all distinct where the domain
 * allows (pkey_index 0 and the port are what the port has) */
#define VQ_QKEY 0x11223344u
#define VQ_DEST_QPN 0x5a6b7cu
#define VQ_RQ_PSN 0x123456u
#define VQ_SQ_PSN 0x654321u
#define VQ_MTU IBV_MTU_1024
/* powers of two: a device may round the others up */
#define VQ_MAX_DEST_RD_ATOMIC 4
#define VQ_MAX_RD_ATOMIC 2
#define VQ_MIN_RNR_TIMER 12
#define VQ_TIMEOUT 14
#define VQ_RETRY_CNT 6
#define VQ_RNR_RETRY 5
#define VQ_TRAFFIC_CLASS 0x28
#define VQ_FLOW_LABEL 0x3c2d1u
#define VQ_HOP_LIMIT 0x2d
#define VQ_RATE_LIMIT 0x1a2b3cu
/* what a query's out-structs hold before the call: a field it does not
 * write reads as this, never as the 0 that was set */
#define VQ_POISON 0xa5

/*
 * The attributes the kernel's qp_state_table (drivers/infiniband/core/
 * verbs.c) requires from @from to @to for @type, IBV_QP_STATE aside: for
 * RESET to INIT, INIT to RTR and RTR to RTS ibv_modify_qp(3)'s tables,
 * for every other transition none.
 */
int vq_required(enum ibv_qp_type type, enum ibv_qp_state from,
		enum ibv_qp_state to);
/* The attributes a QP of @type enters @to with on the tables' path
 * (RESET, INIT, RTR, RTS), IBV_QP_STATE aside; 0 for other states. */
int vq_entry(enum ibv_qp_type type, enum ibv_qp_state to);
/* Fill @a with the values above for every attribute of @mask, and
 * qp_state @to; the AV is a loopback to the target port's IPv6 GID. */
void vq_fill(struct rc_ctx *ctx, struct ibv_qp_attr *a, int mask,
	     enum ibv_qp_state to);
/* Put @l's QP (in RESET) in @state through the implementation under test:
 * RESET, INIT, RTR, RTS along the tables, SQD from RTS (and drained),
 * ERR from INIT.
 * BROKEN, naming the transition, when it is refused. */
bool vq_walk(struct rc_ctx *ctx, struct vl *l, enum ibv_qp_state state);
/* ibv_modify_qp of @qp with @a and @mask through the implementation under
 * test, a set-up step from @from to a->qp_state; BROKEN, naming the
 * transition and then @with (" with ...", or ""), when it is refused. */
bool vq_set(struct rc_ctx *ctx, struct ibv_qp *qp, struct ibv_qp_attr *a,
	    int mask, enum ibv_qp_state from, const char *with);
/* Query @qp (every attribute) into @a and @init filled with VQ_POISON;
 * BROKEN when the query fails. */
bool vq_query(struct rc_ctx *ctx, struct ibv_qp *qp, struct ibv_qp_attr *a,
	      struct ibv_qp_init_attr *init);
/* Compare what @got reads back with what @want set, for every attribute
 * of @mask and the state; a violation per field that differs.  The AV's
 * hop_limit is not compared: on RoCE the kernel sets the route's
 * (ibv_query_qp's av-hop-limit-link-local row shows it). */
void vq_check_attrs(struct rc_ctx *ctx, const struct ibv_qp_attr *want,
		    const struct ibv_qp_attr *got, int mask);
/* "RESET", "INIT" ... */
const char *vq_state_name(int state);

/* What a modify row passes besides IBV_QP_STATE and qp_state @to. */
enum vq_attrs {
	VQ_REQUIRED, /* what @from to @to requires (vq_required) */
	VQ_ENTRY, /* what @to is entered with on the tables' path */
};

/*
 * A row of ibv_modify_qp: a QP of @type walked to @from (vq_walk), then
 * moved to @to with @attrs, less @drop, and @add.  @cur_sqe: the QP is
 * walked to RTS and the call says IBV_QP_CUR_STATE with cur_qp_state
 * SQE ("Assume this is the current QP state"): no call puts a QP in SQE.
 * After the call a query reads back the state and every attribute set;
 * after a failure, every attribute as it was before.  @decoy_state and
 * @state_field as their comments say.
 */
struct vq_row {
	struct rc_case c;
	enum ibv_qp_type type;
	enum ibv_qp_state from, to;
	enum vq_attrs attrs;
	int drop, add;
	bool cur_sqe;
	/* qp_state ERR in attr though the mask lacks IBV_QP_STATE: a value
	 * the call must not act on */
	bool decoy_state;
	/* struct ibv_qp's state right after the call: the state it moved the
	 * QP to, or after a failure the one it was in */
	bool state_field;
};

void vq_run_modify(const void *row, struct rc_ctx *ctx);

#endif
