// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_get_async_event(3)'s port events, provoked for real through the
 * port's netdev: each row changes what every row reads (the link, the
 * GID table), so it runs alone, as root, and puts back what it changed.
 * - get_async_event/port-err-on-link-down: the netdev set down:
 *   IBV_EVENT_PORT_ERR with element.port_num the port
 * - get_async_event/port-active-on-link-up: and up again:
 *   IBV_EVENT_PORT_ACTIVE with element.port_num the port
 * - get_async_event/gid-change-on-address-add: an IPv6 address added to
 *   the netdev (RoCE makes a GID of each address):
 *   IBV_EVENT_GID_CHANGE with element.port_num the port, the address's
 *   GID in the port's table when the event is there
 * - get_async_event/gid-change-on-address-del: that address deleted
 *   again: IBV_EVENT_GID_CHANGE with element.port_num the port
 * Events of other types before the one a row is about are taken and
 * acknowledged (a link's down and up change GIDs too).
 */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "verbs_link.h"
#include "verbs_nl.h"
#include "verbs_res.h"
#include "verbs_srq.h"
#include "../../harness/device.h"

#define DOC_WAITS                                                           \
	"ibv_get_async_event() waits for the next async event of the RDMA " \
	"device context context and returns it through the pointer event, " \
	"which is an ibv_async_event struct, as defined in "                \
	"<infiniband/verbs.h>."
#define DOC_ELEMENT                                                    \
	"One member of the element union will be valid, depending on " \
	"the event_type member of the structure."
#define DOC_GID_CHANGE "IBV_EVENT_GID_CHANGE GID table was changed on a port"

/* how long a port may take to come back, GIDs and all, before scaling */
#define PORT_BACK_MS 15000
/* how many of the port's GIDs the link rows read and wait for */
#define SCAN_GIDS 16

struct pe_row;
typedef void pe_check(const struct pe_row *row, struct rc_ctx *ctx,
		      struct vl *l);

struct pe_row {
	struct rc_case c;
	pe_check *check;
	enum ibv_event_type arg; /* the link rows' event */
	bool deletes; /* the GID rows': the change is a deletion */
};

static pe_check port_event, gid_change;

/* the rows change what every row reads: alone, as root */
#define NEEDS_PORT (RC_NEED_DEVICE | RC_NEED_ROOT)
/* RoCE makes a GID of each of the netdev's IP addresses (roce_gid_mgmt) */
#define NEEDS_GID (NEEDS_PORT | RC_NEED_ROCE)

static const struct pe_row rows[] = {
	{ .c = { .id = "verbs/get_async_event/port-err-on-link-down",
		 .doc = DOC_WAITS " ... " DOC_ELEMENT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the port's netdev set down (`ip link set DEV down`): "
			 "IBV_EVENT_PORT_ERR (\"Link became unavailable on a "
			 "port\") with element.port_num the port; the link is "
			 "set up again and the port's GIDs waited for",
		 .needs = NEEDS_PORT,
		 .shares = RC_SHARE_ALONE,
		 .watchdog_ms = 120000,
		 .contract = { RC_RETURNS(0) } },
	  .check = port_event,
	  .arg = IBV_EVENT_PORT_ERR },
	{ .c = { .id = "verbs/get_async_event/port-active-on-link-up",
		 .doc = DOC_WAITS " ... " DOC_ELEMENT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the port's netdev set down, then up: "
			 "IBV_EVENT_PORT_ACTIVE (\"Link became active on a "
			 "port\") with element.port_num the port",
		 .needs = NEEDS_PORT,
		 .shares = RC_SHARE_ALONE,
		 .watchdog_ms = 120000,
		 .contract = { RC_RETURNS(0) } },
	  .check = port_event,
	  .arg = IBV_EVENT_PORT_ACTIVE },
	{ .c = { .id = "verbs/get_async_event/gid-change-on-address-add",
		 .doc = DOC_GID_CHANGE " ... " DOC_ELEMENT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the IPv6 address " VRES_ADDED6_GID
			 " added to the port's "
			 "netdev (no duplicate address detection), which RoCE makes a "
			 "GID of: 0, IBV_EVENT_GID_CHANGE, element.port_num the "
			 "port, and that GID in the port's table (sysfs) when "
			 "the event is there; the address deleted again",
		 .needs = NEEDS_GID,
		 .shares = RC_SHARE_ALONE,
		 .watchdog_ms = 120000,
		 .contract = { RC_RETURNS(0) } },
	  .check = gid_change },
	{ .c = { .id = "verbs/get_async_event/gid-change-on-address-del",
		 .doc = DOC_GID_CHANGE " ... " DOC_ELEMENT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "that address added, its GID in the table and every "
			 "event of it taken; then deleted: 0, "
			 "IBV_EVENT_GID_CHANGE, element.port_num the port",
		 .needs = NEEDS_GID,
		 .shares = RC_SHARE_ALONE,
		 .watchdog_ms = 120000,
		 .contract = { RC_RETURNS(0) } },
	  .check = gid_change,
	  .deletes = true },
};

/* The netdev of the row's port in @dev (IFNAMSIZ), or the row BROKEN */
static bool port_netdev(struct rc_ctx *ctx, char *dev)
{
	if (!(ctx->shares & RC_SHARE_ALONE)) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "a row changes the port's netdev without "
			     "RC_SHARE_ALONE");
		return false;
	}
	if (vn_port_netdev(ctx->target->ca, ctx->target->port, dev, IFNAMSIZ))
		return true;
	rc_obs_state(ctx->obs, RC_STATE_BROKEN,
		     "no netdev under %s port %d (RDMA netlink)",
		     ctx->target->ca, ctx->target->port);
	return false;
}

