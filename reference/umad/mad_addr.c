// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The umad buffer helpers: umad_get_mad(3), umad_size(3), umad_status(3),
 * umad_get_mad_addr(3), umad_set_grh(3), umad_set_grh_net(3),
 * umad_set_addr(3), umad_set_addr_net(3), umad_set_pkey(3), umad_get_pkey(3).
 *
 * A umad buffer is the kernel's struct ib_user_mad_hdr followed by the MAD.
 * The header's address fields are in network order except pkey_index, which
 * the ABI keeps in host order.  Fields are written through explicit offsets
 * so the byte layout is stated here once and checked against the header.
 */
#include <endian.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ref_umad.h"

#define BUILD_ASSERT(cond) _Static_assert(cond, #cond)

BUILD_ASSERT(sizeof(struct ib_user_mad) == REF_UMAD_HDR_SIZE);
BUILD_ASSERT(offsetof(struct ib_user_mad, agent_id) == REF_UMAD_OFF_AGENT_ID);
BUILD_ASSERT(offsetof(struct ib_user_mad, status) == REF_UMAD_OFF_STATUS);
BUILD_ASSERT(offsetof(struct ib_user_mad, timeout_ms) ==
	     REF_UMAD_OFF_TIMEOUT_MS);
BUILD_ASSERT(offsetof(struct ib_user_mad, retries) == REF_UMAD_OFF_RETRIES);
BUILD_ASSERT(offsetof(struct ib_user_mad, length) == REF_UMAD_OFF_LENGTH);
BUILD_ASSERT(offsetof(struct ib_user_mad, addr) == REF_UMAD_OFF_QPN);
BUILD_ASSERT(offsetof(struct ib_user_mad, data) == REF_UMAD_HDR_SIZE);
BUILD_ASSERT(sizeof(ib_mad_addr_t) == REF_UMAD_ADDR_SIZE);
BUILD_ASSERT(REF_UMAD_OFF_QPN + offsetof(ib_mad_addr_t, qkey) ==
	     REF_UMAD_OFF_QKEY);
BUILD_ASSERT(REF_UMAD_OFF_QPN + offsetof(ib_mad_addr_t, lid) ==
	     REF_UMAD_OFF_LID);
BUILD_ASSERT(REF_UMAD_OFF_QPN + offsetof(ib_mad_addr_t, sl) == REF_UMAD_OFF_SL);
BUILD_ASSERT(REF_UMAD_OFF_QPN + offsetof(ib_mad_addr_t, path_bits) ==
	     REF_UMAD_OFF_PATH_BITS);
BUILD_ASSERT(REF_UMAD_OFF_QPN + offsetof(ib_mad_addr_t, grh_present) ==
	     REF_UMAD_OFF_GRH_PRESENT);
BUILD_ASSERT(REF_UMAD_OFF_QPN + offsetof(ib_mad_addr_t, gid_index) ==
	     REF_UMAD_OFF_GID_INDEX);
BUILD_ASSERT(REF_UMAD_OFF_QPN + offsetof(ib_mad_addr_t, hop_limit) ==
	     REF_UMAD_OFF_HOP_LIMIT);
BUILD_ASSERT(REF_UMAD_OFF_QPN + offsetof(ib_mad_addr_t, traffic_class) ==
	     REF_UMAD_OFF_TRAFFIC_CLASS);
BUILD_ASSERT(REF_UMAD_OFF_QPN + offsetof(ib_mad_addr_t, gid) ==
	     REF_UMAD_OFF_GID);
BUILD_ASSERT(REF_UMAD_OFF_QPN + offsetof(ib_mad_addr_t, flow_label) ==
	     REF_UMAD_OFF_FLOW_LABEL);
BUILD_ASSERT(REF_UMAD_OFF_QPN + offsetof(ib_mad_addr_t, pkey_index) ==
	     REF_UMAD_OFF_PKEY_INDEX);
BUILD_ASSERT(REF_UMAD_OFF_QPN + offsetof(ib_mad_addr_t, reserved) ==
	     REF_UMAD_OFF_RESERVED);

static void put_be16(void *umad, size_t off, uint16_t v)
{
	v = htobe16(v);
	memcpy((uint8_t *)umad + off, &v, sizeof(v));
}

static void put_be32(void *umad, size_t off, uint32_t v)
{
	v = htobe32(v);
	memcpy((uint8_t *)umad + off, &v, sizeof(v));
}

