/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A results file as `rdmaconf report` reads it: its path, its document, a
 * label for its column, and what the report's parts ask of its cases.
 */
#ifndef RDMACONF_REPORT_DOC_H
#define RDMACONF_REPORT_DOC_H

#include <stdbool.h>
#include <stddef.h>

#include "jsonread.h"

struct rc_report_run {
	const char *path;
	struct rc_jv *doc;
	const struct rc_jv *results;
	char label[200];
};

/* A scalar member (or an array of strings) as text; "" when absent.  Not
 * escaped: the caller shows it through its medium's function. */
const char *rc_report_text(const struct rc_jv *obj, const char *key, char *buf,
			   size_t len);
bool rc_report_case_ok(const struct rc_jv *c);
/* Not a plain PASS on both, or not ok, or diverging: worth a look */
bool rc_report_noteworthy(const struct rc_jv *c);
const struct rc_jv *rc_report_find(const struct rc_report_run *r,
				   const char *id);
/* Load one results file; 0, or -1 with a one-line cause in @err. */
int rc_report_load_one(const char *path, struct rc_report_run *run, char *err,
		       size_t errlen);
/* Load @n results files; 0, or -1 with a one-line cause on stderr. */
int rc_report_load(int n, char **paths, struct rc_report_run *runs);
/* Every case id of every run, first appearance first (allocated). */
const char **rc_report_ids(const struct rc_report_run *runs, int n,
			   size_t *count);

#endif
