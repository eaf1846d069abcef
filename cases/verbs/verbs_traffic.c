// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "verbs_traffic.h"
#include "../../harness/device.h"

#define NEED(ctx, call) rc_need_call(ctx, (const void *)(ctx)->ops->call, #call)

#define ACCESS_ALL                                          \
	(IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | \
	 IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC)

static bool broken(struct rc_ctx *ctx, const char *step)
{
	rc_obs_state(ctx->obs, RC_STATE_BROKEN, "%s failed (set-up): %m", step);
	return false;
}

/* @expr, observed as the call under test when @observe (vt_opts.observe_*) */
#define MAYBE_OBSERVE(ctx, observe, expr)      \
	do {                                   \
		if (observe)                   \
			RC_OBSERVE(ctx, expr); \
		else                           \
			(void)(expr);          \
	} while (0)

/* b's side: on the peer device, or the target's own objects */
static struct ibv_pd *b_pd(const struct vt *t)
{
	return t->bpd ? t->bpd : t->l.pd;
}

struct ibv_pd *vt_pd(const struct vt *t, int r)
{
	return r == 1 || r == 2 ? b_pd(t) : t->l.pd;
}

static struct ibv_qp *make_qp(struct rc_ctx *ctx, struct vt *t,
			      const struct vt_opts *o, bool sender,
			      struct ibv_qp_cap *granted)
{
	struct ibv_qp_init_attr qa = {
		.qp_type = o->type ? o->type : IBV_QPT_RC,
		.send_cq = t->scq,
		.recv_cq = t->rcq,
		.cap = o->cap,
		.sq_sig_all = !(sender && o->sig_some),
		.srq = sender ? NULL : t->srq,
	};
	struct ibv_qp *qp;

	/* across devices each side's CQs are its own context's */
	if (t->bctx)
		qa.send_cq = qa.recv_cq = sender ? t->scq : t->rcq;
	if (!qa.cap.max_send_wr) {
		qa.cap = (struct ibv_qp_cap){ .max_send_wr = 16,
					      .max_recv_wr = 16,
					      .max_send_sge = 4,
					      .max_recv_sge = 4,
					      .max_inline_data = 64 };
	}
	if (sender && o->send_ops) {
		struct ibv_qp_init_attr_ex xa = {
			.qp_type = qa.qp_type,
			.send_cq = qa.send_cq,
			.recv_cq = qa.recv_cq,
			.cap = qa.cap,
			.sq_sig_all = qa.sq_sig_all,
			.comp_mask = IBV_QP_INIT_ATTR_PD |
				     IBV_QP_INIT_ATTR_SEND_OPS_FLAGS,
			.pd = t->l.pd,
			.send_ops_flags = o->send_ops,
		};

		MAYBE_OBSERVE(ctx, o->observe_create,
			      qp = ctx->ops->ibv_create_qp_ex(t->l.ctx, &xa));
		if (qp)
			*granted = xa.cap;
		return qp;
	}
	MAYBE_OBSERVE(ctx, sender && o->observe_create,
		      qp = ctx->ops->ibv_create_qp(sender ? t->l.pd : b_pd(t),
						   &qa));
	if (qp)
		*granted = qa.cap;
	return qp;
}

/* RESET to INIT on @port, with every remote access (RC, UC) or the
 * rung's Q_Key (UD) */
static bool to_init(struct rc_ctx *ctx, struct ibv_qp *qp, int port)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT, .port_num = port };
	int mask = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT;

	if (qp->qp_type == IBV_QPT_UD) {
		a.qkey = VT_QKEY;
		mask |= IBV_QP_QKEY;
	} else {
		a.qp_access_flags = ACCESS_ALL;
		mask |= IBV_QP_ACCESS_FLAGS;
	}
	if (ctx->ops->ibv_modify_qp(qp, &a, mask))
		return broken(ctx, "ibv_modify_qp RESET to INIT");
	return true;
}

/*
 * RESET to RTS with the attributes ibv_modify_qp(3)'s tables require,
 * on @port, connected (RC, UC) to @dest at @dgid from the port's GID
 * @sgid, with every remote access.  RC's timers are the smallest:
 * min_rnr_timer, rnr_retry and timeout 1; retry_cnt 6, so that an ack
 * late on a slow host is retried rather than failed (rxe retries for
 * ever at 7, rxe_comp.c).
 */
