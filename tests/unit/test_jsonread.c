// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The JSON reader behind `rdmaconf report` and `rdmaconf gate`. */
#include <criterion/criterion.h>
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
