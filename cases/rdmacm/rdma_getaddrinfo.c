// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_getaddrinfo(3): "Resolves the destination node and service address
 * and returns information needed to establish communication."  RETURN
 * VALUE: "Returns 0 on success, or -1 on error (errno will be set to
 * indicate the failure reason), or one of the following nonzero error
 * codes" (EAI_*, negative: the convention is "negative").  Each result is
 * freed with rdma_freeaddrinfo (which has no page of its own).
 *
 * The target's addresses, the row's port as the service (two distinct
 * bytes):
 * - numeric IPv4 and IPv6 nodes: ai_dst_addr is the address and port,
 *   ai_family its family, RDMA_PS_TCP with IBV_QPT_RC
 * - RAI_PASSIVE: ai_dst_len 0; without a node ai_src_addr is the wildcard
 *   with the port, with one it is that address
 * - the port spaces: RDMA_PS_UDP (its QP type UD), RDMA_PS_IB
 * - inconsistent QP type and port space (UD with TCP, RC with UDP): fails
 * - node, service and hints all NULL: EAI_NONAME
 * - RAI_NUMERICHOST with a name ("localhost"): fails; without it the name
 *   resolves (to 127.0.0.1 or ::1)
 * - RAI_FAMILY AF_INET6 with an IPv4 node: fails
 * - an unknown flag: EAI_BADFLAGS; an unknown family: EAI_FAMILY
 * - no node or service: the hints' addresses are the answer, of the
 *   length given (a whole sockaddr_storage too)
 * - one of QP type and port space given: the result has the other that
 *   goes with it; neither: a supported pair; an unsupported QP type
 *   (IBV_QPT_UC) or port space (RDMA_PS_IPOIB): fails
 * - RAI_FAMILY with the node's own family (AF_INET, AF_INET6): resolved
 * - no hints at all, a numeric node: resolved
 * - a node and hints.ai_src_addr: the source is the hints'
 * - the result's ai_flags carries RAI_PASSIVE as the hints did (what
 *   rdma_create_ep(3) reads of it)
 * - ai_family without RAI_FAMILY (AF_IB, or AF_INET6 with an IPv4 node):
 *   no hint, the node resolves
 * - a service and no node: the loopback address without RAI_PASSIVE (as
 *   getaddrinfo(3)), with RAI_NUMERICHOST too; RAI_PASSIVE with a name
 * - a service name /etc/services has for TCP only: EAI_SERVICE with
 *   IBV_QPT_UD, its port with IBV_QPT_RC
 * - RAI_PASSIVE with the hints' addresses: no destination; hints without
 *   addresses and no node or service: EAI_NONAME
 */
#include <arpa/inet.h>
#include <netdb.h>
#include <stdio.h>
#include <string.h>

#include "rdmacm_conn.h"

#define DOC_RESOLVE                                                      \
	"Resolves the destination node and service address and returns " \
	"information needed to establish communication."
#define DOC_NODE \
	"Optional, name, dotted-decimal IPv4, or IPv6 hex address to resolve."
#define DOC_PASSIVE                                                            \
	"This will be 0 if the RAI_PASSIVE flag was specified as part of the " \
	"hints."
#define DOC_PASSIVE_SIDE                                              \
	"If RAI_PASSIVE is specified, the call will resolve address " \
	"information for use on the passive side of a connection."
#define DOC_PS                                                         \
	"RDMA port space in use.  Supported values are: RDMA_PS_UDP, " \
	"RDMA_PS_TCP, and RDMA_PS_IB."
#define DOC_QPTYPE                                                    \
	"This could occur, for example, if hints.ai_qptype and "      \
	"hints.ai_port_space are inconsistent (e.g., IBV_QPT_UD and " \
	"RDMA_PS_TCP, respectively)."
#define DOC_NONAME \
	"The node or service is not known; or both node and service are NULL."
#define DOC_NUMERIC                                                      \
	"If specified, then the node parameter, if provided, must be a " \
	"numerical network address."
#define DOC_FAMILY                                                           \
	"If set, the ai_family setting should be used as an input hint for " \
	"interpretting the node parameter."
#define DOC_BADFLAGS "hints.ai_flags contains invalid flags."
#define DOC_BADFAMILY "The requested address family is not supported."
#define DOC_QP_TYPES                                                        \
	"Indicates the type of RDMA QP used for communication.  Supported " \
	"types are: IBV_QPT_UD (unreliable datagram) and IBV_QPT_RC "       \
	"(reliable connected)."
#define DOC_SERVICE "Service name or port number of address."
#define DOC_EAI_SERVICE                                                      \
	"The requested service is not available for the requested QP type. " \
	"It may be available through another QP type."
