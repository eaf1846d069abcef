// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_set_option(3): "Sets communication options for an rdma_cm_id."
 * Its options at level RDMA_OPTION_ID: RDMA_OPTION_ID_TOS "Specify the
 * quality of service provided by a connection.  The expected optlen is
 * size of uint8_t."; RDMA_OPTION_ID_REUSEADDR "Bound the rdma_cm_id to a
 * reuseable address.  This will allow other users to bind to that same
 * address.  The expected optlen is size of int."; RDMA_OPTION_ID_AFONLY
 * "Set IPV6_V6ONLY socket.  The expected optlen is size of int.";
 * RDMA_OPTION_ID_ACK_TIMEOUT "Set QP ACK timeout." (a uint8_t in
 * <rdma/rdma_cma.h>).  "Returns 0 on success, or -1 on error."  The
 * kernel (drivers/infiniband/core/ucma.c, ucma_set_option_id) refuses any
 * other length with EINVAL and an unknown name or level with ENOSYS.
 *
 * - every option of RDMA_OPTION_ID at its documented length: 0; one byte
 *   short and one beyond: -1 EINVAL; TOS with 2^32 + 1 (1 in its low 32
 *   bits): -1 EINVAL
 * - an unknown name, an unknown level: -1 ENOSYS
 * - TOS 0xa4 on the client: its connection's RTR attributes
 *   (rdma_init_qp_attr) carry traffic class 0xa4 (RoCE)
 * - ACK_TIMEOUT 0x11 on the client: its connection's RTS attributes carry
 *   timeout 0x11 (an InfiniBand-transport device)
 * - ACK_TIMEOUT on a UD id (RDMA_PS_UDP): -1 EINVAL
 * - REUSEADDR on both of two ids: the second binds the first's address
 *   and port; 0 on both: it may not; 0x7f000000 (a zero low
 *   byte) is an int that is not 0: on
 * - AFONLY 1 on an IPv6 wildcard id: an IPv4 wildcard id binds its port;
 *   0: it may not
 * - REUSEADDR and AFONLY on a listening id: -1 EINVAL
 */
#include <arpa/inet.h>
#include <string.h>

#include "rdmacm_conn.h"

#define DOC_TOS "Specify the quality of service provided by a connection."
#define DOC_U8 "The expected optlen is size of uint8_t."
#define DOC_INT "The expected optlen is size of int."
#define DOC_REUSE                                                             \
	"Bound the rdma_cm_id to a reuseable address. This will allow other " \
	"users to bind to that same address."
#define DOC_AFONLY "Set IPV6_V6ONLY socket."
#define DOC_ACK "Set QP ACK timeout."
#define DOC_NAME "Name of the option, relative to the level, to set."
#define DOC_LEVEL "Protocol level of the option to set."

struct so_row;
typedef void so_check(const struct so_row *row, struct rc_ctx *ctx);

struct so_row {
	struct rc_case c;
	so_check *check;
	int level, optname;
	size_t len;
	uint32_t value;
	enum rdma_port_space ps;
};

static so_check set_on_new_id, tos_traffic_class, ack_timeout_rts, reuse,
	afonly, on_listener;

#define NEEDS (RC_NEED_DEVICE | RC_NEED_PEER)
#define ID RDMA_OPTION_ID

#define LENGTH_ROW(name, opt, l, v, d, b, nt, ...)                     \
	{                                                              \
		.c = { .id = "rdmacm/set_option/" name,                \
		       .doc = d,                                       \
		       .basis = b,                                     \
		       .note = nt,                                     \
		       .needs = RC_NEED_DEVICE,                        \
		       .contract = { __VA_ARGS__ } },                  \
		.check = set_on_new_id, .level = ID, .optname = (opt), \
		.len = (l), .value = (v), .ps = RDMA_PS_TCP            \
	}

