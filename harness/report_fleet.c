// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "compare.h"
#include "report_fleet.h"

#define FP_MAX 256

/* what makes two nodes the same kind of machine */
static void fingerprint(const struct rc_jv *doc, char *fp, size_t len)
{
	const struct rc_jv *dev = rc_jv_get(doc, "device");
	const struct rc_jv *host = rc_jv_get(doc, "host");
	const char *f[] = { rc_jv_str(dev, "driver"),
			    rc_jv_str(dev, "vendor_part_id"),
			    rc_jv_str(dev, "fw_ver"), rc_jv_str(host, "kernel"),
			    rc_jv_str(host, "rdma_core") };
	static const char *const names[] = { "driver", "part", "firmware",
					     "Linux", "rdma-core" };
	size_t i, n = 0;

	fp[0] = 0;
	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		n += snprintf(fp + n, n < len ? len - n : 0, "%s%s %s",
			      i ? ", " : "", names[i], f[i] ? f[i] : "-");
}

/* A case's outcome on one node, as the majority is taken over */
static void outcome(const struct rc_jv *c, char *out, size_t len)
{
	const struct rc_jv *ok = rc_jv_get(c, "ok");

	if (!c) {
		snprintf(out, len, "not run");
		return;
	}
	snprintf(out, len, "%s/%s%s", rc_case_verdict(c, RC_IMPL_SYSTEM),
		 rc_case_verdict(c, RC_IMPL_REFERENCE),
		 ok && ok->type == RC_JBOOL && !ok->b ? " not ok" : "");
}

static const char *str_or(const struct rc_jv *o, const char *key,
			  const char *dflt)
{
	const char *s = rc_jv_str(o, key);

	return s ? s : dflt;
}

static void node_table(struct rc_str *b, const struct rc_jv *nodes,
		       const struct rc_jv *const *docs, bool html)
{
	size_t i;

	rc_str_printf(b, html ? "<table><tr><th>node</th><th>partner</th>"
		      "<th>step</th><th>cases</th><th>not ok</th></tr>" :
		      "| node | partner | step | cases | not ok |\n"
		      "|---|---|---|---|---|\n");
	for (i = 0; i < nodes->n; i++) {
		const struct rc_jv *nd = &nodes->items[i];
		const struct rc_jv *st = rc_jv_get(nd, "status");
		const struct rc_jv *sum = rc_jv_get(docs[i], "summary");
		char step[64];

		if (!st || st->type != RC_JNUM)
			snprintf(step, sizeof(step), "died%s", docs[i] ?
				 " (results incomplete)" : " (no results)");
		else
			snprintf(step, sizeof(step), "exit %d", (int)st->num);
		rc_str_printf(b, html ? "<tr><td>" : "| ");
		rc_str_text(b, html, str_or(nd, "node", "?"));
		rc_str_printf(b, html ? "</td><td>" : " | ");
		rc_str_text(b, html, str_or(nd, "partner", "-"));
		if (html)
			rc_str_printf(b, "</td><td class=\"%s\">%s</td><td>%g"
				      "</td><td>%g</td></tr>", st &&
				      st->type == RC_JNUM && !st->num ? "PASS" :
				      "FAIL", step, rc_jv_num(sum, "cases", 0),
				      rc_jv_num(sum, "not_ok", 0));
		else
			rc_str_printf(b, " | %s | %g | %g |\n", step,
				      rc_jv_num(sum, "cases", 0),
				      rc_jv_num(sum, "not_ok", 0));
	}
	rc_str_printf(b, html ? "</table>" : "\n");
}

/* A case's most common outcome in a group, and on how many nodes */
struct majority {
	char outcome[64];
	unsigned int nodes;
};

/* Is node @k in the group of node @first (the same fingerprint)? */
static bool in_group(const struct rc_jv *const *docs, char (*fps)[FP_MAX],
		     size_t first, size_t k)
{
	return docs[k] && !strcmp(fps[first], fps[k]);
}

/* The majority of each case over the group of node @first, once for all
 * of the group's nodes */
static struct majority *majorities(const struct rc_jv *const *docs,
				   char (*fps)[FP_MAX], size_t first,
				   size_t n, const char **ids, size_t nids)
{
	struct majority *maj = calloc(nids ? nids : 1, sizeof(*maj));
	char one[64], two[64];
	unsigned int count;
	size_t c, k, m;

	if (!maj)
		abort();
	for (c = 0; c < nids; c++)
		for (k = first; k < n; k++) {
			if (!in_group(docs, fps, first, k))
				continue;
			outcome(rc_results_find(rc_jv_get(docs[k], "results"),
						ids[c]), one, sizeof(one));
			for (m = first, count = 0; m < n; m++) {
				if (!in_group(docs, fps, first, m))
					continue;
				outcome(rc_results_find(rc_jv_get(docs[m],
							"results"), ids[c]),
					two, sizeof(two));
				count += !strcmp(one, two);
			}
			if (count > maj[c].nodes) {
				maj[c].nodes = count;
				snprintf(maj[c].outcome,
					 sizeof(maj[c].outcome), "%s", one);
			}
		}
	return maj;
}

/* Node @j against its group's majorities: the cases that differ, as an
 * outlier's table.  True when it is an outlier. */
