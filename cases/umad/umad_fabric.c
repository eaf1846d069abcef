// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The MADs of the fabric rows, laid out as IBA 1.3 vol. 1 has them: the
 * SMP (14.2.1.1 LID routed, 14.2.1.2 directed route, NodeInfo 14.2.5.3)
 * and the SA MAD (15.2.1, NodeRecord 15.2.5.2).
 */
#include <endian.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "umad_fabric.h"
#include "../../harness/device.h"

enum {
	ATTR_NODE_INFO = 0x0011,
	ATTR_NODE_RECORD = 0x0011,
	SA_CLASS_VERSION = 2,
	PERMISSIVE_LID = 0xffff,
	/* SMP: DrSLID, DrDLID, the data */
	SMP_OFF_DR_SLID = 32,
	SMP_OFF_DR_DLID = 34,
	SMP_OFF_DATA = 64,
	/* SA MAD: ComponentMask, the data */
	SA_OFF_COMP_MASK = 48,
	SA_OFF_DATA = 56,
	/* NodeRecord: LID, then NodeInfo at 4; NodeInfo's GUIDs */
	NR_OFF_NODE_INFO = 4,
	NI_OFF_NODE_GUID = 12,
	NI_OFF_PORT_GUID = 20,
	/* the D bit of a directed-route SMP's status word */
	SMP_DIRECTION = 0x8000,
};

int fabric_class(enum fabric_query q, int vendor_class)
{
	switch (q) {
	case FQ_SMP_DR_SELF: return MAD_CLASS_SMI_DR;
	case FQ_SMP_LID_REMOTE: return MAD_CLASS_SMI;
	case FQ_SA_SELF: return MAD_CLASS_SA;
	case FQ_VENDOR_REMOTE: break;
	}
	return vendor_class;
}

static void put16(uint8_t *p, uint16_t v)
{
	v = htobe16(v);
	memcpy(p, &v, 2);
}

static uint16_t get16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return be16toh(v);
}

static uint64_t get64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return be64toh(v);
}

static void address(uint8_t *umad, uint16_t lid, int qpn)
{
	uint32_t qpn_be = htobe32(qpn), qkey = htobe32(qpn ? QP1_QKEY : 0);

	memcpy(umad + REF_UMAD_OFF_QPN, &qpn_be, 4);
	memcpy(umad + REF_UMAD_OFF_QKEY, &qkey, 4);
	put16(umad + REF_UMAD_OFF_LID, lid);
}

void mad_address_lid(uint8_t *umad, uint16_t lid)
{
	address(umad, lid, 1);
}

/* A LID attribute ("lid", "sm_lid") of the target port; 0 and BROKEN
 * when there is none. */
static uint16_t port_lid(struct rc_ctx *ctx, const char *attr)
{
	char buf[32];
	unsigned long lid = 0;

	if (!dev_sysfs(ctx, ctx->target->port, attr, buf, sizeof(buf)))
		lid = strtoul(buf, NULL, 0);
	if (!lid || lid >= 0xc000)
		rc_obs_state(ctx->obs, RC_STATE_BROKEN, "port %d has no %s",
			     ctx->target->port, attr);
	return lid < 0xc000 ? lid : 0;
}

/* The node GUID, or (@port) the port GUID: GID 0's interface id. */
static bool own_guid(struct rc_ctx *ctx, bool port, uint64_t *guid)
{
	char buf[64];

	return !(port ? dev_sysfs(ctx, ctx->target->port, "gids/0", buf,
				  sizeof(buf)) :
			dev_sysfs(ctx, 0, "node_guid", buf, sizeof(buf))) &&
	       !rc_guid_parse(buf, guid);
}

