// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The command line of rdmaconf list|run and RDMACONF_REMOTE. */
#include <criterion/criterion.h>
#include <string.h>

#include "../../harness/cli.h"
#include "../../harness/rdmaconf.h"

/* rc_cli_parse on "rdmaconf" and @args (NULL-terminated) */
static enum rc_cli_result parse_args(struct rc_opts *o, char *err,
				     const char *const *args)
{
	static char *argv[32];
	int argc = 0;

	argv[argc++] = (char *)"rdmaconf";
	while (*args)
		argv[argc++] = (char *)*args++;
	argv[argc] = NULL;
	return rc_cli_parse(argc, argv, o, err, 256);
}

#define PARSE(o, err, ...) \
	parse_args(o, err, (const char *const[]){ __VA_ARGS__, NULL })

Test(cli, run_options)
{
	struct rc_opts o;
	char err[256];

	cr_assert_eq(PARSE(&o, err, "run", "--filter", "a/*,b/*", "--impl",
			   "reference", "--target", "ibsim", "--watchdog-ms",
			   "3000"),
		     RC_CLI_RUN, "%s", err);
	cr_assert_str_eq(o.filter, "a/*,b/*");
	cr_assert(!o.impl[RC_IMPL_SYSTEM] && o.impl[RC_IMPL_REFERENCE]);
	cr_assert(o.ibsim && !o.vm);
	cr_assert_eq(o.watchdog_ms, 3000);
	/* a second parse starts afresh */
	cr_assert_eq(PARSE(&o, err, "list"), RC_CLI_LIST, "%s", err);
	cr_assert_null(o.filter);
	cr_assert(o.impl[RC_IMPL_SYSTEM] && o.impl[RC_IMPL_REFERENCE]);
	cr_assert_eq(PARSE(&o, err, "run", "--target", "vm", "--two"),
		     RC_CLI_RUN, "%s", err);
	cr_assert(o.vm && o.two);
	cr_assert_eq(PARSE(&o, err, "run", "-h"), RC_CLI_HELP);
}

Test(cli, every_usage_error_is_one_line)
{
	struct rc_opts o;
	char err[256];

	cr_assert_eq(PARSE(&o, err, "run", "--json"), RC_CLI_USAGE);
	cr_assert(strstr(err, "--json needs a value"), "%s", err);
	cr_assert_eq(PARSE(&o, err, "frob"), RC_CLI_USAGE);
	cr_assert_eq(PARSE(&o, err, "run", "--target", "ibsim", "--device",
			   "x"),
		     RC_CLI_USAGE);
	cr_assert_eq(PARSE(&o, err, "list", "--junit", "x"), RC_CLI_USAGE);
	cr_assert_eq(PARSE(&o, err, "run", "--watchdog-ms", "-1"),
		     RC_CLI_USAGE);
	cr_assert_eq(PARSE(&o, err, "run", "--jobs", "0"), RC_CLI_USAGE);
	cr_assert(strstr(err, "--jobs takes a number from 1 to 32"), "%s", err);
	cr_assert_eq(PARSE(&o, err, "run", "--jobs", "33"), RC_CLI_USAGE);
	cr_assert_eq(PARSE(&o, err, "list", "--jobs", "2"), RC_CLI_USAGE);
	cr_assert_eq(PARSE(&o, err, "run", "--jobs", "2"), RC_CLI_RUN);
	cr_assert_eq(o.jobs, 2);
	cr_assert_eq(PARSE(&o, err, "run", "stray"), RC_CLI_USAGE);
	cr_assert_eq(PARSE(&o, err, "run", "--impl", "a\nb"), RC_CLI_USAGE);
	cr_assert_null(strchr(err, '\n'), "%s", err);
}

Test(cli, comma_separated_globs)
{
	cr_assert(rc_cli_selected("umad/send/x", NULL));
	cr_assert(rc_cli_selected("umad/send/x", "verbs/*,umad/send/*"));
	cr_assert(!rc_cli_selected("umad/send/x", "verbs/*,umad/recv/*"));
	cr_assert(!rc_cli_selected("umad/send/x", ""));
	cr_assert(rc_cli_selected("umad/send/x", ",umad/*"));
}

Test(cli, sample_takes_every_other_row_up_to_n)
{
	static const struct rc_case rows[] = {
		{ .id = "t/a/0" }, { .id = "t/a/1" }, { .id = "t/a/2" },
		{ .id = "t/a/3" }, { .id = "t/a/4" }, { .id = "t/a/5" },
	};
	const struct rc_group g = { .rows = rows,
				    .row_size = sizeof(rows[0]),
				    .nrows = 6 };
	struct rc_opts o = { .sample = 2 };
	char err[256];
	size_t r, n = 0;

	for (r = 0; r < g.nrows; r++)
		n += rc_cli_row_selected(&o, &g, r);
	cr_assert_eq(n, 2);
	cr_assert(rc_cli_row_selected(&o, &g, 0));
	cr_assert(rc_cli_row_selected(&o, &g, 2));
	cr_assert(!rc_cli_row_selected(&o, &g, 4), "beyond N");
	cr_assert(!rc_cli_row_selected(&o, &g, 1));
	o.filter = "t/a/2";
	cr_assert(!rc_cli_row_selected(&o, &g, 0), "the filter too");
	cr_assert(rc_cli_row_selected(&o, &g, 2));
	o = (struct rc_opts){ 0 };
	cr_assert(rc_cli_row_selected(&o, &g, 5), "no --sample: every row");
	cr_assert_eq(PARSE(&o, err, "run", "--sample", "0"), RC_CLI_USAGE);
	cr_assert_eq(PARSE(&o, err, "list", "--sample", "3"), RC_CLI_LIST);
	cr_assert_eq(o.sample, 3);
}

Test(cli, sample_takes_every_timed_row)
{
	static const struct rc_case rows[] = {
		{ .id = "t/b/0" },
		{ .id = "t/b/1", .contract = { .ms = 200 } },
		{ .id = "t/b/2" },
		{ .id = "t/b/3" },
		{ .id = "t/b/4", .contract = { .ms = 100 } },
	};
	const struct rc_group g = { .rows = rows,
				    .row_size = sizeof(rows[0]),
				    .nrows = 5 };
	struct rc_opts o = { .sample = 1 };

	cr_assert(rc_cli_row_selected(&o, &g, 0));
	cr_assert(rc_cli_row_selected(&o, &g, 1), "an odd row, timed");
	cr_assert(!rc_cli_row_selected(&o, &g, 2), "beyond N");
	cr_assert(rc_cli_row_selected(&o, &g, 4), "beyond N, timed");
	o.filter = "t/b/0";
	cr_assert(!rc_cli_row_selected(&o, &g, 4), "the filter still applies");
}

Test(cli, remote_node)
{
	uint64_t guid;
	uint16_t lid;

	cr_assert(rc_cli_remote("4:0x0000000000100005", &lid, &guid));
	cr_assert_eq(lid, 4);
	cr_assert_eq(guid, 0x100005);
	cr_assert(!rc_cli_remote("0:0x1", &lid, &guid), "LID 0 is no LID");
	cr_assert(!rc_cli_remote("49152:0x1", &lid, &guid), "multicast");
	cr_assert(!rc_cli_remote("4-0x1", &lid, &guid));
	cr_assert(!rc_cli_remote("4:0x1 trailing", &lid, &guid));
}
