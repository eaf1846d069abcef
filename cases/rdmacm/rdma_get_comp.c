// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_get_send_comp(3) and rdma_get_recv_comp(3), inline in
 * <rdma/rdma_verbs.h> (the system side is the header's code,
 * harness/impl.c).  "Retrieves a completed work request for a send, RDMA
 * read, or RDMA write operation." / "for a receive operation."
 * "Information about the completed request is returned through the wc
 * parameter, with the wr_id set to the context of the request."  "This
 * calls polls the send [receive] completion queue associated with an
 * rdma_cm_id.  If a completion is not found, the call blocks until a
 * request completes."  "Returns the number of returned completions (0 or
 * 1) on success, or -1 on error."
 *
 * On a connection of the pair whose QPs have the CQs and channels
 * rdma_create_qp allocated (rdmacm_data.h), the client's sends and RDMA
 * posted with the implementation's ibv_post_send:
 * - get_send_comp: a send's, an RDMA read's and an RDMA write's
 *   completion, each 1 with its wr_id and opcode; an RDMA read with a
 *   wrong rkey: 1, its error completion; with nothing posted it has not
 *   returned 300 ms later, and returns 1 once a send completes
 * - get_recv_comp: a message's receive, 1 with its wr_id, opcode and
 *   byte_len; two messages: two calls, 1 each, in order; the server's own
 *   send completes first and is not what it returns; with a receive
 *   posted and no message it has not returned 300 ms later, and returns 1
 *   once one arrives
 * - either, nothing completed and the id's channel's fd non-blocking: the
 *   call cannot wait, -1
 */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "rdmacm_data.h"

#define DOC_SEND                                                     \
	"Retrieves a completed work request for a send, RDMA read, " \
	"or RDMA write operation."
#define DOC_RECV "Retrieves a completed work request for a receive operation."
#define DOC_WC                                                             \
	"Information about the completed request is returned through the " \
	"wc parameter, with the wr_id set to the context of the request."

enum gc_kind {
	GC_SEND, /* a send's completion */
	GC_READ, /* an RDMA read's */
	GC_WRITE, /* an RDMA write's */
	GC_ERROR, /* an RDMA read with a wrong rkey: its error completion */
	GC_BLOCK, /* nothing there: it blocks until one comes */
	GC_RECV, /* a receive's */
	GC_TWO, /* two receives, one per call */
	GC_NOT_SEND, /* the end's own send is not returned */
	GC_NONBLOCK, /* nothing there, the channel non-blocking: -1 */
};

struct gc_row {
	struct rc_case c;
	bool recv; /* rdma_get_recv_comp */
	enum gc_kind kind;
};

#define NEEDS (RC_NEED_DEVICE | RC_NEED_PEER)
#define LEN 180
#define REMOTE 0x800

#define ROW(idv, docv, basisv, notev, recvv, kindv)     \
	{                                               \
		.c = { .id = "rdmacm/" idv,             \
		       .doc = docv,                     \
		       .basis = basisv,                 \
		       .note = notev,                   \
		       .needs = NEEDS,                  \
		       .contract = { RC_RETURNS(1) } }, \
		.recv = recvv, .kind = kindv            \
	}

#define NOTE_NB                                                            \
	"nothing completed, and the fd of the id's completion channel "    \
	"made non-blocking (fcntl O_NONBLOCK, as ibv_get_cq_event(3)'s "   \
	"example does): the call cannot wait for a completion event, and " \
	"that is an error, -1 and errno (not a success with 0: 'If a "     \
	"completion is not found, the call blocks until a request "        \
	"completes')"

