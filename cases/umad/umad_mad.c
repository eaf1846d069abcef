// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <endian.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "umad_mad.h"
#include "../../harness/device.h"

/* not an assigned OUI: no other agent on the port can claim it */

#define HOP_LIMIT 64

void method_mask(long mask[16 / sizeof(long)], uint32_t methods)
{
	unsigned int m;

	memset(mask, 0, 16);
	for (m = 0; m < 32; m++)
		if (methods & METHOD_BIT(m))
			mask[m / (8 * sizeof(long))] |=
				1ul << (m % (8 * sizeof(long)));
}

/* the umadN of the target port, opened as umad_open_port(3) would */
static int open_umad(struct rc_ctx *ctx)
{
	char buf[64], path[128];
	int n, fd;

	for (n = 0; n < 64; n++) {
		if (rc_sysfs_read(buf, sizeof(buf),
				  RC_SYSFS_MAD "/umad%d/ibdev", n) ||
		    strcmp(buf, ctx->target->ca))
			continue;
		if (rc_sysfs_read(buf, sizeof(buf), RC_SYSFS_MAD "/umad%d/port",
				  n) ||
		    atoi(buf) != ctx->target->port)
			continue;
		snprintf(path, sizeof(path), "/dev/infiniband/umad%d", n);
		fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
		if (fd >= 0)
			ioctl(fd, IB_USER_MAD_ENABLE_PKEY, NULL);
		return fd < 0 ? -errno : fd;
	}
	return -ENODEV;
}

bool peer_open(struct rc_ctx *ctx, struct peer *p, int mgmt_class,
	       uint32_t methods, uint8_t rmpp_version)
{
	struct ref_umad_reg_req req = {
		.qpn = 1,
		.mgmt_class = mgmt_class,
		.mgmt_class_version = 1,
		.rmpp_version = rmpp_version,
	};
	unsigned int m;

	p->fd = open_umad(ctx);
	p->agent = -1;
	p->thread = false;
	if (p->fd < 0) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "peer: umad of %s "
			     "port %d: %s",
			     ctx->target->ca, ctx->target->port,
			     strerror(-p->fd));
		return false;
	}
	if (mgmt_class >= 0x30 && mgmt_class <= 0x4f)
		memcpy(req.oui, mad_oui(ctx), sizeof(req.oui));
	for (m = 0; m < 32; m++)
		if (methods & METHOD_BIT(m))
			req.method_mask[m / 32] |= 1u << (m % 32);
	if (ioctl(p->fd, REF_REGISTER_AGENT, &req)) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "peer: registering "
			     "class 0x%02x: %m",
			     mgmt_class);
		close(p->fd);
		p->fd = -1;
		return false;
	}
	p->agent = req.id;
	return true;
}

void peer_close(struct peer *p)
{
	peer_join(p);
	if (p->fd >= 0)
		close(p->fd);
	p->fd = -1;
}

int peer_send(struct peer *p, uint8_t *umad, size_t len, int timeout_ms,
	      int retries)
{
	uint32_t v[3] = { p->agent, 0, timeout_ms };
	ssize_t n;

	memcpy(umad + REF_UMAD_OFF_AGENT_ID, &v[0], 4);
	memcpy(umad + REF_UMAD_OFF_STATUS, &v[1], 4);
	memcpy(umad + REF_UMAD_OFF_TIMEOUT_MS, &v[2], 4);
	memcpy(umad + REF_UMAD_OFF_RETRIES, &retries, 4);
	n = write(p->fd, umad, len ? len : MAD_BUF_LEN);
	return n < 0 ? -errno : 0;
}

static void *delayed_send(void *arg)
{
	struct peer *p = arg;

	/* the delay is the point of the row: a MAD that arrives later */
	poll(NULL, 0, p->delay_ms);
	peer_send(p, p->req, 0, 0, 0);
	return NULL;
}

bool peer_get(struct rc_ctx *ctx, struct peer *p, int mgmt_class, int delay_ms)
{
	mad_build(ctx, p->req, mgmt_class, METHOD_GET, 0x6e7);
	if (!mad_address_self(ctx, p->req))
		return false;
	if (delay_ms <= 0)
		return !peer_send(p, p->req, 0, 0, 0);
	p->delay_ms = delay_ms;
	p->thread = !pthread_create(&p->tid, NULL, delayed_send, p);
	return p->thread;
}

void peer_join(struct peer *p)
{
	if (p->thread)
		pthread_join(p->tid, NULL);
	p->thread = false;
}

bool peer_get_for(struct rc_ctx *ctx, struct peer *p, int portid,
		  int mgmt_class, int delay_ms)
{
	if (peer_open(ctx, p, CLASS_V2, 0, 0) &&
	    peer_get(ctx, p, mgmt_class, delay_ms) &&
	    (delay_ms ||
	     mad_ready(ctx, ctx->ops->umad_get_fd(portid), ARRIVE_MS)))
		return true;
	if (ctx->obs->state != RC_STATE_BROKEN)
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "the peer's Get did "
			     "not arrive");
	return false;
}

