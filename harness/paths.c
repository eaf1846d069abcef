// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#define _GNU_SOURCE
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "paths.h"

enum layout { LAYOUT_NONE, LAYOUT_SOURCE, LAYOUT_INSTALLED };

/* Does @base/@sub exist?  (False when the path does not fit.) */
static bool exists(const char *base, const char *sub)
{
	char path[PATH_MAX];

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", base, sub) >=
	    sizeof(path))
		return false;
	return !access(path, F_OK);
}

/*
 * The root the program runs from: the source tree above its build
 * directory (build/, build/dev/), or the prefix above its bin/.
 */
static enum layout find_root(char *root, size_t len)
{
	char exe[PATH_MAX], *slash;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	int up;

	if (n < 0)
		return LAYOUT_NONE;
	exe[n] = 0;
	for (up = 0; up < 4; up++) {
		slash = strrchr(exe, '/');
		if (!slash || slash == exe)
			return LAYOUT_NONE;
		*slash = 0;
		if (exists(exe, "cases/expect") && exists(exe, "ci/rxe-vm")) {
			snprintf(root, len, "%s", exe);
			return LAYOUT_SOURCE;
		}
		if (exists(exe, "share/rdmaconf/expect")) {
			snprintf(root, len, "%s", exe);
			return LAYOUT_INSTALLED;
		}
	}
	return LAYOUT_NONE;
}

static enum layout root_of(const char **root)
{
	static char buf[PATH_MAX];
	static enum layout layout = LAYOUT_NONE;
	static bool done;

	if (!done) {
		layout = find_root(buf, sizeof(buf));
		if (layout == LAYOUT_NONE)
			snprintf(buf, sizeof(buf), "%s", rc_prefix);
		done = true;
	}
	*root = buf;
	return layout;
}

const char *rc_path_expect_dir(void)
{
	static char path[PATH_MAX];
	const char *root;

	if (getenv("RDMACONF_EXPECT_DIR"))
		return getenv("RDMACONF_EXPECT_DIR");
	if (getenv("RDMACONF_DATADIR")) {
		snprintf(path, sizeof(path), "%s/expect",
			 getenv("RDMACONF_DATADIR"));
		return path;
	}
	if (root_of(&root) == LAYOUT_SOURCE)
		snprintf(path, sizeof(path), "%s/cases/expect", root);
	else
		snprintf(path, sizeof(path), "%s/share/rdmaconf/expect", root);
	return path;
}

const char *rc_path_helper(const char *name)
{
	static char path[PATH_MAX];
	const char *root;

	if (getenv("RDMACONF_LIBEXECDIR"))
		snprintf(path, sizeof(path), "%s/%s",
			 getenv("RDMACONF_LIBEXECDIR"), name);
	else if (root_of(&root) == LAYOUT_SOURCE)
		snprintf(path, sizeof(path), "%s/ci/%s", root, name);
	else
		snprintf(path, sizeof(path), "%s/libexec/rdmaconf/%s", root,
			 name);
	return path;
}

const char *rc_path_source_tree(void)
{
	const char *root;

	return root_of(&root) == LAYOUT_SOURCE ? root : NULL;
}
