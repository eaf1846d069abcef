/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Shared by the rows that need an InfiniBand fabric: SMPs to the node's own
 * SMA (QP0, directed route), a Get to the SA of the subnet manager, and MADs
 * by LID to another node, where rdmaconf-peer (harness/peer) answers a Get
 * of the vendor classes CLASS_V1 and CLASS_V2 with its port GUID.
 */
#ifndef RDMACONF_CASES_UMAD_FABRIC_H
#define RDMACONF_CASES_UMAD_FABRIC_H

#include "umad_mad.h"

#define NEEDS_FABRIC (NEEDS_UMAD | RC_NEED_IB)
/* registering QP0 (SMI) agents takes root */
#define NEEDS_SMI (NEEDS_FABRIC | RC_NEED_ROOT)
/* a LID no port of a subnet has: the top of the unicast range */
#define UNASSIGNED_LID 0xbfff

/* What a row asks the fabric, and how the answer is checked (umad_fabric.c) */
struct fabric_query;
/* SubnGet(NodeInfo), directed route, 0 hops: the node's own SMA */
extern const struct fabric_query fabric_smp_dr_self;
/* SubnGet(NodeInfo) to the remote node's LID: its SMA */
extern const struct fabric_query fabric_smp_lid_remote;
/* SubnAdmGet(NodeRecord) of the own LID: the SA of the subnet manager */
extern const struct fabric_query fabric_sa_self;
/* a vendor Get to rdmaconf-peer's LID */
extern const struct fabric_query fabric_vendor_remote;

/* The mgmt_class a query is sent with (@vendor_class for the vendor one). */
int fabric_class(const struct fabric_query *q, int vendor_class);

/*
 * Build the MAD of @q into @umad, addressed (LID, QP, Q_Key) where it goes.
 * Marks the row BROKEN and returns false when the port's LIDs or the SM's
 * cannot be read.
 */
bool fabric_build(struct rc_ctx *ctx, const struct fabric_query *q,
		  int vendor_class, uint8_t *umad);

/*
 * Wait on @fd for the answer to @q and check it says what the fabric knows:
 * the node GUID in sysfs for the own SMA, the port's own LID and GUID in
 * the SA's NodeRecord, the remote port's GUID (RDMACONF_REMOTE) for the
 * rest; and that it came from the LID asked (the SM's for the SA).
 * Records the answer's header as output; a wrong or missing answer is a
 * violation.
 */
void fabric_check_answer(struct rc_ctx *ctx, const struct fabric_query *q,
			 int fd);

/* Address @umad to @lid, QP1 (the GSI). */
void mad_address_lid(uint8_t *umad, uint16_t lid);

#endif
