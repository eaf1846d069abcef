// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_get_async_event(3): "waits for the next async event of the RDMA
 * device context context and returns it through the pointer event";
 * "One member of the element union will be valid, depending on the
 * event_type member of the structure"; it "returns 0 on success, and -1
 * on error"; it "is a blocking function".  ibv_ack_async_event()
 * "acknowledge the async event event"; "All async events that
 * ibv_get_async_event() returns must be acknowledged", and destroying an
 * object "will wait for all affiliated events for the object to be
 * acknowledged".
 *
 * Events are provoked for real: an SRQ drops below its limit (receives
 * taken by SENDs on the traffic rung), the port's netdev goes down and up.
 * Whether an event is there is read on async_fd (poll(2) with a
 * deadline), so that no row blocks in the call but the one about it.
 * - get_async_event/srq-limit-element: IBV_EVENT_SRQ_LIMIT_REACHED, and
 *   element.srq the SRQ that dropped below its limit
 * - get_async_event/blocks-until-event: called (in a thread) before any
 *   event: it has not returned after VT_QUIET_MS; the SRQ then drops
 *   below its limit and it returns 0 with that event
 * - get_async_event/nonblocking-empty: async_fd O_NONBLOCK, no event:
 *   -1 and EAGAIN
 * - get_async_event/port-err-on-link-down: the port's netdev set down:
 *   IBV_EVENT_PORT_ERR with element.port_num the port
 * - get_async_event/port-active-on-link-up: and up again:
 *   IBV_EVENT_PORT_ACTIVE with element.port_num the port
 * - ack_async_event/destroy-after-ack: the limit event got and
 *   acknowledged: ibv_destroy_srq returns 0 (and does not wait for ever)
 */
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include "verbs_link.h"
#include "verbs_nl.h"
#include "verbs_srq.h"
#include "../../harness/device.h"

#define DOC_WAITS                                                           \
	"ibv_get_async_event() waits for the next async event of the RDMA " \
	"device context context and returns it through the pointer event, " \
	"which is an ibv_async_event struct, as defined in "                \
	"<infiniband/verbs.h>."
#define DOC_ELEMENT                                                    \
	"One member of the element union will be valid, depending on " \
	"the event_type member of the structure."
#define DOC_BLOCKING "ibv_get_async_event() is a blocking function."
#define DOC_NONBLOCK                                                   \
	"The following code example demonstrates one possible way to " \
	"work with async events in non-blocking mode."
#define DOC_RET "ibv_get_async_event() returns 0 on success, and -1 on error."
#define DOC_ACK                                                        \
	"All async events that ibv_get_async_event() returns must be " \
	"acknowledged using ibv_ack_async_event()."

/* how long a port may take to come back, GIDs and all, before scaling */
#define PORT_BACK_MS 15000

struct ae_row;
typedef void ae_check(const struct ae_row *row, struct rc_ctx *ctx,
		      struct vl *l, struct vt *t);

struct ae_row {
	struct rc_case c;
	ae_check *check;
	bool traffic; /* on the traffic rung (else a context) */
	int arg;
};

static ae_check srq_limit_element, blocks_until_event, nonblocking_empty,
	port_event, destroy_after_ack;

/* the port rows change what every row reads: alone, as root */
#define NEEDS_PORT (RC_NEED_DEVICE | RC_NEED_ROOT)

