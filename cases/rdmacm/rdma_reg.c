// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_reg_msgs(3), rdma_reg_read(3) and rdma_reg_write(3), inline in
 * <rdma/rdma_verbs.h> (the system side is the header's code,
 * harness/impl.c).  Each page: "The memory buffer is registered with the
 * proteection domain associated with the idenfier.  The start of the
 * data buffer [array] is specified through the addr parameter, and the
 * total size of the buffer [array] is given by length."  RETURN VALUE:
 * "Returns a reference to the registered memory region on success, or
 * NULL on error."  The MR is freed with rdma_dereg_mr.
 *
 * The client's id with a QP on a PD of its own (id->pd), route resolved;
 * for each of the three calls:
 * - the MR is on id->pd
 * - its addr and length are the buffer's (0x1234 bytes, 0x40 into it)
 * - addr NULL with 4096 bytes: no memory there, NULL and errno
 * What sets them apart, the remote access each allows, on a connection
 * of the pair (rdmacm_data.h): the server registers its buffer with the
 * call on its connection's id, the client reads or writes it with an
 * RDMA read or write of the implementation's ibv_post_send:
 * - rdma_reg_read: a remote read gets the buffer's bytes; a remote write
 *   fails with a remote access error completion, the buffer unchanged
 * - rdma_reg_write: a remote write lands; a remote read fails so
 * - rdma_reg_msgs: neither a remote read nor a remote write is allowed;
 *   a receive into the buffer gets the client's message, byte for byte;
 *   on a datagram id (RDMA_PS_UDP, its UD QP on the default PD) the MR is
 *   on that id's PD with the buffer's range
 */
#include <stdlib.h>
#include <string.h>

#include "rdmacm_data.h"
#include "rdmacm_ud.h"

#define DOC_PD                                                         \
	"The memory buffer is registered with the proteection domain " \
	"associated with the idenfier."
#define DOC_RANGE                                                     \
	"The start of the data buffer is specified through the addr " \
	"parameter, and the total size of the buffer is given by length."
/* rdma_reg_msgs(3) registers "an array of memory buffers" */
#define DOC_RANGE_MSGS                                                      \
	"The start of the data buffer array is specified through the addr " \
	"parameter, and the total size of the array is given by length."
#define DOC_FAIL                                                           \
	"Returns a reference to the registered memory region on success, " \
	"or NULL on error."

#define DOC_REMOTE_READ                                                \
	"Registers a memory buffer that will be accessed by a remote " \
	"RDMA read operation."
#define DOC_REMOTE_WRITE                                               \
	"Registers a memory buffer that will be accessed by a remote " \
	"RDMA write operation."
#define DOC_MSGS_USE                                                         \
	"Memory buffers registered using rdma_reg_msgs may be posted to an " \
	"rdma_cm_id using rdma_post_send or rdma_post_recv, or specified "   \
	"as the target of an RDMA read operation or the source of an RDMA "  \
	"write request."

enum rg_kind {
	RG_PD,
	RG_RANGE,
	RG_NULL,
	RG_REMOTE,
	RG_RECV, /* the server receives the client's message into it */
	RG_DATAGRAM /* on a datagram id's PD */
};

struct rg_row {
	struct rc_case c;
	enum rg_kind kind;
	enum ibv_wr_opcode op; /* RG_REMOTE: the peer's RDMA read or write */
	bool allowed; /* RG_REMOTE: it succeeds, else a remote access error */
};

#define NEEDS (RC_NEED_DEVICE | RC_NEED_PEER)
#define LEN 0x1234
#define OFF 0x40

