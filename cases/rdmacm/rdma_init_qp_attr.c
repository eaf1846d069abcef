// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_init_qp_attr(3): "rdma_init_qp_attr() returns qp attributes of an
 * rdma_cm_id."  "Information about qp attributes and qp attributes mask is
 * returned through the qp_attr and qp_attr_mask parameters."  "returns 0
 * on success, or -1 on error."  Which state's attributes: the one the
 * caller puts in qp_attr->qp_state (the kernel's INIT_QP_ATTR takes it).
 *
 * On the server's id of a connection request:
 * - INIT: 0; the mask has IBV_QP_STATE and IBV_QP_ACCESS_FLAGS, the
 *   state is INIT, and a port in the mask is the id's
 * - RTR (RoCE, no QPs): the destination QP is the client's qp_num,
 *   IBV_QP_DEST_QPN in the mask
 * - INIT (RoCE: the IB CM's): qp_access_flags with REMOTE_WRITE, READ
 *   and ATOMIC, as the request asked for responder resources (its
 *   initiator depth 2), and pkey_index 0, each in the mask
 * - nothing written beyond the caller's struct ibv_qp_attr
 * - INIT of an RDMA_PS_UDP id bound to the device's address (no
 *   connection): qkey RDMA_UDP_QKEY (the kernel's cma_set_default_qkey),
 *   pkey_index 0 and the id's port, each in the mask
 * - a new id, bound to no device: -1 (Linux: no device, no attributes)
 * On the server's id of a connection made with QPs, the client the other
 * implementation's (so that what the row compares with is not the code
 * under test), the attributes of the client's QP read with its own
 * ibv_query_qp (Linux's CM, and the IBA's: the passive side's QP takes
 * the REQ's PSN, retry counts and depths):
 * - rtr-is-the-peers: RTR: dest_qp_num the client's QP, rq_psn the
 *   client's sq_psn, path_mtu the client's, max_dest_rd_atomic the
 *   responder_resources accepted (2), the AV's destination GID the
 *   client's and its source GID (by index) the one the client sends to,
 *   its hop limit the client's (one link), its port the id's
 * - rts-is-the-peers: RTS: sq_psn the client's rq_psn, retry_cnt and
 *   rnr_retry the REQ's (6 and 5), max_rd_atomic the initiator_depth
 *   accepted (3)
 * - rts-ack-timeout: RTS after RDMA_OPTION_ID_ACK_TIMEOUT 0x11 on the
 *   server's id: timeout 0x11 (the kernel's rdma_init_qp_attr puts the
 *   id's ACK timeout over the CM's)
 */
#include <string.h>

#include "rdmacm_conn.h"

#define DOC_ATTR                                           \
	"rdma_init_qp_attr() returns qp attributes of an " \
	"rdma_cm_id."
#define DOC_MASK                                                     \
	"Information about qp attributes and qp attributes mask is " \
	"returned through the qp_attr and qp_attr_mask parameters."
#define DOC_LINUX "rdma_init_qp_attr() returns 0 on success, or -1 on error."

struct ia_row;
typedef void ia_check(const struct ia_row *row, struct rc_ctx *ctx,
		      struct cm_pair *p, struct rdma_cm_id *id,
		      const struct ibv_qp_attr *a, int mask);

struct ia_row {
	struct rc_case c;
	ia_check *check;
	int state;
	bool no_device;
	bool connected; /* with QPs, the client the other implementation */
	bool guard; /* and nothing after the caller's struct written */
	bool udp; /* an RDMA_PS_UDP id, bound (run_udp) */
	uint8_t ack_timeout; /* RDMA_OPTION_ID_ACK_TIMEOUT on the id, if not 0 */
};

static ia_check init_attrs, init_access, ud_init, rtr_dest_qpn, no_attrs,
	rtr_peers, rts_peers, rts_timeout;

#define NEEDS (RC_NEED_DEVICE | RC_NEED_PEER)

static const struct ia_row rows[] = {
	{ .c = { .id = "rdmacm/init_qp_attr/init-on-request",
		 .doc = DOC_MASK,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "qp_state IBV_QPS_INIT in, on the request's new id: "
			 "0; the mask has STATE and ACCESS_FLAGS, the state is "
			 "INIT, a PORT in the mask is id->port_num",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = init_attrs,
	  .state = IBV_QPS_INIT },
	{ .c = { .id = "rdmacm/init_qp_attr/init-access-from-the-request",
		 .doc = DOC_ATTR,
		 .basis = RC_BASIS_LINUX,
		 .note = "INIT on the request's new id (RoCE: the IB CM's "
			 "cm_init_qp_init_attr): qp_access_flags with "
			 "REMOTE_WRITE, REMOTE_READ and REMOTE_ATOMIC (the "
			 "request's initiator depth 2 is not 0; Linux 6.2 adds "
			 "the FLUSH flags) and pkey_index 0 (RoCE's one P_Key), "
			 "each in the mask",
		 .needs = NEEDS | RC_NEED_ROCE,
		 .contract = { RC_RETURNS(0) } },
	  .check = init_access,
	  .state = IBV_QPS_INIT },
	{ .c = { .id = "rdmacm/init_qp_attr/writes-within-the-struct",
		 .doc = DOC_MASK,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the attributes are returned through qp_attr, a struct "
			 "ibv_qp_attr: the 64 bytes after it (0xa5) are as they "
			 "were after INIT's attributes",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = no_attrs,
	  .state = IBV_QPS_INIT,
	  .guard = true },
	{ .c = { .id = "rdmacm/init_qp_attr/ud-init-qkey",
		 .doc = DOC_ATTR,
		 .basis = RC_BASIS_LINUX,
		 .note = "INIT of an RDMA_PS_UDP id bound to the device's "
			 "address: qkey RDMA_UDP_QKEY 0x01234567 (the kernel's "
			 "cma_set_default_qkey), pkey_index 0 and port_num the "
			 "id's, each in the mask",
		 .needs = RC_NEED_DEVICE | RC_NEED_ROCE | RC_NEED_UD,
		 .contract = { RC_RETURNS(0) } },
	  .check = ud_init,
	  .state = IBV_QPS_INIT,
	  .udp = true },
	{ .c = { .id = "rdmacm/init_qp_attr/rtr-dest-qpn",
		 .doc = DOC_ATTR,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "qp_state IBV_QPS_RTR: the destination QP number is "
			 "the client's qp_num (no QP), DEST_QPN in the mask",
		 .needs = NEEDS | RC_NEED_ROCE,
		 .contract = { RC_RETURNS(0) } },
	  .check = rtr_dest_qpn,
	  .state = IBV_QPS_RTR },
	{ .c = { .id = "rdmacm/init_qp_attr/no-device",
		 .doc = DOC_LINUX,
		 .basis = RC_BASIS_LINUX,
		 .note = "a new id bound to no device: -1 (ucma.c's "
			 "ucma_init_qp_attr refuses an id without a device)",
		 .needs = NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = no_attrs,
	  .state = IBV_QPS_INIT,
	  .no_device = true },
	{ .c = { .id = "rdmacm/init_qp_attr/rtr-is-the-peers",
		 .doc = DOC_ATTR,
		 .basis = RC_BASIS_LINUX,
		 .note = "RTR on the server's connected id: dest_qp_num, rq_psn "
			 "(the client's sq_psn), path_mtu and the AV's GID the "
			 "client QP's, max_dest_rd_atomic the 2 accepted, the "
			 "AV's port the id's, each in the mask",
		 .needs = NEEDS | RC_NEED_ROCE,
		 .contract = { RC_RETURNS(0) } },
	  .check = rtr_peers,
	  .state = IBV_QPS_RTR,
	  .connected = true },
	{ .c = { .id = "rdmacm/init_qp_attr/rts-is-the-peers",
		 .doc = DOC_ATTR,
		 .basis = RC_BASIS_LINUX,
		 .note = "RTS on the server's connected id: sq_psn the client "
			 "QP's rq_psn, retry_cnt 6 and rnr_retry 5 (the REQ's), "
			 "max_rd_atomic the 3 accepted, each in the mask",
		 .needs = NEEDS | RC_NEED_ROCE,
		 .contract = { RC_RETURNS(0) } },
	  .check = rts_peers,
	  .state = IBV_QPS_RTS,
	  .connected = true },
	{ .c = { .id = "rdmacm/init_qp_attr/rts-ack-timeout",
		 .doc = DOC_ATTR,
		 .basis = RC_BASIS_LINUX,
		 .note = "RTS on the server's connected id after "
			 "RDMA_OPTION_ID_ACK_TIMEOUT 0x11 on it: timeout 0x11 in "
			 "the mask (the kernel's rdma_init_qp_attr gives the "
			 "id's ACK timeout over the CM's)",
		 .needs = NEEDS | RC_NEED_ROCE,
		 .contract = { RC_RETURNS(0) } },
	  .check = rts_timeout,
	  .state = IBV_QPS_RTS,
	  .connected = true,
	  .ack_timeout = 0x11 },
};

static void init_attrs(const struct ia_row *row, struct rc_ctx *ctx,
		       struct cm_pair *p, struct rdma_cm_id *id,
		       const struct ibv_qp_attr *a, int mask)
{
	int want = IBV_QP_STATE | IBV_QP_ACCESS_FLAGS;

	rc_obs_out(ctx->obs, &mask, sizeof(mask));
	if ((mask & want) != want || a->qp_state != IBV_QPS_INIT)
		rc_obs_violation(ctx->obs, "mask 0x%x, qp_state %d", mask,
				 a->qp_state);
	else if ((mask & IBV_QP_PORT) && a->port_num != id->port_num)
		rc_obs_violation(ctx->obs, "port_num %u, the id's is %u",
				 a->port_num, id->port_num);
}

static void rtr_dest_qpn(const struct ia_row *row, struct rc_ctx *ctx,
			 struct cm_pair *p, struct rdma_cm_id *id,
			 const struct ibv_qp_attr *a, int mask)
{
	if (!(mask & IBV_QP_DEST_QPN) || a->dest_qp_num != CM_CLIENT_QPN)
		rc_obs_violation(ctx->obs,
				 "dest_qp_num 0x%x (mask 0x%x), "
				 "not 0x%x",
				 a->dest_qp_num, mask, CM_CLIENT_QPN);
}

static void no_attrs(const struct ia_row *row, struct rc_ctx *ctx,
		     struct cm_pair *p, struct rdma_cm_id *id,
		     const struct ibv_qp_attr *a, int mask)
{
}

/* The client's QP as its own implementation reads it, and the GID it
 * sends from (the one its AV's sgid_index names) */
static bool client_qp(struct rc_ctx *ctx, struct cm_pair *p,
		      struct ibv_qp_attr *q, union ibv_gid *gid)
{
	struct ibv_qp_init_attr qi;
	int want = IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
		   IBV_QP_DEST_QPN | IBV_QP_RQ_PSN | IBV_QP_SQ_PSN;

	if (p->cli.ops->ibv_query_qp(p->cli.id->qp, q, want, &qi))
		return cm_broken(ctx, "ibv_query_qp of the client's QP");
	if (p->cli.ops->ibv_query_gid(p->cli.id->verbs, p->cli.id->port_num,
				      q->ah_attr.grh.sgid_index, gid))
		return cm_broken(ctx, "ibv_query_gid of the client's GID");
	return true;
}

/* @field of the mask @bit, @got, is @want (a violation names it) */
static bool field_is(struct rc_ctx *ctx, int mask, int bit, const char *field,
		     uint64_t got, uint64_t want)
{
	if (!(mask & bit)) {
		rc_obs_violation(ctx->obs, "%s: not in the mask 0x%x", field,
				 mask);
		return false;
	}
	if (got != want) {
		rc_obs_violation(ctx->obs, "%s %llu, not %llu", field,
				 (unsigned long long)got,
				 (unsigned long long)want);
		return false;
	}
	return true;
}

static void init_access(const struct ia_row *row, struct rc_ctx *ctx,
			struct cm_pair *p, struct rdma_cm_id *id,
			const struct ibv_qp_attr *a, int mask)
{
	/* at least these: Linux 6.2 added the two FLUSH flags (RDMA/cm:
	 * make QP FLUSHABLE), 6.12 gives 0x30e */
	int want = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ |
		   IBV_ACCESS_REMOTE_ATOMIC;

	if (field_is(ctx, mask, IBV_QP_ACCESS_FLAGS, "qp_access_flags",
		     a->qp_access_flags & want, want))
		field_is(ctx, mask, IBV_QP_PKEY_INDEX, "pkey_index",
			 a->pkey_index, 0);
}

static void ud_init(const struct ia_row *row, struct rc_ctx *ctx,
		    struct cm_pair *p, struct rdma_cm_id *id,
		    const struct ibv_qp_attr *a, int mask)
{
	if (field_is(ctx, mask, IBV_QP_QKEY, "qkey", a->qkey, RDMA_UDP_QKEY) &&
	    field_is(ctx, mask, IBV_QP_PKEY_INDEX, "pkey_index", a->pkey_index,
		     0))
		field_is(ctx, mask, IBV_QP_PORT, "port_num", a->port_num,
			 id->port_num);
}

/* The AV's GIDs: the destination the client's own, the source (by its
 * index in the server's table) the one the client sends to */
static void same_gids(struct rc_ctx *ctx, struct rdma_cm_id *id,
		      const struct ibv_qp_attr *a, const struct ibv_qp_attr *q,
		      const union ibv_gid *client)
{
	union ibv_gid own;

	if (memcmp(&a->ah_attr.grh.dgid, client, sizeof(*client)))
		rc_obs_violation(ctx->obs,
				 "ah_attr.grh.dgid: not the client's GID");
	else if (ctx->ops->ibv_query_gid(id->verbs, id->port_num,
					 a->ah_attr.grh.sgid_index, &own))
		rc_obs_violation(ctx->obs,
				 "ah_attr.grh.sgid_index %u: no GID there",
				 a->ah_attr.grh.sgid_index);
	else if (memcmp(&own, &q->ah_attr.grh.dgid, sizeof(own)))
		rc_obs_violation(ctx->obs,
				 "ah_attr.grh.sgid_index %u: not the GID the "
				 "client sends to",
				 a->ah_attr.grh.sgid_index);
}

static void rtr_peers(const struct ia_row *row, struct rc_ctx *ctx,
		      struct cm_pair *p, struct rdma_cm_id *id,
		      const struct ibv_qp_attr *a, int mask)
{
	struct rdma_conn_param s;
	struct ibv_qp_attr q;
	union ibv_gid gid;

	cm_accept_param(&s);
	if (!client_qp(ctx, p, &q, &gid))
		return;
	if (field_is(ctx, mask, IBV_QP_DEST_QPN, "dest_qp_num", a->dest_qp_num,
		     p->cli.id->qp->qp_num) &&
	    field_is(ctx, mask, IBV_QP_RQ_PSN, "rq_psn", a->rq_psn, q.sq_psn) &&
	    field_is(ctx, mask, IBV_QP_PATH_MTU, "path_mtu", a->path_mtu,
		     q.path_mtu) &&
	    field_is(ctx, mask, IBV_QP_MAX_DEST_RD_ATOMIC, "max_dest_rd_atomic",
		     a->max_dest_rd_atomic, s.responder_resources) &&
	    field_is(ctx, mask, IBV_QP_AV, "ah_attr.port_num",
		     a->ah_attr.port_num, id->port_num) &&
	    field_is(ctx, mask, IBV_QP_AV, "ah_attr.is_global",
		     a->ah_attr.is_global, 1) &&
	    field_is(ctx, mask, IBV_QP_AV, "ah_attr.grh.hop_limit",
		     a->ah_attr.grh.hop_limit, q.ah_attr.grh.hop_limit))
		same_gids(ctx, id, a, &q, &gid);
}

static void rts_peers(const struct ia_row *row, struct rc_ctx *ctx,
		      struct cm_pair *p, struct rdma_cm_id *id,
		      const struct ibv_qp_attr *a, int mask)
{
	struct rdma_conn_param c, s;
	struct ibv_qp_attr q;
	union ibv_gid gid;

	/* the REQ's retry counts, the accept's depth: what run() sent */
	cm_client_param(&c, NULL, 0);
	cm_accept_param(&s);
	if (client_qp(ctx, p, &q, &gid) &&
	    field_is(ctx, mask, IBV_QP_SQ_PSN, "sq_psn", a->sq_psn, q.rq_psn) &&
	    field_is(ctx, mask, IBV_QP_RETRY_CNT, "retry_cnt", a->retry_cnt,
		     c.retry_count) &&
	    field_is(ctx, mask, IBV_QP_RNR_RETRY, "rnr_retry", a->rnr_retry,
		     c.rnr_retry_count))
		field_is(ctx, mask, IBV_QP_MAX_QP_RD_ATOMIC, "max_rd_atomic",
			 a->max_rd_atomic, s.initiator_depth);
}

/* the caller's struct and what lies after it, which no call may touch */
#define GUARD_LEN 64
#define GUARD_BYTE 0xa5

static void rts_timeout(const struct ia_row *row, struct rc_ctx *ctx,
			struct cm_pair *p, struct rdma_cm_id *id,
			const struct ibv_qp_attr *a, int mask)
{
	field_is(ctx, mask, IBV_QP_TIMEOUT, "timeout", a->timeout,
		 row->ack_timeout);
}

/* An RDMA_PS_UDP id of the row's implementation, bound to the device's
 * address: no peer, no connection */
static void run_udp(const struct ia_row *row, struct rc_ctx *ctx)
{
	const struct rc_ops *ops = ctx->ops;
	struct rdma_event_channel *ch = ops->rdma_create_event_channel();
	struct sockaddr_storage ss;
	struct rdma_cm_id *id = NULL;
	struct ibv_qp_attr a;
	int ret, mask = 0;

	if (!ch) {
		cm_broken(ctx, "rdma_create_event_channel");
		return;
	}
	if (ops->rdma_create_id(ch, &id, NULL, RDMA_PS_UDP)) {
		cm_broken(ctx, "rdma_create_id(RDMA_PS_UDP)");
		id = NULL;
		goto out;
	}
	if (!cm_dev_addr(ctx, ctx->target->ca, ctx->target->port, AF_INET, &ss))
		goto out;
	((struct sockaddr_in *)&ss)->sin_port = htons(cm_port(ctx));
	if (ops->rdma_bind_addr(id, (struct sockaddr *)&ss)) {
		cm_broken(ctx, "rdma_bind_addr");
		goto out;
	}
	memset(&a, 0, sizeof(a));
	a.qp_state = row->state;
	RC_OBSERVE(ctx, ret = ops->rdma_init_qp_attr(id, &a, &mask));
	if (!ret)
		row->check(row, ctx, NULL, id, &a, mask);
out:
	if (id)
		ops->rdma_destroy_id(id);
	ops->rdma_destroy_event_channel(ch);
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct ia_row *row = r;
	struct rdma_conn_param c;
	struct rdma_cm_id *id;
	struct {
		struct ibv_qp_attr a;
		unsigned char after[GUARD_LEN];
	} buf;
	struct cm_pair p;
	int ret, mask = 0;
	size_t i;

	if (!rc_need_call(ctx, ctx->ops->rdma_init_qp_attr,
			  "rdma_init_qp_attr"))
		return;
	if (row->udp) {
		run_udp(row, ctx);
		return;
	}
	cm_client_param(&c, NULL, 0);
	if (!cm_pair_open(ctx, &p, AF_INET, row->connected, ctx->ops,
			  row->connected ? cm_other_ops(ctx) : ctx->ops))
		goto out;
	if (!row->no_device && (!cm_listen(ctx, &p) || !cm_resolve(ctx, &p) ||
				!cm_request(ctx, &p, &c, NULL)))
		goto out;
	if (row->connected && !cm_accept(ctx, &p, NULL))
		goto out;
	id = row->no_device ? p.cli.id : p.srv.conn;
	if (row->ack_timeout &&
	    ctx->ops->rdma_set_option(id, RDMA_OPTION_ID,
				      RDMA_OPTION_ID_ACK_TIMEOUT,
				      (void *)&row->ack_timeout, 1)) {
		cm_broken(ctx, "rdma_set_option(RDMA_OPTION_ID_ACK_TIMEOUT)");
		goto out;
	}
	memset(&buf.a, 0, sizeof(buf.a));
	memset(buf.after, GUARD_BYTE, sizeof(buf.after));
	buf.a.qp_state = row->state;
	RC_OBSERVE(ctx, ret = ctx->ops->rdma_init_qp_attr(id, &buf.a, &mask));
	for (i = 0; row->guard && i < sizeof(buf.after); i++)
		if (buf.after[i] != GUARD_BYTE) {
			rc_obs_violation(ctx->obs,
					 "byte %zu after struct ibv_qp_attr "
					 "written (0x%02x)",
					 i, buf.after[i]);
			break;
		}
	if (!ret)
		row->check(row, ctx, &p, id, &buf.a, mask);
out:
	cm_pair_close(ctx, &p);
}

RC_TABLE_GROUP(group, "rdma_init_qp_attr", RC_CONV_M1_ERRNO, "rdmacm", rows,
	       run);
