// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output.h"
#include "rdmaconf.h"
#include "results.h"
#include "wfile.h"

/* A member's new name, in place (its value stays); @to is a literal,
 * which outlives the document. */
static void rename_member(struct rc_jv *obj, const char *from, const char *to)
{
	size_t i;

	for (i = 0; obj->type == RC_JOBJ && i < obj->n; i++)
		if (!strcmp(obj->keys[i], from))
			obj->keys[i] = (char *)to;
}

/* Schema 1 named a row's contract "expected", its note "reason" and its
 * profile entry "expectation". */
static void upgrade_from_1(struct rc_jv *results)
{
	size_t i;

	for (i = 0; i < results->n; i++) {
		rename_member(&results->items[i], "expected", "contract");
		rename_member(&results->items[i], "reason", "note");
		rename_member(&results->items[i], "expectation",
			      "profile_entry");
	}
}

/* Is member @key of @o of @type, or absent or null where @optional? */
static bool typed(const struct rc_jv *o, const char *key, enum rc_jtype type,
		  bool optional)
{
	const struct rc_jv *v = rc_jv_get(o, key);

	if (!v || v->type == RC_JNULL)
		return optional;
	return v->type == type;
}

/* What makes one case of a results file one, in the file's current
 * names: NULL, or what is wrong with it. */
static const char *bad_case(const struct rc_jv *c)
{
	static const char *const texts[] = { "call",
					     "doc",
					     "note",
					     "divergence",
					     "stale",
					     "system_detail",
					     "reference_detail" };
	static const char *const objects[] = { "contract", "profile_entry",
					       "system", "reference" };
	const struct rc_jv *verdict = rc_jv_get(c, "verdict");
	size_t i;

	if (c->type != RC_JOBJ)
		return "is not an object";
	if (!typed(c, "id", RC_JSTR, false))
		return "has no \"id\" string";
	if (!typed(c, "ok", RC_JBOOL, false))
		return "has no \"ok\" true or false";
	if (!verdict || verdict->type != RC_JOBJ)
		return "has no \"verdict\" object";
	for (i = 0; i < verdict->n; i++)
		if (rc_impl_parse(verdict->keys[i]) < 0 ||
		    (verdict->items[i].type != RC_JNULL &&
		     (verdict->items[i].type != RC_JSTR ||
		      rc_verdict_parse(verdict->items[i].str) < 0)))
			return "has a verdict that is no verdict of "
			       "rdmaconf __vocab";
	if (!typed(c, "agree", RC_JBOOL, true))
		return "has an \"agree\" that is not true, false or null";
	if (rc_jv_str(c, "basis") && rc_basis_parse(rc_jv_str(c, "basis")) < 0)
		return "has a basis that is no basis of rdmaconf __vocab";
	if (!typed(c, "basis", RC_JSTR, true) ||
	    !typed(c, "needs", RC_JARR, true))
		return "has a \"basis\" or \"needs\" of the wrong type";
	for (i = 0; i < ARRAY_SIZE(texts); i++)
		if (!typed(c, texts[i], RC_JSTR, true))
			return "has a text member that is not a string";
	for (i = 0; i < ARRAY_SIZE(objects); i++)
		if (!typed(c, objects[i], RC_JOBJ, true))
			return "has a contract, observation or profile entry "
			       "that is not an object";
	return NULL;
}

