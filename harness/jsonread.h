/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Reading JSON back (results files, for `rdmaconf report` and `rdmaconf
 * gate`): a strict RFC 8259 parser into a small tree.  Input is untrusted
 * (a file from another host, a crashed run): every error is a one-line
 * cause with the byte offset, never a crash, and nesting is bounded.
 */
#ifndef RDMACONF_JSONREAD_H
#define RDMACONF_JSONREAD_H

#include <stdbool.h>
#include <stddef.h>

enum rc_jtype { RC_JNULL, RC_JBOOL, RC_JNUM, RC_JSTR, RC_JARR, RC_JOBJ };

struct rc_jv {
	enum rc_jtype type;
	bool b;
	double num;
	char *str; /* RC_JSTR: NUL-terminated, unescaped */
	size_t n; /* RC_JARR, RC_JOBJ: elements */
	struct rc_jv *items; /* their values */
	char **keys; /* RC_JOBJ: their keys */
};

/* Parse @len bytes; NULL and a cause in @err on error.  rc_jv_free frees
 * the whole document: the tree is one allocation's, so nothing in it is
 * freed, grown or replaced alone (a member's key may be pointed at a
 * string that outlives the document). */
struct rc_jv *rc_json_parse(const char *text, size_t len, char *err,
			    size_t errlen);
/* Read and parse a whole file. */
struct rc_jv *rc_json_load(const char *path, char *err, size_t errlen);
/* @v: what rc_json_parse or rc_json_load returned, or NULL */
void rc_jv_free(struct rc_jv *v);

/* Lookups that tolerate a missing or mistyped member: NULL / @dflt. */
const struct rc_jv *rc_jv_get(const struct rc_jv *obj, const char *key);
const char *rc_jv_str(const struct rc_jv *obj, const char *key);
double rc_jv_num(const struct rc_jv *obj, const char *key, double dflt);

/* The case @id in a results file's "results" array, or NULL. */
const struct rc_jv *rc_results_find(const struct rc_jv *results,
				    const char *id);

#endif