static bool to_rts(struct rc_ctx *ctx, struct ibv_qp *qp, int port,
		   uint32_t dest, const union ibv_gid *dgid, int sgid)
{
	const struct rc_ops *ops = ctx->ops;
	bool rc = qp->qp_type == IBV_QPT_RC, ud = qp->qp_type == IBV_QPT_UD;
	struct ibv_qp_attr a = {};
	int mask;

	if (!to_init(ctx, qp, port))
		return false;
	a.qp_state = IBV_QPS_RTR;
	mask = IBV_QP_STATE;
	if (!ud) {
		a.path_mtu = IBV_MTU_1024;
		a.dest_qp_num = dest;
		a.ah_attr.is_global = 1;
		a.ah_attr.grh.dgid = *dgid;
		a.ah_attr.grh.sgid_index = sgid;
		a.ah_attr.grh.hop_limit = 64;
		a.ah_attr.port_num = port;
		mask |= IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
			IBV_QP_RQ_PSN;
	}
	if (rc) {
		a.max_dest_rd_atomic = 1;
		a.min_rnr_timer = 1;
		mask |= IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
	}
	if (ops->ibv_modify_qp(qp, &a, mask))
		return broken(ctx, "ibv_modify_qp INIT to RTR");
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	mask = IBV_QP_STATE | IBV_QP_SQ_PSN;
	if (rc) {
		a.timeout = 1;
		a.retry_cnt = 6;
		a.rnr_retry = 1;
		a.max_rd_atomic = 1;
		mask |= IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
			IBV_QP_MAX_QP_RD_ATOMIC;
	}
	if (ops->ibv_modify_qp(qp, &a, mask))
		return broken(ctx, "ibv_modify_qp RTR to RTS");
	return true;
}

/*
 * iWARP: a (on the target, the server's side) and b (on the peer, the
 * client's), in INIT, connected by the implementation's rdma_cm, each
 * QP named by its number; the read depths both ways are those the
 * connection rows use (the client's 3 and 2, the server's 2 and 3).
 */
static bool iwarp_connect(struct rc_ctx *ctx, struct vt *t, int port, int bport)
{
	struct cm_pair *p = &t->cm;
	struct rdma_conn_param c, s = { .qp_num = t->a->qp_num,
					.responder_resources = 2,
					.initiator_depth = 3 };

	if (!to_init(ctx, t->a, port) || !to_init(ctx, t->b, bport) ||
	    !cm_pair_open(ctx, p, AF_INET, true, ctx->ops, ctx->ops))
		return false;
	p->ext_qps = true;
	cm_client_param(&c, NULL, 0);
	c.qp_num = t->b->qp_num;
	return cm_listen(ctx, p) && cm_resolve_route(ctx, p) &&
	       cm_request(ctx, p, &c, NULL) && cm_accept(ctx, p, &s);
}

/* The IPv6 GID of @ca's @port: its index, or BROKEN */
static bool port_gid(struct rc_ctx *ctx, const char *ca, int port,
		     union ibv_gid *gid, int *index)
{
	*index = rc_port_gid(ca, port, RC_GID_IPV6, gid->raw);
	if (*index >= 0)
		return true;
	rc_obs_state(ctx->obs, RC_STATE_BROKEN,
		     "%s port %d has no IPv6 GID (set-up)", ca, port);
	return false;
}

static bool make_ah(struct rc_ctx *ctx, struct vt *t)
{
	struct ibv_ah_attr aa = { .is_global = 1,
				  .port_num = ctx->target->port };

	aa.grh.dgid = t->gid_b;
	aa.grh.sgid_index = t->gid_index;
	aa.grh.hop_limit = 64;
	if (!NEED(ctx, ibv_create_ah) || !NEED(ctx, ibv_destroy_ah))
		return false;
	t->ah = ctx->ops->ibv_create_ah(t->l.pd, &aa);
	return t->ah || broken(ctx, "ibv_create_ah");
}

/* The peer device's context, PD and buffer for b */
static bool peer_up(struct rc_ctx *ctx, struct vt *t)
{
	const struct rc_ops *ops = ctx->ops;
	struct ibv_device *dev = NULL;
	const char *name;
	int i;

	for (i = 0; t->l.list[i]; i++) {
		name = ops->ibv_get_device_name(t->l.list[i]);
		if (name && !strcmp(name, ctx->target->peer))
			dev = t->l.list[i];
	}
	if (!dev) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "the peer %s is not in the device list",
			     ctx->target->peer);
		return false;
	}
	t->bctx = ops->ibv_open_device(dev);
	if (!t->bctx)
		return broken(ctx, "ibv_open_device (peer)");
	t->bpd = ops->ibv_alloc_pd(t->bctx);
	if (!t->bpd)
		return broken(ctx, "ibv_alloc_pd (peer)");
	if (posix_memalign((void **)&t->bbuf, 4096, VT_BUF))
		return broken(ctx, "posix_memalign");
	memset(t->bbuf, 0, VT_BUF);
	return true;
}

bool vt_has_mw(struct rc_ctx *ctx, struct ibv_context *c, int type)
{
	const uint64_t type2 = IBV_DEVICE_MEM_WINDOW_TYPE_2A |
			       IBV_DEVICE_MEM_WINDOW_TYPE_2B;
	struct ibv_device_attr da;

	if (!NEED(ctx, ibv_query_device))
		return false;
	if (ctx->ops->ibv_query_device(c, &da))
		return broken(ctx, "ibv_query_device");
	if (!(da.device_cap_flags & IBV_DEVICE_MEM_WINDOW) ||
	    (type == IBV_MW_TYPE_2 && !(da.device_cap_flags & type2))) {
		rc_obs_state(ctx->obs, RC_STATE_UNSUPPORTED,
			     "the device has no memory windows of type %d",
			     type);
		return false;
	}
	return true;
}

