// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_post_send(3), rdma_post_recv(3), rdma_post_read(3),
 * rdma_post_write(3) and their vector forms rdma_post_sendv(3),
 * rdma_post_recvv(3), rdma_post_readv(3), rdma_post_writev(3), inline in
 * <rdma/rdma_verbs.h> (the system side is the header's code,
 * harness/impl.c).  "Returns 0 on success, or -1 on error.  If an error
 * occurs, errno will be set to indicate the failure reason."  Each:
 * "The user-defined context associated with the ... request will be
 * returned to the user through the work completion wr_id, work request
 * identifier, field."
 *
 * On a connection of the pair (rdmacm_data.h), the client posting to the
 * server; a vector call's buffers are two SGEs (100 and 80 bytes, 0x3f0
 * apart), a single call's one of 180; the bytes all distinct:
 * - send, sendv: the bytes arrive at the server's receive, byte for byte
 *   and in order; the context is the send completion's wr_id; send
 *   inline with no MR: the bytes sent are those of the call, not what the
 *   buffer holds after it returns; unsignaled: the data arrives and no
 *   send completion comes; before the connection: -1
 * - recv, recvv: a posted receive gets the client's message, scattered
 *   over its buffers in order; the context is the receive completion's
 *   wr_id; a receive queue already holding max_recv_wr receives: -1
 * - read, readv: the server's bytes land in the client's buffers; the
 *   context is the completion's wr_id, with the read's opcode; a wrong
 *   rkey: a remote access error completion, nothing lands; before the
 *   connection: -1; a readv of two SGEs where the device reads into one
 *   (max_sge_rd) is UNSUPPORTED
 * - write, writev: the client's bytes land at the server's remote_addr,
 *   nothing before or after; the context comes back; write inline with no
 *   MR; before the connection: -1
 * A call that fails sets errno to an errno value, which is positive.
 */
#include <string.h>

#include "rdmacm_data.h"

#define DOC_CTX_SEND                                                       \
	"The user-defined context associated with the send request will "  \
	"be returned to the user through the work completion wr_id, work " \
	"request identifier, field."
#define DOC_CTX_RECV                                                       \
	"The user-defined context associated with the receive request "    \
	"will be returned to the user through the work completion wr_id, " \
	"work request identifier, field."
#define DOC_CTX_READ                                                       \
	"The user-defined context associated with the read request will "  \
	"be returned to the user through the work completion wr_id, work " \
	"request identifier, field."
#define DOC_CTX_WRITE                                                      \
	"The user-defined context associated with the write request will " \
	"be returned to the user through the work completion wr_id, work " \
	"request identifier, field."
#define DOC_SEND                                                        \
	"The contents of the posted buffer will be sent to the remote " \
	"peer of a connection."
#define DOC_SENDV                                                        \
	"The contents of the posted buffers will be sent to the remote " \
	"peer of a connection."
#define DOC_RECV                                                           \
	"The posted buffer will be queued to receive an incoming message " \
	"sent by the remote peer."
#define DOC_RECVV                                                           \
	"The posted buffers will be queued to receive an incoming message " \
	"sent by the remote peer."
#define DOC_READ                                                          \
	"The contents of the remote memory region will be read into the " \
	"local data buffer."
#define DOC_READV                                                         \
	"The contents of the remote memory region will be read into the " \
	"local data buffers."
#define DOC_WRITE                                                         \
	"The contents of the local data buffer will be written into the " \
	"remote memory region."
#define DOC_WRITEV                                                         \
	"The contents of the local data buffers will be written into the " \
	"remote memory region."
#define DOC_INLINE                                                         \
	"However, if the IBV_SEND_INLINE flag was set, the buffer can be " \
	"reused immediately after the call returns."
#define DOC_SIGNALED                                                     \
	"IBV_SEND_SIGNALED  Set the completion notification indicator. " \
	"Relevant only if QP was created with sq_sig_all=0"