int peer_reply(struct peer *p, const uint8_t *req)
{
	uint8_t rsp[MAD_BUF_LEN];

	/* the received address is where the answer goes (user_mad.rst) */
	memcpy(rsp, req, sizeof(rsp));
	rsp[REF_UMAD_HDR_SIZE + MAD_OFF_METHOD] = METHOD_GET_RESP;
	return peer_send(p, rsp, 0, 0, 0);
}

int mad_wait(struct rc_ctx *ctx, int fd, uint8_t *buf, size_t len, int ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	double deadline = rc_now_ms() + rc_scaled_ms(ctx, ms);
	ssize_t n;
	int left;

	for (;;) {
		left = deadline - rc_now_ms();
		if (left < 0)
			return -ETIMEDOUT;
		n = poll(&pfd, 1, left);
		if (n < 0 && errno != EINTR)
			return -errno;
		if (n <= 0)
			continue;
		n = read(fd, buf, len);
		if (n >= 0)
			return n;
		if (errno != EAGAIN && errno != EINTR)
			return -errno;
	}
}

bool mad_ready(struct rc_ctx *ctx, int fd, int ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	double deadline = rc_now_ms() + rc_scaled_ms(ctx, ms);
	int left;

	while ((left = deadline - rc_now_ms()) >= 0)
		if (poll(&pfd, 1, left) > 0)
			return pfd.revents & POLLIN;
	return false;
}

uint8_t *mad_oui(const struct rc_ctx *ctx)
{
	/* a row is a process of its own */
	static uint8_t oui[3] = { 0x53, 0x43 };

	oui[2] = ctx->oui;
	return oui;
}

/* byte @i of a MAD's payload: 7 is odd, so the 216 bytes of a MAD's
 * payload are all distinct, and a byte moved or lost shows */
static uint8_t payload_byte(int i)
{
	return (uint8_t)(i * 7 + 3);
}

void mad_build(const struct rc_ctx *ctx, uint8_t *umad, int mgmt_class,
	       int method, uint32_t tid)
{
	uint8_t *mad = umad + REF_UMAD_HDR_SIZE;
	uint64_t tid_be = htobe64(tid);
	int i;

	memset(umad, 0, MAD_BUF_LEN);
	mad[0] = 1; /* base version */
	mad[MAD_OFF_CLASS] = mgmt_class;
	mad[2] = 1; /* class version */
	mad[MAD_OFF_METHOD] = method;
	memcpy(mad + MAD_OFF_TID, &tid_be, 8);
	mad[MAD_OFF_ATTR_ID + 1] = 0x10; /* any attribute */
	if (mgmt_class >= 0x30 && mgmt_class <= 0x4f)
		memcpy(mad + MAD_OFF_OUI, mad_oui(ctx), 3);
	/* a recognisable payload, to see that it arrives unchanged */
	for (i = MAD_OFF_V2_DATA; i < MAD_SIZE; i++)
		mad[i] = payload_byte(i);
}

int mad_payload_differs(const uint8_t *umad)
{
	const uint8_t *mad = umad + REF_UMAD_HDR_SIZE;
	int i;

	for (i = MAD_OFF_V2_DATA; i < MAD_SIZE; i++)
		if (mad[i] != payload_byte(i))
			return i;
	return -1;
}

int mad_self_gid(struct rc_ctx *ctx, uint8_t gid[16])
{
	return rc_port_gid(ctx->target->ca, ctx->target->port, RC_GID_IPV6,
			   gid);
}

bool mad_address_self(struct rc_ctx *ctx, uint8_t *umad)
{
	uint32_t qpn = htobe32(1), qkey = htobe32(QP1_QKEY);
	char buf[32];
	uint16_t lid;
	uint8_t gid[16];
	int idx;

	memcpy(umad + REF_UMAD_OFF_QPN, &qpn, 4);
	memcpy(umad + REF_UMAD_OFF_QKEY, &qkey, 4);
	if (!strcmp(ctx->target->link_layer, "InfiniBand")) {
		if (dev_sysfs(ctx, ctx->target->port, "lid", buf,
			      sizeof(buf))) {
			rc_obs_state(ctx->obs, RC_STATE_BROKEN, "no LID");
			return false;
		}
		lid = htobe16(strtoul(buf, NULL, 0));
		memcpy(umad + REF_UMAD_OFF_LID, &lid, 2);
		return true;
	}
	idx = mad_self_gid(ctx, gid);
	if (idx < 0) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "%s port %d has no "
			     "IPv6 GID: loopback MADs need one (with an "
			     "IPv4-mapped GID replies are lost)",
			     ctx->target->ca, ctx->target->port);
		return false;
	}
	umad[REF_UMAD_OFF_GRH_PRESENT] = 1;
	umad[REF_UMAD_OFF_GID_INDEX] = idx;
	umad[REF_UMAD_OFF_HOP_LIMIT] = HOP_LIMIT;
	memcpy(umad + REF_UMAD_OFF_GID, gid, 16);
	return true;
}

