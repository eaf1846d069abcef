// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * JUnit XML, for CI systems: a testcase per row, <failure> for a row that
 * is not ok, <skipped> for one that nobody ran; the run's environment as
 * properties.
 */
#include <errno.h>
#include <sys/utsname.h>

#include "escape.h"
#include "output.h"
#include "wfile.h"

void rc_junit_row(struct rc_str *b, const struct rc_group *g,
		  const struct rc_case *c, const struct rc_row_result *r)
{
	const struct rc_outcome *oc = r->oc;

	rc_str_printf(b, "<testcase classname=\"%s\" name=\"", g->call);
	rc_str_html(b, c->id);
	rc_str_printf(b, "\">");
	if (r->bad) {
		rc_str_printf(b, "<failure message=\"");
		rc_str_html(b,
			    r->why[0] && !r->expected_divergence ? r->why :
			    r->stale[0]				 ? r->stale :
			    oc[0].selected && rc_verdict_bad(oc[0].j.verdict) ?
					  oc[0].j.msg :
					  oc[1].j.msg);
		rc_str_printf(b, "\"/>");
	} else if (!r->anyran) {
		rc_str_printf(b, "<skipped message=\"");
		rc_str_html(b, oc[0].selected ? oc[0].j.msg : oc[1].j.msg);
		rc_str_printf(b, "\"/>");
	}
	rc_str_printf(b, "</testcase>\n");
}

static void property(struct rc_str *b, const char *name, const char *value)
{
	rc_str_printf(b, "    <property name=\"%s\" value=\"", name);
	rc_str_html(b, value ? value : "");
	rc_str_printf(b, "\"/>\n");
}

/* The environment of the run (CI systems show it). */
static void properties(struct rc_str *b, const struct rc_device *dev)
{
	static const char *const libs[] = { "umad", "verbs", "rdmacm" };
	struct rc_str fp = {};
	struct utsname u;
	char name[32];
	size_t i;

	uname(&u);
	rc_str_printf(b, "  <properties>\n");
	property(b, "kernel", u.release);
	property(b, "rdma_core",
		 rc_impl_rdma_core_version(rc_impl_system_origin("umad")));
	for (i = 0; i < ARRAY_SIZE(libs); i++) {
		snprintf(name, sizeof(name), "lib_%s", libs[i]);
		property(b, name, rc_impl_system_origin(libs[i]));
	}
	property(b, "device", dev ? dev->name : "none");
	rc_device_fingerprint(dev, &fp);
	property(b, "device_fingerprint", fp.s);
	rc_str_printf(b, "  </properties>\n");
	rc_str_free(&fp);
}

int rc_junit_write(const char *path, const struct rc_str *rows,
		   const struct rc_summary *s, const struct rc_device *dev)
{
	struct rc_str doc = {};
	int ret;

	rc_str_printf(&doc,
		      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		      "<testsuite name=\"rdmaconf\" tests=\"%u\" "
		      "failures=\"%u\">\n",
		      s->cases, s->bad);
	properties(&doc, dev);
	rc_str_printf(&doc, "%s</testsuite>\n", rows->s ? rows->s : "");
	/* whole, or not at all: a full disk says so, and cuts nothing */
	ret = rc_wfile_write(path, &(struct rc_piece){ doc.s, doc.len }, 1);
	rc_str_free(&doc);
	return ret;
}
