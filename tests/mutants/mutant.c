// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The registry of mutants and the switch that selects one (mutant.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mutant.h"

extern const struct mutant *const __start_rc_mutants[];
extern const struct mutant *const __stop_rc_mutants[];

static const struct mutant *active;

bool mutant_on(const struct mutant *m)
{
	return m == active;
}

void *mutant_real(const char *name)
{
	void *fn = dlsym(RTLD_NEXT, name);

	if (!fn) {
		fprintf(stderr,
			"mutants: %s is not in the library under "
			"test\n",
			name);
		abort();
	}
	return fn;
}

__attribute__((constructor)) static void select_mutant(void)
{
	const char *want = getenv("RDMACONF_MUTANT");
	const struct mutant *const *m;
	char id[256];

	if (!want)
		return;
	for (m = __start_rc_mutants; m < __stop_rc_mutants; m++) {
		snprintf(id, sizeof(id), "%s/%s", (*m)->call, (*m)->name);
		if (!strcmp(want, "list"))
			printf("%s\t%s\n", id, (*m)->what);
		else if (!strcmp(want, id))
			active = *m;
	}
	if (!strcmp(want, "list")) {
		fflush(stdout);
		_exit(0);
	}
	if (!active) {
		fprintf(stderr, "mutants: no mutant %s\n", want);
		_exit(125);
	}
}