#define DOC_NOT_CONN(what)                                            \
	what " operations may not be posted to an rdma_cm_id or the " \
	     "corresponding queue pair until it has been connected."
#define DOC_FAIL                                              \
	"Returns 0 on success, or -1 on error.  If an error " \
	"occurs, errno will be set to indicate the failure reason."

enum pr_op { OP_SEND, OP_RECV, OP_READ, OP_WRITE };
enum pr_kind {
	PK_DATA, /* the bytes land where the page says */
	PK_CTX, /* the completion's wr_id is the context */
	PK_INLINE, /* inline, no MR, the buffer changed after the call */
	PK_UNSIGNALED, /* flags 0: no send completion */
	PK_UNCONNECTED, /* before the connection: -1 */
	PK_FULL, /* the receive queue full: -1 */
	PK_BAD_RKEY, /* a wrong rkey: a remote access error completion */
};

struct pr_row {
	struct rc_case c;
	enum pr_op op;
	bool vec;
	enum pr_kind kind;
};

#define NEEDS (RC_NEED_DEVICE | RC_NEED_PEER)
#define CONTEXT 0x1122334455667788ull
#define TOTAL 180
#define REMOTE 0x800 /* the far end's bytes: the receive, RDMA's target */

#define INLINE_LEN 48 /* within CM_DATA_INLINE */

/* the local buffers: one of TOTAL, two, or one of INLINE_LEN */
static const struct {
	size_t off;
	uint32_t len;
} segs[3][2] = { { { 0x10, TOTAL } },
		 { { 0x10, 100 }, { 0x400, 80 } },
		 { { 0x10, INLINE_LEN } } };

static int lay(const struct pr_row *r)
{
	return r->vec ? 1 : r->kind == PK_INLINE ? 2 : 0;
}

static uint32_t total(const struct pr_row *r)
{
	return segs[lay(r)][0].len + segs[lay(r)][1].len;
}

#define ROW(idv, docv, basisv, notev, opv, vecv, kindv, ...) \
	{                                                    \
		.c = { .id = "rdmacm/" idv,                  \
		       .doc = docv,                          \
		       .basis = basisv,                      \
		       .note = notev,                        \
		       .needs = NEEDS,                       \
		       .contract = { __VA_ARGS__ } },        \
		.op = opv, .vec = vecv, .kind = kindv        \
	}

#define NOTE_CTX                                                           \
	"context 0x1122334455667788 (eight distinct bytes): the signaled " \
	"request's completion has it as wr_id, status success and the "    \
	"request's opcode"
#define NOTE_UNCONN                                                     \
	"the client's QP made on its resolved route, no connection: "   \
	"'may not be posted' is read as the post failing (-1), as the " \
	"QP is not ready to send"

static const struct pr_row send_rows[] = {
	ROW("post_send/data-arrives", DOC_SEND, RC_BASIS_DOCUMENTED,
	    "180 distinct bytes sent, signaled: the server's receive "
	    "completes (IBV_WC_RECV, no immediate data) with byte_len 180 "
	    "and holds them exactly",
	    OP_SEND, false, PK_DATA, RC_RETURNS(0)),
	ROW("post_send/context-is-wr-id", DOC_CTX_SEND, RC_BASIS_DOCUMENTED,
	    NOTE_CTX, OP_SEND, false, PK_CTX, RC_RETURNS(0)),
	ROW("post_send/inline-no-mr", DOC_INLINE, RC_BASIS_DOCUMENTED,
	    "48 bytes, IBV_SEND_INLINE | IBV_SEND_SIGNALED, mr NULL (the page: "
	    "'Unless the send request is using inline data' it needs one): "
	    "the buffer is zeroed once the call returns, and the server "
	    "receives the bytes it held at the call",
	    OP_SEND, false, PK_INLINE, RC_RETURNS(0)),
	ROW("post_send/unsignaled", DOC_SIGNALED, RC_BASIS_DOCUMENTED,
	    "'For a list of supported flags, see ibv_post_send': flags 0 on "
	    "a QP of sq_sig_all 0 (rdma_create_qp's): the message arrives, "
	    "and no send completion comes within 300 ms",
	    OP_SEND, false, PK_UNSIGNALED, RC_RETURNS(0)),
	ROW("post_send/not-connected", DOC_NOT_CONN("Send"),
	    RC_BASIS_INTERPRETATION, NOTE_UNCONN, OP_SEND, false,
	    PK_UNCONNECTED, RC_FAILS()),
};

