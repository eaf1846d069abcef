// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdmaconf gate --baseline BASELINE.json RESULTS.json: the CI gate for a
 * change to a provider or library.  Every case that got worse fails it:
 * a case that was ok is not ok now (PASS to FAIL, a new CRASH or HANG, an
 * unexpected divergence, a profile entry gone stale), a new case that is
 * not ok, a case that ran and now does not run at all or is ABSENT (a gate
 * that passes because nothing ran would pass anything), and a case that
 * vanished from the results (removing one on purpose is a baseline
 * update).  A case that now conforms where a profile expects a failure
 * fails the gate too, but as "now conforms: update the profile", not as
 * worse.  What improved is listed.  Each case listed is followed by the
 * sentence it cites.  Exit 0 nothing got worse and no profile is out of
 * date, 1 otherwise, 2 usage, 3 a file could not be read.
 *
 * rdmaconf gate --rdma-core TREE [--base REV] [--head REV] and --builds
 * BASE_BUILD HEAD_BUILD make the two results files first: that is
 * ci/gate-rdma-core, which builds and runs both and comes back here.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "escape.h"
#include "compare.h"
#include "jsonread.h"
#include "launch.h"
#include "report.h"
#include "report_fleet.h"
#include "results.h"

struct side {
	const char *path;
	struct rc_jv *doc;
	const struct rc_jv *results;
};

static const struct rc_jv *find(const struct side *s, const char *id)
{
	return rc_results_find(s->results, id);
}

static bool load(struct side *s)
{
	char err[512];

	s->doc = rc_results_load(s->path, err, sizeof(err));
	if (!s->doc) {
		fprintf(stderr, "rdmaconf: %s\n", err);
		return false;
	}
	s->results = rc_jv_get(s->doc, "results");
	return true;
}

/* One line of the gate's table; what came from a file is shown as text
 * (rc_term_str): a results file cannot write to the terminal. */
static void row(const char *mark, const char *who, const char *id,
		const struct rc_jv *b, const struct rc_jv *n, const char *why)
{
	char case_id[200], shown_why[1024], shown_doc[1024], node[128];
	const char *doc;

	snprintf(case_id, sizeof(case_id), "%s%s%s",
		 who ? rc_term_str(who, node, sizeof(node)) : "",
		 who ? ":" : "", rc_term_str(id, shown_why, sizeof(shown_why)));
	printf("%-8s %-58s %5s/%-5s -> %5s/%-5s %s\n", mark, case_id,
	       b ? rc_case_verdict(b, RC_IMPL_SYSTEM) : "",
	       b ? rc_case_verdict(b, RC_IMPL_REFERENCE) : "",
	       n ? rc_case_verdict(n, RC_IMPL_SYSTEM) : "",
	       n ? rc_case_verdict(n, RC_IMPL_REFERENCE) : "",
	       rc_term_str(why, shown_why, sizeof(shown_why)));
	/* what the case holds the library to, as it cites it */
	doc = rc_jv_str(n ? n : b, "doc");
	if (doc && *doc)
		printf("%-8s cites: \"%s\"\n", "",
		       rc_term_str(doc, shown_doc, sizeof(shown_doc)));
}

struct tally {
	unsigned int worse, better, same, update;
};

/* One results file against its baseline; the rows printed prefixed with
 * @who (a fleet's node) when given.  False when a file cannot be read. */
