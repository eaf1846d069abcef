// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wfile.h"

int rc_write_all(int fd, const char *s, size_t len)
{
	ssize_t n;

	while (len) {
		n = write(fd, s, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -ENOSPC;
		s += n;
		len -= n;
	}
	return 0;
}

bool rc_wfile_stream(const char *path)
{
	struct stat st;

	return !stat(path, &st) && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

int rc_wfile_write(const char *path, const struct rc_piece *pieces, size_t n)
{
	const char *slash = strrchr(path, '/');
	bool stream = rc_wfile_stream(path);
	struct stat st;
	char *tmp = NULL;
	size_t i;
	int fd, ret = 0;

	if (!stat(path, &st) && S_ISDIR(st.st_mode))
		return -EISDIR;
	/* beside it: a rename never crosses file systems */
	if (!stream &&
	    asprintf(&tmp, "%.*s.%s.tmp%d", slash ? (int)(slash - path + 1) : 0,
		     path, slash ? slash + 1 : path, getpid()) < 0)
		return -ENOMEM;
	fd = stream ?
		     open(path, O_WRONLY | O_CLOEXEC) :
		     open(tmp,
			  O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW,
			  0644);
	if (fd < 0)
		ret = -errno;
	for (i = 0; !ret && i < n; i++)
		ret = rc_write_all(fd, pieces[i].s, pieces[i].len);
	if (!ret && !stream && fdatasync(fd))
		ret = -errno;
	if (fd >= 0 && close(fd) && !ret)
		ret = -errno;
	if (!ret && !stream && rename(tmp, path))
		ret = -errno;
	if (ret && !stream && tmp)
		unlink(tmp);
	free(tmp);
	return ret;
}