static const struct so_row rows[] = {
	LENGTH_ROW("tos-length-1", RDMA_OPTION_ID_TOS, 1, 0x20, DOC_U8,
		   RC_BASIS_DOCUMENTED, "TOS 0x20 in one byte on a new id: 0",
		   RC_RETURNS(0)),
	LENGTH_ROW("tos-length-0", RDMA_OPTION_ID_TOS, 0, 0x20, DOC_U8,
		   RC_BASIS_LINUX,
		   "one byte short: the kernel's ucma_set_option_id refuses "
		   "optlen != sizeof(u8) with EINVAL",
		   RC_FAILS(EINVAL)),
	LENGTH_ROW("tos-length-2", RDMA_OPTION_ID_TOS, 2, 0x20, DOC_U8,
		   RC_BASIS_LINUX, "one byte beyond: EINVAL", RC_FAILS(EINVAL)),
	LENGTH_ROW("tos-length-beyond-32-bits", RDMA_OPTION_ID_TOS,
		   (size_t)1 << 32 | 1, 0x20, DOC_U8, RC_BASIS_INTERPRETATION,
		   "optlen 2^32 + 1 (a size_t) is not the size of a uint8_t: "
		   "refused with EINVAL as every other length is, never read "
		   "as 1",
		   RC_FAILS(EINVAL)),
	LENGTH_ROW("reuseaddr-length-int", RDMA_OPTION_ID_REUSEADDR,
		   sizeof(int), 1, DOC_INT, RC_BASIS_DOCUMENTED,
		   "REUSEADDR 1 in an int on a new id: 0", RC_RETURNS(0)),
	LENGTH_ROW("reuseaddr-length-short", RDMA_OPTION_ID_REUSEADDR,
		   sizeof(int) - 1, 1, DOC_INT, RC_BASIS_LINUX,
		   "one byte short of an int: the kernel refuses optlen != "
		   "sizeof(int) with EINVAL",
		   RC_FAILS(EINVAL)),
	LENGTH_ROW("reuseaddr-length-beyond", RDMA_OPTION_ID_REUSEADDR,
		   sizeof(int) + 1, 1, DOC_INT, RC_BASIS_LINUX,
		   "one byte beyond an int: EINVAL", RC_FAILS(EINVAL)),
	LENGTH_ROW("afonly-length-int", RDMA_OPTION_ID_AFONLY, sizeof(int), 1,
		   DOC_INT, RC_BASIS_DOCUMENTED,
		   "AFONLY 1 in an int on a new id: 0", RC_RETURNS(0)),
	LENGTH_ROW("afonly-length-short", RDMA_OPTION_ID_AFONLY,
		   sizeof(int) - 1, 1, DOC_INT, RC_BASIS_LINUX,
		   "one byte short of an int: EINVAL", RC_FAILS(EINVAL)),
	LENGTH_ROW("afonly-length-beyond", RDMA_OPTION_ID_AFONLY,
		   sizeof(int) + 1, 1, DOC_INT, RC_BASIS_LINUX,
		   "one byte beyond an int: EINVAL", RC_FAILS(EINVAL)),
	LENGTH_ROW("ack-timeout-length-1", RDMA_OPTION_ID_ACK_TIMEOUT, 1, 0x11,
		   DOC_ACK, RC_BASIS_DOCUMENTED,
		   "ACK_TIMEOUT 0x11 in one byte (<rdma/rdma_cma.h>: uint8_t) "
		   "on a new RDMA_PS_TCP id: 0",
		   RC_RETURNS(0)),
	LENGTH_ROW("ack-timeout-length-2", RDMA_OPTION_ID_ACK_TIMEOUT, 2, 0x11,
		   DOC_ACK, RC_BASIS_LINUX,
		   "one byte beyond a uint8_t: the kernel refuses optlen != "
		   "sizeof(u8) with EINVAL",
		   RC_FAILS(EINVAL)),
	LENGTH_ROW("unknown-name", 0x7f, 4, 1, DOC_NAME, RC_BASIS_LINUX,
		   "optname 0x7f at RDMA_OPTION_ID, no option of "
		   "<rdma/rdma_user_cm.h>: the kernel's ENOSYS",
		   RC_FAILS(ENOSYS)),
	{ .c = { .id = "rdmacm/set_option/unknown-level",
		 .doc = DOC_LEVEL,
		 .basis = RC_BASIS_LINUX,
		 .note = "level 0x7e, neither RDMA_OPTION_ID nor RDMA_OPTION_IB "
			 "(ucma_set_option_level): ENOSYS",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_FAILS(ENOSYS) } },
	  .check = set_on_new_id,
	  .level = 0x7e,
	  .optname = RDMA_OPTION_ID_TOS,
	  .len = 1,
	  .value = 0x20,
	  .ps = RDMA_PS_TCP },
	{ .c = { .id = "rdmacm/set_option/ack-timeout-ud",
		 .doc = DOC_ACK,
		 .basis = RC_BASIS_LINUX,
		 .note = "an RDMA_PS_UDP id has no connected QP to time: the "
			 "kernel's rdma_set_ack_timeout takes RC and XRC "
			 "initiator ids only, EINVAL",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_FAILS(EINVAL) } },
	  .check = set_on_new_id,
	  .level = ID,
	  .optname = RDMA_OPTION_ID_ACK_TIMEOUT,
	  .len = 1,
	  .value = 0x11,
	  .ps = RDMA_PS_UDP },
	{ .c = { .id = "rdmacm/set_option/tos-traffic-class",
		 .doc = DOC_TOS,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "TOS 0xa4 on the client before it resolves: after "
			 "ESTABLISHED, rdma_init_qp_attr(RTR) of the client "
			 "gives IBV_QP_AV with grh.traffic_class 0xa4 (RoCE: "
			 "the route's traffic class is the TOS)",
		 .needs = NEEDS | RC_NEED_ROCE,
		 .contract = { RC_RETURNS(0) } },
	  .check = tos_traffic_class,
	  .level = ID,
	  .optname = RDMA_OPTION_ID_TOS,
	  .len = 1,
	  .value = 0xa4 },
	{ .c = { .id = "rdmacm/set_option/ack-timeout-rts",
		 .doc = DOC_ACK,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "ACK_TIMEOUT 0x11 on the client before it connects: "
			 "after ESTABLISHED, rdma_init_qp_attr(RTS) of the "
			 "client gives IBV_QP_TIMEOUT with timeout 0x11",
		 .needs = NEEDS | RC_NEED_CA,
		 .contract = { RC_RETURNS(0) } },
	  .check = ack_timeout_rts,
	  .level = ID,
	  .optname = RDMA_OPTION_ID_ACK_TIMEOUT,
	  .len = 1,
	  .value = 0x11 },
	{ .c = { .id = "rdmacm/set_option/reuseaddr-shared",
		 .doc = DOC_REUSE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "REUSEADDR 1 on two new ids: both bind the target's "
			 "address and the row's port (neither listens)",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(0) } },
	  .check = reuse,
	  .level = ID,
	  .optname = RDMA_OPTION_ID_REUSEADDR,
	  .len = sizeof(int),
	  .value = 1 },
	{ .c = { .id = "rdmacm/set_option/reuseaddr-int-high-bytes",
		 .doc = DOC_INT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "REUSEADDR 0x7f000000, an int whose first byte in "
			 "memory is 0: on, both bind (an option read as one "
			 "byte would be off)",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(0) } },
	  .check = reuse,
	  .level = ID,
	  .optname = RDMA_OPTION_ID_REUSEADDR,
	  .len = sizeof(int),
	  .value = 0x7f000000 },
	{ .c = { .id = "rdmacm/set_option/reuseaddr-zero",
		 .doc = DOC_REUSE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "REUSEADDR 0 on both: the address is not reusable, the "
			 "second bind fails",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(0) } },
	  .check = reuse,
	  .level = ID,
	  .optname = RDMA_OPTION_ID_REUSEADDR,
	  .len = sizeof(int),
	  .value = 0 },
	{ .c = { .id = "rdmacm/set_option/afonly-one",
		 .doc = DOC_AFONLY,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "AFONLY 1 on an id bound then to [::] and the row's "
			 "port: IPv6 only, so an id binds 0.0.0.0 and that port",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(0) } },
	  .check = afonly,
	  .level = ID,
	  .optname = RDMA_OPTION_ID_AFONLY,
	  .len = sizeof(int),
	  .value = 1 },
	{ .c = { .id = "rdmacm/set_option/afonly-zero",
		 .doc = DOC_AFONLY,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "AFONLY 0: [::] and the port take IPv4's too, and an "
			 "id's bind to 0.0.0.0 and that port fails (the "
			 "kernel's EADDRNOTAVAIL for a wildcard's conflict)",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(0) } },
	  .check = afonly,
	  .level = ID,
	  .optname = RDMA_OPTION_ID_AFONLY,
	  .len = sizeof(int),
	  .value = 0 },
	{ .c = { .id = "rdmacm/set_option/reuseaddr-listening",
		 .doc = DOC_REUSE,
		 .basis = RC_BASIS_LINUX,
		 .note = "a listening id's address stays its own: the kernel's "
			 "rdma_set_reuseaddr refuses reuse on a listener, EINVAL",
		 .needs = NEEDS,
		 .contract = { RC_FAILS(EINVAL) } },
	  .check = on_listener,
	  .level = ID,
	  .optname = RDMA_OPTION_ID_REUSEADDR,
	  .len = sizeof(int),
	  .value = 1 },
	{ .c = { .id = "rdmacm/set_option/afonly-listening",
		 .doc = DOC_AFONLY,
		 .basis = RC_BASIS_LINUX,
		 .note = "the kernel's rdma_set_afonly takes an id only before "
			 "it listens (IDLE or ADDR_BOUND), EINVAL after",
		 .needs = NEEDS,
		 .contract = { RC_FAILS(EINVAL) } },
	  .check = on_listener,
	  .level = ID,
	  .optname = RDMA_OPTION_ID_AFONLY,
	  .len = sizeof(int),
	  .value = 1 },
};

