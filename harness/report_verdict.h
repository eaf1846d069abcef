/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The report's opening: the conformance verdict of each implementation on
 * each results file (a provider on a host), before any device table.  A
 * vendor's first line must say what the library does against its pages,
 * not that the gate is green: "268 ok" also holds when rdma-core breaks
 * its man pages in 32 cases that profiles record.
 */
#ifndef RDMACONF_REPORT_VERDICT_H
#define RDMACONF_REPORT_VERDICT_H

#include <stdbool.h>

#include "report_doc.h"
#include "json.h"
#include "vocab.h"

/* What one implementation did with one file's cases */
struct rc_conformance {
	unsigned int conforms; /* PASS */
	unsigned int breaks[RC_NBASES]; /* by the basis of the row */
	unsigned int fresh; /* breaks no profile entry records */
	unsigned int not_run; /* SKIP, UNSUPPORTED, ABSENT, BROKEN */
};

void rc_report_conformance(const struct rc_report_run *run,
			   enum rc_impl_id impl, struct rc_conformance *c);
/* The verdict section, HTML or Markdown */
void rc_report_verdict(struct rc_str *b, const struct rc_report_run *runs,
		       int n, bool html);

#endif
