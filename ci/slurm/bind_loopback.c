// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Preloaded into the daemons of ci/slurm-local: Slurm 22.05 has no setting
 * for the address its daemons listen on and binds the wildcard address.
 * A throwaway cluster for tests must not be reachable from the network:
 * every bind to the wildcard address becomes a bind to the loopback.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>

int bind(int fd, const struct sockaddr *addr, socklen_t len)
{
	static int (*real_bind)(int, const struct sockaddr *, socklen_t);
	struct sockaddr_in6 in6;
	struct sockaddr_in in4;

	if (!real_bind)
		real_bind = (int (*)(int, const struct sockaddr *,
				     socklen_t))dlsym(RTLD_NEXT, "bind");
	if (addr && addr->sa_family == AF_INET && len >= sizeof(in4)) {
		memcpy(&in4, addr, sizeof(in4));
		if (in4.sin_addr.s_addr == htonl(INADDR_ANY)) {
			in4.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
			return real_bind(fd, (struct sockaddr *)&in4,
					 sizeof(in4));
		}
	}
	if (addr && addr->sa_family == AF_INET6 && len >= sizeof(in6)) {
		memcpy(&in6, addr, sizeof(in6));
		if (!memcmp(&in6.sin6_addr, &in6addr_any,
			    sizeof(in6addr_any))) {
			in6.sin6_addr = in6addr_loopback;
			return real_bind(fd, (struct sockaddr *)&in6,
					 sizeof(in6));
		}
	}
	return real_bind(fd, addr, len);
}
