/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the reference reads of a CA's ports in sysfs, decided once in
 * device.c for the calls of device.c and smi.c.
 */
#ifndef RDMACONF_REF_UMAD_CA_SYSFS_H
#define RDMACONF_REF_UMAD_CA_SYSFS_H

#include <stdbool.h>

/* Is port @port of CA @ca ACTIVE (sysfs "4: ACTIVE")? */
bool ref_umad_port_active(const char *ca, int port);

#endif
