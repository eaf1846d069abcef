// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * <rdma/rdma_verbs.h>'s registrations, inline in that header (the system
 * side is harness/impl.c's wrapper of them).  rdma_reg_msgs(3): "The
 * memory buffer is registered with the proteection domain associated
 * with the idenfier.  The start of the data buffer array is specified
 * through the addr parameter, and the total size of the array is given
 * by length."  Its buffers are sent from and received into: local write.
 * rdma_reg_read(3): "Registers a memory buffer that will be accessed by a
 * remote RDMA read operation"; rdma_reg_write(3) likewise for a remote
 * write: that remote access, and local write (which the IBA asks of a
 * remotely writable MR, and a buffer the caller fills).  rdma_dereg_mr
 * (3): "Returns 0 on success, or -1 on error."
 *
 * The id's PD is id->pd (its QP's or SRQ's): the verbs reference's for a
 * connected id, libibverbs' for a datagram one (cm.c).  An id without one
 * has no domain to register with: NULL and EINVAL (our reading).
 */
#include "cm_priv.h"
#include "../verbs/ref_verbs.h"

static struct ibv_mr *reg(struct rdma_cm_id *id, void *addr, size_t length,
			  int access)
{
	if (!id || !id->pd) {
		errno = EINVAL;
		return NULL;
	}
	return id->qp_type == IBV_QPT_UD ?
		       ibv_reg_mr(id->pd, addr, length, access) :
		       ref_ibv_reg_mr(id->pd, addr, length, access);
}

struct ibv_mr *ref_rdma_reg_msgs(struct rdma_cm_id *id, void *addr,
				 size_t length)
{
	return reg(id, addr, length, IBV_ACCESS_LOCAL_WRITE);
}

struct ibv_mr *ref_rdma_reg_read(struct rdma_cm_id *id, void *addr,
				 size_t length)
{
	return reg(id, addr, length,
		   IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ);
}

struct ibv_mr *ref_rdma_reg_write(struct rdma_cm_id *id, void *addr,
				  size_t length)
{
	return reg(id, addr, length,
		   IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
}

int ref_rdma_dereg_mr(struct ibv_mr *mr)
{
	int err;

	if (!mr)
		return ref_cm_fail(EINVAL);
	/* the verbs reference's contexts carry its data path */
	err = mr->context->ops.post_send == ref_ibv_post_send ?
		      ref_ibv_dereg_mr(mr) :
		      ibv_dereg_mr(mr);
	return err ? ref_cm_fail(err) : 0;
}
