// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * SMI ports and SMI/GSI pairs: umad_open_smi_port(3),
 * umad_get_smi_gsi_pairs(3), umad_get_smi_gsi_pair_by_ca_name(3).
 * Documented by rdma-core after 44.0 (libibumad's IBUMAD_1.3 and 1.4);
 * written from upstream's pages.
 *
 * What has an SMI is the kernel's: QP0, and so subnet management, exists
 * on ports of the InfiniBand link layer only (rdma_cap_ib_smi(); since
 * Linux 6.11 only they get an issm device).  A RoCE or iWARP port has a
 * GSI at the most.  A CA whose SMI and GSI are one device pairs with
 * itself; planarized devices (an SMI and a GSI device per port) are not
 * read here: no target of the suite has one.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref_umad.h"
#include "ca_sysfs.h"
#include "../common/sysfs.h"

static bool port_exists(const char *ca, int port)
{
	char buf[32];

	return port > 0 && port < UMAD_CA_MAX_PORTS &&
	       !ref_sysfs_read(buf, sizeof(buf),
			       REF_SYS_IB "/%s/ports/%d/state", ca, port);
}

static bool port_has_smi(const char *ca, int port)
{
	char buf[32];

	/* a port without the attribute is of InfiniBand (before 2.6.37) */
	if (!port_exists(ca, port))
		return false;
	return ref_sysfs_read(buf, sizeof(buf),
			      REF_SYS_IB "/%s/ports/%d/link_layer", ca, port) ||
	       !strcmp(buf, "InfiniBand");
}

/* The first port of @ca with an SMI, an ACTIVE one first; 0: none */
static int smi_port_of(const char *ca)
{
	int p, first = 0;

	for (p = 1; p < UMAD_CA_MAX_PORTS; p++) {
		if (!port_has_smi(ca, p))
			continue;
		if (ref_umad_port_active(ca, p))
			return p;
		if (!first)
			first = p;
	}
	return first;
}

/*
 * "The port is selected by the library if not all parameters are
 * provided (see umad_get_port() for details). Only SMI ports will be
 * selected."  -ENODEV "IB device with SMI port can't be resolved", -EINVAL
 * "port is not valid (bad portnum or no umad device)", and the rest as
 * umad_open_port.
 */
int ref_umad_open_smi_port(char *ca_name, int portnum)
{
	/* zero: no byte the sort sees is left from an earlier call */
	char names[UMAD_MAX_DEVICES][UMAD_CA_NAME_LEN] = {};
	int i, n;

	if (portnum < 0 || portnum >= UMAD_CA_MAX_PORTS)
		return -EINVAL;
	if (!ca_name) {
		n = ref_umad_get_cas_names(names, UMAD_MAX_DEVICES);
		for (i = 0; i < n; i++)
			if (portnum ? port_has_smi(names[i], portnum) :
				      smi_port_of(names[i]))
				break;
		if (i >= n || n <= 0)
			return -ENODEV;
		ca_name = names[i];
	}
	if (!smi_port_of(ca_name))
		return -ENODEV;
	if (!portnum)
		portnum = smi_port_of(ca_name);
	else if (!port_has_smi(ca_name, portnum))
		return -EINVAL;
	return ref_umad_open_port(ca_name, portnum);
}

static void pair_of(const char *ca, int port, struct rc_umad_ca_pair *pair)
{
	memset(pair, 0, sizeof(*pair));
	snprintf(pair->gsi_name, sizeof(pair->gsi_name), "%s", ca);
	pair->gsi_preferred_port = port;
	if (port_has_smi(ca, port)) {
		snprintf(pair->smi_name, sizeof(pair->smi_name), "%s", ca);
		pair->smi_preferred_port = port;
	}
}

/*
 * "fills a user-allocated array of struct umad_ca_pair. It fills up to
 * max devices."  "The smi_preferred_port and gsi_preferred_port fields
 * represent the first ports found active for the corresponding SMI/GSI
 * device."  A CA without an SMI is no SMI/GSI pair (upstream's
 * "libibumad: exclude Ethernet ports from SMI/GSI pairs" reads it so).
 */
int ref_umad_get_smi_gsi_pairs(struct rc_umad_ca_pair cas[], size_t max)
{
	/* zero: no byte the sort sees is left from an earlier call */
	char names[UMAD_MAX_DEVICES][UMAD_CA_NAME_LEN] = {};
	int i, n, p;
	size_t k = 0;

	if (!cas && max)
		return -1;
	n = ref_umad_get_cas_names(names, UMAD_MAX_DEVICES);
	if (n < 0)
		return -1;
	for (i = 0; i < n && k < max; i++) {
		p = smi_port_of(names[i]);
		if (p)
			pair_of(names[i], p, &cas[k++]);
	}
	return k;
}

/*
 * "0: If the specified device and port are found and the structure is
 * successfully populated. - 1: If no matching device or port is found."
 * "enforce_smi parameter if enabled, will look only for pairs that has
 * both SMI and GSI interfaces."
 */
int ref_umad_get_smi_gsi_pair_by_ca_name(const char *devname, uint8_t portnum,
					 struct rc_umad_ca_pair *ca,
					 unsigned enforce_smi)
{
	if (!devname || !ca || !port_exists(devname, portnum))
		return 1;
	if (enforce_smi && !port_has_smi(devname, portnum))
		return 1;
	pair_of(devname, portnum, ca);
	return 0;
}
