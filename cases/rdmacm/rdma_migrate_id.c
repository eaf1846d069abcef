// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_migrate_id(3): "Migrates a communication identifier to a different
 * event channel."  NOTES: "This routine migrates a communication
 * identifier to the specified event channel and moves any pending events
 * associated with the rdma_cm_id to the new channel."  "This call will
 * block while there are any unacknowledged events on the current event
 * channel."  "If the channel parameter is NULL, the specified rdma_cm_id
 * will be placed into synchronous operation mode.  All calls on the id
 * will block until the operation completes."  rdma_create_id(3): "The
 * event will be returned to the user through the rdma_cm_id structure,
 * and be available for access until another rdma_cm call is made."
 *
 * Each row has a second channel B beside the id's own A, both of the
 * implementation under test:
 * - events follow: migrated to B, the client's ADDR_RESOLVED arrives on
 *   B, none on A, and id->channel is B
 * - a pending event moves: ADDR_RESOLVED queued on A (A readable, not
 *   read) moves to B with the id; A has nothing left
 * - it blocks while the id's event from A is not acknowledged, and
 *   returns once it is
 * - a listener migrated to B: the connection request arrives on B, its
 *   new id on B
 * - NULL: synchronous; rdma_resolve_addr returns with the id resolved
 *   (id->verbs) and ADDR_RESOLVED in id->event; nothing on A
 * - a channel that is not open (fd -1): -1, and the id's events still
 *   arrive on A
 * - NULL with no descriptor left (RLIMIT_NOFILE 0): the synchronous mode
 *   needs a channel of its own, which cannot be opened: -1, and the id's
 *   events still arrive on A
 */
#include <poll.h>
#include <pthread.h>
#include <unistd.h>

#include "rdmacm_conn.h"

#define DOC_MIGRATE                                                 \
	"Migrates a communication identifier to a different event " \
	"channel."
#define DOC_PENDING                                                        \
	"This routine migrates a communication identifier to the "         \
	"specified event channel and moves any pending events associated " \
	"with the rdma_cm_id to the new channel."
#define DOC_BLOCK                                                         \
	"This call will block while there are any unacknowledged events " \
	"on the current event channel."
#define DOC_SYNC                                                           \
	"If the channel parameter is NULL, the specified rdma_cm_id will " \
	"be placed into synchronous operation mode."
#define DOC_FAIL                                                      \
	"Returns 0 on success, or -1 on error.  If an error occurs, " \
	"errno will be set to indicate the failure reason."

struct mi_row;
typedef void mi_check(const struct mi_row *row, struct rc_ctx *ctx,
		      struct cm_pair *p, struct rdma_event_channel *b);

struct mi_row {
	struct rc_case c;
	mi_check *check;
};

static mi_check events_follow, pending_moves, blocks_until_acked,
	listener_requests, null_synchronous, bad_channel, null_no_descriptor;

#define NEEDS (RC_NEED_DEVICE | RC_NEED_PEER)

