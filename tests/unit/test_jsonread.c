// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The JSON reader behind `rdmaconf report` and `rdmaconf gate`. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "../../harness/jsonread.h"

static struct rc_jv *parse(const char *s, char *err)
{
	return rc_json_parse(s, strlen(s), err, 256);
}

Test(jsonread, values_and_lookups)
{
	char err[256];
	struct rc_jv *v =
		parse(" {\"a\": [1, -2.5e1, true, null], \"s\": "
		      "\"x\\\"\\u00e9\\ud83d\\ude00\\n\", \"o\": {}} ",
		      err);

	cr_assert_not_null(v, "%s", err);
	cr_assert_eq(rc_jv_get(v, "a")->n, 4);
	cr_assert_float_eq(rc_jv_get(v, "a")->items[1].num, -25.0, 1e-9);
	cr_assert(rc_jv_get(v, "a")->items[2].b);
	cr_assert_eq(rc_jv_get(v, "a")->items[3].type, RC_JNULL);
	cr_assert_str_eq(rc_jv_str(v, "s"), "x\"\xc3\xa9\xf0\x9f\x98\x80\n");
	cr_assert_eq(rc_jv_get(v, "o")->type, RC_JOBJ);
	cr_assert_null(rc_jv_get(v, "missing"));
	cr_assert_null(rc_jv_str(v, "a"), "mistyped: NULL");
	cr_assert_float_eq(rc_jv_num(v, "s", 7), 7, 1e-9);
	rc_jv_free(v);
}

Test(jsonread, every_error_is_a_cause_with_an_offset)
{
	static const char *const bad[] = {
		"",	     "{",	 "[1,",
		"{\"a\" 1}", "{\"a\":}", "[1 2]",
		"tru",	     "\"abc",	 "\"\\u12\"",
		"\"\\x\"",   "[1]x",	 "{1: 2}",
		"\"a\nb\"",  "\"\\",	 "\"\\u\"",
		"1e999",     "-",	 "\"\\ud800\\u0041\"",
	};
	char err[256];
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cr_assert_null(parse(bad[i], err), "accepted '%s'", bad[i]);
		cr_assert(!strncmp(err, "byte ", 5), "'%s': %s", bad[i], err);
	}
}

Test(jsonread, nesting_is_bounded)
{
	char s[300], err[256];

	memset(s, '[', 200);
	s[200] = 0;
	cr_assert_null(parse(s, err));
	cr_assert(strstr(err, "nested deeper"), "%s", err);
}

Test(jsonread, truncated_results_file_says_where)
{
	char err[256];

	cr_assert_null(rc_json_load("/nonexistent/r.json", err, sizeof(err)));
	cr_assert(strstr(err, "cannot read /nonexistent/r.json"), "%s", err);
}

/* The lookups remember where they found a member or case last: that
 * must never make them find the wrong one, or miss one, when the next
 * object or array is in another order or shorter. */
Test(jsonread, lookups_remembered_never_mislead)
{
	char err[256];
	struct rc_jv *v = parse("{\"a\": {\"x\": 1, \"y\": 2, \"z\": 3},"
				" \"b\": {\"z\": 4, \"x\": 5},"
				" \"c\": {\"z\": 6},"
				" \"r\": [{\"id\": \"p\"}, {\"id\": \"q\"},"
				" {\"id\": \"s\"}]}",
				err);
	const struct rc_jv *r;

	cr_assert_not_null(v, "%s", err);
	cr_assert_float_eq(rc_jv_num(rc_jv_get(v, "a"), "z", 0), 3, 1e-9);
	cr_assert_float_eq(rc_jv_num(rc_jv_get(v, "b"), "z", 0), 4, 1e-9);
	cr_assert_float_eq(rc_jv_num(rc_jv_get(v, "a"), "y", 0), 2, 1e-9);
	cr_assert_null(rc_jv_get(rc_jv_get(v, "c"), "y"));
	cr_assert_float_eq(rc_jv_num(rc_jv_get(v, "b"), "x", 0), 5, 1e-9);
	cr_assert_float_eq(rc_jv_num(rc_jv_get(v, "c"), "z", 0), 6, 1e-9);
	r = rc_jv_get(v, "r");
	cr_assert_eq(rc_results_find(r, "s"), &r->items[2]);
	cr_assert_eq(rc_results_find(r, "p"), &r->items[0], "wraps around");
	cr_assert_eq(rc_results_find(r, "q"), &r->items[1]);
	cr_assert_null(rc_results_find(r, "t"));
	cr_assert_eq(rc_results_find(r, "q"), &r->items[1]);
	rc_jv_free(v);
}

/* Documents one after another reuse the memory of those freed: each
 * one's strings stay its own. */
Test(jsonread, documents_freed_and_read_again_stay_apart)
{
	char err[256], text[64];
	struct rc_jv *v[40];
	int i;

	for (i = 0; i < 40; i++) {
		snprintf(text, sizeof(text), "{\"k\": \"v%d\"}", i);
		v[i] = parse(text, err);
		cr_assert_not_null(v[i], "%s", err);
		if (i % 3 == 0) {
			rc_jv_free(v[i]);
			v[i] = NULL;
		}
	}
	for (i = 0; i < 40; i++) {
		snprintf(text, sizeof(text), "v%d", i);
		if (v[i])
			cr_assert_str_eq(rc_jv_str(v[i], "k"), text);
		rc_jv_free(v[i]);
	}
}