/* The three rows of call @name, @range its page's sentence on the range */
#define ROWS(name, range)                                                           \
	{ .c = { .id = "rdmacm/" #name "/id-pd",                                    \
		 .doc = DOC_PD,                                                     \
		 .basis = RC_BASIS_DOCUMENTED,                                      \
		 .note = "mr->pd is id->pd, the PD the id's QP was made on",        \
		 .needs = NEEDS,                                                    \
		 .contract = { RC_SUCCEEDS } },                                     \
	  .kind = RG_PD },                                                          \
		{ .c = { .id = "rdmacm/" #name "/addr-length",                      \
			 .doc = range,                                              \
			 .basis = RC_BASIS_DOCUMENTED,                              \
			 .note = "0x1234 bytes from 0x40 into a buffer (two "       \
				 "distinct bytes, not page aligned): mr->addr and " \
				 "mr->length are those",                            \
			 .needs = NEEDS,                                            \
			 .contract = { RC_SUCCEEDS } },                             \
		  .kind = RG_RANGE },                                               \
		{ .c = { .id = "rdmacm/" #name "/null-addr",                        \
			 .doc = DOC_FAIL,                                           \
			 .basis = RC_BASIS_INTERPRETATION,                          \
			 .note = "addr NULL with 4096 bytes, memory the process "   \
				 "does not have: the registration fails, NULL and " \
				 "errno",                                           \
			 .needs = NEEDS,                                            \
			 .contract = { RC_FAILS() } },                              \
		  .kind = RG_NULL },

/* A remote RDMA read or write (@opv) of the registered buffer */
#define REMOTE(idv, docv, basisv, notev, opv, allowedv) \
	{ .c = { .id = "rdmacm/" idv,                   \
		 .doc = docv,                           \
		 .basis = basisv,                       \
		 .note = notev,                         \
		 .needs = NEEDS,                        \
		 .contract = { RC_SUCCEEDS } },         \
	  .kind = RG_REMOTE,                            \
	  .op = opv,                                    \
	  .allowed = allowedv },

#define NOTE_DENIED(what, access)                                           \
	"the client's RDMA " what " of the server's buffer, with the MR's " \
	"rkey: its completion is IBV_WC_REM_ACCESS_ERR and the " what       \
	" moves no byte; the page names no remote " access                  \
	" access, read as the MR not granting it"

static const struct rg_row msgs_rows[] = {
	ROWS(reg_msgs, DOC_RANGE_MSGS) REMOTE(
		"reg_msgs/no-remote-read", DOC_MSGS_USE,
		RC_BASIS_INTERPRETATION,
		"its buffers are sent, received into, and the local end of "
		"RDMA: " NOTE_DENIED("read", "read"),
		IBV_WR_RDMA_READ,
		false) REMOTE("reg_msgs/no-remote-write", DOC_MSGS_USE,
			      RC_BASIS_INTERPRETATION,
			      "its buffers are sent, received into, and the local end of "
			      "RDMA: " NOTE_DENIED("write", "write"),
			      IBV_WR_RDMA_WRITE, false){
		.c = { .id = "rdmacm/reg_msgs/received-into",
		       .doc = DOC_MSGS_USE,
		       .basis = RC_BASIS_DOCUMENTED,
		       .note = "the server's receive into 180 bytes of its "
			       "buffer, registered so on its connection's id: the "
			       "client's SEND of 180 distinct bytes completes there "
			       "with success, byte for byte",
		       .needs = NEEDS,
		       .contract = { RC_SUCCEEDS } },
		.kind = RG_RECV },
	{ .c = { .id = "rdmacm/reg_msgs/datagram-id",
		 .doc = DOC_PD,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "an RDMA_PS_UDP id bound to the target's address, its "
			 "UD QP made by rdma_create_qp on the default PD: "
			 "mr->pd is id->pd, mr->addr and mr->length the "
			 "buffer's",
		 .needs = RC_NEED_DEVICE | RC_NEED_UD,
		 .contract = { RC_SUCCEEDS } },
	  .kind = RG_DATAGRAM }
};
static const struct rg_row read_rows[] = { ROWS(reg_read, DOC_RANGE) REMOTE(
	"reg_read/remote-read", DOC_REMOTE_READ, RC_BASIS_DOCUMENTED,
	"the client's RDMA read of 180 distinct bytes of the server's "
	"buffer, with the MR's rkey: it completes with success and "
	"the bytes are the client's, byte for byte",
	IBV_WR_RDMA_READ, true) REMOTE("reg_read/no-remote-write",
				       DOC_REMOTE_READ, RC_BASIS_INTERPRETATION,
				       NOTE_DENIED("write", "write"),
				       IBV_WR_RDMA_WRITE, false) };
