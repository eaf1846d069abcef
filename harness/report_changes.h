/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#ifndef RDMACONF_REPORT_CHANGES_H
#define RDMACONF_REPORT_CHANGES_H

#include <stdbool.h>
#include <stddef.h>

#include "json.h"
#include "jsonread.h"

/*
 * The report's "What changed" section: for each pair of adjacent columns
 * (a matrix of kernels and rdma-core releases, in the order given), every
 * case whose verdict changed, judged as the gate does (compare.h).  HTML
 * or Markdown.
 */
void rc_report_changes(struct rc_str *b, const char *const *labels,
		       const struct rc_jv *const *results, int n,
		       const char **ids, size_t nids, bool html);

#endif
