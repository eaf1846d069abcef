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
#include "run.h"
#include "vocab_json.h"


static void usage(FILE *f)
{
	fprintf(f,
"usage: rdmaconf list [--filter GLOB[,GLOB...]] [--json FILE|-]\n"
"       rdmaconf run [--filter GLOB[,GLOB...]] [--impl system|reference|both]\n"
"                    [--json FILE] [--junit FILE] [--device NAME]\n"
"                    [--vm [--two] [--kernel SPEC] [--dist SUITE] |\n"
"                     --target host|vm|ibsim]\n"
"                    [--rdma-core BUILD_DIR]\n"
"                    [--expect FILE] [--watchdog-ms MS] [--jobs N]\n"
"       rdmaconf fleet [--target host|vm|ibsim] [--node-env NODE:VAR=VAL]\n"
"                      [run options] -o DIR    (inside a Slurm allocation)\n"
"       rdmaconf report RESULTS.json [MORE.json ...] -o DIR\n"
"       rdmaconf report --fleet DIR [-o DIR]\n"
"       rdmaconf gate --baseline BASELINE.json|DIR RESULTS.json|DIR\n"
"       rdmaconf --help | --version\n"
"\n"
"Runs every documented behaviour (case) of libibumad, libibverbs and\n"
"librdmacm on the system rdma-core, as the dynamic linker finds it, and on\n"
"rdmaconf's own reference implementation, each case in an isolated child.\n"
"KTAP on stdout; exit 0 when no case fails, crashes, hangs or diverges.\n"
"See rdmaconf(1).\n");
}

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
	FILE *f = stdout;
	unsigned int n = 0;
	size_t i;

	if (json && strcmp(o->json, "-") && !(f = fopen(o->json, "w"))) {
		fprintf(stderr, "rdmaconf: cannot write %s: %m\n", o->json);
		return RC_EXIT_ENV;
	}
	for_each_row(gp, i) {
		const struct rc_case *c = RC_ROW(*gp, i);

		if (!rc_cli_selected(c->id, o->filter))
			continue;
		if (!json) {
			fprintf(f, "%s\n", c->id);
			continue;
		}
		rc_str_printf(&b, "%s\n  ", n++ ? "," : "[");
		rc_json_case(&b, *gp, c);
	}
	if (json)
		fprintf(f, "%s\n]\n", n ? b.s : "[");
	rc_str_free(&b);
	if (f != stdout && fclose(f)) {
		fprintf(stderr, "rdmaconf: cannot write %s: %m\n", o->json);
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
		usage(stderr);
		return RC_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return RC_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("rdmaconf %s (git %s)\n", rc_version, rc_revision);
		return RC_EXIT_OK;
	}
	cmd = argv[1];
	if (!strcmp(cmd, "__vocab"))
		return rc_cmd_vocab();
	if (!strcmp(cmd, "__case"))
		return rc_cmd_case(argc, argv);
	if (!strcmp(cmd, "fleet"))
		return rc_exec_fleet(argc, argv);
	if (!strcmp(cmd, "report"))
		return rc_cmd_report(argc - 1, argv + 1);
	if (!strcmp(cmd, "gate"))
		return rc_cmd_gate(argc - 1, argv + 1);
	switch (rc_cli_parse(argc, argv, &o, err, sizeof(err))) {
	case RC_CLI_HELP:
		usage(stdout);
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
		struct rc_launch l = { .two = o.two, .kernel = o.kernel,
				       .dist = o.dist };

		return rc_exec_launcher("RDMACONF_RXE_VM", "rxe-vm", &l,
					argc, argv);
	}
	/* ibsim simulates the MAD interface only: the umad cases, unless
	 * told otherwise */
	if (o.ibsim) {
		struct rc_launch l = { .filter = o.filter ? NULL : "umad/*" };
		char lanes[16];

		/* a fabric per row in flight (ci/ibsim-run) */
		snprintf(lanes, sizeof(lanes), "%u", rc_sched_lanes(o.jobs,
			 rc_count_selected(o.filter ? o.filter : l.filter)));
		setenv("RDMACONF_IBSIM_LANES", lanes, 1);
		return rc_exec_launcher("RDMACONF_IBSIM_RUN", "ibsim-run",
					&l, argc, argv);
	}
	return rc_cmd_run(&o);
}
