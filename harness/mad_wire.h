/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The MADs on the wire that the umad rows (cases/umad/umad_mad.h) and
 * rdmaconf-peer (harness/peer) agree on: the classes and methods they use,
 * the MAD header's offsets (IBA 13.4.3) and where the peer puts its
 * answer.  The 64-byte user_mad header before the MAD is the kernel's ABI,
 * as reference/umad/ref_umad.h lays it out.
 */
#ifndef RDMACONF_MAD_WIRE_H
#define RDMACONF_MAD_WIRE_H

#include <stdint.h>

#include "../reference/umad/ref_umad.h"

#define MAD_SIZE 256
#define MAD_BUF_LEN (REF_UMAD_HDR_SIZE + MAD_SIZE)

/* vendor range 2 (OUI) and vendor range 1 classes the rows use */
#define CLASS_V2 0x30
#define CLASS_V2_OTHER 0x31
#define CLASS_V1 0x0a
#define VENDOR_RANGE2_LAST 0x4f
/* InfiniBand only: LID-routed and directed-route SMPs (QP0), the SA */
#define MAD_CLASS_SMI 0x01
#define MAD_CLASS_SMI_DR 0x81
#define MAD_CLASS_SA 0x03
#define QP1_QKEY 0x80010000u
/* The OUI of the vendor range 2 class the peer serves, which the fabric
 * rows send to it (a row's own traffic has an OUI of its own: mad_oui()
 * in cases/umad/umad_mad.h) */
extern uint8_t test_oui[3];

#define METHOD_GET 0x01
#define METHOD_SET 0x02
#define METHOD_GET_RESP 0x81
#define METHOD_BIT(m) (1u << (m))

/* MAD header offsets (IBA 13.4.3) and the vendor range 2 OUI (13.4.5) */
enum {
	MAD_OFF_CLASS = 1,
	MAD_OFF_METHOD = 3,
	MAD_OFF_STATUS = 4,
	MAD_OFF_TID = 8,
	MAD_OFF_ATTR_ID = 16,
	MAD_OFF_RMPP = 24,
	MAD_OFF_OUI = 37,
	MAD_OFF_V2_DATA = 40,
	/* where rdmaconf-peer (harness/peer) puts its port GUID in an answer */
	MAD_OFF_PEER_GUID = MAD_OFF_V2_DATA,
};

#endif
