// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_modify_qp(3)'s state machine: every (from, to) pair of the seven
 * QP states, for RC, UC and UD QPs, from one table (PAIRS).
 *
 * The page's tables give "the minimum list of attributes that must be
 * changed upon transitioning QP state from: Reset --> Init --> RTR -->
 * RTS" for each type; they are silent on every other pair.  Those are
 * the kernel's: its qp_state_table (drivers/infiniband/core/verbs.c),
 * checked by ib_modify_qp_is_ok, which every IB-transport driver calls
 * (rxe in rxe_qp_chk_attr), says which pairs are transitions and what
 * each requires and allows.  Since Linux 5.x RESET to ERR is none.
 *
 * - the tables' three transitions, with exactly their required
 *   attributes: 0, and a query reads back the state and every attribute
 *   set (documented)
 * - every other transition of the kernel's table (any state to RESET,
 *   any but RESET to ERR, INIT to INIT, RTS to RTS, RTS to SQD, SQD to
 *   RTS, SQD to SQD): IBV_QP_STATE alone, 0, the state reads back (linux)
 * - every other pair, with the attributes its target is entered with on
 *   the tables' path: an errno value, and every attribute and the state
 *   as they were ("none of the attributes will be modified (including the
 *   QP state)"; linux: which pairs are none is the kernel's)
 * - from SQE: no call puts a QP in SQE (the device does, on a send error
 *   of a UD or UC QP), so the QP is in RTS and the call says
 *   IBV_QP_CUR_STATE with cur_qp_state SQE, which the kernel takes as the
 *   state it checks the pair from; it allows IBV_QP_CUR_STATE only where
 *   its table lists it, SQE to RTS for UD and UC: those succeed, every
 *   other pair from SQE fails (linux)
 * The errno of a failure is not documented ("the value of errno on
 * failure"): any failure.  iWARP QPs follow iWARP's states through
 * rdma_cm: every row needs an InfiniBand-transport device (ca), UD rows
 * datagrams (ud).
 */
#include "verbs_qp.h"

#define DOC_FOR(T) "For QP Transport Service Type IBV_QPT_" T ": ... "
#define DOC_INIT_UD \
	"Init IBV_QP_STATE, IBV_QP_PKEY_INDEX, IBV_QP_PORT, IBV_QP_QKEY"
#define DOC_INIT_RC                                           \
	"Init IBV_QP_STATE, IBV_QP_PKEY_INDEX, IBV_QP_PORT, " \
	"IBV_QP_ACCESS_FLAGS"
#define DOC_RTR_UC                                                        \
	"RTR IBV_QP_STATE, IBV_QP_AV, IBV_QP_PATH_MTU, IBV_QP_DEST_QPN, " \
	"IBV_QP_RQ_PSN"
#define DOC_RTS_UC "RTS IBV_QP_STATE, IBV_QP_SQ_PSN"

#define DOC_ud_init DOC_FOR("UD") DOC_INIT_UD
#define DOC_ud_rtr DOC_FOR("UD") "RTR IBV_QP_STATE"
#define DOC_ud_rts DOC_FOR("UD") DOC_RTS_UC
#define DOC_uc_init DOC_FOR("UC") DOC_INIT_RC
#define DOC_uc_rtr DOC_FOR("UC") DOC_RTR_UC
#define DOC_uc_rts DOC_FOR("UC") DOC_RTS_UC
#define DOC_rc_init DOC_FOR("RC") DOC_INIT_RC
#define DOC_rc_rtr    \
	DOC_FOR("RC") \
	DOC_RTR_UC ", IBV_QP_MAX_DEST_RD_ATOMIC, IBV_QP_MIN_RNR_TIMER"
#define DOC_rc_rts                                                   \
	DOC_FOR("RC")                                                \
	"RTS IBV_QP_STATE, IBV_QP_SQ_PSN, IBV_QP_MAX_QP_RD_ATOMIC, " \
	"IBV_QP_RETRY_CNT, IBV_QP_RNR_RETRY, IBV_QP_TIMEOUT"
#define DOC_STATE "IBV_QP_STATE Modify qp_state"
#define DOC_INVALID                                                        \
	"If any of the modify attributes or the modify mask are invalid, " \
	"none of the attributes will be modified (including the QP state)."
#define DOC_CUR                            \
	"enum ibv_qp_state cur_qp_state; " \
	"/* Assume this is the current QP state */"

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
#define QPS_sqd IBV_QPS_SQD
#define QPS_sqe IBV_QPS_SQE
#define QPS_err IBV_QPS_ERR

#define ID(t, f, nx) "verbs/modify_qp/" #t "-" #f "-to-" #nx
#define AT(t, f, nx, how, cur)                                          \
	.type = QPT_##t, .from = QPS_##f, .to = QPS_##nx, .attrs = how, \
	.cur_sqe = cur

/* a transition of the page's tables, with its required attributes */
#define ROW_TABLE(t, f, nx)                                                \
	{ .c = { .id = ID(t, f, nx),                                       \
		 .doc = DOC_##t##_##nx,                                    \
		 .basis = RC_BASIS_DOCUMENTED,                             \
		 .note = #f " to " #nx " with exactly the table's "        \
			    "attributes: 0; the state and each attribute " \
			    "read back as set",                            \
		 .needs = NEEDS_##t,                                       \
		 .contract = { RC_RETURNS(0) } },                          \
	  AT(t, f, nx, VQ_REQUIRED, false) },
/* a transition of the kernel's table the page does not list */
#define ROW_OK(t, f, nx)                                                   \
	{ .c = { .id = ID(t, f, nx),                                       \
		 .doc = DOC_STATE,                                         \
		 .basis = RC_BASIS_LINUX,                                  \
		 .note = "the page's tables are silent on " #f " to " #nx  \
			 "; the kernel's qp_state_table has it with no "   \
			 "attribute required: IBV_QP_STATE alone, 0, and " \
			 "the state reads back",                           \
		 .needs = NEEDS_##t,                                       \
		 .contract = { RC_RETURNS(0) } },                          \
	  AT(t, f, nx, VQ_REQUIRED, false) },
/* a pair that is no transition */
#define ROW_NO(t, f, nx)                                                       \
	{ .c = { .id = ID(t, f, nx),                                           \
		 .doc = DOC_INVALID,                                           \
		 .basis = RC_BASIS_LINUX,                                      \
		 .note = #f " to " #nx " is no transition of the kernel's "    \
			    "qp_state_table (the page's tables list none): "   \
			    "with the attributes " #nx " is entered with, an " \
			    "errno value, and the QP as it was",               \
		 .needs = NEEDS_##t,                                           \
		 .contract = { RC_FAILS() } },                                 \
	  AT(t, f, nx, VQ_ENTRY, false) },
/* from SQE, said by IBV_QP_CUR_STATE (the QP is in RTS) */
#define ROW_CUROK(t, f, nx)                                                  \
	{ .c = { .id = "verbs/modify_qp/" #t "-cur-sqe-to-" #nx,             \
		 .doc = DOC_CUR,                                             \
		 .basis = RC_BASIS_LINUX,                                    \
		 .note = "a QP in RTS, cur_qp_state SQE: the kernel checks " \
			 "the pair from SQE, and its table allows "          \
			 "IBV_QP_CUR_STATE from SQE to " #nx " for this "    \
			 "type: 0, and the QP in " #nx,                      \
		 .needs = NEEDS_##t,                                         \
		 .contract = { RC_RETURNS(0) } },                            \
	  AT(t, f, nx, VQ_REQUIRED, true) },
#define ROW_CURNO(t, f, nx)                                                    \
	{ .c = { .id = "verbs/modify_qp/" #t "-cur-sqe-to-" #nx,               \
		 .doc = DOC_CUR,                                               \
		 .basis = RC_BASIS_LINUX,                                      \
		 .note = "a QP in RTS, cur_qp_state SQE: the kernel checks "   \
			 "the pair from SQE, and its table has no "            \
			 "IBV_QP_CUR_STATE from SQE to " #nx " for this type " \
			 "(or no such transition): an errno value, the QP "    \
			 "in RTS as it was",                                   \
		 .needs = NEEDS_##t,                                           \
		 .contract = { RC_FAILS() } },                                 \
	  AT(t, f, nx, VQ_ENTRY, true) },

/* The kernel's qp_state_table: what each of the 49 pairs is, for @t.
 * SQE to RTS allows IBV_QP_CUR_STATE for UD and UC only: @sqe_rts. */
/* one pair a line, in the order of the states */
/* clang-format off */
#define PAIRS(t, sqe_rts)          \
	ROW_OK(t, reset, reset)    \
	ROW_TABLE(t, reset, init)  \
	ROW_NO(t, reset, rtr)      \
	ROW_NO(t, reset, rts)      \
	ROW_NO(t, reset, sqd)      \
	ROW_NO(t, reset, sqe)      \
	ROW_NO(t, reset, err)      \
	ROW_OK(t, init, reset)     \
	ROW_OK(t, init, init)      \
	ROW_TABLE(t, init, rtr)    \
	ROW_NO(t, init, rts)       \
	ROW_NO(t, init, sqd)       \
	ROW_NO(t, init, sqe)       \
	ROW_OK(t, init, err)       \
	ROW_OK(t, rtr, reset)      \
	ROW_NO(t, rtr, init)       \
	ROW_NO(t, rtr, rtr)        \
	ROW_TABLE(t, rtr, rts)     \
	ROW_NO(t, rtr, sqd)        \
	ROW_NO(t, rtr, sqe)        \
	ROW_OK(t, rtr, err)        \
	ROW_OK(t, rts, reset)      \
	ROW_NO(t, rts, init)       \
	ROW_NO(t, rts, rtr)        \
	ROW_OK(t, rts, rts)        \
	ROW_OK(t, rts, sqd)        \
	ROW_NO(t, rts, sqe)        \
	ROW_OK(t, rts, err)        \
	ROW_OK(t, sqd, reset)      \
	ROW_NO(t, sqd, init)       \
	ROW_NO(t, sqd, rtr)        \
	ROW_OK(t, sqd, rts)        \
	ROW_OK(t, sqd, sqd)        \
	ROW_NO(t, sqd, sqe)        \
	ROW_OK(t, sqd, err)        \
	ROW_CURNO(t, sqe, reset)   \
	ROW_CURNO(t, sqe, init)    \
	ROW_CURNO(t, sqe, rtr)     \
	ROW_##sqe_rts(t, sqe, rts) \
	ROW_CURNO(t, sqe, sqd)     \
	ROW_CURNO(t, sqe, sqe)     \
	ROW_CURNO(t, sqe, err)     \
	ROW_OK(t, err, reset)      \
	ROW_NO(t, err, init)       \
	ROW_NO(t, err, rtr)        \
	ROW_NO(t, err, rts)        \
	ROW_NO(t, err, sqd)        \
	ROW_NO(t, err, sqe)        \
	ROW_OK(t, err, err)
/* clang-format on */

static const struct vq_row rows[] = { PAIRS(rc, CURNO) PAIRS(uc, CUROK)
					      PAIRS(ud, CUROK) };
BUILD_ASSERT(ARRAY_SIZE(rows) == 3 * 7 * 7);

RC_TABLE_GROUP(group, "ibv_modify_qp", RC_CONV_ERRNO_RET, "verbs", rows,
	       vq_run_modify);