/* the row's value in the buffer: an int's bytes, or one byte */
static void *optval(const struct so_row *row, uint8_t buf[8])
{
	int v = (int)row->value;

	memset(buf, 0, 8);
	if (row->optname == RDMA_OPTION_ID_TOS ||
	    row->optname == RDMA_OPTION_ID_ACK_TIMEOUT)
		buf[0] = (uint8_t)row->value;
	else
		memcpy(buf, &v, sizeof(v));
	return buf;
}

static bool open_id(struct rc_ctx *ctx, enum rdma_port_space ps,
		    struct rdma_event_channel **ch, struct rdma_cm_id **id)
{
	*id = NULL;
	*ch = ctx->ops->rdma_create_event_channel();
	if (!*ch)
		return cm_broken(ctx, "rdma_create_event_channel");
	if (ctx->ops->rdma_create_id(*ch, id, NULL, ps)) {
		*id = NULL;
		return cm_broken(ctx, "rdma_create_id");
	}
	return true;
}

static void close_id(struct rc_ctx *ctx, struct rdma_event_channel *ch,
		     struct rdma_cm_id *id)
{
	if (id)
		ctx->ops->rdma_destroy_id(id);
	if (ch)
		ctx->ops->rdma_destroy_event_channel(ch);
}

static void set_on_new_id(const struct so_row *row, struct rc_ctx *ctx)
{
	struct rdma_event_channel *ch;
	struct rdma_cm_id *id;
	uint8_t buf[8];

	if (open_id(ctx, row->ps, &ch, &id))
		RC_OBSERVE(ctx, ctx->ops->rdma_set_option(
					id, row->level, row->optname,
					optval(row, buf), row->len));
	close_id(ctx, ch, id);
}

