// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_modify_qp(3): the attributes of a transition.  "The following
 * tables indicate for each QP Transport Service Type, the minimum list of
 * attributes that must be changed upon transitioning QP state from: Reset
 * --> Init --> RTR --> RTS."  NOTES: "If any of the modify attributes or
 * the modify mask are invalid, none of the attributes will be modified
 * (including the QP state)."  The pairs of states themselves are
 * ibv_qp_states.c's.
 *
 * After every call a query reads back the state and the attributes: what
 * was set after a success, everything as it was after a failure.
 * - each required attribute of the tables' nine transitions (RC, UC, UD),
 *   IBV_QP_STATE included, left out of the mask: an errno value
 *   (documented: the list is the minimum); but UD's INIT to RTR without
 *   IBV_QP_STATE is attr_mask 0, INIT to INIT: 0 and the QP in INIT
 *   (linux)
 * - one attribute the transition does not allow added (the page calls
 *   the list a minimum; the kernel's qp_state_table says what else is
 *   allowed): an errno value (linux)
 * - IBV_QP_PATH_MIG_STATE, which that table allows RC and UC from RTR to
 *   RTS and RC from RTS to RTS, added with IBV_MIG_REARM: 0, and the
 *   query reads REARM back, not the MIGRATED a QP starts with (linux)
 * - IBV_QP_RATE_LIMIT on an RC QP in RTS, which that table allows only
 *   raw packet QPs: EINVAL, or EOPNOTSUPP from a driver that takes no
 *   attribute beyond the standard ones (linux)
 * - qp_state ERR in attr, the mask without IBV_QP_STATE: the QP stays
 *   in RTS (documented: "according to the mask")
 * - struct ibv_qp's state after a transition and after a refused one
 *   (interpretation: verbs.h makes it public, no page names it)
 * - attr_mask 0 on a QP in INIT: 0, and the QP in INIT (documented: "0
 *   or the bitwise OR"; INIT to INIT allows it); on a QP in RTR, which
 *   has no RTR to RTR: an errno value (linux)
 * - a mask bit that is none of the flags: an errno value (interpretation:
 *   an invalid mask)
 * - qp_state 7, no state: EINVAL (linux: the kernel's uverbs MODIFY_QP
 *   refuses a state beyond IB_QPS_ERR with EINVAL)
 */
#include <errno.h>

#include "verbs_qp.h"

#define DOC_TABLES                                                           \
	"The following tables indicate for each QP Transport Service Type, " \
	"the minimum list of attributes that must be changed upon "          \
	"transitioning QP state from: Reset --> Init --> RTR --> RTS."
#define DOC_INVALID                                                        \
	"If any of the modify attributes or the modify mask are invalid, " \
	"none of the attributes will be modified (including the QP state)."
#define DOC_MODIFIES                                                            \
	"ibv_modify_qp() modifies the attributes of QP qp with the attributes " \
	"in attr according to the mask attr_mask."
#define DOC_MASK                                                \
	"The argument is either 0 or the bitwise OR of one or " \
	"more of the following flags:"

/* the page's line for a mask flag, as man renders it */
#define DOC_SET(bit, field) "IBV_QP_" #bit " Set " field

#define QPT_rc IBV_QPT_RC
#define QPT_uc IBV_QPT_UC
#define QPT_ud IBV_QPT_UD
#define NEEDS_rc (RC_NEED_DEVICE | RC_NEED_CA)
#define NEEDS_uc (RC_NEED_DEVICE | RC_NEED_CA)
#define NEEDS_ud (RC_NEED_DEVICE | RC_NEED_CA | RC_NEED_UD)
#define QPS_reset IBV_QPS_RESET
#define QPS_init IBV_QPS_INIT
#define QPS_rtr IBV_QPS_RTR
#define QPS_rts IBV_QPS_RTS

/* @t from @f to @nx without the required attribute IBV_QP_@bit */
#define DROP(t, f, nx, bit, name)                                        \
	{                                                                \
		.c = { .id = "verbs/modify_qp/" #t "-" #f "-to-" #nx     \
			     "-without-" name,                           \
		       .doc = DOC_TABLES,                                \
		       .basis = RC_BASIS_DOCUMENTED,                     \
		       .note = #f                                        \
		       " to " #nx " with the table's attributes but "    \
		       "IBV_QP_" #bit ": an errno value, and the QP as " \
		       "it was",                                         \
		       .needs = NEEDS_##t,                               \
		       .contract = { RC_FAILS() } },                     \
		.type = QPT_##t, .from = QPS_##f, .to = QPS_##nx,        \
		.attrs = VQ_REQUIRED, .drop = IBV_QP_##bit               \
	}

/* @t from @f to @nx with IBV_QP_@bit, which the transition does not
 * allow, beside its required attributes */
#define ADD(t, f, nx, bit, name)                                          \
	{                                                                 \
		.c = { .id = "verbs/modify_qp/" #t "-" #f "-to-" #nx      \
			     "-with-" name,                               \
		       .doc = DOC_INVALID,                                \
		       .basis = RC_BASIS_LINUX,                           \
		       .note = #f                                         \
		       " to " #nx " with its attributes and IBV_QP_" #bit \
		       ", which the kernel's qp_state_table neither "     \
		       "requires nor allows there (the page's list is a " \
		       "minimum): an errno value, and the QP as it was",  \
		       .needs = NEEDS_##t,                                \
		       .contract = { RC_FAILS() } },                      \
		.type = QPT_##t, .from = QPS_##f, .to = QPS_##nx,         \
		.attrs = VQ_REQUIRED, .add = IBV_QP_##bit                 \
	}

/* @t from @f to @nx with IBV_QP_@bit (its page line names @field),
 * which the kernel's qp_state_table allows there beside the required ones (the page's list is a minimum):
 * it succeeds, and the query reads the value back (vq_run_modify) */
#define OPT(t, f, nx, bit, field, name)                                      \
	{                                                                    \
		.c = { .id = "verbs/modify_qp/" #t "-" #f "-to-" #nx         \
			     "-optional-" name,                              \
		       .doc = DOC_SET(bit, field),                           \
		       .basis = RC_BASIS_LINUX,                              \
		       .note = #f " to " #nx " with its attributes and "     \
				  "IBV_QP_" #bit ", which the kernel's "     \
				  "qp_state_table allows there: 0, and the " \
				  "query reads back the value set (not the " \
				  "default) beside every other attribute",   \
		       .needs = NEEDS_##t,                                   \
		       .contract = { RC_RETURNS(0) } },                      \
		.type = QPT_##t, .from = QPS_##f, .to = QPS_##nx,            \
		.attrs = VQ_REQUIRED, .add = IBV_QP_##bit                    \
	}

/* @t from @f with @nx's required attributes but IBV_QP_STATE: no
 * transition at all, a modify in the current state, which the kernel's
 * qp_state_table gives no such attribute (the page's tables list only
 * transitions) */
#define DROP_STATE(t, f, nx)                                                 \
	{                                                                    \
		.c = { .id = "verbs/modify_qp/" #t "-" #f "-to-" #nx         \
			     "-without-state",                               \
		       .doc = DOC_INVALID,                                   \
		       .basis = RC_BASIS_LINUX,                              \
		       .note = #nx "'s attributes without IBV_QP_STATE: a "  \
				   "modify in " #f ", where the kernel's "   \
				   "qp_state_table allows none of them: an " \
				   "errno value, and the QP as it was",      \
		       .needs = NEEDS_##t,                                   \
		       .contract = { RC_FAILS() } },                         \
		.type = QPT_##t, .from = QPS_##f, .to = QPS_##nx,            \
		.attrs = VQ_REQUIRED, .drop = IBV_QP_STATE                   \
	}

#define WITHOUT_INIT(t, key, kname)                             \
	DROP_STATE(t, reset, init),                             \
		DROP(t, reset, init, PKEY_INDEX, "pkey-index"), \
		DROP(t, reset, init, PORT, "port"),             \
		DROP(t, reset, init, key, kname)
#define WITHOUT_RTR(t)                                          \
	DROP_STATE(t, init, rtr), DROP(t, init, rtr, AV, "av"), \
		DROP(t, init, rtr, PATH_MTU, "path-mtu"),       \
		DROP(t, init, rtr, DEST_QPN, "dest-qpn"),       \
		DROP(t, init, rtr, RQ_PSN, "rq-psn")
#define WITHOUT_RTS(t) \
	DROP_STATE(t, rtr, rts), DROP(t, rtr, rts, SQ_PSN, "sq-psn")

static const struct vq_row rows[] = {
	/* the tables' required attributes, each left out */
	WITHOUT_INIT(rc, ACCESS_FLAGS, "access-flags"),
	WITHOUT_RTR(rc),
	DROP(rc, init, rtr, MAX_DEST_RD_ATOMIC, "max-dest-rd-atomic"),
	DROP(rc, init, rtr, MIN_RNR_TIMER, "min-rnr-timer"),
	WITHOUT_RTS(rc),
	DROP(rc, rtr, rts, MAX_QP_RD_ATOMIC, "max-qp-rd-atomic"),
	DROP(rc, rtr, rts, RETRY_CNT, "retry-cnt"),
	DROP(rc, rtr, rts, RNR_RETRY, "rnr-retry"),
	DROP(rc, rtr, rts, TIMEOUT, "timeout"),
	WITHOUT_INIT(uc, ACCESS_FLAGS, "access-flags"),
	WITHOUT_RTR(uc),
	WITHOUT_RTS(uc),
	WITHOUT_INIT(ud, QKEY, "qkey"),
	WITHOUT_RTS(ud),
	{ .c = { .id = "verbs/modify_qp/ud-init-to-rtr-without-state",
		 .doc = DOC_MASK,
		 .basis = RC_BASIS_LINUX,
		 .note = "UD's INIT to RTR requires IBV_QP_STATE alone: "
			 "without it attr_mask is 0, INIT to INIT, which the "
			 "kernel's qp_state_table allows: 0, and the QP still "
			 "in INIT, not RTR",
		 .needs = NEEDS_ud,
		 .contract = { RC_RETURNS(0) } },
	  .type = IBV_QPT_UD,
	  .from = IBV_QPS_INIT,
	  .to = IBV_QPS_RTR,
	  .attrs = VQ_REQUIRED,
	  .drop = IBV_QP_STATE },
	/* an attribute the transition does not allow */
	ADD(rc, reset, init, SQ_PSN, "sq-psn"),
	ADD(uc, reset, init, SQ_PSN, "sq-psn"),
	ADD(ud, reset, init, ACCESS_FLAGS, "access-flags"),
	ADD(rc, init, rtr, SQ_PSN, "sq-psn"),
	ADD(uc, init, rtr, MAX_DEST_RD_ATOMIC, "max-dest-rd-atomic"),
	ADD(ud, init, rtr, DEST_QPN, "dest-qpn"),
	ADD(rc, rtr, rts, PATH_MTU, "path-mtu"),
	ADD(uc, rtr, rts, MAX_QP_RD_ATOMIC, "max-qp-rd-atomic"),
	ADD(ud, rtr, rts, DEST_QPN, "dest-qpn"),
	ADD(rc, rts, rts, QKEY, "qkey"),
	{ .c = { .id = "verbs/modify_qp/rc-rts-to-rts-with-rate-limit",
		 .doc = DOC_INVALID,
		 .basis = RC_BASIS_LINUX,
		 .note = "RTS to RTS with IBV_QP_RATE_LIMIT, rate_limit "
			 "0x1a2b3c: the kernel's qp_state_table allows it "
			 "only to a raw packet QP: EINVAL where a driver "
			 "checks that table, EOPNOTSUPP where it takes no "
			 "attribute beyond IB_QP_ATTR_STANDARD_BITS (rxe); "
			 "the QP as it was",
		 .needs = NEEDS_rc,
		 .contract = { RC_FAILS(EINVAL, EOPNOTSUPP) } },
	  .type = IBV_QPT_RC,
	  .from = IBV_QPS_RTS,
	  .to = IBV_QPS_RTS,
	  .attrs = VQ_REQUIRED,
	  .add = IBV_QP_RATE_LIMIT },
	/* an attribute the transition allows beside the required ones */
	OPT(rc, rtr, rts, PATH_MIG_STATE, "path_mig_state", "path-mig-state"),
	OPT(uc, rtr, rts, PATH_MIG_STATE, "path_mig_state", "path-mig-state"),
	OPT(rc, rts, rts, PATH_MIG_STATE, "path_mig_state", "path-mig-state"),
	/* the mask */
	{ .c = { .id = "verbs/modify_qp/rc-rts-state-outside-the-mask",
		 .doc = DOC_MODIFIES,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a QP in RTS, attr_mask IBV_QP_MIN_RNR_TIMER alone "
			 "(RTS to RTS allows it) and qp_state ERR in attr: 0, "
			 "min_rnr_timer set, and the QP still in RTS, as "
			 "struct ibv_qp's state says",
		 .needs = NEEDS_rc,
		 .contract = { RC_RETURNS(0) } },
	  .type = IBV_QPT_RC,
	  .from = IBV_QPS_RTS,
	  .to = IBV_QPS_RTS,
	  .attrs = VQ_REQUIRED,
	  .drop = IBV_QP_STATE,
	  .add = IBV_QP_MIN_RNR_TIMER,
	  .decoy_state = true,
	  .state_field = true },
	{ .c = { .id = "verbs/modify_qp/rc-qp-state-field-follows",
		 .doc = DOC_MODIFIES,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "INIT to RTR: struct ibv_qp's state, which verbs.h "
			 "gives the caller and the page does not name, reads "
			 "RTR right after the call (read as the QP's state "
			 "the library keeps)",
		 .needs = NEEDS_rc,
		 .contract = { RC_RETURNS(0) } },
	  .type = IBV_QPT_RC,
	  .from = IBV_QPS_INIT,
	  .to = IBV_QPS_RTR,
	  .attrs = VQ_REQUIRED,
	  .state_field = true },
	{ .c = { .id = "verbs/modify_qp/rc-qp-state-field-after-failure",
		 .doc = DOC_INVALID,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "INIT to RTR without IBV_QP_DEST_QPN: an errno "
			 "value, and struct ibv_qp's state still INIT (the "
			 "state is none of the attributes modified)",
		 .needs = NEEDS_rc,
		 .contract = { RC_FAILS() } },
	  .type = IBV_QPT_RC,
	  .from = IBV_QPS_INIT,
	  .to = IBV_QPS_RTR,
	  .attrs = VQ_REQUIRED,
	  .drop = IBV_QP_DEST_QPN,
	  .state_field = true },
	{ .c = { .id = "verbs/modify_qp/rc-init-mask-0",
		 .doc = DOC_MASK,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "attr_mask 0 on a QP in INIT (INIT to INIT allows "
			 "no attribute at all): 0, the QP in INIT",
		 .needs = NEEDS_rc,
		 .contract = { RC_RETURNS(0) } },
	  .type = IBV_QPT_RC,
	  .from = IBV_QPS_INIT,
	  .to = IBV_QPS_INIT,
	  .attrs = VQ_REQUIRED,
	  .drop = IBV_QP_STATE },
	{ .c = { .id = "verbs/modify_qp/rc-rtr-mask-0",
		 .doc = DOC_INVALID,
		 .basis = RC_BASIS_LINUX,
		 .note = "attr_mask 0 on a QP in RTR: RTR to RTR is no "
			 "transition of the kernel's qp_state_table: an errno "
			 "value, the QP in RTR",
		 .needs = NEEDS_rc,
		 .contract = { RC_FAILS() } },
	  .type = IBV_QPT_RC,
	  .from = IBV_QPS_RTR,
	  .to = IBV_QPS_RTR,
	  .attrs = VQ_REQUIRED,
	  .drop = IBV_QP_STATE },
	{ .c = { .id = "verbs/modify_qp/rc-init-unknown-mask-bit",
		 .doc = DOC_MASK,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "INIT to INIT with bit 30, none of the flags: an "
			 "invalid mask, an errno value, the QP as it was",
		 .needs = NEEDS_rc,
		 .contract = { RC_FAILS() } },
	  .type = IBV_QPT_RC,
	  .from = IBV_QPS_INIT,
	  .to = IBV_QPS_INIT,
	  .attrs = VQ_REQUIRED,
	  .add = 1 << 30 },
	{ .c = { .id = "verbs/modify_qp/rc-state-7",
		 .doc = DOC_INVALID,
		 .basis = RC_BASIS_LINUX,
		 .note = "qp_state 7, beyond IBV_QPS_ERR, from INIT: EINVAL "
			 "is the kernel's (uverbs MODIFY_QP refuses a state "
			 "beyond IB_QPS_ERR), the QP as it was",
		 .needs = NEEDS_rc,
		 .contract = { RC_FAILS(EINVAL) } },
	  .type = IBV_QPT_RC,
	  .from = IBV_QPS_INIT,
	  .to = (enum ibv_qp_state)7,
	  .attrs = VQ_ENTRY },
};

RC_TABLE_GROUP(group, "ibv_modify_qp", RC_CONV_ERRNO_RET, "verbs", rows,
	       vq_run_modify);
