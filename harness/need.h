/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What a row needs of its target, one table: each need a predicate over
 * the target as the run probed it (device.c), checked before the row
 * starts (LTP's .needs_root, .min_kver).  An unmet need is SKIP (this
 * host lacks it) or UNSUPPORTED (the device cannot do what the row
 * checks), with its cause; never a FAIL.
 *
 * X(ID, name, what it asks, verdict when unmet, needs a device)
 * The order is the order they are checked in: the first unmet one is the
 * row's cause.
 */
#ifndef RDMACONF_NEED_H
#define RDMACONF_NEED_H

#include <stdbool.h>
#include <stddef.h>

#define RC_NEEDS(X)                                                           \
	X(DEVICE, "device", "an RDMA device with an active port", SKIP, true) \
	X(ROOT, "root", "root", SKIP, false)                                  \
	X(PEER, "peer", "a second RDMA device that reaches the first", SKIP,  \
	  true)                                                               \
	X(IB, "ib", "an InfiniBand link layer", UNSUPPORTED, true)            \
	X(ROCE, "roce",                                                       \
	  "RoCE: an Ethernet link layer on a device of the "                  \
	  "InfiniBand transport",                                             \
	  UNSUPPORTED, true)                                                  \
	X(IWARP, "iwarp", "iWARP: a device of the iWARP transport",           \
	  UNSUPPORTED, true)                                                  \
	X(CA, "ca",                                                           \
	  "an InfiniBand-transport channel adapter (InfiniBand or "           \
	  "RoCE), what libibumad's pages call a ca; an iWARP RNIC is none",   \
	  UNSUPPORTED, true)                                                  \
	X(UD, "ud",                                                           \
	  "datagrams: UD QPs, address handles and multicast, which "          \
	  "iWARP has not",                                                    \
	  UNSUPPORTED, true)                                                  \
	X(UC, "uc", "UC QPs (unreliable connected), which iWARP has not",     \
	  UNSUPPORTED, true)                                                  \
	X(IMM, "imm",                                                         \
	  "immediate data (SEND and RDMA Write with immediate), which "       \
	  "iWARP has not",                                                    \
	  UNSUPPORTED, true)                                                  \
	X(ATOMIC, "atomic",                                                   \
	  "atomic operations (Compare and Swap, Fetch and Add), which "       \
	  "iWARP (RFC 5040) has not",                                         \
	  UNSUPPORTED, true)                                                  \
	X(NAK, "nak",                                                         \
	  "the InfiniBand reliable connection's error reporting: a "          \
	  "responder's refusal (NAK), RNR and retries exhausted, each in "    \
	  "the requester's own completion; iWARP (RFC 5040) ends the "        \
	  "connection with a Terminate instead",                              \
	  UNSUPPORTED, true)                                                  \
	X(UMAD, "umad",                                                       \
	  "the port's umad device (/dev/infiniband/umadN, made "              \
	  "by ib_umad)",                                                      \
	  SKIP, true)                                                         \
	X(SYSFS, "sysfs",                                                     \
	  "the kernel's sysfs as what the libraries read, which the row's "   \
	  "own mount namespace can change (a simulator's is its own)",        \
	  SKIP, false)                                                        \
	X(REMOTE, "remote",                                                   \
	  "rdmaconf-peer on another node of the fabric, "                     \
	  "named by RDMACONF_REMOTE=LID:PORT_GUID",                           \
	  SKIP, true)

#define RC_NEED_INDEX(e, ...) RC_NEED_INDEX_##e,
enum { RC_NEEDS(RC_NEED_INDEX) RC_NNEEDS };
#undef RC_NEED_INDEX
#define RC_NEED_BIT(e, ...) RC_NEED_##e = 1u << RC_NEED_INDEX_##e,
enum rc_need { RC_NEEDS(RC_NEED_BIT) };
#undef RC_NEED_BIT

/* What kind of link the target's port is: what the needs IB, ROCE,
 * IWARP and UD are decided on. */
enum rc_link { RC_LINK_NONE, RC_LINK_IB, RC_LINK_ROCE, RC_LINK_IWARP };

struct rc_target;
struct rc_case;
struct rc_str;

/*
 * The first need of @c that @t does not meet: 0 and its cause in @why;
 * or 1 when every need is met.  @skip says whether the cause is a SKIP
 * (else UNSUPPORTED).
 */
int rc_needs_unmet(const struct rc_case *c, const struct rc_target *t,
		   bool *skip, char *why, size_t len);
/* "device", "umad" ... */
const char *rc_need_name(unsigned int index);
/* The needs table as a JSON member of `rdmaconf __vocab` */
void rc_need_vocab_json(struct rc_str *b);

#endif
