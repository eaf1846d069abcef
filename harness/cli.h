/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The command line of `rdmaconf list` and `rdmaconf run`, and the texts of
 * the environment that name targets, parsed without exiting or printing so
 * that the parsers can be fuzzed (tests/fuzz/fuzz_cli.c).
 */
#ifndef RDMACONF_CLI_H
#define RDMACONF_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rdmaconf.h"

struct rc_opts {
	const char *filter;
	const char *json;
	const char *junit;
	const char *device;
	const char *expect;
	bool impl[RC_NIMPLS];
	bool vm;
	bool two;		/* --vm with two rxe devices */
	bool ibsim;		/* --target ibsim */
	const char *kernel;	/* --vm --kernel SPEC (ci/rxe-vm) */
	const char *dist;	/* --vm --dist SUITE */
	const char *rdma_core;	/* an rdma-core build tree to test */
	unsigned int watchdog_ms;
	unsigned int jobs;	/* rows in flight at once; 0: as many as fit */
};

enum rc_cli_result { RC_CLI_LIST, RC_CLI_RUN, RC_CLI_HELP, RC_CLI_USAGE };

/*
 * Parse `rdmaconf list|run [options]` (@argv[1] the command) into @o.
 * RC_CLI_USAGE with a one-line cause in @err for anything else.
 */
enum rc_cli_result rc_cli_parse(int argc, char **argv, struct rc_opts *o,
				char *err, size_t errlen);

/* Does case @id match @filter (GLOB[,GLOB...]; NULL matches all)? */
bool rc_cli_selected(const char *id, const char *filter);

/* "LID:PORT_GUID" (RDMACONF_REMOTE): a unicast LID, a hex GUID. */
bool rc_cli_remote(const char *s, uint16_t *lid, uint64_t *guid);

#endif
