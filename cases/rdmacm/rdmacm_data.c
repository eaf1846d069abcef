// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The connected pair of the data-path rows (rdmacm_data.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdmacm_data.h"

#define ACCESS                                             \
	(IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ | \
	 IBV_ACCESS_REMOTE_WRITE)

static bool reg(struct rc_ctx *ctx, struct cm_end *e, uint8_t **buf,
		struct ibv_mr **mr)
{
	*buf = calloc(1, CD_LEN);
	if (!*buf)
		return cm_broken(ctx, "calloc");
	*mr = (ctx->ops->ibv_reg_mr)(e->pd, *buf, CD_LEN, ACCESS);
	if (!*mr)
		return cm_broken(ctx, "ibv_reg_mr");
	return true;
}

bool cd_up(struct rc_ctx *ctx, struct cd *d, bool connect)
{
	const struct rc_ops *o = ctx->ops;

	memset(d, 0, sizeof(*d));
	if (!rc_need_call(ctx, o->ibv_reg_mr, "ibv_reg_mr") ||
	    !rc_need_call(ctx, o->ibv_dereg_mr, "ibv_dereg_mr") ||
	    !rc_need_call(ctx, o->ibv_post_send, "ibv_post_send") ||
	    !rc_need_call(ctx, o->ibv_post_recv, "ibv_post_recv") ||
	    !rc_need_call(ctx, o->ibv_poll_cq, "ibv_poll_cq"))
		return false;
	if (!cm_pair_open(ctx, &d->p, AF_INET, true, o, o))
		return false;
	d->p.cli.own_cqs = d->p.srv.own_cqs = true;
	if (!cm_listen(ctx, &d->p) || !cm_resolve(ctx, &d->p))
		return false;
	d->cli = d->p.cli.id;
	if (!reg(ctx, &d->p.cli, &d->cbuf, &d->cmr))
		return false;
	if (!connect)
		return true;
	if (!cm_connect_resolved(ctx, &d->p))
		return false;
	d->srv = d->p.srv.conn;
	return reg(ctx, &d->p.srv, &d->sbuf, &d->smr);
}

void cd_down(struct rc_ctx *ctx, struct cd *d)
{
	if (d->cmr)
		ctx->ops->ibv_dereg_mr(d->cmr);
	if (d->smr)
		ctx->ops->ibv_dereg_mr(d->smr);
	cm_pair_close(ctx, &d->p);
	free(d->cbuf);
	free(d->sbuf);
	memset(d, 0, sizeof(*d));
}

static int poll_until(struct rc_ctx *ctx, struct ibv_cq *cq, struct ibv_wc *wc,
		      int ms)
{
	double end = rc_now_ms() + rc_scaled_ms(ctx, ms);
	int n;

	do {
		n = ctx->ops->ibv_poll_cq(cq, 1, wc);
		if (n)
			return n;
	} while (rc_now_ms() < end);
	return 0;
}

bool cd_poll(struct rc_ctx *ctx, struct ibv_cq *cq, const char *who,
	     struct ibv_wc *wc)
{
	int n = poll_until(ctx, cq, wc, CM_WAIT_MS);

	if (n == 1)
		return true;
	rc_obs_violation(ctx->obs, "%s %s", who,
			 n < 0 ? "ibv_poll_cq failed" : "none arrived");
	return false;
}

bool cd_quiet(struct rc_ctx *ctx, struct ibv_cq *cq, const char *who)
{
	struct ibv_wc wc;

	if (!poll_until(ctx, cq, &wc, CM_QUIET_MS))
		return true;
	rc_obs_violation(ctx->obs, "%s one arrived (wr_id 0x%llx, status %d)",
			 who, (unsigned long long)wc.wr_id, wc.status);
	return false;
}

