// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_event_type_str(3): "ibv_node_type_str() returns a string describing
 * the node type enum value node_type", and the same of ibv_port_state_str
 * and ibv_event_type_str; "These functions return a constant string that
 * describes the enum value passed as their argument."  ibv_wc_status_str
 * has no page in rdma-core 44.0 (nor upstream): <infiniband/verbs.h>
 * declares it beside them, and its rows read it as one of them.
 *
 * Each domain is finite, and each row walks all of it in one call:
 * - whole-domain: every value of the enum gives a non-empty printable
 *   string (documented)
 * - constant: the strings still read as they did after every other value
 *   was asked (documented: "a constant string"; a buffer reused per call
 *   is not)
 * - values-told-apart: no two values of the enum give the same string,
 *   nor one of them and the value after the enum (interpretation: a
 *   string that describes two values describes neither)
 * - outside-domain: values beyond the enum, either side, still give a
 *   printable string (interpretation: the page names no failure)
 * The wording is not compared across implementations: the page fixes
 * none.
 */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "verbs_ctl.h"

#define DOC_NODE                                                    \
	"ibv_node_type_str() returns a string describing the node " \
	"type enum value node_type."
#define DOC_PORT                                                \
	"ibv_port_state_str() returns a string describing the " \
	"port state enum value port_state."
#define DOC_EVENT                                               \
	"ibv_event_type_str() returns a string describing the " \
	"event type enum value event_type."
#define DOC_RET                                                    \
	"These functions return a constant string that describes " \
	"the enum value passed as their argument."

#define NOTE_WC                                                \
	"ibv_wc_status_str has no page: read as one of these " \
	"functions, which <infiniband/verbs.h> declares it beside; "

/* the longest string kept to compare */
#define KEEP 96

/* A domain: its call through ops, and its values in [lo, hi] (with an
 * extra value below, IBV_NODE_UNKNOWN's -1, when @extra). */
struct domain {
	const char *(*call)(const struct rc_ops *ops, int v);
	int lo, hi;
	bool extra;
	int extra_v;
};

static const char *node(const struct rc_ops *ops, int v)
{
	return ops->ibv_node_type_str((enum ibv_node_type)v);
}

static const char *port(const struct rc_ops *ops, int v)
{
	return ops->ibv_port_state_str((enum ibv_port_state)v);
}

static const char *event(const struct rc_ops *ops, int v)
{
	return ops->ibv_event_type_str((enum ibv_event_type)v);
}

static const char *wc(const struct rc_ops *ops, int v)
{
	return ops->ibv_wc_status_str((enum ibv_wc_status)v);
}

static const struct domain node_dom = {
	.call = node,
	.lo = IBV_NODE_CA,
	.hi = IBV_NODE_UNSPECIFIED,
	.extra = true,
	.extra_v = IBV_NODE_UNKNOWN,
};
static const struct domain port_dom = {
	.call = port,
	.lo = IBV_PORT_NOP,
	.hi = IBV_PORT_ACTIVE_DEFER,
};
static const struct domain event_dom = {
	.call = event,
	.lo = IBV_EVENT_CQ_ERR,
	.hi = IBV_EVENT_WQ_FATAL,
};
static const struct domain wc_dom = {
	.call = wc,
	.lo = IBV_WC_SUCCESS,
	.hi = IBV_WC_TM_RNDV_INCOMPLETE,
};

static const struct domain *domain_of(long arg)
{
	static const struct domain *const d[] = { &node_dom, &port_dom,
						  &event_dom, &wc_dom };

	return d[arg];
}

enum { NODE, PORT, EVENT, WC };

static vc_check whole_domain, constant, values_told_apart, outside_domain;

#define STR_ROW(call, what, dom, d, b, n, chk)            \
	{                                                 \
		.c = { .id = "verbs/" call "/" what,      \
		       .doc = d,                          \
		       .basis = b,                        \
		       .note = n,                         \
		       .contract = { RC_RETURNS(1) } },   \
		.check = chk, .rung = VC_BARE, .arg = dom \
	}

#define STR_ROWS(call, dom, d, b, n)                                                 \
	STR_ROW(call, "whole-domain", dom, d, b, n, whole_domain),                   \
		STR_ROW(call, "constant", dom, DOC_RET, b, n, constant),             \
		STR_ROW(call, "values-told-apart", dom, d,                           \
			RC_BASIS_INTERPRETATION,                                     \
			"no two values of the enum, nor one of them and one "        \
			"beyond it, give one string: a string that describes two "   \
			"values describes neither",                                  \
			values_told_apart),                                          \
		STR_ROW(call, "outside-domain", dom, DOC_RET,                        \
			RC_BASIS_INTERPRETATION,                                     \
			"the values next to the enum's "                             \
			"ends and INT_MIN/INT_MAX: the page names no failure, so a " \
			"printable string",                                          \
			outside_domain)

