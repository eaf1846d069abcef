/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Every string that comes from a results file (or from the code under
 * test) is shown through one function per medium, so that whatever the
 * file holds -- markup, a Markdown table's bars, a terminal's escape
 * sequences -- it is shown as text and never acts.
 */
#ifndef RDMACONF_ESCAPE_H
#define RDMACONF_ESCAPE_H

#include <stdbool.h>
#include <stdio.h>

#include "json.h"

/* HTML and XML text and attribute values: markup as entities, control
 * characters as '?' (XML 1.0 forbids them), newline kept */
void rc_str_html(struct rc_str *b, const char *s);
/* Markdown, inside a table cell or a line: markup, the table's bars,
 * backquotes and emphasis escaped with '\', line breaks as spaces,
 * control characters as '?' */
void rc_str_md(struct rc_str *b, const char *s);
/* @s (NULL: "") in @html or Markdown, for the writers of both */
void rc_str_text(struct rc_str *b, bool html, const char *s);
/* A terminal or a CI log: control characters (ESC, BEL, CR...) and bytes
 * that are no ASCII as \xNN, so that nothing moves the cursor or rings */
void rc_term_put(FILE *f, const char *s);
/* The same into a buffer of @len bytes (a line the caller prints) */
const char *rc_term_str(const char *s, char *buf, size_t len);

#endif
