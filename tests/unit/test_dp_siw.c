// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The reference's siw data path (reference/verbs/dp_siw.c) on queues of
 * memory standing in for the kernel's: the elements it writes as
 * <rdma/siw-abi.h> lays them out, the slot it takes and gives back by
 * SIW_WQE_VALID, what it refuses before the kernel would, the
 * completions it reads as the kernel writes them, and how it arms a CQ.
 * The kernel's side of each (taking an element, adding a completion) is
 * the test's, as siw does it (drivers/infiniband/sw/siw).
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <string.h>
#include <rdma/siw-abi.h>

#include "../../reference/verbs/dp_siw.h"

#define SLOTS 4

static struct siw_sqe sq[SLOTS];
static struct siw_rqe rq[SLOTS];
static struct {
	struct siw_cqe cqe[SLOTS];
	struct siw_cq_ctrl ctrl;
} cqmem;
static struct ref_qp qp;
static struct ref_cq cq;
static uint8_t data[256];

static void queues(void)
{
	size_t i;

	memset(sq, 0, sizeof(sq));
	memset(rq, 0, sizeof(rq));
	memset(&cqmem, 0, sizeof(cqmem));
	memset(&qp, 0, sizeof(qp));
	memset(&cq, 0, sizeof(cq));
	qp.sq = (struct ref_queue){ .addr = sq, .slots = SLOTS };
	qp.rq = (struct ref_queue){ .addr = rq, .slots = SLOTS };
	cq.q = (struct ref_queue){ .addr = &cqmem, .slots = SLOTS };
	for (i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(i * 7 + 1);
}

TestSuite(dp_siw, .init = queues);

static struct ibv_sge sge(size_t off, uint32_t len, uint32_t lkey)
{
	return (struct ibv_sge){ .addr = (uintptr_t)data + off,
				 .length = len,
				 .lkey = lkey };
}

Test(dp_siw, send_element_as_the_abi_lays_it_out)
{
	struct ibv_sge sg[2] = { sge(0, 100, 0x11223344),
				 sge(100, 60, 0x55667788) };
	struct ibv_send_wr wr = { .wr_id = 0x0102030405060708ull,
				  .sg_list = sg,
				  .num_sge = 2,
				  .opcode = IBV_WR_SEND,
				  .send_flags = IBV_SEND_SOLICITED };

	cr_assert_eq(ref_siw_post_send_one(&qp, &wr), 0);
	cr_assert_eq(sq[0].id, 0x0102030405060708ull);
	cr_assert_eq(sq[0].opcode, SIW_OP_SEND);
	cr_assert_eq(sq[0].num_sge, 2);
	cr_assert_eq(sq[0].sge[1].laddr, (uintptr_t)data + 100);
	cr_assert_eq(sq[0].sge[1].length, 60);
	cr_assert_eq(sq[0].sge[1].lkey, 0x55667788);
	cr_assert_eq(sq[0].sge[0].lkey, 0x11223344);
	/* unsignaled on a QP without sq_sig_all: no SIW_WQE_SIGNALLED */
	cr_assert_eq(sq[0].flags, SIW_WQE_VALID | SIW_WQE_SOLICITED);
	cr_assert_eq(qp.sq.next, 1);
}

Test(dp_siw, rdma_write_and_read_name_the_remote_buffer)
{
	struct ibv_sge sg = sge(0, 256, 1);
	struct ibv_send_wr wr = { .sg_list = &sg,
				  .num_sge = 1,
				  .opcode = IBV_WR_RDMA_WRITE,
				  .send_flags = IBV_SEND_SIGNALED,
				  .wr.rdma = { .remote_addr =
						       0x1122334455667788ull,
					       .rkey = 0x99aabbcc } };

	cr_assert_eq(ref_siw_post_send_one(&qp, &wr), 0);
	cr_assert_eq(sq[0].opcode, SIW_OP_WRITE);
	cr_assert_eq(sq[0].raddr, 0x1122334455667788ull);
	cr_assert_eq(sq[0].rkey, 0x99aabbcc);
	cr_assert_eq(sq[0].flags, SIW_WQE_VALID | SIW_WQE_SIGNALLED);
	wr.opcode = IBV_WR_RDMA_READ;
	wr.send_flags = 0;
	qp.sq_sig_all = true;
	cr_assert_eq(ref_siw_post_send_one(&qp, &wr), 0);
	cr_assert_eq(sq[1].opcode, SIW_OP_READ);
	cr_assert_eq(sq[1].raddr, 0x1122334455667788ull);
	cr_assert_eq(sq[1].rkey, 0x99aabbcc);
	/* sq_sig_all: the process signals every WR, the kernel does not */
	cr_assert_eq(sq[1].flags, SIW_WQE_VALID | SIW_WQE_SIGNALLED);
	/* SEND_WITH_INV names the rkey to invalidate */
	wr.opcode = IBV_WR_SEND_WITH_INV;
	wr.invalidate_rkey = 0x0badcafe;
	cr_assert_eq(ref_siw_post_send_one(&qp, &wr), 0);
	cr_assert_eq(sq[2].opcode, SIW_OP_SEND_REMOTE_INV);
	cr_assert_eq(sq[2].rkey, 0x0badcafe);
}

Test(dp_siw, what_the_kernel_would_refuse_is_refused_before_it)
{
	struct ibv_sge sg[2] = { sge(0, 8, 1), sge(8, 8, 1) };
	struct ibv_send_wr wr = { .sg_list = sg,
				  .num_sge = 2,
				  .opcode = IBV_WR_RDMA_READ };

	/* an RDMA Read gathers into one buffer: max_sge_rd is 1 */
	cr_assert_eq(ref_siw_post_send_one(&qp, &wr), EINVAL);
	wr.num_sge = 1;
	wr.send_flags = IBV_SEND_FENCE; /* a READ cannot be fenced */
	cr_assert_eq(ref_siw_post_send_one(&qp, &wr), EINVAL);
	wr.send_flags = 0;
	for (wr.opcode = IBV_WR_RDMA_WRITE; wr.opcode <= IBV_WR_TSO;
	     wr.opcode++) {
		int want = wr.opcode == IBV_WR_RDMA_WRITE ||
					   wr.opcode == IBV_WR_SEND ||
					   wr.opcode == IBV_WR_RDMA_READ ||
					   wr.opcode == IBV_WR_SEND_WITH_INV ?
				   0 :
				   EOPNOTSUPP;

		memset(sq, 0, sizeof(sq));
		qp.sq.next = 0;
		cr_assert_eq(ref_siw_post_send_one(&qp, &wr), want, "opcode %d",
			     wr.opcode);
		/* nothing is left for the kernel of a refused WR */
		cr_assert_eq(sq[0].flags != 0, want == 0, "opcode %d",
			     wr.opcode);
	}
	wr.num_sge = SIW_MAX_SGE + 1;
	wr.opcode = IBV_WR_SEND;
	cr_assert_eq(ref_siw_post_send_one(&qp, &wr), EINVAL);
}

Test(dp_siw, inline_bytes_take_the_place_of_sge_1_onwards)
{
	struct ibv_sge sg[2] = { sge(0, 50, 0), sge(50, 30, 0) };
	struct ibv_send_wr wr = { .sg_list = sg,
				  .num_sge = 2,
				  .opcode = IBV_WR_SEND,
				  .send_flags = IBV_SEND_INLINE };

	/* exactly SIW_MAX_INLINE bytes fit */
	cr_assert_eq(ref_siw_post_send_one(&qp, &wr), 0);
	cr_assert_eq(sq[0].num_sge, 1);
	cr_assert_eq(sq[0].sge[0].length, SIW_MAX_INLINE);
	cr_assert_eq(memcmp(&sq[0].sge[1], data, SIW_MAX_INLINE), 0);
	cr_assert_eq(sq[0].flags, SIW_WQE_VALID | SIW_WQE_INLINE);
	/* one more does not */
	sg[1].length++;
	cr_assert_eq(ref_siw_post_send_one(&qp, &wr), EINVAL);
	cr_assert_eq(sq[1].flags, 0);
}

Test(dp_siw, a_full_queue_then_the_slot_the_kernel_gave_back)
{
	struct ibv_sge sg = sge(0, 8, 1);
	struct ibv_send_wr wr = { .sg_list = &sg,
				  .num_sge = 1,
				  .opcode = IBV_WR_SEND };
	int i;

	for (i = 0; i < SLOTS; i++) {
		wr.wr_id = i;
		cr_assert_eq(ref_siw_post_send_one(&qp, &wr), 0, "slot %d", i);
	}
	cr_assert_eq(ref_siw_post_send_one(&qp, &wr), ENOMEM);
	/* the kernel takes slot 0 (siw_activate_tx clears its flags) */
	sq[0].flags = 0;
	wr.wr_id = 99;
	cr_assert_eq(ref_siw_post_send_one(&qp, &wr), 0);
	cr_assert_eq(sq[0].id, 99, "the queue wraps to slot 0");
	cr_assert_eq(sq[1].id, 1, "slot 1 untouched");
	cr_assert_eq(ref_siw_post_send_one(&qp, &wr), ENOMEM);
}

Test(dp_siw, receive_element_is_valid_alone)
{
	struct ibv_sge sg[3] = { sge(0, 10, 7), sge(10, 20, 8),
				 sge(30, 40, 9) };
	struct ibv_recv_wr wr = { .wr_id = 0xa1b2c3d4e5f60718ull,
				  .sg_list = sg,
				  .num_sge = 3 };
	int i;

	cr_assert_eq(ref_siw_post_recv_one(&qp.rq, &wr), 0);
	/* siw_rqe_get takes an element whose flags equal SIW_WQE_VALID */
	cr_assert_eq(rq[0].flags, SIW_WQE_VALID);
	cr_assert_eq(rq[0].id, 0xa1b2c3d4e5f60718ull);
	cr_assert_eq(rq[0].num_sge, 3);
	cr_assert_eq(rq[0].sge[2].laddr, (uintptr_t)data + 30);
	cr_assert_eq(rq[0].sge[2].length, 40);
	cr_assert_eq(rq[0].sge[2].lkey, 9);
	for (i = 1; i < SLOTS; i++)
		cr_assert_eq(ref_siw_post_recv_one(&qp.rq, &wr), 0);
	cr_assert_eq(ref_siw_post_recv_one(&qp.rq, &wr), ENOMEM);
	wr.num_sge = SIW_MAX_SGE + 1;
	rq[0].flags = 0;
	cr_assert_eq(ref_siw_post_recv_one(&qp.rq, &wr), EINVAL);
}

/* A completion as siw_rqe_complete and siw_sqe_complete add one */
static void kernel_adds(int slot, uint8_t flags, uint8_t opcode,
			uint16_t status, uint32_t bytes)
{
	struct siw_cqe *c = &cqmem.cqe[slot];

	c->id = 0x1000 + slot;
	c->opcode = opcode;
	c->status = status;
	c->bytes = bytes;
	c->qp_id = 0x00abcdef;
	c->flags = flags;
}

Test(dp_siw, completions_as_the_kernel_writes_them)
{
	static const struct {
		uint8_t op;
		int wc;
	} ops[] = {
		{ SIW_OP_WRITE, IBV_WC_RDMA_WRITE },
		{ SIW_OP_READ, IBV_WC_RDMA_READ },
		{ SIW_OP_READ_LOCAL_INV, IBV_WC_RDMA_READ },
		{ SIW_OP_SEND, IBV_WC_SEND },
		{ SIW_OP_SEND_WITH_IMM, IBV_WC_SEND },
		{ SIW_OP_SEND_REMOTE_INV, IBV_WC_SEND },
		{ SIW_OP_FETCH_AND_ADD, IBV_WC_FETCH_ADD },
		{ SIW_OP_COMP_AND_SWAP, IBV_WC_COMP_SWAP },
		{ SIW_OP_RECEIVE, IBV_WC_RECV },
		{ SIW_OP_INVAL_STAG, IBV_WC_LOCAL_INV },
	};
	static const struct {
		uint16_t siw;
		enum ibv_wc_status ib;
	} st[] = {
		{ SIW_WC_SUCCESS, IBV_WC_SUCCESS },
		{ SIW_WC_LOC_LEN_ERR, IBV_WC_LOC_LEN_ERR },
		{ SIW_WC_LOC_PROT_ERR, IBV_WC_LOC_PROT_ERR },
		{ SIW_WC_LOC_QP_OP_ERR, IBV_WC_LOC_QP_OP_ERR },
		{ SIW_WC_WR_FLUSH_ERR, IBV_WC_WR_FLUSH_ERR },
		{ SIW_WC_BAD_RESP_ERR, IBV_WC_BAD_RESP_ERR },
		{ SIW_WC_LOC_ACCESS_ERR, IBV_WC_LOC_ACCESS_ERR },
		{ SIW_WC_REM_ACCESS_ERR, IBV_WC_REM_ACCESS_ERR },
		{ SIW_WC_REM_INV_REQ_ERR, IBV_WC_REM_INV_REQ_ERR },
		{ SIW_WC_GENERAL_ERR, IBV_WC_GENERAL_ERR },
	};
	struct ibv_wc wc;
	size_t i;

	cr_assert_eq(ref_siw_poll_one(&cq, &wc), 0, "an empty CQ");
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		int slot = cq.q.next % SLOTS;

		kernel_adds(slot, SIW_WQE_VALID, ops[i].op, SIW_WC_SUCCESS,
			    0x01020304);
		cr_assert_eq(ref_siw_poll_one(&cq, &wc), 1);
		cr_assert_eq(wc.opcode, ops[i].wc, "siw opcode %d", ops[i].op);
		cr_assert_eq(wc.wr_id, 0x1000 + slot);
		cr_assert_eq(wc.byte_len, 0x01020304);
		cr_assert_eq(wc.qp_num, 0x00abcdef);
		cr_assert_eq(wc.wc_flags, 0);
		cr_assert_eq(cqmem.cqe[slot].flags, 0, "the slot given back");
		cr_assert_eq(ref_siw_poll_one(&cq, &wc), 0);
	}
	for (i = 0; i < sizeof(st) / sizeof(st[0]); i++) {
		kernel_adds(cq.q.next % SLOTS, SIW_WQE_VALID, SIW_OP_RECEIVE,
			    st[i].siw, 0);
		cr_assert_eq(ref_siw_poll_one(&cq, &wc), 1);
		cr_assert_eq(wc.status, st[i].ib, "siw status %d", st[i].siw);
	}
	/* a receive whose sender invalidated an STag */
	kernel_adds(cq.q.next % SLOTS, SIW_WQE_VALID | SIW_WQE_REM_INVAL,
		    SIW_OP_RECEIVE, SIW_WC_SUCCESS, 16);
	cqmem.cqe[cq.q.next % SLOTS].inval_stag = 0x12345678;
	cr_assert_eq(ref_siw_poll_one(&cq, &wc), 1);
	cr_assert_eq(wc.wc_flags, IBV_WC_WITH_INV);
	cr_assert_eq(wc.invalidated_rkey, 0x12345678);
}

Test(dp_siw, armed_in_the_mapped_control_word)
{
	cr_assert_eq(ref_siw_req_notify(&cq, true), 0);
	cr_assert_eq(cqmem.ctrl.flags, SIW_NOTIFY_SOLICITED);
	cr_assert_eq(ref_siw_req_notify(&cq, false), 0);
	cr_assert_eq(cqmem.ctrl.flags,
		     SIW_NOTIFY_SOLICITED | SIW_NOTIFY_NEXT_COMPLETION);
}
