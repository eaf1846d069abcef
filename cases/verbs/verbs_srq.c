// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <time.h>

#include "verbs_srq.h"

bool vs_query(struct rc_ctx *ctx, struct ibv_srq *srq, struct ibv_srq_attr *a)
{
	int err;

	memset(a, 0, sizeof(*a));
	if (!rc_need_call(ctx, (const void *)ctx->ops->ibv_query_srq,
			  "ibv_query_srq"))
		return false;
	err = ctx->ops->ibv_query_srq(srq, a);
	if (!err)
		return true;
	rc_obs_state(ctx->obs, RC_STATE_BROKEN,
		     "ibv_query_srq failed (set-up): %s", rc_errno_name(err));
	return false;
}

bool vs_fits(struct rc_ctx *ctx, uint64_t wr, uint64_t sge)
{
	if (wr * (32 + 16 * sge) <= VS_BYTES)
		return true;
	rc_obs_state(ctx->obs, RC_STATE_UNSUPPORTED,
		     "an SRQ of %llu WRs of %llu SGEs is more of the machine "
		     "than a row takes (%u MB at 32 bytes a WR, 16 an SGE)",
		     (unsigned long long)wr, (unsigned long long)sge,
		     VS_BYTES >> 20);
	return false;
}

bool vs_async_calls(struct rc_ctx *ctx)
{
	return rc_need_call(ctx, (const void *)ctx->ops->ibv_get_async_event,
			    "ibv_get_async_event") &&
	       rc_need_call(ctx, (const void *)ctx->ops->ibv_ack_async_event,
			    "ibv_ack_async_event");
}

bool vs_event_ready(struct rc_ctx *ctx, struct ibv_context *c, int ms)
{
	struct pollfd p = { .fd = c->async_fd, .events = POLLIN };

	return poll(&p, 1, rc_scaled_ms(ctx, ms)) == 1;
}

bool vs_get_ready(struct rc_ctx *ctx, struct ibv_context *c,
		  struct ibv_async_event *ev)
{
	int flags = -1;

	/* none came: the call made all the same, on a non-blocking fd,
	 * so that the row's result is what it returns then */
	if (!vs_event_ready(ctx, c, VS_EVENT_MS)) {
		rc_obs_violation(ctx->obs, "event: none within %d ms",
				 rc_scaled_ms(ctx, VS_EVENT_MS));
		flags = fcntl(c->async_fd, F_GETFL);
		if (flags < 0 ||
		    fcntl(c->async_fd, F_SETFL, flags | O_NONBLOCK) < 0) {
			rc_obs_state(ctx->obs, RC_STATE_BROKEN, "fcntl: %m");
			return false;
		}
	}
	memset(ev, 0, sizeof(*ev));
	RC_OBSERVE(ctx, ctx->ops->ibv_get_async_event(c, ev));
	if (flags >= 0) {
		fcntl(c->async_fd, F_SETFL, flags);
		if (!ctx->obs->ret)
			ctx->ops->ibv_ack_async_event(ev);
		return false;
	}
	return ctx->obs->ret == 0;
}

bool vs_take_until(struct rc_ctx *ctx, struct ibv_context *c,
		   enum ibv_event_type want, struct ibv_async_event *ev,
		   int *others)
{
	for (;;) {
		if (!vs_get_ready(ctx, c, ev))
			return false;
		if (ev->event_type == want)
			return true;
		ctx->ops->ibv_ack_async_event(ev);
		++*others;
	}
}

int vs_event_of(struct rc_ctx *ctx, struct ibv_context *c,
		enum ibv_event_type type, int ms, struct ibv_async_event *ev,
		int *others)
{
	double end = rc_now_ms() + rc_scaled_ms(ctx, ms);
	struct pollfd p = { .fd = c->async_fd, .events = POLLIN };
	int left;

	for (;;) {
		left = (int)(end - rc_now_ms());
		if (left < 0 || poll(&p, 1, left) != 1)
			return 0;
		memset(ev, 0, sizeof(*ev));
		if (ctx->ops->ibv_get_async_event(c, ev))
			return -1;
		if (ev->event_type == type)
			return 1;
		ctx->ops->ibv_ack_async_event(ev);
		if (others)
			++*others;
	}
}

struct ibv_context *vs_ctx_of(struct vt *t, enum ibv_event_type type)
{
	switch (type) {
	case IBV_EVENT_SRQ_LIMIT_REACHED:
	case IBV_EVENT_SRQ_ERR:
	case IBV_EVENT_QP_LAST_WQE_REACHED:
	case IBV_EVENT_QP_ACCESS_ERR:
		return vt_bctx(t);
	default:
		return t->l.ctx;
	}
}

bool vs_provoked(struct rc_ctx *ctx, struct vt *t, enum ibv_event_type type,
		 const char *name, struct ibv_async_event *ev)
{
	if (vs_event_of(ctx, vs_ctx_of(t, type), type, VS_EVENT_MS, ev, NULL) >
	    0)
		return true;
	rc_obs_state(ctx->obs, RC_STATE_BROKEN, "no %s (set-up): %m", name);
	return false;
}

