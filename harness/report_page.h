/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The parts of the report: the page's tables (report_page.c), its timing
 * figures (report_time.c) and the Markdown summary (report_md.c). */
#ifndef RDMACONF_REPORT_PAGE_H
#define RDMACONF_REPORT_PAGE_H

#include <stddef.h>

#include "json.h"
#include "report_doc.h"

/* the pages' style sheet (no asset: every page is one file) */
extern const char rc_report_css[];
/* how many of the slowest rows the time figure draws */
#define RC_REPORT_SLOWEST 15

void rc_report_fingerprint(struct rc_str *b, const struct rc_report_run *r);
void rc_report_matrix(struct rc_str *b, const struct rc_report_run *runs, int n,
		      const char **ids, size_t nids);
void rc_report_details(struct rc_str *b, const struct rc_report_run *runs,
		       int n, const char **ids, size_t nids);
void rc_report_time_breakdown(struct rc_str *b, const struct rc_report_run *r,
			      int idx);
void rc_report_plot(struct rc_str *b, const struct rc_report_run *r, int idx);
void rc_report_markdown(struct rc_str *b, const struct rc_report_run *runs,
			int n, const char **ids, size_t nids);

#endif