static int by_id(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Every case one, and no id twice; 0, or -1 with the cause in @err. */
static int check(const char *path, const struct rc_jv *doc,
		 const struct rc_jv *results, char *err, size_t errlen)
{
	const char **ids;
	const char *why;
	size_t i;
	int ret = 0;

	if (!typed(doc, "complete", RC_JBOOL, false)) {
		snprintf(err, errlen,
			 "%s: no \"complete\" true or false: not "
			 "a results file of rdmaconf",
			 path);
		return -1;
	}
	for (i = 0; i < results->n; i++) {
		why = bad_case(&results->items[i]);
		if (why) {
			snprintf(err, errlen, "%s: case %zu %s", path, i + 1,
				 why);
			return -1;
		}
	}
	/* the ids sorted, not the cases: a comparison is then one strcmp */
	ids = malloc((results->n + 1) * sizeof(*ids));
	if (!ids)
		abort();
	for (i = 0; i < results->n; i++)
		ids[i] = rc_jv_str(&results->items[i], "id");
	qsort(ids, results->n, sizeof(*ids), by_id);
	for (i = 1; i < results->n && !ret; i++)
		if (!strcmp(ids[i - 1], ids[i])) {
			snprintf(err, errlen, "%s: case %.120s is there twice",
				 path, ids[i]);
			ret = -1;
		}
	free(ids);
	return ret;
}

struct rc_jv *rc_results_load(const char *path, char *err, size_t errlen)
{
	struct rc_jv *doc = rc_json_load(path, err, errlen);
	struct rc_jv *results;
	const struct rc_jv *schema;
	int version;

	if (!doc)
		return NULL;
	results = (struct rc_jv *)rc_jv_get(doc, "results");
	if (!results || results->type != RC_JARR) {
		snprintf(err, errlen,
			 "%s: not an rdmaconf results file (no "
			 "\"results\" array)",
			 path);
		goto fail;
	}
	/* a file without one is of the first schema */
	schema = rc_jv_get(doc, "schema");
	version = schema ? (schema->type == RC_JNUM ? (int)schema->num : -1) :
			   1;
	if (version < 1 || version > RC_RESULTS_SCHEMA ||
	    (schema && schema->num != version)) {
		snprintf(err, errlen,
			 "%s: results schema %s, this rdmaconf "
			 "reads 1 to %d",
			 path, version < 0 ? "not a number" : "unknown",
			 RC_RESULTS_SCHEMA);
		goto fail;
	}
	if (version == 1)
		upgrade_from_1(results);
	if (check(path, doc, results, err, errlen))
		goto fail;
	return doc;
fail:
	rc_jv_free(doc);
	return NULL;
}

/*
 * Rewriting the whole file costs its size, and a sync: past
 * RC_RESULTS_WHOLE bytes a state is written at most every
 * RC_RESULTS_LAG_MS, and always at the end (and on SIGINT or SIGTERM,
 * which end the run through close).  At 600 rows (1.5 MB) a rewrite per
 * row made the results file most of the suite's time in the VM, whose
 * working tree is a 9p share.
 */
#define RC_RESULTS_WHOLE (64 * 1024)
#define RC_RESULTS_LAG_MS 250

/* The document as it stands, written whole (wfile.c): on any failure
 * the results file is as it was.  A stream cannot be rewritten: it gets
 * the last state only. */
static int save(struct rc_results *r, const char *summary, bool complete,
		bool last)
{
	struct rc_str tail = {};
	int ret;

	if (r->stream && !last)
		return 0;
	rc_str_printf(&tail, "\n],\n\"summary\": %s,\n\"complete\": %s}\n",
		      summary, complete ? "true" : "false");
	ret = rc_wfile_write(
		r->path,
		(const struct rc_piece[]){ { r->head.s, r->head.len },
					   { r->cases.s, r->cases.len },
					   { tail.s, tail.len } },
		3);
	if (!ret)
		r->saved = r->ncases;
	r->saved_ms = rc_now_ms();
	rc_str_free(&tail);
	return ret;
}

int rc_results_open(struct rc_results *r, const char *path, const char *head)
{
	memset(r, 0, sizeof(*r));
	r->stream = rc_wfile_stream(path);
	r->path = strdup(path);
	if (!r->path)
		abort();
	rc_str_printf(&r->head, "{%s,\n\"results\": [", head);
	return save(r, "{}", false, false);
}

int rc_results_add(struct rc_results *r, const char *case_json,
		   const char *summary_json)
{
	rc_str_printf(&r->cases, "%s\n%s", r->ncases ? "," : "", case_json);
	r->ncases++;
	if (r->head.len + r->cases.len > RC_RESULTS_WHOLE &&
	    rc_now_ms() - r->saved_ms < RC_RESULTS_LAG_MS)
		return 0;
	return save(r, summary_json, false, false);
}

int rc_results_close(struct rc_results *r, const char *summary_json,
		     bool complete)
{
	int ret = save(r, summary_json, complete, true);

	rc_str_free(&r->head);
	rc_str_free(&r->cases);
	free(r->path);
	r->path = NULL;
	return ret;
}

unsigned int rc_results_saved(const struct rc_results *r)
{
	return r->saved;
}
