// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A libibumad.so.3 that exports only umad_size(), for LD_LIBRARY_PATH: every
 * other documented call must come out ABSENT, and the run must go on.
 */
#include <stddef.h>

size_t umad_size(void);

size_t umad_size(void)
{
	return 64;
}