static void put_u8(void *umad, size_t off, uint8_t v)
{
	((uint8_t *)umad)[off] = v;
}

static void put_raw(void *umad, size_t off, const void *src, size_t len)
{
	memcpy((uint8_t *)umad + off, src, len);
}

void *ref_umad_get_mad(void *umad)
{
	return (uint8_t *)umad + REF_UMAD_HDR_SIZE;
}

size_t ref_umad_size(void)
{
	return REF_UMAD_HDR_SIZE;
}

int ref_umad_status(void *umad)
{
	uint32_t status;

	memcpy(&status, (uint8_t *)umad + REF_UMAD_OFF_STATUS, sizeof(status));
	return status;
}

ib_mad_addr_t *ref_umad_get_mad_addr(void *umad)
{
	return (ib_mad_addr_t *)((uint8_t *)umad + REF_UMAD_OFF_QPN);
}

/*
 * "sets the GRH fields (grh_present, gid, hop_limit, traffic_class,
 * flow_label) ... If the mad_addr pointer supplied is NULL, no GRH is set."
 * The caller's mad_addr is read field by field: it need not be aligned.
 */
static int set_grh(void *umad, const void *mad_addr, bool host_order)
{
	const uint8_t *src = mad_addr;
	uint32_t flow;

	if (!mad_addr) {
		put_u8(umad, REF_UMAD_OFF_GRH_PRESENT, 0);
		return 0;
	}
	put_u8(umad, REF_UMAD_OFF_GRH_PRESENT, 1);
	put_raw(umad, REF_UMAD_OFF_GID, src + offsetof(ib_mad_addr_t, gid), 16);
	put_u8(umad, REF_UMAD_OFF_HOP_LIMIT,
	       src[offsetof(ib_mad_addr_t, hop_limit)]);
	put_u8(umad, REF_UMAD_OFF_TRAFFIC_CLASS,
	       src[offsetof(ib_mad_addr_t, traffic_class)]);
	memcpy(&flow, src + offsetof(ib_mad_addr_t, flow_label), sizeof(flow));
	if (host_order)
		put_be32(umad, REF_UMAD_OFF_FLOW_LABEL, flow);
	else
		put_raw(umad, REF_UMAD_OFF_FLOW_LABEL, &flow, sizeof(flow));
	return 0;
}

int ref_umad_set_grh(void *umad, void *mad_addr)
{
	return set_grh(umad, mad_addr, true);
}

int ref_umad_set_grh_net(void *umad, void *mad_addr)
{
	return set_grh(umad, mad_addr, false);
}

/*
 * "dlid is the destination LID.  dqp is the destination QP (queue pair).
 * sl is the SL (service level).  qkey is the Q_Key (queue key)."  The man
 * page names no range check and "no errors indicated": each value is
 * converted to its ABI field's width (C conversion), then to network order.
 */
int ref_umad_set_addr(void *umad, int dlid, int dqp, int sl, int qkey)
{
	put_be32(umad, REF_UMAD_OFF_QPN, (uint32_t)dqp);
	put_be16(umad, REF_UMAD_OFF_LID, (uint16_t)dlid);
	put_u8(umad, REF_UMAD_OFF_SL, (uint8_t)sl);
	put_be32(umad, REF_UMAD_OFF_QKEY, (uint32_t)qkey);
	return 0;
}

int ref_umad_set_addr_net(void *umad, __be16 dlid, __be32 dqp, int sl,
			  __be32 qkey)
{
	put_raw(umad, REF_UMAD_OFF_QPN, &dqp, sizeof(dqp));
	put_raw(umad, REF_UMAD_OFF_LID, &dlid, sizeof(dlid));
	put_u8(umad, REF_UMAD_OFF_SL, (uint8_t)sl);
	put_raw(umad, REF_UMAD_OFF_QKEY, &qkey, sizeof(qkey));
	return 0;
}

/* pkey_index is host order in the ABI (__u16, not __be16). */
int ref_umad_set_pkey(void *umad, int pkey_index)
{
	uint16_t v = (uint16_t)pkey_index;

	put_raw(umad, REF_UMAD_OFF_PKEY_INDEX, &v, sizeof(v));
	return 0;
}

int ref_umad_get_pkey(void *umad)
{
	uint16_t v;

	memcpy(&v, (uint8_t *)umad + REF_UMAD_OFF_PKEY_INDEX, sizeof(v));
	return v;
}