/* "One member of the element union will be valid": a port event's */
static void check_port(struct rc_ctx *ctx, const struct ibv_async_event *ev,
		       int others)
{
	if (ev->element.port_num != ctx->target->port)
		rc_obs_violation(ctx->obs,
				 "element.port_num %d, not the port %d "
				 "(after %d other events)",
				 ev->element.port_num, ctx->target->port,
				 others);
}

/* The port's first GIDs as sysfs has them, "" where there is none */
static void gids_of(struct rc_ctx *ctx, char g[SCAN_GIDS][48])
{
	int i;

	for (i = 0; i < SCAN_GIDS; i++)
		if (rc_sysfs_read(g[i], sizeof(g[i]),
				  RC_SYSFS_IB "/%s/ports/%d/gids/%d",
				  ctx->target->ca, ctx->target->port, i) ||
		    !strcmp(g[i], "0000:0000:0000:0000:0000:0000:0000:0000"))
			g[i][0] = 0;
}

/* Until the port is ACTIVE again with every GID it had: false on timeout */
static bool port_back(struct rc_ctx *ctx, char want[SCAN_GIDS][48])
{
	double end = rc_now_ms() + rc_scaled_ms(ctx, PORT_BACK_MS);
	char now[SCAN_GIDS][48], state[64];
	int i, j, missing;

	do {
		missing = rc_sysfs_read(state, sizeof(state),
					RC_SYSFS_IB "/%s/ports/%d/state",
					ctx->target->ca, ctx->target->port) ||
			  !strstr(state, "ACTIVE");
		gids_of(ctx, now);
		for (i = 0; i < SCAN_GIDS; i++) {
			for (j = 0; want[i][0] && j < SCAN_GIDS; j++)
				if (!strcmp(want[i], now[j]))
					break;
			missing += want[i][0] && j == SCAN_GIDS;
		}
		if (!missing)
			return true;
		usleep(50000);
	} while (rc_now_ms() < end);
	return false;
}

/* What the child of a row's process (rc_guarded) needs: the row, its
 * context and, for the link rows, the link set down */
struct pe_try {
	const struct pe_row *row;
	struct vl *l;
	struct vk_link *link;
	const char *dev;
};

/* The calls of a link row, in the child: the PORT_ERR of the down taken
 * (set-up) and the link set up for PORT_ACTIVE, then the wanted event */
static void port_calls(struct rc_ctx *ctx, void *p)
{
	const struct pe_try *pt = p;
	enum ibv_event_type want = pt->row->arg;
	struct ibv_async_event ev;
	int got, err, others = 0;

	if (want == IBV_EVENT_PORT_ACTIVE) {
		got = vs_event_of(ctx, pt->l->ctx, IBV_EVENT_PORT_ERR,
				  VS_EVENT_MS, &ev, NULL);
		if (got > 0)
			ctx->ops->ibv_ack_async_event(&ev);
		err = vk_up(pt->link);
		if (err || got <= 0) {
			rc_obs_state(ctx->obs, RC_STATE_BROKEN,
				     "%s down gave no IBV_EVENT_PORT_ERR, or "
				     "up failed (set-up)",
				     pt->dev);
			return;
		}
	}
	/* events of other types (a GID's change) before it are taken and
	 * acknowledged */
	if (vs_take_until(ctx, pt->l->ctx, want, &ev, &others)) {
		check_port(ctx, &ev, others);
		ctx->ops->ibv_ack_async_event(&ev);
	}
}

static void port_event(const struct pe_row *row, struct rc_ctx *ctx,
		       struct vl *l)
{
	char dev[IFNAMSIZ], gids[SCAN_GIDS][48];
	struct vk_link link;
	struct pe_try pt = { row, l, &link, dev };
	int err, child;

