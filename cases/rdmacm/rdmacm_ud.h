/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Datagram ids (RDMA_PS_UDP) for the rows of rdma_post_ud_send(3) and of
 * rdma_get_send_comp(3) and rdma_get_recv_comp(3) on such ids: a sender
 * bound to the peer device's address with an AH to a target GID, a
 * receiver bound to the target device's address, and the harness's UD QP
 * (verbs_res.h) as the far end.
 */
#ifndef RDMACONF_RDMACM_UD_H
#define RDMACONF_RDMACM_UD_H

#include "rdmacm_conn.h"
#include "../verbs/verbs_res.h"

struct cmud {
	struct rdma_event_channel *ch;
	struct rdma_cm_id *id;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_mr *mr;
	struct ibv_ah *ah;
	uint8_t buf[1024];
};

/* A datagram id of @s on the address of @ca's port @port, with its
 * channel; false (BROKEN, once) when any of it fails */
bool cmud_bind(struct rc_ctx *ctx, struct cmud *s, const char *ca, int port);
/* A sender to @dgid; @own_cqs: the QP's CQs are those rdma_create_qp
 * makes (s->cq NULL).  False (BROKEN, once) when any of it fails. */
bool cmud_sender_open(struct rc_ctx *ctx, struct cmud *s,
		      const union ibv_gid *dgid, bool own_cqs);
/* A receiver with the CQs rdma_create_qp makes and a receive of @len
 * bytes (context @context) posted with the implementation's
 * rdma_post_recv; @gid its port's IPv4-mapped GID. */
bool cmud_receiver_open(struct rc_ctx *ctx, struct cmud *s, size_t len,
			void *context, union ibv_gid *gid);
/* The harness's UD QP @v (open) ready for a sender's messages (the port
 * space's Q_Key, two receives), and the sender @s addressing it */
bool cmud_pair_open(struct rc_ctx *ctx, struct vres *v, struct cmud *s,
		    bool own_cqs);
void cmud_close(struct rc_ctx *ctx, struct cmud *s);

#endif