#define DOC_EQUIVALENT "Provides the RDMA functional equivalent to getaddrinfo."
#define DOC_EITHER "Either node, service, or hints must be provided."
#define DOC_SRC "If provided, the address for the local RDMA device."
#define DOC_CREATE_EP                                                          \
	"If the rdma_cm_id will be used on the passive side of a connection, " \
	"indicated by having res->ai_flag RAI_PASSIVE set"
#define DOC_HINTS                                                             \
	"If node is not given, rdma_getaddrinfo will attempt to resolve the " \
	"RDMA addressing information based on the hints.ai_src_addr, "        \
	"hints.ai_dst_addr, or hints.ai_route."

enum node { N_NONE, N_TARGET, N_LOCALHOST, N_IPV4_AS_V6 };
/* the service: the row's port, a name /etc/services has for TCP only */
enum service { S_NONE, S_PORT, S_TCP_NAME };
enum expect {
	X_DST, /* ai_dst_addr and ai_family are the node's */
	X_PS, /* the port space and QP type only */
	X_PAIR, /* a supported QP type with its port space */
	X_PASSIVE,
	X_NAME,
	X_HINTS, /* the hints' destination */
	X_HINTS_WHOLE, /* the same, given as a whole sockaddr_storage */
	X_SRC, /* the node's destination, the hints' (the peer's) source */
	X_FLAGS, /* ai_flags has RAI_PASSIVE as the hints had */
	X_PASSIVE_HINTS, /* no destination, the hints' source, its family */
	X_FAILS
};

struct ga_row {
	struct rc_case c;
	enum node node;
	int family; /* the target's address of it, for the node */
	enum service service;
	bool no_hints;
	struct rdma_addrinfo hints;
	enum expect expect;
	/* the result's, checked when not 0 (the port space rows) */
	int ps, qp_type;
};

#define NEEDS (RC_NEED_DEVICE | RC_NEED_PEER)
#define H(...) .hints = { __VA_ARGS__ }

