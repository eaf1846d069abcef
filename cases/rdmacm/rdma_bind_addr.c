// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_bind_addr(3): "Associates a source address with an rdma_cm_id.
 * The address may be wildcarded.  If binding to a specific local address,
 * the rdma_cm_id will also be bound to a local RDMA device."  NOTES: "If
 * used to bind to port 0, the rdma_cm will select an available port,
 * which can be retrieved with rdma_get_src_port(3)."  "Returns 0 on
 * success, or -1 on error."
 *
 * An RDMA_PS_TCP id on a channel of its own, the address the target
 * device's (its port the row's pool slot's, two distinct bytes):
 * - the device's IPv4 address: id->port_num its port
 * - the device's IPv4 address, and its IPv6 address: 0, id->verbs the
 *   target device, rdma_get_local_addr the address and port bound,
 *   rdma_get_src_port the port
 * - port 0, IPv4 and IPv6: a port other than 0, the same in
 *   rdma_get_src_port and rdma_get_local_addr
 * - the IPv4 wildcard with the row's port: 0, rdma_get_local_addr
 *   0.0.0.0 and the port
 * - 203.0.113.77 (TEST-NET-3), an address no interface has: -1
 *   EADDRNOTAVAIL
 * - an address and port another id of the process is bound to: -1
 *   EADDRINUSE
 * - the id bound already, bound again (port 0): -1 EINVAL
 * - an AF_UNIX address, a family rdma_cm has not: -1 EINVAL
 * - ib-family-on-ethernet: an AF_IB address (struct sockaddr_ib) holding
 *   the target port's GID 0, where the port's link layer is Ethernet
 *   (RoCE) or the device iWARP: -1 (interpretation: AF_IB names an
 *   InfiniBand endpoint by GID and service ID, which a RoCE or iWARP
 *   device is not; UNSUPPORTED on an InfiniBand port)
 */
#include <arpa/inet.h>
#include <endian.h>
#include <stdio.h>
#include <string.h>
#include <sys/un.h>
#include <infiniband/ib.h>

#include "../../harness/device.h"
#include "rdmacm_conn.h"

#define DOC_DEVICE                                                     \
	"If binding to a specific local address, the rdma_cm_id will " \
	"also be bound to a local RDMA device."
#define DOC_PORT0                                                          \
	"If used to bind to port 0, the rdma_cm will select an available " \
	"port, which can be retrieved with rdma_get_src_port(3)."
#define DOC_WILDCARD "The address may be wildcarded."
#define DOC_RETURN "Returns 0 on success, or -1 on error."

enum ba_addr {
	BA_DEVICE, /* the target device's address */
	BA_ANY, /* the family's wildcard */
	BA_TEST_NET, /* 203.0.113.77 */
	BA_UNIX, /* AF_UNIX */
	BA_IB, /* AF_IB, the target port's GID 0 */
};

struct ba_row {
	struct rc_case c;
	int family;
	enum ba_addr addr;
	bool port0; /* port 0, else the row's port */
	bool twice; /* another id binds it first */
	bool rebind; /* the id itself is bound already */
	bool port_num; /* and id->port_num is the address's port */
};