static const struct ae_row get_rows[] = {
	{ .c = { .id = "verbs/get_async_event/srq-limit-element",
		 .doc = DOC_ELEMENT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "an SRQ armed at 3 and left with 2 receives: 0, "
			 "event_type IBV_EVENT_SRQ_LIMIT_REACHED, element.srq "
			 "that SRQ",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(0) } },
	  .check = srq_limit_element,
	  .traffic = true },
	{ .c = { .id = "verbs/get_async_event/blocks-until-event",
		 .doc = DOC_BLOCKING,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "called in a thread with no event there: not returned "
			 "after 100 ms (scaled); the SRQ then drops below its "
			 "limit, and the call returns 0 with that event",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(0) } },
	  .check = blocks_until_event,
	  .traffic = true },
	{ .c = { .id = "verbs/get_async_event/nonblocking-empty",
		 .doc = DOC_NONBLOCK " ... " DOC_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the page's example sets async_fd O_NONBLOCK: with no "
			 "event there, the call fails at once with read(2)'s "
			 "EAGAIN rather than waiting",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_FAILS(EAGAIN) } },
	  .check = nonblocking_empty },
	{ .c = { .id = "verbs/get_async_event/port-err-on-link-down",
		 .doc = DOC_WAITS " ... " DOC_ELEMENT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the port's netdev set down (`ip link set DEV down`): "
			 "IBV_EVENT_PORT_ERR (\"Link became unavailable on a "
			 "port\") with element.port_num the port; the link is "
			 "set up again and the port's GIDs waited for",
		 .needs = NEEDS_PORT,
		 .shares = RC_SHARE_ALONE,
		 .watchdog_ms = 120000,
		 .contract = { RC_RETURNS(0) } },
	  .check = port_event,
	  .arg = IBV_EVENT_PORT_ERR },
	{ .c = { .id = "verbs/get_async_event/port-active-on-link-up",
		 .doc = DOC_WAITS " ... " DOC_ELEMENT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the port's netdev set down, then up: "
			 "IBV_EVENT_PORT_ACTIVE (\"Link became active on a "
			 "port\") with element.port_num the port",
		 .needs = NEEDS_PORT,
		 .shares = RC_SHARE_ALONE,
		 .watchdog_ms = 120000,
		 .contract = { RC_RETURNS(0) } },
	  .check = port_event,
	  .arg = IBV_EVENT_PORT_ACTIVE },
};

static const struct ae_row ack_rows[] = {
	{ .c = { .id = "verbs/ack_async_event/destroy-after-ack",
		 .doc = DOC_ACK,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the SRQ limit event got and acknowledged, the QP on "
			 "the SRQ destroyed: ibv_destroy_srq returns 0; an ack "
			 "not counted makes it wait for ever (the watchdog's "
			 "HANG)",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_ANY_RETURN } },
	  .check = destroy_after_ack,
	  .traffic = true },
};

/* The call under test, once an event is ready: 0 and the event in @ev,
 * or the row BROKEN/violated and false */
static bool get_ready(struct rc_ctx *ctx, struct ibv_context *c,
		      struct ibv_async_event *ev)
{
	if (!vs_event_ready(ctx, c, VS_EVENT_MS)) {
		rc_obs_violation(ctx->obs, "event: none within %d ms",
				 rc_scaled_ms(ctx, VS_EVENT_MS));
		return false;
	}
	memset(ev, 0, sizeof(*ev));
	RC_OBSERVE(ctx, ctx->ops->ibv_get_async_event(c, ev));
	return ctx->obs->ret == 0;
}

static void check_srq_event(struct rc_ctx *ctx, struct vt *t,
			    const struct ibv_async_event *ev)
{
	if (ev->event_type != IBV_EVENT_SRQ_LIMIT_REACHED)
		rc_obs_violation(ctx->obs,
				 "event_type %d, not "
				 "IBV_EVENT_SRQ_LIMIT_REACHED (%d)",
				 ev->event_type, IBV_EVENT_SRQ_LIMIT_REACHED);
	else if (ev->element.srq != t->srq)
		rc_obs_violation(ctx->obs,
				 "element.srq: not the SRQ below its limit");
}

static void srq_limit_element(const struct ae_row *row, struct rc_ctx *ctx,
			      struct vl *l, struct vt *t)
{
	struct ibv_async_event ev;

	if (!vs_below_limit(ctx, t) || !get_ready(ctx, t->l.ctx, &ev))
		return;
	check_srq_event(ctx, t, &ev);
	ctx->ops->ibv_ack_async_event(&ev);
}

struct getter {
	struct rc_ctx *ctx;
	struct ibv_context *c;
	struct ibv_async_event ev;
	pthread_mutex_t m;
	bool done;
};

static void *get_thread(void *p)
{
	struct getter *g = p;

	RC_OBSERVE(g->ctx, g->ctx->ops->ibv_get_async_event(g->c, &g->ev));
	pthread_mutex_lock(&g->m);
	g->done = true;
	pthread_mutex_unlock(&g->m);
	return NULL;
}

