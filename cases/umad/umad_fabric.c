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

/*
 * What a row asks the fabric: the MAD it sends, and how the answer is
 * checked.
 */
struct fabric_query {
	const char *who; /* who answers, for the violations */
	int mgmt_class; /* 0: the vendor class the row gives */
	uint32_t tid;
	/* what follows mad_build's header: the query, and where it goes */
	bool (*build)(struct rc_ctx *ctx, uint8_t *umad, int mgmt_class);
	/* the bits of the answer's status word that are its status */
	uint16_t status_mask;
	/* check where the answer @in came from; the GUID it holds in @got,
	 * and in @want the one it must (preset: the remote port's) */
	void (*answer)(struct rc_ctx *ctx, const struct fabric_query *q,
		       const uint8_t *in, uint64_t *got, uint64_t *want);
};

int fabric_class(const struct fabric_query *q, int vendor_class)
{
	return q->mgmt_class ? q->mgmt_class : vendor_class;
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

/* An SMP or SA MAD: a Get of NodeInfo, with no vendor payload. */
static uint8_t *node_info_get(uint8_t *umad)
{
	uint8_t *mad = umad + REF_UMAD_HDR_SIZE;

	memset(mad + MAD_OFF_ATTR_ID, 0, MAD_SIZE - MAD_OFF_ATTR_ID);
	put16(mad + MAD_OFF_ATTR_ID, ATTR_NODE_INFO);
	return mad;
}

static bool build_smp_dr_self(struct rc_ctx *ctx, uint8_t *umad, int mgmt_class)
{
	uint8_t *mad = node_info_get(umad);

	/* hop count 0: the SMA of the node itself */
	put16(mad + SMP_OFF_DR_SLID, PERMISSIVE_LID);
	put16(mad + SMP_OFF_DR_DLID, PERMISSIVE_LID);
	address(umad, PERMISSIVE_LID, 0);
	return true;
}

static bool build_smp_lid_remote(struct rc_ctx *ctx, uint8_t *umad,
				 int mgmt_class)
{
	node_info_get(umad);
	address(umad, ctx->target->remote_lid, 0);
	return true;
}

static bool build_sa_self(struct rc_ctx *ctx, uint8_t *umad, int mgmt_class)
{
	uint8_t *mad = node_info_get(umad);
	uint64_t mask = htobe64(1); /* NodeRecord component: LID */
	uint16_t lid, sm;

	mad[2] = SA_CLASS_VERSION;
	put16(mad + MAD_OFF_ATTR_ID, ATTR_NODE_RECORD);
	memcpy(mad + SA_OFF_COMP_MASK, &mask, 8);
	lid = port_lid(ctx, "lid");
	put16(mad + SA_OFF_DATA, lid);
	sm = port_lid(ctx, "sm_lid");
	address(umad, sm, 1);
	return lid && sm;
}

static bool build_vendor_remote(struct rc_ctx *ctx, uint8_t *umad,
				int mgmt_class)
{
	/* the class and OUI the remote peer serves */
	if (mgmt_class >= 0x30)
		memcpy(umad + REF_UMAD_HDR_SIZE + MAD_OFF_OUI, test_oui, 3);
	mad_address_lid(umad, ctx->target->remote_lid);
	return true;
}

bool fabric_build(struct rc_ctx *ctx, const struct fabric_query *q,
		  int vendor_class, uint8_t *umad)
{
	int mgmt_class = fabric_class(q, vendor_class);

	mad_build(ctx, umad, mgmt_class, METHOD_GET, q->tid);
	return q->build(ctx, umad, mgmt_class);
}

/* The header's address is where the answer came from (user_mad.rst): the
 * node asked, by LID. */
static void from_remote(struct rc_ctx *ctx, const struct fabric_query *q,
			const uint8_t *in)
{
	uint16_t lid = get16(in + REF_UMAD_OFF_LID);

	if (lid != ctx->target->remote_lid)
		rc_obs_violation(ctx->obs,
				 "the answer of %s came from LID %u, "
				 "not %u",
				 q->who, lid, ctx->target->remote_lid);
}

static void answer_smp_dr_self(struct rc_ctx *ctx, const struct fabric_query *q,
			       const uint8_t *in, uint64_t *got, uint64_t *want)
{
	*got = get64(in + REF_UMAD_HDR_SIZE + SMP_OFF_DATA + NI_OFF_NODE_GUID);
	if (!own_guid(ctx, false, want))
		*want = ~*got;
}

static void answer_smp_lid_remote(struct rc_ctx *ctx,
				  const struct fabric_query *q,
				  const uint8_t *in, uint64_t *got,
				  uint64_t *want)
{
	from_remote(ctx, q, in);
	*got = get64(in + REF_UMAD_HDR_SIZE + SMP_OFF_DATA + NI_OFF_PORT_GUID);
}

static void answer_sa_self(struct rc_ctx *ctx, const struct fabric_query *q,
			   const uint8_t *in, uint64_t *got, uint64_t *want)
{
	const uint8_t *data = in + REF_UMAD_HDR_SIZE + SA_OFF_DATA;
	uint16_t lid = get16(in + REF_UMAD_OFF_LID);

	if (lid != port_lid(ctx, "sm_lid"))
		rc_obs_violation(ctx->obs,
				 "the SA's answer came from LID %u, "
				 "not the SM's",
				 lid);
	lid = get16(data);
	*got = get64(data + NR_OFF_NODE_INFO + NI_OFF_PORT_GUID);
	if (!own_guid(ctx, true, want))
		*want = ~*got;
	if (lid != port_lid(ctx, "lid"))
		rc_obs_violation(ctx->obs, "the SA's NodeRecord is for LID %u",
				 lid);
}

static void answer_vendor_remote(struct rc_ctx *ctx,
				 const struct fabric_query *q,
				 const uint8_t *in, uint64_t *got,
				 uint64_t *want)
{
	from_remote(ctx, q, in);
	*got = get64(in + REF_UMAD_HDR_SIZE + MAD_OFF_PEER_GUID);
}

const struct fabric_query fabric_smp_dr_self = {
	.who = "the node's own SMA",
	.mgmt_class = MAD_CLASS_SMI_DR,
	.tid = 0xfab0,
	.build = build_smp_dr_self,
	.status_mask = (uint16_t)~SMP_DIRECTION,
	.answer = answer_smp_dr_self,
};

const struct fabric_query fabric_smp_lid_remote = {
	.who = "the remote node's SMA",
	.mgmt_class = MAD_CLASS_SMI,
	.tid = 0xfab1,
	.build = build_smp_lid_remote,
	.status_mask = 0xffff,
	.answer = answer_smp_lid_remote,
};

const struct fabric_query fabric_sa_self = {
	.who = "the SA",
	.mgmt_class = MAD_CLASS_SA,
	.tid = 0xfab2,
	.build = build_sa_self,
	.status_mask = 0xffff,
	.answer = answer_sa_self,
};

const struct fabric_query fabric_vendor_remote = {
	.who = "rdmaconf-peer on the remote node",
	.tid = 0xfab3,
	.build = build_vendor_remote,
	.status_mask = 0xffff,
	.answer = answer_vendor_remote,
};

void fabric_check_answer(struct rc_ctx *ctx, const struct fabric_query *q,
			 int fd)
{
	uint8_t in[MAD_BUF_LEN], *mad = in + REF_UMAD_HDR_SIZE;
	uint64_t got, want = ctx->target->remote_guid;
	uint32_t umad_status;
	uint16_t status;
	int n;

	n = mad_wait(ctx, fd, in, sizeof(in), ARRIVE_MS);
	if (n < REF_UMAD_HDR_SIZE + 24) {
		rc_obs_violation(ctx->obs, "no answer from %s: %d", q->who, n);
		return;
	}
	mad_summary(ctx, in);
	memcpy(&umad_status, in + REF_UMAD_OFF_STATUS, 4);
	status = get16(mad + MAD_OFF_STATUS) & q->status_mask;
	if (umad_status || mad[MAD_OFF_METHOD] != METHOD_GET_RESP || status) {
		rc_obs_violation(ctx->obs,
				 "%s: umad status %u, method 0x%02x, "
				 "MAD status 0x%04x, not an answer",
				 q->who, umad_status, mad[MAD_OFF_METHOD],
				 status);
		return;
	}
	q->answer(ctx, q, in, &got, &want);
	if (got != want)
		rc_obs_violation(ctx->obs,
				 "%s answered with GUID 0x%016" PRIx64
				 ", not 0x%016" PRIx64,
				 q->who, got, want);
}
