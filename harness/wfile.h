/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Writing a file whole, so that no interruption and no full disk leave it
 * cut: the pieces go into a temporary file beside it, which is synced and
 * renamed over it; on any failure the file is as it was.  A path that is
 * a stream (a device, a pipe: /dev/stdout) is written in place, and never
 * renamed over.
 */
#ifndef RDMACONF_WFILE_H
#define RDMACONF_WFILE_H

#include <stdbool.h>
#include <stddef.h>

struct rc_piece {
	const char *s;
	size_t len;
};

/* All @len bytes of @s into @fd (EINTR retried); 0 or -errno. */
int rc_write_all(int fd, const char *s, size_t len);
/* Is @path a stream (exists, and is no regular file nor a directory)? */
bool rc_wfile_stream(const char *path);
/* @n pieces into @path, whole; 0 or -errno (-EISDIR for a directory). */
int rc_wfile_write(const char *path, const struct rc_piece *pieces, size_t n);

#endif