bool impl_open(struct rc_ctx *ctx, int *portid)
{
	*portid = ctx->ops->umad_open_port(ctx->target->ca, ctx->target->port);
	if (*portid >= 0)
		return true;
	rc_obs_state(ctx->obs, RC_STATE_BROKEN, "umad_open_port(%s, %d): %d",
		     ctx->target->ca, ctx->target->port, *portid);
	return false;
}

bool impl_agent(struct rc_ctx *ctx, int portid, int mgmt_class,
		uint32_t methods, int *agent)
{
	const struct rc_ops *ops = ctx->ops;
	long mask[16 / sizeof(long)];

	method_mask(mask, methods);
	if (mgmt_class >= 0x30 && mgmt_class <= 0x4f) {
		if (!rc_need_call(ctx, ops->umad_register_oui,
				  "umad_register_oui"))
			return false;
		*agent = ops->umad_register_oui(portid, mgmt_class, 0,
						mad_oui(ctx),
						methods ? mask : NULL);
	} else {
		if (!rc_need_call(ctx, ops->umad_register, "umad_register"))
			return false;
		*agent = ops->umad_register(portid, mgmt_class, 1, 0,
					    methods ? mask : NULL);
	}
	if (*agent >= 0)
		return true;
	rc_obs_state(ctx->obs, RC_STATE_BROKEN, "registering class 0x%02x: %d",
		     mgmt_class, *agent);
	return false;
}

bool expect_get_served(struct rc_ctx *ctx, int portid, int mgmt_class,
		       uint32_t tid, const char *violation)
{
	uint8_t req[MAD_BUF_LEN], in[MAD_BUF_LEN];
	struct peer client;

	if (!peer_open(ctx, &client, mgmt_class, 0, 0))
		return false;
	mad_build(ctx, req, mgmt_class, METHOD_GET, tid);
	if (mad_address_self(ctx, req) &&
	    (peer_send(&client, req, 0, 0, 0) ||
	     mad_wait(ctx, ctx->ops->umad_get_fd(portid), in, sizeof(in),
		      ARRIVE_MS) <= 0))
		rc_obs_violation(ctx->obs, "%s", violation);
	peer_close(&client);
	return true;
}

static const struct rc_field summary_fields[] = {
	{ "umad.status", 0, 4 },
	{ "mad.base_version", 4, 1 },
	{ "mad.mgmt_class", 5, 1 },
	{ "mad.class_version", 6, 1 },
	{ "mad.method", 7, 1 },
	{ "mad.status", 8, 2 },
	{ "mad.class_specific", 10, 2 },
	{ "mad.tid (kernel half zeroed)", 12, 8 },
	{ "mad.attr_id", 20, 2 },
	{ "mad.resv", 22, 2 },
	{ "mad.attr_mod", 24, 4 },
};

const struct rc_layout mad_summary_layout = {
	.name = "received MAD (summary)",
	.fields = summary_fields,
	.nfields = ARRAY_SIZE(summary_fields),
};

bool mad_class_registers(const struct rc_ctx *ctx, int mgmt_class)
{
	if (mgmt_class == MAD_CLASS_SMI || mgmt_class == MAD_CLASS_SMI_DR)
		return !strcmp(ctx->target->link_layer, "InfiniBand");
	return mgmt_class <= VENDOR_RANGE2_LAST;
}

void mad_check_class_map(struct rc_ctx *ctx, const char map[256], char ok,
			 char refused)
{
	int c, wrong = 0, first = 0;

	for (c = 255; c >= 0; c--)
		if (map[c] != '-' &&
		    map[c] != (mad_class_registers(ctx, c) ? ok : refused)) {
			wrong++;
			first = c;
		}
	if (wrong)
		rc_obs_violation(ctx->obs,
				 "%d classes not as Linux's rules say, the "
				 "first 0x%02x: %c",
				 wrong, first, map[first]);
}

void mad_errno_is_code(struct rc_ctx *ctx)
{
	struct rc_obs *o = ctx->obs;

	if (o->state == RC_STATE_RAN && o->ret < 0 && o->err != -o->ret)
		rc_obs_violation(o, "errno %d (%s) after %lld", o->err,
				 rc_errno_name(o->err), o->ret);
}

void mad_summary(struct rc_ctx *ctx, const uint8_t *umad)
{
	uint8_t s[28];

	memcpy(s, umad + REF_UMAD_OFF_STATUS, 4);
	memcpy(s + 4, umad + REF_UMAD_HDR_SIZE, 24);
	/* the kernel puts its agent's id in the high half of a request's
	 * TID; it differs from run to run */
	memset(s + 4 + MAD_OFF_TID, 0, 4);
	rc_obs_out(ctx->obs, s, sizeof(s));
}
