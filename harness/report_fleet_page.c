// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The fleet's report (rdmaconf report --fleet DIR), from a fleet read as
 * report_fleet.c reads it: DIR/index.html and DIR/summary.md, whose size
 * does not grow with the nodes -- the nodes grouped by fingerprint and,
 * within a group, by identical verdicts; the outliers of each group with
 * the cases in which they differ from its majority; per case, how many
 * nodes fail it and which -- every list bounded, "and N more";
 * DIR/nodes.html, a line per node; and DIR/nodes/NODE.html, each node's
 * own page, written as its results are read.
 *
 * Every file is written into one made afresh beside it (O_EXCL,
 * O_NOFOLLOW) and renamed over it: nothing is written through a link
 * planted in DIR, and a target that is a link, or no regular file, is
 * refused before anything is read.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compare.h"
#include "escape.h"
#include "rdmaconf.h"
#include "report_fleet.h"
#include "report_page.h"
#include "results.h"
#include "wfile.h"

/* What the index shows at most; the rest is counted, and in nodes.html */
#define MAX_GROUPS 16
#define MAX_CLASSES 8
#define MAX_OUTLIERS 8
#define MAX_DIFFS 12
#define MAX_CASES 40
#define MAX_CAUSES 32

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		abort();
	return p;
}

/* ---- writing without following a link ---- */

/* @name in directory @dfd (shown as @dir) may be written: absent, or a
 * regular file (@want_dir: a directory); else refused, with why */
static int writable(int dfd, const char *dir, const char *name, bool want_dir)
{
	struct stat st;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW))
		return 0;
	if (S_ISLNK(st.st_mode))
		fprintf(stderr,
			"rdmaconf: %s/%s is a symbolic link: the report "
			"writes through no link\n",
			dir, name);
	else if (want_dir ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode))
		fprintf(stderr, "rdmaconf: %s/%s is not a %s: not written\n",
			dir, name, want_dir ? "directory" : "regular file");
	else
		return 0;
	return -1;
}

/* @b into @name of @dfd: into a file made afresh beside it (O_EXCL,
 * O_NOFOLLOW), renamed over it */
static int write_at(int dfd, const char *dir, const char *name,
		    const struct rc_str *b)
{
	char tmp[256];
	int fd, bad;

	if (writable(dfd, dir, name, false))
		return -1;
	snprintf(tmp, sizeof(tmp), ".%s.tmp%d", name, getpid());
	fd = openat(dfd, tmp,
		    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0 && errno == EEXIST && !unlinkat(dfd, tmp, 0))
		fd = openat(dfd, tmp,
			    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
				    O_CLOEXEC,
			    0644);
	if (fd < 0) {
		fprintf(stderr, "rdmaconf: cannot write %s/%s: %m\n", dir, tmp);
		return -1;
	}
	bad = rc_write_all(fd, b->s ? b->s : "", b->len);
	bad |= close(fd);
	if (!bad && !renameat(dfd, tmp, dfd, name))
		return 0;
	fprintf(stderr, "rdmaconf: cannot write %s/%s: %m\n", dir, name);
	unlinkat(dfd, tmp, 0);
	return -1;
}

/* Directory @name of @dfd, made if need be, opened without following a
 * link; -1 with why */
static int subdir(int dfd, const char *dir, const char *name)
{
	int fd;

	if (writable(dfd, dir, name, true))
		return -1;
	if (mkdirat(dfd, name, 0777) && errno != EEXIST) {
		fprintf(stderr, "rdmaconf: cannot create %s/%s: %m\n", dir,
			name);
		return -1;
	}
	fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		fprintf(stderr, "rdmaconf: cannot open %s/%s: %m\n", dir, name);
	return fd;
}

