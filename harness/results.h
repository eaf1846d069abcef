/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Reading a results file back (report, gate, the fleet): what makes a
 * file one, and the names of older schemas (output.h's
 * RC_RESULTS_SCHEMA) brought to the current ones, so that every reader
 * reads one vocabulary.
 */
#ifndef RDMACONF_RESULTS_H
#define RDMACONF_RESULTS_H

#include <stddef.h>

#include "jsonread.h"

/* Load @path as a results file; NULL and a one-line cause in @err. */
struct rc_jv *rc_results_load(const char *path, char *err, size_t errlen);

#endif
