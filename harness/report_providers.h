/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#ifndef RDMACONF_REPORT_PROVIDERS_H
#define RDMACONF_REPORT_PROVIDERS_H

#include <stdbool.h>
#include <stddef.h>

#include "json.h"
#include "report_doc.h"

/* Do runs @a and @b come from devices of different providers: do their
 * results name different kernel drivers (rdma_rxe, siw)?  A run that
 * names none is of no known provider: false. */
bool rc_report_providers_differ(const struct rc_report_run *a,
				const struct rc_report_run *b);

/*
 * The report's "Where the providers differ" section, for each pair of
 * adjacent columns whose providers differ (make conformance: rxe, then
 * siw).  The cases both ran, where a verdict differs, one line each,
 * judged as the gate does; the cases only one of them ran, counted by
 * the cause the other gave (siw is iWARP: no UD, no umad, ...), since
 * each column already lists them.  Nothing when no pair differs.  HTML
 * or Markdown.
 */
void rc_report_providers(struct rc_str *b, const struct rc_report_run *runs,
			 int n, const char **ids, size_t nids, bool html);

#endif
