// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_node_type_str(3), ibv_port_state_str(3), ibv_event_type_str(3), and
 * ibv_wc_status_str (exported, named in <infiniband/verbs.h>, without a
 * page of its own).
 *
 * "These functions return a constant string that describes the enum
 * value passed as their argument"; the pages fix no wording.  The event
 * types are described in ibv_get_async_event(3)'s own words; the other
 * strings are the names the InfiniBand Architecture Specification gives
 * the values (node types, PortInfo:PortState, the completion statuses of
 * the verbs chapter).  A value outside the enum is "unknown".
 */
#include <infiniband/verbs.h>

#include "ref_verbs.h"

#define UNKNOWN "unknown"
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const char *lookup(const char *const *names, size_t n, long v)
{
	if (v < 0 || (size_t)v >= n || !names[v])
		return UNKNOWN;
	return names[v];
}

const char *ref_ibv_node_type_str(enum ibv_node_type node_type)
{
	static const char *const names[] = {
		[IBV_NODE_CA] = "channel adapter",
		[IBV_NODE_SWITCH] = "switch",
		[IBV_NODE_ROUTER] = "router",
		[IBV_NODE_RNIC] = "RDMA NIC (iWARP)",
		[IBV_NODE_USNIC] = "usNIC",
		[IBV_NODE_USNIC_UDP] = "usNIC UDP",
		[IBV_NODE_UNSPECIFIED] = "unspecified",
	};

	return lookup(names, COUNT(names), node_type);
}

const char *ref_ibv_port_state_str(enum ibv_port_state port_state)
{
	static const char *const names[] = {
		[IBV_PORT_NOP] = "no state change (NOP)",
		[IBV_PORT_DOWN] = "down",
		[IBV_PORT_INIT] = "initialize",
		[IBV_PORT_ARMED] = "armed",
		[IBV_PORT_ACTIVE] = "active",
		[IBV_PORT_ACTIVE_DEFER] = "active, deferred",
	};

	return lookup(names, COUNT(names), port_state);
}

/* ibv_get_async_event(3), DESCRIPTION, one sentence per event type */
const char *ref_ibv_event_type_str(enum ibv_event_type event)
{
	static const char *const names[] = {
		[IBV_EVENT_CQ_ERR] = "CQ is in error (CQ overrun)",
		[IBV_EVENT_QP_FATAL] =
			"Error occurred on a QP and it transitioned to error state",
		[IBV_EVENT_QP_REQ_ERR] =
			"Invalid Request Local Work Queue Error",
		[IBV_EVENT_QP_ACCESS_ERR] = "Local access violation error",
		[IBV_EVENT_COMM_EST] = "Communication was established on a QP",
		[IBV_EVENT_SQ_DRAINED] =
			"Send Queue was drained of outstanding messages in progress",
		[IBV_EVENT_PATH_MIG] =
			"A connection has migrated to the alternate path",
		[IBV_EVENT_PATH_MIG_ERR] =
			"A connection failed to migrate to the alternate path",
		[IBV_EVENT_DEVICE_FATAL] = "CA is in FATAL state",
		[IBV_EVENT_PORT_ACTIVE] = "Link became active on a port",
		[IBV_EVENT_PORT_ERR] = "Link became unavailable on a port",
		[IBV_EVENT_LID_CHANGE] = "LID was changed on a port",
		[IBV_EVENT_PKEY_CHANGE] = "P_Key table was changed on a port",
		[IBV_EVENT_SM_CHANGE] = "SM was changed on a port",
		[IBV_EVENT_SRQ_ERR] = "Error occurred on an SRQ",
		[IBV_EVENT_SRQ_LIMIT_REACHED] = "SRQ limit was reached",
		[IBV_EVENT_QP_LAST_WQE_REACHED] =
			"Last WQE Reached on a QP associated with an SRQ",
		[IBV_EVENT_CLIENT_REREGISTER] =
			"SM sent a CLIENT_REREGISTER request to a port",
		[IBV_EVENT_GID_CHANGE] = "GID table was changed on a port",
		[IBV_EVENT_WQ_FATAL] =
			"Error occurred on a WQ and it transitioned to error state",
	};

	return lookup(names, COUNT(names), event);
}

const char *ref_ibv_wc_status_str(enum ibv_wc_status status)
{
	static const char *const names[] = {
		[IBV_WC_SUCCESS] = "success",
		[IBV_WC_LOC_LEN_ERR] = "local length error",
		[IBV_WC_LOC_QP_OP_ERR] = "local QP operation error",
		[IBV_WC_LOC_EEC_OP_ERR] = "local EE context operation error",
		[IBV_WC_LOC_PROT_ERR] = "local protection error",
		[IBV_WC_WR_FLUSH_ERR] = "work request flushed error",
		[IBV_WC_MW_BIND_ERR] = "memory window bind error",
		[IBV_WC_BAD_RESP_ERR] = "bad response error",
		[IBV_WC_LOC_ACCESS_ERR] = "local access error",
		[IBV_WC_REM_INV_REQ_ERR] = "remote invalid request error",
		[IBV_WC_REM_ACCESS_ERR] = "remote access error",
		[IBV_WC_REM_OP_ERR] = "remote operation error",
		[IBV_WC_RETRY_EXC_ERR] = "transport retry counter exceeded",
		[IBV_WC_RNR_RETRY_EXC_ERR] = "RNR retry counter exceeded",
		[IBV_WC_LOC_RDD_VIOL_ERR] = "local RDD violation error",
		[IBV_WC_REM_INV_RD_REQ_ERR] = "remote invalid RD request",
		[IBV_WC_REM_ABORT_ERR] = "remote aborted error",
		[IBV_WC_INV_EECN_ERR] = "invalid EE context number",
		[IBV_WC_INV_EEC_STATE_ERR] = "invalid EE context state error",
		[IBV_WC_FATAL_ERR] = "fatal error",
		[IBV_WC_RESP_TIMEOUT_ERR] = "response timeout error",
		[IBV_WC_GENERAL_ERR] = "general error",
		[IBV_WC_TM_ERR] = "tag matching error",
		[IBV_WC_TM_RNDV_INCOMPLETE] =
			"tag matching rendezvous incomplete",
	};

	return lookup(names, COUNT(names), status);
}