bool vt_up(struct rc_ctx *ctx, struct vt *t, const struct vt_opts *o)
{
	const struct rc_ops *ops = ctx->ops;
	struct ibv_srq_init_attr sa = {
		.attr = { .max_wr = 16, .max_sge = 4 },
	};
	int port = ctx->target->port, bport = port;
	bool iwarp = ctx->target->link == RC_LINK_IWARP;
	bool peer = o->peer || iwarp;
	struct ibv_comp_channel *rch;
	struct vt_opts asked;

	memset(t, 0, sizeof(*t));
	/* a row of another type that does not say it needs one */
	if (iwarp && o->type && o->type != IBV_QPT_RC) {
		rc_obs_state(ctx->obs, RC_STATE_UNSUPPORTED,
			     "iWARP has RC QPs only");
		return false;
	}
	if (iwarp && !ctx->target->peer) {
		rc_obs_state(ctx->obs, RC_STATE_SKIP,
			     "iWARP: the QPs connect through rdma_cm, from "
			     "a second device (rdmaconf run --vm --two)");
		return false;
	}
	if (iwarp &&
	    (!NEED(ctx, rdma_create_event_channel) ||
	     !NEED(ctx, rdma_create_id) || !NEED(ctx, rdma_bind_addr) ||
	     !NEED(ctx, rdma_listen) || !NEED(ctx, rdma_resolve_addr) ||
	     !NEED(ctx, rdma_resolve_route) || !NEED(ctx, rdma_connect) ||
	     !NEED(ctx, rdma_accept) || !NEED(ctx, rdma_get_cm_event) ||
	     !NEED(ctx, rdma_ack_cm_event) || !NEED(ctx, rdma_destroy_id) ||
	     !NEED(ctx, rdma_destroy_event_channel)))
		return false;
	if (!NEED(ctx, ibv_create_cq) || !NEED(ctx, ibv_destroy_cq) ||
	    !NEED(ctx, ibv_create_qp) || !NEED(ctx, ibv_destroy_qp) ||
	    !NEED(ctx, ibv_modify_qp) || !NEED(ctx, ibv_reg_mr) ||
	    !NEED(ctx, ibv_dereg_mr) || !NEED(ctx, ibv_post_recv) ||
	    !NEED(ctx, ibv_post_send) || !NEED(ctx, ibv_poll_cq) ||
	    (o->send_ops &&
	     (!NEED(ctx, ibv_create_qp_ex) || !NEED(ctx, ibv_qp_to_qp_ex))) ||
	    (o->srq &&
	     (!NEED(ctx, ibv_create_srq) || !NEED(ctx, ibv_destroy_srq) ||
	      !NEED(ctx, ibv_post_srq_recv))))
		return false;
	if (!vl_up(ctx, &t->l, VL_PD) ||
	    (o->mw_type && !vt_has_mw(ctx, t->l.ctx, o->mw_type)))
		return false;
	/* iWARP addresses by IP (rdma_cm), its GID is the netdev's MAC */
	if (!iwarp &&
	    !port_gid(ctx, ctx->target->ca, port, &t->gid_a, &t->gid_index))
		return false;
	t->gid_b = t->gid_a;
	t->gid_index_b = t->gid_index;
	if (peer) {
		bport = ctx->target->peer_port;
		if (!peer_up(ctx, t) ||
		    (!iwarp && !port_gid(ctx, ctx->target->peer, bport,
					 &t->gid_b, &t->gid_index_b)))
			return false;
	}
	/* a channel is asked for to arm a CQ and take its events */
	if (o->channel || o->send_channel) {
		if (!NEED(ctx, ibv_create_comp_channel) ||
		    !NEED(ctx, ibv_destroy_comp_channel) ||
		    !NEED(ctx, ibv_req_notify_cq) ||
		    !NEED(ctx, ibv_get_cq_event) ||
		    !NEED(ctx, ibv_ack_cq_events))
			return false;
		t->ch = ops->ibv_create_comp_channel(
			o->send_channel ? t->l.ctx : vt_bctx(t));
		if (!t->ch)
			return broken(ctx, "ibv_create_comp_channel");
	}
	MAYBE_OBSERVE(ctx, o->observe_send_cq,
		      t->scq = ops->ibv_create_cq(
			      t->l.ctx, o->send_cqe ? o->send_cqe : 64,
			      o->send_channel ? &t->cq_context : NULL,
			      o->send_channel ? t->ch : NULL, 0));
	if (!t->scq)
		return broken(ctx, "ibv_create_cq (send)");
	/* the receive CQ's channel, unless the send CQ has it */
	rch = o->send_channel ? NULL : t->ch;
	if (o->wc_flags) {
		struct ibv_cq_init_attr_ex ca = { .cqe = 64,
						  .cq_context = &t->cq_context,
						  .channel = rch,
						  .wc_flags = o->wc_flags };

		if (!NEED(ctx, ibv_create_cq_ex))
			return false;
		t->rcqx = ops->ibv_create_cq_ex(vt_bctx(t), &ca);
		if (!t->rcqx)
			return broken(ctx, "ibv_create_cq_ex (receive)");
		t->rcq = ibv_cq_ex_to_cq(t->rcqx);
	} else {
		t->rcq = ops->ibv_create_cq(vt_bctx(t), 64, &t->cq_context, rch,
					    0);
	}
	if (!t->rcq)
		return broken(ctx, "ibv_create_cq (receive)");
	if (o->srq) {
		if (o->srq_wr)
			sa.attr.max_wr = o->srq_wr;
		MAYBE_OBSERVE(ctx, o->observe_srq,
			      t->srq = ops->ibv_create_srq(b_pd(t), &sa));
		if (!t->srq)
			return broken(ctx, "ibv_create_srq");
		t->srq_max_sge = sa.attr.max_sge;
		t->srq_max_wr = sa.attr.max_wr;
	}
	if (posix_memalign((void **)&t->buf, 4096, VT_BUF))
		return broken(ctx, "posix_memalign");
	memset(t->buf, 0, VT_BUF);
	t->mr = (ops->ibv_reg_mr)(t->l.pd, t->buf, VT_BUF, ACCESS_ALL);
	if (!t->mr)
		return broken(ctx, "ibv_reg_mr");
	t->bmr = t->mr;
	if (t->bbuf) {
		t->bmr = (ops->ibv_reg_mr)(t->bpd, t->bbuf, VT_BUF, ACCESS_ALL);
		if (!t->bmr)
			return broken(ctx, "ibv_reg_mr (peer)");
	}
	if (o->cap_of) {
		asked = *o;
		asked.cap = (struct ibv_qp_cap){ 0 };
		if (!o->cap_of(ctx, t, &asked.cap))
			return false;
		o = &asked;
	}
	t->a = make_qp(ctx, t, o, true, &t->cap);
	if (!t->a)
		return broken(ctx, "ibv_create_qp (a)");
	if (o->send_ops) {
		t->ax = ops->ibv_qp_to_qp_ex(t->a);
		if (!t->ax)
			return broken(ctx, "ibv_qp_to_qp_ex");
	}
	t->b = make_qp(ctx, t, o, false, &t->bcap);
	if (!t->b)
		return broken(ctx, "ibv_create_qp (b)");
	if (iwarp)
		return iwarp_connect(ctx, t, port, bport);
	if (!to_rts(ctx, t->a, port, t->b->qp_num, &t->gid_b, t->gid_index) ||
	    !to_rts(ctx, t->b, bport, t->a->qp_num, &t->gid_a, t->gid_index_b))
		return false;
	if (t->a->qp_type == IBV_QPT_UD && !make_ah(ctx, t))
		return false;
	return true;
}

