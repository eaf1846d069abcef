// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The two ends of the rdma_cm connection rows (rdmacm_conn.h). */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "rdmacm_conn.h"
#include "../../harness/device.h"

const char *cm_event_name(int type)
{
	static const char *const names[] = {
		"ADDR_RESOLVED",  "ADDR_ERROR",	       "ROUTE_RESOLVED",
		"ROUTE_ERROR",	  "CONNECT_REQUEST",   "CONNECT_RESPONSE",
		"CONNECT_ERROR",  "UNREACHABLE",       "REJECTED",
		"ESTABLISHED",	  "DISCONNECTED",      "DEVICE_REMOVAL",
		"MULTICAST_JOIN", "MULTICAST_ERROR",   "ADDR_CHANGE",
		"TIMEWAIT_EXIT",  "ADDRINFO_RESOLVED", "ADDRINFO_ERROR",
		"USER",		  "INTERNAL",
	};

	return type >= 0 && type < (int)ARRAY_SIZE(names) ? names[type] : "?";
}

uint16_t cm_port(const struct rc_ctx *ctx)
{
	/* two bytes that differ, whatever the slot */
	return 0x5a00 | (ctx->slot & 0x7f);
}

__be16 cm_port_of(const struct sockaddr *a)
{
	return a->sa_family == AF_INET ?
		       ((const struct sockaddr_in *)a)->sin_port :
		       ((const struct sockaddr_in6 *)a)->sin6_port;
}

const struct rc_ops *cm_other_ops(const struct rc_ctx *ctx)
{
	return rc_impl(ctx->ops->id == RC_IMPL_REFERENCE ? RC_IMPL_SYSTEM :
							   RC_IMPL_REFERENCE);
}

bool cm_broken(struct rc_ctx *ctx, const char *what)
{
	if (ctx->obs->state != RC_STATE_BROKEN)
		rc_obs_state(ctx->obs, RC_STATE_BROKEN, "%s: %m", what);
	return false;
}

bool cm_go_synchronous(struct rc_ctx *ctx, struct cm_end *e)
{
	e->ops->rdma_destroy_id(e->id);
	if (e->ops->rdma_create_id(NULL, &e->id, NULL, RDMA_PS_TCP)) {
		e->id = NULL;
		return cm_broken(ctx, "rdma_create_id with no channel");
	}
	return true;
}

void cm_check_event_in_id(struct rc_ctx *ctx, const struct rdma_cm_id *id,
			  int type)
{
	if (!id->event || (int)id->event->event != type)
		rc_obs_violation(ctx->obs, "event id->event %s, not %s",
				 id->event ? cm_event_name(id->event->event) :
					     "NULL",
				 cm_event_name(type));
	/* rdma_get_cm_event(3): "id  The rdma_cm identifier associated
	 * with the event." */
	else if (id->event->id != id)
		rc_obs_violation(ctx->obs, "id->event->id is not the id");
}

bool cm_depth_limits(struct rc_ctx *ctx, const struct rc_ops *ops,
		     struct rdma_cm_id *id, uint8_t *resp, uint8_t *init)
{
	struct ibv_device_attr a;

	if (ops->ibv_query_device(id->verbs, &a))
		return cm_broken(ctx, "ibv_query_device");
	if (a.max_qp_rd_atom >= 254 || a.max_qp_init_rd_atom >= 254) {
		rc_obs_state(ctx->obs, RC_STATE_SKIP,
			     "needs a device whose depths are below 254");
		return false;
	}
	*resp = a.max_qp_rd_atom;
	*init = a.max_qp_init_rd_atom;
	return true;
}

bool cm_no_fds(struct rc_ctx *ctx, struct rlimit *saved)
{
	struct rlimit none = { 0, 0 };

	if (getrlimit(RLIMIT_NOFILE, saved))
		return cm_broken(ctx, "getrlimit");
	none.rlim_max = saved->rlim_max;
	if (setrlimit(RLIMIT_NOFILE, &none))
		return cm_broken(ctx, "setrlimit");
	return true;
}

