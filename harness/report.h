/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#ifndef RDMACONF_REPORT_H
#define RDMACONF_REPORT_H

/* rdmaconf report RESULTS.json [MORE.json ...] -o DIR */
int rc_cmd_report(int argc, char **argv);
/* rdmaconf gate --baseline BASELINE.json RESULTS.json */
int rc_cmd_gate(int argc, char **argv);

#endif
