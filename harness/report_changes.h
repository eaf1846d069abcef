/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#ifndef RDMACONF_REPORT_CHANGES_H
#define RDMACONF_REPORT_CHANGES_H

#include <stdbool.h>
#include <stddef.h>

#include "json.h"
#include "compare.h"
#include "jsonread.h"

/*
 * The report's "What changed" section: for each pair of adjacent columns
 * (a matrix of kernels and rdma-core releases, in the order given), every
 * case whose verdict changed, judged as the gate does (compare.h).  HTML
 * or Markdown.
 */
void rc_report_changes(struct rc_str *b, const char *const *labels,
		       const struct rc_jv *const *results, int n,
		       const bool *elsewhere, const char **ids, size_t nids,
		       bool html);
/* ... where @elsewhere[r] (when given) says that the pair r-1 -> r has a
 * section of its own (report_providers.h): only its heading here. */

/* The table's head and one of its rows: case @id from @was to @now */
void rc_report_change_table(struct rc_str *b, bool html);
void rc_report_change_row(struct rc_str *b, const char *id,
			  const struct rc_jv *was, const struct rc_jv *now,
			  enum rc_change ch, const char *why, bool html);

#endif
