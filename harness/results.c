// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"
#include "results.h"

/* A member's new name, in place (its value stays). */
static void rename_member(struct rc_jv *obj, const char *from, const char *to)
{
	size_t i;
	char *name;

	for (i = 0; obj->type == RC_JOBJ && i < obj->n; i++) {
		if (strcmp(obj->keys[i], from))
			continue;
		name = strdup(to);
		if (!name)
			abort();
		free(obj->keys[i]);
		obj->keys[i] = name;
	}
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
		snprintf(err, errlen, "%s: not an rdmaconf results file (no "
			 "\"results\" array)", path);
		goto fail;
	}
	/* a file without one is of the first schema */
	schema = rc_jv_get(doc, "schema");
	version = schema ? (schema->type == RC_JNUM ? (int)schema->num : -1) :
		  1;
	if (version < 1 || version > RC_RESULTS_SCHEMA ||
	    (schema && schema->num != version)) {
		snprintf(err, errlen, "%s: results schema %s, this rdmaconf "
			 "reads 1 to %d", path, version < 0 ? "not a number" :
			 "unknown", RC_RESULTS_SCHEMA);
		goto fail;
	}
	if (version == 1)
		upgrade_from_1(results);
	return doc;
fail:
	rc_jv_free(doc);
	return NULL;
}