static bool outlier(struct rc_str *b, const struct rc_jv *node,
		    const struct rc_jv *doc, const struct majority *maj,
		    size_t members, const char **ids, size_t nids, bool html)
{
	const struct rc_jv *res = rc_jv_get(doc, "results");
	unsigned int differ = 0;
	char mine[64];
	size_t c;

	for (c = 0; c < nids; c++) {
		outcome(rc_results_find(res, ids[c]), mine, sizeof(mine));
		if (2 * maj[c].nodes <= members ||
		    !strcmp(mine, maj[c].outcome))
			continue;
		if (!differ++) {
			rc_str_printf(b, html ? "<p class=\"FAIL\">Outlier: <b>" :
				      "**Outlier: ");
			rc_str_text(b, html, str_or(node, "node", "?"));
			rc_str_printf(b, html ? "</b></p><table><tr><th>case</th>"
				      "<th>this node</th><th>the group's "
				      "majority</th></tr>" : "**\n\n| case | "
				      "this node | the group's majority |\n"
				      "|---|---|---|\n");
		}
		rc_str_printf(b, html ? "<tr><td><code>" : "| ");
		rc_str_text(b, html, ids[c]);
		rc_str_printf(b, html ? "</code></td><td>%s</td><td>%s</td>"
			      "</tr>" : " | %s | %s |\n", mine,
			      maj[c].outcome);
	}
	if (differ)
		rc_str_printf(b, html ? "</table>" : "\n");
	return differ;
}

unsigned int rc_report_fleet(struct rc_str *b, const struct rc_jv *fleet,
			     const struct rc_jv *const *docs,
			     const char **ids, size_t nids, bool html)
{
	const struct rc_jv *nodes = rc_jv_get(fleet, "nodes");
	size_t n = nodes && nodes->type == RC_JARR ? nodes->n : 0;
	char (*fps)[FP_MAX] = calloc(n ? n : 1, FP_MAX);
	bool *grouped = calloc(n ? n : 1, sizeof(*grouped));
	struct majority *maj;
	unsigned int outliers = 0;
	size_t i, j, members;

	if (!fps || !grouped)
		abort();
	rc_str_printf(b, html ? "<h2>Fleet</h2><p>Slurm job " :
		      "\n## Fleet\n\nSlurm job ");
	rc_str_text(b, html, str_or(fleet, "job", "?"));
	rc_str_printf(b, ", target ");
	rc_str_text(b, html, str_or(fleet, "target", "?"));
	rc_str_printf(b, html ? ", %zu nodes, %.1f s.</p>" :
		      ", %zu nodes, %.1f s.\n\n", n,
		      rc_jv_num(fleet, "elapsed_s", 0));
	if (!n)
		goto out;
	node_table(b, nodes, docs, html);
	for (i = 0; i < n; i++)
		if (docs[i])
			fingerprint(docs[i], fps[i], FP_MAX);
	for (i = 0; i < n; i++) {
		if (!docs[i] || grouped[i])
			continue;
		rc_str_printf(b, html ? "<h3>" : "### ");
		rc_str_text(b, html, fps[i]);
		rc_str_printf(b, html ? "</h3><p>" : "\n\n");
		for (j = i, members = 0; j < n; j++) {
			if (!in_group(docs, fps, i, j))
				continue;
			grouped[j] = true;
			rc_str_printf(b, "%s", members++ ? ", " : "");
			rc_str_text(b, html, str_or(&nodes->items[j], "node", "?"));
		}
		rc_str_printf(b, html ? "</p>" : "\n\n");
		if (members < 3) {
			rc_str_printf(b, html ? "<p>Fewer than three nodes: no "
				      "majority to measure outliers by.</p>" :
				      "Fewer than three nodes: no majority to "
				      "measure outliers by.\n\n");
			continue;
		}
		maj = majorities(docs, fps, i, n, ids, nids);
		for (j = i; j < n; j++)
			if (in_group(docs, fps, i, j))
				outliers += outlier(b, &nodes->items[j], docs[j],
						    maj, members, ids, nids,
						    html);
		free(maj);
	}
	if (!outliers)
		rc_str_printf(b, html ? "<p>No outliers.</p>" :
			      "No outliers.\n");
out:
	free(fps);
	free(grouped);
	return outliers;
}

int rc_fleet_load(const char *dir, struct rc_jv **fleet, char ***paths)
{
	const struct rc_jv *nodes;
	char path[4096], err[512];
	size_t i;
	int n = 0;

	snprintf(path, sizeof(path), "%s/fleet.json", dir);
	*fleet = rc_json_load(path, err, sizeof(err));
	if (!*fleet) {
		fprintf(stderr, "rdmaconf: %s\n", err);
		return -1;
	}
	nodes = rc_jv_get(*fleet, "nodes");
	if (!nodes || nodes->type != RC_JARR) {
		fprintf(stderr, "rdmaconf: %s: no \"nodes\" array\n", path);
		return -1;
	}
	*paths = calloc(nodes->n + 1, sizeof(**paths));
	if (!*paths)
		abort();
	for (i = 0; i < nodes->n; i++) {
		const char *res = rc_jv_str(&nodes->items[i], "results");

		if (res && !strchr(res, '/') &&
		    asprintf(&(*paths)[n++], "%s/%s", dir, res) < 0)
			abort();
	}
	return n;
}