void vt_down(struct rc_ctx *ctx, struct vt *t)
{
	const struct rc_ops *ops = ctx->ops;

	cm_pair_close(ctx, &t->cm);
	if (t->ah)
		ops->ibv_destroy_ah(t->ah);
	if (t->a)
		ops->ibv_destroy_qp(t->a);
	if (t->b)
		ops->ibv_destroy_qp(t->b);
	if (t->srq)
		ops->ibv_destroy_srq(t->srq);
	if (t->bmr && t->bmr != t->mr)
		ops->ibv_dereg_mr(t->bmr);
	if (t->mr)
		ops->ibv_dereg_mr(t->mr);
	if (t->scq)
		ops->ibv_destroy_cq(t->scq);
	if (t->rcq)
		ops->ibv_destroy_cq(t->rcq);
	if (t->ch)
		ops->ibv_destroy_comp_channel(t->ch);
	if (t->bpd)
		ops->ibv_dealloc_pd(t->bpd);
	if (t->bctx)
		ops->ibv_close_device(t->bctx);
	free(t->buf);
	free(t->bbuf);
	vl_down(ctx, &t->l);
	memset(t, 0, sizeof(*t));
}

struct ibv_context *vt_bctx(const struct vt *t)
{
	return t->bctx ? t->bctx : t->l.ctx;
}

/* regions 1 and 2 are b's (its receives, the target of RDMA), 0 and 3
 * a's; one buffer holds all four unless b is on the peer */
static bool b_region(const struct vt *t, int r)
{
	return t->bbuf && (r == 1 || r == 2);
}

uint64_t vt_addr(const struct vt *t, int r, size_t off)
{
	return (uintptr_t)((b_region(t, r) ? t->bbuf : t->buf) + r * VT_REGION +
			   off);
}

struct ibv_sge vt_sge(const struct vt *t, int r, size_t off, uint32_t len)
{
	return (struct ibv_sge){ .addr = vt_addr(t, r, off),
				 .length = len,
				 .lkey = b_region(t, r) ? t->bmr->lkey :
							  t->mr->lkey };
}

int vt_recv(struct rc_ctx *ctx, struct vt *t, uint64_t wr_id, int r,
	    uint32_t len)
{
	struct ibv_sge sg = vt_sge(t, r, 0, len);
	struct ibv_recv_wr wr = { .wr_id = wr_id,
				  .sg_list = &sg,
				  .num_sge = 1 };
	struct ibv_recv_wr *bad = NULL;

	if (t->srq)
		return ctx->ops->ibv_post_srq_recv(t->srq, &wr, &bad);
	return ctx->ops->ibv_post_recv(t->b, &wr, &bad);
}

