/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The rung a data-path row stands on, above the ladder's PD (vl_up):
 * two QPs of one type on the target port, a sending one (a) and a
 * receiving one (b), connected to each other (RC, UC: each the other's
 * destination; UD: an AH to the port's own IPv6 GID), both in RTS, with
 * a send CQ and a receive CQ they share, and one buffer registered for
 * every access.  With a peer (vt_opts.peer), b is on the peer device,
 * with its own context, PD, CQ (the receive CQ) and buffer, and the two
 * address each other by their ports' IPv6 GIDs.  Everything is made by
 * the implementation under test, so each side carries traffic on its own
 * objects.
 *
 * On iWARP a and b connect through the connection manager, which moves
 * them to RTS in the kernel (a QP of its own never gets there): b is on
 * the peer whatever the row asked (iWARP connects no device to itself
 * here), both QPs are moved to INIT, and the implementation's rdma_cm
 * connects b's id on the peer to a's on the target, naming each QP by its
 * number.  iWARP has RC QPs only: the rows of other types, immediate data
 * or atomics need what iWARP has not (need.h).
 *
 * RC's timers are the smallest the IBA allows (min_rnr_timer, timeout
 * and rnr_retry 1), so an error that retries gives up at once; retry_cnt
 * is 6, so that a late ack on a slow host costs a retry, not the row.
 * Completions are waited for by polling with a deadline, never by
 * sleeping.
 */
#ifndef RDMACONF_CASES_VERBS_TRAFFIC_H
#define RDMACONF_CASES_VERBS_TRAFFIC_H

#include "verbs_ladder.h"
#include "../rdmacm/rdmacm_conn.h"

/* the registered buffer: four regions a row may use as it likes */
#define VT_REGION 4096
#define VT_BUF (4 * VT_REGION)
#define VT_QKEY 0x11111111
/* how long a completion that must come may take, and how long one that
 * must not come is waited for (both scaled by the host's slowness) */
#define VT_WAIT_MS 3000
#define VT_QUIET_MS 100

struct vt;

struct vt_opts {
	enum ibv_qp_type type; /* 0: RC */
	bool srq; /* b receives through an SRQ */
	bool sig_some; /* a's sq_sig_all is 0 (else 1) */
	struct ibv_qp_cap cap; /* asked for both; 0s: the defaults */
	/* the receive CQ on a completion channel (the row needs
	 * ibv_req_notify_cq, ibv_get_cq_event and ibv_ack_cq_events) */
	bool channel;
	/* the channel on a's context, and the send CQ on it instead */
	bool send_channel;
	/* the caps both QPs ask for, chosen once the context, the PD and
	 * the CQs exist (instead of cap): false, the row is BROKEN (or
	 * what the hook recorded) */
	bool (*cap_of)(struct rc_ctx *ctx, struct vt *t,
		       struct ibv_qp_cap *cap);
	bool peer; /* b on the peer device (RC_NEED_PEER) */
	/* the call under test is a's ibv_create_qp (ibv_create_qp_ex with
	 * send_ops): observed */
	bool observe_create;
	/* the send CQ's cqe (0: 64), and whether its ibv_create_cq is the
	 * call under test (observed) */
	int send_cqe;
	bool observe_send_cq;
	/* with srq: the SRQ's max_wr (0: 16), and whether its
	 * ibv_create_srq is the call under test (observed) */
	uint32_t srq_wr;
	bool observe_srq;
	/* a made with ibv_create_qp_ex and these send_ops_flags
	 * (ibv_wr_post(3)), its struct ibv_qp_ex in vt.ax */
	uint64_t send_ops;
	/* the receive CQ made with ibv_create_cq_ex and these wc_flags, its
	 * struct ibv_cq_ex in vt.rcqx (0: ibv_create_cq) */
	uint64_t wc_flags;
	/* the row binds memory windows of this type (enum ibv_mw_type): its
	 * QPs ask for their send ops, so a device without them is found
	 * before (UNSUPPORTED, vt_has_mw) */
	int mw_type;
};

