/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Shared by the rdma_cm connection rows: a server on the target device's
 * address and a client on the peer device's (RC_NEED_PEER: rxe0 and rxe1,
 * or siw0 and siw1, on their veth pair), each an RDMA_PS_TCP id on a
 * channel of its own, made by an implementation (the one under test, or
 * the other one for the rows that connect the two).  Every step waits for
 * its event with a deadline; a step that fails outside the call under
 * test marks the row BROKEN.
 */
#ifndef RDMACONF_CASES_RDMACM_CONN_H
#define RDMACONF_CASES_RDMACM_CONN_H

#include <pthread.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <rdma/rdma_cma.h>

#include "../../harness/rdmaconf.h"

#define CM_WAIT_MS 3000 /* for an event that must come, scaled */
#define CM_QUIET_MS 300 /* watching for one that must not */
#define CM_RESOLVE_MS 2000 /* rdma_resolve_addr/route's timeout_ms */

/* One end: its implementation, channel and id; a server's connection
 * (the request's new id); the QP's resources when it has one. */
struct cm_end {
	const char *who; /* "server", "client" */
	const struct rc_ops *ops;
	struct rdma_event_channel *ch;
	struct rdma_cm_id *id;
	struct rdma_cm_id *conn; /* the server's new id */
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct rdma_cm_id *qp_id; /* the id whose QP these are */
	/* set by the caller after cm_pair_open: the QP's CQs are the ones
	 * rdma_create_qp allocates (a send and a receive CQ, each with its
	 * completion channel), and its queues are CM_DATA_CAP's */
	bool own_cqs;
};

/* the queues of an own_cqs QP: 8 WRs, 2 SGEs and 64 bytes inline */
#define CM_DATA_WR 8
#define CM_DATA_SGE 2
#define CM_DATA_INLINE 64

struct cm_pair {
	int family;
	bool qp; /* both ends with QPs (always on iWARP) */
	/* set by the caller after cm_pair_open: the QPs are the caller's,
	 * made apart and named by number (rdma_conn_param's qp_num), so
	 * cm_request makes none */
	bool ext_qps;
	struct sockaddr_storage srv_addr; /* with the row's port */
	struct sockaddr_storage cli_addr; /* port 0 */
	struct cm_end srv, cli;
};

/* "ESTABLISHED" for RDMA_CM_EVENT_ESTABLISHED: the harness's names */
const char *cm_event_name(int type);
/* The row's listening port: its pool slot's, in host order. */
uint16_t cm_port(const struct rc_ctx *ctx);
/* The port of an AF_INET or AF_INET6 address, in network order */
__be16 cm_port_of(const struct sockaddr *a);
/* The other implementation than the row's. */
const struct rc_ops *cm_other_ops(const struct rc_ctx *ctx);
/* Mark the row BROKEN (once) with @what and errno; false. */
bool cm_broken(struct rc_ctx *ctx, const char *what);
/* A channel, and an id of port space @ps (@context) on it, in *@ch and
 * *@id (each NULL when not made); false (BROKEN) when either fails */
bool cm_id_open(struct rc_ctx *ctx, const struct rc_ops *ops,
		struct rdma_event_channel **ch, struct rdma_cm_id **id,
		void *context, enum rdma_port_space ps);
/* Another id of the implementation's, on a channel of its own, bound to
 * @addr; false (BROKEN) when any of it fails.  cm_id_close destroys what
 * was made (either may be NULL). */
bool cm_id_bound(struct rc_ctx *ctx, const struct sockaddr_storage *addr,
		 struct rdma_event_channel **ch, struct rdma_cm_id **id);
void cm_id_close(struct rc_ctx *ctx, struct rdma_event_channel *ch,
		 struct rdma_cm_id *id);
/* Device @name's context in a list of rdma_get_devices (*@list, which
 * the caller frees with rdma_free_devices), or NULL. */
struct ibv_context *cm_device_context(struct rc_ctx *ctx, const char *name,
				      struct ibv_context ***list);
/* An address of @family of @ca's netdev (@port 0): from the port's GID
 * on RoCE, from the netdev whose MAC the GID holds on iWARP. */
