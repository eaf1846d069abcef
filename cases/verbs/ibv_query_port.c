// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_query_port(3): "returns the attributes of port port_num for device
 * context context through the pointer port_attr."  "possible values for
 * the link layer field are IBV_LINK_LAYER_INFINIBAND,
 * IBV_LINK_LAYER_ETHERNET, or IBV_LINK_LAYER_UNSPECIFIED."  "returns 0 on
 * success, or the value of errno on failure".
 *
 * - the target port: state, phys_state, lid, sm_lid, lmc, port_cap_flags,
 *   gid_tbl_len, pkey_tbl_len, link_layer, and active_width and
 *   active_speed (in its rate) as sysfs has them; the whole
 *   struct compared across the implementations (documented)
 * - max_mtu and active_mtu are MTUs of enum ibv_mtu, the active one no
 *   larger, and max_msg_sz holds a message of one (interpretation)
 * - every port of the device answers, the last one an exact fit
 *   (documented)
 * - port 0, one beyond the last port, 255: an errno value
 *   (interpretation: ports are numbered from 1 to phys_port_cnt; there is
 *   nothing to return)
 * - the command file gone: an errno value (interpretation)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verbs_ctl.h"
#include "../../harness/device.h"

#define DOC_PORT                                                    \
	"ibv_query_port() returns the attributes of port port_num " \
	"for device context context through the pointer port_attr."
#define DOC_LL                                                    \
	"possible values for the link layer field are "           \
	"IBV_LINK_LAYER_INFINIBAND, IBV_LINK_LAYER_ETHERNET, or " \
	"IBV_LINK_LAYER_UNSPECIFIED."
#define DOC_MTU                                                  \
	"enum ibv_mtu max_mtu; /* Max MTU supported by port */ " \
	"enum ibv_mtu active_mtu; /* Actual MTU */"
#define DOC_RET                                                   \
	"ibv_query_port() returns 0 on success, or the value of " \
	"errno on failure (which indicates the failure reason)."

static vc_check port_as_sysfs, port_mtus, every_port, bad_port, port_severed;

static const struct rc_field port_fields[] = {
	{ "state", offsetof(struct ibv_port_attr, state), 4 },
	{ "max_mtu", offsetof(struct ibv_port_attr, max_mtu), 4 },
	{ "active_mtu", offsetof(struct ibv_port_attr, active_mtu), 4 },
	{ "gid_tbl_len", offsetof(struct ibv_port_attr, gid_tbl_len), 4 },
	{ "port_cap_flags", offsetof(struct ibv_port_attr, port_cap_flags), 4 },
	{ "max_msg_sz", offsetof(struct ibv_port_attr, max_msg_sz), 4 },
	{ "bad_pkey_cntr", offsetof(struct ibv_port_attr, bad_pkey_cntr), 4 },
	{ "qkey_viol_cntr", offsetof(struct ibv_port_attr, qkey_viol_cntr), 4 },
	{ "pkey_tbl_len", offsetof(struct ibv_port_attr, pkey_tbl_len), 2 },
	{ "lid", offsetof(struct ibv_port_attr, lid), 2 },
	{ "sm_lid", offsetof(struct ibv_port_attr, sm_lid), 2 },
	{ "lmc", offsetof(struct ibv_port_attr, lmc), 1 },
	{ "max_vl_num", offsetof(struct ibv_port_attr, max_vl_num), 1 },
	{ "sm_sl", offsetof(struct ibv_port_attr, sm_sl), 1 },
	{ "subnet_timeout", offsetof(struct ibv_port_attr, subnet_timeout), 1 },
	{ "init_type_reply", offsetof(struct ibv_port_attr, init_type_reply),
	  1 },
	{ "active_width", offsetof(struct ibv_port_attr, active_width), 1 },
	{ "active_speed", offsetof(struct ibv_port_attr, active_speed), 1 },
	{ "phys_state", offsetof(struct ibv_port_attr, phys_state), 1 },
	{ "link_layer", offsetof(struct ibv_port_attr, link_layer), 1 },
	{ "flags", offsetof(struct ibv_port_attr, flags), 1 },
	{ "port_cap_flags2", offsetof(struct ibv_port_attr, port_cap_flags2),
	  2 },
};

static const struct rc_layout port_layout = {
	"ibv_port_attr",
	port_fields,
	ARRAY_SIZE(port_fields),
};

/* arg of bad_port: which port */
enum { PORT_0, PORT_PAST_LAST, PORT_255 };

