// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_query_port_speed(3), documented since rdma-core 62 (IBVERBS_1.16):
 * it "Queries the device of the context at the given port number for the
 * effective bandwidth of the port in 100Mb/s granularity."  "Returns 0 on
 * success, or the value of errno on failure".  44.0 has none: ABSENT
 * there, as rdma-core.expect records.
 *
 * - the target port, ACTIVE: 0 and a bandwidth above 0 (documented)
 * - that bandwidth is the port's active_width lanes times the rate its
 *   active_speed names, as ibv_query_port gives them (interpretation)
 * - a second call answers the same (state across calls; documented)
 * - port 0, one beyond the last, 256: an errno value (interpretation:
 *   ports are numbered from 1 to phys_port_cnt)
 * - the command file gone: an errno value (interpretation)
 */
#include <errno.h>
#include <string.h>

#include "verbs_ctl.h"

#define DOC_SPEED                                                          \
	"ibv_query_port_speed() Queries the device of the context at the " \
	"given port number for the effective bandwidth of the port in "    \
	"100Mb/s granularity."
#define DOC_RET                                                               \
	"ibv_query_port_speed() Returns 0 on success, or the value of errno " \
	"on failure (which indicates the failure reason)"

static vc_check active_port, as_link, twice, bad_port, severed;

enum { PORT_0, PORT_BEYOND, PORT_256 };

static const struct vc_row rows[] = {
	{ .c = { .id = "verbs/query_port_speed/active-port",
		 .doc = DOC_SPEED,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the target port, ACTIVE: 0, and a bandwidth above 0 "
			 "(a port that carries traffic has some; our reading: "
			 "the page names no provider that may not answer, and "
			 "the kernel gives every port's width and speed)",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = active_port,
	  .rung = VL_CONTEXT },
	{ .c = { .id = "verbs/query_port_speed/lanes-times-lane-rate",
		 .doc = DOC_SPEED,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the effective bandwidth of a link is its lanes "
			 "(active_width) times the rate its speed is named by "
			 "(active_speed: SDR 2.5, DDR 5, QDR and FDR10 10, FDR "
			 "14, EDR 25, HDR 50, NDR 100 Gb/s), as "
			 "ibv_query_port gives them",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = as_link,
	  .rung = VL_CONTEXT },
	{ .c = { .id = "verbs/query_port_speed/second-call-same",
		 .doc = DOC_SPEED,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "two calls on a link that does not change answer the "
			 "same bandwidth (our reading, as active-port's)",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = twice,
	  .rung = VL_CONTEXT },
	{ .c = { .id = "verbs/query_port_speed/port-0",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "ports are numbered from 1: port 0 names none, so "
			 "an errno value",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = bad_port,
	  .rung = VL_CONTEXT,
	  .arg = PORT_0 },
	{ .c = { .id = "verbs/query_port_speed/port-beyond-device",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "one port beyond phys_port_cnt (sysfs) names none, so "
			 "an errno value",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = bad_port,
	  .rung = VL_CONTEXT,
	  .arg = PORT_BEYOND },
	{ .c = { .id = "verbs/query_port_speed/port-256",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "port_num is 32 bits here: 256, which an 8-bit port "
			 "number would read as 0, names no port either",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = bad_port,
	  .rung = VL_CONTEXT,
	  .arg = PORT_256 },
	{ .c = { .id = "verbs/query_port_speed/command-file-gone",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the context's command file replaced by an O_PATH "
			 "descriptor: an errno value",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = severed,
	  .rung = VL_CONTEXT },
};

/* lanes of an active_width (IBA: 1X, 4X, 8X, 12X, 2X), 0: unknown */
static unsigned int lanes(uint8_t width)
{
	switch (width) {
	case 1:
		return 1;
	case 2:
		return 4;
	case 4:
		return 8;
	case 8:
		return 12;
	case 16:
		return 2;
	}
	return 0;
}

/* the rate an active_speed names, in 100 Mb/s; 0: unknown */
static unsigned int lane_rate(uint8_t speed)
{
	switch (speed) {
	case 1:
		return 25;
	case 2:
		return 50;
	case 4:
	case 8:
		return 100;
	case 16:
		return 140;
	case 32:
		return 250;
	case 64:
		return 500;
	case 128:
		return 1000;
	}
	return 0;
}

static int speed_of(struct rc_ctx *ctx, struct vl *l, int port, uint64_t *s)
{
	int ret;

	*s = 0;
	RC_OBSERVE(ctx, ret = ctx->ops->ibv_query_port_speed(l->ctx, port, s));
	return ret;
}

static void active_port(const struct vc_row *row, struct rc_ctx *ctx,
			struct vl *l)
{
	uint64_t s;

	if (!speed_of(ctx, l, l->port, &s) && !s)
		rc_obs_violation(ctx->obs, "port_speed: 0 for an ACTIVE port");
}

static void as_link(const struct vc_row *row, struct rc_ctx *ctx, struct vl *l)
{
	struct ibv_port_attr a;
	uint64_t s, want;

	if (speed_of(ctx, l, l->port, &s))
		return;
	memset(&a, 0, sizeof(a));
	if ((ctx->ops->ibv_query_port)(l->ctx, l->port, &a)) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_query_port (set-up): %m");
		return;
	}
	want = (uint64_t)lanes(a.active_width) * lane_rate(a.active_speed);
	if (!want)
		rc_obs_state(ctx->obs, RC_STATE_UNSUPPORTED,
			     "active_width %u, active_speed %u: no rate the "
			     "IBA names",
			     a.active_width, a.active_speed);
	else if (s != want)
		rc_obs_violation(ctx->obs,
				 "port_speed: %llu, where active_width %u and "
				 "active_speed %u make %llu",
				 (unsigned long long)s, a.active_width,
				 a.active_speed, (unsigned long long)want);
}

static void twice(const struct vc_row *row, struct rc_ctx *ctx, struct vl *l)
{
	uint64_t s, again = 0;
	int err;

	if (speed_of(ctx, l, l->port, &s))
		return;
	err = ctx->ops->ibv_query_port_speed(l->ctx, l->port, &again);
	if (err)
		rc_obs_violation(ctx->obs, "second call: %s",
				 rc_errno_name(err));
	else if (again != s)
		rc_obs_violation(ctx->obs,
				 "port_speed: %llu, then %llu on the same link",
				 (unsigned long long)s,
				 (unsigned long long)again);
}

static void bad_port(const struct vc_row *row, struct rc_ctx *ctx, struct vl *l)
{
	uint64_t s;

	speed_of(ctx, l,
		 row->arg == PORT_0   ? 0 :
		 row->arg == PORT_256 ? 256 :
					vc_sysfs_ports(ctx) + 1,
		 &s);
}

static void severed(const struct vc_row *row, struct rc_ctx *ctx, struct vl *l)
{
	uint64_t s;

	if (vc_sever(ctx, l))
		speed_of(ctx, l, l->port, &s);
}

VC_GROUP(speed, ibv_query_port_speed, RC_CONV_ERRNO_RET, rows);
