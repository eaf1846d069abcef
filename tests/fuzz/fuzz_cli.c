// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * libFuzzer: the command line of rdmaconf list|run and the environment
 * texts that name targets.  The input is the argument vector, arguments
 * separated by NUL bytes (argv[0] is added); its last argument is also
 * read as RDMACONF_REMOTE.  A filter that parses is matched against case
 * ids.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../harness/cli.h"

#define MAX_ARGS 32

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const ids[] = { "umad/set_grh/ipv6",
					   "verbs/create_ah/null-attr",
					   "rdmacm/leave_multicast/twice" };
	char *argv[MAX_ARGS + 2], *buf = malloc(size + 1), err[256];
	struct rc_opts o;
	uint64_t guid;
	uint16_t lid;
	size_t i;
	int argc = 1;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = 0;
	argv[0] = (char *)"rdmaconf";
	argv[argc++] = buf;
	for (i = 0; i < size && argc < MAX_ARGS + 1; i++)
		if (!buf[i])
			argv[argc++] = buf + i + 1;
	argv[argc] = NULL;
	switch (rc_cli_parse(argc, argv, &o, err, sizeof(err))) {
	case RC_CLI_LIST:
	case RC_CLI_RUN:
		for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
			rc_cli_selected(ids[i], o.filter);
		break;
	case RC_CLI_USAGE:
		/* one line, as main prints it */
		if (strchr(err, '\n'))
			abort();
		break;
	case RC_CLI_HELP:
		break;
	}
	rc_cli_remote(argv[argc - 1], &lid, &guid);
	free(buf);
	return 0;
}
