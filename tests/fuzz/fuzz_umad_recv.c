// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * libFuzzer: the reference umad_recv on whatever a descriptor gives it
 * (here a pipe standing in for /dev/infiniband/umadN): short reads, a
 * header whose length field lies, every *length the caller may pass.
 * Then the header accessors on the same bytes.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

#include "../../reference/umad/ref_umad.h"
#include "../../reference/umad/ports.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int p[2] = { -1, -1 };
	uint8_t buf[REF_UMAD_HDR_SIZE + 1024];
	int len, n;

	if (p[0] < 0) {
		if (pipe2(p, O_NONBLOCK | O_CLOEXEC) || ref_port_add(p[0]))
			return 0;
	}
	if (size < 2)
		return 0;
	len = (data[0] | data[1] << 8) % 1100;
	n = write(p[1], data + 2, size - 2 > 4096 ? 4096 : size - 2);
	memset(buf, 0, sizeof(buf));
	ref_umad_recv(p[0], buf, &len, 0);
	while (read(p[0], buf, sizeof(buf)) > 0)
		;
	(void)n;
	memcpy(buf, data, size < sizeof(buf) ? size : sizeof(buf));
	ref_umad_status(buf);
	ref_umad_get_pkey(buf);
	ref_umad_get_mad_addr(buf);
	ref_umad_get_mad(buf);
	return 0;
}