static const struct ba_row rows[] = {
	{ .c = { .id = "rdmacm/bind_addr/ipv4-device",
		 .doc = DOC_DEVICE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the target device's IPv4 address: 0, id->verbs is "
			 "the target device, rdma_get_local_addr the address "
			 "and port bound, rdma_get_src_port the port",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(0) } },
	  .family = AF_INET,
	  .addr = BA_DEVICE },
	{ .c = { .id = "rdmacm/bind_addr/port-of-the-device",
		 .doc = DOC_DEVICE,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the target device's IPv4 address: id->port_num is "
			 "the target port, the one whose address it is (the "
			 "device bound to, down to its port)",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(0) } },
	  .family = AF_INET,
	  .addr = BA_DEVICE,
	  .port_num = true },
	{ .c = { .id = "rdmacm/bind_addr/ipv6-device",
		 .doc = DOC_DEVICE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the same with the device's IPv6 address",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(0) } },
	  .family = AF_INET6,
	  .addr = BA_DEVICE },
	{ .c = { .id = "rdmacm/bind_addr/ipv4-port-zero",
		 .doc = DOC_PORT0,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the device's IPv4 address with port 0: 0, and "
			 "rdma_get_src_port a port other than 0, the one "
			 "rdma_get_local_addr has",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(0) } },
	  .family = AF_INET,
	  .addr = BA_DEVICE,
	  .port0 = true },
	{ .c = { .id = "rdmacm/bind_addr/ipv6-port-zero",
		 .doc = DOC_PORT0,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the same with the device's IPv6 address",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(0) } },
	  .family = AF_INET6,
	  .addr = BA_DEVICE,
	  .port0 = true },
	{ .c = { .id = "rdmacm/bind_addr/ipv4-wildcard",
		 .doc = DOC_WILDCARD,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "INADDR_ANY with the row's port: 0, and "
			 "rdma_get_local_addr 0.0.0.0 with that port",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(0) } },
	  .family = AF_INET,
	  .addr = BA_ANY },
	{ .c = { .id = "rdmacm/bind_addr/address-of-no-interface",
		 .doc = DOC_RETURN,
		 .basis = RC_BASIS_LINUX,
		 .note = "203.0.113.77 (TEST-NET-3), which no interface has: the "
			 "kernel's rdma_bind_addr finds no netdev for it "
			 "(rdma_translate_ip), -1 EADDRNOTAVAIL",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_FAILS(EADDRNOTAVAIL) } },
	  .family = AF_INET,
	  .addr = BA_TEST_NET },
	{ .c = { .id = "rdmacm/bind_addr/address-in-use",
		 .doc = DOC_RETURN,
		 .basis = RC_BASIS_LINUX,
		 .note = "another id of the process is bound to the device's "
			 "address and the row's port: the kernel's "
			 "cma_check_port refuses the second, -1 EADDRINUSE",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_FAILS(EADDRINUSE) } },
	  .family = AF_INET,
	  .addr = BA_DEVICE,
	  .twice = true },
	{ .c = { .id = "rdmacm/bind_addr/already-bound",
		 .doc = DOC_RETURN,
		 .basis = RC_BASIS_LINUX,
		 .note = "the id is bound to the device's address and the "
			 "row's port already; bound again, to the same address "
			 "with port 0: the kernel's rdma_bind_addr takes only "
			 "an idle id (cma_comp_exch from RDMA_CM_IDLE), -1 "
			 "EINVAL",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_FAILS(EINVAL) } },
	  .family = AF_INET,
	  .addr = BA_DEVICE,
	  .rebind = true },
	{ .c = { .id = "rdmacm/bind_addr/unix-family",
		 .doc = DOC_RETURN,
		 .basis = RC_BASIS_LINUX,
		 .note = "an AF_UNIX address: the kernel's ucma_bind takes "
			 "only an address of a family rdma_cm knows (its size "
			 "by rdma_addr_size_kss), -1 EINVAL",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_FAILS(EINVAL) } },
	  .family = AF_UNIX,
	  .addr = BA_UNIX },
	{ .c = { .id = "rdmacm/bind_addr/ib-family-on-ethernet",
		 .doc = DOC_RETURN,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "an AF_IB address holding the port's GID 0 where the "
			 "port is Ethernet (RoCE) or iWARP: AF_IB names an "
			 "InfiniBand endpoint, which this device is not, -1",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_FAILS() } },
	  .family = AF_IB,
	  .addr = BA_IB },
};

static void set_port(struct sockaddr_storage *ss, uint16_t port)
{
	if (ss->ss_family == AF_INET)
		((struct sockaddr_in *)ss)->sin_port = htons(port);
	else
		((struct sockaddr_in6 *)ss)->sin6_port = htons(port);
}

/* An AF_IB address of the target port's GID 0 and the row's service ID;
 * UNSUPPORTED where the port is InfiniBand (there the address is real) */
static bool ib_addr(struct rc_ctx *ctx, struct sockaddr_ib *sib)
{
	const struct rc_target *t = ctx->target;
	char buf[64];
	uint8_t gid[16];

	if (t->link == RC_LINK_IB) {
		rc_obs_state(ctx->obs, RC_STATE_UNSUPPORTED,
			     "the port is InfiniBand: an AF_IB address is "
			     "its own");
		return false;
	}
	if (rc_sysfs_read(buf, sizeof(buf), RC_SYSFS_IB "/%s/ports/%d/gids/0",
			  t->ca, t->port) ||
	    rc_gid_parse(buf, gid))
		return cm_broken(ctx, "the port's GID 0");
	memset(sib, 0, sizeof(*sib));
	sib->sib_family = AF_IB;
	sib->sib_pkey = htons(0xffff);
	memcpy(&sib->sib_addr, gid, sizeof(gid));
	sib->sib_sid = htobe64(RDMA_IB_IP_PS_TCP | cm_port(ctx));
	sib->sib_sid_mask = htobe64(RDMA_IB_IP_PS_MASK | 0xffff);
	return true;
}

static bool row_addr(const struct ba_row *row, struct rc_ctx *ctx,
		     struct sockaddr_storage *ss)
{
	struct sockaddr_in *in = (struct sockaddr_in *)ss;

