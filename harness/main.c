// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdmaconf: run the documented behaviours of rdma-core's libraries on the
 * system implementation and on the reference, side by side.  This file
 * only dispatches the commands.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdmaconf.h"
#include "cli.h"
#include "launch.h"
#include "paths.h"
#include "output.h"
#include "report.h"
#include "schedule.h"
#include "target.h"
#include "run.h"
#include "vocab_json.h"

static void die_usage(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));

static void die_usage(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "rdmaconf: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see rdmaconf --help)\n");
	exit(RC_EXIT_USAGE);
}

/* rdmaconf list [--json FILE|-]: the selected ids, or the rows as data */
static int cmd_list(const struct rc_opts *o)
{
	const struct rc_group *const *gp;
	struct rc_str b = {};
	bool json = o->json != NULL;
	const char *name = json && strcmp(o->json, "-") ? o->json : "stdout";
	FILE *f = stdout;
	unsigned int n = 0;
	size_t i;
	int bad;

	if (!rc_count_selected(o)) {
		fprintf(stderr, "rdmaconf: --filter '%.64s' selects no case\n",
			o->filter);
		return RC_EXIT_USAGE;
	}
	if (json && strcmp(o->json, "-") && !(f = fopen(o->json, "w"))) {
		fprintf(stderr, "rdmaconf: cannot write %s: %m\n", o->json);
		return RC_EXIT_ENV;
	}
	for_each_row (gp, i) {
		const struct rc_case *c = RC_ROW(*gp, i);

		if (!rc_cli_row_selected(o, *gp, i))
			continue;
		if (!json) {
			fprintf(f, "%s\n", c->id);
			continue;
		}
		rc_str_printf(&b, "%s\n  ", n++ ? "," : "[");
		rc_json_case(&b, *gp, c);
	}
	if (json)
		fprintf(f, "%s\n]\n", b.s);
	rc_str_free(&b);
	/* every write checked: > /dev/full is no success */
	bad = fflush(f) || ferror(f);
	if (f != stdout)
		bad |= fclose(f);
	if (bad) {
		fprintf(stderr, "rdmaconf: writing %s failed: %m\n", name);
		return RC_EXIT_ENV;
	}
	return RC_EXIT_OK;
}

int main(int argc, char **argv)
{
	struct rc_opts o;
	char err[256];
	const char *cmd;

	if (argc < 2) {
		rc_cli_usage(stderr);
		return RC_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		rc_cli_usage(stdout);
		return RC_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("rdmaconf %s (git %s)\n", rc_version, rc_revision);
		return RC_EXIT_OK;
	}
	cmd = argv[1];
	if (!strcmp(cmd, "__vocab"))
		return rc_cmd_vocab();
	if (!strcmp(cmd, "__complete"))
		return rc_cmd_complete(argc, argv);
	if (!strcmp(cmd, "__case"))
		return rc_cmd_case(argc, argv);
	if (!strcmp(cmd, "fleet"))
		return rc_exec_helper("fleet", "RDMACONF_FLEET", argc - 2,
				      argv + 2);
	if (!strcmp(cmd, "report"))
		return rc_cmd_report(argc - 1, argv + 1);
	if (!strcmp(cmd, "gate"))
		return rc_cmd_gate(argc - 1, argv + 1);
	switch (rc_cli_parse(argc, argv, &o, err, sizeof(err))) {
	case RC_CLI_HELP:
		rc_cli_usage(stdout);
		return RC_EXIT_OK;
	case RC_CLI_USAGE:
		die_usage("%s", err);
	case RC_CLI_LIST:
		return cmd_list(&o);
	case RC_CLI_RUN:
		break;
	}
	if (!o.rdma_core)
		o.rdma_core = getenv("RDMACONF_RDMA_CORE");
	if (o.rdma_core && !getenv("RDMACONF_RDMA_CORE_ACTIVE"))
		return rc_exec_with_rdma_core(o.rdma_core, argc, argv);
	if (o.vm) {
		struct rc_launch l = { .target = RC_TARGET_VM,
				       .two = o.two,
				       .siw = o.siw,
				       .kernel = o.kernel,
				       .dist = o.dist };

		return rc_exec_launcher(&l, argc, argv);
	}
	if (o.ibsim) {
		/* ibsim simulates the MAD interface only: its cases, unless
		 * told otherwise */
		struct rc_launch l = {
			.target = RC_TARGET_IBSIM,
			.filter = o.filter ? NULL :
					     rc_target_filter(RC_TARGET_IBSIM)
		};
		struct rc_opts sel = o;
		char lanes[16];

		/* a fabric per row in flight (ci/ibsim-run) */
		if (!sel.filter)
			sel.filter = l.filter;
		snprintf(lanes, sizeof(lanes), "%u",
			 rc_sched_lanes(o.jobs, rc_count_selected(&sel)));
		setenv("RDMACONF_IBSIM_LANES", lanes, 1);
		return rc_exec_launcher(&l, argc, argv);
	}
	return rc_cmd_run(&o);
}