static const struct vc_row node_rows[] = {
	STR_ROWS("node_type_str", NODE, DOC_NODE, RC_BASIS_DOCUMENTED, NULL),
};
static const struct vc_row port_rows[] = {
	STR_ROWS("port_state_str", PORT, DOC_PORT, RC_BASIS_DOCUMENTED, NULL),
};
static const struct vc_row event_rows[] = {
	STR_ROWS("event_type_str", EVENT, DOC_EVENT, RC_BASIS_DOCUMENTED, NULL),
};
static const struct vc_row wc_rows[] = {
	STR_ROWS("wc_status_str", WC, DOC_RET, RC_BASIS_INTERPRETATION,
		 NOTE_WC "every status of enum ibv_wc_status"),
};

static bool printable(const char *s)
{
	if (!s || !*s)
		return false;
	for (; *s; s++)
		if (!isprint((unsigned char)*s))
			return false;
	return true;
}

/* The values of @d in order: how many, into @v (room for 64). */
static int values(const struct domain *d, int *v)
{
	int n = 0, i;

	if (d->extra)
		v[n++] = d->extra_v;
	for (i = d->lo; i <= d->hi; i++)
		v[n++] = i;
	return n;
}

/* Every value of the domain, each string checked: 1 when all are. */
static int walk(struct rc_ctx *ctx, const struct domain *d)
{
	int v[64], n = values(d, v), i, bad = 0;
	const char *s;

	for (i = 0; i < n; i++) {
		s = d->call(ctx->ops, v[i]);
		if (!printable(s)) {
			bad++;
			rc_obs_violation(ctx->obs, "value %d: %s", v[i],
					 s ? "not printable" : "NULL");
		}
	}
	return !bad;
}

static void whole_domain(const struct vc_row *row, struct rc_ctx *ctx,
			 struct vl *l)
{
	RC_OBSERVE(ctx, walk(ctx, domain_of(row->arg)));
}

static int kept_still(struct rc_ctx *ctx, const struct domain *d)
{
	static char kept[64][KEEP];
	const char *s[64];
	int v[64], n = values(d, v), i, bad = 0;

	for (i = 0; i < n; i++) {
		s[i] = d->call(ctx->ops, v[i]);
		snprintf(kept[i], KEEP, "%s", s[i] ? s[i] : "");
	}
	for (i = 0; i < n; i++)
		if (!s[i] || strncmp(s[i], kept[i], KEEP - 1)) {
			bad++;
			rc_obs_violation(ctx->obs,
					 "value %d: its string "
					 "changed when others were asked",
					 v[i]);
		}
	return !bad;
}

static void constant(const struct vc_row *row, struct rc_ctx *ctx, struct vl *l)
{
	RC_OBSERVE(ctx, kept_still(ctx, domain_of(row->arg)));
}

static int apart(struct rc_ctx *ctx, const struct domain *d)
{
	static char kept[64][KEEP];
	char outside[KEEP];
	int v[64], n = values(d, v), i, j, bad = 0;
	const char *s;

	for (i = 0; i < n; i++) {
		s = d->call(ctx->ops, v[i]);
		snprintf(kept[i], KEEP, "%s", s ? s : "");
	}
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			if (!strcmp(kept[i], kept[j])) {
				bad++;
				rc_obs_violation(ctx->obs,
						 "values %d and %d: "
						 "both \"%s\"",
						 v[i], v[j], kept[i]);
			}
	/* nor does a value from lo to hi describe one beyond the enum (the
	 * extra IBV_NODE_UNKNOWN may: it names a node of no known type) */
	s = d->call(ctx->ops, d->hi + 1);
	snprintf(outside, KEEP, "%s", s ? s : "");
	for (i = 0; i < n; i++)
		if (v[i] >= d->lo && !strcmp(kept[i], outside)) {
			bad++;
			rc_obs_violation(ctx->obs,
					 "value %d: \"%s\", as %d beyond the "
					 "enum",
					 v[i], kept[i], d->hi + 1);
		}
	return !bad;
}

static void values_told_apart(const struct vc_row *row, struct rc_ctx *ctx,
			      struct vl *l)
{
	RC_OBSERVE(ctx, apart(ctx, domain_of(row->arg)));
}

static int beyond(struct rc_ctx *ctx, const struct domain *d)
{
	int v[] = { (d->extra ? d->extra_v : d->lo) - 1, d->hi + 1, d->hi + 100,
		    INT_MIN, INT_MAX };
	const char *s;
	int i, bad = 0;

	for (i = 0; i < (int)ARRAY_SIZE(v); i++) {
		s = d->call(ctx->ops, v[i]);
		if (!printable(s)) {
			bad++;
			rc_obs_violation(ctx->obs, "value %d: %s", v[i],
					 s ? "not printable" : "NULL");
		}
	}
	return !bad;
}

static void outside_domain(const struct vc_row *row, struct rc_ctx *ctx,
			   struct vl *l)
{
	RC_OBSERVE(ctx, beyond(ctx, domain_of(row->arg)));
}

VC_GROUP(node, ibv_node_type_str, RC_CONV_VALUE, node_rows);
VC_GROUP(port, ibv_port_state_str, RC_CONV_VALUE, port_rows);
VC_GROUP(event, ibv_event_type_str, RC_CONV_VALUE, event_rows);
VC_GROUP(wc, ibv_wc_status_str, RC_CONV_VALUE, wc_rows);