struct vt {
	struct vl l;
	struct ibv_cq *scq, *rcq;
	struct ibv_cq_ex *rcqx; /* rcq's, when made with vt_opts.wc_flags */
	struct ibv_qp *a, *b;
	struct ibv_qp_ex *ax; /* a's, when made with send ops */
	struct ibv_srq *srq;
	struct ibv_qp_cap cap; /* a's, as granted */
	struct ibv_qp_cap bcap; /* b's, as granted */
	struct ibv_mr *mr;
	uint8_t *buf;
	struct ibv_ah *ah; /* UD: to b */
	/* the IPv6 GIDs a and b address each other by, and their index */
	union ibv_gid gid_a, gid_b;
	int gid_index, gid_index_b;
	/* b's own context, PD, MR and buffer when it is on the peer; else
	 * bmr is mr, and b's regions are in buf */
	struct ibv_context *bctx;
	struct ibv_pd *bpd;
	struct ibv_mr *bmr;
	uint8_t *bbuf;
	uint32_t srq_max_sge; /* the SRQ's, as granted */
	uint32_t srq_max_wr; /* the SRQ's, as given back */
	/* the receive CQ's, or the send CQ's (vt_opts.send_channel) */
	struct ibv_comp_channel *ch;
	int cq_context; /* the receive CQ's cq_context is &this */
	struct cm_pair cm; /* iWARP: the connection of a and b */
};

/* Whether @c's device has memory windows of @type (ibv_query_device's
 * cap flags); false: the row is UNSUPPORTED (or BROKEN), the cause
 * recorded */
bool vt_has_mw(struct rc_ctx *ctx, struct ibv_context *c, int type);
/* false: the row is BROKEN (or SKIP on iWARP), its cause recorded */
bool vt_up(struct rc_ctx *ctx, struct vt *t, const struct vt_opts *o);
void vt_down(struct rc_ctx *ctx, struct vt *t);
/* b's context: the peer's, or the target's */
struct ibv_context *vt_bctx(const struct vt *t);
/* Address of region @r at @off (regions 1 and 2 are b's: its receives
 * and the target of RDMA; 0 and 3 a's), as an SGE would name it */
uint64_t vt_addr(const struct vt *t, int r, size_t off);
/* The PD of region @r's side: b's for 1 and 2, a's for 0 and 3 (an MR
 * over the region, or memory reached through b, is registered there) */
struct ibv_pd *vt_pd(const struct vt *t, int r);
/* One SGE over region @r at @off, @len bytes */
struct ibv_sge vt_sge(const struct vt *t, int r, size_t off, uint32_t len);
/* Post one receive on b (or its SRQ): 0 or the call's errno value */
int vt_recv(struct rc_ctx *ctx, struct vt *t, uint64_t wr_id, int r,
	    uint32_t len);
/* A send WR from a to b of @op (the UD part filled for UD) */
struct ibv_send_wr vt_wr(const struct vt *t, enum ibv_wr_opcode op,
			 uint64_t wr_id, struct ibv_sge *sg, int n);
/* The call under test: ibv_post_send of @wr on a, observed, *@bad
 * cleared before; true when it returned 0 */
bool vt_post_send(struct rc_ctx *ctx, struct vt *t, struct ibv_send_wr *wr,
		  struct ibv_send_wr **bad);
/* vt_wr of @op to b's region 2 through b's MR (an RDMA or atomic WR) */
struct ibv_send_wr vt_remote_wr(struct vt *t, enum ibv_wr_opcode op,
				struct ibv_sge *sg);
/*
 * An RDMA READ from a of b's region 2 into a's region 3, waited for (RC;
 * a's completions signalled).  b executes what reaches it in order, and
 * rxe and siw write a receive's completion as they execute its message,
 * so once the READ's response is back every receive completion of what a
 * sent before it is in b's CQ, whatever a's own SEND completions say
 * (siw completes a SEND once it is on the wire, before b has it).
 * false: BROKEN, its cause recorded.
 */
