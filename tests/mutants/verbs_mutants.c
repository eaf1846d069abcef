// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Mutants of libibverbs' address-handle and multicast calls: each breaks
 * one documented behaviour and passes everything else through.
 */
#include <stdlib.h>
#include <string.h>
#include <infiniband/verbs.h>

#include "mutant.h"

/* ibv_create_ah */
MUTANT(ah_fail, "ibv_create_ah", "fails", "NULL (EINVAL) for every request");
MUTANT(ah_port, "ibv_create_ah", "port-unchecked",
       "a port that is not the device's is taken as port 1");
MUTANT(ah_grh, "ibv_create_ah", "grh-added",
       "an attribute without GRH gets one (sgid_index 0)");
MUTANT(ah_dgid, "ibv_create_ah", "dgid-zeroed", "addressed to GID ::");

struct ibv_ah *ibv_create_ah(struct ibv_pd *pd, struct ibv_ah_attr *attr)
{
	struct ibv_ah_attr a;

	if (mutant_on(&ah_fail)) {
		errno = EINVAL;
		return NULL;
	}
	if (!attr)
		return REAL(ibv_create_ah)(pd, attr);
	a = *attr;
	if (mutant_on(&ah_port) && (a.port_num < 1 || a.port_num > 1))
		a.port_num = 1;
	if (mutant_on(&ah_grh) && !a.is_global) {
		a.is_global = 1;
		a.grh.hop_limit = 64;
	}
	if (mutant_on(&ah_dgid))
		memset(&a.grh.dgid, 0, sizeof(a.grh.dgid));
	return REAL(ibv_create_ah)(pd, &a);
}

/* ibv_destroy_ah */
MUTANT(dah_noop, "ibv_destroy_ah", "noop", "returns 0, destroys nothing");
MUTANT(dah_sign, "ibv_destroy_ah", "negative-errno",
       "a failure returned as -errno");

int ibv_destroy_ah(struct ibv_ah *ah)
{
	int ret;

	if (mutant_on(&dah_noop))
		return 0;
	ret = REAL(ibv_destroy_ah)(ah);
	return ret > 0 && mutant_on(&dah_sign) ? -ret : ret;
}

/* ibv_init_ah_from_wc */
MUTANT(init_class, "ibv_init_ah_from_wc", "traffic-class-zero",
       "grh.traffic_class 0");
MUTANT(init_flow, "ibv_init_ah_from_wc", "flow-label-zero", "grh.flow_label 0");
MUTANT(init_sl, "ibv_init_ah_from_wc", "sl-zero", "sl 0");
MUTANT(init_bits, "ibv_init_ah_from_wc", "path-bits-zero", "src_path_bits 0");
MUTANT(init_sgid, "ibv_init_ah_from_wc", "sgid-index-zero", "grh.sgid_index 0");
MUTANT(init_dgid, "ibv_init_ah_from_wc", "dgid-zeroed", "grh.dgid ::");
MUTANT(init_global, "ibv_init_ah_from_wc", "is-global-always",
       "is_global 1 without a GRH");
MUTANT(init_fail, "ibv_init_ah_from_wc", "fails", "-1 (EINVAL) always");
MUTANT(init_succeed, "ibv_init_ah_from_wc", "never-fails", "0 where it fails");
MUTANT(init_stale, "ibv_init_ah_from_wc", "stale",
       "gives its last answer for a destination GID again");

int ibv_init_ah_from_wc(struct ibv_context *context, uint8_t port_num,
			struct ibv_wc *wc, struct ibv_grh *grh,
			struct ibv_ah_attr *ah_attr)
{
	static struct ibv_ah_attr kept;
	static union ibv_gid kept_for;
	static bool have_kept;
	int ret;

