/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the SRQ rows and the async-event rows share: an SRQ's attributes
 * read back, the size of SRQ a row may take of the machine, the next
 * async event of a context waited for with a deadline (poll(2) on its
 * async_fd, so that no row blocks in ibv_get_async_event), and an SRQ
 * limit event provoked for real: receives posted on the traffic rung's
 * SRQ (verbs_traffic.h), the limit armed, and SENDs from a that take
 * them until fewer are left than the limit.
 */
#ifndef RDMACONF_CASES_VERBS_SRQ_H
#define RDMACONF_CASES_VERBS_SRQ_H

#include <pthread.h>

#include "verbs_traffic.h"

/* how many receives the limit rows post, and the limit they arm: the
 * first SEND leaves exactly VS_LIMIT (no event), the second one fewer */
#define VS_POSTED 4
#define VS_LIMIT 3
/* an async event that must come, before scaling */
#define VS_EVENT_MS 3000

/* query_srq through the implementation (set-up: BROKEN when it fails) */
bool vs_query(struct rc_ctx *ctx, struct ibv_srq *srq, struct ibv_srq_attr *a);
/*
 * Whether an SRQ of @wr WRs of @sge SGEs is within what a row may take of
 * the machine (VS_BYTES, at 32 bytes a WR and 16 an SGE); UNSUPPORTED
 * when not.  ibv_query_device(3): "it may not be possible to use these
 * maximum values, since the actual number of any resource that can be
 * created may be limited by the machine configuration, the amount of
 * host memory".
 */
#define VS_BYTES (8u << 20)
bool vs_fits(struct rc_ctx *ctx, uint64_t wr, uint64_t sge);
/* Both calls of ibv_get_async_event(3) there (rc_need_call): the event
 * rows make both */
bool vs_async_calls(struct rc_ctx *ctx);
/* An async event ready on @c's async_fd within @ms (scaled)? */
bool vs_event_ready(struct rc_ctx *ctx, struct ibv_context *c, int ms);
/*
 * The next event of @type within @ms (scaled), taken with the
 * implementation; events of other types before it are acknowledged and
 * counted in @others (may be NULL).  1: got it in @ev (not acknowledged),
 * 0: none came, -1: ibv_get_async_event failed (errno).
 */
int vs_event_of(struct rc_ctx *ctx, struct ibv_context *c,
		enum ibv_event_type type, int ms, struct ibv_async_event *ev,
		int *others);
/* The call under test, once an event is ready on @c within VS_EVENT_MS:
 * true and the event in @ev; else false, its failure observed, or none
 * came: the row violated and what the call returns then on a
 * non-blocking fd observed */
bool vs_get_ready(struct rc_ctx *ctx, struct ibv_context *c,
		  struct ibv_async_event *ev);
/*
 * Events taken with the call under test until one of @want: true and it
 * in @ev (not acknowledged); those of other types before it acknowledged
 * and counted in @others.  False when none came (violated) or the call
 * failed (observed).
 */
bool vs_take_until(struct rc_ctx *ctx, struct ibv_context *c,
		   enum ibv_event_type want, struct ibv_async_event *ev,
		   int *others);
/* The context whose async_fd gets events of @type from @t: b's (the
 * peer's, on iWARP) for its SRQ and its QP's receive side, a's for the
 * rest (a's send queue, its CQs) */
struct ibv_context *vs_ctx_of(struct vt *t, enum ibv_event_type type);
/* The event of @type (@name) that set-up provoked on t's context, taken
 * within VS_EVENT_MS (set-up: BROKEN when none comes) */
bool vs_provoked(struct rc_ctx *ctx, struct vt *t, enum ibv_event_type type,
		 const char *name, struct ibv_async_event *ev);
/* Post @n receives of 64 bytes on the SRQ (BROKEN if refused) */
bool vs_post(struct rc_ctx *ctx, struct vt *t, int n);
/* @n SENDs of 32 bytes from a, each received through the SRQ before the
 * next (BROKEN if one does not complete) */
bool vs_consume(struct rc_ctx *ctx, struct vt *t, int n);
/* ibv_modify_srq(IBV_SRQ_LIMIT) as set-up: BROKEN when refused */
bool vs_arm(struct rc_ctx *ctx, struct vt *t, uint32_t limit);
/* VS_POSTED receives, the limit VS_LIMIT, two SENDs: the SRQ has dropped
 * below its limit (BROKEN when set-up fails) */
bool vs_below_limit(struct rc_ctx *ctx, struct vt *t);

/*
 * The call under test in a thread of its own, for the calls that must
 * block until something happens (an event, an acknowledgement): @call
 * runs once, with its outcome observed (RC_OBSERVE) in @ctx.  BROKEN and
 * false when the thread cannot start.
 */
struct vs_bg {
	struct rc_ctx *ctx;
	long long (*call)(struct rc_ctx *ctx, void *arg);
	void *arg;
	pthread_t th;
	pthread_mutex_t m;
	pthread_cond_t c;
	bool done;
};
bool vs_bg_start(struct vs_bg *b, struct rc_ctx *ctx,
		 long long (*call)(struct rc_ctx *ctx, void *arg), void *arg);
/* Has the call returned, waiting up to @ms (scaled) for it? */
bool vs_bg_done_within(struct vs_bg *b, int ms);
/* Wait for it, for as long as it takes (the watchdog bounds it) */
void vs_bg_join(struct vs_bg *b);

/*
 * What an SRQ row runs on, one decision for every SRQ call: the traffic
 * rung with an SRQ (@traffic; its rows provoke async events, so it needs
 * ibv_get_async_event and ibv_ack_async_event too), else the ladder up
 * to @top.  The row's check takes vs_ladder() and vs_pair() (NULL off the
 * traffic rung); vs_down() takes either down, whatever vs_up() returned.
 */
struct vs_env {
	bool traffic;
	struct vl l;
	struct vt t;
};
bool vs_up(struct rc_ctx *ctx, struct vs_env *e, bool traffic,
	   enum vl_rung top);
struct vl *vs_ladder(struct vs_env *e);
struct vt *vs_pair(struct vs_env *e);
void vs_down(struct rc_ctx *ctx, struct vs_env *e);

#endif
