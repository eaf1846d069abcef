// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

#include "sysfs.h"

int ref_sysfs_read(char *buf, size_t len, const char *fmt, ...)
{
	char path[512];
	va_list ap;
	ssize_t n;
	int fd;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	while (n && buf[n - 1] == '\n')
		n--;
	buf[n] = 0;
	return 0;
}

int ref_parse_gid(const char *s, uint8_t gid[16])
{
	unsigned int w[8], i;

	if (sscanf(s, "%x:%x:%x:%x:%x:%x:%x:%x", &w[0], &w[1], &w[2], &w[3],
		   &w[4], &w[5], &w[6], &w[7]) != 8)
		return -EINVAL;
	for (i = 0; i < 8; i++) {
		gid[2 * i] = w[i] >> 8;
		gid[2 * i + 1] = w[i] & 0xff;
	}
	return 0;
}