static bool getter_done(struct getter *g)
{
	bool done;

	pthread_mutex_lock(&g->m);
	done = g->done;
	pthread_mutex_unlock(&g->m);
	return done;
}

static void blocks_until_event(const struct ae_row *row, struct rc_ctx *ctx,
			       struct vl *l, struct vt *t)
{
	struct getter g = { .ctx = ctx, .c = t->l.ctx };
	double end;
	pthread_t th;

	pthread_mutex_init(&g.m, NULL);
	if (pthread_create(&th, NULL, get_thread, &g)) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN, "pthread_create: %m");
		return;
	}
	usleep(rc_scaled_ms(ctx, VT_QUIET_MS) * 1000);
	if (getter_done(&g)) {
		pthread_join(th, NULL);
		rc_obs_violation(ctx->obs, "returned with no event there");
		if (!ctx->obs->ret)
			ctx->ops->ibv_ack_async_event(&g.ev);
		return;
	}
	/* set-up that fails leaves the thread blocked: the row ends, and
	 * the process with it */
	if (!vs_below_limit(ctx, t))
		return;
	end = rc_now_ms() + rc_scaled_ms(ctx, VS_EVENT_MS);
	while (!getter_done(&g) && rc_now_ms() < end)
		usleep(1000);
	if (!getter_done(&g)) {
		rc_obs_violation(ctx->obs,
				 "event: not returned within %d ms "
				 "of the SRQ below its limit",
				 rc_scaled_ms(ctx, VS_EVENT_MS));
		return;
	}
	pthread_join(th, NULL);
	if (ctx->obs->ret)
		return;
	check_srq_event(ctx, t, &g.ev);
	ctx->ops->ibv_ack_async_event(&g.ev);
}

static void nonblocking_empty(const struct ae_row *row, struct rc_ctx *ctx,
			      struct vl *l, struct vt *t)
{
	struct ibv_async_event ev;
	int flags = fcntl(l->ctx->async_fd, F_GETFL);

	if (flags < 0 ||
	    fcntl(l->ctx->async_fd, F_SETFL, flags | O_NONBLOCK) < 0) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN, "fcntl: %m");
		return;
	}
	RC_OBSERVE(ctx, ctx->ops->ibv_get_async_event(l->ctx, &ev));
	if (!ctx->obs->ret)
		ctx->ops->ibv_ack_async_event(&ev);
}

#define SCAN_GIDS 16
/* The port's first GIDs as sysfs has them, "" where there is none */
static void gids_of(struct rc_ctx *ctx, char g[SCAN_GIDS][48])
{
	int i;

	for (i = 0; i < SCAN_GIDS; i++)
		if (rc_sysfs_read(g[i], sizeof(g[i]),
				  RC_SYSFS_IB "/%s/ports/%d/gids/%d",
				  ctx->target->ca, ctx->target->port, i) ||
		    !strcmp(g[i], "0000:0000:0000:0000:0000:0000:0000:0000"))
			g[i][0] = 0;
}

/* Until the port is ACTIVE again with every GID it had: false on timeout */
static bool port_back(struct rc_ctx *ctx, char want[SCAN_GIDS][48])
{
	double end = rc_now_ms() + rc_scaled_ms(ctx, PORT_BACK_MS);
	char now[SCAN_GIDS][48], state[64];
	int i, j, missing;

	do {
		missing = rc_sysfs_read(state, sizeof(state),
					RC_SYSFS_IB "/%s/ports/%d/state",
					ctx->target->ca, ctx->target->port) ||
			  !strstr(state, "ACTIVE");
		gids_of(ctx, now);
		for (i = 0; i < SCAN_GIDS; i++) {
			for (j = 0; want[i][0] && j < SCAN_GIDS; j++)
				if (!strcmp(want[i], now[j]))
					break;
			missing += want[i][0] && j == SCAN_GIDS;
		}
		if (!missing)
			return true;
		usleep(50000);
	} while (rc_now_ms() < end);
	return false;
}

static void port_event(const struct ae_row *row, struct rc_ctx *ctx,
		       struct vl *l, struct vt *t)
{
	enum ibv_event_type want = row->arg;
	char dev[IFNAMSIZ], gids[SCAN_GIDS][48];
	struct ibv_async_event ev;
	struct vk_link link;
	int got, err, others = 0;