static bool gate_file(const char *base_path, const char *now_path,
		      const char *who, struct tally *t)
{
	struct side base = { .path = base_path }, now = { .path = now_path };
	const struct rc_jv *complete;
	bool ok = false, partial;
	size_t i;

	if (!load(&base) || !load(&now))
		goto out;
	/* a baseline whose run did not complete says nothing of the cases
	 * it lacks: those are not new, they are unknown, and not green */
	complete = rc_jv_get(base.doc, "complete");
	partial = !complete || !complete->b;
	for (i = 0; i < now.results->n; i++) {
		const struct rc_jv *n = &now.results->items[i];
		const char *id = rc_jv_str(n, "id"), *why;
		const struct rc_jv *b = find(&base, id);
		enum rc_change ch;

		if (!b && partial) {
			row("WORSE", who, id, b, n,
			    "not in the baseline, "
			    "whose run did not complete");
			t->worse++;
			continue;
		}
		ch = rc_compare_case(b, n, &why);
		if (ch != RC_SAME)
			row(rc_change_name(ch), who, id, b, n, why);
		t->worse += ch == RC_WORSE;
		t->update += ch == RC_UPDATE;
		t->better += ch == RC_BETTER;
		t->same += ch == RC_SAME && b;
	}
	for (i = 0; i < base.results->n; i++) {
		const struct rc_jv *b = &base.results->items[i];
		const char *id = rc_jv_str(b, "id"), *why;

		if (!id || find(&now, id))
			continue;
		rc_compare_case(b, NULL, &why);
		row("WORSE", who, id, b, NULL, why);
		t->worse++;
	}
	ok = true;
out:
	rc_jv_free(base.doc);
	rc_jv_free(now.doc);
	return ok;
}

/*
 * A fleet directory against a fleet baseline, at the scale of a cluster:
 * the baseline's node files are read once each and folded into their
 * verdict vectors (report_fleet.h); then each node file of the fleet is
 * read once and judged case by case against its node's vector, by
 * rc_compare_case as gate_file judges two files.  A change seen on
 * several nodes is one line, with its nodes.
 *
 * A node is the baseline's node of its name.  A node of a name the
 * baseline lacks whose device node GUID is that of exactly one baseline
 * node gone by name is that node, renamed, and judged against it;
 * without a GUID (ibsim, a host without a device) a rename is a removal
 * and an addition.  A node whose step died, or that is gone, got worse.
 */
struct fleet_gate {
	struct rc_fleet base, now;
	long *match; /* per node of now: its baseline node, or -1 */
	bool *claimed; /* per baseline node: matched by some node */
	struct rc_fleet_set guids; /* of baseline nodes gone by name */
	long *guid_node; /* ... each one's node, -1 when ambiguous */
	struct rc_fleet_set keys; /* what changed, once per kind */
	struct change {
		const char *mark;
		char *why;
		size_t nodes;
		long first[RC_FLEET_NAMES];
	} * ch;
	uint8_t *seen; /* per baseline case: in the node's results */
	struct tally *t;
};

/* A baseline case as rc_compare_case reads one: its ok and verdicts are
 * all its judgement takes of the baseline side (compare.c), and all a
 * verdict vector keeps.  Nothing of it is freed. */
struct synth {
	struct rc_jv c, items[2], v[2];
	char *keys[2], *vkeys[2];
};

static const struct rc_jv *synth(struct synth *s, uint8_t code)
{
	int i;

	memset(s, 0, sizeof(*s));
	s->keys[0] = (char *)"ok";
	s->keys[1] = (char *)"verdict";
	s->c = (struct rc_jv){
		.type = RC_JOBJ, .n = 2, .items = s->items, .keys = s->keys
	};
	s->items[0] =
		(struct rc_jv){ .type = RC_JBOOL, .b = rc_fleet_code_ok(code) };
	s->items[1] = (struct rc_jv){
		.type = RC_JOBJ, .n = RC_NIMPLS, .items = s->v, .keys = s->vkeys
	};
	BUILD_ASSERT(RC_NIMPLS == ARRAY_SIZE(s->v));
	for (i = 0; i < RC_NIMPLS; i++) {
		const char *v = rc_fleet_code_verdict(code, i);

		s->vkeys[i] = (char *)rc_impl_name(i);
		s->v[i] = strcmp(v, "-") ? (struct rc_jv){ .type = RC_JSTR,
							   .str = (char *)v } :
					   (struct rc_jv){ .type = RC_JNULL };
	}
	return &s->c;
}

/* Node @node of now (or of the baseline: @node < 0 names base node
 * -node - 1) in the line of what changed: @mark, case @id ("" for the
 * node itself), the two outcomes */