/* the option on the client, then a connection; the client's attributes
 * for @state into @a */
static bool connected_with(const struct so_row *row, struct rc_ctx *ctx,
			   struct cm_pair *p, int state, struct ibv_qp_attr *a,
			   int *mask)
{
	uint8_t buf[8];
	int ret;

	if (!cm_pair_open(ctx, p, AF_INET, true, ctx->ops, ctx->ops))
		return false;
	RC_OBSERVE(ctx, ret = ctx->ops->rdma_set_option(
				p->cli.id, row->level, row->optname,
				optval(row, buf), row->len));
	if (ret || !cm_connect(ctx, p))
		return false;
	memset(a, 0, sizeof(*a));
	a->qp_state = state;
	*mask = 0;
	if (ctx->ops->rdma_init_qp_attr(p->cli.id, a, mask)) {
		rc_obs_violation(ctx->obs,
				 "attr rdma_init_qp_attr(%d) of the connected "
				 "client fails (%m)",
				 state);
		return false;
	}
	return true;
}

static void tos_traffic_class(const struct so_row *row, struct rc_ctx *ctx)
{
	struct ibv_qp_attr a;
	struct cm_pair p;
	int mask;

	if (connected_with(row, ctx, &p, IBV_QPS_RTR, &a, &mask)) {
		if (!(mask & IBV_QP_AV))
			rc_obs_violation(ctx->obs,
					 "mask 0x%x without IBV_QP_AV", mask);
		else if (a.ah_attr.grh.traffic_class != row->value)
			rc_obs_violation(ctx->obs,
					 "traffic_class 0x%02x, not 0x%02x",
					 a.ah_attr.grh.traffic_class,
					 row->value);
	}
	cm_pair_close(ctx, &p);
}

static void ack_timeout_rts(const struct so_row *row, struct rc_ctx *ctx)
{
	struct ibv_qp_attr a;
	struct cm_pair p;
	int mask;

	if (connected_with(row, ctx, &p, IBV_QPS_RTS, &a, &mask)) {
		if (!(mask & IBV_QP_TIMEOUT))
			rc_obs_violation(ctx->obs,
					 "mask 0x%x without IBV_QP_TIMEOUT",
					 mask);
		else if (a.timeout != row->value)
			rc_obs_violation(ctx->obs, "timeout 0x%02x, not 0x%02x",
					 a.timeout, row->value);
	}
	cm_pair_close(ctx, &p);
}