struct ibv_send_wr vt_wr(const struct vt *t, enum ibv_wr_opcode op,
			 uint64_t wr_id, struct ibv_sge *sg, int n)
{
	struct ibv_send_wr wr = { .wr_id = wr_id,
				  .sg_list = sg,
				  .num_sge = n,
				  .opcode = op,
				  .send_flags = IBV_SEND_SIGNALED };

	if (t->a->qp_type == IBV_QPT_UD) {
		wr.wr.ud.ah = t->ah;
		wr.wr.ud.remote_qpn = t->b->qp_num;
		wr.wr.ud.remote_qkey = VT_QKEY;
	}
	return wr;
}

/*
 * Poll until @n arrived or @ms passed.  Between empty polls the CPU is
 * given back: for the first millisecond by yielding, then by pausing
 * 100 us a time.  The work a row waits for is the kernel's (rxe's tasks
 * and the network stack), on the same two CPUs as the other rows of the
 * run; a row that spins takes the time the completion needs.  The pause
 * only spaces the polls: the deadline decides.
 */
static int poll_for(struct rc_ctx *ctx, struct ibv_cq *cq, struct ibv_wc *wc,
		    int n, int ms)
{
	const struct timespec pause = { .tv_nsec = 100 * 1000 };
	double start = rc_now_ms(), end = start + rc_scaled_ms(ctx, ms), now;
	int got = 0, r;

	while (got < n) {
		r = ctx->ops->ibv_poll_cq(cq, n - got, wc + got);
		if (r < 0)
			break;
		got += r;
		now = rc_now_ms();
		if (got >= n || now > end)
			break;
		if (r)
			continue;
		if (now - start < 1)
			sched_yield();
		else
			nanosleep(&pause, NULL);
	}
	return got;
}

int vt_poll(struct rc_ctx *ctx, struct ibv_cq *cq, struct ibv_wc *wc, int n)
{
	return poll_for(ctx, cq, wc, n, VT_WAIT_MS);
}

bool vt_quiet(struct rc_ctx *ctx, struct ibv_cq *cq, struct ibv_wc *wc)
{
	return poll_for(ctx, cq, wc, 1, VT_QUIET_MS) == 0;
}

void vt_pattern(struct vt *t, int r, size_t len, uint8_t seed)
{
	uint8_t *p = vt_region(t, r);
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (uint8_t)(i * 7 + seed);
}

bool vt_zeroes(struct rc_ctx *ctx, const char *what, const uint8_t *p,
	       size_t len)
{
	static const uint8_t zero[VT_REGION];

	return vt_same(ctx, what, p, zero, len);
}

bool vt_wc_check(struct rc_ctx *ctx, const char *who, const struct ibv_wc *wc,
		 const struct vt_wc *w)
{
	char msg[RC_REASON_MAX] = "";
	unsigned int mask;
	size_t n = 0;

#define BAD(...)                                                              \
	do {                                                                  \
		if (n < sizeof(msg))                                          \
			n += snprintf(msg + n, sizeof(msg) - n, "%s%s.",      \
				      n ? "; " : "", who);                    \
		if (n < sizeof(msg))                                          \
			n += snprintf(msg + n, sizeof(msg) - n, __VA_ARGS__); \
	} while (0)
	if (wc->wr_id != w->wr_id)
		BAD("wr_id %llu, not %llu", (unsigned long long)wc->wr_id,
		    (unsigned long long)w->wr_id);
	if (wc->status != w->status)
		BAD("status %s, not %s", ibv_wc_status_str(wc->status),
		    ibv_wc_status_str(w->status));
	if (wc->qp_num != w->qp_num)
		BAD("qp_num %u, not %u", wc->qp_num, w->qp_num);
	if (w->opcode >= 0 && (int)wc->opcode != w->opcode)
		BAD("opcode %d, not %d", wc->opcode, w->opcode);
	if (w->byte_len >= 0 && wc->byte_len != w->byte_len)
		BAD("byte_len %u, not %lld", wc->byte_len,
		    (long long)w->byte_len);
	if (w->src_qp >= 0 && wc->src_qp != w->src_qp)
		BAD("src_qp %u, not %lld", wc->src_qp, (long long)w->src_qp);
	mask = IBV_WC_WITH_IMM | IBV_WC_WITH_INV | (w->ud ? IBV_WC_GRH : 0);
	/* "It is either 0 or the bitwise OR of one or more of the following
	 * flags" (ibv_poll_cq(3)): no bit the page lists no flag for */
	if (w->wc_flags >= 0 &&
	    (wc->wc_flags &
	     ~(unsigned int)(IBV_WC_GRH | IBV_WC_WITH_IMM | IBV_WC_WITH_INV |
			     IBV_WC_IP_CSUM_OK)))
		BAD("wc_flags %#x has a bit no flag of the page is",
		    wc->wc_flags);
	if (w->wc_flags >= 0 &&
	    (wc->wc_flags & mask) != ((unsigned int)w->wc_flags & mask))
		BAD("wc_flags %#x, not %#x (%s)", wc->wc_flags, w->wc_flags,
		    w->ud ? "GRH, WITH_IMM and WITH_INV" :
			    "WITH_IMM and WITH_INV");
	if (w->imm && wc->imm_data != w->imm_data)
		BAD("imm_data %02x %02x %02x %02x in memory, not %02x %02x "
		    "%02x %02x",
		    ((uint8_t *)&wc->imm_data)[0],
		    ((uint8_t *)&wc->imm_data)[1],
		    ((uint8_t *)&wc->imm_data)[2],
		    ((uint8_t *)&wc->imm_data)[3],
		    ((const uint8_t *)&w->imm_data)[0],
		    ((const uint8_t *)&w->imm_data)[1],
		    ((const uint8_t *)&w->imm_data)[2],
		    ((const uint8_t *)&w->imm_data)[3]);
#undef BAD
	if (!n)
		return true;
	rc_obs_violation(ctx->obs, "%s", msg);
	return false;
}

