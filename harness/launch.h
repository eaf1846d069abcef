/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Where `rdmaconf run` runs: against an rdma-core build tree (the command
 * starts again with its libraries first), inside the rxe VM (ci/rxe-vm),
 * or on the simulated InfiniBand fabric (ci/ibsim-run); and the commands
 * that are scripts (ci/fleet, ci/gate-rdma-core).  Each of these execs;
 * they return only an exit code on failure.
 */
#ifndef RDMACONF_LAUNCH_H
#define RDMACONF_LAUNCH_H

#include <stdbool.h>

#include "target.h"

int rc_exec_with_rdma_core(const char *dir, int argc, char **argv);

/* What the launcher is told, beyond the command. */
struct rc_launch {
	enum rc_target_id target; /* whose launcher (target.h) */
	bool two; /* ci/rxe-vm --two */
	bool siw; /* ci/rxe-vm --siw */
	const char *kernel; /* ci/rxe-vm --kernel */
	const char *dist; /* ci/rxe-vm --dist */
	const char *filter; /* added to the command as --filter */
};

/*
 * A command that is a script of ci/ (installed: libexec/rdmaconf): exec
 * helper @name (the variable @override overriding its path) with the
 * @argc words at @argv, and RDMACONF naming this very build.  rdmaconf
 * fleet is ci/fleet; rdmaconf gate --rdma-core and --builds are
 * ci/gate-rdma-core.
 */
int rc_exec_helper(const char *name, const char *override, int argc,
		   char **argv);

/* Run this very command under @l's target's launcher. */
int rc_exec_launcher(const struct rc_launch *l, int argc, char **argv);

#endif
