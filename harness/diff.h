/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#ifndef RDMACONF_DIFF_H
#define RDMACONF_DIFF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct rc_layout;

/* Names of the fields (or byte ranges) where @a and @b differ. */
void rc_diff_fields(const struct rc_layout *layout, const uint8_t *a,
		    const uint8_t *b, size_t len, char *buf, size_t buflen);
/* Hex dump of @p, 16 bytes a line, each line prefixed by @prefix; bytes
 * that differ from @other (may be NULL) are marked with '*'. */
void rc_hexdump(FILE *f, const char *prefix, const uint8_t *p,
		const uint8_t *other, size_t len);

#endif
