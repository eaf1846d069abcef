// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_event_str(3): "Returns a string representation of an asynchronous
 * event."  RETURN VALUE: "Returns a pointer to a static character string
 * corresponding to the event."
 *
 * The whole domain, the 16 events rdma_get_cm_event(3) lists:
 * - each: its enumerator's name ("RDMA_CM_EVENT_ADDR_RESOLVED"), the one
 *   representation the pages use (interpretation)
 * - all: non-NULL, 16 different strings, the same pointer when asked
 *   again (static)
 * - 16 and -1, beyond the domain: a string that is none of the 16
 *   (interpretation: the page names no failure)
 */
#include <string.h>

#include "../../harness/rdmaconf.h"

#define DOC_STR "Returns a string representation of an asynchronous event."
#define DOC_STATIC                                        \
	"Returns a pointer to a static character string " \
	"corresponding to the event."
#define NEVENTS 16

struct str_row;
typedef void str_check(const struct str_row *row, struct rc_ctx *ctx);

struct str_row {
	struct rc_case c;
	str_check *check;
	int event;
	const char *name;
};

static str_check is_its_name, all_distinct_static, beyond_is_none;

#define NAME(e)                                                                   \
	{                                                                         \
		.c = { .id = "rdmacm/event_str/" #e,                              \
		       .doc = DOC_STR,                                            \
		       .basis = RC_BASIS_INTERPRETATION,                          \
		       .note = "the representation is the enumerator's name, as " \
			       "rdma_get_cm_event(3) lists the event",            \
		       .contract = { RC_ANY_RETURN } },                           \
		.check = is_its_name, .event = RDMA_CM_EVENT_##e,                 \
		.name = "RDMA_CM_EVENT_" #e                                       \
	}

static const struct str_row rows[] = {
	NAME(ADDR_RESOLVED),
	NAME(ADDR_ERROR),
	NAME(ROUTE_RESOLVED),
	NAME(ROUTE_ERROR),
	NAME(CONNECT_REQUEST),
	NAME(CONNECT_RESPONSE),
	NAME(CONNECT_ERROR),
	NAME(UNREACHABLE),
	NAME(REJECTED),
	NAME(ESTABLISHED),
	NAME(DISCONNECTED),
	NAME(DEVICE_REMOVAL),
	NAME(MULTICAST_JOIN),
	NAME(MULTICAST_ERROR),
	NAME(ADDR_CHANGE),
	NAME(TIMEWAIT_EXIT),
	{ .c = { .id = "rdmacm/event_str/all-distinct-static",
		 .doc = DOC_STATIC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "each of the 16 events: a string, none the same as "
			 "another's, and the same pointer when asked again",
		 .contract = { RC_ANY_RETURN } },
	  .check = all_distinct_static },
	{ .c = { .id = "rdmacm/event_str/beyond-16",
		 .doc = DOC_STR,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "a value past the last event: a string, not one of "
			 "the 16 (the page names no failure)",
		 .contract = { RC_ANY_RETURN } },
	  .check = beyond_is_none,
	  .event = NEVENTS },
	{ .c = { .id = "rdmacm/event_str/beyond-minus-1",
		 .doc = DOC_STR,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "-1: the same",
		 .contract = { RC_ANY_RETURN } },
	  .check = beyond_is_none,
	  .event = -1 },
};

static const char *str(struct rc_ctx *ctx, int event)
{
	return ctx->ops->rdma_event_str((enum rdma_cm_event_type)event);
}

static void is_its_name(const struct str_row *row, struct rc_ctx *ctx)
{
	const char *s;

	RC_OBSERVE(ctx, (s = str(ctx, row->event)) != NULL);
	if (!s) {
		rc_obs_violation(ctx->obs, "string NULL");
		return;
	}
	rc_obs_out(ctx->obs, s, strlen(s) + 1);
	if (strcmp(s, row->name))
		rc_obs_violation(ctx->obs, "string \"%.60s\", not \"%s\"", s,
				 row->name);
}

static void all_distinct_static(const struct str_row *row, struct rc_ctx *ctx)
{
	const char *s[NEVENTS];
	int i, j;

	RC_OBSERVE(ctx, (s[0] = str(ctx, 0)) != NULL);
	for (i = 1; i < NEVENTS; i++)
		s[i] = str(ctx, i);
	for (i = 0; i < NEVENTS; i++) {
		if (!s[i] || str(ctx, i) != s[i]) {
			rc_obs_violation(ctx->obs, "string event %d %s", i,
					 s[i] ? "moved when asked again" :
						"has none");
			return;
		}
		for (j = 0; j < i; j++)
			if (!strcmp(s[i], s[j]))
				rc_obs_violation(ctx->obs,
						 "string events %d "
						 "and %d read the same",
						 j, i);
	}
}

static void beyond_is_none(const struct str_row *row, struct rc_ctx *ctx)
{
	const char *s;
	int i;

	RC_OBSERVE(ctx, (s = str(ctx, row->event)) != NULL);
	if (!s) {
		rc_obs_violation(ctx->obs, "string NULL");
		return;
	}
	for (i = 0; i < NEVENTS; i++)
		if (!strcmp(s, rows[i].name))
			rc_obs_violation(ctx->obs, "string \"%s\", event %d's",
					 s, i);
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct str_row *row = r;

	if (rc_need_call(ctx, ctx->ops->rdma_event_str, "rdma_event_str"))
		row->check(row, ctx);
}

RC_TABLE_GROUP(group, "rdma_event_str", RC_CONV_VALUE, "rdmacm", rows, run);
