/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#ifndef RDMACONF_JSON_H
#define RDMACONF_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A growing string; an allocation failure aborts, the harness cannot go on. */
struct rc_str {
	char *s;
	size_t len, cap;
};

void rc_str_printf(struct rc_str *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void rc_str_json(struct rc_str *b, const char *s);	/* quoted, escaped */
void rc_str_hex(struct rc_str *b, const uint8_t *p, size_t len); /* quoted */
/* XML/HTML text: markup characters as entities, control characters but
 * newline as '?' (XML 1.0 forbids them) */
void rc_str_xml(struct rc_str *b, const char *s);
void rc_str_free(struct rc_str *b);

/*
 * The results file.  After every rc_results_add() the file on disk is a
 * complete JSON document: the case is written over the old trailer together
 * with a new trailer, in one write, so a run killed at any point leaves valid
 * JSON holding every case finished before it.
 */
struct rc_results {
	int fd;
	long trailer_off;
	unsigned int ncases;
};

int rc_results_open(struct rc_results *r, const char *path, const char *head);
int rc_results_add(struct rc_results *r, const char *case_json,
		   const char *summary_json);
/* @complete: every selected case ran (false: the run was interrupted) */
int rc_results_close(struct rc_results *r, const char *summary_json,
		     bool complete);

#endif