bool vt_b_settled(struct rc_ctx *ctx, struct vt *t);
/* Poll @cq with the implementation until @n completions arrived or the
 * deadline passed: how many arrived (more than @n are not taken). */
int vt_poll(struct rc_ctx *ctx, struct ibv_cq *cq, struct ibv_wc *wc, int n);
/* Nothing arrives on @cq within VT_QUIET_MS: true; false and the first
 * completion that did in @wc. */
bool vt_quiet(struct rc_ctx *ctx, struct ibv_cq *cq, struct ibv_wc *wc);
/* Fill region @r with @len bytes that differ from their neighbours'
 * (i * 7 + @seed: every byte value once in each 256) */
void vt_pattern(struct vt *t, int r, size_t len, uint8_t seed);
/* Compare one completion's documented fields with what was expected,
 * recording each mismatch as a violation named "@who.field" */
struct vt_wc {
	uint64_t wr_id;
	enum ibv_wc_status status;
	int opcode; /* -1: not checked (an error completion) */
	int64_t byte_len; /* -1: not checked */
	uint32_t qp_num;
	int64_t src_qp; /* -1: not checked (valid for UD only) */
	/* -1: not checked; else WITH_IMM and WITH_INV, and GRH on UD,
	 * where it is valid ("GRH is present (valid only for UD QPs)") */
	int wc_flags;
	bool ud;
	bool imm; /* imm_data equals .imm_data */
	__be32 imm_data;
};
bool vt_wc_check(struct rc_ctx *ctx, const char *who, const struct ibv_wc *wc,
		 const struct vt_wc *want);
/* Poll @n completions of @cq into @wc, in order: the i-th is @first with
 * wr_id @first->wr_id + i and, when it is checked, byte_len
 * @first->byte_len + i * @len_step; each checked as vt_wc_check does,
 * then the count.  false at the first mismatch or a short count. */
bool vt_expect_run(struct rc_ctx *ctx, const char *who, struct ibv_cq *cq,
		   struct ibv_wc *wc, int n, const struct vt_wc *first,
		   int len_step);

/* vt_expect_run of a's send CQ: @n successful completions of @opcode,
 * wr_id from @first_wr_id, each of @byte_len bytes (-1: not checked), a's
 * qp_num, the flags not checked */
bool vt_a_run(struct rc_ctx *ctx, struct vt *t, struct ibv_wc *wc, int n,
	      uint64_t first_wr_id, int opcode, int64_t byte_len);

/* vt_expect_run of b's receive CQ: @n IBV_WC_RECVs, wr_id from
 * @first_wr_id, of @byte_len bytes and @len_step more each, b's qp_num,
 * no flags */
bool vt_b_run(struct rc_ctx *ctx, struct vt *t, struct ibv_wc *wc, int n,
	      uint64_t first_wr_id, int64_t byte_len, int len_step);

/* b's one receive completion: @wr_id, IBV_WC_RECV of @len bytes, b's
 * qp_num, no flags */
bool vt_b_received(struct rc_ctx *ctx, struct vt *t, uint64_t wr_id,
		   uint32_t len);
/* bad_wr must be @want, the WR refused (a send or a receive WR): else a
 * violation that says which it is, and false */
bool vt_refused_wr(struct rc_ctx *ctx, const void *bad, const void *want);
/* bad_wr must be the last of the @n WRs of @size bytes at @list */
bool vt_refused_last(struct rc_ctx *ctx, const void *bad, const void *list,
		     size_t n, size_t size);
/* a's one successful completion: @wr_id, @opcode, a's qp_num */
bool vt_a_completed(struct rc_ctx *ctx, struct vt *t, uint64_t wr_id,
		    enum ibv_wc_opcode opcode);
/* The channel (vt_opts.channel, send_channel) has an event within @ms
 * (scaled) */
bool vt_event_ready(struct rc_ctx *ctx, struct vt *t, int ms);
/* Take the channel's event with the implementation and acknowledge it
 * (set-up: the CQ cannot be destroyed otherwise) */