	if (mutant_on(&init_fail)) {
		errno = EINVAL;
		return -1;
	}
	if (mutant_on(&init_stale) && grh && have_kept &&
	    !memcmp(&kept_for, &grh->dgid, sizeof(kept_for))) {
		*ah_attr = kept;
		return 0;
	}
	ret = REAL(ibv_init_ah_from_wc)(context, port_num, wc, grh, ah_attr);
	if (ret && mutant_on(&init_succeed))
		return 0;
	if (ret)
		return ret;
	if (grh) {
		kept = *ah_attr;
		kept_for = grh->dgid;
		have_kept = true;
	}
	if (mutant_on(&init_class))
		ah_attr->grh.traffic_class = 0;
	if (mutant_on(&init_flow))
		ah_attr->grh.flow_label = 0;
	if (mutant_on(&init_sl))
		ah_attr->sl = 0;
	if (mutant_on(&init_bits))
		ah_attr->src_path_bits = 0;
	if (mutant_on(&init_sgid))
		ah_attr->grh.sgid_index = 0;
	if (mutant_on(&init_dgid))
		memset(&ah_attr->grh.dgid, 0, sizeof(ah_attr->grh.dgid));
	if (mutant_on(&init_global))
		ah_attr->is_global = 1;
	return ret;
}

/* ibv_create_ah_from_wc */
MUTANT(fromwc_fail, "ibv_create_ah_from_wc", "fails", "NULL (EINVAL) always");
MUTANT(fromwc_sgid, "ibv_create_ah_from_wc", "reply-to-itself",
       "the reply addressed to the receiver's own GID");

struct ibv_ah *ibv_create_ah_from_wc(struct ibv_pd *pd, struct ibv_wc *wc,
				     struct ibv_grh *grh, uint8_t port_num)
{
	struct ibv_grh g;

	if (mutant_on(&fromwc_fail)) {
		errno = EINVAL;
		return NULL;
	}
	if (mutant_on(&fromwc_sgid) && grh) {
		g = *grh;
		g.sgid = g.dgid;
		grh = &g;
	}
	return REAL(ibv_create_ah_from_wc)(pd, wc, grh, port_num);
}

/* ibv_attach_mcast, ibv_detach_mcast */
MUTANT(att_noop, "ibv_attach_mcast", "noop", "returns 0, attaches nothing");
MUTANT(att_fail, "ibv_attach_mcast", "fails", "EINVAL always");
MUTANT(att_twice, "ibv_attach_mcast", "twice-fails",
       "a second attach of one group fails");
MUTANT(att_sign, "ibv_attach_mcast", "negative-errno",
       "a failure returned as -errno");

int ibv_attach_mcast(struct ibv_qp *qp, const union ibv_gid *gid, uint16_t lid)
{
	static union ibv_gid last;
	static struct ibv_qp *last_qp;
	int ret;

	if (mutant_on(&att_noop))
		return 0;
	if (mutant_on(&att_fail))
		return EINVAL;
	if (mutant_on(&att_twice) && qp == last_qp &&
	    !memcmp(gid, &last, sizeof(last)))
		return EEXIST;
	ret = REAL(ibv_attach_mcast)(qp, gid, lid);
	if (!ret) {
		last = *gid;
		last_qp = qp;
	}
	return ret > 0 && mutant_on(&att_sign) ? -ret : ret;
}

MUTANT(det_noop, "ibv_detach_mcast", "noop", "returns 0, detaches nothing");
MUTANT(det_fail, "ibv_detach_mcast", "fails", "EINVAL always");
MUTANT(det_ok, "ibv_detach_mcast", "never-fails", "0 where it fails");

int ibv_detach_mcast(struct ibv_qp *qp, const union ibv_gid *gid, uint16_t lid)
{
	int ret;

	if (mutant_on(&det_noop))
		return 0;
	if (mutant_on(&det_fail))
		return EINVAL;
	ret = REAL(ibv_detach_mcast)(qp, gid, lid);
	return mutant_on(&det_ok) ? 0 : ret;
}

/* The GID table.  ibv_query_gid_ex and ibv_query_gid_table are inline in
 * <infiniband/verbs.h> over _ibv_query_gid_ex and _ibv_query_gid_table,
 * the symbols a caller binds: those are broken here. */
