/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The results file.  Written by `rdmaconf run` as the rows finish, so
 * that an interruption of any kind -- a signal, SIGKILL, a full disk --
 * leaves a complete, valid document with every row finished before it:
 * each state is written whole into a temporary file beside it, synced,
 * and renamed over it.  Read back (report, gate, the fleet) with the
 * names of older schemas (output.h's RC_RESULTS_SCHEMA) brought to the
 * current ones, so that every reader reads one vocabulary.
 */
#ifndef RDMACONF_RESULTS_H
#define RDMACONF_RESULTS_H

#include <stddef.h>

#include <stdbool.h>

#include "json.h"
#include "jsonread.h"

struct rc_results {
	char *path; /* the results file */
	struct rc_str head, cases;
	unsigned int ncases, saved; /* cases in memory, in the file */
	bool stream; /* a device or a pipe: written once, at the end */
	double saved_ms; /* when the file was last written */
};

/* Start @path with @head (the members before "results"); 0 or -errno. */
int rc_results_open(struct rc_results *r, const char *path, const char *head);
/* Add a case and the summary so far; the file follows at once (a large
 * one at most every RC_RESULTS_LAG_MS).  0, or -errno: the file then
 * still holds the cases up to rc_results_saved(). */
int rc_results_add(struct rc_results *r, const char *case_json,
		   const char *summary_json);
/* The last state, @complete when every selected case ran; 0 or -errno. */
int rc_results_close(struct rc_results *r, const char *summary_json,
		     bool complete);
/* How many cases the file on disk holds */
unsigned int rc_results_saved(const struct rc_results *r);

/* Load @path as a results file; NULL and a one-line cause in @err. */
struct rc_jv *rc_results_load(const char *path, char *err, size_t errlen);

#endif
