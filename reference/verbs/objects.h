/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The reference libibverbs' objects.  Each embeds the public struct of
 * <infiniband/verbs.h> first, with its public fields filled as the pages
 * say, so that a pointer to it is what callers hold; behind it is what the
 * reference itself needs: the provider's queues mapped from the kernel,
 * the granted sizes, the device's driver id.
 *
 * The provider of a device is the kernel driver behind it (its enum
 * rdma_driver_id).  Its part of each command is the driver data of
 * <rdma/rdma_user_rxe.h> and <rdma/siw-abi.h>: what goes in, what comes
 * back, and which queue buffers the answer tells the process to map.  A
 * device of any other driver gets the commands without a driver part,
 * which the kernel takes or refuses.
 */
#ifndef RDMACONF_REF_OBJECTS_H
#define RDMACONF_REF_OBJECTS_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/types.h>
#include <infiniband/verbs.h>

#include "uverbs.h"

struct ref_device {
	struct ibv_device dev; /* first: what callers hold */
	struct ref_device *next; /* the devices alive (device.c) */
	unsigned int refs; /* lists and contexts holding it */
	dev_t devt; /* of /dev/infiniband/uverbsN */
	int index; /* the kernel's; -1: not told */
	int driver_id; /* enum rdma_driver_id, or -1 */
	__be64 guid;
};

struct ref_provider;

struct ref_context {
	struct ibv_context ctx; /* first */
	struct ref_device *dev;
	const struct ref_provider *prov;
	uint32_t driver_id; /* for the ioctls */
	bool imported;
};

/* A queue buffer of the kernel's mapped into the process.  A provider
 * whose queues keep no indices of their own (siw's) counts its slots and
 * keeps the process's place in them: the next slot it produces into (a
 * send or receive queue) or consumes from (a CQ). */
struct ref_queue {
	void *addr;
	size_t len;
	uint32_t slots;
	uint32_t next;
};

struct ref_mr {
	struct ibv_mr mr; /* first */
	bool dontfork; /* its pages are kept from fork */
};

/* struct ibv_cq_ex begins with the fields of struct ibv_cq, so one object
 * serves ibv_create_cq(3) and ibv_create_cq_ex(3). */
struct ref_cq {
	struct ibv_cq_ex cq; /* first */
	struct ref_queue q;
	uint64_t wc_flags; /* ibv_create_cq_ex(3)'s */
	pthread_mutex_t lock; /* its queue's consumer (datapath.c) */
	struct ibv_wc cur; /* the extended poll's current one (cq_poll.c) */
};

/* The extended CQ's polling and the readers of @wc_flags (cq_poll.c) */
void ref_cq_poll_init(struct ref_cq *cq, uint64_t wc_flags);

#define REF_SAME_FIELD(f)                          \
	BUILD_ASSERT(offsetof(struct ibv_cq, f) == \
		     offsetof(struct ibv_cq_ex, f))
REF_SAME_FIELD(context);
REF_SAME_FIELD(channel);
REF_SAME_FIELD(cq_context);
REF_SAME_FIELD(handle);
REF_SAME_FIELD(cqe);
REF_SAME_FIELD(mutex);
REF_SAME_FIELD(cond);
REF_SAME_FIELD(comp_events_completed);
REF_SAME_FIELD(async_events_completed);
#undef REF_SAME_FIELD

struct ref_srq {
	struct ibv_srq srq; /* first */
	struct ref_queue q;
	enum ibv_srq_type type;
	uint32_t srq_num; /* XRC only: the kernel's srqn */
	uint32_t max_wr, max_sge; /* as granted */
	pthread_mutex_t lock; /* its queue's producer (datapath.c) */
	/* rxe: where the kernel writes the queue's new place on a resize */
	struct {
		uint64_t offset;
		uint32_t size, pad;
	} remap;
};

/* One WR the send ops of struct ibv_qp_ex build, kept until
 * ibv_wr_complete posts it as ibv_post_send would (qp_ex.c) */
struct ref_wr_stage {
	struct ibv_send_wr wr;
	struct ibv_sge *sge; /* the QP's max_send_sge of them */
	uint8_t *inl; /* its max_inline_data bytes, copied by the setter */
};