static const struct pr_row sendv_rows[] = {
	ROW("post_sendv/data-arrives", DOC_SENDV, RC_BASIS_DOCUMENTED,
	    "two buffers of 100 and 80 distinct bytes, 0x3f0 apart: the "
	    "server's one receive (IBV_WC_RECV, no immediate data) gets the "
	    "180 bytes, the first buffer's then the second's",
	    OP_SEND, true, PK_DATA, RC_RETURNS(0)),
	ROW("post_sendv/context-is-wr-id", DOC_CTX_SEND, RC_BASIS_DOCUMENTED,
	    NOTE_CTX, OP_SEND, true, PK_CTX, RC_RETURNS(0)),
	ROW("post_sendv/not-connected", DOC_NOT_CONN("Send"),
	    RC_BASIS_INTERPRETATION, NOTE_UNCONN, OP_SEND, true, PK_UNCONNECTED,
	    RC_FAILS()),
};

#define NOTE_FULL                                                           \
	"the QP's receive queue already holds max_recv_wr receives (as "    \
	"ibv_query_qp reads it back, every one of them posted by the call " \
	"under test): one more has no room, -1 and errno (ibv_post_recv's " \
	"failure)"

static const struct pr_row recv_rows[] = {
	ROW("post_recv/data-lands", DOC_RECV, RC_BASIS_DOCUMENTED,
	    "a receive of 180 bytes at 0x10 of the server's buffer; the "
	    "client sends 180 distinct bytes: they are there, byte for byte, "
	    "the receive completes with byte_len 180",
	    OP_RECV, false, PK_DATA, RC_RETURNS(0)),
	ROW("post_recv/context-is-wr-id", DOC_CTX_RECV, RC_BASIS_DOCUMENTED,
	    NOTE_CTX, OP_RECV, false, PK_CTX, RC_RETURNS(0)),
	ROW("post_recv/queue-full", DOC_FAIL, RC_BASIS_INTERPRETATION,
	    NOTE_FULL, OP_RECV, false, PK_FULL, RC_FAILS()),
};

static const struct pr_row recvv_rows[] = {
	ROW("post_recvv/data-lands", DOC_RECVV, RC_BASIS_DOCUMENTED,
	    "one receive over two buffers of 100 and 80 bytes, 0x3f0 apart; "
	    "the client sends 180 distinct bytes: the first 100 fill the "
	    "first buffer, the rest the second",
	    OP_RECV, true, PK_DATA, RC_RETURNS(0)),
	ROW("post_recvv/context-is-wr-id", DOC_CTX_RECV, RC_BASIS_DOCUMENTED,
	    NOTE_CTX, OP_RECV, true, PK_CTX, RC_RETURNS(0)),
	ROW("post_recvv/queue-full", DOC_FAIL, RC_BASIS_INTERPRETATION,
	    NOTE_FULL, OP_RECV, true, PK_FULL, RC_FAILS()),
};

#define NOTE_RKEY                                                          \
	"the server's rkey with its low byte changed: the post succeeds, " \
	"its completion is IBV_WC_REM_ACCESS_ERR and the local buffer "    \
	"stays as it was (what must not happen: data read without the "    \
	"key)"

