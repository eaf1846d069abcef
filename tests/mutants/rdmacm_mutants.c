// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Mutants of librdmacm's rdma_leave_multicast. */
#include <rdma/rdma_cma.h>

#include "mutant.h"

MUTANT(leave_noop, "rdma_leave_multicast", "noop", "returns 0, leaves nothing");
MUTANT(leave_fail, "rdma_leave_multicast", "fails", "-1 (EINVAL) always");
MUTANT(leave_ok, "rdma_leave_multicast", "never-fails", "0 where it fails");
MUTANT(leave_errno, "rdma_leave_multicast", "errno-as-return",
       "a failure returned as the errno value");

int rdma_leave_multicast(struct rdma_cm_id *id, struct sockaddr *addr)
{
	int ret;

	if (mutant_on(&leave_noop))
		return 0;
	if (mutant_on(&leave_fail)) {
		errno = EINVAL;
		return -1;
	}
	ret = REAL(rdma_leave_multicast)(id, addr);
	if (ret && mutant_on(&leave_ok))
		return 0;
	return ret && mutant_on(&leave_errno) ? errno : ret;
}

MUTANT(join_noop, "rdma_join_multicast", "noop", "returns 0, joins nothing");
MUTANT(join_ctx, "rdma_join_multicast", "context-lost",
       "the join's context not passed on");
MUTANT(join_fail, "rdma_join_multicast", "fails", "-1 (EINVAL) always");

int rdma_join_multicast(struct rdma_cm_id *id, struct sockaddr *addr,
			void *context)
{
	if (mutant_on(&join_noop))
		return 0;
	if (mutant_on(&join_fail)) {
		errno = EINVAL;
		return -1;
	}
	return REAL(rdma_join_multicast)(id, addr,
					 mutant_on(&join_ctx) ? NULL : context);
}

MUTANT(joinx_flags, "rdma_join_multicast_ex", "flags-ignored",
       "every join a full member's");
MUTANT(joinx_mask, "rdma_join_multicast_ex", "mask-unchecked",
       "comp_mask bits it does not know are dropped");
MUTANT(joinx_fail, "rdma_join_multicast_ex", "fails", "-1 (EINVAL) always");

int rdma_join_multicast_ex(struct rdma_cm_id *id,
			   struct rdma_cm_join_mc_attr_ex *attr, void *context)
{
	struct rdma_cm_join_mc_attr_ex a;

	if (mutant_on(&joinx_fail)) {
		errno = EINVAL;
		return -1;
	}
	if (!attr)
		return REAL(rdma_join_multicast_ex)(id, attr, context);
	a = *attr;
	if (mutant_on(&joinx_flags))
		a.join_flags = RDMA_MC_JOIN_FLAG_FULLMEMBER;
	if (mutant_on(&joinx_mask))
		a.comp_mask &= RDMA_CM_JOIN_MC_ATTR_ADDRESS |
			       RDMA_CM_JOIN_MC_ATTR_JOIN_FLAGS;
	return REAL(rdma_join_multicast_ex)(id, &a, context);
}
