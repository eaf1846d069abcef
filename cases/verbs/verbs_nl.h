/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the kernel's RDMA netlink (NETLINK_RDMA, RDMA_NL_NLDEV) says of the
 * target device, asked directly, as `rdma dev`, `rdma res show mr` and
 * `rdma sys` ask it: where the control-path rows check that a call's
 * effect landed.  A socket and a dump each, no process started: rows run
 * many at a time on a machine of two cores.
 */
#ifndef RDMACONF_CASES_VERBS_NL_H
#define RDMACONF_CASES_VERBS_NL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The kernel's index of device @name, or -1. */
int vn_dev_index(const char *name);
/* This process's MR of @lkey on device @name: true when the kernel has
 * one, with its length and rkey. */
bool vn_mr(const char *name, uint32_t lkey, uint64_t *len, uint32_t *rkey);
/* 1: the kernel copies DMA pages on fork, 0: it does not, -1: it cannot
 * say (RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK). */
int vn_copy_on_fork(void);
/* The name of the netdev under port @port of device @name (`rdma link`'s
 * netdev): true when the kernel names one. */
bool vn_port_netdev(const char *name, int port, char *buf, size_t len);

#endif
