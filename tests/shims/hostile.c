// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A hostile libibumad, for LD_PRELOAD: each call below misbehaves in its own
 * way, chosen by RDMACONF_SHIM (segv, abort, exit, hang, hang-forked,
 * garbage, overflow, closefds).  Every other call is the real one.  The suite must give that
 * call's cases a clear verdict and still run every other case.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <infiniband/umad.h>

static const char *mode(void)
{
	const char *m = getenv("RDMACONF_SHIM");

	return m ? m : "";
}

/* segv */
int umad_set_addr(void *umad, int dlid, int dqp, int sl, int qkey)
{
	if (!strcmp(mode(), "segv"))
		raise(SIGSEGV);
	return ((int (*)(void *, int, int, int, int))dlsym(
		RTLD_NEXT, "umad_set_addr"))(umad, dlid, dqp, sl, qkey);
}

/* abort, exit, hang, hang-forked, garbage, overflow, closefds */
int umad_set_pkey(void *umad, int pkey_index)
{
	const char *m = mode();

	if (!strcmp(m, "abort"))
		abort();
	if (!strcmp(m, "exit"))
		exit(0);
	if (!strcmp(m, "hang-forked")) {
		/* deaf to SIGTERM, with a child of its own: only a SIGKILL of
		 * the whole process group ends it */
		signal(SIGTERM, SIG_IGN);
		fork();
		for (;;)
			pause();
	}
	if (!strcmp(m, "hang"))
		for (;;)
			pause();
	if (!strcmp(m, "garbage")) {
		memset(umad, 0xff, 64);
		return -12345;
	}
	if (!strcmp(m, "closefds")) {
		/* every descriptor the process has, the harness's included */
		for (int fd = 0; fd < 1024; fd++)
			close(fd);
		return 0;
	}
	if (!strcmp(m, "overflow")) {
		/* writes far past the caller's 80-byte buffer */
		memset(umad, 0x66, 4096);
		return 0;
	}
	return ((int (*)(void *, int))dlsym(RTLD_NEXT,
					    "umad_set_pkey"))(umad, pkey_index);
}