static const struct pr_row read_rows[] = {
	ROW("post_read/data-lands", DOC_READ, RC_BASIS_DOCUMENTED,
	    "180 distinct bytes of the server's MR read into the client's "
	    "buffer at 0x10: there, byte for byte",
	    OP_READ, false, PK_DATA, RC_RETURNS(0)),
	ROW("post_read/context-is-wr-id", DOC_CTX_READ, RC_BASIS_DOCUMENTED,
	    NOTE_CTX, OP_READ, false, PK_CTX, RC_RETURNS(0)),
	/* the responder's refusal in the read's own completion: InfiniBand's
	 * NAK (iWARP ends the connection instead) */
	{ .c = { .id = "rdmacm/post_read/wrong-rkey",
		 .doc = "Both the remote and local data buffers must have "
			"been registered before the read is issued, and the "
			"buffers must remain registered until the read "
			"completes.",
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = NOTE_RKEY,
		 .needs = NEEDS | RC_NEED_NAK,
		 .contract = { RC_RETURNS(0) } },
	  .op = OP_READ,
	  .kind = PK_BAD_RKEY },
	ROW("post_read/not-connected", DOC_NOT_CONN("Read"),
	    RC_BASIS_INTERPRETATION, NOTE_UNCONN, OP_READ, false,
	    PK_UNCONNECTED, RC_FAILS()),
};

static const struct pr_row readv_rows[] = {
	ROW("post_readv/data-lands", DOC_READV, RC_BASIS_DOCUMENTED,
	    "180 distinct bytes of the server's MR read into two local "
	    "buffers of 100 and 80: the first 100 in the first, the rest in "
	    "the second",
	    OP_READ, true, PK_DATA, RC_RETURNS(0)),
	ROW("post_readv/context-is-wr-id", DOC_CTX_READ, RC_BASIS_DOCUMENTED,
	    NOTE_CTX, OP_READ, true, PK_CTX, RC_RETURNS(0)),
	ROW("post_readv/not-connected", DOC_NOT_CONN("Read"),
	    RC_BASIS_INTERPRETATION, NOTE_UNCONN, OP_READ, true, PK_UNCONNECTED,
	    RC_FAILS()),
};

static const struct pr_row write_rows[] = {
	ROW("post_write/data-lands", DOC_WRITE, RC_BASIS_DOCUMENTED,
	    "180 distinct bytes written to the server's MR at remote_addr "
	    "0x800 into it: there, byte for byte, and the bytes just before "
	    "and after untouched",
	    OP_WRITE, false, PK_DATA, RC_RETURNS(0)),
	ROW("post_write/context-is-wr-id", DOC_CTX_WRITE, RC_BASIS_DOCUMENTED,
	    NOTE_CTX, OP_WRITE, false, PK_CTX, RC_RETURNS(0)),
	ROW("post_write/inline-no-mr", DOC_INLINE, RC_BASIS_DOCUMENTED,
	    "48 bytes, IBV_SEND_INLINE | IBV_SEND_SIGNALED, mr NULL ('Unless "
	    "inline data is specified' the local buffer needs one): the "
	    "buffer is zeroed once the call returns, and the remote memory "
	    "holds the bytes it had at the call",
	    OP_WRITE, false, PK_INLINE, RC_RETURNS(0)),
	ROW("post_write/not-connected", DOC_NOT_CONN("Write"),
	    RC_BASIS_INTERPRETATION, NOTE_UNCONN, OP_WRITE, false,
	    PK_UNCONNECTED, RC_FAILS()),
};

static const struct pr_row writev_rows[] = {
	ROW("post_writev/data-lands", DOC_WRITEV, RC_BASIS_DOCUMENTED,
	    "two local buffers of 100 and 80 distinct bytes written to "
	    "remote_addr 0x800 into the server's MR: the 180 bytes there in "
	    "order, the bytes just before and after untouched",
	    OP_WRITE, true, PK_DATA, RC_RETURNS(0)),
	ROW("post_writev/context-is-wr-id", DOC_CTX_WRITE, RC_BASIS_DOCUMENTED,
	    NOTE_CTX, OP_WRITE, true, PK_CTX, RC_RETURNS(0)),
	ROW("post_writev/not-connected", DOC_NOT_CONN("Write"),
	    RC_BASIS_INTERPRETATION, NOTE_UNCONN, OP_WRITE, true,
	    PK_UNCONNECTED, RC_FAILS()),
};

