/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * rdma_rxe's data path (dp_rxe.c): its queues as <rdma/rdma_user_rxe.h>
 * lays them out, for the hooks of struct ref_provider (objects.h).
 */
#ifndef RDMACONF_REF_DP_RXE_H
#define RDMACONF_REF_DP_RXE_H

#include "objects.h"

int ref_rxe_post_send_one(struct ref_qp *qp, const struct ibv_send_wr *wr);
int ref_rxe_post_recv_one(struct ref_queue *q, const struct ibv_recv_wr *wr);
int ref_rxe_poll_one(struct ref_cq *cq, struct ibv_wc *wc);
void ref_rxe_ah_in(struct ref_udata *u);
int ref_rxe_ah_done(struct ref_ah *ah, const struct ref_udata *u);

#endif