void cm_fds_back(const struct rlimit *saved)
{
	setrlimit(RLIMIT_NOFILE, saved);
}

static void set_addr(int family, const void *ip, struct sockaddr_storage *ss)
{
	memset(ss, 0, sizeof(*ss));
	ss->ss_family = family;
	if (family == AF_INET)
		memcpy(&((struct sockaddr_in *)ss)->sin_addr, ip, 4);
	else
		memcpy(&((struct sockaddr_in6 *)ss)->sin6_addr, ip, 16);
}

/* The netdev whose MAC is @mac: its name into @name. */
static bool netdev_of_mac(const uint8_t mac[6], char *name, size_t len)
{
	struct dirent *d;
	char buf[64], want[18];
	bool found = false;
	DIR *dir = opendir("/sys/class/net");

	snprintf(want, sizeof(want), "%02x:%02x:%02x:%02x:%02x:%02x", mac[0],
		 mac[1], mac[2], mac[3], mac[4], mac[5]);
	while (dir && !found && (d = readdir(dir))) {
		if (d->d_name[0] == '.' ||
		    rc_sysfs_read(buf, sizeof(buf), "/sys/class/net/%s/address",
				  d->d_name))
			continue;
		if (!strcmp(buf, want)) {
			snprintf(name, len, "%s", d->d_name);
			found = true;
		}
	}
	if (dir)
		closedir(dir);
	return found;
}

/* iWARP: the port's GID holds its netdev's MAC; the netdev's address. */
static bool iwarp_addr(const char *ca, int port, int family,
		       struct sockaddr_storage *ss)
{
	struct ifaddrs *ifs, *i;
	char buf[64], name[256];
	uint8_t gid[16];
	bool found = false;

	if (rc_sysfs_read(buf, sizeof(buf), RC_SYSFS_IB "/%s/ports/%d/gids/0",
			  ca, port) ||
	    rc_gid_parse(buf, gid) || !netdev_of_mac(gid, name, sizeof(name)) ||
	    getifaddrs(&ifs))
		return false;
	for (i = ifs; i && !found; i = i->ifa_next) {
		const struct sockaddr_in6 *a6 = (const void *)i->ifa_addr;

		if (!i->ifa_addr || i->ifa_addr->sa_family != family ||
		    strcmp(i->ifa_name, name) ||
		    (family == AF_INET6 &&
		     IN6_IS_ADDR_LINKLOCAL(&a6->sin6_addr)))
			continue;
		set_addr(family,
			 family == AF_INET ?
				 (const void *)&(
					 (struct sockaddr_in *)i->ifa_addr)
					 ->sin_addr :
				 (const void *)&a6->sin6_addr,
			 ss);
		found = true;
	}
	freeifaddrs(ifs);
	return found;
}

bool cm_dev_addr(struct rc_ctx *ctx, const char *ca, int port, int family,
		 struct sockaddr_storage *ss)
{
	uint8_t gid[16];

	if (ctx->target->link != RC_LINK_IWARP &&
	    rc_port_gid(ca, port, family == AF_INET ? RC_GID_IPV4 : RC_GID_IPV6,
			gid) >= 0) {
		set_addr(family, family == AF_INET ? gid + 12 : gid, ss);
		return true;
	}
	if (iwarp_addr(ca, port, family, ss))
		return true;
	errno = EADDRNOTAVAIL;
	return cm_broken(ctx, "no address of the family on the device");
}

bool cm_id_open(struct rc_ctx *ctx, const struct rc_ops *ops,
		struct rdma_event_channel **ch, struct rdma_cm_id **id,
		void *context, enum rdma_port_space ps)
{
	*ch = ops->rdma_create_event_channel();
	if (!*ch)
		return cm_broken(ctx, "rdma_create_event_channel");
	if (ops->rdma_create_id(*ch, id, context, ps)) {
		*id = NULL;
		return cm_broken(ctx, "rdma_create_id");
	}
	return true;
}