bool vt_expect_run(struct rc_ctx *ctx, const char *who, struct ibv_cq *cq,
		   struct ibv_wc *wc, int n, const struct vt_wc *first,
		   int len_step)
{
	struct vt_wc w = *first;
	int i, got = vt_poll(ctx, cq, wc, n);

	for (i = 0; i < got; i++) {
		w.wr_id = first->wr_id + i;
		if (first->byte_len >= 0)
			w.byte_len = first->byte_len + (int64_t)i * len_step;
		if (!vt_wc_check(ctx, who, &wc[i], &w))
			return false;
	}
	if (got == n)
		return true;
	rc_obs_violation(ctx->obs, "%s: %d completions, not %d", who, got, n);
	return false;
}

bool vt_a_run(struct rc_ctx *ctx, struct vt *t, struct ibv_wc *wc, int n,
	      uint64_t first_wr_id, int opcode, int64_t byte_len)
{
	return vt_expect_run(ctx, "send", t->scq, wc, n,
			     &(struct vt_wc){ .wr_id = first_wr_id,
					      .opcode = opcode,
					      .byte_len = byte_len,
					      .qp_num = t->a->qp_num,
					      .src_qp = -1,
					      .wc_flags = -1 },
			     0);
}

bool vt_b_run(struct rc_ctx *ctx, struct vt *t, struct ibv_wc *wc, int n,
	      uint64_t first_wr_id, int64_t byte_len, int len_step)
{
	return vt_expect_run(ctx, "recv", t->rcq, wc, n,
			     &(struct vt_wc){ .wr_id = first_wr_id,
					      .opcode = IBV_WC_RECV,
					      .byte_len = byte_len,
					      .qp_num = t->b->qp_num,
					      .src_qp = -1,
					      .wc_flags = 0 },
			     len_step);
}

bool vt_post_send(struct rc_ctx *ctx, struct vt *t, struct ibv_send_wr *wr,
		  struct ibv_send_wr **bad)
{
	*bad = NULL;
	RC_OBSERVE(ctx, ctx->ops->ibv_post_send(t->a, wr, bad));
	return ctx->obs->ret == 0;
}

struct ibv_send_wr vt_remote_wr(struct vt *t, enum ibv_wr_opcode op,
				struct ibv_sge *sg)
{
	struct ibv_send_wr wr = vt_wr(t, op, 1, sg, 1);

	wr.wr.rdma.remote_addr = vt_addr(t, 2, 0);
	wr.wr.rdma.rkey = t->bmr->rkey;
	return wr;
}

/* the settling READ's, apart from any WR a row posts */
#define VT_SETTLE_WR_ID 0x5e771e

bool vt_b_settled(struct rc_ctx *ctx, struct vt *t)
{
	struct ibv_sge sg = vt_sge(t, 3, 0, 8);
	struct ibv_send_wr wr = vt_remote_wr(t, IBV_WR_RDMA_READ, &sg), *bad;
	struct ibv_wc wc;

	wr.wr_id = VT_SETTLE_WR_ID;
	if (ctx->ops->ibv_post_send(t->a, &wr, &bad))
		return broken(ctx, "ibv_post_send of the settling READ");
	if (vt_poll(ctx, t->scq, &wc, 1) == 1 && wc.status == IBV_WC_SUCCESS &&
	    wc.wr_id == VT_SETTLE_WR_ID)
		return true;
	rc_obs_state(ctx->obs, RC_STATE_BROKEN,
		     "the settling READ did not complete (set-up)");
	return false;
}

/* One error completion of @wr_id with @status on @cq, for @qp_num: the
 * rest of its fields are not defined for an error (ibv_poll_cq(3)) */
static bool one_failed(struct rc_ctx *ctx, struct ibv_cq *cq, const char *who,
		       uint64_t wr_id, uint32_t qp_num,
		       enum ibv_wc_status status)
{
	return vt_one_wc(ctx, cq, who,
			 &(struct vt_wc){ .wr_id = wr_id,
					  .status = status,
					  .opcode = -1,
					  .byte_len = -1,
					  .qp_num = qp_num,
					  .src_qp = -1,
					  .wc_flags = -1 });
}

