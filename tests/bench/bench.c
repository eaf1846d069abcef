// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Operations per second of the reference and of the system library, on the
 * same inputs, measured side by side: each call runs in alternating slices
 * (system, reference, system, ...) so that the machine's noise falls on
 * both.  Prints one JSON object per call on stdout.
 *
 *   bench host     umad_set_grh, umad_set_addr, ibv_init_ah_from_wc (no GRH)
 *   bench device   ibv_init_ah_from_wc (IPv6 GRH), ibv_create_ah +
 *                  ibv_destroy_ah, ibv_attach_mcast + ibv_detach_mcast,
 *                  MAD round trips (umad_send + umad_recv, answered by a peer)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

#include "../../harness/rdmaconf.h"
#include "../../harness/device.h"
#include "../../harness/need.h"
#include "../../cases/umad/umad_mad.h"
#include "../../cases/verbs/verbs_res.h"

#define SLICES 6

/* one operation of @impl; false: it failed (the bench stops) */
typedef bool (*op_fn)(const struct rc_ops *ops, void *state);

static void measure(const char *name, op_fn op, void *st[RC_NIMPLS],
		    double slice_ms, int batch)
{
	double ms[RC_NIMPLS] = {}, t0, rate[RC_NIMPLS];
	unsigned long n[RC_NIMPLS] = {};
	int s, i;

	for (s = 0; s < SLICES; s++)
		for (i = 0; i < RC_NIMPLS; i++) {
			const struct rc_ops *ops = rc_impl(i);

			t0 = rc_now_ms();
			do {
				/* a batch between clock reads: the clock is
				 * not what is measured */
				for (int k = 0; k < batch; k++) {
					if (!op(ops, st[i])) {
						printf("{\"call\": \"%s\", \"error\": "
						       "\"%s failed\"}\n",
						       name, ops->name);
						return;
					}
				}
				n[i] += batch;
			} while (rc_now_ms() - t0 < slice_ms);
			ms[i] += rc_now_ms() - t0;
		}
	for (i = 0; i < RC_NIMPLS; i++)
		rate[i] = n[i] / (ms[i] / 1e3);
	printf("{\"call\": \"%s\", \"system_ops_s\": %.0f, \"reference_ops_s\": "
	       "%.0f, \"ratio\": %.3f}\n",
	       name, rate[0], rate[1], rate[1] / rate[0]);
	fflush(stdout);
}

static bool op_set_grh(const struct rc_ops *ops, void *st)
{
	static uint8_t buf[REF_UMAD_HDR_SIZE + 256];
	ib_mad_addr_t a = { .hop_limit = 64, .flow_label = 0x12345 };

	return ops->umad_set_grh(buf, &a) == 0;
}

static bool op_set_addr(const struct rc_ops *ops, void *st)
{
	static uint8_t buf[REF_UMAD_HDR_SIZE + 256];

	return ops->umad_set_addr(buf, 0x1234, 1, 0, 0x80010000) == 0;
}

struct ahwc {
	struct ibv_context *ctx;
	int port;
	struct ibv_wc wc;
	uint8_t grh[40];
};

static bool op_init_ah(const struct rc_ops *ops, void *st)
{
	struct ahwc *s = st;
	struct ibv_ah_attr a;

	return !ops->ibv_init_ah_from_wc(s->ctx, s->port, &s->wc,
					 (struct ibv_grh *)s->grh, &a);
}

static bool op_ah(const struct rc_ops *ops, void *st)
{
	struct vres *r = st;
	struct ibv_ah_attr a = {
		.is_global = 1,
		.port_num = r->port,
		.grh = { .dgid = r->g6, .sgid_index = r->gid6, .hop_limit = 64 }
	};
	struct ibv_ah *ah = ops->ibv_create_ah(r->pd, &a);

	return ah && !ops->ibv_destroy_ah(ah);
}

static bool op_mcast(const struct rc_ops *ops, void *st)
{
	static const union ibv_gid mgid = { .raw = { 0xff, 0x0e, [15] = 7 } };
	struct vres *r = st;

	return !ops->ibv_attach_mcast(r->qp, &mgid, 0xc001) &&
	       !ops->ibv_detach_mcast(r->qp, &mgid, 0xc001);
}

struct rt {
	struct rc_ctx *ctx;
	int portid, agent;
	struct peer server;
};

/* a Get through the implementation, answered by the peer, received back
 * through the implementation */
static bool op_roundtrip(const struct rc_ops *ops, void *st)
{
	struct rt *s = st;
	uint8_t req[MAD_BUF_LEN], in[MAD_BUF_LEN];
	int len = MAD_SIZE;

	mad_build(s->ctx, req, CLASS_V2, METHOD_GET, 1);
	if (!mad_address_self(s->ctx, req) ||
	    ops->umad_send(s->portid, s->agent, req, MAD_SIZE, 1000, 0) ||
	    mad_wait(s->ctx, s->server.fd, in, sizeof(in), 2000) <= 0 ||
	    peer_reply(&s->server, in))
		return false;
	return ops->umad_recv(s->portid, in, &len, 2000) == s->agent;
}

