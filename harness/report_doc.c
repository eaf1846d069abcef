// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The results files a report reads (report_doc.h): loaded, labelled, and
 * looked into.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "report_doc.h"
#include "results.h"

/* a scalar member as text ("" when absent) */
const char *rc_report_text(const struct rc_jv *obj, const char *key, char *buf,
			   size_t len)
{
	const struct rc_jv *v = rc_jv_get(obj, key);

	buf[0] = 0;
	if (!v)
		return buf;
	switch (v->type) {
	case RC_JSTR:
		snprintf(buf, len, "%s", v->str);
		break;
	case RC_JNUM:
		snprintf(buf, len, "%.15g", v->num);
		break;
	case RC_JBOOL:
		snprintf(buf, len, "%s", v->b ? "true" : "false");
		break;
	case RC_JARR: {
		size_t i, n = 0;

		for (i = 0; i < v->n && n < len; i++)
			if (v->items[i].type == RC_JSTR)
				n += snprintf(buf + n, len - n, "%s%s",
					      i ? ", " : "", v->items[i].str);
		break;
	}
	default:
		break;
	}
	return buf;
}

bool rc_report_case_ok(const struct rc_jv *c)
{
	const struct rc_jv *ok = rc_jv_get(c, "ok");

	return ok && ok->type == RC_JBOOL && ok->b;
}

bool rc_report_noteworthy(const struct rc_jv *c)
{
	int i;

	for (i = 0; i < RC_NIMPLS; i++)
		if (rc_verdict_parse(rc_case_verdict(c, i)) != RC_PASS)
			return true;
	return !rc_report_case_ok(c) || rc_jv_str(c, "divergence");
}

int rc_report_load_one(const char *path, struct rc_report_run *run, char *err,
		       size_t errlen)
{
	const struct rc_jv *dev, *host;
	char b1[64], b2[64];

	run->path = path;
	run->doc = rc_results_load(path, err, errlen);
	if (!run->doc)
		return -1;
	run->results = rc_jv_get(run->doc, "results");
	dev = rc_jv_get(run->doc, "device");
	host = rc_jv_get(run->doc, "host");
	snprintf(run->label, sizeof(run->label),
		 "%s (%s), "
		 "rdma-core %s, Linux %s%s%s",
		 rc_jv_str(dev, "name") ? rc_jv_str(dev, "name") : "no device",
		 rc_jv_str(dev, "driver") ? rc_jv_str(dev, "driver") : "-",
		 rc_report_text(host, "rdma_core", b1, sizeof(b1)),
		 rc_report_text(host, "kernel", b2, sizeof(b2)),
		 rc_jv_str(host, "os") ? ", " : "",
		 rc_jv_str(host, "os") ? rc_jv_str(host, "os") : "");
	return 0;
}

int rc_report_load(int n, char **paths, struct rc_report_run *runs)
{
	char err[512];
	int i;

	for (i = 0; i < n; i++)
		if (rc_report_load_one(paths[i], &runs[i], err, sizeof(err))) {
			fprintf(stderr, "rdmaconf: %s\n", err);
			return -1;
		}
	return 0;
}

const struct rc_jv *rc_report_find(const struct rc_report_run *r,
				   const char *id)
{
	return rc_results_find(r->results, id);
}

/* Every case id of every run, first appearance first. */
const char **rc_report_ids(const struct rc_report_run *runs, int n,
			   size_t *count)
{
	const char **ids = NULL;
	size_t k = 0, i, j;
	int r;

	for (r = 0; r < n; r++)
		for (i = 0; i < runs[r].results->n; i++) {
			const char *id =
				rc_jv_str(&runs[r].results->items[i], "id");

			for (j = 0; id && j < k && strcmp(ids[j], id); j++)
				;
			if (!id || j < k)
				continue;
			ids = realloc(ids, (k + 1) * sizeof(*ids));
			if (!ids)
				abort();
			ids[k++] = id;
		}
	*count = k;
	return ids;
}
