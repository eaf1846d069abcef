// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_post_ud_send(3), inline in <rdma/rdma_verbs.h> (the system side is
 * the header's code, harness/impl.c): "Posts a work request to the send
 * queue of the queue pair associated with the rdma_cm_id.  The contents
 * of the posted buffer will be sent to the specified destination queue
 * pair."  "Returns 0 on success, or -1 on error."
 *
 * The sender is an RDMA_PS_UDP id of the implementation under test bound
 * to the peer device's address, with a UD QP (rdma_create_qp) on a PD and
 * CQ of rdma-core's (as the multicast members have, rdmacm_member.c),
 * and an AH of rdma-core's to the target port's IPv4-mapped GID; the
 * receiver is the harness's UD QP there (verbs_res.h), its Q_Key the
 * port space's (RDMA_UDP_QKEY, the one the call sends with):
 * - 180 distinct bytes arrive at the destination QP, after its GRH
 * - the context comes back as the send completion's wr_id
 * - 48 bytes inline with no MR, the buffer zeroed once the call returns:
 *   the bytes of the call arrive
 * - inline one byte beyond the QP's max_inline_data: -1
 */
#include <string.h>

#include "rdmacm_ud.h"
#include <rdma/rdma_verbs.h>

#define DOC_SEND                                                           \
	"The contents of the posted buffer will be sent to the specified " \
	"destination queue pair."
#define DOC_CTX                                                            \
	"The user-defined context associated with the send request will "  \
	"be returned to the user through the work completion wr_id, work " \
	"request identifier, field."
#define DOC_INLINE                                                         \
	"However, if the IBV_SEND_INLINE flag was set, the buffer can be " \
	"reused immediately after the call returns."
#define DOC_FAIL                                              \
	"Returns 0 on success, or -1 on error.  If an error " \
	"occurs, errno will be set to indicate the failure reason."

enum ud_kind {
	UD_DATA,
	UD_CTX,
	UD_INLINE,
	UD_TOO_LONG,
};

struct ud_row {
	struct rc_case c;
	enum ud_kind kind;
};

#define NEEDS (RC_NEED_DEVICE | RC_NEED_PEER | RC_NEED_UD)
#define CONTEXT 0x1122334455667788ull
#define LEN 180
#define INLINE_LEN 48

static const struct ud_row rows[] = {
	{ .c = { .id = "rdmacm/post_ud_send/data-arrives",
		 .doc = DOC_SEND,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "180 distinct bytes, signaled, to the target port's "
			 "UD QP by its AH and QP number: its receive "
			 "completes (IBV_WC_RECV, no immediate data) with "
			 "byte_len 40 + 180 and holds them after the GRH, "
			 "byte for byte",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .kind = UD_DATA },
	{ .c = { .id = "rdmacm/post_ud_send/context-is-wr-id",
		 .doc = DOC_CTX,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "context 0x1122334455667788 (eight distinct bytes): "
			 "the send completion has it as wr_id, IBV_WC_SEND, "
			 "success",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .kind = UD_CTX },
	{ .c = { .id = "rdmacm/post_ud_send/inline-no-mr",
		 .doc = DOC_INLINE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "48 bytes, IBV_SEND_INLINE | IBV_SEND_SIGNALED, mr "
			 "NULL ('Unless the send request is using inline "
			 "data' it needs one): the buffer is zeroed once the "
			 "call returns, and the bytes it had arrive",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .kind = UD_INLINE },
	{ .c = { .id = "rdmacm/post_ud_send/inline-too-long",
		 .doc = DOC_FAIL,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "IBV_SEND_INLINE with one byte more than the QP's "
			 "max_inline_data (ibv_query_qp): the request cannot "
			 "be posted, -1 and errno",
		 .needs = NEEDS,
		 .contract = { RC_FAILS() } },
	  .kind = UD_TOO_LONG },
};

static void run(const void *row, struct rc_ctx *ctx)
{
	const struct ud_row *r = row;
	struct ibv_qp_init_attr init;
	struct ibv_qp_attr attr;
	struct cmud s = { 0 };
	uint8_t pat[LEN];
	struct ibv_wc wc;
	struct vres v;
	bool in = r->kind == UD_INLINE || r->kind == UD_TOO_LONG;
	uint32_t len = r->kind == UD_INLINE ? INLINE_LEN : LEN;
	int ret;

	if (!rc_need_call(ctx, ctx->ops->rdma_post_ud_send,
			  "rdma_post_ud_send") ||
	    !vres_open(ctx, &v, IBV_QPT_UD))
		return;
	if (!cmud_pair_open(ctx, &v, &s, false))
		goto out;
	if (r->kind == UD_TOO_LONG) {
		if (ibv_query_qp(s.id->qp, &attr, IBV_QP_CAP, &init)) {
			cm_broken(ctx, "ibv_query_qp");
			goto out;
		}
		len = init.cap.max_inline_data + 1;
		if (len > sizeof(s.buf)) {
			errno = E2BIG;
			cm_broken(ctx, "max_inline_data");
			goto out;
		}
	}
	cm_pattern(pat, LEN, 0x51);
	memcpy(s.buf, pat, LEN);
	RC_OBSERVE(ctx, ret = ctx->ops->rdma_post_ud_send(
				s.id, (void *)(uintptr_t)CONTEXT, s.buf, len,
				in ? NULL : s.mr,
				IBV_SEND_SIGNALED | (in ? IBV_SEND_INLINE : 0),
				s.ah, v.qp->qp_num));
	if (ret || r->kind == UD_TOO_LONG)
		goto out;
	if (in)
		memset(s.buf, 0, sizeof(s.buf));
	if (r->kind == UD_CTX) {
		if (vres_poll_cq(s.cq,
				 rc_now_ms() + rc_scaled_ms(ctx, CM_WAIT_MS),
				 &wc) != 1)
			rc_obs_violation(ctx->obs, "send_wc none arrived");
		else if (wc.wr_id != CONTEXT || wc.status != IBV_WC_SUCCESS ||
			 wc.opcode != IBV_WC_SEND)
			rc_obs_violation(ctx->obs,
					 "send_wc wr_id 0x%llx status %d "
					 "opcode %d",
					 (unsigned long long)wc.wr_id,
					 wc.status, wc.opcode);
		goto out;
	}
	if (vres_recv(ctx, &v, CM_WAIT_MS, &wc, NULL, NULL) != 1) {
		rc_obs_violation(ctx->obs, "recv_wc none arrived");
		goto out;
	}
	if (wc.byte_len != VRES_GRH + len)
		rc_obs_violation(ctx->obs, "recv_wc.byte_len %u, not %u",
				 wc.byte_len, VRES_GRH + len);
	/* a SEND: the call takes no immediate data to send */
	if (wc.opcode != IBV_WC_RECV || (wc.wc_flags & IBV_WC_WITH_IMM))
		rc_obs_violation(ctx->obs,
				 "recv_wc.opcode %d wc_flags %#x: not a SEND's "
				 "receive without immediate data",
				 wc.opcode, wc.wc_flags);
	rc_obs_out(ctx->obs, v.buf + wc.wr_id * VRES_SLOT + VRES_GRH, len);
	if (memcmp(v.buf + wc.wr_id * VRES_SLOT + VRES_GRH, pat, len))
		rc_obs_violation(ctx->obs, "data the bytes received are not "
					   "the ones sent");
out:
	cmud_close(ctx, &s);
	vres_close(&v);
}

RC_TABLE_GROUP(group, "rdma_post_ud_send", RC_CONV_M1_ERRNO, "rdmacm", rows,
	       run);
