// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Preloaded ahead of libumad2sim.so by ci/ibsim-run, into every case and
 * rdmaconf-peer (not opensm).
 *
 * umad2sim lays out the messages it reads and writes with libibumad's
 * umad_size() and umad_get_mad().  Those follow whether the process opened
 * a port through libibumad's umad_open_port(), not whether the descriptor
 * had IB_USER_MAD_ENABLE_PKEY, which umad2sim accepts.  A process that
 * speaks the kernel ABI itself (the reference, the rows' peers,
 * rdmaconf-peer) thus gets the old 56-byte header after the kernel said
 * the 64-byte one (Documentation/infiniband/user_mad.rst, "P_Key Index
 * Handling").  Every user of these descriptors enables P_Keys.
 *
 * So umad2sim's own calls get the 64-byte layout, and every other caller
 * (libibumad under test, through the harness's dlsym) gets libibumad's
 * answer unchanged: the shim must not change the implementation under
 * test.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define UMAD_HDR_SIZE 64 /* struct ib_user_mad_hdr with pkey_index */

size_t umad_size(void);
void *umad_get_mad(void *umad);

static int from_umad2sim(const void *caller)
{
	Dl_info info;

	return dladdr(caller, &info) && info.dli_fname &&
	       strstr(info.dli_fname, "umad2sim");
}

size_t umad_size(void)
{
	size_t (*next)(void);

	if (from_umad2sim(__builtin_return_address(0)))
		return UMAD_HDR_SIZE;
	next = (size_t(*)(void))dlsym(RTLD_NEXT, "umad_size");
	return next ? next() : UMAD_HDR_SIZE;
}

void *umad_get_mad(void *umad)
{
	void *(*next)(void *);

	if (from_umad2sim(__builtin_return_address(0)))
		return (uint8_t *)umad + UMAD_HDR_SIZE;
	next = (void *(*)(void *))dlsym(RTLD_NEXT, "umad_get_mad");
	return next ? next(umad) : (uint8_t *)umad + UMAD_HDR_SIZE;
}