/* No link anywhere in the nodes' directory: its files are the report's */
static int no_links(int dfd, const char *dir)
{
	int fd = dup(dfd);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);
	struct dirent *e;
	int ret = 0;

	if (!d) {
		fprintf(stderr, "rdmaconf: cannot read %s: %m\n", dir);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	while (!ret && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			ret = writable(dfd, dir, e->d_name,
				       e->d_type == DT_DIR);
	closedir(d);
	return ret;
}

/* ---- the report ---- */

/* A fingerprint's nodes and classes, and in a group of three or more
 * its majority */
struct group {
	unsigned int nodes, ncls;
	unsigned int *cls;
	uint16_t *maj; /* per case: the majority's code, or NONE */
	unsigned int *majn; /* ... and its nodes */
	unsigned int outliers; /* classes */
};

struct report {
	struct rc_fleet f;
	const char *out;
	char nodes_dir[4096]; /* OUT/nodes, for messages */
	int dfd, ndfd;
	struct rc_str page; /* a node's page, the buffer reused */
	struct group *groups; /* per fingerprint */
	unsigned int *diffs; /* per class: cases off its group's majority */
	unsigned int outliers; /* nodes */
};

#define NONE 0xffff

static const char *step_text(const struct rc_fleet_node *nd, char *buf,
			     size_t len)
{
	if (nd->unreadable)
		snprintf(buf, len, "%s, results unreadable",
			 nd->status < 0 ? "died" : "ended");
	else if (nd->status < 0)
		snprintf(buf, len, "died (%s)",
			 nd->results ? "results incomplete" : "no results");
	else if (!nd->results)
		snprintf(buf, len, "exit %d, no results", nd->status);
	else
		snprintf(buf, len, "exit %d%s", nd->status,
			 nd->complete ? "" : ", results incomplete");
	return buf;
}

static bool step_ok(const struct rc_fleet_node *nd)
{
	return nd->status == 0 && nd->loaded && nd->complete;
}

/* A node's name, linked to its page (@to: the path to the pages) */
static void node_link(struct rc_str *b, bool html,
		      const struct rc_fleet_node *nd, const char *to)
{
	if (!nd->page) {
		rc_str_text(b, html, nd->name);
		return;
	}
	rc_str_printf(b, html ? "<a href=\"%s" : "[", to);
	if (html) {
		rc_str_html(b, nd->name);
		rc_str_printf(b, ".html\">");
	}
	rc_str_text(b, html, nd->name);
	if (html) {
		rc_str_printf(b, "</a>");
		return;
	}
	rc_str_printf(b, "](%s", to);
	rc_str_md(b, nd->name);
	rc_str_printf(b, ".html)");
}

/* "node1, node2 and 3 more" */
static void node_list(struct rc_str *b, bool html, const struct rc_fleet *f,
		      const size_t *idx, size_t shown, size_t total)
{
	size_t i;

	for (i = 0; i < shown; i++) {
		rc_str_printf(b, i ? ", " : "");
		node_link(b, html, &f->nodes[idx[i]], "nodes/");
	}
	if (total > shown)
		rc_str_printf(b, " and %zu more", total - shown);
}

static void td(struct rc_str *b, bool html, bool first)
{
	rc_str_printf(b, html ? (first ? "<tr><td>" : "</td><td>") :
				(first ? "| " : " | "));
}

static void tr_end(struct rc_str *b, bool html)
{
	rc_str_printf(b, html ? "</td></tr>" : " |\n");
}

/* A table's head: @cols separated by '|' */
static void thead(struct rc_str *b, bool html, const char *cols)
{
	const char *c = cols, *bar;
	int n = 0;

	rc_str_printf(b, html ? "<table><tr>" : "|");
	for (; c; c = bar ? bar + 1 : NULL, n++) {
		bar = strchr(c, '|');
		rc_str_printf(b, html ? "<th>%.*s</th>" : " %.*s |",
			      (int)(bar ? bar - c : (long)strlen(c)), c);
	}
	rc_str_printf(b, html ? "</tr>" : "\n|");
	while (!html && n--)
		rc_str_printf(b, "---|");
	rc_str_printf(b, html ? "" : "\n");
}

static void tend(struct rc_str *b, bool html)
{
	rc_str_printf(b, html ? "</table>" : "\n");
}

/* ---- a node's own page, written as its results are read ---- */

static void page_case(struct rc_str *b, const struct rc_jv *c)
{
	static const char *const keys[] = { "stale", "divergence",
					    "system_detail",
					    "reference_detail" };
	const char *v;
	size_t k, n = 0;
	int i;

	rc_str_printf(b, "<tr><td><code>");
	rc_str_html(b, rc_jv_str(c, "id"));
	rc_str_printf(b, "</code></td>");
	for (i = 0; i < RC_NIMPLS; i++)
		rc_str_printf(b, "<td class=\"%s\">%s</td>",
			      rc_case_verdict(c, i), rc_case_verdict(c, i));
	rc_str_printf(b, "<td>");
	for (k = 0; k < ARRAY_SIZE(keys); k++) {
		v = rc_jv_str(c, keys[k]);
		if (!v || !*v)
			continue;
		rc_str_printf(b, "%s", n++ ? "; " : "");
		rc_str_html(b, v);
	}
	rc_str_printf(b, "</td></tr>");
}

/* Neither implementation ran it: SKIP or UNSUPPORTED on both */
static bool not_run(const struct rc_jv *c)
{
	int i, v;

	for (i = 0; i < RC_NIMPLS; i++) {
		v = rc_verdict_parse(rc_case_verdict(c, i));
		if (v >= 0 && rc_verdict_ran(v))
			return false;
	}
	return true;
}

/* The cases neither ran, by cause: a line per cause */
static void page_not_run(struct rc_str *b, const struct rc_jv *res)
{
	const char *cause[MAX_CAUSES];
	struct rc_str ids[MAX_CAUSES] = {};
	unsigned int count[MAX_CAUSES] = {};
	size_t i, k, n = 0;
	bool more = false;

	for (i = 0; i < res->n; i++) {
		const struct rc_jv *c = &res->items[i];
		const char *why;

		if (!rc_report_case_ok(c) || !not_run(c))
			continue;
		why = rc_jv_str(c, "system_detail");
		if (!why || !*why)
			why = rc_fleet_str(c, "reference_detail", "");
		for (k = 0; k < n && strcmp(cause[k], why); k++)
			;
		if (k == MAX_CAUSES) {
			k = n - 1; /* the last line takes the rest */
			more = true;
		} else if (k == n) {
			cause[n++] = why;
		}
		rc_str_printf(&ids[k], "%s<code>", count[k]++ ? ", " : "");
		rc_str_html(&ids[k], rc_jv_str(c, "id"));
		rc_str_printf(&ids[k], "</code>");
	}
	if (!n)
		return;
	rc_str_printf(b, "<h2>Not run here</h2><table><tr><th>cases</th>"
			 "<th>cause</th><th>which</th></tr>");
	for (k = 0; k < n; k++) {
		rc_str_printf(b, "<tr><td>%u</td><td>", count[k]);
		rc_str_html(b, cause[k]);
		rc_str_printf(b,
			      more && k == n - 1 ? " (and other causes)" : "");
		rc_str_printf(b, "</td><td>%s</td></tr>", ids[k].s);
		rc_str_free(&ids[k]);
	}
	rc_str_printf(b, "</table>");
}

static int node_page(struct rc_fleet *f, size_t i,
		     const struct rc_report_run *run, void *arg)
{
	struct report *r = arg;
	struct rc_fleet_node *nd = &f->nodes[i];
	struct rc_str *b = &r->page;
	char step[96], name[256];
	size_t k, n;
	int pass;

	if (!nd->page)
		return 0;
	b->len = 0;
	rc_str_printf(b, "<!DOCTYPE html><html><head><meta charset=\"utf-8\">"
			 "<title>rdmaconf fleet: ");
	rc_str_html(b, nd->name);
	rc_str_printf(b,
		      "</title><style>%s</style></head><body><p><a href=\""
		      "../index.html\">The fleet</a> &middot; <a href=\""
		      "../nodes.html\">every node</a></p><h1>",
		      rc_report_css);
	rc_str_html(b, nd->name);
	rc_str_printf(b, "</h1><table><tr><th>partner</th><td>");
	rc_str_html(b, nd->partner);
	rc_str_printf(b,
		      "</td></tr><tr><th>step</th><td class=\"%s\">%s</td>"
		      "</tr><tr><th>group</th><td><a href=\"../index.html#g%u"
		      "\">",
		      step_ok(nd) ? "PASS" : "FAIL",
		      step_text(nd, step, sizeof(step)), nd->fp);
	rc_str_html(b, f->fps.e[nd->fp].key);
	rc_str_printf(b, "</a></td></tr></table>");
	rc_report_fingerprint(b, run);
	/* not ok; then ok but worth a look (not a plain PASS: XFAIL, a
	 * divergence); then what did not run, by cause */
	for (pass = 0; pass < 2; pass++) {
		for (k = 0, n = 0; k < run->results->n; k++) {
			const struct rc_jv *c = &run->results->items[k];

			if (pass ? !rc_report_case_ok(c) ||
					    !rc_report_noteworthy(c) ||
					    not_run(c) :
				   rc_report_case_ok(c))
				continue;
			if (!n++)
				rc_str_printf(
					b,
					"<h2>%s</h2><table><tr><th>"
					"case</th><th>%s</th><th>%s</th>"
					"<th>why</th></tr>",
					pass ? "Other cases worth a look" :
					       "Not ok",
					rc_impl_name(RC_IMPL_SYSTEM),
					rc_impl_name(RC_IMPL_REFERENCE));
			page_case(b, c);
		}
		rc_str_printf(b, n    ? "</table>" :
				 pass ? "" :
					"<h2>Not ok</h2><p>None.</p>");
	}
	page_not_run(b, run->results);
	rc_str_printf(b, "</body></html>\n");
	snprintf(name, sizeof(name), "%s.html", nd->name);
	return write_at(r->ndfd, r->nodes_dir, name, b) ? -1 : 0;
}

/* ---- the fleet's shape: groups, majorities, outliers ---- */

static uint8_t code_at(const struct rc_fleet_class *c, size_t id)
{
	return id < c->len ? c->vec[id] : 0;
}

/* Is case @c of class @cl off its group's majority?  A run that did not
 * complete says nothing of the cases it did not get to. */
static bool off(const struct rc_fleet_class *cl, const struct group *gr,
		size_t c)
{
	uint8_t code = code_at(cl, c);

	return gr->maj[c] != NONE && code != gr->maj[c] &&
	       (code || cl->complete);
}

/* Each fingerprint's classes; in a group of three nodes or more, each
 * case's majority (more than half of its nodes), and each class's cases
 * off it */
static void analyse(struct report *r)
{
	struct rc_fleet *f = &r->f;
	size_t ncases = f->ids.n, g, k, c, cnt[256];
	uint8_t touched[256];

	r->groups = calloc(f->fps.n + 1, sizeof(*r->groups));
	r->diffs = calloc(f->keys.n + 1, sizeof(*r->diffs));
	if (!r->groups || !r->diffs)
		abort();
	for (k = 0; k < f->keys.n; k++) {
		struct group *gr = &r->groups[f->classes[k].fp];

		gr->cls = xrealloc(gr->cls, (gr->ncls + 1) * sizeof(*gr->cls));
		gr->cls[gr->ncls++] = k;
		gr->nodes += f->classes[k].nodes;
	}
	memset(cnt, 0, sizeof(cnt));
	for (g = 0; g < f->fps.n; g++) {
		struct group *gr = &r->groups[g];

		if (gr->nodes < 3)
			continue;
		gr->maj = xrealloc(NULL, (ncases + 1) * sizeof(*gr->maj));
		gr->majn = xrealloc(NULL, (ncases + 1) * sizeof(*gr->majn));
		for (c = 0; c < ncases; c++) {
			size_t nt = 0, best = 0, t;

			for (k = 0; k < gr->ncls; k++) {
				const struct rc_fleet_class *cl =
					&f->classes[gr->cls[k]];
				uint8_t code = code_at(cl, c);

				if (!cnt[code])
					touched[nt++] = code;
				cnt[code] += cl->nodes;
			}
			gr->maj[c] = NONE;
			for (t = 0; t < nt; t++) {
				if (cnt[touched[t]] > best) {
					best = cnt[touched[t]];
					if (2 * best > gr->nodes)
						gr->maj[c] = touched[t];
				}
				cnt[touched[t]] = 0;
			}
			gr->majn[c] = best;
		}
		for (k = 0; k < gr->ncls; k++) {
			const struct rc_fleet_class *cl =
				&f->classes[gr->cls[k]];
			unsigned int *d = &r->diffs[gr->cls[k]];

			for (c = 0; c < ncases; c++)
				*d += off(cl, gr, c);
			gr->outliers += !!*d;
			r->outliers += *d ? cl->nodes : 0;
		}
	}
}

static struct report *sorting;

/* groups: the most nodes first (then the first seen) */
static int by_group_size(const void *a, const void *b)
{
	const struct group *x = &sorting->groups[*(const unsigned int *)a];
	const struct group *y = &sorting->groups[*(const unsigned int *)b];

	if (x->nodes != y->nodes)
		return x->nodes < y->nodes ? 1 : -1;
	return *(const unsigned int *)a < *(const unsigned int *)b ? -1 : 1;
}

/* classes: the most nodes first (then the first seen) */
static int by_class_size(const void *a, const void *b)
{
	unsigned int i = *(const unsigned int *)a, j = *(const unsigned int *)b;
	unsigned int x = sorting->f.classes[i].nodes;
	unsigned int y = sorting->f.classes[j].nodes;

	if (x != y)
		return x < y ? 1 : -1;
	return i < j ? -1 : 1;
}

static int by_index(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

/* ---- the index and the summary: what the fleet looks like ---- */

static void heading(struct rc_str *b, bool html, int level, const char *text)
{
	if (html)
		rc_str_printf(b, "<h%d>%s</h%d>", level, text, level);
	else
		rc_str_printf(b, "%.*s %s\n\n", level, "######", text);
}

/* The nodes whose partner stopped answering: their remote rows did not
 * run */
static void partners_gone(struct rc_str *b, bool html, const struct rc_fleet *f)
{
	size_t i, n = 0, first[RC_FLEET_NAMES];

	for (i = 0; i < f->n; i++)
		if (f->nodes[i].partner_gone && n++ < RC_FLEET_NAMES)
			first[n - 1] = i;
	if (!n)
		return;
	rc_str_printf(b, html ? "<p>Partner gone: " : "Partner gone: ");
	node_list(b, html, f, first, n < RC_FLEET_NAMES ? n : RC_FLEET_NAMES,
		  n);
	rc_str_printf(b, " had remote rows not run (SKIP): the node they "
			 "address stopped answering.");
	rc_str_printf(b, html ? "</p>" : "\n\n");
}

/* How the nodes' steps ended: a line per way, with its nodes */
static void steps(struct rc_str *b, bool html, const struct rc_fleet *f)
{
	struct rc_fleet_set ways = {};
	struct way {
		size_t n, first[RC_FLEET_NAMES];
	} *w = NULL;
	char text[96];
	size_t i, k;

	for (i = 0; i < f->n; i++) {
		size_t before = ways.n;

		k = rc_fleet_set_str(
			&ways, step_text(&f->nodes[i], text, sizeof(text)),
			true);
		if (ways.n > before) {
			w = xrealloc(w, ways.n * sizeof(*w));
			w[k].n = 0;
		}
		if (w[k].n < RC_FLEET_NAMES)
			w[k].first[w[k].n] = i;
		w[k].n++;
	}
	heading(b, html, 3, "Steps");
	thead(b, html, "how the node's step ended|nodes|which");
	for (k = 0; k < ways.n; k++) {
		td(b, html, true);
		rc_str_text(b, html, ways.e[k].key);
		td(b, html, false);
		rc_str_printf(b, "%zu", w[k].n);
		td(b, html, false);
		node_list(b, html, f, w[k].first,
			  w[k].n < RC_FLEET_NAMES ? w[k].n : RC_FLEET_NAMES,
			  w[k].n);
		tr_end(b, html);
	}
	tend(b, html);
	for (i = 0, k = 0; i < f->n; i++) {
		const struct rc_fleet_node *nd = &f->nodes[i];

		if (!nd->unreadable || k++ >= RC_FLEET_NAMES)
			continue;
		rc_str_printf(b, html ? "<p class=\"FAIL\">" : "");
		rc_str_text(b, html, nd->name);
		rc_str_printf(b, ": ");
		rc_str_text(b, html, nd->unreadable);
		rc_str_printf(b, html ? "</p>" : "\n\n");
	}
	if (k > RC_FLEET_NAMES)
		rc_str_printf(b,
			      html ? "<p>And %zu more nodes whose results "
				     "cannot be read.</p>" :
				     "And %zu more nodes whose "
				     "results cannot be read.\n\n",
			      k - RC_FLEET_NAMES);
	free(w);
	rc_fleet_set_free(&ways);
	partners_gone(b, html, f);
}

/* One outlier class: the cases it differs in, and the majority */
static void outlier(struct rc_str *b, bool html, const struct report *r,
		    const struct group *gr, unsigned int k)
{
	const struct rc_fleet *f = &r->f;
	const struct rc_fleet_class *cl = &f->classes[k];
	char mine[64], maj[64];
	size_t c, shown = 0;

	rc_str_printf(
		b, html ? "<p class=\"FAIL\">Outlier%s: <b>" : "**Outlier%s: ",
		cl->nodes > 1 ? "s" : "");
	node_list(b, html, f, cl->first,
		  cl->nodes < RC_FLEET_NAMES ? cl->nodes : RC_FLEET_NAMES,
		  cl->nodes);
	rc_str_printf(b, html ? "</b>" : "**");
	if (cl->nodes > 1)
		rc_str_printf(b, " (%u nodes, the same verdicts)", cl->nodes);
	rc_str_printf(b, html ? "</p>" : "\n\n");
	thead(b, html,
	      cl->nodes > 1 ? "case|these nodes|the group's majority" :
			      "case|this node|the group's majority");
	for (c = 0; c < f->ids.n && shown < MAX_DIFFS; c++) {
		if (!off(cl, gr, c))
			continue;
		shown++;
		td(b, html, true);
		rc_str_printf(b, html ? "<code>" : "");
		rc_str_text(b, html, f->ids.e[c].key);
		rc_str_printf(b, html ? "</code>" : "");
		td(b, html, false);
		rc_str_printf(b, "%s",
			      rc_fleet_code_text(code_at(cl, c), mine,
						 sizeof(mine)));
		td(b, html, false);
		rc_str_printf(b, "%s (%u of %u nodes)",
			      rc_fleet_code_text(gr->maj[c], maj, sizeof(maj)),
			      gr->majn[c], gr->nodes);
		tr_end(b, html);
	}
	tend(b, html);
	if (r->diffs[k] > shown)
		rc_str_printf(b,
			      html ? "<p>And %zu more cases: see the node's "
				     "page.</p>" :
				     "And %zu more cases: see the node's "
				     "page.\n\n",
			      r->diffs[k] - shown);
}

/* A fingerprint's nodes by verdict class, and its outliers */
static void group(struct rc_str *b, bool html, struct report *r, unsigned int g)
{
	const struct rc_fleet *f = &r->f;
	struct group *gr = &r->groups[g];
	unsigned int *order = xrealloc(NULL, gr->ncls * sizeof(*order));
	size_t k, shown;

	memcpy(order, gr->cls, gr->ncls * sizeof(*order));
	sorting = r;
	qsort(order, gr->ncls, sizeof(*order), by_class_size);
	rc_str_printf(b, html ? "<h4 id=\"g%u\">" : "#### ", g);
	rc_str_text(b, html, f->fps.e[g].key);
	rc_str_printf(b,
		      html ? "</h4><p>%u node%s, %u verdict class%s.</p>" :
			     "\n\n%u node%s, %u verdict class%s.\n\n",
		      gr->nodes, gr->nodes == 1 ? "" : "s", gr->ncls,
		      gr->ncls == 1 ? "" : "es");
	thead(b, html, "nodes|which|cases|not ok|off the majority in");
	for (k = 0; k < gr->ncls && k < MAX_CLASSES; k++) {
		const struct rc_fleet_class *cl = &f->classes[order[k]];
		const struct rc_fleet_node *nd = &f->nodes[cl->first[0]];

		td(b, html, true);
		rc_str_printf(b, "%u", cl->nodes);
		td(b, html, false);
		node_list(b, html, f, cl->first,
			  cl->nodes < RC_FLEET_NAMES ? cl->nodes :
						       RC_FLEET_NAMES,
			  cl->nodes);
		td(b, html, false);
		rc_str_printf(b, "%u", nd->cases);
		td(b, html, false);
		rc_str_printf(b, "%u", nd->not_ok);
		td(b, html, false);
		if (gr->maj)
			rc_str_printf(b, "%u case%s", r->diffs[order[k]],
				      r->diffs[order[k]] == 1 ? "" : "s");
		else
			rc_str_printf(b, "-");
		tr_end(b, html);
	}
	tend(b, html);
	if (gr->ncls > MAX_CLASSES)
		rc_str_printf(
			b,
			html ? "<p>And %u more classes: every node's "
			       "is in <a href=\"nodes.html\">nodes.html</a>.</p>" :
			       "And %u more classes: every node's is in "
			       "[nodes.html](nodes.html).\n\n",
			gr->ncls - MAX_CLASSES);
	if (!gr->maj) {
		rc_str_printf(
			b,
			html ? "<p>Fewer than three nodes: no majority "
			       "to measure outliers by.</p>" :
			       "Fewer than three "
			       "nodes: no majority to measure outliers by.\n\n");
		free(order);
		return;
	}
	/* the outliers, the largest classes of them first */
	for (k = 0, shown = 0; k < gr->ncls; k++) {
		if (!r->diffs[order[k]])
			continue;
		if (shown++ < MAX_OUTLIERS)
			outlier(b, html, r, gr, order[k]);
	}
	if (shown > MAX_OUTLIERS)
		rc_str_printf(
			b,
			html ? "<p>And %zu more outlier classes: "
			       "<a href=\"nodes.html\">nodes.html</a>.</p>" :
			       "And %zu more outlier classes: "
			       "[nodes.html](nodes.html).\n\n",
			shown - MAX_OUTLIERS);
	free(order);
}

/* Per case, the nodes where it is not ok: the cases failed most first */
struct case_fail {
	size_t id, nodes;
};

static int by_fails(const void *a, const void *b)
{
	const struct case_fail *x = a, *y = b;

	if (x->nodes != y->nodes)
		return x->nodes < y->nodes ? 1 : -1;
	return x->id < y->id ? -1 : 1;
}

static void failing_cases(struct rc_str *b, bool html, const struct rc_fleet *f)
{
	struct case_fail *cf = calloc(f->ids.n + 1, sizeof(*cf));
	size_t c, k, n = 0, m, names[RC_FLEET_NAMES * MAX_CLASSES];
	size_t picked[RC_FLEET_NAMES], np;

	if (!cf)
		abort();
	for (c = 0; c < f->ids.n; c++) {
		cf[c].id = c;
		for (k = 0; k < f->keys.n; k++) {
			uint8_t code = code_at(&f->classes[k], c);

			cf[c].nodes += code && !rc_fleet_code_ok(code) ?
					       f->classes[k].nodes :
					       0;
		}
		n += !!cf[c].nodes;
	}
	qsort(cf, f->ids.n, sizeof(*cf), by_fails);
	heading(b, html, 3, "Cases not ok");
	if (!n) {
		rc_str_printf(b,
			      html ? "<p>Every case is ok on every node that "
				     "ran it.</p>" :
				     "Every case is ok on every node "
				     "that ran it.\n\n");
		free(cf);
		return;
	}
	thead(b, html, "case|not ok on|which");
	for (c = 0; c < n && c < MAX_CASES; c++) {
		/* the first nodes, in fleet order, of the classes that fail
		 * it: each class's first are its first in that order */
		for (k = 0, m = 0;
		     k < f->keys.n && m + RC_FLEET_NAMES <= ARRAY_SIZE(names);
		     k++) {
			const struct rc_fleet_class *cl = &f->classes[k];
			uint8_t code = code_at(cl, cf[c].id);
			size_t j;

			if (!code || rc_fleet_code_ok(code))
				continue;
			for (j = 0; j < cl->nodes && j < RC_FLEET_NAMES; j++)
				names[m++] = cl->first[j];
		}
		qsort(names, m, sizeof(*names), by_index);
		np = m < RC_FLEET_NAMES ? m : RC_FLEET_NAMES;
		memcpy(picked, names, np * sizeof(*picked));
		td(b, html, true);
		rc_str_printf(b, html ? "<code>" : "");
		rc_str_text(b, html, f->ids.e[cf[c].id].key);
		rc_str_printf(b, html ? "</code>" : "");
		td(b, html, false);
		rc_str_printf(b, "%zu node%s", cf[c].nodes,
			      cf[c].nodes == 1 ? "" : "s");
		td(b, html, false);
		node_list(b, html, f, picked, np, cf[c].nodes);
		tr_end(b, html);
	}
	tend(b, html);
	if (n > MAX_CASES)
		rc_str_printf(b,
			      html ? "<p>And %zu more cases not ok on some "
				     "node.</p>" :
				     "And %zu more cases not ok on some "
				     "node.\n\n",
			      n - MAX_CASES);
	free(cf);
}

/* The fleet in one page (@html) or its summary: bounded, whatever the
 * number of nodes */
static void fleet_page(struct rc_str *b, bool html, struct report *r)
{
	struct rc_fleet *f = &r->f;
	unsigned int *order = xrealloc(NULL, (f->fps.n + 1) * sizeof(*order));
	size_t g, loaded = 0, rest = 0;

	for (g = 0; g < f->n; g++)
		loaded += f->nodes[g].loaded;
	if (html)
		rc_str_printf(
			b,
			"<!DOCTYPE html><html><head><meta charset=\""
			"utf-8\"><title>rdmaconf fleet report</title>"
			"<style>%s</style></head><body><h1>rdmaconf fleet "
			"report</h1><h2>Fleet</h2><p>Slurm job ",
			rc_report_css);
	else
		rc_str_printf(b, "# rdmaconf fleet report\n\n## Fleet\n\n"
				 "Slurm job ");
	rc_str_text(b, html, rc_fleet_str(f->doc, "job", "?"));
	rc_str_printf(b, ", target ");
	rc_str_text(b, html, rc_fleet_str(f->doc, "target", "?"));
	rc_str_printf(b,
		      ", %zu nodes (%zu with results read), %zu case ids, "
		      "%.1f s. ",
		      f->n, loaded, f->ids.n,
		      rc_jv_num(f->doc, "elapsed_s", 0));
	rc_str_printf(
		b, html ? "Every node: <a href=\"nodes.html\">nodes.html"
			  "</a>, each with a page of its own.</p>" :
			  "Every node: "
			  "[nodes.html](nodes.html), each with a page of its "
			  "own.\n\n");
	/* a run stopped (SIGTERM, a revoked allocation), or still going */
	if (strcmp(rc_fleet_str(f->doc, "state", "finished"), "finished")) {
		rc_str_printf(b, html ? "<p class=\"FAIL\">" : "**");
		rc_str_printf(b, "The fleet's run did not finish (");
		rc_str_text(b, html, rc_fleet_str(f->doc, "state", ""));
		rc_str_printf(b, "): these are the results its nodes wrote "
				 "before it stopped.");
		rc_str_printf(b, html ? "</p>" : "**\n\n");
	}
	steps(b, html, f);
	heading(b, html, 3, "Groups");
	rc_str_printf(b, html ? "<p>" : "");
	rc_str_printf(b,
		      "%zu fingerprint%s (driver, part, firmware, kernel, "
		      "rdma-core); in each, the nodes with the same verdicts "
		      "as one line.",
		      f->fps.n, f->fps.n == 1 ? "" : "s");
	rc_str_printf(b, html ? "</p>" : "\n\n");
	for (g = 0; g < f->fps.n; g++)
		order[g] = g;
	sorting = r;
	qsort(order, f->fps.n, sizeof(*order), by_group_size);
	for (g = 0; g < f->fps.n; g++) {
		if (g < MAX_GROUPS)
			group(b, html, r, order[g]);
		else
			rest += r->groups[order[g]].nodes;
	}
	if (f->fps.n > MAX_GROUPS)
		rc_str_printf(
			b,
			html ? "<p>And %zu more fingerprints, of %zu "
			       "nodes: <a href=\"nodes.html\">nodes.html</a>.</p>" :
			       "And %zu more fingerprints, of %zu nodes: "
			       "[nodes.html](nodes.html).\n\n",
			f->fps.n - MAX_GROUPS, rest);
	if (!r->outliers)
		rc_str_printf(b, html ? "<p>No outliers.</p>" :
					"No outliers.\n\n");
	failing_cases(b, html, f);
	rc_str_printf(b, html ? "</body></html>\n" : "");
	free(order);
}

/* Every node, a line each */
static void nodes_page(struct rc_str *b, const struct report *r)
{
	const struct rc_fleet *f = &r->f;
	char step[96];
	size_t i;

	rc_str_printf(b,
		      "<!DOCTYPE html><html><head><meta charset=\"utf-8\">"
		      "<title>rdmaconf fleet: every node</title><style>%s"
		      "</style></head><body><p><a href=\"index.html\">The fleet"
		      "</a></p><h1>Every node</h1>",
		      rc_report_css);
	thead(b, true,
	      "node|partner|step|group|cases|not ok|off its group's "
	      "majority in");
	for (i = 0; i < f->n; i++) {
		const struct rc_fleet_node *nd = &f->nodes[i];

		td(b, true, true);
		node_link(b, true, nd, "nodes/");
		td(b, true, false);
		rc_str_html(b, nd->partner);
		rc_str_printf(b, "</td><td class=\"%s\">%s",
			      step_ok(nd) ? "PASS" : "FAIL",
			      step_text(nd, step, sizeof(step)));
		td(b, true, false);
		if (nd->loaded)
			rc_str_printf(b,
				      "<a href=\"index.html#g%u\">%u</a></td>"
				      "<td>%u</td><td>%u</td><td>",
				      nd->fp, nd->fp + 1, nd->cases,
				      nd->not_ok);
		else
			rc_str_printf(b, "-</td><td>-</td><td>-</td><td>");
		if (nd->loaded && r->groups[nd->fp].maj)
			rc_str_printf(b, "%u cases", r->diffs[nd->cls]);
		else
			rc_str_printf(b, "-");
		tr_end(b, true);
	}
	tend(b, true);
	rc_str_printf(b, "</body></html>\n");
}

int rc_report_fleet(const char *dir, const char *out)
{
	static const char *const tops[] = { "index.html", "summary.md",
					    "nodes.html" };
	struct report r = { .dfd = -1, .ndfd = -1, .out = out };
	struct rc_str b = {};
	size_t i;
	int ret = RC_EXIT_ENV;

	if (rc_fleet_open(&r.f, dir))
		goto out;
	if (mkdir(out, 0777) && errno != EEXIST) {
		fprintf(stderr, "rdmaconf: cannot create %s: %m\n", out);
		goto out;
	}
	r.dfd = open(out, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (r.dfd < 0) {
		fprintf(stderr, "rdmaconf: cannot open %s: %m\n", out);
		goto out;
	}
	/* refused before anything is read: a link where the report writes */
	for (i = 0; i < ARRAY_SIZE(tops); i++)
		if (writable(r.dfd, out, tops[i], false))
			goto out;
	snprintf(r.nodes_dir, sizeof(r.nodes_dir), "%s/nodes", out);
	r.ndfd = subdir(r.dfd, out, "nodes");
	if (r.ndfd < 0 || no_links(r.ndfd, r.nodes_dir))
		goto out;
	if (rc_fleet_read(&r.f, node_page, &r))
		goto out;
	analyse(&r);
	fleet_page(&b, true, &r);
	if (write_at(r.dfd, out, "index.html", &b))
		goto out;
	b.len = 0;
	fleet_page(&b, false, &r);
	if (write_at(r.dfd, out, "summary.md", &b))
		goto out;
	b.len = 0;
	nodes_page(&b, &r);
	if (write_at(r.dfd, out, "nodes.html", &b))
		goto out;
	printf("report: %s/index.html %s/summary.md %s/nodes.html (%zu nodes, "
	       "%zu fingerprints, %zu verdict classes, %u outliers)\n",
	       out, out, out, r.f.n, r.f.fps.n, r.f.keys.n, r.outliers);
	ret = fflush(stdout) || ferror(stdout) ? RC_EXIT_ENV : RC_EXIT_OK;
out:
	if (r.groups)
		for (i = 0; i < r.f.fps.n; i++) {
			free(r.groups[i].cls);
			free(r.groups[i].maj);
			free(r.groups[i].majn);
		}
	free(r.groups);
	free(r.diffs);
	if (r.ndfd >= 0)
		close(r.ndfd);
	if (r.dfd >= 0)
		close(r.dfd);
	rc_str_free(&r.page);
	rc_str_free(&b);
	rc_fleet_free(&r.f);
	return ret;
}