static const struct rg_row write_rows[] = { ROWS(reg_write, DOC_RANGE) REMOTE(
	"reg_write/remote-write", DOC_REMOTE_WRITE, RC_BASIS_DOCUMENTED,
	"the client's RDMA write of 180 distinct bytes into the "
	"server's buffer, with the MR's rkey: it completes with "
	"success and the bytes are there, byte for byte",
	IBV_WR_RDMA_WRITE,
	true) REMOTE("reg_write/no-remote-read", DOC_REMOTE_WRITE,
		     RC_BASIS_INTERPRETATION, NOTE_DENIED("read", "read"),
		     IBV_WR_RDMA_READ, false) };

typedef struct ibv_mr *reg_fn(struct rdma_cm_id *id, void *addr, size_t length);

#define RLEN 180

/* A receive into @at, of the server's MR @mr: the client's SEND of its
 * buffer's first RLEN bytes (@pat) arrives there */
static void received_into(struct rc_ctx *ctx, struct cd *d,
			  const struct ibv_mr *mr, uint8_t *at,
			  const uint8_t *pat)
{
	struct ibv_wc wc;

	if (cd_srv_recv_at(ctx, d, 0x93, at, RLEN, mr->lkey) &&
	    cd_cli_send(ctx, d, 0x94, 0, RLEN) &&
	    cd_poll(ctx, d->srv->recv_cq, "recv_wc", &wc) &&
	    cd_wc(ctx, "recv_wc", &wc, 0x93, IBV_WC_SUCCESS, IBV_WC_RECV, RLEN))
		cd_same(ctx, "data", at, pat, RLEN);
}

/* The server's buffer registered by @reg on its connection's id, the
 * client's RDMA read or write of it, or its message (RG_RECV) */
static void run_remote(const struct rg_row *row, struct rc_ctx *ctx,
		       reg_fn *reg)
{
	uint8_t pat[RLEN], zero[RLEN] = { 0 }, *buf = NULL;
	struct ibv_mr *mr = NULL;
	struct ibv_send_wr wr = { .wr_id = 0x91,
				  .num_sge = 1,
				  .opcode = row->op,
				  .send_flags = IBV_SEND_SIGNALED };
	struct ibv_send_wr *bad;
	struct ibv_sge sge;
	struct ibv_wc wc;
	bool read = row->op == IBV_WR_RDMA_READ;
	struct cd d;

	if (!cd_up(ctx, &d, true))
		goto out;
	buf = calloc(1, LEN + 2 * OFF);
	if (!buf) {
		cm_broken(ctx, "calloc");
		goto out;
	}
	cm_pattern(pat, RLEN, read ? 0x41 : 0x42);
	if (read)
		memcpy(buf + OFF, pat, RLEN);
	else
		memcpy(d.cbuf, pat, RLEN);
	RC_OBSERVE(ctx, mr = reg(d.srv, buf + OFF, LEN));
	if (!mr)
		goto out;
	if (row->kind == RG_RECV) {
		received_into(ctx, &d, mr, buf + OFF, pat);
		goto dereg;
	}
	sge = (struct ibv_sge){ .addr = (uintptr_t)d.cbuf,
				.length = RLEN,
				.lkey = d.cmr->lkey };
	wr.sg_list = &sge;
	wr.wr.rdma.remote_addr = (uintptr_t)(buf + OFF);
	wr.wr.rdma.rkey = mr->rkey;
	errno = ctx->ops->ibv_post_send(d.cli->qp, &wr, &bad);
	if (errno) {
		cm_broken(ctx, "ibv_post_send of the client");
		goto dereg;
	}
	if (!cd_poll(ctx, d.cli->send_cq, "remote_wc", &wc) ||
	    !cd_wc(ctx, "remote_wc", &wc, 0x91,
		   row->allowed ? IBV_WC_SUCCESS : IBV_WC_REM_ACCESS_ERR, -1,
		   -1))
		goto dereg;
	if (read)
		cd_same(ctx, "data", d.cbuf, row->allowed ? pat : zero, RLEN);
	else
		cd_lands(ctx, "data", buf + OFF, row->allowed ? pat : zero,
			 RLEN);
dereg:
	if (ctx->ops->rdma_dereg_mr(mr))
		cm_broken(ctx, "rdma_dereg_mr");
out:
	cd_down(ctx, &d);
	free(buf);
}