static const struct gc_row send_rows[] = {
	ROW("get_send_comp/send", DOC_SEND, RC_BASIS_DOCUMENTED,
	    "a signaled send of 180 bytes (wr_id 0x61) to the server's "
	    "posted receive: 1, the completion IBV_WC_SEND, success, wr_id "
	    "0x61",
	    false, GC_SEND),
	ROW("get_send_comp/rdma-read", DOC_SEND, RC_BASIS_DOCUMENTED,
	    "a signaled RDMA read of 180 bytes (wr_id 0x62): 1, the "
	    "completion IBV_WC_RDMA_READ, success, wr_id 0x62, and the bytes "
	    "are there when it returns",
	    false, GC_READ),
	ROW("get_send_comp/rdma-write", DOC_SEND, RC_BASIS_DOCUMENTED,
	    "a signaled RDMA write of 180 bytes (wr_id 0x63): 1, the "
	    "completion IBV_WC_RDMA_WRITE, success, wr_id 0x63",
	    false, GC_WRITE),
	/* the responder's refusal in the read's own completion: InfiniBand's
	 * NAK (iWARP ends the connection instead) */
	{ .c = { .id = "rdmacm/get_send_comp/error-completion",
		 .doc = DOC_WC,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "an RDMA read with the server's rkey changed (wr_id "
			 "0x64) completes in error: that completion is a "
			 "returned one, 1, with status IBV_WC_REM_ACCESS_ERR "
			 "and wr_id 0x64 (ibv_poll_cq(3) counts error "
			 "completions)",
		 .needs = NEEDS | RC_NEED_NAK,
		 .contract = { RC_RETURNS(1) } },
	  .kind = GC_ERROR },
	ROW("get_send_comp/blocks-until-completion", CM_DOC_SEND_COMP_BLOCKS,
	    RC_BASIS_DOCUMENTED,
	    "nothing posted: the call (in a thread) has not returned 300 ms "
	    "later; a signaled send (wr_id 0x65) is posted and it returns 1 "
	    "with that completion within 3 s",
	    false, GC_BLOCK),
	{ .c = { .id = "rdmacm/get_send_comp/nonblocking-channel-fails",
		 .doc = CM_DOC_COMP_COUNT,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = NOTE_NB,
		 .needs = NEEDS,
		 .contract = { RC_FAILS() } },
	  .recv = false,
	  .kind = GC_NONBLOCK },
};

static const struct gc_row recv_rows[] = {
	ROW("get_recv_comp/receive", DOC_RECV, RC_BASIS_DOCUMENTED,
	    "the server's receive (wr_id 0x71) of the client's 180 bytes: 1, "
	    "the completion IBV_WC_RECV, success, byte_len 180, wr_id 0x71",
	    true, GC_RECV),
	ROW("get_recv_comp/one-per-call", CM_DOC_COMP_COUNT,
	    RC_BASIS_DOCUMENTED,
	    "two receives (wr_id 0x71, 0x72) and two messages, both arrived: "
	    "the first call returns 1 with 0x71, the second 1 with 0x72",
	    true, GC_TWO),
	ROW("get_recv_comp/not-a-send", DOC_RECV, RC_BASIS_DOCUMENTED,
	    "the server's own signaled send (wr_id 0x7e) completes before "
	    "its receive (wr_id 0x71) does: the call returns the receive's, "
	    "never the send's",
	    true, GC_NOT_SEND),
	ROW("get_recv_comp/blocks-until-message", CM_DOC_RECV_COMP_BLOCKS,
	    RC_BASIS_DOCUMENTED,
	    "a receive posted (wr_id 0x71), no message: the call (in a "
	    "thread) has not returned 300 ms later; the client sends and it "
	    "returns 1 with the receive within 3 s",
	    true, GC_BLOCK),
	{ .c = { .id = "rdmacm/get_recv_comp/nonblocking-channel-fails",
		 .doc = CM_DOC_COMP_COUNT,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = NOTE_NB,
		 .needs = NEEDS,
		 .contract = { RC_FAILS() } },
	  .recv = true,
	  .kind = GC_NONBLOCK },
};

struct getting {
	struct rc_ctx *ctx;
	const struct gc_row *row;
	struct rdma_cm_id *id;
	struct ibv_wc wc;
};

static int get_it(void *arg)
{
	struct getting *g = arg;
	const struct rc_ops *o = g->ctx->ops;
	int ret;

	RC_OBSERVE(g->ctx, ret = g->row->recv ?
					 o->rdma_get_recv_comp(g->id, &g->wc) :
					 o->rdma_get_send_comp(g->id, &g->wc));
	return ret;
}

