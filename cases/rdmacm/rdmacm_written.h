/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the rows of rdma-core 60's librdmacm calls (rdma_write_cm_event,
 * rdma_resolve_addrinfo, rdma_query_addrinfo) share: the names Debian
 * 12's <rdma/rdma_cma.h> lacks, as upstream's pages and header give them
 * (the events after RDMA_CM_EVENT_TIMEWAIT_EXIT in order, and the two
 * resolution flags), kept apart from the reference's own copy so that
 * the rows do not share its reading; and whether the kernel takes
 * written events at all.
 */
#ifndef RDMACONF_CASES_RDMACM_WRITTEN_H
#define RDMACONF_CASES_RDMACM_WRITTEN_H

#include "rdmacm_conn.h"

#define CM_EVENT_ADDRINFO_RESOLVED 16
#define CM_EVENT_ADDRINFO_ERROR 17
#define CM_EVENT_USER 18
#define CM_EVENT_INTERNAL 19
#define CM_RAI_SA 0x00000010
#define CM_RAI_DNS 0x00000020

/* Both calls build on the kernel's WRITE_CM_EVENT command (Linux 6.15
 * and later): 1 when the kernel has it, 0 when not, -1 (errno) when the
 * rdma_cm device cannot be opened; cm_kernel_writes_events makes the row
 * a SKIP that says so (BROKEN for no device) unless it has. */
int cm_written_events(void);
bool cm_kernel_writes_events(struct rc_ctx *ctx);

#endif