static const struct vc_row rows[] = {
	{ .c = { .id = "verbs/query_port/target-port-as-sysfs",
		 .doc = DOC_PORT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "state, phys_state, lid, sm_lid, lmc, port_cap_flags, "
			 "gid_tbl_len, pkey_tbl_len, the width and speed of "
			 "its rate as sysfs has them; the "
			 "whole struct the same on both implementations",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0), .layout = &port_layout } },
	  .check = port_as_sysfs,
	  .rung = VL_CONTEXT },
	{ .c = { .id = "verbs/query_port/link-layer",
		 .doc = DOC_LL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the target port's link_layer is the one sysfs names",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = port_as_sysfs,
	  .rung = VL_CONTEXT,
	  .arg = 1 },
	{ .c = { .id = "verbs/query_port/mtus-and-message-size",
		 .doc = DOC_MTU,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "max_mtu and active_mtu are values of enum ibv_mtu, "
			 "the active one no larger; max_msg_sz holds a message "
			 "of one active MTU",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = port_mtus,
	  .rung = VL_CONTEXT },
	{ .c = { .id = "verbs/query_port/every-port",
		 .doc = DOC_PORT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "ports 1 to phys_port_cnt (sysfs's), the last an "
			 "exact fit: each answers its own state",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = every_port,
	  .rung = VL_CONTEXT },
	{ .c = { .id = "verbs/query_port/port-0",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "ports are numbered from 1: no port to answer",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = bad_port,
	  .rung = VL_CONTEXT,
	  .arg = PORT_0 },
	{ .c = { .id = "verbs/query_port/one-past-last-port",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "phys_port_cnt + 1: no port to answer",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = bad_port,
	  .rung = VL_CONTEXT,
	  .arg = PORT_PAST_LAST },
	{ .c = { .id = "verbs/query_port/port-255",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the largest port_num: no port to answer",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = bad_port,
	  .rung = VL_CONTEXT,
	  .arg = PORT_255 },
	{ .c = { .id = "verbs/query_port/command-file-gone",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the context's command file replaced by an O_PATH "
			 "descriptor: the port cannot be asked",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = port_severed,
	  .rung = VL_CONTEXT },
};

static int query(struct rc_ctx *ctx, struct vl *l, int port,
		 struct ibv_port_attr *a)
{
	int ret;

	memset(a, 0xa5, sizeof(*a));
	RC_OBSERVE(ctx, ret = (ctx->ops->ibv_query_port)(l->ctx, port, a));
	return ret;
}

/* A number sysfs keeps for @port ("4: ACTIVE", "0x10", "1"), or -1 */
static long sysfs_num(struct rc_ctx *ctx, int port, const char *file)
{
	char buf[64];

	if (rc_sysfs_read(buf, sizeof(buf), RC_SYSFS_IB "/%s/ports/%d/%s",
			  ctx->target->ca, port, file))
		return -1;
	return strtol(buf, NULL, 0);
}

static int sysfs_count(struct rc_ctx *ctx, int port, const char *dir)
{
	char path[160];
	int n;

	snprintf(path, sizeof(path), RC_SYSFS_IB "/%s/ports/%d/%s",
		 ctx->target->ca, port, dir);
	n = rc_dir_count(path);
	/* an iWARP port has no P_Key table in sysfs at all */
	return n == -ENOENT ? 0 : n;
}

/*
 * The active width and speed in sysfs's rate ("2.5 Gb/sec (1X SDR)",
 * Linux's rate_show) as enum ibv_port_attr values: false when the file
 * is missing or names what the IBA's tables do not.
 */
static bool sysfs_rate(struct rc_ctx *ctx, int port, long *width, long *speed)
{
	static const struct {
		const char *name;
		int value;
	} speeds[] = { { "SDR", 1 },   { "DDR", 2 },   { "QDR", 4 },
		       { "FDR10", 8 }, { "FDR", 16 },  { "EDR", 32 },
		       { "HDR", 64 },  { "NDR", 128 }, { "XDR", 256 } };
	/* IB_WIDTH_* for 1X, 2X, 4X, 8X, 12X lanes */
	static const int widths[13] = {
		[1] = 1, [2] = 16, [4] = 2, [8] = 4, [12] = 8
	};
	char buf[64], name[16];
	unsigned int i;
	int lanes;

	if (rc_sysfs_read(buf, sizeof(buf), RC_SYSFS_IB "/%s/ports/%d/rate",
			  ctx->target->ca, port))
		return false;
	if (sscanf(buf, "%*[^(](%dX %15[A-Z0-9])", &lanes, name) != 2 ||
	    lanes < 1 || lanes > 12 || !widths[lanes])
		return false;
	*width = widths[lanes];
	for (i = 0; i < ARRAY_SIZE(speeds); i++)
		if (!strcmp(name, speeds[i].name)) {
			*speed = speeds[i].value;
			return true;
		}
	return false;
}

static void as_sysfs(struct rc_ctx *ctx, int port,
		     const struct ibv_port_attr *a)
{
	long width, speed;

#define SAME(f, v)                                                           \
	do {                                                                 \
		long w = (v);                                                \
		if ((long)a->f != w) {                                       \
			rc_obs_violation(ctx->obs, #f " %ld, sysfs has %ld", \
					 (long)a->f, w);                     \
			return;                                              \
		}                                                            \
	} while (0)
	SAME(state, sysfs_num(ctx, port, "state"));
	SAME(phys_state, sysfs_num(ctx, port, "phys_state"));
	SAME(lid, sysfs_num(ctx, port, "lid"));
	SAME(sm_lid, sysfs_num(ctx, port, "sm_lid"));
	SAME(lmc, sysfs_num(ctx, port, "lid_mask_count"));
	SAME(port_cap_flags, sysfs_num(ctx, port, "cap_mask"));
	SAME(gid_tbl_len, sysfs_count(ctx, port, "gids"));
	SAME(pkey_tbl_len, sysfs_count(ctx, port, "pkeys"));
	if (!sysfs_rate(ctx, port, &width, &speed)) {
		rc_obs_violation(ctx->obs, "sysfs's rate names no width and "
					   "speed of the IBA's");
		return;
	}
	SAME(active_width, width);
	SAME(active_speed, speed);
#undef SAME
}

static void port_as_sysfs(const struct vc_row *row, struct rc_ctx *ctx,
			  struct vl *l)
{
	struct ibv_port_attr a;
	char ll[32];
	int want;

	if (query(ctx, l, l->port, &a))
		return;
	if (!row->arg) {
		as_sysfs(ctx, l->port, &a);
		rc_obs_out(ctx->obs, &a, sizeof(a));
		return;
	}
	if (rc_sysfs_read(ll, sizeof(ll),
			  RC_SYSFS_IB "/%s/ports/%d/"
				      "link_layer",
			  ctx->target->ca, l->port))
		ll[0] = 0;
	want = !strcmp(ll, "InfiniBand") ? IBV_LINK_LAYER_INFINIBAND :
	       !strcmp(ll, "Ethernet")	 ? IBV_LINK_LAYER_ETHERNET :
					   IBV_LINK_LAYER_UNSPECIFIED;
	if (a.link_layer != want)
		rc_obs_violation(ctx->obs, "link_layer %u, sysfs says \"%s\"",
				 a.link_layer, ll);
	rc_obs_out(ctx->obs, &a.link_layer, sizeof(a.link_layer));
}

static void port_mtus(const struct vc_row *row, struct rc_ctx *ctx,
		      struct vl *l)
{
	struct ibv_port_attr a;

	if (query(ctx, l, l->port, &a))
		return;
	if (a.max_mtu < IBV_MTU_256 || a.max_mtu > IBV_MTU_4096 ||
	    a.active_mtu < IBV_MTU_256 || a.active_mtu > a.max_mtu)
		rc_obs_violation(ctx->obs,
				 "max_mtu %d, active_mtu %d: not "
				 "ibv_mtu values, the active one no "
				 "larger",
				 a.max_mtu, a.active_mtu);
	else if (a.max_msg_sz < 128u << a.active_mtu)
		rc_obs_violation(ctx->obs,
				 "max_msg_sz %u: less than the "
				 "active MTU's %u bytes",
				 a.max_msg_sz, 128u << a.active_mtu);
}

static void every_port(const struct vc_row *row, struct rc_ctx *ctx,
		       struct vl *l)
{
	int n = vc_sysfs_ports(ctx), p, ret = 0;
	struct ibv_port_attr a;

	rc_obs_begin(ctx->obs);
	for (p = 1; p <= n && !ret; p++) {
		memset(&a, 0xa5, sizeof(a));
		ret = (ctx->ops->ibv_query_port)(l->ctx, p, &a);
		if (!ret)
			as_sysfs(ctx, p, &a);
	}
	rc_obs_end(ctx->obs, ret);
}

static void bad_port(const struct vc_row *row, struct rc_ctx *ctx, struct vl *l)
{
	struct ibv_port_attr a;
	int port = row->arg == PORT_0	? 0 :
		   row->arg == PORT_255 ? 255 :
					  vc_sysfs_ports(ctx) + 1;

	query(ctx, l, port, &a);
}

static void port_severed(const struct vc_row *row, struct rc_ctx *ctx,
			 struct vl *l)
{
	struct ibv_port_attr a;

	if (vc_sever(ctx, l))
		query(ctx, l, l->port, &a);
}

VC_GROUP(port, ibv_query_port, RC_CONV_ERRNO_RET, rows);