static const char *const names[4][2] = {
	{ "rdma_post_send", "rdma_post_sendv" },
	{ "rdma_post_recv", "rdma_post_recvv" },
	{ "rdma_post_read", "rdma_post_readv" },
	{ "rdma_post_write", "rdma_post_writev" },
};

static const void *call_of(const struct rc_ops *o, enum pr_op op, bool vec)
{
	const void *fns[4][2] = {
		{ o->rdma_post_send, o->rdma_post_sendv },
		{ o->rdma_post_recv, o->rdma_post_recvv },
		{ o->rdma_post_read, o->rdma_post_readv },
		{ o->rdma_post_write, o->rdma_post_writev },
	};

	return fns[op][vec];
}

/* The call under test on @id, over the local buffer @buf of @mr (its
 * segments); @flags for the send-queue calls. */
static int post(const struct pr_row *r, struct rc_ctx *ctx, struct cd *d,
		struct rdma_cm_id *id, uint8_t *buf, struct ibv_mr *mr,
		int flags, uint32_t rkey)
{
	const struct rc_ops *o = ctx->ops;
	void *c = (void *)(uintptr_t)CONTEXT;
	uint64_t raddr = d->sbuf ? (uintptr_t)(d->sbuf + REMOTE) : 0x1000;
	struct ibv_sge sg[2];
	int i, n = r->vec ? 2 : 1, ret;

	for (i = 0; i < n; i++)
		sg[i] = (struct ibv_sge){
			.addr = (uintptr_t)(buf + segs[lay(r)][i].off),
			.length = segs[lay(r)][i].len,
			.lkey = mr ? mr->lkey : 0
		};
	if (r->vec) {
		switch (r->op) {
		case OP_SEND:
			return o->rdma_post_sendv(id, c, sg, n, flags);
		case OP_RECV:
			return o->rdma_post_recvv(id, c, sg, n);
		case OP_READ:
			return o->rdma_post_readv(id, c, sg, n, flags, raddr,
						  rkey);
		default:
			return o->rdma_post_writev(id, c, sg, n, flags, raddr,
						   rkey);
		}
	}
	buf += segs[lay(r)][0].off;
	switch (r->op) {
	case OP_SEND:
		ret = o->rdma_post_send(id, c, buf, total(r), mr, flags);
		break;
	case OP_RECV:
		ret = o->rdma_post_recv(id, c, buf, total(r), mr);
		break;
	case OP_READ:
		ret = o->rdma_post_read(id, c, buf, total(r), mr, flags, raddr,
					rkey);
		break;
	default:
		ret = o->rdma_post_write(id, c, buf, total(r), mr, flags, raddr,
					 rkey);
	}
	return ret;
}

/* the local buffer's segments as one run of bytes */
static void gather(const struct pr_row *r, const uint8_t *buf, uint8_t *out)
{
	int i, n = r->vec ? 2 : 1;

	for (i = 0; i < n; i++) {
		memcpy(out, buf + segs[lay(r)][i].off, segs[lay(r)][i].len);
		out += segs[lay(r)][i].len;
	}
}

static void scatter(const struct pr_row *r, uint8_t *buf, const uint8_t *in)
{
	int i, n = r->vec ? 2 : 1;

	for (i = 0; i < n; i++) {
		memcpy(buf + segs[lay(r)][i].off, in, segs[lay(r)][i].len);
		in += segs[lay(r)][i].len;
	}
}

static void zero_segs(const struct pr_row *r, uint8_t *buf)
{
	uint8_t z[TOTAL] = { 0 };

	scatter(r, buf, z);
}

static const int opcodes[] = { IBV_WC_SEND, IBV_WC_RECV, IBV_WC_RDMA_READ,
			       IBV_WC_RDMA_WRITE };