static const struct ga_row rows[] = {
	{ .c = { .id = "rdmacm/getaddrinfo/numeric-ipv4",
		 .doc = DOC_RESOLVE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the target's IPv4 address and the row's port, "
			 "RAI_NUMERICHOST, RDMA_PS_TCP: ai_dst_addr is that "
			 "address and port, ai_family AF_INET",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .node = N_TARGET,
	  .family = AF_INET,
	  .service = S_PORT,
	  H(.ai_flags = RAI_NUMERICHOST, .ai_port_space = RDMA_PS_TCP),
	  .expect = X_DST },
	{ .c = { .id = "rdmacm/getaddrinfo/numeric-ipv6",
		 .doc = DOC_NODE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the same with the target's IPv6 address in hex",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .node = N_TARGET,
	  .family = AF_INET6,
	  .service = S_PORT,
	  H(.ai_flags = RAI_NUMERICHOST, .ai_port_space = RDMA_PS_TCP),
	  .expect = X_DST },
	{ .c = { .id = "rdmacm/getaddrinfo/passive-wildcard",
		 .doc = DOC_PASSIVE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "RAI_PASSIVE, no node, the row's port: ai_dst_len 0, "
			 "ai_src_addr the wildcard address of its family with "
			 "the port",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .node = N_NONE,
	  .service = S_PORT,
	  H(.ai_flags = RAI_PASSIVE, .ai_port_space = RDMA_PS_TCP),
	  .expect = X_PASSIVE },
	{ .c = { .id = "rdmacm/getaddrinfo/passive-node",
		 .doc = DOC_PASSIVE_SIDE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "RAI_PASSIVE with the target's IPv4 address: it is "
			 "the source (ai_src_addr, with the port), ai_dst_len 0",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .node = N_TARGET,
	  .family = AF_INET,
	  .service = S_PORT,
	  H(.ai_flags = RAI_PASSIVE | RAI_NUMERICHOST,
	    .ai_port_space = RDMA_PS_TCP),
	  .expect = X_PASSIVE },
	{ .c = { .id = "rdmacm/getaddrinfo/port-space-udp",
		 .doc = DOC_PS,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "RDMA_PS_UDP with no QP type: the result's port space "
			 "RDMA_PS_UDP, its QP type IBV_QPT_UD (the only one of "
			 "the page's two that is connectionless)",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .node = N_TARGET,
	  .family = AF_INET,
	  .service = S_PORT,
	  H(.ai_flags = RAI_NUMERICHOST, .ai_port_space = RDMA_PS_UDP),
	  .expect = X_DST,
	  .ps = RDMA_PS_UDP,
	  .qp_type = IBV_QPT_UD },
	{ .c = { .id = "rdmacm/getaddrinfo/port-space-ib",
		 .doc = DOC_PS,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "RDMA_PS_IB with IBV_QPT_RC: 0, and the result's port "
			 "space is RDMA_PS_IB (its addresses may be AF_IB's: "
			 "not compared)",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .node = N_TARGET,
	  .family = AF_INET,
	  .service = S_PORT,
	  H(.ai_flags = RAI_NUMERICHOST, .ai_port_space = RDMA_PS_IB,
	    .ai_qp_type = IBV_QPT_RC),
	  .expect = X_PS,
	  .ps = RDMA_PS_IB,
	  .qp_type = IBV_QPT_RC },
	{ .c = { .id = "rdmacm/getaddrinfo/qp-ud-port-space-tcp",
		 .doc = DOC_QPTYPE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the page's own example: an error (its EAI_QPTYPE, "
			 "which no header defines, so any failure)",
		 .needs = NEEDS,
		 .contract = { RC_FAILS() } },
	  .node = N_TARGET,
	  .family = AF_INET,
	  .service = S_PORT,
	  H(.ai_flags = RAI_NUMERICHOST, .ai_port_space = RDMA_PS_TCP,
	    .ai_qp_type = IBV_QPT_UD),
	  .expect = X_FAILS },
	{ .c = { .id = "rdmacm/getaddrinfo/qp-rc-port-space-udp",
		 .doc = DOC_QPTYPE,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the converse of the page's example, as inconsistent: "
			 "IBV_QPT_RC with RDMA_PS_UDP (connectionless) fails",
		 .needs = NEEDS,
		 .contract = { RC_FAILS() } },
	  .node = N_TARGET,
	  .family = AF_INET,
	  .service = S_PORT,
	  H(.ai_flags = RAI_NUMERICHOST, .ai_port_space = RDMA_PS_UDP,
	    .ai_qp_type = IBV_QPT_RC),
	  .expect = X_FAILS },
	{ .c = { .id = "rdmacm/getaddrinfo/all-null",
		 .doc = DOC_NONAME,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "node, service and hints all NULL (\"Either node, "
			 "service, or hints must be provided.\"): EAI_NONAME",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(EAI_NONAME) } },
	  .node = N_NONE,
	  .no_hints = true,
	  .expect = X_FAILS },
	{ .c = { .id = "rdmacm/getaddrinfo/numerichost-name",
		 .doc = DOC_NUMERIC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "RAI_NUMERICHOST with \"localhost\", a name that "
			 "resolves (the next row): it fails",
		 .needs = NEEDS,
		 .contract = { RC_FAILS() } },
	  .node = N_LOCALHOST,
	  .service = S_PORT,
	  H(.ai_flags = RAI_NUMERICHOST, .ai_port_space = RDMA_PS_TCP),
	  .expect = X_FAILS },
	{ .c = { .id = "rdmacm/getaddrinfo/name",
		 .doc = DOC_NODE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "\"localhost\" without RAI_NUMERICHOST: 0, ai_dst_addr "
			 "127.0.0.1 or ::1 with the row's port",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .node = N_LOCALHOST,
	  .service = S_PORT,
	  H(.ai_port_space = RDMA_PS_TCP),
	  .expect = X_NAME },
	{ .c = { .id = "rdmacm/getaddrinfo/family-hint-mismatch",
		 .doc = DOC_FAMILY,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "RAI_FAMILY with AF_INET6 and the target's IPv4 "
			 "address (RAI_NUMERICHOST): not an IPv6 address, it "
			 "fails",
		 .needs = NEEDS,
		 .contract = { RC_FAILS() } },
	  .node = N_TARGET,
	  .family = AF_INET,
	  .service = S_PORT,
	  H(.ai_flags = RAI_FAMILY | RAI_NUMERICHOST, .ai_family = AF_INET6,
	    .ai_port_space = RDMA_PS_TCP),
	  .expect = X_FAILS },
	{ .c = { .id = "rdmacm/getaddrinfo/bad-flags",
		 .doc = DOC_BADFLAGS,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "ai_flags 0x100, no RAI_* flag: EAI_BADFLAGS",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(EAI_BADFLAGS) } },
	  .node = N_TARGET,
	  .family = AF_INET,
	  .service = S_PORT,
	  H(.ai_flags = 0x100, .ai_port_space = RDMA_PS_TCP),
	  .expect = X_FAILS },
	{ .c = { .id = "rdmacm/getaddrinfo/bad-family",
		 .doc = DOC_BADFAMILY,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "ai_family AF_UNIX (the page's families: AF_INET, "
			 "AF_INET6, AF_IB) with RAI_FAMILY: EAI_FAMILY",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(EAI_FAMILY) } },
	  .node = N_TARGET,
	  .family = AF_INET,
	  .service = S_PORT,
	  H(.ai_flags = RAI_FAMILY | RAI_NUMERICHOST, .ai_family = AF_UNIX,
	    .ai_port_space = RDMA_PS_TCP),
	  .expect = X_FAILS },
	{ .c = { .id = "rdmacm/getaddrinfo/hints-addresses",
		 .doc = DOC_HINTS,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "no node, no service; hints.ai_dst_addr the target's "
			 "IPv4 address and port, ai_src_addr the peer's: 0, "
			 "ai_dst_addr that address and port",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .node = N_NONE,
	  .family = AF_INET,
	  H(.ai_port_space = RDMA_PS_TCP),
	  .expect = X_HINTS },
	{ .c = { .id = "rdmacm/getaddrinfo/hints-addresses-whole-storage",
		 .doc = DOC_HINTS,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "as hints-addresses with each address given in a "
			 "whole struct sockaddr_storage (ai_dst_len and "
			 "ai_src_len 128): ai_dst_addr is its 128 bytes, "
			 "ai_dst_len 128 (the address as given)",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .node = N_NONE,
	  .family = AF_INET,
	  H(.ai_port_space = RDMA_PS_TCP),
	  .expect = X_HINTS_WHOLE },
	{ .c = { .id = "rdmacm/getaddrinfo/qp-rc-alone",
		 .doc = DOC_QPTYPE,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "IBV_QPT_RC with no port space: the result's port "
			 "space is RDMA_PS_TCP, consistent with it (the page's "
			 "example of inconsistency pairs UD with TCP)",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .node = N_TARGET,
	  .family = AF_INET,
	  .service = S_PORT,
	  H(.ai_flags = RAI_NUMERICHOST, .ai_qp_type = IBV_QPT_RC),
	  .expect = X_DST,
	  .ps = RDMA_PS_TCP,
	  .qp_type = IBV_QPT_RC },
	{ .c = { .id = "rdmacm/getaddrinfo/qp-ud-alone",
		 .doc = DOC_QPTYPE,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "IBV_QPT_UD with no port space: the result's port "
			 "space is RDMA_PS_UDP, consistent with it",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .node = N_TARGET,
	  .family = AF_INET,
	  .service = S_PORT,
	  H(.ai_flags = RAI_NUMERICHOST, .ai_qp_type = IBV_QPT_UD),
	  .expect = X_DST,
	  .ps = RDMA_PS_UDP,
	  .qp_type = IBV_QPT_UD },
	{ .c = { .id = "rdmacm/getaddrinfo/no-qp-type-nor-port-space",
		 .doc = DOC_QP_TYPES,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "neither given: the result's QP type is a supported "
			 "one (RC or UD) and its port space consistent with it "
			 "(TCP or IB with RC, UDP with UD)",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .node = N_TARGET,
	  .family = AF_INET,
	  .service = S_PORT,
	  H(.ai_flags = RAI_NUMERICHOST),
	  .expect = X_PAIR },
	{ .c = { .id = "rdmacm/getaddrinfo/qp-type-uc",
		 .doc = DOC_QP_TYPES,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "IBV_QPT_UC, not one of the page's two, with no port "
			 "space: fails (the page's EAI_QPTYPE, \"The requested "
			 "socket type is not supported\", which no header "
			 "defines: any failure)",
		 .needs = NEEDS,
		 .contract = { RC_FAILS() } },
	  .node = N_TARGET,
	  .family = AF_INET,
	  .service = S_PORT,
	  H(.ai_flags = RAI_NUMERICHOST, .ai_qp_type = IBV_QPT_UC),
	  .expect = X_FAILS },
	{ .c = { .id = "rdmacm/getaddrinfo/port-space-ipoib",
		 .doc = DOC_PS,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "RDMA_PS_IPOIB, not one of the page's three, with no "
			 "QP type: fails",
		 .needs = NEEDS,
		 .contract = { RC_FAILS() } },
	  .node = N_TARGET,
	  .family = AF_INET,
	  .service = S_PORT,
	  H(.ai_flags = RAI_NUMERICHOST, .ai_port_space = RDMA_PS_IPOIB),
	  .expect = X_FAILS },
	{ .c = { .id = "rdmacm/getaddrinfo/family-hint-ipv4",
		 .doc = DOC_FAMILY,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "RAI_FAMILY with AF_INET and the target's IPv4 "
			 "address: 0, ai_dst_addr that address and port",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .node = N_TARGET,
	  .family = AF_INET,
	  .service = S_PORT,
	  H(.ai_flags = RAI_FAMILY | RAI_NUMERICHOST, .ai_family = AF_INET,
	    .ai_port_space = RDMA_PS_TCP),
	  .expect = X_DST },
	{ .c = { .id = "rdmacm/getaddrinfo/family-hint-ipv6",
		 .doc = DOC_FAMILY,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "RAI_FAMILY with AF_INET6 and the target's IPv6 "
			 "address: 0, ai_dst_addr that address and port",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .node = N_TARGET,
	  .family = AF_INET6,
	  .service = S_PORT,
	  H(.ai_flags = RAI_FAMILY | RAI_NUMERICHOST, .ai_family = AF_INET6,
	    .ai_port_space = RDMA_PS_TCP),
	  .expect = X_DST },
	{ .c = { .id = "rdmacm/getaddrinfo/no-hints",
		 .doc = DOC_EITHER,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "hints NULL with the target's IPv4 address and the "
			 "row's port: 0, ai_dst_addr that address and port, a "
			 "supported QP type with its port space",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .node = N_TARGET,
	  .family = AF_INET,
	  .service = S_PORT,
	  .no_hints = true,
	  .expect = X_DST },
	{ .c = { .id = "rdmacm/getaddrinfo/source-from-hints",
		 .doc = DOC_SRC,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the target's IPv4 address as the node, the peer's in "
			 "hints.ai_src_addr: ai_dst_addr the node's, "
			 "ai_src_addr the peer's (the local device the caller "
			 "named)",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .node = N_TARGET,
	  .family = AF_INET,
	  .service = S_PORT,
	  H(.ai_flags = RAI_NUMERICHOST, .ai_port_space = RDMA_PS_TCP),
	  .expect = X_SRC },
	{ .c = { .id = "rdmacm/getaddrinfo/passive-result-says-so",
		 .doc = DOC_CREATE_EP,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "RAI_PASSIVE with the target's IPv4 address: the "
			 "result's ai_flags has RAI_PASSIVE, which "
			 "rdma_create_ep(3) reads of it (rdma_create_ep's "
			 "page)",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .node = N_TARGET,
	  .family = AF_INET,
	  .service = S_PORT,
	  H(.ai_flags = RAI_PASSIVE | RAI_NUMERICHOST,
	    .ai_port_space = RDMA_PS_TCP),
	  .expect = X_FLAGS },
	{ .c = { .id = "rdmacm/getaddrinfo/active-result-says-so",
		 .doc = DOC_CREATE_EP,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "without RAI_PASSIVE: the result's ai_flags has no "
			 "RAI_PASSIVE (rdma_create_ep(3) would make a "
			 "listening id of it)",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .node = N_TARGET,
	  .family = AF_INET,
	  .service = S_PORT,
	  H(.ai_flags = RAI_NUMERICHOST, .ai_port_space = RDMA_PS_TCP),
	  .expect = X_FLAGS },
	{ .c = { .id = "rdmacm/getaddrinfo/family-ib-without-family-flag",
		 .doc = DOC_FAMILY,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "ai_family AF_IB (one of the page's families) without "
			 "RAI_FAMILY, the target's IPv4 address: 0, ai_dst_addr "
			 "that address and port (the family is a hint for the "
			 "node only when RAI_FAMILY is set)",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .node = N_TARGET,
	  .family = AF_INET,
	  .service = S_PORT,
	  H(.ai_flags = RAI_NUMERICHOST, .ai_family = AF_IB,
	    .ai_port_space = RDMA_PS_TCP),
	  .expect = X_DST },
	{ .c = { .id = "rdmacm/getaddrinfo/family-without-family-flag",
		 .doc = DOC_FAMILY,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "ai_family AF_INET6 without RAI_FAMILY, RAI_PASSIVE, "
			 "the target's IPv4 address: 0, ai_src_addr that "
			 "address and port (the family is a hint for the node "
			 "only when RAI_FAMILY is set)",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .node = N_TARGET,
	  .family = AF_INET,
	  .service = S_PORT,
	  H(.ai_flags = RAI_PASSIVE | RAI_NUMERICHOST, .ai_family = AF_INET6,
	    .ai_port_space = RDMA_PS_TCP),
	  .expect = X_PASSIVE },
	{ .c = { .id = "rdmacm/getaddrinfo/service-only-active",
		 .doc = DOC_RESOLVE " ... " DOC_EQUIVALENT,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "no node, the row's port, no flags: ai_dst_addr the "
			 "loopback address with the port, as getaddrinfo(3) "
			 "answers without AI_PASSIVE",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .node = N_NONE,
	  .service = S_PORT,
	  H(.ai_port_space = RDMA_PS_TCP),
	  .expect = X_NAME },
	{ .c = { .id = "rdmacm/getaddrinfo/service-only-active-numeric",
		 .doc = DOC_RESOLVE " ... " DOC_EQUIVALENT,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the same with RAI_NUMERICHOST (no node to be "
			 "numeric): ai_dst_addr the loopback address with the "
			 "port",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .node = N_NONE,
	  .service = S_PORT,
	  H(.ai_flags = RAI_NUMERICHOST, .ai_port_space = RDMA_PS_TCP),
	  .expect = X_NAME },
	{ .c = { .id = "rdmacm/getaddrinfo/passive-name",
		 .doc = DOC_PASSIVE_SIDE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "RAI_PASSIVE with \"localhost\", a name: 0, "
			 "ai_src_addr 127.0.0.1 or ::1 with the row's port, "
			 "ai_dst_len 0",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .node = N_LOCALHOST,
	  .service = S_PORT,
	  H(.ai_flags = RAI_PASSIVE, .ai_port_space = RDMA_PS_TCP),
	  .expect = X_PASSIVE },
	{ .c = { .id = "rdmacm/getaddrinfo/service-not-for-qp-type",
		 .doc = DOC_EAI_SERVICE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "IBV_QPT_UD with RDMA_PS_UDP and a service name "
			 "/etc/services has for TCP only (ssh, smtp or http): "
			 "EAI_SERVICE",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(EAI_SERVICE) } },
	  .node = N_TARGET,
	  .family = AF_INET,
	  .service = S_TCP_NAME,
	  H(.ai_flags = RAI_NUMERICHOST, .ai_port_space = RDMA_PS_UDP,
	    .ai_qp_type = IBV_QPT_UD),
	  .expect = X_FAILS },
	{ .c = { .id = "rdmacm/getaddrinfo/service-name",
		 .doc = DOC_SERVICE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the same name with IBV_QPT_RC and RDMA_PS_TCP: 0, "
			 "ai_dst_addr the target's address with the name's "
			 "port",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .node = N_TARGET,
	  .family = AF_INET,
	  .service = S_TCP_NAME,
	  H(.ai_flags = RAI_NUMERICHOST, .ai_port_space = RDMA_PS_TCP,
	    .ai_qp_type = IBV_QPT_RC),
	  .expect = X_DST },
	{ .c = { .id = "rdmacm/getaddrinfo/hints-addresses-passive",
		 .doc = DOC_PASSIVE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "no node, no service, RAI_PASSIVE; hints.ai_src_addr "
			 "the peer's IPv4 address, ai_dst_addr the target's: "
			 "ai_dst_len 0, ai_src_addr the peer's, ai_family "
			 "AF_INET",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .node = N_NONE,
	  .family = AF_INET,
	  H(.ai_flags = RAI_PASSIVE, .ai_port_space = RDMA_PS_TCP),
	  .expect = X_PASSIVE_HINTS },
	{ .c = { .id = "rdmacm/getaddrinfo/hints-without-addresses",
		 .doc = DOC_NONAME,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "hints with a port space and no address, node and "
			 "service NULL: nothing to resolve, EAI_NONAME",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(EAI_NONAME) } },
	  .node = N_NONE,
	  H(.ai_port_space = RDMA_PS_TCP),
	  .expect = X_FAILS },
};

static socklen_t len_of(int family)
{
	return family == AF_INET ? sizeof(struct sockaddr_in) :
				   sizeof(struct sockaddr_in6);
}

static void set_port(struct sockaddr_storage *ss, uint16_t port)
{
	if (ss->ss_family == AF_INET)
		((struct sockaddr_in *)ss)->sin_port = htons(port);
	else
		((struct sockaddr_in6 *)ss)->sin6_port = htons(port);
}

/* @got is @want (address and port, of its length) */
static void same_addr(struct rc_ctx *ctx, const char *field,
		      const struct sockaddr *got, socklen_t got_len,
		      const struct sockaddr_storage *want)
{
	socklen_t len = len_of(want->ss_family);
	char a[INET6_ADDRSTRLEN] = "?";

	if (!got || got_len != len) {
		rc_obs_violation(ctx->obs, "%s length %u, not %u", field,
				 got ? (unsigned int)got_len : 0, len);
		return;
	}
	if (got->sa_family != want->ss_family ||
	    cm_port_of(got) != cm_port_of((const struct sockaddr *)want) ||
	    memcmp(want->ss_family == AF_INET ?
			   (const void *)&((struct sockaddr_in *)got)->sin_addr :
			   (const void *)&((struct sockaddr_in6 *)got)
				   ->sin6_addr,
		   want->ss_family == AF_INET ?
			   (const void *)&((struct sockaddr_in *)want)->sin_addr :
			   (const void *)&((struct sockaddr_in6 *)want)
				   ->sin6_addr,
		   want->ss_family == AF_INET ? 4 : 16)) {
		inet_ntop(got->sa_family,
			  got->sa_family == AF_INET ?
				  (const void *)&((struct sockaddr_in *)got)
					  ->sin_addr :
				  (const void *)&((struct sockaddr_in6 *)got)
					  ->sin6_addr,
			  a, sizeof(a));
		rc_obs_violation(ctx->obs, "%s is %s port 0x%04x", field, a,
				 ntohs(cm_port_of(got)));
	}
}

/* the loopback address of @a's family (AF_INET when none) and the row's
 * port */
static void loopback_like(struct rc_ctx *ctx, const struct sockaddr *a,
			  struct sockaddr_storage *lo)
{
	memset(lo, 0, sizeof(*lo));
	lo->ss_family = a ? a->sa_family : AF_INET;
	if (lo->ss_family == AF_INET)
		((struct sockaddr_in *)lo)->sin_addr.s_addr =
			htonl(INADDR_LOOPBACK);
	else
		((struct sockaddr_in6 *)lo)->sin6_addr = in6addr_loopback;
	set_port(lo, cm_port(ctx));
}

/* A name /etc/services gives for TCP and not for UDP, its TCP port in
 * *@port (host order); NULL when none is */
static const char *tcp_only_service(uint16_t *port)
{
	static const char *const names[] = { "ssh", "smtp", "http" };
	struct servent *se;
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (getservbyname(names[i], "udp"))
			continue;
		se = getservbyname(names[i], "tcp");
		if (se) {
			*port = ntohs(se->s_port);
			return names[i];
		}
	}
	return NULL;
}

/* The rows whose hints carry the peer's address as the source, and the
 * target's as the destination (each of a whole sockaddr_storage's length
 * for X_HINTS_WHOLE) */
static bool hints_src(enum expect x)
{
	return x == X_HINTS || x == X_HINTS_WHOLE || x == X_SRC ||
	       x == X_PASSIVE_HINTS;
}

static bool hints_dst(enum expect x)
{
	return x == X_HINTS || x == X_HINTS_WHOLE || x == X_PASSIVE_HINTS;
}

static bool is_wildcard(const struct sockaddr *a)
{
	if (a->sa_family == AF_INET)
		return ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
		       htonl(INADDR_ANY);
	return a->sa_family == AF_INET6 &&
	       IN6_IS_ADDR_UNSPECIFIED(
		       &((const struct sockaddr_in6 *)a)->sin6_addr);
}

/* a QP type of the page's two, and a port space consistent with it */
static void supported_pair(struct rc_ctx *ctx, const struct rdma_addrinfo *res)
{
	int ps = res->ai_port_space;

	if ((res->ai_qp_type == IBV_QPT_RC &&
	     (ps == RDMA_PS_TCP || ps == RDMA_PS_IB)) ||
	    (res->ai_qp_type == IBV_QPT_UD &&
	     (ps == RDMA_PS_UDP || ps == RDMA_PS_IB)))
		return;
	rc_obs_violation(ctx->obs,
			 "ai_qp_type %d with ai_port_space 0x%x: not a "
			 "supported QP type with a port space consistent "
			 "with it",
			 res->ai_qp_type, ps);
}

static void check_result(const struct ga_row *row, struct rc_ctx *ctx,
			 const struct rdma_addrinfo *res,
			 const struct sockaddr_storage *addr,
			 const struct sockaddr_storage *peer)
{
	struct sockaddr_storage lo = { 0 };
	int passive = row->hints.ai_flags & RAI_PASSIVE;

	if (row->ps && res->ai_port_space != row->ps)
		rc_obs_violation(ctx->obs, "ai_port_space %d, not %d",
				 res->ai_port_space, row->ps);
	if (row->qp_type && res->ai_qp_type != row->qp_type)
		rc_obs_violation(ctx->obs, "ai_qp_type %d, not %d",
				 res->ai_qp_type, row->qp_type);
	if (row->no_hints)
		supported_pair(ctx, res);
	switch (row->expect) {
	case X_DST:
	case X_HINTS:
	case X_SRC:
		same_addr(ctx, "ai_dst_addr", res->ai_dst_addr, res->ai_dst_len,
			  addr);
		if (res->ai_family != addr->ss_family)
			rc_obs_violation(ctx->obs, "ai_family %d, not %d",
					 res->ai_family, addr->ss_family);
		if (row->expect == X_SRC)
			same_addr(ctx, "ai_src_addr", res->ai_src_addr,
				  res->ai_src_len, peer);
		break;
	case X_HINTS_WHOLE:
		if (!res->ai_dst_addr || res->ai_dst_len != sizeof(*addr))
			rc_obs_violation(ctx->obs, "ai_dst_len %u, not %zu",
					 res->ai_dst_addr ?
						 (unsigned int)res->ai_dst_len :
						 0,
					 sizeof(*addr));
		else if (memcmp(res->ai_dst_addr, addr, sizeof(*addr)))
			rc_obs_violation(ctx->obs,
					 "ai_dst_addr: not the %zu bytes given",
					 sizeof(*addr));
		break;
	case X_PAIR:
		supported_pair(ctx, res);
		break;
	case X_FLAGS:
		if ((res->ai_flags & RAI_PASSIVE) != passive)
			rc_obs_violation(ctx->obs,
					 "ai_flags 0x%x: RAI_PASSIVE %s where "
					 "the hints %s it",
					 res->ai_flags,
					 passive ? "clear" : "set",
					 passive ? "had" : "had not");
		break;
	case X_PS:
		break;
	case X_PASSIVE:
		if (res->ai_dst_len)
			rc_obs_violation(ctx->obs,
					 "ai_dst_len %u with RAI_PASSIVE",
					 (unsigned int)res->ai_dst_len);
		if (row->node == N_TARGET) {
			same_addr(ctx, "ai_src_addr", res->ai_src_addr,
				  res->ai_src_len, addr);
		} else if (row->node == N_LOCALHOST) {
			loopback_like(ctx, res->ai_src_addr, &lo);
			same_addr(ctx, "ai_src_addr", res->ai_src_addr,
				  res->ai_src_len, &lo);
		} else if (!res->ai_src_addr || !res->ai_src_len ||
			   !is_wildcard(res->ai_src_addr) ||
			   cm_port_of(res->ai_src_addr) !=
				   htons(cm_port(ctx))) {
			rc_obs_violation(ctx->obs,
					 "ai_src_addr not the wildcard "
					 "address with port 0x%04x",
					 cm_port(ctx));
		}
		break;
	case X_NAME:
		loopback_like(ctx, res->ai_dst_addr, &lo);
		same_addr(ctx, "ai_dst_addr", res->ai_dst_addr, res->ai_dst_len,
			  &lo);
		break;
	case X_PASSIVE_HINTS:
		if (res->ai_dst_len)
			rc_obs_violation(ctx->obs,
					 "ai_dst_len %u with RAI_PASSIVE",
					 (unsigned int)res->ai_dst_len);
		same_addr(ctx, "ai_src_addr", res->ai_src_addr, res->ai_src_len,
			  peer);
		if (res->ai_family != AF_INET)
			rc_obs_violation(ctx->obs, "ai_family %d, not AF_INET",
					 res->ai_family);
		break;
	case X_FAILS:
		rc_obs_violation(ctx->obs, "result given where it fails");
		break;
	}
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct ga_row *row = r;
	struct rdma_addrinfo hints = row->hints, *res = NULL;
	struct sockaddr_storage addr = { 0 }, peer = { 0 };
	char node[INET6_ADDRSTRLEN] = "", service[8];
	const char *svc = service;
	uint16_t port = cm_port(ctx);
	socklen_t hlen = row->expect == X_HINTS_WHOLE ?
				 sizeof(struct sockaddr_storage) :
				 len_of(AF_INET);
	int ret;

	if (!rc_need_call(ctx, ctx->ops->rdma_getaddrinfo,
			  "rdma_getaddrinfo") ||
	    !rc_need_call(ctx, ctx->ops->rdma_freeaddrinfo,
			  "rdma_freeaddrinfo"))
		return;
	snprintf(service, sizeof(service), "%u", port);
	if (row->service == S_TCP_NAME) {
		svc = tcp_only_service(&port);
		if (!svc) {
			rc_obs_state(ctx->obs, RC_STATE_SKIP,
				     "/etc/services gives none of ssh, smtp "
				     "and http for TCP only");
			return;
		}
	}
	if (row->family) {
		if (!cm_dev_addr(ctx, ctx->target->ca, ctx->target->port,
				 row->family, &addr))
			return;
		set_port(&addr, port);
		inet_ntop(row->family,
			  row->family == AF_INET ?
				  (const void *)&((struct sockaddr_in *)&addr)
					  ->sin_addr :
				  (const void *)&((struct sockaddr_in6 *)&addr)
					  ->sin6_addr,
			  node, sizeof(node));
	}
	if (hints_src(row->expect)) {
		if (!cm_dev_addr(ctx, ctx->target->peer, ctx->target->peer_port,
				 AF_INET, &peer))
			return;
		hints.ai_src_addr = (struct sockaddr *)&peer;
		hints.ai_src_len = hlen;
	}
	if (hints_dst(row->expect)) {
		hints.ai_dst_addr = (struct sockaddr *)&addr;
		hints.ai_dst_len = hlen;
	}
	RC_OBSERVE(ctx, ret = ctx->ops->rdma_getaddrinfo(
				row->node == N_TARGET	 ? node :
				row->node == N_LOCALHOST ? "localhost" :
							   NULL,
				row->service ? svc : NULL,
				row->no_hints ? NULL : &hints, &res));
	if (!ret && res) {
		check_result(row, ctx, res, &addr, &peer);
		ctx->ops->rdma_freeaddrinfo(res);
	} else if (!ret) {
		rc_obs_violation(ctx->obs, "res NULL after success");
	}
}

RC_TABLE_GROUP(group, "rdma_getaddrinfo", RC_CONV_NEG, "rdmacm", rows, run);