MUTANT(qg_next, "ibv_query_gid", "next-index", "the entry after the one asked");
MUTANT(qg_swap, "ibv_query_gid", "byte-swapped", "the GID's bytes reversed");
MUTANT(qg_unused, "ibv_query_gid", "unused-fails",
       "-1 for an entry that holds no GID");

int ibv_query_gid(struct ibv_context *context, uint8_t port_num, int index,
		  union ibv_gid *gid)
{
	union ibv_gid g;
	int ret, i;

	ret = REAL(ibv_query_gid)(context, port_num,
				  mutant_on(&qg_next) ? index + 1 : index, gid);
	if (ret)
		return ret;
	if (mutant_on(&qg_unused) && !gid->global.subnet_prefix &&
	    !gid->global.interface_id) {
		errno = ENODATA;
		return -1;
	}
	if (mutant_on(&qg_swap)) {
		g = *gid;
		for (i = 0; i < 16; i++)
			gid->raw[i] = g.raw[15 - i];
	}
	return ret;
}

MUTANT(qgx_ifindex, "ibv_query_gid_ex", "ndev-ifindex-zero", "ndev_ifindex 0");
MUTANT(qgx_type, "ibv_query_gid_ex", "gid-type-v1", "gid_type RoCE v1");
MUTANT(qgx_enodata, "ibv_query_gid_ex", "enodata-as-einval",
       "EINVAL for an unused entry");
MUTANT(qgx_flags, "ibv_query_gid_ex", "flags-ignored", "any flags taken");

int _ibv_query_gid_ex(struct ibv_context *context, uint32_t port_num,
		      uint32_t gid_index, struct ibv_gid_entry *entry,
		      uint32_t flags, size_t entry_size)
{
	int ret = REAL(_ibv_query_gid_ex)(context, port_num, gid_index, entry,
					  mutant_on(&qgx_flags) ? 0 : flags,
					  entry_size);

	if (ret == ENODATA && mutant_on(&qgx_enodata))
		return EINVAL;
	if (ret)
		return ret;
	if (mutant_on(&qgx_ifindex))
		entry->ndev_ifindex = 0;
	if (mutant_on(&qgx_type))
		entry->gid_type = IBV_GID_TYPE_ROCE_V1;
	return 0;
}

MUTANT(qgt_drop, "ibv_query_gid_table", "last-entry-dropped",
       "one entry fewer");
MUTANT(qgt_max, "ibv_query_gid_table", "too-small-truncates",
       "max_entries entries and success where it must fail");
MUTANT(qgt_stale, "ibv_query_gid_table", "stale",
       "gives its first answer again");

ssize_t _ibv_query_gid_table(struct ibv_context *context,
			     struct ibv_gid_entry *entries, size_t max_entries,
			     uint32_t flags, size_t entry_size)
{
	static struct ibv_gid_entry kept[256];
	static ssize_t nkept = -1;
	struct ibv_gid_entry all[256];
	ssize_t n;

	if (mutant_on(&qgt_stale) && nkept >= 0 &&
	    nkept <= (ssize_t)max_entries) {
		memcpy(entries, kept, nkept * sizeof(*entries));
		return nkept;
	}
	if (mutant_on(&qgt_max) && max_entries && max_entries < 256 && !flags) {
		n = REAL(_ibv_query_gid_table)(context, all, 256, flags,
					       entry_size);
		if (n > (ssize_t)max_entries) {
			memcpy(entries, all, max_entries * sizeof(*entries));
			return max_entries;
		}
	}
	n = REAL(_ibv_query_gid_table)(context, entries, max_entries, flags,
				       entry_size);
	if (n > 0 && n <= 256 && nkept < 0) {
		memcpy(kept, entries, n * sizeof(*entries));
		nkept = n;
	}
	return n > 0 && mutant_on(&qgt_drop) ? n - 1 : n;
}