static void host(double slice)
{
	struct ibv_device dev = { .name = "bench-nodev" };
	struct ibv_context ctx = { .device = &dev };
	struct ahwc a = { .ctx = &ctx,
			  .port = 1,
			  .wc = { .slid = 7, .sl = 1 } };
	void *st[RC_NIMPLS] = { &a, &a };

	measure("umad_set_grh", op_set_grh, st, slice, 64);
	measure("umad_set_addr", op_set_addr, st, slice, 64);
	measure("ibv_init_ah_from_wc (no GRH)", op_init_ah, st, slice, 64);
}

static void device(double slice)
{
	static struct rc_obs obs;
	struct rc_device d, peer;
	struct rc_target t = { .slowness = 1 };
	struct rc_ctx ctx = { .target = &t, .obs = &obs };
	struct vres r[RC_NIMPLS];
	struct ahwc a[RC_NIMPLS];
	struct rt m[RC_NIMPLS];
	void *st[RC_NIMPLS];
	static const struct rc_case bench_case = {
		.needs = RC_NEED_DEVICE | RC_NEED_UD | RC_NEED_UMAD,
	};
	char why[RC_REASON_MAX];
	bool skip;
	int i;

	if (rc_device_find(NULL, &d)) {
		printf("{\"error\": \"no RDMA device with an active port\"}\n");
		return;
	}
	t.ca = d.name;
	t.port = d.port;
	t.link_layer = d.link_layer;
	t.link = rc_device_link(&d);
	t.umad = rc_device_umad(&d);
	if (!rc_device_find_other(d.name, &peer))
		t.peer = peer.name;
	/* what the measured calls' set-up needs, as a row declares it */
	ctx.needs = bench_case.needs;
	if (!rc_needs_unmet(&bench_case, &t, &skip, why, sizeof(why))) {
		printf("{\"error\": \"%s\"}\n", why);
		return;
	}
	for (i = 0; i < RC_NIMPLS; i++) {
		ctx.ops = rc_impl(i);
		if (!vres_open(&ctx, &r[i], IBV_QPT_UD)) {
			printf("{\"error\": \"%s\"}\n", obs.reason);
			return;
		}
		st[i] = &r[i];
	}
	measure("ibv_create_ah + ibv_destroy_ah", op_ah, st, slice, 1);
	measure("ibv_attach_mcast + ibv_detach_mcast", op_mcast, st, slice, 1);
	for (i = 0; i < RC_NIMPLS; i++) {
		/* a received-like IPv6 GRH addressed to the port's own GID */
		uint32_t vtf = htobe32(6u << 28 | 0x12345);

		memset(&a[i], 0, sizeof(a[i]));
		a[i].ctx = r[i].ctx;
		a[i].port = r[i].port;
		a[i].wc.wc_flags = IBV_WC_GRH;
		memcpy(a[i].grh, &vtf, 4);
		a[i].grh[6] = 17;
		a[i].grh[7] = 64;
		memcpy(a[i].grh + 8, r[i].g6.raw, 16);
		memcpy(a[i].grh + 24, r[i].g6.raw, 16);
		st[i] = &a[i];
	}
	measure("ibv_init_ah_from_wc (IPv6 GRH)", op_init_ah, st, slice, 1);
	for (i = 0; i < RC_NIMPLS; i++) {
		ctx.ops = rc_impl(i);
		m[i].ctx = &ctx;
		/* one server for both: a port has one server per method */
		if (!impl_open(&ctx, &m[i].portid) ||
		    !impl_agent(&ctx, m[i].portid, CLASS_V2, 0, &m[i].agent) ||
		    (i == 0 && !peer_open(&ctx, &m[0].server, CLASS_V2,
					  METHOD_BIT(METHOD_GET), 0))) {
			printf("{\"error\": \"%s\"}\n", obs.reason);
			return;
		}
		m[i].server = m[0].server;
		st[i] = &m[i];
	}
	measure("MAD round trip (umad_send + umad_recv)", op_roundtrip, st,
		slice, 1);
}

/* the floor of process isolation on this machine: fork, _exit, wait */
static void bare_fork(void)
{
	double t0 = rc_now_ms();
	int i, st;

	for (i = 0; i < 200; i++) {
		pid_t p = fork();

		if (!p)
			_exit(0);
		waitpid(p, &st, 0);
	}
	printf("%.3f\n", (rc_now_ms() - t0) / 200);
}

int main(int argc, char **argv)
{
	double slice = argc > 2 ? atof(argv[2]) : 200;

	if (argc == 2 && !strcmp(argv[1], "fork")) {
		bare_fork();
		return 0;
	}
	if (argc < 2 ||
	    (strcmp(argv[1], "host") && strcmp(argv[1], "device"))) {
		fprintf(stderr, "usage: bench host|device [SLICE_MS] | fork\n");
		return 2;
	}
	if (!strcmp(argv[1], "host"))
		host(slice);
	else
		device(slice);
	return 0;
}