bool fabric_build(struct rc_ctx *ctx, enum fabric_query q, int vendor_class,
		  uint8_t *umad)
{
	uint8_t *mad = umad + REF_UMAD_HDR_SIZE;
	uint64_t mask = htobe64(1);	/* NodeRecord component: LID */
	uint16_t lid, sm;

	mad_build(ctx, umad, fabric_class(q, vendor_class), METHOD_GET,
		  0xfab0 + q);
	/* the class and OUI the remote peer serves */
	if (q == FQ_VENDOR_REMOTE && vendor_class >= 0x30)
		memcpy(mad + MAD_OFF_OUI, test_oui, 3);
	if (q == FQ_VENDOR_REMOTE) {
		mad_address_lid(umad, ctx->target->remote_lid);
		return true;
	}
	/* an SMP or SA MAD carries no vendor payload */
	memset(mad + MAD_OFF_ATTR_ID, 0, MAD_SIZE - MAD_OFF_ATTR_ID);
	put16(mad + MAD_OFF_ATTR_ID, ATTR_NODE_INFO);
	switch (q) {
	case FQ_SMP_DR_SELF:
		/* hop count 0: the SMA of the node itself */
		put16(mad + SMP_OFF_DR_SLID, PERMISSIVE_LID);
		put16(mad + SMP_OFF_DR_DLID, PERMISSIVE_LID);
		address(umad, PERMISSIVE_LID, 0);
		break;
	case FQ_SMP_LID_REMOTE:
		address(umad, ctx->target->remote_lid, 0);
		break;
	case FQ_SA_SELF:
		mad[2] = SA_CLASS_VERSION;
		put16(mad + MAD_OFF_ATTR_ID, ATTR_NODE_RECORD);
		memcpy(mad + SA_OFF_COMP_MASK, &mask, 8);
		lid = port_lid(ctx, "lid");
		put16(mad + SA_OFF_DATA, lid);
		sm = port_lid(ctx, "sm_lid");
		address(umad, sm, 1);
		return lid && sm;
	case FQ_VENDOR_REMOTE:
		break;
	}
	return true;
}

void fabric_check_answer(struct rc_ctx *ctx, enum fabric_query q, int fd)
{
	static const char *const what[] = {
		[FQ_SMP_DR_SELF] = "the node's own SMA",
		[FQ_SMP_LID_REMOTE] = "the remote node's SMA",
		[FQ_SA_SELF] = "the SA",
		[FQ_VENDOR_REMOTE] = "rdmaconf-peer on the remote node",
	};
	uint8_t in[MAD_BUF_LEN], *mad = in + REF_UMAD_HDR_SIZE;
	uint16_t status, lid = 0;
	uint64_t got, want = ctx->target->remote_guid;
	uint32_t umad_status;
	int n;

	n = mad_wait(ctx, fd, in, sizeof(in), ARRIVE_MS);
	if (n < REF_UMAD_HDR_SIZE + 24) {
		rc_obs_violation(ctx->obs, "no answer from %s: %d", what[q], n);
		return;
	}
	mad_summary(ctx, in);
	memcpy(&umad_status, in + REF_UMAD_OFF_STATUS, 4);
	status = get16(mad + MAD_OFF_STATUS) &
		 (q == FQ_SMP_DR_SELF ? ~SMP_DIRECTION : 0xffff);
	if (umad_status || mad[MAD_OFF_METHOD] != METHOD_GET_RESP || status) {
		rc_obs_violation(ctx->obs, "%s: umad status %u, method 0x%02x, "
				 "MAD status 0x%04x, not an answer", what[q],
				 umad_status, mad[MAD_OFF_METHOD], status);
		return;
	}
	/* the header's address is where the answer came from (user_mad.rst):
	 * the node asked, by LID */
	lid = get16(in + REF_UMAD_OFF_LID);
	if ((q == FQ_SMP_LID_REMOTE || q == FQ_VENDOR_REMOTE) &&
	    lid != ctx->target->remote_lid)
		rc_obs_violation(ctx->obs, "the answer of %s came from LID %u, "
				 "not %u", what[q], lid,
				 ctx->target->remote_lid);
	if (q == FQ_SA_SELF && lid != port_lid(ctx, "sm_lid"))
		rc_obs_violation(ctx->obs, "the SA's answer came from LID %u, "
				 "not the SM's", lid);
	switch (q) {
	case FQ_SMP_DR_SELF:
		got = get64(mad + SMP_OFF_DATA + NI_OFF_NODE_GUID);
		if (!own_guid(ctx, false, &want))
			want = ~got;
		break;
	case FQ_SMP_LID_REMOTE:
		got = get64(mad + SMP_OFF_DATA + NI_OFF_PORT_GUID);
		break;
	case FQ_SA_SELF:
		lid = get16(mad + SA_OFF_DATA);
		got = get64(mad + SA_OFF_DATA + NR_OFF_NODE_INFO +
			    NI_OFF_PORT_GUID);
		if (!own_guid(ctx, true, &want))
			want = ~got;
		if (lid != port_lid(ctx, "lid"))
			rc_obs_violation(ctx->obs, "the SA's NodeRecord is "
					 "for LID %u", lid);
		break;
	default:
		got = get64(mad + MAD_OFF_PEER_GUID);
		break;
	}
	if (got != want)
		rc_obs_violation(ctx->obs, "%s answered with GUID 0x%016" PRIx64
				 ", not 0x%016" PRIx64, what[q], got, want);
}