static bool rdma(struct rc_ctx *ctx, struct cd *d, enum ibv_wr_opcode op,
		 uint64_t wr_id, uint32_t rkey)
{
	struct ibv_sge sge = { .addr = (uintptr_t)d->cbuf,
			       .length = LEN,
			       .lkey = d->cmr->lkey };
	struct ibv_send_wr wr = { .wr_id = wr_id,
				  .sg_list = &sge,
				  .num_sge = 1,
				  .opcode = op,
				  .send_flags = IBV_SEND_SIGNALED };
	struct ibv_send_wr *bad;

	wr.wr.rdma.remote_addr = (uintptr_t)(d->sbuf + REMOTE);
	wr.wr.rdma.rkey = rkey;
	errno = ctx->ops->ibv_post_send(d->cli->qp, &wr, &bad);
	if (errno)
		return cm_broken(ctx, "ibv_post_send of the client");
	return true;
}

/* What the row posts before the call, or (GC_BLOCK) while it waits */
static bool cause(const struct gc_row *r, struct rc_ctx *ctx, struct cd *d)
{
	switch (r->kind) {
	case GC_SEND:
		return cd_cli_send(ctx, d, 0x61, 0, LEN);
	case GC_BLOCK:
		return r->recv ? cd_cli_send(ctx, d, 0x61, 0, LEN) :
				 cd_cli_send(ctx, d, 0x65, 0, LEN);
	case GC_READ:
		return rdma(ctx, d, IBV_WR_RDMA_READ, 0x62, d->smr->rkey);
	case GC_WRITE:
		return rdma(ctx, d, IBV_WR_RDMA_WRITE, 0x63, d->smr->rkey);
	case GC_ERROR:
		return rdma(ctx, d, IBV_WR_RDMA_READ, 0x64,
			    d->smr->rkey ^ 0x5a);
	case GC_TWO:
		return cd_cli_send(ctx, d, 0x61, 0, LEN) &&
		       cd_cli_send(ctx, d, 0x66, 0x100, LEN - 1);
	default:
		return cd_cli_send(ctx, d, 0x61, 0, LEN);
	}
}

/* The server's own signaled send to a receive of the client's */
static bool server_sends(struct rc_ctx *ctx, struct cd *d)
{
	struct ibv_sge rs = { .addr = (uintptr_t)(d->cbuf + REMOTE),
			      .length = 256,
			      .lkey = d->cmr->lkey };
	struct ibv_recv_wr rwr = { .wr_id = 0x7d,
				   .sg_list = &rs,
				   .num_sge = 1 };
	struct ibv_sge ss = { .addr = (uintptr_t)d->sbuf,
			      .length = 16,
			      .lkey = d->smr->lkey };
	struct ibv_send_wr swr = { .wr_id = 0x7e,
				   .sg_list = &ss,
				   .num_sge = 1,
				   .opcode = IBV_WR_SEND,
				   .send_flags = IBV_SEND_SIGNALED };
	struct ibv_recv_wr *rbad;
	struct ibv_send_wr *sbad;
	struct ibv_wc wc;

	if (ctx->ops->ibv_post_recv(d->cli->qp, &rwr, &rbad) ||
	    ctx->ops->ibv_post_send(d->srv->qp, &swr, &sbad))
		return cm_broken(ctx, "the server's send");
	/* it has completed: the client has its message */
	if (!cd_poll(ctx, d->cli->recv_cq, "client_recv", &wc))
		return cm_broken(ctx, "the server's send did not arrive");
	return true;
}

static void check(const struct gc_row *r, struct rc_ctx *ctx, struct cd *d,
		  struct getting *g, const uint8_t *pat)
{
	static const int ops[] = {
		[GC_SEND] = IBV_WC_SEND,
		[GC_READ] = IBV_WC_RDMA_READ,
		[GC_WRITE] = IBV_WC_RDMA_WRITE,
		[GC_BLOCK] = IBV_WC_SEND,
	};
	static const uint64_t ids[] = { [GC_SEND] = 0x61,
					[GC_READ] = 0x62,
					[GC_WRITE] = 0x63,
					[GC_ERROR] = 0x64,
					[GC_BLOCK] = 0x65 };