bool cm_dev_addr(struct rc_ctx *ctx, const char *ca, int port, int family,
		 struct sockaddr_storage *ss);

/* The two addresses, and both ends' channels and ids, the server's by
 * @srv_ops and the client's by @cli_ops.  @qp: with QPs (forced on
 * iWARP, where a connection needs one). */
bool cm_pair_open(struct rc_ctx *ctx, struct cm_pair *p, int family, bool qp,
		  const struct rc_ops *srv_ops, const struct rc_ops *cli_ops);
void cm_pair_close(struct rc_ctx *ctx, struct cm_pair *p);

/* The next event of @e's channel within @ms (scaled): its type, or -1. */
int cm_next(struct rc_ctx *ctx, struct cm_end *e, int ms,
	    struct rdma_cm_event **ev);
/* Wait for event @type with status 0; acknowledged unless @ev is given.
 * Another event, or none, marks the row BROKEN before the call under
 * test, and is a violation ("server_event: ...") after it. */
bool cm_expect(struct rc_ctx *ctx, struct cm_end *e, int type,
	       struct rdma_cm_event **ev);

/* The server bound to its address and listening. */
bool cm_listen(struct rc_ctx *ctx, struct cm_pair *p);
/* The client's address and route resolved (ADDR_ and ROUTE_RESOLVED),
 * and its QP made when the pair has them. */
bool cm_resolve(struct rc_ctx *ctx, struct cm_pair *p);
/* The same without the QP. */
bool cm_resolve_route(struct rc_ctx *ctx, struct cm_pair *p);
/* A QP on @id of end @e, with a PD and CQ of its device. */
bool cm_create_qp(struct rc_ctx *ctx, struct cm_end *e, struct rdma_cm_id *id);
/* The client's parameters: @data of @len, the depths 3 and 2, retry
 * counts 6 and 5, qp_num CM_CLIENT_QPN (used when there is no QP). */
void cm_client_param(struct rdma_conn_param *c, const void *data, uint8_t len);
/* The QP numbers a connection without QPs sends: the process's own, so
 * that no two connections from one GID ever share one (the IB CM takes a
 * second REQ or REP with a remote QPN it knows for a stale connection,
 * timewait included). */
uint32_t cm_qpn(bool server);
#define CM_CLIENT_QPN cm_qpn(false)
#define CM_SERVER_QPN cm_qpn(true)
/* Connect; the server takes the request (held in @req for the caller to
 * acknowledge, or acknowledged when @req is NULL) and its new id gets a QP when the pair has them. */
bool cm_request(struct rc_ctx *ctx, struct cm_pair *p,
		struct rdma_conn_param *c, struct rdma_cm_event **req);
/* What cm_accept accepts with when given none: qp_num CM_SERVER_QPN,
 * responder_resources 2, initiator_depth 3, rnr_retry_count 7. */
void cm_accept_param(struct rdma_conn_param *s);
/* Accept with @s (NULL: cm_accept_param's) and see both ends
 * established (the client's rdma_establish when it has no QP). */
bool cm_accept(struct rc_ctx *ctx, struct cm_pair *p,
	       struct rdma_conn_param *s);
/* Both ends see the connection established: the client's ESTABLISHED
 * (its CONNECT_RESPONSE and rdma_establish when it has no QP), then the
 * server's. */
bool cm_established(struct rc_ctx *ctx, struct cm_pair *p);
/* listen, resolve, request and accept: a connection. */
bool cm_connect(struct rc_ctx *ctx, struct cm_pair *p);
/* The request and accept of it, the server listening and the client's
 * route resolved. */
bool cm_connect_resolved(struct rc_ctx *ctx, struct cm_pair *p);

/* An rdma_addrinfo as rdma_getaddrinfo(3) describes one, made by hand
 * (so that an endpoint's rows do not rest on rdma_getaddrinfo): RAI_PASSIVE
 * with the server's address as the source, or the client's source and
 * the server's destination; RDMA_PS_TCP, IBV_QPT_RC. */
void cm_ep_info(struct cm_pair *p, bool passive, struct rdma_addrinfo *ai);

