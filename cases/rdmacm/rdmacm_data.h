/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The rung <rdma/rdma_verbs.h>'s data-path rows stand on: a connection
 * of the pair (rdmacm_conn.h: server on the target device, client on the
 * peer) whose two QPs have the CQs rdma_create_qp allocates (a send and
 * a receive CQ each, with their completion channels: what
 * rdma_get_send_comp and rdma_get_recv_comp wait on), and on each end a
 * buffer of CD_LEN registered with ibv_reg_mr for every access on the
 * end's PD.  Everything is made by the implementation under test.  The
 * verbs reference has no data path for siw yet: its rows SKIP there.
 */
#ifndef RDMACONF_CASES_RDMACM_DATA_H
#define RDMACONF_CASES_RDMACM_DATA_H

#include <rdma/rdma_verbs.h>

#include "rdmacm_conn.h"

#define CD_LEN 4096

struct cd {
	struct cm_pair p;
	struct rdma_cm_id *cli, *srv; /* the ids with the QPs */
	uint8_t *cbuf, *sbuf;
	struct ibv_mr *cmr, *smr;
};

/* The pair connected (@connect), or only the client's QP made on its
 * resolved route; false: BROKEN or SKIP, the cause recorded. */
bool cd_up(struct rc_ctx *ctx, struct cd *d, bool connect);
void cd_down(struct rc_ctx *ctx, struct cd *d);
/* One completion of @cq within CM_WAIT_MS (scaled), polled with the
 * implementation: true, or a violation "@who none" and false */
bool cd_poll(struct rc_ctx *ctx, struct ibv_cq *cq, const char *who,
	     struct ibv_wc *wc);
/* No completion on @cq within CM_QUIET_MS: true, else a violation */
bool cd_quiet(struct rc_ctx *ctx, struct ibv_cq *cq, const char *who);
/* The completion's wr_id, status and (>= 0) opcode and byte_len, and a
 * receive (IBV_WC_RECV) without immediate data, else violations named
 * @who.field */
bool cd_wc(struct rc_ctx *ctx, const char *who, const struct ibv_wc *wc,
	   uint64_t wr_id, enum ibv_wc_status status, int opcode,
	   int64_t byte_len);
/* @len bytes at @got are @want's, else a violation naming @what and the
 * first byte that differs; @got is the output either way */
bool cd_same(struct rc_ctx *ctx, const char *what, const uint8_t *got,
	     const uint8_t *want, size_t len);
/* cd_same for the bytes an RDMA Write put at the far end (@got) once
 * its completion came: on iWARP, whose completion may come before they
 * land, they are waited for up to CM_WAIT_MS (scaled) */
bool cd_lands(struct rc_ctx *ctx, const char *what, const uint8_t *got,
	      const uint8_t *want, size_t len);
/* A receive of @len bytes at @off of the server's buffer, and a send of
 * @len bytes at @off of the client's, with the implementation's verbs */
/* The same receive into @len bytes at @buf of another MR (@lkey) */
bool cd_srv_recv_at(struct rc_ctx *ctx, struct cd *d, uint64_t wr_id, void *buf,
		    uint32_t len, uint32_t lkey);
bool cd_srv_recv(struct rc_ctx *ctx, struct cd *d, uint64_t wr_id, size_t off,
		 uint32_t len);
bool cd_cli_send(struct rc_ctx *ctx, struct cd *d, uint64_t wr_id, size_t off,
		 uint32_t len);

#endif
