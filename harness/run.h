/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#ifndef RDMACONF_RUN_H
#define RDMACONF_RUN_H

#include "cli.h"

#define for_each_group(gp) \
	for (gp = __start_rc_groups; gp < __stop_rc_groups; gp++)
/* every row of every group, RC_ROW(*gp, r), in table order */
#define for_each_row(gp, r) \
	for_each_group (gp) \
		for (r = 0; r < (*gp)->nrows; r++)

/* How many rows @filter selects (NULL: all). */
unsigned int rc_count_selected(const struct rc_opts *o);
/* rdmaconf run, on this host (the launchers, launch.h, come first) */
int rc_cmd_run(const struct rc_opts *o);
/* rdmaconf __case ID IMPL FD: one row in a process of its own */
int rc_cmd_case(int argc, char **argv);

#endif