	if (r->recv) {
		if (!cd_wc(ctx, "wc", &g->wc, 0x71, IBV_WC_SUCCESS, IBV_WC_RECV,
			   LEN))
			return;
		if (r->kind == GC_TWO &&
		    g->ctx->ops->rdma_get_recv_comp(g->id, &g->wc) != 1)
			rc_obs_violation(ctx->obs,
					 "second the second call did not "
					 "return 1");
		else if (r->kind == GC_TWO)
			cd_wc(ctx, "second", &g->wc, 0x72, IBV_WC_SUCCESS,
			      IBV_WC_RECV, LEN - 1);
		return;
	}
	if (!cd_wc(ctx, "wc", &g->wc, ids[r->kind],
		   r->kind == GC_ERROR ? IBV_WC_REM_ACCESS_ERR : IBV_WC_SUCCESS,
		   r->kind == GC_ERROR ? -1 : ops[r->kind], -1))
		return;
	if (r->kind == GC_READ)
		cd_same(ctx, "data", d->cbuf, pat, LEN);
}

static void run(const void *row, struct rc_ctx *ctx)
{
	const struct gc_row *r = row;
	struct getting g = { .ctx = ctx, .row = r };
	uint8_t pat[LEN];
	struct cm_bg bg;
	struct cd d;

	if (!rc_need_call(ctx,
			  r->recv ? (const void *)ctx->ops->rdma_get_recv_comp :
				    (const void *)ctx->ops->rdma_get_send_comp,
			  r->recv ? "rdma_get_recv_comp" :
				    "rdma_get_send_comp") ||
	    !cd_up(ctx, &d, true))
		goto out;
	g.id = r->recv ? d.srv : d.cli;
	cm_pattern(pat, LEN, 0x31 + r->kind);
	memcpy(d.cbuf, pat, LEN);
	memcpy(d.cbuf + 0x100, pat, LEN);
	memcpy(d.sbuf + REMOTE, pat, LEN);
	if (r->kind == GC_READ)
		memset(d.cbuf, 0, LEN);
	/* every message has a receive waiting on the server */
	if (!cd_srv_recv(ctx, &d, r->recv ? 0x71 : 0x51, REMOTE + 0x200, 256) ||
	    (r->kind == GC_TWO && !cd_srv_recv(ctx, &d, 0x72, 0x300, 256)) ||
	    (r->kind == GC_NOT_SEND && !server_sends(ctx, &d)))
		goto out;
	if (r->kind == GC_NONBLOCK) {
		struct ibv_comp_channel *ch = r->recv ? g.id->recv_cq_channel :
							g.id->send_cq_channel;
		int fl = ch ? fcntl(ch->fd, F_GETFL) : -1;

		if (fl < 0 || fcntl(ch->fd, F_SETFL, fl | O_NONBLOCK)) {
			cm_broken(ctx, "the id's channel non-blocking");
			goto out;
		}
		get_it(&g);
		goto out;
	}
	if (r->kind != GC_BLOCK) {
		if (!cause(r, ctx, &d))
			goto out;
		/* the completions are there before the call */
		if (r->recv)
			usleep(rc_scaled_ms(ctx, CM_QUIET_MS) * 1000);
		if (get_it(&g) == 1)
			check(r, ctx, &d, &g, pat);
		goto out;
	}
	if (!cm_bg_start(ctx, &bg, get_it, &g))
		goto out;
	usleep(rc_scaled_ms(ctx, CM_QUIET_MS) * 1000);
	if (cm_bg_done(&bg))
		rc_obs_violation(ctx->obs, "blocked it returned with nothing "
					   "completed");
	if (!cause(r, ctx, &d)) {
		/* it waits on: the row's HANG says so */
	}
	cm_bg_wait(ctx, &bg, "request completed");
	if (cm_bg_join(&bg) == 1)
		check(r, ctx, &d, &g, pat);
out:
	cd_down(ctx, &d);
}

RC_TABLE_GROUP(send_group, "rdma_get_send_comp", RC_CONV_M1_ERRNO, "rdmacm",
	       send_rows, run);

RC_TABLE_GROUP(recv_group, "rdma_get_recv_comp", RC_CONV_M1_ERRNO, "rdmacm",
	       recv_rows, run);
