// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_create_srq(3): "Allocate a SRQ associated with the specified
 * rdma_cm_id."  NOTES: "The rdma_cm_id must be bound to a local RDMA
 * device before calling this function, and the protection domain, if
 * provided, must be for that same device."  "If a protection domain is
 * not given - pd parameter is NULL - then the rdma_cm_id will be created
 * using a default protection domain."  "The actual capabilities and
 * properties of the created SRQ will be returned to the user through the
 * attr parameter.  An rdma_cm_id may only be associated with a single
 * SRQ."  rdma_destroy_srq(3): "Destroy an SRQ allocated on the
 * rdma_cm_id."
 *
 * A basic SRQ of the id's context: the verbs reference's for a connected
 * id, libibverbs' for a datagram one (whose context is libibverbs').  The
 * default PD is the device's, the one its QPs use when they have none
 * given (ref_cm_default_pd).  XRC SRQs are not made here.
 */
#include "cm_priv.h"
#include "../verbs/ref_verbs.h"

int ref_rdma_create_srq(struct rdma_cm_id *id, struct ibv_pd *pd,
			struct ibv_srq_init_attr *attr)
{
	struct ref_id *r = ref_of(id);
	struct ibv_srq *srq;

	if (!id || !attr || !id->verbs || id->srq)
		return ref_cm_fail(EINVAL);
	if (pd && pd->context != id->verbs)
		return ref_cm_fail(EINVAL);
	if (!pd && !(pd = ref_cm_default_pd(r)))
		return -1;
	srq = ref_cm_datagram(r) ? ibv_create_srq(pd, attr) :
				   ref_ibv_create_srq(pd, attr);
	if (!srq)
		return ref_cm_fail(errno);
	id->srq = srq;
	id->pd = pd;
	return 0;
}

void ref_rdma_destroy_srq(struct rdma_cm_id *id)
{
	struct ref_id *r = ref_of(id);

	if (!id || !id->srq)
		return;
	(ref_cm_datagram(r) ? ibv_destroy_srq : ref_ibv_destroy_srq)(id->srq);
	id->srq = NULL;
}
