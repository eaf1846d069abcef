// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "launch.h"
#include "paths.h"
#include "run.h"

/*
 * --rdma-core DIR: run against an rdma-core build tree (built in place, as
 * its build.sh does: DIR/lib holds the libraries, and they find their
 * providers there).  The dynamic linker has already loaded libibverbs, so
 * this command starts again with DIR/lib first on the library path; the
 * VM inherits that environment.
 */
int rc_exec_with_rdma_core(const char *dir, int argc, char **argv)
{
	char lib[4096], path[8192], self[4096];
	const char *old = getenv("LD_LIBRARY_PATH");
	char **args = calloc(argc + 1, sizeof(*args));
	ssize_t n;
	int i, k = 0;

	snprintf(lib, sizeof(lib), "%s/lib/libibverbs.so.1", dir);
	if (access(lib, R_OK)) {
		fprintf(stderr,
			"rdmaconf: %s is not an rdma-core build tree "
			"(no lib/libibverbs.so.1)\n",
			dir);
		return RC_EXIT_ENV;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n < 0 || !args || !realpath(dir, lib)) {
		fprintf(stderr, "rdmaconf: cannot restart with %s\n", dir);
		return RC_EXIT_ENV;
	}
	self[n] = 0;
	snprintf(path, sizeof(path), "%s/lib%s%s", lib, old ? ":" : "",
		 old ? old : "");
	setenv("LD_LIBRARY_PATH", path, 1);
	setenv("RDMACONF_RDMA_CORE_ACTIVE", lib, 1);
	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--rdma-core")) {
			i++;
			continue;
		}
		if (!strncmp(argv[i], "--rdma-core=", 12))
			continue;
		args[k++] = argv[i];
	}
	execv(self, args);
	fprintf(stderr, "rdmaconf: cannot restart: %m\n");
	return RC_EXIT_ENV;
}

int rc_exec_helper(const char *name, const char *override, int argc,
		   char **argv)
{
	const char *helper = getenv(override);
	char self[4096];
	char **args = calloc(argc + 2, sizeof(*args));
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	int i;

	if (n < 0 || !args) {
		fprintf(stderr, "rdmaconf: cannot find own executable\n");
		return RC_EXIT_ENV;
	}
	self[n] = 0;
	if (!helper)
		helper = rc_path_helper(name);
	/* the helper (and a fleet's nodes) run this very build */
	setenv("RDMACONF", self, 1);
	args[0] = (char *)helper;
	for (i = 0; i < argc; i++)
		args[i + 1] = argv[i];
	execv(helper, args);
	fprintf(stderr, "rdmaconf: cannot start %s: %m\n", helper);
	return RC_EXIT_ENV;
}

/*
 * Run this very command under a test-host launcher: inside the rxe VM
 * (ci/rxe-vm [--two]) or on the simulated InfiniBand fabric
 * (ci/ibsim-run), which set what the command finds there.
 */
/*
 * What the command will write, resolved here on the host: @value's
 * directory (@dir, which goes to the VM as a writable share, rxe-vm --rw,
 * so that the file lands here and not in the guest's throw-away root) and
 * its absolute path (@abs, which the command is given instead).  0, or an
 * exit code with one line.
 */
static int host_output(const char *value, char **dir, char **abs)
{
	char real[4096], *copy = strdup(value), *slash;
	const char *base;
	int ret = RC_EXIT_ENV;

	if (!copy)
		return ret;
	slash = strrchr(copy, '/');
	base = slash ? slash + 1 : copy;
	if (slash)
		*slash = 0;
	if (!*base || !realpath(slash ? (*copy ? copy : "/") : ".", real)) {
		fprintf(stderr, "rdmaconf: cannot write %s: %s\n", value,
			*base ? strerror(errno) : "it names a directory");
	} else if ((*dir = strdup(real)) &&
		   asprintf(abs, "%s%s%s", real, strcmp(real, "/") ? "/" : "",
			    base) >= 0) {
		ret = 0;
	}
	free(copy);
	return ret;
}

int rc_exec_launcher(const struct rc_launch *l, int argc, char **argv)
{
	const char *launcher = getenv(rc_target_override(l->target));
	char self[4096], build[4096];
	char **args = calloc(3 * argc + 16, sizeof(*args));
	char **inner = calloc(argc + 10, sizeof(*inner));
	ssize_t len;
	int i, k = 0, n, skip;

	if (!launcher)
		launcher = rc_path_helper(rc_target_launcher(l->target));
	len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (len < 0 || !args || !inner) {
		fprintf(stderr, "rdmaconf: cannot find own executable\n");
		return RC_EXIT_ENV;
	}
	self[len] = 0;
	/* ci/ibsim-run takes rdmaconf-peer from beside this program */
	snprintf(build, sizeof(build), "%s", self);
	*strrchr(build, '/') = 0;
	setenv("RDMACONF_BUILD", build, 0);
	args[k++] = (char *)launcher;
	if (l->two)
		args[k++] = (char *)"--two";
	if (l->siw)
		args[k++] = (char *)"--siw";
	if (l->kernel) {
		args[k++] = (char *)"--kernel";
		args[k++] = (char *)l->kernel;
	}
	if (l->dist) {
		/* the guest's root is the suite's, where this program is not:
		 * its tree goes in as a share (the working directory and /tmp
		 * are shared anyway) */
		const char *tree = rc_path_source_tree();

		if (!tree) {
			fprintf(stderr,
				"rdmaconf: --dist boots %s's own root, "
				"which has no rdmaconf: run it from a build "
				"tree of rdmaconf\n",
				l->dist);
			return RC_EXIT_ENV;
		}
		args[k++] = (char *)"--dist";
		args[k++] = (char *)l->dist;
		args[k++] = (char *)"--rw";
		args[k++] = (char *)tree;
	}
	/* the command's own words; its outputs resolved on the host when
	 * the command runs in a guest */
	n = 0;
	inner[n++] = self;
	for (i = 1; i < argc; i += skip) {
		int at = rc_cli_writes(&argv[i]), ret;
		char *dir, *abs, *eq = strchr(argv[i], '=');

		skip = rc_cli_launcher_words(&argv[i]);
		if (skip)
			continue;
		skip = 1;
		if (at < 0 || l->target != RC_TARGET_VM) {
			inner[n++] = argv[i];
			continue;
		}
		ret = host_output(at ? argv[i + 1] : eq + 1, &dir, &abs);
		if (ret)
			return ret;
		args[k++] = (char *)"--rw";
		args[k++] = dir;
		if (at) {
			inner[n++] = argv[i];
			inner[n++] = abs;
			skip = 2;
		} else if (asprintf(&inner[n++], "%.*s%s",
				    (int)(eq - argv[i] + 1), argv[i],
				    abs) < 0) {
			return RC_EXIT_ENV;
		}
	}
	if (l->filter) {
		inner[n++] = (char *)"--filter";
		inner[n++] = (char *)l->filter;
	}
	args[k++] = (char *)"--";
	for (i = 0; i < n; i++)
		args[k++] = inner[i];
	execv(launcher, args);
	fprintf(stderr,
		"rdmaconf: cannot start the test-host launcher %s: "
		"%m\n",
		launcher);
	return RC_EXIT_ENV;
}
