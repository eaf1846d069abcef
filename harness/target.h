/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Where a run's rows run: the targets, one table.  Each names its
 * launcher (a script of ci/ that sets the target up and runs the command
 * inside it), the variable that overrides the launcher's path, the cases
 * it runs unless --filter says otherwise, and what it provides.  What a
 * row needs is probed on the target itself (need.h), never assumed from
 * its name; a profile entry may say on which targets it holds (%target).
 */
#ifndef RDMACONF_TARGET_H
#define RDMACONF_TARGET_H

#include <stdio.h>

/* X(ID, name, launcher, override, default filter, what it provides) */
#define RC_TARGETS(X)                                                         \
	X(HOST, "host", NULL, NULL, NULL,                                     \
	  "this host's own RDMA device, as sysfs shows it")                   \
	X(VM, "vm", "rxe-vm", "RDMACONF_RXE_VM", NULL,                        \
	  "Debian's kernel in qemu (ci/rxe-vm): rxe on RoCE, root, the "      \
	  "port's umad device; with --two a second device that reaches it")   \
	X(IBSIM, "ibsim", "ibsim-run", "RDMACONF_IBSIM_RUN", "umad/*",        \
	  "a simulated InfiniBand fabric (ci/ibsim-run): an InfiniBand link " \
	  "layer, the port's umad device, a remote node; MADs only")

#define RC_TARGET_ENUM(e, ...) RC_TARGET_##e,
enum rc_target_id { RC_TARGETS(RC_TARGET_ENUM) RC_NTARGETS };
#undef RC_TARGET_ENUM

/* -1: no such target */
int rc_target_parse(const char *name);
const char *rc_target_name(enum rc_target_id t);
/* the launcher's script name in ci/, NULL for none; its override */
const char *rc_target_launcher(enum rc_target_id t);
const char *rc_target_override(enum rc_target_id t);
/* the cases it runs when --filter does not say */
const char *rc_target_filter(enum rc_target_id t);
/* "host, vm, ibsim" */
const char *rc_target_choices(void);
/* the names, one a line */
void rc_target_words(FILE *f);
/*
 * The target this process runs on: what its launcher said
 * (RDMACONF_TARGET_NAME, which ci/rxe-vm and ci/ibsim-run set for the
 * command inside), else the host.
 */
enum rc_target_id rc_target_current(void);
struct rc_str;
void rc_target_vocab_json(struct rc_str *b);

#endif
