// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdmaconf __vocab: every table of the vocabulary as one JSON document,
 * for what is not C and must say the same words: the man page, the bash
 * completion and the Python tests, each held to it by a test.
 */
#include <stdio.h>

#include "cli.h"
#include "json.h"
#include "need.h"
#include "target.h"
#include "vocab.h"
#include "vocab_json.h"

static void str_member(struct rc_str *b, const char *key, const char *v)
{
	rc_str_printf(b, ", \"%s\": ", key);
	rc_str_json(b, v);
}

static void bool_member(struct rc_str *b, const char *key, bool v)
{
	rc_str_printf(b, ", \"%s\": %s", key, v ? "true" : "false");
}

static void verdicts(struct rc_str *b)
{
	const char *sep = "";

	rc_str_printf(b, "\"verdicts\": [");
#define V(e, n, rank, ran, bad, breaks, meaning)    \
	rc_str_printf(b, "%s\n  {\"name\": ", sep); \
	rc_str_json(b, n);                          \
	rc_str_printf(b, ", \"rank\": %d", rank);   \
	bool_member(b, "ran", ran);                 \
	bool_member(b, "bad", bad);                 \
	bool_member(b, "breaks", breaks);           \
	str_member(b, "meaning", meaning);          \
	rc_str_printf(b, "}");                      \
	sep = ",";
	RC_VERDICTS(V)
#undef V
	rc_str_printf(b, "]");
}

static void fail_kinds(struct rc_str *b)
{
	const char *sep = "";

	rc_str_printf(b, ",\n\"fail_kinds\": [");
#define K(e, q, t, covers)                                                   \
	if (*q) {                                                            \
		rc_str_printf(b, "%s\n  {\"qualifier\": ", sep);             \
		rc_str_json(b, q);                                           \
		str_member(b, "text", t);                                    \
		str_member(b, "covers",                                      \
			   covers < RC_NVERDICTS ? rc_verdict_name(covers) : \
						   "FAIL");                  \
		rc_str_printf(b, "}");                                       \
		sep = ",";                                                   \
	}
	RC_FAIL_KINDS(K)
#undef K
	rc_str_printf(b, "]");
}

static void bases(struct rc_str *b)
{
	const char *sep = "";

	rc_str_printf(b, ",\n\"bases\": [");
#define B(e, n, title, brief)                       \
	rc_str_printf(b, "%s\n  {\"name\": ", sep); \
	rc_str_json(b, n);                          \
	str_member(b, "title", title);              \
	str_member(b, "short", brief);              \
	rc_str_printf(b, "}");                      \
	sep = ",";
	RC_BASES(B)
#undef B
	rc_str_printf(b, "]");
}

/* a table of a name and a meaning */
#define NAMED(b, key, TABLE)                           \
	do {                                           \
		const char *sep = "";                  \
		rc_str_printf(b, ",\n\"%s\": [", key); \
		TABLE(NAMED_ROW)                       \
		rc_str_printf(b, "]");                 \
	} while (0)
#define NAMED_ROW(e, n, meaning)                    \
	rc_str_printf(b, "%s\n  {\"name\": ", sep); \
	rc_str_json(b, n);                          \
	str_member(b, "meaning", meaning);          \
	rc_str_printf(b, "}");                      \
	sep = ",";

static void exits(struct rc_str *b)
{
	const char *sep = "";

	rc_str_printf(b, ",\n\"exits\": [");
#define X(e, code, meaning)                                                \
	rc_str_printf(b, "%s\n  {\"name\": \"%s\", \"code\": %d", sep, #e, \
		      code);                                               \
	str_member(b, "meaning", meaning);                                 \
	rc_str_printf(b, "}");                                             \
	sep = ",";
	RC_EXITS(X)
#undef X
	rc_str_printf(b, "]");
}

int rc_cmd_vocab(void)
{
	struct rc_str buf = {}, *b = &buf;
	int ret;

	rc_str_printf(b, "{");
	verdicts(b);
	fail_kinds(b);
	bases(b);
	NAMED(b, "conventions", RC_CONVS);
	NAMED(b, "outcomes", RC_OUTCOMES);
	NAMED(b, "implementations", RC_IMPLS);
	NAMED(b, "entry_kinds", RC_ENTRY_KINDS);
	exits(b);
	rc_need_vocab_json(b);
	rc_target_vocab_json(b);
	rc_cli_vocab_json(b);
	rc_str_printf(b, "\n}\n");
	ret = fputs(b->s, stdout) < 0 || fflush(stdout) ? RC_EXIT_ENV :
							  RC_EXIT_OK;
	rc_str_free(b);
	return ret;
}