bool cm_id_bound(struct rc_ctx *ctx, const struct sockaddr_storage *addr,
		 struct rdma_event_channel **ch, struct rdma_cm_id **id)
{
	*ch = NULL;
	*id = NULL;
	if (!cm_id_open(ctx, ctx->ops, ch, id, NULL, RDMA_PS_TCP))
		return false;
	if (ctx->ops->rdma_bind_addr(*id, (struct sockaddr *)addr))
		return cm_broken(ctx, "rdma_bind_addr of another id");
	return true;
}

void cm_id_close(struct rc_ctx *ctx, struct rdma_event_channel *ch,
		 struct rdma_cm_id *id)
{
	if (id)
		ctx->ops->rdma_destroy_id(id);
	if (ch)
		ctx->ops->rdma_destroy_event_channel(ch);
}

struct ibv_context *cm_device_context(struct rc_ctx *ctx, const char *name,
				      struct ibv_context ***list)
{
	int i;

	*list = ctx->ops->rdma_get_devices(NULL);
	for (i = 0; *list && (*list)[i]; i++)
		if (!strcmp(ctx->ops->ibv_get_device_name((*list)[i]->device),
			    name))
			return (*list)[i];
	return NULL;
}

static bool end_open(struct rc_ctx *ctx, struct cm_end *e,
		     const struct rc_ops *ops, const char *who)
{
	e->who = who;
	e->ops = ops;
	if (!rc_need_call(ctx, ops->rdma_create_event_channel,
			  "rdma_create_event_channel"))
		return false;
	return cm_id_open(ctx, ops, &e->ch, &e->id, e, RDMA_PS_TCP);
}

bool cm_pair_open(struct rc_ctx *ctx, struct cm_pair *p, int family, bool qp,
		  const struct rc_ops *srv_ops, const struct rc_ops *cli_ops)
{
	const struct rc_target *t = ctx->target;

	memset(p, 0, sizeof(*p));
	p->family = family;
	p->qp = qp || t->link == RC_LINK_IWARP;
	if (!t->peer) {
		errno = ENODEV;
		return cm_broken(ctx, "no peer device");
	}
	if (!cm_dev_addr(ctx, t->ca, t->port, family, &p->srv_addr) ||
	    !cm_dev_addr(ctx, t->peer, t->peer_port, family, &p->cli_addr))
		return false;
	if (family == AF_INET)
		((struct sockaddr_in *)&p->srv_addr)->sin_port =
			htons(cm_port(ctx));
	else
		((struct sockaddr_in6 *)&p->srv_addr)->sin6_port =
			htons(cm_port(ctx));
	return end_open(ctx, &p->srv, srv_ops, "server") &&
	       end_open(ctx, &p->cli, cli_ops, "client");
}

static void end_close(struct cm_end *e)
{
	const struct rc_ops *ops = e->ops;

	if (!ops)
		return;
	if (e->qp_id && e->qp_id->qp)
		ops->rdma_destroy_qp(e->qp_id);
	if (e->cq)
		ops->ibv_destroy_cq(e->cq);
	if (e->pd)
		ops->ibv_dealloc_pd(e->pd);
	if (e->conn)
		ops->rdma_destroy_id(e->conn);
	if (e->id)
		ops->rdma_destroy_id(e->id);
	if (e->ch)
		ops->rdma_destroy_event_channel(e->ch);
	memset(e, 0, sizeof(*e));
}

/*
 * The server's end first: destroying a request nobody answered rejects
 * it, so the client's connect ends there.  The other way round, on
 * iWARP, the client's rdma_destroy_id waits for its connect to end, which
 * siw's CM ends only when its MPA request timer runs out (10 s,
 * MPAREQ_TIMEOUT in drivers/infiniband/sw/siw/siw_cm.h).
 */
void cm_pair_close(struct rc_ctx *ctx, struct cm_pair *p)
{
	(void)ctx;
	end_close(&p->srv);
	end_close(&p->cli);
}

