// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A libibumad with traffic bugs, for LD_PRELOAD over the real one: each
 * bug named in RDMACONF_SHIM (comma separated) is on.  The suite must flag
 * every one on rxe.
 *
 *   no-retries    umad_send() drops the retries argument
 *   recv-agent    umad_recv() returns the wrong agent id
 *   poll-nowait   umad_poll() does not wait
 *   poll-late-once  the first umad_poll() of the run (the first process to
 *                 create the file RDMACONF_SHIM_ONCE) returns 300 ms late,
 *                 as under a passing load: not a bug the suite may flag
 *   lid-host-order  umad_send() sends the destination LID byte-swapped
 *                 (InfiniBand only: caught on ibsim, not on rxe)
 */
#define _GNU_SOURCE
#include <byteswap.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <infiniband/umad.h>

static int bug(const char *name)
{
	const char *s = getenv("RDMACONF_SHIM");

	return s && strstr(s, name);
}

#define REAL(fn) ((__typeof__(&fn))dlsym(RTLD_NEXT, #fn))

int umad_send(int portid, int agentid, void *umad, int length, int timeout_ms,
	      int retries)
{
	struct ib_user_mad *mad = umad;

	if (bug("lid-host-order"))
		mad->addr.lid = bswap_16(mad->addr.lid);
	return REAL(umad_send)(portid, agentid, umad, length, timeout_ms,
			       bug("no-retries") ? 0 : retries);
}

int umad_recv(int portid, void *umad, int *length, int timeout_ms)
{
	int ret = REAL(umad_recv)(portid, umad, length, timeout_ms);

	return ret >= 0 && bug("recv-agent") ? ret + 1 : ret;
}

int umad_poll(int portid, int timeout_ms)
{
	const char *once = getenv("RDMACONF_SHIM_ONCE");
	int fd;

	if (bug("poll-late-once") && once &&
	    (fd = open(once, O_CREAT | O_EXCL | O_WRONLY, 0600)) >= 0) {
		close(fd);
		usleep(300000);
	}
	return REAL(umad_poll)(portid, bug("poll-nowait") ? 0 : timeout_ms);
}