/* The receive queue filled to its granted depth by the call itself */
static bool fill_rq(const struct pr_row *r, struct rc_ctx *ctx, struct cd *d)
{
	struct ibv_qp_init_attr init;
	struct ibv_qp_attr attr;
	uint32_t i;

	if (!rc_need_call(ctx, ctx->ops->ibv_query_qp, "ibv_query_qp"))
		return false;
	if (ctx->ops->ibv_query_qp(d->srv->qp, &attr, IBV_QP_CAP, &init))
		return cm_broken(ctx, "ibv_query_qp");
	for (i = 0; i < init.cap.max_recv_wr; i++)
		if (post(r, ctx, d, d->srv, d->sbuf, d->smr, 0, 0)) {
			rc_obs_state(ctx->obs, RC_STATE_BROKEN,
				     "the %u-th receive of max_recv_wr %u "
				     "refused: %m",
				     i + 1, init.cap.max_recv_wr);
			return false;
		}
	return true;
}

static void check_send(const struct pr_row *r, struct rc_ctx *ctx, struct cd *d,
		       const uint8_t *pat)
{
	struct ibv_wc wc;

	if (!cd_poll(ctx, d->srv->recv_cq, "recv_wc", &wc) ||
	    !cd_wc(ctx, "recv_wc", &wc, 0x51, IBV_WC_SUCCESS, IBV_WC_RECV,
		   total(r)))
		return;
	if (r->kind != PK_CTX)
		cd_same(ctx, "data", d->sbuf + REMOTE, pat, total(r));
	if (r->kind == PK_UNSIGNALED) {
		cd_quiet(ctx, d->cli->send_cq, "send_wc");
		return;
	}
	if (cd_poll(ctx, d->cli->send_cq, "send_wc", &wc) && r->kind == PK_CTX)
		cd_wc(ctx, "send_wc", &wc, CONTEXT, IBV_WC_SUCCESS, IBV_WC_SEND,
		      -1);
}

/* An RDMA read scatters into at most max_sge_rd SGEs (ibv_query_device
 * (3): "Maximum number of s/g per WR for RDMA Read operations"): a
 * vector read of two needs two */
static bool reads_two(struct rc_ctx *ctx, struct cd *d)
{
	struct ibv_device_attr a;

	if (!rc_need_call(ctx, ctx->ops->ibv_query_device, "ibv_query_device"))
		return false;
	if (ctx->ops->ibv_query_device(d->cli->verbs, &a))
		return cm_broken(ctx, "ibv_query_device");
	if (a.max_sge_rd < 2) {
		rc_obs_state(ctx->obs, RC_STATE_UNSUPPORTED,
			     "the device reads into %d SGE per WR "
			     "(max_sge_rd), the row two",
			     a.max_sge_rd);
		return false;
	}
	return true;
}

