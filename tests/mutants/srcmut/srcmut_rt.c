// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The run-time side of the source mutants (srcmut_rt.h): RDMACONF_SRCMUT=N
 * turns mutant N on for the process and its children;
 * RDMACONF_SRCMUT_COVER=FILE maps FILE (RC_SRCMUT_SLOTS bytes at least,
 * made by the driver) shared, so that every point reached by any process
 * of the run is marked in it.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "srcmut_rt.h"

int rc_srcmut;
unsigned char *rc_srcmut_cov;

/* before the tables' constructors (srcmut.py's table points), which
 * read rc_srcmut */
static void __attribute__((constructor(101))) rc_srcmut_init(void)
{
	const char *id = getenv("RDMACONF_SRCMUT");
	const char *cov = getenv("RDMACONF_SRCMUT_COVER");
	struct stat st;
	void *map;
	int fd;

	rc_srcmut = id ? atoi(id) : 0;
	if (!cov || !*cov)
		return;
	fd = open(cov, O_RDWR | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) || st.st_size < RC_SRCMUT_SLOTS) {
		fprintf(stderr, "srcmut: %s: not a coverage file of %d bytes\n",
			cov, RC_SRCMUT_SLOTS);
		exit(125);
	}
	map = mmap(NULL, st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (map == MAP_FAILED) {
		perror("srcmut: mmap");
		exit(125);
	}
	rc_srcmut_cov = map;
}