static void change(struct fleet_gate *g, const char *mark, const char *id,
		   uint8_t b, uint8_t n, const char *why, long node)
{
	struct rc_str key = {};
	size_t before = g->keys.n;
	struct change *c;
	long k;

	rc_str_printf(&key, "%s%c%c%c%s", mark, 0, b + 1, n + 1, id);
	if (!*id)
		rc_str_printf(&key, "%c%s", 0, why);
	k = rc_fleet_set_find(&g->keys, key.s, key.len, true);
	rc_str_free(&key);
	if (g->keys.n > before) {
		g->ch = realloc(g->ch, g->keys.cap * sizeof(*g->ch));
		if (!g->ch)
			abort();
		c = &g->ch[k];
		memset(c, 0, sizeof(*c));
		c->mark = mark;
		c->why = strdup(why);
		if (!c->why)
			abort();
	}
	c = &g->ch[k];
	if (c->nodes < RC_FLEET_NAMES)
		c->first[c->nodes] = node;
	c->nodes++;
}

static const char *node_name(const struct fleet_gate *g, long node)
{
	return node < 0 ? g->base.nodes[-node - 1].name :
			  g->now.nodes[node].name;
}

/* Now's node @i's results against its baseline node */
static int gate_node(struct rc_fleet *f, size_t i,
		     const struct rc_report_run *run, void *arg)
{
	struct fleet_gate *g = arg;
	const struct rc_fleet_node *bn;
	const struct rc_fleet_class *bc;
	const char *guid, *why;
	struct synth sy;
	size_t k;
	long bi = g->match[i], id;

	guid = rc_jv_str(rc_jv_get(run->doc, "device"), "node_guid");
	if (bi < 0 && guid && *guid) {
		id = rc_fleet_set_find(&g->guids, guid, strlen(guid), false);
		if (id >= 0 && g->guid_node[id] >= 0 &&
		    !g->claimed[g->guid_node[id]]) {
			bi = g->match[i] = g->guid_node[id];
			g->claimed[bi] = true;
		}
	}
	if (bi < 0 || !g->base.nodes[bi].loaded)
		return 0;
	bn = &g->base.nodes[bi];
	bc = &g->base.classes[bn->cls];
	memset(g->seen, 0, g->base.ids.n + 1);
	for (k = 0; k < run->results->n; k++) {
		const struct rc_jv *n = &run->results->items[k];
		const char *cid = rc_jv_str(n, "id");
		uint8_t b = 0, nc = rc_fleet_code(n);
		enum rc_change ch;

		id = rc_fleet_set_find(&g->base.ids, cid, strlen(cid), false);
		if (id >= 0 && (size_t)id < bc->len) {
			b = bc->vec[id];
			g->seen[id] = 1;
		}
		/* a baseline whose run did not complete says nothing of the
		 * cases it lacks: those are not new, they are unknown */
		if (!b && !bn->complete) {
			change(g, "WORSE", cid, 0, nc,
			       "not in the baseline, "
			       "whose run did not complete",
			       i);
			g->t->worse++;
			continue;
		}
		ch = rc_compare_case(b ? synth(&sy, b) : NULL, n, &why);
		if (ch != RC_SAME)
			change(g, rc_change_name(ch), cid, b, nc, why, i);
		g->t->worse += ch == RC_WORSE;
		g->t->update += ch == RC_UPDATE;
		g->t->better += ch == RC_BETTER;
		g->t->same += ch == RC_SAME && b;
	}
	for (k = 0; k < bc->len; k++) {
		if (!bc->vec[k] || g->seen[k])
			continue;
		rc_compare_case(synth(&sy, bc->vec[k]), NULL, &why);
		change(g, "WORSE", g->base.ids.e[k].key, bc->vec[k], 0, why, i);
		g->t->worse++;
	}
	return 0;
}

/* The first node of @f whose results cannot be read: the gate's cause */
static bool all_read(const struct rc_fleet *f)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		if (f->nodes[i].unreadable) {
			fprintf(stderr, "rdmaconf: %s\n",
				f->nodes[i].unreadable);
			return false;
		}
	return true;
}

