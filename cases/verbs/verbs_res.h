/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the verbs rows need around the call under test: a context, PD, CQ
 * and QP on the target port, receive buffers, UD sends, and completions
 * waited for with a deadline.  These come from rdma-core, linked directly:
 * they are resources, never the call under test.
 */
#ifndef RDMACONF_CASES_VERBS_RES_H
#define RDMACONF_CASES_VERBS_RES_H

#include <infiniband/verbs.h>

#include "../../harness/rdmaconf.h"

#define VRES_QKEY 0x11111111u
/* a receive slot: the 40-byte GRH, then the payload */
#define VRES_GRH 40
#define VRES_SLOT 256
#define VRES_SLOTS 16
#define VRES_WAIT_MS 2000 /* for what must arrive, before scaling */
#define VRES_QUIET_MS 300 /* watching for what must not */

struct vres {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *scq, *rcq; /* send and receive completions */
	struct ibv_qp *qp;
	struct ibv_mr *mr;
	uint8_t *buf; /* VRES_SLOTS receive slots, then one send slot */
	int port;
	/* the port's own addresses: an IPv6 and an IPv4-mapped GID */
	int gid6, gid4;
	union ibv_gid g6, g4;
	uint32_t remote_qkey; /* what vres_send sends with (VRES_QKEY) */
};

/* every row on these resources: a device, and datagrams (UD QPs, AHs,
 * multicast), which iWARP has not; vres_open refuses a row without them */
enum { NEEDS_VERBS = RC_NEED_DEVICE | RC_NEED_UD };

/* Open everything on the target port; a UD QP in RTS, or a QP of
 * @type in RESET.  Marks the row BROKEN and returns false on failure. */
bool vres_open(struct rc_ctx *ctx, struct vres *r, enum ibv_qp_type type);
/* The same on the run's second device (RC_NEED_PEER). */
bool vres_open_peer(struct rc_ctx *ctx, struct vres *r);
void vres_close(struct vres *r);
/* Post @n receive slots. */
bool vres_post_recv(struct rc_ctx *ctx, struct vres *r, int n);
/* An AH from rdma-core (a resource) to @dgid from GID index @sgid. */
struct ibv_ah *vres_ah(struct vres *r, int sgid, const union ibv_gid *dgid);
/* Send one UD message carrying @tag through @ah to @qpn. */
bool vres_send(struct rc_ctx *ctx, struct vres *r, struct ibv_ah *ah,
	       uint32_t qpn, uint32_t tag);
/* Wait up to @ms (scaled) for a receive completion; 1 got one (its slot's
 * GRH in @grh, the tag in @tag), 0 none, -1 a failed completion. */
int vres_recv(struct rc_ctx *ctx, struct vres *r, int ms, struct ibv_wc *wc,
	      struct ibv_grh *grh, uint32_t *tag);
/*
 * The fabric's part of a multicast join (ibv_attach_mcast(3), NOTES: "a
 * join request for the multicast group must be sent to the subnet
 * administrator"): on RoCE, an IPv6 group membership of the port's netdev,
 * without which the IP stack neither loops back nor accepts the group's
 * packets.  Returns a descriptor to close after the row, or -1 (BROKEN).
 */
int vres_fabric_join(struct rc_ctx *ctx, struct vres *r,
		     const union ibv_gid *mgid);
/* The same for GID @gid_index of @ca port @port. */
int vres_ip_join(struct rc_ctx *ctx, const char *ca, int port, int gid_index,
		 const uint8_t mgid[16]);
/* The next completion of @cq before @deadline (rc_now_ms): 1 got one,
 * 0 none, -1 polling failed. */
int vres_poll_cq(struct ibv_cq *cq, double deadline, struct ibv_wc *wc);
/* How many receive completions arrive within @ms (scaled). */
int vres_count(struct rc_ctx *ctx, struct vres *r, int ms);
/* 2001:db8::42: the address rows add to the port's netdev and remove */
extern const uint8_t vres_added6[16];
/* its GID as sysfs shows a GID (%pI6) */
#define VRES_ADDED6_GID "2001:0db8:0000:0000:0000:0000:0000:0042"
/* Add or remove vres_added6/64 on netdev @dev (no DAD): 0 or -errno. */
int vres_change_address(struct rc_ctx *ctx, const char *dev, bool add);
/* vres_added6's index among the port's first GIDs now, -1 if absent */
int vres_added_gid(struct rc_ctx *ctx, int port);
/* Wait until vres_added6 is (@present) or is not among the port's first
 * GIDs: its index, -1 when gone, -2 on timeout. */
int vres_wait_added_gid(struct rc_ctx *ctx, int port, bool present);

/* The AH's kernel object destroyed behind the library's back. */
int vres_kernel_destroy_ah(struct ibv_ah *ah);

#endif
