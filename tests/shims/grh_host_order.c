// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A broken libibumad, for LD_PRELOAD: umad_set_grh() stores flow_label in
 * host order instead of network order.  The suite must flag FAIL + DIVERGE.
 */
#include <infiniband/umad.h>

int umad_set_grh(void *umad, void *mad_addr)
{
	struct ib_user_mad *mad = umad;
	ib_mad_addr_t *addr = mad_addr;

	if (!addr) {
		mad->addr.grh_present = 0;
		return 0;
	}
	mad->addr.grh_present = 1;
	mad->addr.ib_gid = addr->ib_gid;
	mad->addr.flow_label = addr->flow_label; /* the bug */
	mad->addr.hop_limit = addr->hop_limit;
	mad->addr.traffic_class = addr->traffic_class;
	return 0;
}
