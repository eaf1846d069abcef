// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_event_str(3): "Returns a string representation of an asynchronous
 * event."  "Returns a pointer to a static character string corresponding
 * to the event."  The representation is the event's name as
 * rdma_get_cm_event(3) lists it; a value the page does not list gets a
 * string that names none of them.
 */
#include "ref_rdmacm.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

static const char *const names[] = {
#define N(e) [RDMA_CM_EVENT_##e] = "RDMA_CM_EVENT_" #e
	N(ADDR_RESOLVED),  N(ADDR_ERROR),      N(ROUTE_RESOLVED),
	N(ROUTE_ERROR),	   N(CONNECT_REQUEST), N(CONNECT_RESPONSE),
	N(CONNECT_ERROR),  N(UNREACHABLE),     N(REJECTED),
	N(ESTABLISHED),	   N(DISCONNECTED),    N(DEVICE_REMOVAL),
	N(MULTICAST_JOIN), N(MULTICAST_ERROR), N(ADDR_CHANGE),
	N(TIMEWAIT_EXIT),
#undef N
};

const char *ref_rdma_event_str(enum rdma_cm_event_type event)
{
	if ((unsigned int)event >= ARRAY_LEN(names))
		return "an unknown event";
	return names[event];
}
