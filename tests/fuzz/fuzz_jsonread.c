// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* libFuzzer: the results-file reader of `rdmaconf report` and `gate`. */
#include <stdint.h>
#include <stddef.h>

#include "../../harness/jsonread.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[256];
	struct rc_jv *v =
		rc_json_parse((const char *)data, size, err, sizeof(err));

	if (v) {
		rc_jv_str(v, "id");
		rc_jv_num(rc_jv_get(v, "contract"), "ms", 0);
	}
	rc_jv_free(v);
	return 0;
}
