// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Mutants of librdmacm's rdma_leave_multicast. */
#include <rdma/rdma_cma.h>

#include "mutant.h"

MUTANT(leave_noop, "rdma_leave_multicast", "noop",
       "returns 0, leaves nothing");
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
