/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * struct umad_ca_pair, as umad_get_smi_gsi_pairs(3) gives it: newer
 * <infiniband/umad.h> (libibumad's IBUMAD_1.4) declares it, 44.0's has
 * none.  The same layout, under a name of the suite's own, so that the
 * suite builds against either header.
 */
#ifndef RDMACONF_REF_UMAD_PAIR_H
#define RDMACONF_REF_UMAD_PAIR_H

#include <stdint.h>
#include <infiniband/umad.h>

struct rc_umad_ca_pair {
	char smi_name[UMAD_CA_NAME_LEN]; /* Name of the SMI */
	uint32_t smi_preferred_port; /* Preferred port for the SMI */
	char gsi_name[UMAD_CA_NAME_LEN]; /* Name of the GSI */
	uint32_t gsi_preferred_port; /* Preferred port for the GSI */
};

#endif