struct ref_qp {
	/* first: struct ibv_qp_ex begins with the struct ibv_qp it extends */
	union {
		struct ibv_qp qp;
		struct ibv_qp_ex qpx;
	};
	struct ref_queue sq, rq;
	struct ibv_qp_cap cap; /* as granted */
	bool sq_sig_all;
	/* the producers of its queues (datapath.c) */
	pthread_mutex_t sq_lock, rq_lock;
	uint32_t ssn; /* rxe: the send sequence number of the next WQE */
	/* the send ops asked for (0: none), and the batch between
	 * ibv_wr_start and ibv_wr_complete or ibv_wr_abort */
	uint64_t send_ops;
	struct ref_wr_stage *stage;
	uint32_t nstage;
	int stage_err; /* the first error of the batch, or 0 */
};

BUILD_ASSERT(offsetof(struct ibv_qp_ex, qp_base) == 0);

/* The send ops of @qp for @ops, as struct ibv_qp_ex's function pointers
 * (qp_ex.c): 0 or an errno value.  Freed with the QP. */
int ref_qp_ex_init(struct ref_qp *qp, uint64_t ops);
void ref_qp_ex_free(struct ref_qp *qp);

/* What ibv_post_send and ibv_wr_complete share (datapath.c): whether
 * @qp's send queue takes WRs now, 0 or the errno value of its refusal;
 * 0 or the errno value that refuses @wr on @qp; and the list @wr posted
 * with the send queue's lock held, 0 or the errno value of the WR left
 * in *@bad_wr.  The doorbell both providers ring: uverbs' POST_SEND with
 * no WRs, 0 or the kernel's errno value. */
int ref_sq_takes(struct ref_qp *qp);
int ref_check_send(const struct ref_qp *qp, const struct ibv_send_wr *wr);
int ref_post_send_locked(struct ref_qp *qp, struct ibv_send_wr *wr,
			 struct ibv_send_wr **bad_wr);
int ref_send_doorbell(struct ref_qp *qp);

/* An AH: the kernel's object, and the provider's name for it (rxe's
 * ah_num, which a UD send WQE carries). */
struct ref_ah {
	struct ibv_ah ah; /* first */
	uint32_t ah_num;
};

/* The driver data of one command: what goes in, what comes back. */
struct ref_udata {
	__aligned_u64 in[REF_UDATA_WORDS];
	__aligned_u64 out[REF_UDATA_WORDS];
	uint16_t in_len, out_len; /* bytes */
};

/*
 * One kernel driver's part of the commands.  Each hook is optional: it
 * sets the lengths (and contents) of the driver data going in and out,
 * or takes what came back.  An error of a *_done hook undoes the object
 * (the caller destroys it in the kernel).
 */
struct ref_provider {
	const char *name;
	int driver_id; /* enum rdma_driver_id */
	void (*ctx_in)(struct ref_udata *u);
	int (*ctx_done)(struct ref_context *ctx, const struct ref_udata *u);
	void (*mr_in)(struct ref_udata *u);
	int (*mr_done)(struct ref_mr *mr, const struct ref_udata *u);
	void (*cq_in)(struct ref_udata *u);
	int (*cq_done)(struct ref_cq *cq, const struct ref_udata *u);
	void (*resize_cq_in)(struct ref_udata *u);
	int (*resize_cq_done)(struct ref_cq *cq, const struct ref_udata *u);
	void (*qp_in)(struct ref_udata *u);
	/* may correct @cap: the queues the driver made are what was granted */
	int (*qp_done)(struct ref_qp *qp, const struct ref_udata *u,
		       struct ibv_qp_cap *cap);
	void (*srq_in)(struct ref_udata *u);
	int (*srq_done)(struct ref_srq *srq, const struct ref_udata *u);
	void (*modify_srq_in)(struct ref_srq *srq, struct ref_udata *u);
	int (*modify_srq_done)(struct ref_srq *srq, int mask);
	void (*ah_in)(struct ref_udata *u);
	int (*ah_done)(struct ref_ah *ah, const struct ref_udata *u);
	/*
	 * The data path (dp_<driver>.c), called with the queue's lock held
	 * and each WR already checked against the QP's granted caps
	 * (datapath.c).  post_send_one and post_recv_one write one WQE and
	 * make it the kernel's: 0, ENOMEM when the queue is full, or another
	 * errno value.  send_doorbell tells the kernel the send queue has
	 * new WQEs.  poll_one takes the oldest completion into @wc: 1, or 0
	 * when there is none.  wr_ops: the opcodes its WQEs carry, bit
	 * 1 << enum ibv_wr_opcode (the bits of IBV_QP_EX_WITH_* too).
	 * sq_takes, where the kernel moves a QP's state by itself (iWARP's
	 * connection manager does, and the QP is never moved to RTS by the
	 * process): whether the send queue takes WRs now, 0 or the errno
	 * value of the kernel's refusal; without it, the state the QP was
	 * last moved to or read in decides.
	 */
	uint32_t wr_ops;
	int (*sq_takes)(struct ref_qp *qp);
	/* Arm @cq for its next completion (solicited only, when asked), where
	 * the kernel takes no REQ_NOTIFY_CQ command: 0 or an errno value.
	 * Without it, the kernel's command arms it. */
	int (*req_notify)(struct ref_cq *cq, bool solicited_only);
	int (*post_send_one)(struct ref_qp *qp, const struct ibv_send_wr *wr);
	int (*send_doorbell)(struct ref_qp *qp);
	int (*post_recv_one)(struct ref_queue *q, const struct ibv_recv_wr *wr);
	int (*poll_one)(struct ref_cq *cq, struct ibv_wc *wc);
};

