// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "target.h"

static const struct {
	const char *name, *launcher, *override, *filter, *provides;
} targets[] = {
#define T(e, n, l, o, f, p) [RC_TARGET_##e] = { n, l, o, f, p },
	RC_TARGETS(T)
#undef T
};

int rc_target_parse(const char *name)
{
	int i;

	for (i = 0; name && i < RC_NTARGETS; i++)
		if (!strcmp(targets[i].name, name))
			return i;
	return -1;
}

const char *rc_target_name(enum rc_target_id t)
{
	return t < RC_NTARGETS ? targets[t].name : "?";
}

const char *rc_target_launcher(enum rc_target_id t)
{
	return t < RC_NTARGETS ? targets[t].launcher : NULL;
}

const char *rc_target_override(enum rc_target_id t)
{
	return t < RC_NTARGETS ? targets[t].override : NULL;
}

const char *rc_target_filter(enum rc_target_id t)
{
	return t < RC_NTARGETS ? targets[t].filter : NULL;
}

const char *rc_target_choices(void)
{
	static char buf[128];
	size_t n = 0;
	int i;

	for (i = 0; !buf[0] && i < RC_NTARGETS; i++)
		n += snprintf(buf + n, sizeof(buf) - n, "%s%s", i ? ", " : "",
			      targets[i].name);
	return buf;
}

void rc_target_words(FILE *f)
{
	int i;

	for (i = 0; i < RC_NTARGETS; i++)
		fprintf(f, "%s\n", targets[i].name);
}

enum rc_target_id rc_target_current(void)
{
	int t = rc_target_parse(getenv("RDMACONF_TARGET_NAME"));

	return t < 0 ? RC_TARGET_HOST : t;
}

void rc_target_vocab_json(struct rc_str *b)
{
	int i;

	rc_str_printf(b, ",\n\"targets\": [");
	for (i = 0; i < RC_NTARGETS; i++) {
		rc_str_printf(b, "%s\n  {\"name\": ", i ? "," : "");
		rc_str_json(b, targets[i].name);
		rc_str_printf(b, ", \"launcher\": ");
		rc_str_json(b, targets[i].launcher);
		rc_str_printf(b, ", \"override\": ");
		rc_str_json(b, targets[i].override);
		rc_str_printf(b, ", \"filter\": ");
		rc_str_json(b, targets[i].filter);
		rc_str_printf(b, ", \"provides\": ");
		rc_str_json(b, targets[i].provides);
		rc_str_printf(b, "}");
	}
	rc_str_printf(b, "]");
}