bool cd_wc(struct rc_ctx *ctx, const char *who, const struct ibv_wc *wc,
	   uint64_t wr_id, enum ibv_wc_status status, int opcode,
	   int64_t byte_len)
{
	bool ok = true;

	if (wc->wr_id != wr_id) {
		rc_obs_violation(ctx->obs, "%s.wr_id 0x%llx, not 0x%llx", who,
				 (unsigned long long)wc->wr_id,
				 (unsigned long long)wr_id);
		ok = false;
	}
	if (wc->status != status) {
		rc_obs_violation(ctx->obs, "%s.status %d (%s), not %d", who,
				 wc->status, ibv_wc_status_str(wc->status),
				 status);
		return false;
	}
	if (status != IBV_WC_SUCCESS)
		return ok;
	if (opcode >= 0 && (int)wc->opcode != opcode) {
		rc_obs_violation(ctx->obs, "%s.opcode %d, not %d", who,
				 wc->opcode, opcode);
		ok = false;
	}
	if (byte_len >= 0 && wc->byte_len != byte_len) {
		rc_obs_violation(ctx->obs, "%s.byte_len %u, not %lld", who,
				 wc->byte_len, (long long)byte_len);
		ok = false;
	}
	/* a receive of what rdma_post_send, _sendv or _ud_send sent: none
	 * takes immediate data, so none arrives (ibv_poll_cq(3):
	 * "IBV_WC_WITH_IMM Immediate data value is valid") */
	if (opcode == IBV_WC_RECV && (wc->wc_flags & IBV_WC_WITH_IMM)) {
		rc_obs_violation(ctx->obs,
				 "%s.wc_flags %#x: IBV_WC_WITH_IMM, and the "
				 "message was a SEND",
				 who, wc->wc_flags);
		ok = false;
	}
	return ok;
}

bool cd_same(struct rc_ctx *ctx, const char *what, const uint8_t *got,
	     const uint8_t *want, size_t len)
{
	size_t i;

	rc_obs_out(ctx->obs, got, len < RC_OUT_MAX ? len : RC_OUT_MAX);
	for (i = 0; i < len; i++)
		if (got[i] != want[i]) {
			rc_obs_violation(ctx->obs,
					 "%s byte %zu is 0x%02x, not 0x%02x",
					 what, i, got[i], want[i]);
			return false;
		}
	return true;
}

bool cd_lands(struct rc_ctx *ctx, const char *what, const uint8_t *got,
	      const uint8_t *want, size_t len)
{
	/* iWARP's RDMA Write completes when its buffer may be reused (RFC
	 * 5040), its bytes perhaps still on their way over TCP; IB's RC
	 * completes it on the responder's ACK, after they landed */
	if (ctx->target->link == RC_LINK_IWARP)
		rc_wait_same(ctx, got, want, len, CM_WAIT_MS);
	return cd_same(ctx, what, got, want, len);
}

bool cd_srv_recv_at(struct rc_ctx *ctx, struct cd *d, uint64_t wr_id, void *buf,
		    uint32_t len, uint32_t lkey)
{
	struct ibv_sge sge = { .addr = (uintptr_t)buf,
			       .length = len,
			       .lkey = lkey };
	struct ibv_recv_wr wr = { .wr_id = wr_id,
				  .sg_list = &sge,
				  .num_sge = 1 };
	struct ibv_recv_wr *bad;

	if (ctx->ops->ibv_post_recv(d->srv->qp, &wr, &bad))
		return cm_broken(ctx, "ibv_post_recv of the server");
	return true;
}

bool cd_srv_recv(struct rc_ctx *ctx, struct cd *d, uint64_t wr_id, size_t off,
		 uint32_t len)
{
	return cd_srv_recv_at(ctx, d, wr_id, d->sbuf + off, len, d->smr->lkey);
}

bool cd_cli_send(struct rc_ctx *ctx, struct cd *d, uint64_t wr_id, size_t off,
		 uint32_t len)
{
	struct ibv_sge sge = { .addr = (uintptr_t)(d->cbuf + off),
			       .length = len,
			       .lkey = d->cmr->lkey };
	struct ibv_send_wr wr = { .wr_id = wr_id,
				  .sg_list = &sge,
				  .num_sge = 1,
				  .opcode = IBV_WR_SEND,
				  .send_flags = IBV_SEND_SIGNALED };
	struct ibv_send_wr *bad;

	errno = ctx->ops->ibv_post_send(d->cli->qp, &wr, &bad);
	if (errno)
		return cm_broken(ctx, "ibv_post_send of the client");
	return true;
}