int cm_next(struct rc_ctx *ctx, struct cm_end *e, int ms,
	    struct rdma_cm_event **ev)
{
	struct pollfd pfd = { .fd = e->ch->fd, .events = POLLIN };

	if (poll(&pfd, 1, rc_scaled_ms(ctx, ms)) != 1 ||
	    e->ops->rdma_get_cm_event(e->ch, ev))
		return -1;
	return (*ev)->event;
}

/* What is wrong with @e's event: a violation in the observed part of a
 * row ("<who>_event ..."), the row broken before it (a fixture's event,
 * "<who>: ..."). */
static void cm_event_wrong(struct rc_ctx *ctx, const struct cm_end *e,
			   const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void cm_event_wrong(struct rc_ctx *ctx, const struct cm_end *e,
			   const char *fmt, ...)
{
	char what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (ctx->obs->state == RC_STATE_RAN)
		rc_obs_violation(ctx->obs, "%s_event %s", e->who, what);
	else if (ctx->obs->state != RC_STATE_BROKEN)
		rc_obs_state(ctx->obs, RC_STATE_BROKEN, "%s: %s", e->who, what);
}

bool cm_expect(struct rc_ctx *ctx, struct cm_end *e, int type,
	       struct rdma_cm_event **held)
{
	struct rdma_cm_event *ev;
	int got = cm_next(ctx, e, CM_WAIT_MS, &ev);

	if (got != type || ev->status) {
		cm_event_wrong(ctx, e, "waited for %s, got %s (status %d)",
			       cm_event_name(type),
			       got < 0 ? "none" : cm_event_name(got),
			       got < 0 ? 0 : ev->status);
		if (got >= 0)
			e->ops->rdma_ack_cm_event(ev);
		return false;
	}
	/* rdma_get_cm_event(3): "id  The rdma_cm identifier associated with
	 * the event.  If the event type is RDMA_CM_EVENT_CONNECT_REQUEST,
	 * then this references a new id" (the server's connection's, once
	 * it has one); rdma_ack_cm_event(3): "Returns 0 on success" */
	if (type != RDMA_CM_EVENT_CONNECT_REQUEST &&
	    ev->id != (e->conn ? e->conn : e->id))
		cm_event_wrong(ctx, e, "%s: its id is not the id",
			       cm_event_name(type));
	if (held)
		*held = ev;
	else if (e->ops->rdma_ack_cm_event(ev))
		cm_event_wrong(ctx, e, "%s: rdma_ack_cm_event failed",
			       cm_event_name(type));
	return true;
}

bool cm_listen(struct rc_ctx *ctx, struct cm_pair *p)
{
	struct cm_end *s = &p->srv;

	if (s->ops->rdma_bind_addr(s->id, (struct sockaddr *)&p->srv_addr))
		return cm_broken(ctx, "rdma_bind_addr of the server");
	if (s->ops->rdma_listen(s->id, 4))
		return cm_broken(ctx, "rdma_listen");
	return true;
}

bool cm_resolve(struct rc_ctx *ctx, struct cm_pair *p)
{
	return cm_resolve_route(ctx, p) &&
	       (!p->qp || cm_create_qp(ctx, &p->cli, p->cli.id));
}

bool cm_resolve_route(struct rc_ctx *ctx, struct cm_pair *p)
{
	struct cm_end *c = &p->cli;

	if (c->ops->rdma_resolve_addr(c->id, (struct sockaddr *)&p->cli_addr,
				      (struct sockaddr *)&p->srv_addr,
				      CM_RESOLVE_MS))
		return cm_broken(ctx, "rdma_resolve_addr");
	if (!cm_expect(ctx, c, RDMA_CM_EVENT_ADDR_RESOLVED, NULL))
		return false;
	if (c->ops->rdma_resolve_route(c->id, CM_RESOLVE_MS))
		return cm_broken(ctx, "rdma_resolve_route");
	return cm_expect(ctx, c, RDMA_CM_EVENT_ROUTE_RESOLVED, NULL);
}

static bool own_cqs_qp(struct rc_ctx *ctx, struct cm_end *e,
		       struct rdma_cm_id *id, struct ibv_qp_init_attr *qa)
{
	if (e->ops->rdma_create_qp(id, e->pd, qa))
		return cm_broken(ctx, "rdma_create_qp (its own CQs)");
	e->qp_id = id;
	return true;
}

bool cm_create_qp(struct rc_ctx *ctx, struct cm_end *e, struct rdma_cm_id *id)
{
	const struct rc_ops *ops = e->ops;
	struct ibv_qp_init_attr qa = {
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 4,
			 .max_recv_wr = 4,
			 .max_send_sge = 1,
			 .max_recv_sge = 1 },
	};

	if (e->own_cqs) {
		qa.cap = (struct ibv_qp_cap){
			.max_send_wr = CM_DATA_WR,
			.max_recv_wr = CM_DATA_WR,
			.max_send_sge = CM_DATA_SGE,
			.max_recv_sge = CM_DATA_SGE,
			.max_inline_data = CM_DATA_INLINE,
		};
		e->pd = ops->ibv_alloc_pd(id->verbs);
		if (!e->pd)
			return cm_broken(ctx, "PD");
		return own_cqs_qp(ctx, e, id, &qa);
	}
	e->pd = ops->ibv_alloc_pd(id->verbs);
	e->cq = e->pd ? ops->ibv_create_cq(id->verbs, 8, NULL, NULL, 0) : NULL;
	if (!e->cq)
		return cm_broken(ctx, "PD or CQ");
	qa.send_cq = qa.recv_cq = e->cq;
	if (ops->rdma_create_qp(id, e->pd, &qa))
		return cm_broken(ctx, "rdma_create_qp");
	e->qp_id = id;
	return true;
}

