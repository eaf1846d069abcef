// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* libFuzzer: expectation profiles, read from a file as rdmaconf reads them. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../../harness/profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	struct rc_profile p = {};
	char path[64], err[512];

	if (fd < 0)
		fd = memfd_create("profile", MFD_CLOEXEC);
	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		return 0;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (!rc_profile_load(&p, path, err, sizeof(err)))
		rc_profile_find(&p, "umad/size/header-size");
	rc_profile_free(&p);
	return 0;
}