	if (!(ctx->shares & RC_SHARE_ALONE)) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "a row sets the link down without "
			     "RC_SHARE_ALONE");
		return;
	}
	if (!vn_port_netdev(ctx->target->ca, ctx->target->port, dev,
			    sizeof(dev))) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "no netdev under %s port %d (RDMA netlink)",
			     ctx->target->ca, ctx->target->port);
		return;
	}
	gids_of(ctx, gids);
	err = vk_down(&link, dev);
	if (err) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "setting %s down: %s (set-up)", dev,
			     rc_errno_name(-err));
		return;
	}
	/* the event before the one the row is about is set-up */
	if (want == IBV_EVENT_PORT_ACTIVE) {
		got = vs_event_of(ctx, l->ctx, IBV_EVENT_PORT_ERR, VS_EVENT_MS,
				  &ev, NULL);
		if (got > 0)
			ctx->ops->ibv_ack_async_event(&ev);
		err = vk_up(&link);
		if (err || got <= 0) {
			rc_obs_state(ctx->obs, RC_STATE_BROKEN,
				     "%s down gave no IBV_EVENT_PORT_ERR, or "
				     "up failed (set-up)",
				     dev);
			goto restore;
		}
	}
	/* events of other types (a GID's change) before it are taken and
	 * acknowledged; the one wanted is taken by the call under test */
	for (;;) {
		if (!get_ready(ctx, l->ctx, &ev))
			goto restore;
		if (ev.event_type == want)
			break;
		ctx->ops->ibv_ack_async_event(&ev);
		others++;
	}
	if (ev.element.port_num != ctx->target->port)
		rc_obs_violation(ctx->obs,
				 "element.port_num %d, not the port %d "
				 "(after %d other events)",
				 ev.element.port_num, ctx->target->port,
				 others);
	ctx->ops->ibv_ack_async_event(&ev);
restore:
	err = vk_restore(&link);
	if (err)
		rc_obs_violation(ctx->obs,
				 "%s up, with its routes and neighbours: %s",
				 dev, rc_errno_name(-err));
	if (!port_back(ctx, gids))
		rc_obs_violation(ctx->obs,
				 "port: %s port %d not ACTIVE with its GIDs "
				 "within %d ms of %s up",
				 ctx->target->ca, ctx->target->port,
				 rc_scaled_ms(ctx, PORT_BACK_MS), dev);
}

static void destroy_after_ack(const struct ae_row *row, struct rc_ctx *ctx,
			      struct vl *l, struct vt *t)
{
	struct ibv_async_event ev;
	int err;

	if (!vs_below_limit(ctx, t))
		return;
	if (vs_event_of(ctx, t->l.ctx, IBV_EVENT_SRQ_LIMIT_REACHED, VS_EVENT_MS,
			&ev, NULL) <= 0) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "no IBV_EVENT_SRQ_LIMIT_REACHED (set-up): %m");
		return;
	}
	RC_OBSERVE(ctx, (ctx->ops->ibv_ack_async_event(&ev), 0));
	err = ctx->ops->ibv_destroy_qp(t->b);
	t->b = NULL;
	err = err ? err : ctx->ops->ibv_destroy_srq(t->srq);
	if (err)
		rc_obs_violation(ctx->obs, "ibv_destroy_srq: %s",
				 rc_errno_name(err));
	else
		t->srq = NULL;
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct ae_row *row = r;
	struct vs_env e;

	if (!rc_need_call(ctx, (const void *)ctx->ops->ibv_get_async_event,
			  "ibv_get_async_event") ||
	    !rc_need_call(ctx, (const void *)ctx->ops->ibv_ack_async_event,
			  "ibv_ack_async_event"))
		return;
	if (vs_up(ctx, &e, row->traffic, VL_CONTEXT))
		row->check(row, ctx, vs_ladder(&e), vs_pair(&e));
	vs_down(ctx, &e);
}

RC_TABLE_GROUP(get_group, "ibv_get_async_event", RC_CONV_M1_ERRNO, "verbs",
	       get_rows, run);

RC_TABLE_GROUP(ack_group, "ibv_ack_async_event", RC_CONV_VALUE, "verbs",
	       ack_rows, run);