	memset(ss, 0, sizeof(*ss));
	switch (row->addr) {
	case BA_DEVICE:
		if (!cm_dev_addr(ctx, ctx->target->ca, ctx->target->port,
				 row->family, ss))
			return false;
		break;
	case BA_ANY:
		ss->ss_family = row->family;
		break;
	case BA_TEST_NET:
		in->sin_family = AF_INET;
		in->sin_addr.s_addr = htonl(0xcb00714d);
		break;
	case BA_UNIX:
		ss->ss_family = AF_UNIX;
		strcpy(((struct sockaddr_un *)ss)->sun_path, "rdmaconf");
		return true;
	case BA_IB:
		return ib_addr(ctx, (struct sockaddr_ib *)ss);
	}
	set_port(ss, row->port0 ? 0 : cm_port(ctx));
	return true;
}

static size_t ip_len(int family)
{
	return family == AF_INET ? 4 : 16;
}

static const void *ip_of(const struct sockaddr *a)
{
	return a->sa_family == AF_INET ?
		       (const void *)&((const struct sockaddr_in *)a)->sin_addr :
		       (const void *)&((const struct sockaddr_in6 *)a)
			       ->sin6_addr;
}

/* What the id reads back after a bind that returned 0. */
static void check_bound(const struct ba_row *row, struct rc_ctx *ctx,
			struct rdma_cm_id *id,
			const struct sockaddr_storage *want)
{
	const struct rc_ops *ops = ctx->ops;
	struct sockaddr *local = ops->rdma_get_local_addr(id);
	__be16 port = ops->rdma_get_src_port(id);
	char name[64];

	if (!local || local->sa_family != row->family) {
		rc_obs_violation(ctx->obs, "local_addr family %d, not %d",
				 local ? local->sa_family : -1, row->family);
		return;
	}
	/* the address, not the port: the row's slot or the kernel's pick */
	rc_obs_out(ctx->obs, ip_of(local), ip_len(row->family));
	if (memcmp(ip_of(local), ip_of((const struct sockaddr *)want),
		   ip_len(row->family)))
		rc_obs_violation(ctx->obs,
				 "local_addr is not the address bound");
	if (row->port0) {
		if (!port)
			rc_obs_violation(ctx->obs, "src_port 0 after port 0");
	} else if (port != cm_port_of((const struct sockaddr *)want)) {
		rc_obs_violation(ctx->obs, "src_port %u, not %u", ntohs(port),
				 cm_port(ctx));
	}
	if (port != cm_port_of(local))
		rc_obs_violation(ctx->obs,
				 "local_addr port %u, src_port %u differ",
				 ntohs(cm_port_of(local)), ntohs(port));
	if (row->addr != BA_DEVICE)
		return;
	if (!id->verbs) {
		rc_obs_violation(ctx->obs, "verbs NULL after the bind");
		return;
	}
	snprintf(name, sizeof(name), "%s", id->verbs->device->name);
	if (strcmp(name, ctx->target->ca))
		rc_obs_violation(ctx->obs, "verbs the device %s, not %s", name,
				 ctx->target->ca);
	if (row->port_num && id->port_num != ctx->target->port)
		rc_obs_violation(ctx->obs, "port_num %u, not %d", id->port_num,
				 ctx->target->port);
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct ba_row *row = r;
	const struct rc_ops *ops = ctx->ops;
	struct rdma_event_channel *ch = NULL;
	struct rdma_cm_id *id = NULL, *first = NULL;
	struct sockaddr_storage ss;
	int ret;

	if (!rc_need_call(ctx, ops->rdma_bind_addr, "rdma_bind_addr") ||
	    !row_addr(row, ctx, &ss))
		return;
	ch = ops->rdma_create_event_channel();
	if (!ch || ops->rdma_create_id(ch, &id, NULL, RDMA_PS_TCP)) {
		id = NULL;
		cm_broken(ctx, "a channel and an id");
		goto out;
	}
	if (row->twice) {
		if (ops->rdma_create_id(ch, &first, NULL, RDMA_PS_TCP)) {
			first = NULL;
			cm_broken(ctx, "the first id");
			goto out;
		}
		if (ops->rdma_bind_addr(first, (struct sockaddr *)&ss)) {
			cm_broken(ctx, "the first id's bind");
			goto out;
		}
	}
	if (row->rebind) {
		if (ops->rdma_bind_addr(id, (struct sockaddr *)&ss)) {
			cm_broken(ctx, "the first bind");
			goto out;
		}
		set_port(&ss, 0);
	}
	RC_OBSERVE(ctx, ret = ops->rdma_bind_addr(id, (struct sockaddr *)&ss));
	if (!ret)
		check_bound(row, ctx, id, &ss);
out:
	if (id)
		ops->rdma_destroy_id(id);
	if (first)
		ops->rdma_destroy_id(first);
	if (ch)
		ops->rdma_destroy_event_channel(ch);
}

RC_TABLE_GROUP(group, "rdma_bind_addr", RC_CONV_M1_ERRNO, "rdmacm", rows, run);