static void run(const void *row, struct rc_ctx *ctx)
{
	const struct pr_row *r = row;
	bool recv = r->op == OP_RECV;
	uint8_t pat[TOTAL], got[TOTAL];
	struct ibv_wc wc;
	uint8_t *local;
	struct cd d;
	int flags, ret;

	if (!rc_need_call(ctx, call_of(ctx->ops, r->op, r->vec),
			  names[r->op][r->vec]) ||
	    !cd_up(ctx, &d, r->kind != PK_UNCONNECTED))
		goto out;
	if (r->op == OP_READ && r->vec && r->kind != PK_UNCONNECTED &&
	    !reads_two(ctx, &d))
		goto out;
	cm_pattern(pat, total(r), 0x20 + r->op * 7 + r->vec);
	local = recv ? d.sbuf : d.cbuf;
	flags = r->kind == PK_UNSIGNALED ? 0 :
		r->kind == PK_INLINE	 ? IBV_SEND_INLINE | IBV_SEND_SIGNALED :
					   IBV_SEND_SIGNALED;
	if (r->op == OP_SEND && r->kind != PK_UNCONNECTED &&
	    !cd_srv_recv(ctx, &d, 0x51, REMOTE, 256))
		goto out;
	if (r->op == OP_SEND || r->op == OP_WRITE)
		scatter(r, local, pat);
	if (r->op == OP_READ && d.sbuf)
		memcpy(d.sbuf + REMOTE, pat, total(r));
	if (r->kind == PK_FULL && !fill_rq(r, ctx, &d))
		goto out;
	RC_OBSERVE(ctx, ret = post(r, ctx, &d, recv ? d.srv : d.cli, local,
				   r->kind == PK_INLINE ? NULL :
				   recv			? d.smr :
							  d.cmr,
				   flags,
				   d.smr ? (r->kind == PK_BAD_RKEY ?
						    d.smr->rkey ^ 0x5a :
						    d.smr->rkey) :
					   0x1234));
	/* "errno will be set to indicate the failure reason": an errno
	 * value, which is positive */
	if (ret == -1 && ctx->obs->err <= 0)
		rc_obs_violation(ctx->obs, "errno %d is no errno value",
				 ctx->obs->err);
	/* a post that should have failed has nothing of its own to check */
	if (ret || r->kind == PK_UNCONNECTED || r->kind == PK_FULL)
		goto out;
	if (r->kind == PK_INLINE)
		zero_segs(r, local);
	switch (r->op) {
	case OP_SEND:
		check_send(r, ctx, &d, pat);
		break;
	case OP_RECV:
		memcpy(d.cbuf + REMOTE, pat, total(r));
		if (!cd_cli_send(ctx, &d, 0x52, REMOTE, total(r)) ||
		    !cd_poll(ctx, d.srv->recv_cq, "recv_wc", &wc))
			break;
		if (r->kind == PK_CTX) {
			cd_wc(ctx, "recv_wc", &wc, CONTEXT, IBV_WC_SUCCESS,
			      IBV_WC_RECV, total(r));
			break;
		}
		if (!cd_wc(ctx, "recv_wc", &wc, CONTEXT, IBV_WC_SUCCESS, -1,
			   total(r)))
			break;
		gather(r, local, got);
		cd_same(ctx, "data", got, pat, total(r));
		break;
	default:
		if (!cd_poll(ctx, d.cli->send_cq, "send_wc", &wc))
			break;
		if (r->kind == PK_BAD_RKEY) {
			cd_wc(ctx, "send_wc", &wc, CONTEXT,
			      IBV_WC_REM_ACCESS_ERR, -1, -1);
			gather(r, local, got);
			memset(pat, 0, sizeof(pat));
			cd_same(ctx, "data", got, pat, total(r));
			break;
		}
		if (!cd_wc(ctx, "send_wc", &wc, CONTEXT, IBV_WC_SUCCESS,
			   r->kind == PK_CTX ? opcodes[r->op] : -1, -1) ||
		    r->kind == PK_CTX)
			break;
		if (r->op == OP_READ) {
			gather(r, local, got);
			cd_same(ctx, "data", got, pat, total(r));
			break;
		}
		if (cd_lands(ctx, "data", d.sbuf + REMOTE, pat, total(r)) &&
		    (d.sbuf[REMOTE - 1] || d.sbuf[REMOTE + TOTAL]))
			rc_obs_violation(ctx->obs,
					 "around a byte before or after the "
					 "written ones changed");
	}
out:
	cd_down(ctx, &d);
}

#define GROUP(var, name, table) \
	RC_TABLE_GROUP(var, name, RC_CONV_M1_ERRNO, "rdmacm", table, run)

GROUP(send_group, "rdma_post_send", send_rows);
GROUP(sendv_group, "rdma_post_sendv", sendv_rows);
GROUP(recv_group, "rdma_post_recv", recv_rows);
GROUP(recvv_group, "rdma_post_recvv", recvv_rows);
GROUP(read_group, "rdma_post_read", read_rows);
GROUP(readv_group, "rdma_post_readv", readv_rows);
GROUP(write_group, "rdma_post_write", write_rows);
GROUP(writev_group, "rdma_post_writev", writev_rows);