uint32_t cm_qpn(bool server)
{
	return (server ? 0xc00000 : 0x800000) | (getpid() & 0x3fffff);
}

void cm_client_param(struct rdma_conn_param *c, const void *data, uint8_t len)
{
	memset(c, 0, sizeof(*c));
	c->private_data = data;
	c->private_data_len = len;
	c->responder_resources = 3;
	c->initiator_depth = 2;
	c->retry_count = 6;
	c->rnr_retry_count = 5;
	c->flow_control = 1;
	c->qp_num = CM_CLIENT_QPN;
}

bool cm_request(struct rc_ctx *ctx, struct cm_pair *p,
		struct rdma_conn_param *c, struct rdma_cm_event **req)
{
	struct rdma_cm_event *ev;

	if (p->cli.ops->rdma_connect(p->cli.id, c))
		return cm_broken(ctx, "rdma_connect");
	if (!cm_expect(ctx, &p->srv, RDMA_CM_EVENT_CONNECT_REQUEST, &ev))
		return false;
	p->srv.conn = ev->id;
	if (req)
		*req = ev;
	else
		p->srv.ops->rdma_ack_cm_event(ev);
	return !p->qp || p->ext_qps || cm_create_qp(ctx, &p->srv, p->srv.conn);
}

void cm_accept_param(struct rdma_conn_param *s)
{
	memset(s, 0, sizeof(*s));
	s->qp_num = CM_SERVER_QPN;
	s->responder_resources = 2;
	s->initiator_depth = 3;
	s->rnr_retry_count = 7;
}

bool cm_accept(struct rc_ctx *ctx, struct cm_pair *p, struct rdma_conn_param *s)
{
	struct rdma_conn_param none;

	cm_accept_param(&none);
	if (p->srv.ops->rdma_accept(p->srv.conn, s ? s : &none))
		return cm_broken(ctx, "rdma_accept");
	return cm_established(ctx, p);
}