bool vt_a_failed(struct rc_ctx *ctx, struct vt *t, enum ibv_wc_status status)
{
	return one_failed(ctx, t->scq, "send", 1, t->a->qp_num, status);
}

bool vt_b_failed(struct rc_ctx *ctx, struct vt *t, uint64_t wr_id,
		 enum ibv_wc_status status)
{
	return one_failed(ctx, t->rcq, "recv", wr_id, t->b->qp_num, status);
}

bool vt_b_received(struct rc_ctx *ctx, struct vt *t, uint64_t wr_id,
		   uint32_t len)
{
	return vt_one_wc(ctx, t->rcq, "recv",
			 &(struct vt_wc){ .wr_id = wr_id,
					  .opcode = IBV_WC_RECV,
					  .byte_len = len,
					  .qp_num = t->b->qp_num,
					  .src_qp = -1,
					  .wc_flags = 0 });
}

bool vt_refused_wr(struct rc_ctx *ctx, const void *bad, const void *want)
{
	if (bad == want)
		return true;
	rc_obs_violation(ctx->obs, "bad_wr %s, not the WR refused",
			 bad ? "another WR" : "NULL");
	return false;
}

bool vt_refused_last(struct rc_ctx *ctx, const void *bad, const void *list,
		     size_t n, size_t size)
{
	const char *first = list, *last = first + (n - 1) * size;

	if (bad == last)
		return true;
	rc_obs_violation(ctx->obs, "bad_wr %s, not the last WR",
			 !bad ? "NULL" :
			 (const char *)bad >= first &&
					 (const char *)bad < first + n * size ?
				"an earlier WR" :
				"no WR of the list");
	return false;
}

bool vt_a_completed(struct rc_ctx *ctx, struct vt *t, uint64_t wr_id,
		    enum ibv_wc_opcode opcode)
{
	return vt_one_wc(ctx, t->scq, "send",
			 &(struct vt_wc){ .wr_id = wr_id,
					  .opcode = opcode,
					  .byte_len = -1,
					  .qp_num = t->a->qp_num,
					  .src_qp = -1,
					  .wc_flags = -1 });
}

bool vt_event_ready(struct rc_ctx *ctx, struct vt *t, int ms)
{
	struct pollfd p = { .fd = t->ch->fd, .events = POLLIN };

	return poll(&p, 1, rc_scaled_ms(ctx, ms)) == 1;
}

bool vt_take_event(struct rc_ctx *ctx, struct vt *t)
{
	struct ibv_cq *cq;
	void *cctx;

	if (ctx->ops->ibv_get_cq_event(t->ch, &cq, &cctx)) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_get_cq_event failed: %m");
		return false;
	}
	ctx->ops->ibv_ack_cq_events(cq, 1);
	return true;
}

bool vt_send_from_a(struct rc_ctx *ctx, struct vt *t, unsigned int flags,
		    uint32_t lkey_xor, bool observe)
{
	struct ibv_sge sg = vt_sge(t, 0, 0, 32);
	struct ibv_send_wr wr = vt_wr(t, IBV_WR_SEND, 1, &sg, 1), *bad;

	sg.lkey ^= lkey_xor;
	wr.send_flags |= IBV_SEND_SIGNALED | flags;
	if (!vt_recv_ready(ctx, t, 2, 64))
		return false;
	if (observe)
		return vt_post_send(ctx, t, &wr, &bad);
	if (!ctx->ops->ibv_post_send(t->a, &wr, &bad))
		return true;
	rc_obs_state(ctx->obs, RC_STATE_BROKEN,
		     "ibv_post_send failed (set-up): %m");
	return false;
}

bool vt_sent_no_event(struct rc_ctx *ctx, struct vt *t, unsigned int flags,
		      const char *what, bool observe)
{
	if (!vt_send_from_a(ctx, t, flags, 0, observe) ||
	    !vt_a_completed(ctx, t, 1, IBV_WC_SEND) ||
	    !vt_b_received(ctx, t, 2, 32))
		return false;
	if (!vt_event_ready(ctx, t, VT_QUIET_MS))
		return true;
	rc_obs_violation(ctx->obs,
			 "%s: an event for a successful send completion", what);
	vt_take_event(ctx, t);
	return false;
}

bool vt_device_attr(struct rc_ctx *ctx, struct vt *t,
		    struct ibv_device_attr *attr)
{
	if (!NEED(ctx, ibv_query_device))
		return false;
	if (!ctx->ops->ibv_query_device(t->l.ctx, attr))
		return true;
	rc_obs_state(ctx->obs, RC_STATE_BROKEN,
		     "ibv_query_device failed (set-up): %m");
	return false;
}

bool vt_recv_ready(struct rc_ctx *ctx, struct vt *t, uint64_t id, uint32_t len)
{
	if (vt_recv(ctx, t, id, 1, len) == 0)
		return true;
	rc_obs_state(ctx->obs, RC_STATE_BROKEN,
		     "ibv_post_recv failed (set-up): %m");
	return false;
}