static void with_port(struct sockaddr_storage *ss, uint16_t port)
{
	if (ss->ss_family == AF_INET)
		((struct sockaddr_in *)ss)->sin_port = htons(port);
	else
		((struct sockaddr_in6 *)ss)->sin6_port = htons(port);
}

static void reuse(const struct so_row *row, struct rc_ctx *ctx)
{
	struct rdma_event_channel *ch1 = NULL, *ch2 = NULL;
	struct rdma_cm_id *id1 = NULL, *id2 = NULL;
	struct sockaddr_storage ss;
	uint8_t buf[8];
	int ret, bound;

	if (!cm_dev_addr(ctx, ctx->target->ca, ctx->target->port, AF_INET,
			 &ss) ||
	    !open_id(ctx, RDMA_PS_TCP, &ch1, &id1) ||
	    !open_id(ctx, RDMA_PS_TCP, &ch2, &id2))
		goto out;
	with_port(&ss, cm_port(ctx));
	if (ctx->ops->rdma_set_option(id1, row->level, row->optname,
				      optval(row, buf), row->len) ||
	    ctx->ops->rdma_bind_addr(id1, (struct sockaddr *)&ss)) {
		cm_broken(ctx, "the first id's option and bind");
		goto out;
	}
	RC_OBSERVE(ctx, ret = ctx->ops->rdma_set_option(
				id2, row->level, row->optname, optval(row, buf),
				row->len));
	if (ret)
		goto out;
	bound = ctx->ops->rdma_bind_addr(id2, (struct sockaddr *)&ss);
	if (row->value && bound)
		rc_obs_violation(ctx->obs,
				 "bind the second id's bind to the reusable "
				 "address fails (%m)");
	else if (!row->value && !bound)
		rc_obs_violation(ctx->obs,
				 "bind the second id binds an address the "
				 "first holds without REUSEADDR");
out:
	close_id(ctx, ch2, id2);
	close_id(ctx, ch1, id1);
}

static void afonly(const struct so_row *row, struct rc_ctx *ctx)
{
	struct rdma_event_channel *ch6 = NULL, *ch4 = NULL;
	struct rdma_cm_id *id6 = NULL, *id4 = NULL;
	struct sockaddr_in6 any6 = { .sin6_family = AF_INET6,
				     .sin6_addr = IN6ADDR_ANY_INIT,
				     .sin6_port = htons(cm_port(ctx)) };
	struct sockaddr_in any4 = { .sin_family = AF_INET,
				    .sin_addr.s_addr = htonl(INADDR_ANY),
				    .sin_port = htons(cm_port(ctx)) };
	uint8_t buf[8];
	int ret, bound;

	if (!open_id(ctx, RDMA_PS_TCP, &ch6, &id6) ||
	    !open_id(ctx, RDMA_PS_TCP, &ch4, &id4))
		goto out;
	RC_OBSERVE(ctx, ret = ctx->ops->rdma_set_option(
				id6, row->level, row->optname, optval(row, buf),
				row->len));
	if (ret)
		goto out;
	if (ctx->ops->rdma_bind_addr(id6, (struct sockaddr *)&any6)) {
		rc_obs_violation(ctx->obs, "bind [::] fails (%m)");
		goto out;
	}
	bound = ctx->ops->rdma_bind_addr(id4, (struct sockaddr *)&any4);
	if (row->value && bound)
		rc_obs_violation(ctx->obs,
				 "bind 0.0.0.0 fails (%m) beside an IPv6-only "
				 "[::] of the same port");
	else if (!row->value && !bound)
		rc_obs_violation(ctx->obs,
				 "bind 0.0.0.0 binds the port that [::] holds "
				 "for both families");
out:
	close_id(ctx, ch4, id4);
	close_id(ctx, ch6, id6);
}

static void on_listener(const struct so_row *row, struct rc_ctx *ctx)
{
	struct cm_pair p;
	uint8_t buf[8];

	if (cm_pair_open(ctx, &p, AF_INET, false, ctx->ops, ctx->ops) &&
	    cm_listen(ctx, &p))
		RC_OBSERVE(ctx, ctx->ops->rdma_set_option(
					p.srv.id, row->level, row->optname,
					optval(row, buf), row->len));
	cm_pair_close(ctx, &p);
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct so_row *row = r;

	if (!rc_need_call(ctx, ctx->ops->rdma_set_option, "rdma_set_option"))
		return;
	row->check(row, ctx);
}

RC_TABLE_GROUP(group, "rdma_set_option", RC_CONV_M1_ERRNO, "rdmacm", rows, run);
