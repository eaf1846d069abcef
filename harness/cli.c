// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "runner.h"

static enum rc_cli_result fail(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static enum rc_cli_result fail(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	/* a cause is one line, whatever the arguments held */
	for (; *err; err++)
		if ((unsigned char)*err < ' ')
			*err = '?';
	return RC_CLI_USAGE;
}

/* the combinations of options that make no sense */
static enum rc_cli_result check(bool list, const struct rc_opts *o,
				char *err, size_t len)
{
	if (list) {
		if (o->vm || o->two || o->ibsim || o->junit || o->kernel ||
		    o->dist ||
		    o->device || o->expect || o->rdma_core || o->jobs)
			return fail(err, len, "list takes only --filter and "
				    "--json");
		return RC_CLI_LIST;
	}
	if (o->vm && o->device)
		return fail(err, len, "--vm and --device exclude each other");
	if (o->ibsim && (o->vm || o->device))
		return fail(err, len, "--target ibsim excludes --vm and "
			    "--device");
	if (o->two && !o->vm)
		return fail(err, len, "--two is an option of --vm");
	if ((o->kernel || o->dist) && !o->vm)
		return fail(err, len, "--kernel and --dist are options of --vm");
	return RC_CLI_RUN;
}

/* A whole decimal number from 1 to @max in @s, into @v. */
static bool number(const char *s, unsigned long max, unsigned int *v)
{
	char *end;
	unsigned long n;

	errno = 0;
	n = strtoul(s, &end, 10);
	if (errno || *end || end == s || *s == '-' || !n || n > max)
		return false;
	*v = n;
	return true;
}

enum rc_cli_result rc_cli_parse(int argc, char **argv, struct rc_opts *o,
				char *err, size_t errlen)
{
	static const struct option long_opts[] = {
		{ "filter", required_argument, NULL, 'f' },
		{ "impl", required_argument, NULL, 'i' },
		{ "json", required_argument, NULL, 'j' },
		{ "junit", required_argument, NULL, 'J' },
		{ "device", required_argument, NULL, 'd' },
		{ "vm", no_argument, NULL, 'V' },
		{ "two", no_argument, NULL, '2' },
		{ "target", required_argument, NULL, 'T' },
		{ "rdma-core", required_argument, NULL, 'R' },
		{ "watchdog-ms", required_argument, NULL, 'w' },
		{ "expect", required_argument, NULL, 'e' },
		{ "jobs", required_argument, NULL, 'P' },
		{ "kernel", required_argument, NULL, 'K' },
		{ "dist", required_argument, NULL, 'D' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	bool list;
	int c;

	memset(o, 0, sizeof(*o));
	o->watchdog_ms = 10000;
	o->impl[RC_IMPL_SYSTEM] = o->impl[RC_IMPL_REFERENCE] = true;
	if (argc < 2 || !argv[1])
		return fail(err, errlen, "no command");
	list = !strcmp(argv[1], "list");
	if (!list && strcmp(argv[1], "run"))
		return fail(err, errlen, "unknown command '%.64s'", argv[1]);

	/* getopt's own messages would be a second line: ours say it */
	opterr = 0;
	optind = 0;		/* a fresh scan (GNU), from argv[2] on */
	argc--;
	argv++;
	while ((c = getopt_long(argc, argv, ":f:h", long_opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			o->filter = optarg;
			break;
		case 'i':
			o->impl[RC_IMPL_SYSTEM] = !strcmp(optarg, "system") ||
						  !strcmp(optarg, "both");
			o->impl[RC_IMPL_REFERENCE] =
				!strcmp(optarg, "reference") ||
				!strcmp(optarg, "both");
			if (!o->impl[0] && !o->impl[1])
				return fail(err, errlen, "--impl takes system, "
					    "reference or both, not '%.64s'",
					    optarg);
			break;
		case 'j':
			o->json = optarg;
			break;
		case 'J':
			o->junit = optarg;
			break;
		case 'd':
			o->device = optarg;
			break;
		case 'V':
			o->vm = true;
			break;
		case '2':
			o->two = true;
			break;
		case 'T':
			if (!strcmp(optarg, "vm"))
				o->vm = true;
			else if (!strcmp(optarg, "ibsim"))
				o->ibsim = true;
			else if (strcmp(optarg, "host"))
				return fail(err, errlen, "--target takes host, "
					    "vm or ibsim, not '%.64s'", optarg);
			break;
		case 'R':
			o->rdma_core = optarg;
			break;
		case 'e':
			o->expect = optarg;
			break;
		case 'w':
			if (!number(optarg, UINT_MAX, &o->watchdog_ms))
				return fail(err, errlen, "--watchdog-ms takes a "
					    "positive number of milliseconds, "
					    "not '%.64s'", optarg);
			break;
		case 'K':
			o->kernel = optarg;
			break;
		case 'D':
			o->dist = optarg;
			break;
		case 'P':
			if (!number(optarg, RC_MAX_JOBS, &o->jobs))
				return fail(err, errlen, "--jobs takes a number "
					    "from 1 to %d, not '%.64s'",
					    RC_MAX_JOBS, optarg);
			break;
		case 'h':
			return RC_CLI_HELP;
		case ':':
			return fail(err, errlen, "%.64s needs a value",
				    argv[optind - 1]);
		default:
			return fail(err, errlen, "bad option '%.64s'",
				    argv[optind - 1]);
		}
	}
	if (optind < argc)
		return fail(err, errlen, "unexpected argument '%.64s'",
			    argv[optind]);
	return check(list, o, err, errlen);
}

bool rc_cli_selected(const char *id, const char *filter)
{
	char glob[256];
	size_t n;

	if (!filter)
		return true;
	for (;;) {
		n = strcspn(filter, ",");
		if (n < sizeof(glob)) {
			memcpy(glob, filter, n);
			glob[n] = 0;
			if (!fnmatch(glob, id, 0))
				return true;
		}
		if (!filter[n])
			return false;
		filter += n + 1;
	}
}

bool rc_cli_remote(const char *s, uint16_t *lid, uint64_t *guid)
{
	unsigned int l;
	char end;

	if (sscanf(s, "%u:%" SCNx64 "%c", &l, guid, &end) != 2 || !l ||
	    l >= 0xc000)
		return false;
	*lid = l;
	return true;
}
