/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What every reference library reads from sysfs
 * (Documentation/ABI/stable/sysfs-class-infiniband): one-line attributes
 * and GIDs.  Shared by the reference libibumad and libibverbs; never by the
 * harness, which keeps its own view of the device.
 */
#ifndef RDMACONF_REF_SYSFS_H
#define RDMACONF_REF_SYSFS_H

#include <stddef.h>
#include <stdint.h>

#define REF_SYS_IB "/sys/class/infiniband"
#define REF_SYS_MAD "/sys/class/infiniband_mad"

/* The attribute at the formatted path, trailing newlines cut: 0 or -errno. */
int ref_sysfs_read(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* "fe80:0000:...:2ec6" (eight 16-bit groups) -> 16 bytes: 0 or -EINVAL */
int ref_parse_gid(const char *s, uint8_t gid[16]);

#endif
