/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The command line, once.  The commands and every option of each are one
 * table here: getopt's options, `rdmaconf --help`, the launchers' share
 * of a command line (launch.c), and `rdmaconf __vocab` / `__complete`
 * (the bash completion, the man page's test) all come from it.  The
 * parsers neither exit nor print, so that they can be fuzzed
 * (tests/fuzz/fuzz_cli.c).
 */
#ifndef RDMACONF_CLI_H
#define RDMACONF_CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "rdmaconf.h"

/* X(ID, name, positional arguments, what it does) */
#define RC_COMMANDS(X)                                                       \
	X(LIST, "list", "",                                                  \
	  "print the ids of the selected cases, or with "                    \
	  "--json the rows as data")                                         \
	X(RUN, "run", "",                                                    \
	  "run every selected case on both implementations, "                \
	  "each in an isolated child; KTAP on stdout")                       \
	X(FLEET, "fleet", "",                                                \
	  "run the suite on every node of a Slurm "                          \
	  "allocation (ci/fleet), one report")                               \
	X(REPORT, "report", "RESULTS.json [MORE.json ...]",                  \
	  "one HTML page and a Markdown summary, a column per results file") \
	X(GATE, "gate", "[RESULTS.json|DIR | BASE_BUILD HEAD_BUILD]",        \
	  "compare with a baseline; or build two revisions of an rdma-core " \
	  "checkout, or take two builds, and run the suite on both in one "  \
	  "boot of the rxe VM (ci/gate-rdma-core): exit 1 when a case got "  \
	  "worse")

#define RC_CMD_ENUM(e, ...) RC_CMD_##e,
enum rc_cmd { RC_COMMANDS(RC_CMD_ENUM) RC_NCMDS };
#undef RC_CMD_ENUM

#define ON(c) (1u << RC_CMD_##c)
#define RUNS (ON(RUN) | ON(FLEET)) /* fleet passes run options on */

/*
 * X(ID, long name, short letter (0: none), value (NULL: a flag),
 *   commands, completion of the value, role, help)
 * completion: words, or "@file", "@dir", "@cases", "@devices", "@targets",
 * "@impls" (rdmaconf __complete prints what they stand for).
 * role: PLAIN, the command's own; LAUNCHER, the test-host launcher takes
 * it (ci/rxe-vm, ci/ibsim-run) and the command it runs inside goes
 * without it; WRITES, a file the command writes, resolved on the host
 * before a launcher starts (launch.c), so that it lands there.
 */
enum rc_opt_role { RC_ROLE_PLAIN, RC_ROLE_LAUNCHER, RC_ROLE_WRITES };
#define PLAIN RC_ROLE_PLAIN
#define LAUNCHER RC_ROLE_LAUNCHER
#define WRITES RC_ROLE_WRITES
#define RC_OPTIONS(X)                                                          \
	X(FILTER, "filter", 'f', "GLOB[,GLOB...]", ON(LIST) | RUNS | ON(GATE), \
	  "@cases", PLAIN,                                                     \
	  "the cases whose ids match one of the globs (fnmatch(3))")           \
	X(SAMPLE, "sample", 0, "N", ON(LIST) | RUNS, NULL, PLAIN,              \
	  "of each table of rows, at most N: its 1st, 3rd, 5th ... "           \
	  "(make check's quick tier)")                                         \
	X(JSON, "json", 0, "FILE", ON(LIST) | ON(RUN), "@file", WRITES,        \
	  "write the results (list: the rows; '-' is stdout)")                 \
	X(JUNIT, "junit", 0, "FILE", ON(RUN), "@file", WRITES,                 \
	  "write JUnit XML")                                                   \
	X(IMPL, "impl", 0, "system|reference|both", RUNS, "@impls", PLAIN,     \
	  "which implementations run the rows (default both)")                 \
	X(DEVICE, "device", 0, "NAME", ON(RUN), "@devices", PLAIN,             \
	  "the RDMA device to test (default: the first with an ACTIVE port)")  \
	X(VM, "vm", 0, NULL, ON(RUN), NULL, LAUNCHER,                          \
	  "run inside the rxe VM (ci/rxe-vm): --target vm")                    \
	X(TWO, "two", 0, NULL, ON(RUN), NULL, LAUNCHER,                        \
	  "with --vm: two rxe devices that reach each other")                  \
	X(SIW, "siw", 0, NULL, ON(RUN), NULL, LAUNCHER,                        \
	  "with --vm: siw (soft-iWARP) devices beside rxe (ci/siw-module)")    \
	X(KERNEL, "kernel", 0, "SPEC", RUNS, "bookworm trixie 6.1 6.12 @file", \
	  LAUNCHER,                                                            \
	  "with --vm: boot this kernel (a suite, a version, a "                \
	  "package, a .deb or a build tree)")                                  \
	X(DIST, "dist", 0, "SUITE", RUNS, "bookworm trixie", LAUNCHER,         \
	  "with --vm: boot a Debian root of this suite")                       \
	X(TARGET, "target", 0, "TARGET", RUNS, "@targets", LAUNCHER,           \
	  "where the rows run (rdmaconf __vocab: targets)")                    \
	X(RDMA_CORE, "rdma-core", 0, "DIR", ON(RUN) | ON(GATE), "@dir", PLAIN, \
	  "run: test this rdma-core build tree (built in place) instead of "   \
	  "the installed one; gate: build and compare two revisions of "       \
	  "this rdma-core git checkout")                                       \
	X(EXPECT, "expect", 0, "FILE", RUNS, "@file", PLAIN,                   \
	  "load this expectation profile only ('none': no profile)")           \
	X(WATCHDOG_MS, "watchdog-ms", 0, "MS", RUNS, NULL, PLAIN,              \
	  "a row with no result after MS (scaled by slowness) is a HANG")      \
	X(JOBS, "jobs", 0, "N", RUNS, NULL, PLAIN,                             \
	  "rows in flight at once (default: four per CPU)")                    \
	X(NODE_ENV, "node-env", 0, "NODE:VAR=VALUE", ON(FLEET), NULL, PLAIN,   \
	  "set VAR in the environment of node NODE only")                      \
	X(OUTPUT, "output", 'o', "DIR", ON(FLEET) | ON(REPORT) | ON(GATE),     \
	  "@dir", PLAIN, "the directory to write into")                        \
	X(FLEET_DIR, "fleet", 0, "DIR", ON(REPORT), "@dir", PLAIN,             \
	  "a fleet's directory: its fleet.json and node files")                \
	X(BASELINE, "baseline", 'b', "FILE|DIR", ON(GATE), "@file", PLAIN,     \
	  "the results (or fleet directory) to compare with")                  \
	X(BASE, "base", 0, "REV", ON(GATE), NULL, PLAIN,                       \
	  "with --rdma-core: "                                                 \
	  "the revision to compare with (default: the merge base of --head "   \
	  "and the branch's upstream)")                                        \
	X(HEAD, "head", 0, "REV", ON(GATE), NULL, PLAIN,                       \
	  "with --rdma-core: "                                                 \
	  "the revision under test (default HEAD)")                            \
	X(BUILDS, "builds", 0, NULL, ON(GATE), NULL, PLAIN,                    \
	  "compare two "                                                       \
	  "rdma-core build trees, BASE_BUILD and HEAD_BUILD (built in place)") \
	X(HELP, "help", 'h', NULL, ON(LIST) | RUNS | ON(REPORT) | ON(GATE),    \
	  NULL, PLAIN, "this help")

#define RC_OPT_ENUM(e, ...) RC_OPT_##e,
enum rc_opt { RC_OPTIONS(RC_OPT_ENUM) RC_NOPTS };
#undef RC_OPT_ENUM

struct rc_opts {
	const char *filter;
	const char *json;
	const char *junit;
	const char *device;
	const char *expect;
	bool impl[RC_NIMPLS];
	bool vm;
	bool two; /* --vm with two rxe devices */
	bool siw; /* --vm with siw devices beside them */
	bool ibsim; /* --target ibsim */
	const char *kernel; /* --vm --kernel SPEC (ci/rxe-vm) */
	const char *dist; /* --vm --dist SUITE */
	const char *rdma_core; /* an rdma-core build tree to test */
	unsigned int watchdog_ms;
	unsigned int jobs; /* rows in flight at once; 0: as many as fit */
	unsigned int sample; /* rows of each table at most; 0: all */
};

enum rc_cli_result { RC_CLI_LIST, RC_CLI_RUN, RC_CLI_HELP, RC_CLI_USAGE };

/*
 * Parse `rdmaconf list|run [options]` (@argv[1] the command) into @o.
 * RC_CLI_USAGE with a one-line cause in @err for anything else.
 */
enum rc_cli_result rc_cli_parse(int argc, char **argv, struct rc_opts *o,
				char *err, size_t errlen);

/* getopt_long's options of @cmd from the table, into @opts (RC_NOPTS + 1
 * entries) and @shortopts (3 * RC_NOPTS + 2 bytes); each option's val is
 * its short letter or 256 + its enum rc_opt. */
void rc_cli_getopt(enum rc_cmd cmd, struct option *opts, char *shortopts);
/* The enum rc_opt of getopt_long's return @c, or -1 */
int rc_cli_opt_of(int c);

/* rdmaconf --help, from the tables */
void rc_cli_usage(FILE *f);
/* How many words at @a are a test-host launcher's (0: none), so that the
 * command the launcher runs goes without them. */
int rc_cli_launcher_words(char *const *a);
/* Does @a name a file the command writes (role WRITES)?  Its value's
 * index in @a (1 for "--json FILE", 0 for "--json=FILE"), or -1. */
int rc_cli_writes(char *const *a);
/* rdmaconf __complete ...: the words bash completes (completion/rdmaconf) */
int rc_cmd_complete(int argc, char **argv);
/* The command and option tables as JSON members of `rdmaconf __vocab` */
struct rc_str;
void rc_cli_vocab_json(struct rc_str *b);

/* Does case @id match @filter (GLOB[,GLOB...]; NULL matches all)? */
bool rc_cli_selected(const char *id, const char *filter);
struct rc_group;
/* Is row @r of @g selected by @o's --filter and --sample?  The one place
 * that says which rows a command takes. */
bool rc_cli_row_selected(const struct rc_opts *o, const struct rc_group *g,
			 size_t r);

/* "LID:PORT_GUID" (RDMACONF_REMOTE): a unicast LID, a hex GUID. */
bool rc_cli_remote(const char *s, uint16_t *lid, uint64_t *guid);

#endif
