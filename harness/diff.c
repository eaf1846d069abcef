// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdio.h>
#include <string.h>

#include "rdmaconf.h"
#include "diff.h"

static void append(char *buf, size_t buflen, size_t *n, const char *item)
{
	int w;

	if (*n >= buflen)
		return;
	w = snprintf(buf + *n, buflen - *n, "%s%s", *n ? ", " : "", item);
	*n += w > 0 ? w : 0;
}

void rc_diff_fields(const struct rc_layout *layout, const uint8_t *a,
		    const uint8_t *b, size_t len, char *buf, size_t buflen)
{
	size_t n = 0, i, start;
	char range[64];
	unsigned int k;

	buf[0] = 0;
	if (layout) {
		for (k = 0; k < layout->nfields; k++) {
			const struct rc_field *f = &layout->fields[k];

			if (f->off + f->len > len ||
			    !memcmp(a + f->off, b + f->off, f->len))
				continue;
			append(buf, buflen, &n, f->name);
		}
		if (n)
			return;
	}
	/* no layout, or bytes outside every named field: give byte ranges */
	for (i = 0; i < len; i++) {
		if (a[i] == b[i])
			continue;
		start = i;
		while (i + 1 < len && a[i + 1] != b[i + 1])
			i++;
		snprintf(range, sizeof(range), "bytes %zu..%zu", start, i);
		append(buf, buflen, &n, range);
	}
}

void rc_hexdump(FILE *f, const char *prefix, const uint8_t *p,
		const uint8_t *other, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (i % 16 == 0)
			fprintf(f, "%s%04zx:", prefix, i);
		fprintf(f, " %02x%c", p[i],
			other && other[i] != p[i] ? '*' : ' ');
		if (i % 16 == 15 || i + 1 == len)
			fputc('\n', f);
	}
}