/* The provider of driver @driver_id: rxe, siw, or the one with no driver
 * part (provider.c). */
const struct ref_provider *ref_provider_for(int driver_id);

/* Map @len bytes of the context's queue at @offset: 0 or an errno value.
 * Unmap is safe on a queue never mapped. */
int ref_queue_map(struct ref_context *ctx, struct ref_queue *q, uint64_t offset,
		  size_t len);
void ref_queue_unmap(struct ref_queue *q);

static inline struct ref_context *ref_ctx(struct ibv_context *c)
{
	return (struct ref_context *)c;
}

static inline struct ref_cq *ref_cq(struct ibv_cq *cq)
{
	return (struct ref_cq *)cq;
}

static inline struct ref_qp *ref_qp(struct ibv_qp *qp)
{
	return (struct ref_qp *)qp;
}

static inline struct ref_srq *ref_srq(struct ibv_srq *srq)
{
	return (struct ref_srq *)srq;
}

static inline struct ref_ah *ref_ah(struct ibv_ah *ah)
{
	return (struct ref_ah *)ah;
}

/*
 * A context the reference made, told from libibverbs' own: libibverbs
 * marks each of its contexts as extended (abi_compat set), the reference
 * leaves it NULL (context.c).  The AH calls, which take either side's
 * objects, give the driver its part only on the reference's.
 */
static inline struct ref_context *ref_ctx_own(struct ibv_context *c)
{
	return c && !c->abi_compat ? (struct ref_context *)c : NULL;
}

static inline struct ref_mr *ref_mr(struct ibv_mr *mr)
{
	return (struct ref_mr *)mr;
}

/* The device list (device.c): a reference held on @dev, and dropped. */
void ref_device_get(struct ref_device *dev);
void ref_device_put(struct ref_device *dev);
/* The device whose uverbs node is @devt, with a reference held, or NULL
 * (errno set). */
struct ref_device *ref_device_by_devt(dev_t devt);

/* Fork protection (fork.c): keep [addr, addr + len) from fork while it
 * is registered.  0 or an errno value. */
int ref_dontfork_range(void *addr, size_t len);
int ref_dofork_range(void *addr, size_t len);
bool ref_fork_protecting(void);
/* The first MR registration makes ibv_fork_init(3) too late. */
void ref_fork_note_registration(void);

/* ibv_get_async_event(3): "destroying an object (CQ, SRQ or QP) will wait
 * for all affiliated events for the object to be acknowledged": until
 * *@acked reaches the count the kernel @reported (async.c). */
void ref_events_wait(pthread_mutex_t *m, pthread_cond_t *c,
		     const uint32_t *acked, uint32_t reported);

/* "returns 0 on success, or the value of errno on failure" and the
 * NULL + errno convention, in one place. */
static inline int ref_fail(int err)
{
	errno = err;
	return err;
}

static inline void *ref_fail_null(int err)
{
	errno = err;
	return NULL;
}

#endif
