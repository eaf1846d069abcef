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
 * What sets them apart, the remote access each allows (a remote RDMA
 * read or write of the buffer), has no row yet.
 */
#include <stdlib.h>
#include <string.h>

#include "rdmacm_conn.h"

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

enum rg_kind { RG_PD, RG_RANGE, RG_NULL };

struct rg_row {
	struct rc_case c;
	enum rg_kind kind;
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

static const struct rg_row msgs_rows[] = { ROWS(reg_msgs, DOC_RANGE_MSGS) };
static const struct rg_row read_rows[] = { ROWS(reg_read, DOC_RANGE) };
static const struct rg_row write_rows[] = { ROWS(reg_write, DOC_RANGE) };

typedef struct ibv_mr *reg_fn(struct rdma_cm_id *id, void *addr, size_t length);

static void run_reg(const struct rg_row *row, struct rc_ctx *ctx, reg_fn *reg,
		    const char *name)
{
	uint8_t *buf = NULL;
	struct ibv_mr *mr;
	struct cm_pair p;

	if (!rc_need_call(ctx, reg, name) ||
	    !rc_need_call(ctx, ctx->ops->rdma_dereg_mr, "rdma_dereg_mr"))
		return;
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

#define GROUP(var, name, table, fn)           \
	static const struct rc_group var = {  \
		.call = name,                 \
		.conv = RC_CONV_NULL_ERRNO,   \
		.lib = "rdmacm",              \
		.rows = table,                \
		.row_size = sizeof(table[0]), \
		.nrows = ARRAY_SIZE(table),   \
		.run = fn,                    \
	};                                    \
	RC_GROUP(var)

GROUP(msgs_group, "rdma_reg_msgs", msgs_rows, run_msgs);
GROUP(read_group, "rdma_reg_read", read_rows, run_read);
GROUP(write_group, "rdma_reg_write", write_rows, run_write);