bool vt_take_event(struct rc_ctx *ctx, struct vt *t);
/* a SENDs 32 bytes to b with IBV_SEND_SIGNALED and @flags, its SGE's
 * lkey @lkey_xor away from the MR's, b having a receive: through the
 * call under test (vt_post_send) when @observe, else as set-up (BROKEN
 * when refused).  true: posted */
bool vt_send_from_a(struct rc_ctx *ctx, struct vt *t, unsigned int flags,
		    uint32_t lkey_xor, bool observe);
/* vt_send_from_a with no lkey fault, both completions as they must be,
 * then no event on the channel within VT_QUIET_MS: else a violation
 * "@what: an event for a successful send completion", and false */
bool vt_sent_no_event(struct rc_ctx *ctx, struct vt *t, unsigned int flags,
		      const char *what, bool observe);
/* ibv_query_device of a's context with the implementation (BROKEN, or
 * the call's need, when it cannot) */
bool vt_device_attr(struct rc_ctx *ctx, struct vt *t,
		    struct ibv_device_attr *attr);
/* Post a receive of @len bytes into region 1 (BROKEN if refused) */
bool vt_recv_ready(struct rc_ctx *ctx, struct vt *t, uint64_t id, uint32_t len);
/* The one completion @cq must give within VT_WAIT_MS, checked */
bool vt_one_wc(struct rc_ctx *ctx, struct ibv_cq *cq, const char *who,
	       const struct vt_wc *w);
/* a's one completion, of wr_id 1, an error of @status: only qp_num is
 * checked besides, the error completion's other fields being invalid */
bool vt_a_failed(struct rc_ctx *ctx, struct vt *t, enum ibv_wc_status status);
/* b's one receive completion, of @wr_id, an error of @status: qp_num is
 * checked besides, as for a */
bool vt_b_failed(struct rc_ctx *ctx, struct vt *t, uint64_t wr_id,
		 enum ibv_wc_status status);
/* @len bytes at @got as at @want, else a violation naming @what and the
 * first byte that differs, and @got as the output */
bool vt_same(struct rc_ctx *ctx, const char *what, const void *got,
	     const void *want, size_t len);
/* @n receives chained in order in @wr (@sg: one SGE each), the i-th of
 * @len bytes at @off + i * @len of region 1, wr_id @first_wr_id + i */
void vt_recv_list(const struct vt *t, struct ibv_recv_wr *wr,
		  struct ibv_sge *sg, int n, size_t off, uint32_t len,
		  uint64_t first_wr_id);
/* No completion arrives on @cq within VT_QUIET_MS: else a violation
 * "@who: a completion beyond the @n posted", and false */
bool vt_nothing_beyond(struct rc_ctx *ctx, struct ibv_cq *cq, const char *who,
		       unsigned int n);
/* Sleep @ms, scaled by the host's slowness: a quiet period in which what
 * must not happen would have */
void vt_sleep(struct rc_ctx *ctx, int ms);
/* vt_same for the bytes an RDMA Write put at the responder (@got): on a
 * UC QP or on iWARP, whose completion comes before they land, they are
 * waited for up to VT_WAIT_MS */
bool vt_lands(struct rc_ctx *ctx, struct vt *t, const char *what,
	      const void *got, const void *want, size_t len);
/* vt_same for @len zero bytes at @p (at most VT_REGION): where nothing
 * may have landed */
bool vt_zeroes(struct rc_ctx *ctx, const char *what, const uint8_t *p,
	       size_t len);
uint8_t *vt_region(struct vt *t, int r);
/*
 * The effect of an MR made some other way than vt_up's (ibv_reg_buf_mr,
 * ibv_reg_mr_ex): @len bytes of region 0, patterned, written by RDMA
 * Write from a through @rkey at @remote_addr, the address the MR is
 * reached by; they land at @where, in that MR's memory, and the byte
 * before and after stay as they were.  A violation and false where not.
 */
bool vt_write_lands(struct rc_ctx *ctx, struct vt *t, uint32_t rkey,
		    uint64_t remote_addr, uint8_t *where, uint32_t len);

#endif