/* rdma_reg_msgs on a datagram id whose UD QP is on the default PD */
static void run_datagram(struct rc_ctx *ctx, reg_fn *reg)
{
	struct ibv_qp_init_attr qa = { .qp_type = IBV_QPT_UD,
				       .cap = { .max_send_wr = 4,
						.max_recv_wr = 4,
						.max_send_sge = 1,
						.max_recv_sge = 1 } };
	struct cmud s = { 0 };
	struct ibv_mr *mr;

	if (!cmud_bind(ctx, &s, ctx->target->ca, ctx->target->port))
		goto out;
	if (ctx->ops->rdma_create_qp(s.id, NULL, &qa)) {
		cm_broken(ctx, "rdma_create_qp of the datagram id");
		goto out;
	}
	RC_OBSERVE(ctx, mr = reg(s.id, s.buf, sizeof(s.buf)));
	if (!mr)
		goto out;
	if (mr->pd != s.id->pd || mr->addr != s.buf ||
	    mr->length != sizeof(s.buf))
		rc_obs_violation(ctx->obs,
				 "mr on PD %p (id->pd %p), addr %p length "
				 "0x%zx, not %p 0x%zx",
				 (void *)mr->pd, (void *)s.id->pd, mr->addr,
				 mr->length, (void *)s.buf, sizeof(s.buf));
	if (ctx->ops->rdma_dereg_mr(mr))
		cm_broken(ctx, "rdma_dereg_mr");
out:
	cmud_close(ctx, &s);
}

static void run_reg(const struct rg_row *row, struct rc_ctx *ctx, reg_fn *reg,
		    const char *name)
{
	uint8_t *buf = NULL;
	struct ibv_mr *mr;
	struct cm_pair p;

	if (!rc_need_call(ctx, reg, name) ||
	    !rc_need_call(ctx, ctx->ops->rdma_dereg_mr, "rdma_dereg_mr"))
		return;
	if (row->kind == RG_REMOTE || row->kind == RG_RECV) {
		run_remote(row, ctx, reg);
		return;
	}
	if (row->kind == RG_DATAGRAM) {
		run_datagram(ctx, reg);
		return;
	}
	if (!cm_pair_open(ctx, &p, AF_INET, true, ctx->ops, ctx->ops) ||
	    !cm_listen(ctx, &p) || !cm_resolve(ctx, &p))
		goto out;
	buf = calloc(1, LEN + 2 * OFF);
	if (!buf) {
		cm_broken(ctx, "calloc");
		goto out;
	}
	RC_OBSERVE(ctx,
		   mr = reg(p.cli.id, row->kind == RG_NULL ? NULL : buf + OFF,
			    row->kind == RG_NULL ? 4096 : LEN));
	if (!mr)
		goto out;
	if (row->kind == RG_PD && mr->pd != p.cli.id->pd)
		rc_obs_violation(ctx->obs, "pd the MR's PD is not id->pd");
	if (row->kind == RG_RANGE &&
	    (mr->addr != buf + OFF || mr->length != LEN))
		rc_obs_violation(ctx->obs,
				 "range addr %p length 0x%zx, not %p 0x%x",
				 mr->addr, mr->length, (void *)(buf + OFF),
				 LEN);
	if (ctx->ops->rdma_dereg_mr(mr))
		cm_broken(ctx, "rdma_dereg_mr");
out:
	cm_pair_close(ctx, &p);
	free(buf);
}

static void run_msgs(const void *r, struct rc_ctx *ctx)
{
	run_reg(r, ctx, ctx->ops->rdma_reg_msgs, "rdma_reg_msgs");
}

static void run_read(const void *r, struct rc_ctx *ctx)
{
	run_reg(r, ctx, ctx->ops->rdma_reg_read, "rdma_reg_read");
}

static void run_write(const void *r, struct rc_ctx *ctx)
{
	run_reg(r, ctx, ctx->ops->rdma_reg_write, "rdma_reg_write");
}

#define GROUP(var, name, table, fn) \
	RC_TABLE_GROUP(var, name, RC_CONV_NULL_ERRNO, "rdmacm", table, fn)

GROUP(msgs_group, "rdma_reg_msgs", msgs_rows, run_msgs);
GROUP(read_group, "rdma_reg_read", read_rows, run_read);
GROUP(write_group, "rdma_reg_write", write_rows, run_write);