static const struct mi_row rows[] = {
	{ .c = { .id = "rdmacm/migrate_id/events-on-new-channel",
		 .doc = DOC_MIGRATE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the client migrated to B, then rdma_resolve_addr: "
			 "id->channel is B, ADDR_RESOLVED arrives on B, and A "
			 "stays empty",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = events_follow },
	{ .c = { .id = "rdmacm/migrate_id/pending-event-moves",
		 .doc = DOC_PENDING,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "ADDR_RESOLVED queued on A (A readable, not read): "
			 "after the migration B has it and A has nothing",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = pending_moves },
	{ .c = { .id = "rdmacm/migrate_id/blocks-until-acked",
		 .doc = DOC_BLOCK,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the id's ADDR_RESOLVED taken from A and held: the "
			 "migration (in a thread) has not returned 300 ms "
			 "later; acknowledged, it returns 0",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = blocks_until_acked },
	{ .c = { .id = "rdmacm/migrate_id/listener-requests",
		 .doc = DOC_MIGRATE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a listener migrated to B: the client's request "
			 "arrives on B with listen_id the listener and a new "
			 "id on B; A stays empty",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = listener_requests },
	{ .c = { .id = "rdmacm/migrate_id/null-synchronous",
		 .doc = DOC_SYNC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "\"All calls on the id will block until the operation "
			 "completes\": after the migration to NULL, "
			 "rdma_resolve_addr returns 0 with id->verbs set and "
			 "id->event ADDR_RESOLVED (rdma_create_id(3)); A gets "
			 "nothing",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = null_synchronous },
	{ .c = { .id = "rdmacm/migrate_id/closed-channel",
		 .doc = DOC_FAIL,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "a channel whose fd is -1 (none open): -1, and the id "
			 "stays where it was: its ADDR_RESOLVED arrives on A",
		 .needs = NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = bad_channel },
	{ .c = { .id = "rdmacm/migrate_id/null-no-descriptor",
		 .doc = DOC_FAIL,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "NULL with RLIMIT_NOFILE 0: the synchronous mode's "
			 "own channel cannot be opened: -1, and the id stays "
			 "where it was: its ADDR_RESOLVED arrives on A",
		 .needs = NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = null_no_descriptor },
};

/* The next event of @ch within @ms (scaled), taken by @ops: its type or
 * -1 */
static int next_on(struct rc_ctx *ctx, const struct rc_ops *ops,
		   struct rdma_event_channel *ch, int ms,
		   struct rdma_cm_event **ev)
{
	struct pollfd pfd = { .fd = ch->fd, .events = POLLIN };

	if (poll(&pfd, 1, rc_scaled_ms(ctx, ms)) != 1 ||
	    ops->rdma_get_cm_event(ch, ev))
		return -1;
	return (*ev)->event;
}

static bool readable(struct rc_ctx *ctx, struct rdma_event_channel *ch, int ms)
{
	struct pollfd pfd = { .fd = ch->fd, .events = POLLIN };

	return poll(&pfd, 1, rc_scaled_ms(ctx, ms)) == 1;
}

/* @ch must have @type next: a violation otherwise */
static bool expect_on(struct rc_ctx *ctx, struct rdma_event_channel *ch,
		      const char *name, int type, struct rdma_cm_event **held)
{
	struct rdma_cm_event *ev;
	int got = next_on(ctx, ctx->ops, ch, CM_WAIT_MS, &ev);

	if (got != type) {
		rc_obs_violation(ctx->obs, "%s waited for %s, got %s", name,
				 cm_event_name(type),
				 got < 0 ? "none" : cm_event_name(got));
		if (got >= 0)
			ctx->ops->rdma_ack_cm_event(ev);
		return false;
	}
	if (held)
		*held = ev;
	else
		ctx->ops->rdma_ack_cm_event(ev);
	return true;
}

static void quiet(struct rc_ctx *ctx, struct rdma_event_channel *ch,
		  const char *name)
{
	struct rdma_cm_event *ev;
	int got = next_on(ctx, ctx->ops, ch, CM_QUIET_MS, &ev);

	if (got < 0)
		return;
	rc_obs_violation(ctx->obs, "%s has %s after the migration", name,
			 cm_event_name(got));
	ctx->ops->rdma_ack_cm_event(ev);
}

static bool resolve(struct rc_ctx *ctx, struct cm_pair *p)
{
	if (ctx->ops->rdma_resolve_addr(
		    p->cli.id, (struct sockaddr *)&p->cli_addr,
		    (struct sockaddr *)&p->srv_addr, CM_RESOLVE_MS))
		return cm_broken(ctx, "rdma_resolve_addr");
	return true;
}

static void events_follow(const struct mi_row *row, struct rc_ctx *ctx,
			  struct cm_pair *p, struct rdma_event_channel *b)
{
	struct rdma_event_channel *a = p->cli.ch;
	int ret;

	RC_OBSERVE(ctx, ret = ctx->ops->rdma_migrate_id(p->cli.id, b));
	if (ret)
		return;
	if (p->cli.id->channel != b)
		rc_obs_violation(ctx->obs, "channel id->channel is not B");
	if (ctx->ops->rdma_resolve_addr(
		    p->cli.id, (struct sockaddr *)&p->cli_addr,
		    (struct sockaddr *)&p->srv_addr, CM_RESOLVE_MS)) {
		rc_obs_violation(ctx->obs, "resolve rdma_resolve_addr fails "
					   "after the migration (%m)");
		return;
	}
	if (expect_on(ctx, b, "B", RDMA_CM_EVENT_ADDR_RESOLVED, NULL))
		quiet(ctx, a, "A");
}

static void pending_moves(const struct mi_row *row, struct rc_ctx *ctx,
			  struct cm_pair *p, struct rdma_event_channel *b)
{
	struct rdma_event_channel *a = p->cli.ch;
	int ret;

	if (!resolve(ctx, p))
		return;
	if (!readable(ctx, a, CM_WAIT_MS)) {
		errno = ETIMEDOUT;
		cm_broken(ctx, "no event on A");
		return;
	}
	RC_OBSERVE(ctx, ret = ctx->ops->rdma_migrate_id(p->cli.id, b));
	if (ret)
		return;
	if (readable(ctx, a, 0))
		rc_obs_violation(ctx->obs, "A still readable after the "
					   "migration");
	if (expect_on(ctx, b, "B", RDMA_CM_EVENT_ADDR_RESOLVED, NULL))
		quiet(ctx, a, "A");
}

struct migration {
	struct rc_ctx *ctx;
	struct rdma_cm_id *id;
	struct rdma_event_channel *to;
	volatile int done;
};

static void *migrate_thread(void *arg)
{
	struct migration *m = arg;

	RC_OBSERVE(m->ctx, m->ctx->ops->rdma_migrate_id(m->id, m->to));
	__atomic_store_n(&m->done, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

static void blocks_until_acked(const struct mi_row *row, struct rc_ctx *ctx,
			       struct cm_pair *p, struct rdma_event_channel *b)
{
	struct migration m = { .ctx = ctx, .id = p->cli.id, .to = b };
	struct rdma_cm_event *ev;
	pthread_t t;

	if (!resolve(ctx, p) || next_on(ctx, ctx->ops, p->cli.ch, CM_WAIT_MS,
					&ev) != RDMA_CM_EVENT_ADDR_RESOLVED) {
		errno = ETIMEDOUT;
		cm_broken(ctx, "ADDR_RESOLVED on A");
		return;
	}
	if (pthread_create(&t, NULL, migrate_thread, &m)) {
		ctx->ops->rdma_ack_cm_event(ev);
		cm_broken(ctx, "pthread_create");
		return;
	}
	usleep(rc_scaled_ms(ctx, CM_QUIET_MS) * 1000);
	if (__atomic_load_n(&m.done, __ATOMIC_SEQ_CST))
		rc_obs_violation(ctx->obs,
				 "blocked the migration returned while the "
				 "id's event was not acknowledged");
	ctx->ops->rdma_ack_cm_event(ev);
	/* a migration that never returns is the row's HANG */
	pthread_join(t, NULL);
}

static void listener_requests(const struct mi_row *row, struct rc_ctx *ctx,
			      struct cm_pair *p, struct rdma_event_channel *b)
{
	struct rdma_event_channel *a = p->srv.ch;
	struct rdma_conn_param c;
	struct rdma_cm_event *ev;
	int ret;

	if (!cm_listen(ctx, p) || !cm_resolve(ctx, p))
		return;
	RC_OBSERVE(ctx, ret = ctx->ops->rdma_migrate_id(p->srv.id, b));
	if (ret)
		return;
	cm_client_param(&c, NULL, 0);
	if (ctx->ops->rdma_connect(p->cli.id, &c)) {
		cm_broken(ctx, "rdma_connect");
		return;
	}
	if (!expect_on(ctx, b, "B", RDMA_CM_EVENT_CONNECT_REQUEST, &ev))
		return;
	if (ev->listen_id != p->srv.id)
		rc_obs_violation(ctx->obs,
				 "listen_id of the request is not the "
				 "listener");
	if (!ev->id || ev->id->channel != b)
		rc_obs_violation(ctx->obs,
				 "channel the request's new id is not on B");
	p->srv.conn = ev->id;
	ctx->ops->rdma_ack_cm_event(ev);
	quiet(ctx, a, "A");
}

static void null_synchronous(const struct mi_row *row, struct rc_ctx *ctx,
			     struct cm_pair *p, struct rdma_event_channel *b)
{
	struct rdma_event_channel *a = p->cli.ch;
	struct rdma_cm_id *id = p->cli.id;
	int ret;

	RC_OBSERVE(ctx, ret = ctx->ops->rdma_migrate_id(id, NULL));
	if (ret)
		return;
	if (!id->channel || id->channel == a || id->channel == b)
		rc_obs_violation(ctx->obs,
				 "channel a synchronous id's channel is %s",
				 !id->channel ? "NULL" : "the caller's");
	if (ctx->ops->rdma_resolve_addr(id, (struct sockaddr *)&p->cli_addr,
					(struct sockaddr *)&p->srv_addr,
					CM_RESOLVE_MS)) {
		rc_obs_violation(ctx->obs, "resolve rdma_resolve_addr of the "
					   "synchronous id fails (%m)");
		return;
	}
	if (!id->verbs)
		rc_obs_violation(ctx->obs,
				 "verbs NULL when rdma_resolve_addr returned: "
				 "it did not block until resolved");
	cm_check_event_in_id(ctx, id, RDMA_CM_EVENT_ADDR_RESOLVED);
	quiet(ctx, a, "A");
	/* the synchronous id's channel is its own: cm_pair_close must not
	 * destroy A through it, nor the id's through A */
}

/* After a failed migration: the client's id on A as before, its next
 * event there */
static void stayed_on_a(struct rc_ctx *ctx, struct cm_pair *p)
{
	if (p->cli.id->channel != p->cli.ch) {
		rc_obs_violation(ctx->obs, "channel the failed migration "
					   "changed id->channel");
		return;
	}
	if (!resolve(ctx, p))
		return;
	expect_on(ctx, p->cli.ch, "A", RDMA_CM_EVENT_ADDR_RESOLVED, NULL);
}

static void bad_channel(const struct mi_row *row, struct rc_ctx *ctx,
			struct cm_pair *p, struct rdma_event_channel *b)
{
	struct rdma_event_channel none = { .fd = -1 };
	int ret;

	RC_OBSERVE(ctx, ret = ctx->ops->rdma_migrate_id(p->cli.id, &none));
	if (ret)
		stayed_on_a(ctx, p);
	(void)b;
}

static void null_no_descriptor(const struct mi_row *row, struct rc_ctx *ctx,
			       struct cm_pair *p, struct rdma_event_channel *b)
{
	struct rlimit old;
	int ret;

	if (!cm_no_fds(ctx, &old))
		return;
	RC_OBSERVE(ctx, ret = ctx->ops->rdma_migrate_id(p->cli.id, NULL));
	cm_fds_back(&old);
	if (ret)
		stayed_on_a(ctx, p);
	(void)b;
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct mi_row *row = r;
	struct rdma_event_channel *b = NULL;
	struct cm_pair p;

	if (!rc_need_call(ctx, ctx->ops->rdma_migrate_id, "rdma_migrate_id"))
		return;
	if (cm_pair_open(ctx, &p, AF_INET, false, ctx->ops, ctx->ops)) {
		b = ctx->ops->rdma_create_event_channel();
		if (b)
			row->check(row, ctx, &p, b);
		else
			cm_broken(ctx, "the second channel");
	}
	/* the ids go first: the channels they were migrated to after */
	if (p.srv.conn)
		ctx->ops->rdma_destroy_id(p.srv.conn);
	p.srv.conn = NULL;
	cm_pair_close(ctx, &p);
	if (b)
		ctx->ops->rdma_destroy_event_channel(b);
}

RC_TABLE_GROUP(group, "rdma_migrate_id", RC_CONV_M1_ERRNO, "rdmacm", rows, run);