/* A call that blocks, in a thread of its own: @fn(@arg) runs there (and
 * records what the row observes); cm_bg_done says whether it returned. */
struct cm_bg {
	pthread_t t;
	int (*fn)(void *arg);
	void *arg;
	int done;
	int ret;
};
bool cm_bg_start(struct rc_ctx *ctx, struct cm_bg *b, int (*fn)(void *),
		 void *arg);
bool cm_bg_done(const struct cm_bg *b);
/* Up to CM_WAIT_MS (scaled) for it to return, else the violation
 * "deadline it had not returned 3 s after the @after" */
void cm_bg_wait(struct rc_ctx *ctx, struct cm_bg *b, const char *after);
/* Wait for it (a call that never returns is the row's HANG): its return */
int cm_bg_join(struct cm_bg *b);

/* rdma_get_send_comp(3) and rdma_get_recv_comp(3): the sentences their
 * rows on connected ids (rdma_get_comp.c) and on datagram ids
 * (rdma_get_comp_ud.c) cite */
#define CM_DOC_SEND_COMP_BLOCKS                                          \
	"This calls polls the send completion queue associated with an " \
	"rdma_cm_id.  If a completion is not found, the call blocks "    \
	"until a request completes."
#define CM_DOC_RECV_COMP_BLOCKS                                             \
	"This calls polls the receive completion queue associated with an " \
	"rdma_cm_id.  If a completion is not found, the call blocks "       \
	"until a request completes."
#define CM_DOC_COMP_COUNT                                                  \
	"Returns the number of returned completions (0 or 1) on success, " \
	"or -1 on error."

/* rdma_create_id(3) and rdma_connect/accept(3) on an id with no channel:
 * the sentences the synchronous rows of both calls cite */
#define CM_DOC_SYNC                                                          \
	"While operating synchronously, calls that result in an event will " \
	"block until the operation completes."
#define CM_DOC_SYNC_EVENT                                                    \
	"The event will be returned to the user through the rdma_cm_id "     \
	"structure, and be available for access until another rdma_cm call " \
	"is made."
/* rdma_conn_param's srq, in rdma_connect(3) and rdma_accept(3) alike */
#define CM_DOC_SRQ                                                       \
	"Specifies if the QP associated with the connection is using a " \
	"shared receive queue."

/* Replace @e's id with a synchronous one (rdma_create_id with no channel,
 * of @e's implementation), the row BROKEN when that fails. */
bool cm_go_synchronous(struct rc_ctx *ctx, struct cm_end *e);
/* A synchronous call's event is in the id (CM_DOC_SYNC_EVENT): @id->event
 * of @type, a violation otherwise. */
void cm_check_event_in_id(struct rc_ctx *ctx, const struct rdma_cm_id *id,
			  int type);

/* @id's device's max_qp_rd_atom and max_qp_init_rd_atom (the depths
 * rdma_connect(3) and rdma_accept(3) bound), by @ops's ibv_query_device;
 * a SKIP where either is 254 or more (255 is RDMA_MAX_RESP_RES and
 * RDMA_MAX_INIT_DEPTH, "the device's maximum", to librdmacm: no depth
 * beyond it can be asked). */
bool cm_depth_limits(struct rc_ctx *ctx, const struct rc_ops *ops,
		     struct rdma_cm_id *id, uint8_t *resp, uint8_t *init);

/* No descriptor can be opened (RLIMIT_NOFILE 0, its maximum kept) until
 * cm_fds_back(@saved); the row BROKEN when the limit cannot be set. */
bool cm_no_fds(struct rc_ctx *ctx, struct rlimit *saved);
void cm_fds_back(const struct rlimit *saved);

/* @n bytes that are all distinct and none zero (1, 2, ... from @seed). */
void cm_pattern(uint8_t *buf, size_t n, uint8_t seed);
/* Check that @got (of @got_len) starts with @want (of @len) and is zero
 * after it; a violation named @field otherwise. */
void cm_check_private(struct rc_ctx *ctx, const char *field, const void *got,
		      size_t got_len, const void *want, size_t len);

#endif
