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
#include "json.h"
#include "runner.h"
#include "target.h"

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
static enum rc_cli_result check(bool list, const struct rc_opts *o, char *err,
				size_t len)
{
	/* what list does not take, the table keeps from it */
	if (list)
		return RC_CLI_LIST;
	if (o->ibsim && (o->vm || o->device))
		return fail(err, len,
			    "--target ibsim excludes --vm and "
			    "--device");
	if ((o->two || o->siw) && !o->vm)
		return fail(err, len, "--two and --siw are options of --vm");
	if ((o->kernel || o->dist) && !o->vm)
		return fail(err, len,
			    "--kernel and --dist are options of --vm");
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

static const struct {
	const char *name, *args, *help;
} commands[] = {
#define C(e, n, a, h) [RC_CMD_##e] = { n, a, h },
	RC_COMMANDS(C)
#undef C
};

static const struct {
	const char *name;
	char letter;
	const char *value;
	unsigned int commands;
	const char *complete;
	enum rc_opt_role role;
	const char *help;
} options[] = {
#define O(e, n, l, v, cmds, comp, role, h) \
	[RC_OPT_##e] = { n, l, v, cmds, comp, role, h },
	RC_OPTIONS(O)
#undef O
};

#define OPT_VAL(i) (options[i].letter ? options[i].letter : 256 + (i))

void rc_cli_getopt(enum rc_cmd cmd, struct option *opts, char *shortopts)
{
	size_t i, n = 0, k = 0;

	/* ':' first: a missing value is ':', not getopt's own message */
	shortopts[k++] = ':';
	for (i = 0; i < RC_NOPTS; i++) {
		if (!(options[i].commands & (1u << cmd)))
			continue;
		opts[n++] =
			(struct option){ .name = options[i].name,
					 .has_arg = options[i].value ?
							    required_argument :
							    no_argument,
					 .val = OPT_VAL(i) };
		if (options[i].letter) {
			shortopts[k++] = options[i].letter;
			if (options[i].value)
				shortopts[k++] = ':';
		}
	}
	opts[n] = (struct option){};
	shortopts[k] = 0;
}

int rc_cli_opt_of(int c)
{
	size_t i;

	for (i = 0; i < RC_NOPTS; i++)
		if (OPT_VAL(i) == c)
			return i;
	return -1;
}

enum rc_cli_result rc_cli_parse(int argc, char **argv, struct rc_opts *o,
				char *err, size_t errlen)
{
	struct option long_opts[RC_NOPTS + 1];
	char shortopts[3 * RC_NOPTS + 2];
	enum rc_cmd cmd;
	int c, impl;

	memset(o, 0, sizeof(*o));
	o->watchdog_ms = 10000;
	o->impl[RC_IMPL_SYSTEM] = o->impl[RC_IMPL_REFERENCE] = true;
	if (argc < 2 || !argv[1])
		return fail(err, errlen, "no command");
	if (!strcmp(argv[1], commands[RC_CMD_LIST].name))
		cmd = RC_CMD_LIST;
	else if (!strcmp(argv[1], commands[RC_CMD_RUN].name))
		cmd = RC_CMD_RUN;
	else
		return fail(err, errlen, "unknown command '%.64s'", argv[1]);
	rc_cli_getopt(cmd, long_opts, shortopts);

	/* getopt's own messages would be a second line: ours say it */
	opterr = 0;
	optind = 0; /* a fresh scan (GNU), from argv[2] on */
	argc--;
	argv++;
	while ((c = getopt_long(argc, argv, shortopts, long_opts, NULL)) !=
	       -1) {
		switch (rc_cli_opt_of(c)) {
		case RC_OPT_FILTER:
			o->filter = optarg;
			break;
		case RC_OPT_IMPL:
			impl = rc_impl_parse(optarg);
			o->impl[RC_IMPL_SYSTEM] = impl == RC_IMPL_SYSTEM ||
						  !strcmp(optarg, "both");
			o->impl[RC_IMPL_REFERENCE] =
				impl == RC_IMPL_REFERENCE ||
				!strcmp(optarg, "both");
			if (!o->impl[0] && !o->impl[1])
				return fail(err, errlen,
					    "--impl takes %s, %s "
					    "or both, not '%.64s'",
					    rc_impl_name(RC_IMPL_SYSTEM),
					    rc_impl_name(RC_IMPL_REFERENCE),
					    optarg);
			break;
		case RC_OPT_JSON:
			o->json = optarg;
			break;
		case RC_OPT_JUNIT:
			o->junit = optarg;
			break;
		case RC_OPT_DEVICE:
			o->device = optarg;
			break;
		case RC_OPT_VM:
			o->vm = true;
			break;
		case RC_OPT_TWO:
			o->two = true;
			break;
		case RC_OPT_SIW:
			o->siw = true;
			break;
		case RC_OPT_TARGET:
			switch (rc_target_parse(optarg)) {
			case RC_TARGET_VM:
				o->vm = true;
				break;
			case RC_TARGET_IBSIM:
				o->ibsim = true;
				break;
			case RC_TARGET_HOST:
				break;
			default:
				return fail(err, errlen,
					    "--target takes %s, "
					    "not '%.64s'",
					    rc_target_choices(), optarg);
			}
			break;
		case RC_OPT_RDMA_CORE:
			o->rdma_core = optarg;
			break;
		case RC_OPT_EXPECT:
			o->expect = optarg;
			break;
		case RC_OPT_WATCHDOG_MS:
			if (!number(optarg, UINT_MAX, &o->watchdog_ms))
				return fail(err, errlen,
					    "--watchdog-ms takes a "
					    "positive number of milliseconds, "
					    "not '%.64s'",
					    optarg);
			break;
		case RC_OPT_KERNEL:
			o->kernel = optarg;
			break;
		case RC_OPT_DIST:
			o->dist = optarg;
			break;
		case RC_OPT_JOBS:
			if (!number(optarg, RC_MAX_JOBS, &o->jobs))
				return fail(err, errlen,
					    "--jobs takes a number "
					    "from 1 to %d, not '%.64s'",
					    RC_MAX_JOBS, optarg);
			break;
		case RC_OPT_SAMPLE:
			if (!number(optarg, 1000000, &o->sample) || !o->sample)
				return fail(err, errlen,
					    "--sample takes a number from 1, "
					    "not '%.64s'",
					    optarg);
			break;
		case RC_OPT_HELP:
			return RC_CLI_HELP;
		default:
			if (c == ':')
				return fail(err, errlen, "%.64s needs a value",
					    argv[optind - 1]);
			return fail(err, errlen, "%s does not take '%.64s'",
				    commands[cmd].name, argv[optind - 1]);
		}
	}
	if (optind < argc)
		return fail(err, errlen, "unexpected argument '%.64s'",
			    argv[optind]);
	return check(cmd == RC_CMD_LIST, o, err, errlen);
}

/* "  HEAD   TEXT (MORE)", TEXT wrapped at 79 columns under itself */
static void wrapped(FILE *f, const char *head, int width, const char *text,
		    const char *more)
{
	char all[512];
	const char *p = all;
	int room = 79 - 2 - width, n;

	snprintf(all, sizeof(all), "%s%s%s%s", text, more ? " (" : "",
		 more ? more : "", more ? ")" : "");
	fprintf(f, "  %-*s", width, head);
	if ((int)strlen(head) >= width)
		fprintf(f, "\n  %-*s", width, "");
	while (*p) {
		n = strlen(p);
		if (n > room) {
			for (n = room; n > 0 && p[n] != ' '; n--)
				;
			if (!n)
				n = strcspn(p, " ");
		}
		fprintf(f, "%.*s\n", n, p);
		p += n;
		p += strspn(p, " ");
		if (*p)
			fprintf(f, "  %-*s", width, "");
	}
}

/* @word after a synopsis line at column @col, on a new line under the
 * first option when it would pass 79 columns; the new column */
static size_t synopsis_word(FILE *f, size_t col, const char *cmd,
			    const char *word)
{
	if (col + strlen(word) > 79)
		col = fprintf(f, "\n%*s", 16 + (int)strlen(cmd), "") - 1;
	return col + fprintf(f, "%s", word);
}

void rc_cli_usage(FILE *f)
{
	size_t c, i, col;

	for (c = 0; c < RC_NCMDS; c++) {
		col = fprintf(f, "%s rdmaconf %s",
			      c ? "      " : "usage:", commands[c].name);
		for (i = 0; i < RC_NOPTS; i++) {
			char word[96];

			if (!(options[i].commands & (1u << c)) ||
			    i == RC_OPT_HELP)
				continue;
			snprintf(word, sizeof(word), " [--%s%s%s]",
				 options[i].name, options[i].value ? " " : "",
				 options[i].value ? options[i].value : "");
			col = synopsis_word(f, col, commands[c].name, word);
		}
		if (*commands[c].args) {
			char word[96];

			snprintf(word, sizeof(word), " %s", commands[c].args);
			synopsis_word(f, col, commands[c].name, word);
		}
		fprintf(f, "\n");
	}
	fprintf(f, "       rdmaconf --help | --version\n\n");
	for (c = 0; c < RC_NCMDS; c++)
		wrapped(f, commands[c].name, 10, commands[c].help, NULL);
	fprintf(f, "\n");
	for (i = 0; i < RC_NOPTS; i++) {
		char head[64];

		snprintf(head, sizeof(head), "%c%c%s--%s%s%s",
			 options[i].letter ? '-' : ' ',
			 options[i].letter ? options[i].letter : ' ',
			 options[i].letter ? ", " : "  ", options[i].name,
			 options[i].value ? " " : "",
			 options[i].value ? options[i].value : "");
		wrapped(f, head, 34, options[i].help,
			options[i].complete && !strcmp(options[i].complete,
						       "@targets") ?
				rc_target_choices() :
				NULL);
	}
	fprintf(f, "\nRuns every documented behaviour (case) of libibumad, "
		   "libibverbs and\nlibrdmacm on the system rdma-core, as the "
		   "dynamic linker finds it, and on\nrdmaconf's own reference "
		   "implementation, each case in an isolated child.\nKTAP on "
		   "stdout; exit 0 when no case fails, crashes, hangs or "
		   "diverges.\nSee rdmaconf(1).\n");
}

int rc_cli_launcher_words(char *const *a)
{
	size_t i, n;

	if (strncmp(*a, "--", 2))
		return 0;
	for (i = 0; i < RC_NOPTS; i++) {
		if (options[i].role != RC_ROLE_LAUNCHER)
			continue;
		n = strlen(options[i].name);
		if (strncmp(*a + 2, options[i].name, n))
			continue;
		if (!(*a)[2 + n])
			return options[i].value && a[1] ? 2 : 1;
		if ((*a)[2 + n] == '=' && options[i].value)
			return 1;
	}
	return 0;
}

int rc_cli_writes(char *const *a)
{
	size_t i, n;

	if (strncmp(*a, "--", 2))
		return -1;
	for (i = 0; i < RC_NOPTS; i++) {
		if (options[i].role != RC_ROLE_WRITES)
			continue;
		n = strlen(options[i].name);
		if (strncmp(*a + 2, options[i].name, n))
			continue;
		if (!(*a)[2 + n])
			return a[1] ? 1 : -1;
		if ((*a)[2 + n] == '=')
			return 0;
	}
	return -1;
}

static int command_of(const char *name)
{
	size_t c;

	for (c = 0; name && c < RC_NCMDS; c++)
		if (!strcmp(commands[c].name, name))
			return c;
	return -1;
}

/*
 * rdmaconf __complete commands | options CMD | values OPTION: one word a
 * line; a value's "@file", "@dir", "@cases" and "@devices" are left to
 * the completion script (files, `rdmaconf list`, sysfs), "@targets" and
 * "@impls" are the tables' names, "@value" is a value with nothing to
 * offer (a number); nothing at all: OPTION takes no value.
 */
int rc_cmd_complete(int argc, char **argv)
{
	const char *what = argc > 2 ? argv[2] : "";
	size_t i;
	int c;

	if (!strcmp(what, "commands") && argc == 3) {
		for (c = 0; c < RC_NCMDS; c++)
			printf("%s\n", commands[c].name);
		printf("--help\n--version\n");
	} else if (!strcmp(what, "options") && argc == 4 &&
		   (c = command_of(argv[3])) >= 0) {
		for (i = 0; i < RC_NOPTS; i++)
			if (options[i].commands & (1u << c))
				printf("--%s\n", options[i].name);
	} else if (!strcmp(what, "values") && argc == 4) {
		const char *opt = argv[3] + strspn(argv[3], "-");

		for (i = 0; i < RC_NOPTS; i++) {
			const char *w = options[i].complete;

			if (strcmp(options[i].name, opt) || !options[i].value)
				continue;
			if (!w)
				printf("@value\n");
			else if (!strcmp(w, "@targets"))
				rc_target_words(stdout);
			else if (!strcmp(w, "@impls"))
				printf("%s\n%s\nboth\n",
				       rc_impl_name(RC_IMPL_SYSTEM),
				       rc_impl_name(RC_IMPL_REFERENCE));
			else
				for (; *w; w += strspn(w, " "))
					w += printf("%.*s\n",
						    (int)strcspn(w, " "), w) -
					     1;
		}
	} else {
		fprintf(stderr, "rdmaconf: __complete commands | options CMD "
				"| values OPTION\n");
		return RC_EXIT_USAGE;
	}
	return fflush(stdout) ? RC_EXIT_ENV : RC_EXIT_OK;
}

void rc_cli_vocab_json(struct rc_str *b)
{
	size_t c, i;
	int n;

	rc_str_printf(b, ",\n\"commands\": [");
	for (c = 0; c < RC_NCMDS; c++) {
		rc_str_printf(b, "%s\n  {\"name\": ", c ? "," : "");
		rc_str_json(b, commands[c].name);
		rc_str_printf(b, ", \"args\": ");
		rc_str_json(b, commands[c].args);
		rc_str_printf(b, ", \"help\": ");
		rc_str_json(b, commands[c].help);
		rc_str_printf(b, ", \"options\": [");
		for (i = 0, n = 0; i < RC_NOPTS; i++)
			if (options[i].commands & (1u << c))
				rc_str_printf(b, "%s\"--%s\"", n++ ? ", " : "",
					      options[i].name);
		rc_str_printf(b, "]}");
	}
	rc_str_printf(b, "],\n\"options\": [");
	for (i = 0; i < RC_NOPTS; i++) {
		char letter[3] = { '-', options[i].letter, 0 };

		rc_str_printf(b, "%s\n  {\"name\": \"--%s\", \"short\": ",
			      i ? "," : "", options[i].name);
		rc_str_json(b, options[i].letter ? letter : NULL);
		rc_str_printf(b, ", \"value\": ");
		rc_str_json(b, options[i].value);
		rc_str_printf(b, ", \"complete\": ");
		rc_str_json(b, options[i].complete);
		rc_str_printf(
			b,
			", \"launcher\": %s, \"writes\": %s, "
			"\"help\": ",
			options[i].role == RC_ROLE_LAUNCHER ? "true" : "false",
			options[i].role == RC_ROLE_WRITES ? "true" : "false");
		rc_str_json(b, options[i].help);
		rc_str_printf(b, "}");
	}
	rc_str_printf(b, "]");
}

bool rc_cli_row_selected(const struct rc_opts *o, const struct rc_group *g,
			 size_t r)
{
	const struct rc_case *c = RC_ROW(g, r);

	/* every other row, from the first: a table's rows come in families
	 * (each value, then its failures), so a sample touches each; and
	 * every timed row, as what a duration claims is read across all of
	 * them (the report's plot), and their waits overlap the others' */
	if (o->sample && !c->contract.ms && (r % 2 || r / 2 >= o->sample))
		return false;
	return rc_cli_selected(c->id, o->filter);
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