bool cm_established(struct rc_ctx *ctx, struct cm_pair *p)
{
	if (p->qp) {
		if (!cm_expect(ctx, &p->cli, RDMA_CM_EVENT_ESTABLISHED, NULL))
			return false;
	} else {
		if (!cm_expect(ctx, &p->cli, RDMA_CM_EVENT_CONNECT_RESPONSE,
			       NULL))
			return false;
		if (p->cli.ops->rdma_establish(p->cli.id))
			return cm_broken(ctx, "rdma_establish");
	}
	return cm_expect(ctx, &p->srv, RDMA_CM_EVENT_ESTABLISHED, NULL);
}

bool cm_connect_resolved(struct rc_ctx *ctx, struct cm_pair *p)
{
	struct rdma_conn_param c;

	cm_client_param(&c, NULL, 0);
	return cm_request(ctx, p, &c, NULL) && cm_accept(ctx, p, NULL);
}

bool cm_connect(struct rc_ctx *ctx, struct cm_pair *p)
{
	return cm_listen(ctx, p) && cm_resolve(ctx, p) &&
	       cm_connect_resolved(ctx, p);
}

void cm_pattern(uint8_t *buf, size_t n, uint8_t seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		buf[i] = (uint8_t)((seed + i) % 255 + 1);
}

void cm_check_private(struct rc_ctx *ctx, const char *field, const void *got,
		      size_t got_len, const void *want, size_t len)
{
	const uint8_t *g = got;
	size_t i;

	if (!len)
		return;
	if (!g || got_len < len) {
		rc_obs_violation(ctx->obs,
				 "%s %zu bytes of private data, "
				 "%zu sent",
				 field, g ? got_len : 0, len);
		return;
	}
	rc_obs_out(ctx->obs, g, got_len);
	for (i = 0; i < got_len; i++) {
		uint8_t w = i < len ? ((const uint8_t *)want)[i] : 0;

		if (g[i] != w) {
			rc_obs_violation(ctx->obs,
					 "%s byte %zu is 0x%02x, "
					 "not 0x%02x",
					 field, i, g[i], w);
			return;
		}
	}
}

void cm_ep_info(struct cm_pair *p, bool passive, struct rdma_addrinfo *ai)
{
	socklen_t len = p->family == AF_INET ? sizeof(struct sockaddr_in) :
					       sizeof(struct sockaddr_in6);

	memset(ai, 0, sizeof(*ai));
	ai->ai_family = p->family;
	ai->ai_qp_type = IBV_QPT_RC;
	ai->ai_port_space = RDMA_PS_TCP;
	if (passive) {
		ai->ai_flags = RAI_PASSIVE;
		ai->ai_src_addr = (struct sockaddr *)&p->srv_addr;
		ai->ai_src_len = len;
		return;
	}
	ai->ai_src_addr = (struct sockaddr *)&p->cli_addr;
	ai->ai_src_len = len;
	ai->ai_dst_addr = (struct sockaddr *)&p->srv_addr;
	ai->ai_dst_len = len;
}

static void *bg_main(void *arg)
{
	struct cm_bg *b = arg;

	b->ret = b->fn(b->arg);
	__atomic_store_n(&b->done, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

bool cm_bg_start(struct rc_ctx *ctx, struct cm_bg *b, int (*fn)(void *),
		 void *arg)
{
	b->fn = fn;
	b->arg = arg;
	b->done = 0;
	if (pthread_create(&b->t, NULL, bg_main, b))
		return cm_broken(ctx, "pthread_create");
	return true;
}

bool cm_bg_done(const struct cm_bg *b)
{
	return __atomic_load_n(&b->done, __ATOMIC_SEQ_CST);
}

void cm_bg_wait(struct rc_ctx *ctx, struct cm_bg *b, const char *after)
{
	double end = rc_now_ms() + rc_scaled_ms(ctx, CM_WAIT_MS);

	while (!cm_bg_done(b) && rc_now_ms() < end)
		usleep(1000);
	if (!cm_bg_done(b))
		rc_obs_violation(ctx->obs,
				 "deadline it had not returned 3 s after the "
				 "%s",
				 after);
}

int cm_bg_join(struct cm_bg *b)
{
	pthread_join(b->t, NULL);
	return b->ret;
}
