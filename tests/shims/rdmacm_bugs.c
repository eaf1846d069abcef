// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A librdmacm whose rdma_leave_multicast() reports success and does
 * nothing (RDMACONF_SHIM=leave-noop), for LD_PRELOAD over the real one.
 * The suite must see that messages still arrive after the "leave".
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include <rdma/rdma_cma.h>

int rdma_leave_multicast(struct rdma_cm_id *id, struct sockaddr *addr)
{
	const char *s = getenv("RDMACONF_SHIM");

	if (s && strstr(s, "leave-noop"))
		return 0;
	return ((__typeof__(&rdma_leave_multicast))dlsym(
		RTLD_NEXT, "rdma_leave_multicast"))(id, addr);
}