/* What changed, a line each: the nodes, then the cases */
static void print_changes(const struct fleet_gate *g)
{
	char who[160], shown[128], b[2][16], n[2][16], why[1024];
	size_t k, j;
	int pass;

	for (pass = 0; pass < 2; pass++)
		for (k = 0; k < g->keys.n; k++) {
			const struct change *c = &g->ch[k];
			const char *key = g->keys.e[k].key;
			size_t l = strlen(key);
			/* the key: mark, NUL, the two codes + 1, the id */
			const char *id = key + l + 3;
			uint8_t bc = (uint8_t)key[l + 1] - 1;
			uint8_t nc = (uint8_t)key[l + 2] - 1;

			if (!*id != !pass)
				continue;
			snprintf(who, sizeof(who), "%s",
				 rc_term_str(node_name(g, c->first[0]), shown,
					     sizeof(shown)));
			if (c->nodes > 1)
				snprintf(who + strlen(who),
					 sizeof(who) - strlen(who), " +%zu",
					 c->nodes - 1);
			if (!*id) {
				printf("%-8s %-58s %s", c->mark, who,
				       rc_term_str(c->why, why, sizeof(why)));
			} else {
				for (j = 0; j < RC_NIMPLS; j++) {
					snprintf(b[j], sizeof(b[j]), "%s",
						 bc ? rc_fleet_code_verdict(bc,
									    j) :
						      "");
					snprintf(n[j], sizeof(n[j]), "%s",
						 nc ? rc_fleet_code_verdict(nc,
									    j) :
						      "");
				}
				snprintf(who + strlen(who),
					 sizeof(who) - strlen(who), ":%s",
					 rc_term_str(id, shown, sizeof(shown)));
				printf("%-8s %-58s %5s/%-5s -> %5s/%-5s %s",
				       c->mark, who, b[0], b[1], n[0], n[1],
				       rc_term_str(c->why, why, sizeof(why)));
			}
			if (c->nodes > 1) {
				printf(" [%zu nodes: ", c->nodes);
				for (j = 0; j < c->nodes && j < RC_FLEET_NAMES;
				     j++)
					printf("%s%s", j ? ", " : "",
					       rc_term_str(
						       node_name(g,
								 c->first[j]),
						       shown, sizeof(shown)));
				printf("%s]", c->nodes > RC_FLEET_NAMES ?
						      " and more" :
						      "");
			}
			printf("\n");
		}
}

static bool gate_fleet(const char *base_dir, const char *now_dir,
		       struct tally *t)
{
	struct fleet_gate g = { .t = t };
	char why[320], shown[128];
	bool ok = false;
	size_t i, before;
	long k;

	if (rc_fleet_open(&g.base, base_dir) || rc_fleet_open(&g.now, now_dir))
		goto out;
	rc_fleet_read(&g.base, NULL, NULL);
	if (!all_read(&g.base))
		goto out;
	g.match = calloc(g.now.n, sizeof(*g.match));
	g.claimed = calloc(g.base.n, sizeof(*g.claimed));
	g.guid_node = calloc(g.base.n, sizeof(*g.guid_node));
	g.seen = calloc(g.base.ids.n + 1, 1);
	if (!g.match || !g.claimed || !g.guid_node || !g.seen)
		abort();
	for (i = 0; i < g.now.n; i++) {
		k = rc_fleet_set_find(&g.base.names, g.now.nodes[i].name,
				      strlen(g.now.nodes[i].name), false);
		g.match[i] = k;
		if (k >= 0)
			g.claimed[k] = true;
	}
	/* the device GUIDs of the baseline's nodes gone by name: a node
	 * that comes with one under a new name is that node */
	for (i = 0; i < g.base.n; i++) {
		const char *guid = g.base.nodes[i].guid;

		if (g.claimed[i] || !guid)
			continue;
		before = g.guids.n;
		k = rc_fleet_set_find(&g.guids, guid, strlen(guid), true);
		g.guid_node[k] = g.guids.n > before ? (long)i : -1;
	}
	rc_fleet_read(&g.now, gate_node, &g);
	if (!all_read(&g.now))
		goto out;
	for (i = 0; i < g.now.n; i++) {
		const struct rc_fleet_node *nd = &g.now.nodes[i];
		long bi = g.match[i];

		if (nd->status < 0) {
			change(&g, "WORSE", "", 0, 0, "its step died", i);
			t->worse++;
		}
		if (bi < 0) {
			change(&g, "NEW", "", 0, 0, "not in the baseline", i);
		} else if (strcmp(g.base.nodes[bi].name, nd->name)) {
			snprintf(why, sizeof(why),
				 "was %s (the same device "
				 "node GUID)",
				 rc_term_str(g.base.nodes[bi].name, shown,
					     sizeof(shown)));
			change(&g, "RENAMED", "", 0, 0, why, i);
		} else if (!g.base.nodes[bi].loaded) {
			change(&g, "NEW", "", 0, 0,
			       "no results in the baseline", i);
		}
	}
	for (i = 0; i < g.base.n; i++)
		if (!g.claimed[i]) {
			change(&g, "WORSE", "", 0, 0, "vanished from the fleet",
			       -(long)i - 1);
			t->worse++;
		}
	print_changes(&g);
	ok = true;
out:
	for (i = 0; i < g.keys.n; i++)
		free(g.ch[i].why);
	free(g.ch);
	free(g.match);
	free(g.claimed);
	free(g.guid_node);
	free(g.seen);
	rc_fleet_set_free(&g.keys);
	rc_fleet_set_free(&g.guids);
	rc_fleet_free(&g.base);
	rc_fleet_free(&g.now);
	return ok;
}

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