bool vs_post(struct rc_ctx *ctx, struct vt *t, int n)
{
	struct ibv_sge sg;
	struct ibv_recv_wr wr = { .sg_list = &sg, .num_sge = 1 }, *bad;
	int i, err;

	for (i = 0; i < n; i++) {
		sg = vt_sge(t, 1, i * 64, 64);
		wr.wr_id = 100 + i;
		err = ctx->ops->ibv_post_srq_recv(t->srq, &wr, &bad);
		if (err) {
			rc_obs_state(ctx->obs, RC_STATE_BROKEN,
				     "ibv_post_srq_recv failed (set-up): %s",
				     rc_errno_name(err));
			return false;
		}
	}
	return true;
}

bool vs_consume(struct rc_ctx *ctx, struct vt *t, int n)
{
	struct ibv_sge sg = vt_sge(t, 0, 0, 32);
	struct ibv_send_wr wr, *bad;
	struct ibv_wc wc[2];
	int i;

	for (i = 0; i < n; i++) {
		wr = vt_wr(t, IBV_WR_SEND, 200 + i, &sg, 1);
		if (ctx->ops->ibv_post_send(t->a, &wr, &bad)) {
			rc_obs_state(ctx->obs, RC_STATE_BROKEN,
				     "ibv_post_send failed (set-up): %m");
			return false;
		}
		if (vt_poll(ctx, t->rcq, &wc[0], 1) != 1 ||
		    wc[0].status != IBV_WC_SUCCESS ||
		    vt_poll(ctx, t->scq, &wc[1], 1) != 1) {
			rc_obs_state(
				ctx->obs, RC_STATE_BROKEN,
				"SEND %d of %d to the SRQ did not complete "
				"(set-up)",
				i + 1, n);
			return false;
		}
	}
	return true;
}

bool vs_arm(struct rc_ctx *ctx, struct vt *t, uint32_t limit)
{
	struct ibv_srq_attr a = { .srq_limit = limit };
	int err;

	if (!rc_need_call(ctx, (const void *)ctx->ops->ibv_modify_srq,
			  "ibv_modify_srq"))
		return false;
	err = ctx->ops->ibv_modify_srq(t->srq, &a, IBV_SRQ_LIMIT);
	if (!err)
		return true;
	rc_obs_state(ctx->obs, RC_STATE_BROKEN,
		     "ibv_modify_srq IBV_SRQ_LIMIT failed (set-up): %s",
		     rc_errno_name(err));
	return false;
}

bool vs_below_limit(struct rc_ctx *ctx, struct vt *t)
{
	return vs_post(ctx, t, VS_POSTED) && vs_arm(ctx, t, VS_LIMIT) &&
	       vs_consume(ctx, t, VS_POSTED - VS_LIMIT + 1);
}

bool vs_up(struct rc_ctx *ctx, struct vs_env *e, bool traffic, enum vl_rung top)
{
	struct vt_opts o = { .srq = true };

	memset(e, 0, sizeof(*e));
	e->traffic = traffic;
	if (!traffic)
		return vl_up(ctx, &e->l, top);
	return rc_need_call(ctx, (const void *)ctx->ops->ibv_get_async_event,
			    "ibv_get_async_event") &&
	       rc_need_call(ctx, (const void *)ctx->ops->ibv_ack_async_event,
			    "ibv_ack_async_event") &&
	       vt_up(ctx, &e->t, &o);
}

struct vl *vs_ladder(struct vs_env *e)
{
	return e->traffic ? &e->t.l : &e->l;
}

struct vt *vs_pair(struct vs_env *e)
{
	return e->traffic ? &e->t : NULL;
}

void vs_down(struct rc_ctx *ctx, struct vs_env *e)
{
	if (e->traffic)
		vt_down(ctx, &e->t);
	else
		vl_down(ctx, &e->l);
}

static void *bg_thread(void *p)
{
	struct vs_bg *b = p;

	RC_OBSERVE(b->ctx, b->call(b->ctx, b->arg));
	pthread_mutex_lock(&b->m);
	b->done = true;
	pthread_cond_broadcast(&b->c);
	pthread_mutex_unlock(&b->m);
	return NULL;
}

bool vs_bg_start(struct vs_bg *b, struct rc_ctx *ctx,
		 long long (*call)(struct rc_ctx *ctx, void *arg), void *arg)
{
	*b = (struct vs_bg){ .ctx = ctx, .call = call, .arg = arg };
	pthread_mutex_init(&b->m, NULL);
	pthread_cond_init(&b->c, NULL);
	if (!pthread_create(&b->th, NULL, bg_thread, b))
		return true;
	rc_obs_state(ctx->obs, RC_STATE_BROKEN, "pthread_create: %m");
	return false;
}

bool vs_bg_done_within(struct vs_bg *b, int ms)
{
	struct timespec end;
	bool done;

	clock_gettime(CLOCK_REALTIME, &end);
	ms = rc_scaled_ms(b->ctx, ms);
	end.tv_sec += ms / 1000;
	end.tv_nsec += (long)(ms % 1000) * 1000000;
	if (end.tv_nsec >= 1000000000) {
		end.tv_sec++;
		end.tv_nsec -= 1000000000;
	}
	pthread_mutex_lock(&b->m);
	while (!b->done && pthread_cond_timedwait(&b->c, &b->m, &end) == 0)
		;
	done = b->done;
	pthread_mutex_unlock(&b->m);
	return done;
}

void vs_bg_join(struct vs_bg *b)
{
	pthread_join(b->th, NULL);
}
