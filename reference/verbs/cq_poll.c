// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_create_cq_ex(3), "Polling an extended CQ": ibv_start_poll,
 * ibv_next_poll, ibv_end_poll and the ibv_wc_read_* accessors, which
 * libibverbs calls through the CQ's own pointers.
 *
 * A batch holds the CQ's consumer lock (datapath.c's, which ibv_poll_cq
 * takes too) from start_poll to end_poll.  "If an error code is given,
 * end_poll shouldn't be called": a start_poll that finds nothing (ENOENT)
 * or fails ends the batch itself.  Each completion is the provider's
 * poll_one into the CQ's current one, whose wr_id and status are "accessed
 * directly from struct ibv_cq_ex".
 *
 * "Only fields that the user requested via wc_flags in ibv_create_cq_ex
 * could be queried": a reader is there for the IBV_WC_EX_WITH_* flags
 * asked for and no other (NULL); opcode, vendor_err and wc_flags have no
 * flag and are always there.
 */
#include <errno.h>
#include <pthread.h>

#include "ref_verbs.h"
#include "objects.h"

static struct ref_cq *cq_of(struct ibv_cq_ex *x)
{
	return (struct ref_cq *)x;
}

/* The next completion into the current one: 0, or ENOENT for none */
static int take(struct ref_cq *cq)
{
	if (ref_ctx(cq->cq.context)->prov->poll_one(cq, &cq->cur) != 1)
		return ENOENT;
	cq->cq.wr_id = cq->cur.wr_id;
	cq->cq.status = cq->cur.status;
	return 0;
}

/* "attr is given in order to make this function easily extensible in the
 * future": nothing in it is read yet */
static int start_poll(struct ibv_cq_ex *x, struct ibv_poll_cq_attr *attr)
{
	struct ref_cq *cq = cq_of(x);
	int err;

	if (!ref_ctx(x->context)->prov->poll_one)
		return EOPNOTSUPP;
	pthread_mutex_lock(&cq->lock);
	err = take(cq);
	if (err)
		pthread_mutex_unlock(&cq->lock);
	return err;
}

static int next_poll(struct ibv_cq_ex *x)
{
	return take(cq_of(x));
}

static void end_poll(struct ibv_cq_ex *x)
{
	pthread_mutex_unlock(&cq_of(x)->lock);
}

static enum ibv_wc_opcode read_opcode(struct ibv_cq_ex *x)
{
	return cq_of(x)->cur.opcode;
}

static uint32_t read_vendor_err(struct ibv_cq_ex *x)
{
	return cq_of(x)->cur.vendor_err;
}

static unsigned int read_wc_flags(struct ibv_cq_ex *x)
{
	return cq_of(x)->cur.wc_flags;
}

static uint32_t read_byte_len(struct ibv_cq_ex *x)
{
	return cq_of(x)->cur.byte_len;
}

/* imm_data "in network order", or the invalidated rkey (one union in
 * struct ibv_wc), which ibv_wc_read_invalidated_rkey reads through this
 * reader (verbs.h) */
static __be32 read_imm_data(struct ibv_cq_ex *x)
{
	return cq_of(x)->cur.imm_data;
}

static uint32_t read_qp_num(struct ibv_cq_ex *x)
{
	return cq_of(x)->cur.qp_num;
}

static uint32_t read_src_qp(struct ibv_cq_ex *x)
{
	return cq_of(x)->cur.src_qp;
}

static uint32_t read_slid(struct ibv_cq_ex *x)
{
	return cq_of(x)->cur.slid;
}

static uint8_t read_sl(struct ibv_cq_ex *x)
{
	return cq_of(x)->cur.sl;
}

static uint8_t read_dlid_path_bits(struct ibv_cq_ex *x)
{
	return cq_of(x)->cur.dlid_path_bits;
}

void ref_cq_poll_init(struct ref_cq *cq, uint64_t wc_flags)
{
	struct ibv_cq_ex *x = &cq->cq;

	x->start_poll = start_poll;
	x->next_poll = next_poll;
	x->end_poll = end_poll;
	x->read_opcode = read_opcode;
	x->read_vendor_err = read_vendor_err;
	x->read_wc_flags = read_wc_flags;
	x->read_byte_len = wc_flags & IBV_WC_EX_WITH_BYTE_LEN ? read_byte_len :
								NULL;
	x->read_imm_data = wc_flags & IBV_WC_EX_WITH_IMM ? read_imm_data : NULL;
	x->read_qp_num = wc_flags & IBV_WC_EX_WITH_QP_NUM ? read_qp_num : NULL;
	x->read_src_qp = wc_flags & IBV_WC_EX_WITH_SRC_QP ? read_src_qp : NULL;
	x->read_slid = wc_flags & IBV_WC_EX_WITH_SLID ? read_slid : NULL;
	x->read_sl = wc_flags & IBV_WC_EX_WITH_SL ? read_sl : NULL;
	x->read_dlid_path_bits = wc_flags & IBV_WC_EX_WITH_DLID_PATH_BITS ?
					 read_dlid_path_bits :
					 NULL;
}