int rc_cmd_gate(int argc, char **argv)
{
	struct option opts[RC_NOPTS + 1];
	char shortopts[3 * RC_NOPTS + 2];
	struct tally t = {};
	const char *base = NULL, *now;
	bool builds = false, ok;
	int c;

	rc_cli_getopt(RC_CMD_GATE, opts, shortopts);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, opts, NULL)) != -1) {
		switch (rc_cli_opt_of(c)) {
		case RC_OPT_HELP:
			rc_cli_usage(stdout);
			return RC_EXIT_OK;
		case RC_OPT_BASELINE:
			base = optarg;
			break;
		case RC_OPT_RDMA_CORE:
		case RC_OPT_BUILDS:
		case RC_OPT_BASE:
		case RC_OPT_HEAD:
		case RC_OPT_FILTER:
		case RC_OPT_OUTPUT:
			builds = true;
			break;
		default:
			fprintf(stderr,
				"rdmaconf: usage: rdmaconf gate "
				"--baseline BASELINE.json|DIR RESULTS.json|DIR, "
				"or --rdma-core TREE, or --builds BASE HEAD\n");
			return RC_EXIT_USAGE;
		}
	}
	/* rdma-core's revisions or builds: built and run by the helper,
	 * which judges their results here again */
	if (builds && base) {
		fprintf(stderr, "rdmaconf: gate --baseline compares results "
				"files; --rdma-core and --builds make them\n");
		return RC_EXIT_USAGE;
	}
	if (builds)
		return rc_exec_helper("gate-rdma-core",
				      "RDMACONF_GATE_RDMA_CORE", argc - 1,
				      argv + 1);
	if (!base || argc - optind != 1) {
		fprintf(stderr,
			"rdmaconf: gate needs --baseline BASELINE.json "
			"and one RESULTS.json (or two fleet directories)\n");
		return RC_EXIT_USAGE;
	}
	now = argv[optind];
	if (is_dir(base) != is_dir(now)) {
		fprintf(stderr,
			"rdmaconf: gate compares a results file with a "
			"results file, or a fleet directory with a fleet "
			"directory\n");
		return RC_EXIT_USAGE;
	}
	printf("%-8s %-58s %11s    %11s\n", "", "case", "baseline",
	       "now (system/reference)");
	ok = is_dir(now) ? gate_fleet(base, now, &t) :
			   gate_file(base, now, NULL, &t);
	if (!ok)
		return RC_EXIT_ENV;
	printf("gate: %u worse, %u now conform (update the profile), %u "
	       "better, %u unchanged (baseline %s)\n",
	       t.worse, t.update, t.better, t.same, base);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "rdmaconf: writing stdout failed: %m\n");
		return RC_EXIT_ENV;
	}
	return t.worse || t.update ? RC_EXIT_FAILURES : RC_EXIT_OK;
}