bool vt_one_wc(struct rc_ctx *ctx, struct ibv_cq *cq, const char *who,
	       const struct vt_wc *w)
{
	struct ibv_wc wc;

	if (vt_poll(ctx, cq, &wc, 1) != 1) {
		rc_obs_violation(ctx->obs, "%s: no completion within %d ms",
				 who, rc_scaled_ms(ctx, VT_WAIT_MS));
		return false;
	}
	return vt_wc_check(ctx, who, &wc, w);
}

bool vt_same(struct rc_ctx *ctx, const char *what, const void *got,
	     const void *want, size_t len)
{
	const uint8_t *g = got, *w = want;
	size_t i;

	for (i = 0; i < len; i++) {
		if (g[i] != w[i]) {
			rc_obs_violation(ctx->obs,
					 "%s: byte %zu is 0x%02x, not 0x%02x "
					 "(of %zu)",
					 what, i, g[i], w[i], len);
			rc_obs_out(ctx->obs, got, len);
			return false;
		}
	}
	return true;
}

void vt_recv_list(const struct vt *t, struct ibv_recv_wr *wr,
		  struct ibv_sge *sg, int n, size_t off, uint32_t len,
		  uint64_t first_wr_id)
{
	int i;

	for (i = 0; i < n; i++) {
		sg[i] = vt_sge(t, 1, off + (size_t)i * len, len);
		wr[i] = (struct ibv_recv_wr){ .wr_id = first_wr_id + i,
					      .sg_list = &sg[i],
					      .num_sge = 1,
					      .next = i + 1 < n ? &wr[i + 1] :
								  NULL };
	}
}

bool vt_nothing_beyond(struct rc_ctx *ctx, struct ibv_cq *cq, const char *who,
		       unsigned int n)
{
	struct ibv_wc wc;

	if (vt_quiet(ctx, cq, &wc))
		return true;
	rc_obs_violation(ctx->obs,
			 "%s: a completion beyond the %u posted (wr_id %llu)",
			 who, n, (unsigned long long)wc.wr_id);
	return false;
}

void vt_sleep(struct rc_ctx *ctx, int ms)
{
	double s = rc_scaled_ms(ctx, ms) / 1000.0;
	struct timespec ts = { .tv_sec = (time_t)s,
			       .tv_nsec = (long)((s - (time_t)s) * 1e9) };

	nanosleep(&ts, NULL);
}

bool vt_lands(struct rc_ctx *ctx, struct vt *t, const char *what,
	      const void *got, const void *want, size_t len)
{
	/*
	 * A UC requester's completion says the message left: UC has no
	 * acknowledgement to tell when the responder wrote the bytes, so
	 * their arrival is waited for.  Nor has iWARP's RDMA Write (RFC
	 * 5040: it completes when its buffer may be reused, the bytes on
	 * their way over TCP).  On IB's RC the ACK came first: no wait.
	 */
	if (t->a->qp_type == IBV_QPT_UC || ctx->target->link == RC_LINK_IWARP)
		rc_wait_same(ctx, got, want, len, VT_WAIT_MS);
	return vt_same(ctx, what, got, want, len);
}

uint8_t *vt_region(struct vt *t, int r)
{
	return (uint8_t *)(uintptr_t)vt_addr(t, r, 0);
}

bool vt_write_lands(struct rc_ctx *ctx, struct vt *t, uint32_t rkey,
		    uint64_t remote_addr, uint8_t *where, uint32_t len)
{
	struct ibv_sge sg = vt_sge(t, 0, 0, len);
	struct ibv_send_wr wr = vt_wr(t, IBV_WR_RDMA_WRITE, 1, &sg, 1), *bad;
	uint8_t before = where[-1], after = where[len];
	struct ibv_wc wc;
	int err;

	vt_pattern(t, 0, len, 5);
	wr.wr.rdma.remote_addr = remote_addr;
	wr.wr.rdma.rkey = rkey;
	err = ctx->ops->ibv_post_send(t->a, &wr, &bad);
	if (err) {
		rc_obs_violation(ctx->obs, "post: RDMA_WRITE refused (%s)",
				 rc_errno_name(err));
		return false;
	}
	if (vt_poll(ctx, t->scq, &wc, 1) != 1) {
		rc_obs_violation(ctx->obs, "send: no completion within %d ms",
				 rc_scaled_ms(ctx, VT_WAIT_MS));
		return false;
	}
	/* where the bytes land before what the completion says: a write
	 * the responder refuses lands nowhere, and an iWARP requester hears
	 * of it (a Terminate) before or after its write completes, so the
	 * status alone would name the one failure two ways */
	if (!vt_lands(ctx, t, "remote", where, vt_region(t, 0), len) ||
	    !vt_wc_check(ctx, "send", &wc,
			 &(struct vt_wc){ .wr_id = 1,
					  .opcode = IBV_WC_RDMA_WRITE,
					  .byte_len = -1,
					  .qp_num = t->a->qp_num,
					  .src_qp = -1,
					  .wc_flags = -1 }))
		return false;
	if (where[-1] != before || where[len] != after) {
		rc_obs_violation(ctx->obs,
				 "remote: a byte beside the %u written changed",
				 len);
		return false;
	}
	return true;
}
