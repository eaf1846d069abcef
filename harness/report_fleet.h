/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#ifndef RDMACONF_REPORT_FLEET_H
#define RDMACONF_REPORT_FLEET_H

#include <stdbool.h>
#include <stddef.h>

#include "json.h"
#include "jsonread.h"

/*
 * The fleet report's own section (rdmaconf report --fleet DIR): every
 * node of DIR/fleet.json with its partner and how its step ended, the
 * nodes grouped by device fingerprint (driver, vendor part, firmware,
 * kernel, rdma-core), and in each group the nodes whose verdicts differ
 * from the group's majority, with the cases that differ.  @docs are the
 * nodes' results files that exist (NULL for a node without one), in the
 * order of fleet.json's "nodes".  Returns the number of outliers.
 */
unsigned int rc_report_fleet(struct rc_str *b, const struct rc_jv *fleet,
			     const struct rc_jv *const *docs,
			     const char **ids, size_t nids, bool html);

/*
 * rdmaconf report --fleet DIR: DIR/fleet.json into @fleet, and the paths
 * of the results files it names, in its order, into @paths (allocated,
 * NULL-terminated); their count, or -1 with a one-line cause on stderr.
 * A node whose step left no results has none.
 */
int rc_fleet_load(const char *dir, struct rc_jv **fleet, char ***paths);

#endif
