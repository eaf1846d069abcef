/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the kernel's RDMA netlink interface (NETLINK_RDMA, client
 * RDMA_NL_NLDEV, <rdma/rdma_netlink.h>) tells that sysfs does not: the
 * stable device index, the driver id of a device's uverbs node, and
 * whether DMA pages are copied on fork.
 */
#ifndef RDMACONF_REF_NLDEV_H
#define RDMACONF_REF_NLDEV_H

#include <stddef.h>
#include <stdint.h>

struct ref_nldev {
	uint32_t index;
	char name[64];
};

/* Every RDMA device the kernel has, up to @max into @out: how many there
 * are, or -errno (no netlink for RDMA: an old kernel). */
int ref_nldev_devices(struct ref_nldev *out, int max);

/* The uverbs node of device @index: its device number (as stat() has it),
 * its name ("uverbs0"), the driver id its ioctls need (-1 when the kernel
 * does not say).  0 or -errno. */
int ref_nldev_uverbs(uint32_t index, uint64_t *devt, char *name, size_t len,
		     int *driver_id);

/* 1: the kernel copies DMA-pinned pages on fork (RDMA_NLDEV_SYS_ATTR_
 * COPY_ON_FORK), 0: it does not, or cannot say. */
int ref_nldev_copy_on_fork(void);

#endif
