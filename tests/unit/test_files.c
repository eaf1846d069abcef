// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The texts rdmaconf writes (results JSON) and reads (profiles). */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include "../../harness/device.h"
#include "../../harness/profile.h"
#include "../../harness/rdmaconf.h"
#include "../../harness/json.h"
#include "../../harness/results.h"

static char *slurp(const char *path)
{
	static char buf[8192];
	FILE *f = fopen(path, "r");
	size_t n;

	cr_assert(f, "open %s", path);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

Test(json, escapes_garbage)
{
	struct rc_str b = {};

	rc_str_json(&b, "a\"b\\c\n\x01\xff");
	cr_assert_str_eq(b.s, "\"a\\\"b\\\\c\\n\\u0001\\u00ff\"");
	rc_str_free(&b);
}

/* A results file at a fresh @path (a mkstemp template). */
static void open_results(char *path, struct rc_results *r)
{
	int fd = mkstemp(path);

	cr_assert(fd >= 0);
	close(fd);
	cr_assert_eq(rc_results_open(r, path, "\"tool\": {}"), 0);
}

Test(json, results_valid_after_every_case)
{
	char path[] = "/tmp/rdmaconf-unit-XXXXXX";
	struct rc_results r;

	open_results(path, &r);
	cr_assert_str_eq(slurp(path),
			 "{\"tool\": {},\n\"results\": [\n],\n"
			 "\"summary\": {},\n\"complete\": false}\n");
	cr_assert_eq(rc_results_add(&r, "{\"id\": 1}", "{\"n\": 1}"), 0);
	cr_assert_str_eq(slurp(path),
			 "{\"tool\": {},\n\"results\": [\n"
			 "{\"id\": 1}\n],\n\"summary\": {\"n\": 1},\n"
			 "\"complete\": false}\n");
	cr_assert_eq(rc_results_add(&r, "{\"id\": 2}", "{\"n\": 2}"), 0);
	cr_assert_eq(rc_results_close(&r, "{\"n\": 2}", true), 0);
	cr_assert_str_eq(
		slurp(path),
		"{\"tool\": {},\n\"results\": [\n"
		"{\"id\": 1},\n{\"id\": 2}\n],\n\"summary\": {\"n\": 2},\n"
		"\"complete\": true}\n");
	unlink(path);
}

/* A write that fails -- a full disk -- leaves the file as it was: every
 * case before it, valid, and no temporary file beside it. */
Test(json, a_failed_write_keeps_the_last_complete_state)
{
	char path[] = "/tmp/rdmaconf-unit-XXXXXX", big[4096], *before;
	struct rlimit small = { 400, 400 };
	struct rc_results r;

	open_results(path, &r);
	cr_assert_eq(rc_results_add(&r, "{\"id\": 1}", "{\"n\": 1}"), 0);
	before = strdup(slurp(path));
	/* files of this process end at 400 bytes: EFBIG, not SIGXFSZ */
	signal(SIGXFSZ, SIG_IGN);
	cr_assert_eq(setrlimit(RLIMIT_FSIZE, &small), 0);
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	cr_assert_eq(rc_results_add(&r, big, "{\"n\": 2}"), -EFBIG);
	cr_assert_eq(rc_results_saved(&r), 1);
	cr_assert_str_eq(slurp(path), before);
	/* and nothing else is left beside it */
	snprintf(big, sizeof(big), "ls -A %s.* 2> /dev/null | grep -q .", path);
	cr_assert_neq(system(big), 0, "a temporary file is left beside %s",
		      path);
	free(before);
	unlink(path);
}

Test(json, interrupted_results_say_so)
{
	char path[] = "/tmp/rdmaconf-unit-XXXXXX";
	struct rc_results r;

	open_results(path, &r);
	cr_assert_eq(rc_results_add(&r, "{\"id\": 1}", "{\"n\": 1}"), 0);
	cr_assert_eq(rc_results_close(&r, "{\"n\": 1}", false), 0);
	cr_assert_str_eq(slurp(path),
			 "{\"tool\": {},\n\"results\": [\n"
			 "{\"id\": 1}\n],\n\"summary\": {\"n\": 1},\n"
			 "\"complete\": false}\n");
	unlink(path);
}

static int load_text(const char *text, struct rc_profile *p, char *err)
{
	char path[] = "/tmp/rdmaconf-expect-XXXXXX";
	int fd = mkstemp(path), ret;

	cr_assert(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
	close(fd);
	rc_profile_free(p); /* what the previous load of the test left */
	ret = rc_profile_load(p, path, err, 512);
	unlink(path);
	return ret;
}

Test(profile, parses_entries)
{
	struct rc_profile p = {};
	char err[512];
	struct rc_profile_entry *e;

	cr_assert_eq(load_text("# c\n\numad/a/b XFAIL why it fails\n"
			       "umad/a/c   DIVERGE  both fine\n",
			       &p, err),
		     0, "%s", err);
	cr_assert_eq(p.n, 2);
	e = rc_profile_find(&p, "umad/a/c");
	cr_assert(e && e->kind == RC_ENTRY_DIVERGE);
	cr_assert_str_eq(e->reason, "both fine");
	cr_assert(strstr(e->where, ":4"), "%s", e->where);
	rc_profile_free(&p);
}

Test(profile, rejects_bad_lines)
{
	struct rc_profile p = {};
	char err[512];

	cr_assert_eq(load_text("umad/a/b XFAIL\n", &p, err), -1);
	cr_assert(strstr(err, ":1: expected"), "%s", err);
	cr_assert_eq(load_text("umad/a/b MAYBE reason\n", &p, err), -1);
	cr_assert(strstr(err, "unknown kind 'MAYBE'"), "%s", err);
	cr_assert_eq(load_text("x XFAIL r\nx SKIP r\n", &p, err), -1);
	cr_assert(strstr(err, "second entry"), "%s", err);
	rc_profile_free(&p);
}

Test(profile, scope_directive)
{
	struct rc_profile p = {};
	char err[512];

	cr_assert_eq(load_text("a XFAIL lib\n%scope both\nb XFAIL kernel\n"
			       "%scope system\nc XFAIL lib\n%scope reference\n"
			       "d XFAIL sim\n",
			       &p, err),
		     0, "%s", err);
#define APPLIES(id, s, r)                                                      \
	cr_assert(                                                             \
		rc_profile_find(&p, id)->applies[RC_IMPL_SYSTEM] == (s) &&     \
			rc_profile_find(&p, id)->applies[RC_IMPL_REFERENCE] == \
				(r),                                           \
		id)
	APPLIES("a", true, false);
	APPLIES("b", true, true);
	APPLIES("c", true, false);
	APPLIES("d", false, true);
#undef APPLIES
	cr_assert_eq(load_text("%scope everyone\n", &p, err), -1);
	cr_assert(strstr(err, ":1: expected '%scope system|both|reference'"),
		  "%s", err);
	cr_assert_eq(load_text("%scope both extra\n", &p, err), -1);
	rc_profile_free(&p);
}

Test(profile, when_directive_keys_entries_by_version)
{
	struct rc_profile p = {};
	char err[512];
	static const char text[] = "a XFAIL always\n"
				   "%when kernel >= 6.11\nb XFAIL new kernels\n"
				   "%when kernel < 6.11\nb XFAIL old kernels\n"
				   "%when rdma-core < 50\nc XFAIL old library\n"
				   "%when always\nd XFAIL always again\n";

	rc_profile_set_host(&p, "6.12.118+deb13-amd64", "56.1", RC_TARGET_VM);
	cr_assert_eq(load_text(text, &p, err), 0, "%s", err);
	cr_assert_str_eq(rc_profile_find(&p, "b")->reason, "new kernels");
	cr_assert_null(rc_profile_find(&p, "c"));
	cr_assert(rc_profile_find(&p, "a") && rc_profile_find(&p, "d"));
	rc_profile_set_host(&p, "6.1.0-57-amd64", "44.0", RC_TARGET_VM);
	cr_assert_eq(load_text(text, &p, err), 0, "%s", err);
	cr_assert_str_eq(rc_profile_find(&p, "b")->reason, "old kernels");
	cr_assert_not_null(rc_profile_find(&p, "c"));
	/* an rdma-core build tree: its version is unknown, nothing holds */
	rc_profile_set_host(&p, "6.1.0", NULL, RC_TARGET_VM);
	cr_assert_eq(load_text(text, &p, err), 0, "%s", err);
	cr_assert_null(rc_profile_find(&p, "c"));
	cr_assert_eq(load_text("%when kernel ~ 6\n", &p, err), -1);
	cr_assert(strstr(err, ":1: expected '%when"), "%s", err);
	cr_assert_eq(load_text("%when libc >= 2\n", &p, err), -1);
	cr_assert_eq(load_text("%when kernel >= six\n", &p, err), -1);
	/* 5x is no version (it read as 5) */
	cr_assert_eq(load_text("%when rdma-core < 5x\n", &p, err), -1);
	cr_assert_eq(load_text("%when kernel < 6.\n", &p, err), -1);
	cr_assert_eq(load_text("%when kernel < 6..1\n", &p, err), -1);
	cr_assert_eq(load_text("%when kernel < 6.11\nx BOGUS r\n", &p, err), -1,
		     "an entry that does not apply is still checked");
	cr_assert_lt(rc_version_cmp("6.1.0", "6.12"), 0);
	cr_assert_eq(rc_version_cmp("6.12.118+deb13", "6.12"), 0);
	cr_assert_gt(rc_version_cmp("56.1", "44.0"), 0);
	rc_profile_free(&p);
}

Test(profile, when_directive_keys_entries_by_umad_debug_level)
{
	struct rc_profile p = {};
	char err[512];
	static const char text[] = "%when umad-debug >= 1\nr XFAIL:crash on\n"
				   "%when umad-debug == 0\nr XFAIL off\n";

	/* never set: the output is off */
	cr_assert_eq(load_text(text, &p, err), 0, "%s", err);
	cr_assert_str_eq(rc_profile_find(&p, "r")->reason, "off");
	rc_profile_set_umad_debug(&p, 2);
	cr_assert_eq(load_text(text, &p, err), 0, "%s", err);
	cr_assert_str_eq(rc_profile_find(&p, "r")->reason, "on");
	rc_profile_set_umad_debug(&p, 0);
	cr_assert_eq(load_text(text, &p, err), 0, "%s", err);
	cr_assert_str_eq(rc_profile_find(&p, "r")->reason, "off");
	cr_assert_eq(load_text("%when umad-debug >= on\n", &p, err), -1);
	rc_profile_free(&p);
}

Test(profile, device_profile_overrides_library_profile)
{
	struct rc_profile p = {};
	char err[512];
	struct rc_profile_entry *e;

	cr_assert_eq(load_text("a DIVERGE library\n", &p, err), 0, "%s", err);
	/* load_text starts afresh; load a second file on top by hand */
	{
		char path[] = "/tmp/rdmaconf-expect-XXXXXX";
		int fd = mkstemp(path);
		const char *t = "a SKIP the device cannot\n";

		cr_assert(write(fd, t, strlen(t)) == (ssize_t)strlen(t));
		close(fd);
		cr_assert_eq(rc_profile_load(&p, path, err, sizeof(err)), 0,
			     "%s", err);
		unlink(path);
	}
	cr_assert_eq(p.n, 1);
	e = rc_profile_find(&p, "a");
	cr_assert(e && e->kind == RC_ENTRY_SKIP);
	cr_assert_str_eq(e->reason, "the device cannot");
	rc_profile_free(&p);
}

/* A case's library deviation (the system's entry) and its kernel's, which
 * only the reference shows: an entry each, from one file or a later one */
Test(profile, an_entry_per_implementation)
{
	struct rc_profile p = {};
	char err[512];
	char path[] = "/tmp/rdmaconf-expect-XXXXXX";
	const char *t = "%scope reference\na XFAIL:output=f the kernel\n"
			"%scope both\nb XFAIL the device\n";
	int fd;

	cr_assert_eq(load_text("a XFAIL:absent the library\n"
			       "%scope reference\na XFAIL:output=g kernel\n"
			       "b XFAIL:absent the library\n",
			       &p, err),
		     0, "%s", err);
	cr_assert_str_eq(rc_profile_find_for(&p, "a", RC_IMPL_SYSTEM)->reason,
			 "the library");
	cr_assert_str_eq(
		rc_profile_find_for(&p, "a", RC_IMPL_REFERENCE)->reason,
		"kernel");
	cr_assert_eq(load_text("a XFAIL one\n%scope both\na XFAIL two\n", &p,
			       err),
		     -1);
	cr_assert(strstr(err, "second entry for a (of the system"), "%s", err);
	/* a later file takes over what its entries apply to, no more */
	cr_assert_eq(load_text("a XFAIL:absent the library\n"
			       "b XFAIL:absent the library\n",
			       &p, err),
		     0, "%s", err);
	fd = mkstemp(path);
	cr_assert(write(fd, t, strlen(t)) == (ssize_t)strlen(t));
	close(fd);
	cr_assert_eq(rc_profile_load(&p, path, err, sizeof(err)), 0, "%s", err);
	unlink(path);
	cr_assert_eq(p.n, 3);
	cr_assert_str_eq(rc_profile_find_for(&p, "a", RC_IMPL_SYSTEM)->reason,
			 "the library");
	cr_assert_str_eq(
		rc_profile_find_for(&p, "a", RC_IMPL_REFERENCE)->reason,
		"the kernel");
	cr_assert_str_eq(rc_profile_find_for(&p, "b", RC_IMPL_SYSTEM)->reason,
			 "the device");
	rc_profile_free(&p);
}

Test(profile, crash_kind)
{
	struct rc_profile p = {};
	char err[512];

	cr_assert_eq(load_text("a XFAIL:crash segfaults on NULL\n", &p, err), 0,
		     "%s", err);
	cr_assert_eq(rc_profile_find(&p, "a")->fail_kind, RC_FAIL_CRASH);
	cr_assert_eq(load_text("b XFAIL:hang waits for an ack\n", &p, err), 0,
		     "%s", err);
	cr_assert_eq(rc_profile_find(&p, "b")->fail_kind, RC_FAIL_HANG);
	cr_assert_eq(load_text("a XFAIL:boom r\n", &p, err), -1);
	cr_assert(strstr(err, "crash, hang, absent, broken)"), "%s", err);
	rc_profile_free(&p);
}

Test(device, guid_of_node_guid_and_of_gid)
{
	uint64_t g;

	cr_assert_eq(rc_guid_parse("0010:0000:0000:0004", &g), 0);
	cr_assert_eq(g, 0x0010000000000004ull);
	cr_assert_eq(rc_guid_parse("fe80:0000:0000:0000:0002:c903:00ab:cdef",
				   &g),
		     0);
	cr_assert_eq(g, 0x0002c90300abcdefull, "the interface id");
	cr_assert_eq(rc_guid_parse("0010:0000:0000", &g), -EINVAL);
	cr_assert_eq(rc_guid_parse("", &g), -EINVAL);
}

/* %target: the entries below it hold on the targets it names only */
Test(profile, target_directive_keys_entries_by_target)
{
	struct rc_profile p = {};
	char err[512];
	static const char text[] = "%target vm host\na XFAIL the kernel's\n"
				   "%target ibsim\na XFAIL the simulator's\n"
				   "%target all\nb XFAIL everywhere\n";

	rc_profile_set_host(&p, "6.1", "44.0", RC_TARGET_IBSIM);
	cr_assert_eq(load_text(text, &p, err), 0, "%s", err);
	cr_assert_str_eq(rc_profile_find(&p, "a")->reason, "the simulator's");
	cr_assert_not_null(rc_profile_find(&p, "b"));
	rc_profile_set_host(&p, "6.1", "44.0", RC_TARGET_HOST);
	cr_assert_eq(load_text(text, &p, err), 0, "%s", err);
	cr_assert_str_eq(rc_profile_find(&p, "a")->reason, "the kernel's");
	cr_assert_eq(load_text("%target moon\n", &p, err), -1);
	cr_assert(strstr(err, ":1: %target names no target 'moon'"), "%s", err);
	cr_assert_eq(load_text("%frobnicate\n", &p, err), -1);
	cr_assert(strstr(err, "unknown directive"), "%s", err);
	rc_profile_free(&p);
}

/* A misspelt kind is named as such; a directory is no profile. */
Test(profile, misspelt_kinds_and_directories)
{
	struct rc_profile p = {};
	char err[512];

	cr_assert_eq(load_text("a XFAILED r\n", &p, err), -1);
	cr_assert(strstr(err, "unknown kind 'XFAILED' (XFAIL, DIVERGE, SKIP)"),
		  "%s", err);
	cr_assert_eq(load_text("a DIVERGE:errno r\n", &p, err), -1);
	cr_assert(strstr(err, "only XFAIL takes a qualifier"), "%s", err);
	cr_assert_eq(rc_profile_load(&p, "/tmp", err, sizeof(err)), -1);
	cr_assert(strstr(err, "is not a file"), "%s", err);
	rc_profile_free(&p);
}
