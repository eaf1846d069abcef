// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A libibverbs with address-handle and multicast bugs, for LD_PRELOAD over
 * the real one; each bug named in RDMACONF_SHIM is on.  The suite must
 * flag every one on rxe.
 *
 *   ah-class       ibv_init_ah_from_wc() leaves traffic_class 0
 *   mcast-noop     ibv_attach_mcast() returns 0 without attaching
 *   ah-stale       ibv_init_ah_from_wc() keeps its answer for a destination
 *                  GID and gives it again, even after the GID is gone
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/verbs.h>

static int bug(const char *name)
{
	const char *s = getenv("RDMACONF_SHIM");

	return s && strstr(s, name);
}

#define REAL(fn) ((__typeof__(&fn))dlsym(RTLD_NEXT, #fn))

/* ah-stale: the last answer and the destination GID it was for */
static struct ibv_ah_attr kept;
static union ibv_gid kept_for;
static int have_kept;

int ibv_init_ah_from_wc(struct ibv_context *context, uint8_t port_num,
			struct ibv_wc *wc, struct ibv_grh *grh,
			struct ibv_ah_attr *ah_attr)
{
	int ret;

	if (bug("ah-stale") && grh && have_kept &&
	    !memcmp(&kept_for, &grh->dgid, sizeof(kept_for))) {
		*ah_attr = kept;
		return 0;
	}
	ret = REAL(ibv_init_ah_from_wc)(context, port_num, wc, grh, ah_attr);
	if (!ret && grh) {
		kept = *ah_attr;
		kept_for = grh->dgid;
		have_kept = 1;
	}
	if (!ret && bug("ah-class"))
		ah_attr->grh.traffic_class = 0;
	return ret;
}

int ibv_attach_mcast(struct ibv_qp *qp, const union ibv_gid *gid, uint16_t lid)
{
	if (bug("mcast-noop"))
		return 0;
	return REAL(ibv_attach_mcast)(qp, gid, lid);
}
