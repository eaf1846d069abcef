/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * siw's data path (dp_siw.c): its queues as <rdma/siw-abi.h> lays them
 * out, for the hooks of struct ref_provider (objects.h).
 */
#ifndef RDMACONF_REF_DP_SIW_H
#define RDMACONF_REF_DP_SIW_H

#include "objects.h"

int ref_siw_post_send_one(struct ref_qp *qp, const struct ibv_send_wr *wr);
int ref_siw_sq_takes(struct ref_qp *qp);
int ref_siw_post_recv_one(struct ref_queue *q, const struct ibv_recv_wr *wr);
int ref_siw_poll_one(struct ref_cq *cq, struct ibv_wc *wc);
int ref_siw_req_notify(struct ref_cq *cq, bool solicited_only);

#endif
