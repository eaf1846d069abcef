/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Where rdmaconf's own files are: the expectation profiles and baselines
 * (data), and the launchers it execs (helpers).  Found from the program's
 * own location -- a build tree inside the source tree, or an installation
 * (<prefix>/bin beside <prefix>/share/rdmaconf and <prefix>/libexec/rdmaconf)
 * -- and never compiled in, so that a build or a package runs anywhere.
 * RDMACONF_DATADIR and RDMACONF_LIBEXECDIR override.
 */
#ifndef RDMACONF_PATHS_H
#define RDMACONF_PATHS_H

/* The directory of the expectation profiles (RDMACONF_EXPECT_DIR first). */
const char *rc_path_expect_dir(void);
/* The launcher or helper @name ("rxe-vm", "ibsim-run"); never NULL. */
const char *rc_path_helper(const char *name);
/* The source tree the program runs from (its build directory's parent),
 * or NULL when it is installed. */
const char *rc_path_source_tree(void);
/* The version and the git revision the program was built from; the
 * prefix make install was given (where to look when nothing else says). */
extern const char rc_version[], rc_revision[], rc_prefix[];

#endif
