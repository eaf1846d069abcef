/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Where `rdmaconf run` runs: against an rdma-core build tree (the command
 * starts again with its libraries first), inside the rxe VM (ci/rxe-vm),
 * or on the simulated InfiniBand fabric (ci/ibsim-run).  Each of these
 * execs; they return only an exit code on failure.
 */
#ifndef RDMACONF_LAUNCH_H
#define RDMACONF_LAUNCH_H

#include <stdbool.h>

int rc_exec_with_rdma_core(const char *dir, int argc, char **argv);
/* @env names the variable that overrides the launcher's path @script;
 * @filter, when not NULL, is added as --filter */
int rc_exec_launcher(const char *env, const char *script, bool two,
		     const char *filter, int argc, char **argv);

#endif