	if (!port_netdev(ctx, dev))
		return;
	gids_of(ctx, gids);
	err = vk_down(&link, dev);
	if (err) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "setting %s down: %s (set-up)", dev,
			     rc_errno_name(-err));
		return;
	}
	child = rc_guarded(ctx, port_calls, &pt);
	err = vk_restore(&link);
	if (err)
		rc_obs_violation(ctx->obs,
				 "%s up, with its routes and neighbours: %s",
				 dev, rc_errno_name(-err));
	if (!port_back(ctx, gids))
		rc_obs_violation(ctx->obs,
				 "port: %s port %d not ACTIVE with its GIDs "
				 "within %d ms of %s up",
				 ctx->target->ca, ctx->target->port,
				 rc_scaled_ms(ctx, PORT_BACK_MS), dev);
	rc_end_by(child);
}

/* The rows' address deleted from @dev, or not there, and its GID gone:
 * NULL, or what is wrong */
static const char *del_row_addr(struct rc_ctx *ctx, const char *dev)
{
	int err = vres_change_address(ctx, dev, false);

	/* not there: EADDRNOTAVAIL */
	if (err && err != -EADDRNOTAVAIL)
		return "deleting it failed";
	if (vres_wait_added_gid(ctx, ctx->target->port, false) != -1)
		return "its GID still in the table after it was deleted";
	return NULL;
}

/* The rows' address (vres_added6) on @dev, none of it there before (a
 * row that a watchdog ended may have left it): set-up, BROKEN when not */
static bool add_row_addr(struct rc_ctx *ctx, const char *dev)
{
	const char *gone = del_row_addr(ctx, dev);
	int err = gone ? 0 : vres_change_address(ctx, dev, true);

	if (!gone && !err)
		return true;
	rc_obs_state(ctx->obs, RC_STATE_BROKEN,
		     "adding " VRES_ADDED6_GID "/64 to %s: %s (set-up)", dev,
		     gone ? gone : rc_errno_name(-err));
	return false;
}

/* Delete it again after the row, so that no event of it reaches the rows
 * after: what fails is the row's violation */
static void put_back(struct rc_ctx *ctx, const char *dev)
{
	const char *wrong = del_row_addr(ctx, dev);

	if (wrong)
		rc_obs_violation(ctx->obs,
				 "port: " VRES_ADDED6_GID " on %s: %s", dev,
				 wrong);
}

static void gid_added_calls(struct rc_ctx *ctx, void *p)
{
	const struct pe_try *pt = p;
	struct ibv_async_event ev;
	int others = 0;

	if (!vs_take_until(ctx, pt->l->ctx, IBV_EVENT_GID_CHANGE, &ev, &others))
		return;
	check_port(ctx, &ev, others);
	/* the kernel tells of a change once the table has it */
	if (vres_added_gid(ctx, ctx->target->port) < 0)
		rc_obs_violation(ctx->obs, "IBV_EVENT_GID_CHANGE came with "
					   "GID " VRES_ADDED6_GID
					   " not yet in the table");
	ctx->ops->ibv_ack_async_event(&ev);
}

static void gid_deleted_calls(struct rc_ctx *ctx, void *p)
{
	const struct pe_try *pt = p;
	struct ibv_async_event ev;
	int others = 0;

	/* the add's events (a GID of each RoCE version) are set-up */
	while (vs_event_of(ctx, pt->l->ctx, IBV_EVENT_GID_CHANGE, VT_QUIET_MS,
			   &ev, NULL) > 0)
		ctx->ops->ibv_ack_async_event(&ev);
	if (vres_change_address(ctx, pt->dev, false)) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "deleting " VRES_ADDED6_GID " from %s: %m",
			     pt->dev);
		return;
	}
	if (vs_take_until(ctx, pt->l->ctx, IBV_EVENT_GID_CHANGE, &ev,
			  &others)) {
		check_port(ctx, &ev, others);
		ctx->ops->ibv_ack_async_event(&ev);
	}
}

static void gid_change(const struct pe_row *row, struct rc_ctx *ctx,
		       struct vl *l)
{
	char dev[IFNAMSIZ];
	struct pe_try pt = { row, l, NULL, dev };
	int child;

	if (!port_netdev(ctx, dev) || !add_row_addr(ctx, dev))
		return;
	/* the delete's event must be the delete's: the add's come first */
	if (row->deletes &&
	    vres_wait_added_gid(ctx, ctx->target->port, true) < 0) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "GID " VRES_ADDED6_GID " not in the table after "
			     "its address was added (set-up)");
		put_back(ctx, dev);
		return;
	}
	child = rc_guarded(
		ctx, row->deletes ? gid_deleted_calls : gid_added_calls, &pt);
	put_back(ctx, dev);
	rc_end_by(child);
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct pe_row *row = r;
	struct vs_env e;

	if (!vs_async_calls(ctx))
		return;
	if (vs_up(ctx, &e, false, VL_CONTEXT))
		row->check(row, ctx, vs_ladder(&e));
	vs_down(ctx, &e);
}

RC_TABLE_GROUP(group, "ibv_get_async_event", RC_CONV_M1_ERRNO, "verbs", rows,
	       run);
