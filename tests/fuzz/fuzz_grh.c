// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * libFuzzer: the reference ibv_init_ah_from_wc on received bytes it did not
 * produce: a 40-byte GRH (IPv6, or IPv4 in its last 20 bytes) and the
 * completion's fields.  The device has no sysfs entries, so every GID
 * lookup fails: what is exercised is the header parsing before it.
 */
#include <stdint.h>
#include <stddef.h>
#include <string.h>

#include "../../reference/verbs/ref_verbs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ibv_device dev = { .name = "rdmaconf-fuzz-nodev" };
	struct ibv_context ctx = { .device = &dev, .cmd_fd = -1 };
	struct ibv_ah_attr attr;
	struct ibv_wc wc = {};
	uint8_t grh[40] = {};

	if (size < 8)
		return 0;
	wc.wc_flags = data[0] & 1 ? IBV_WC_GRH : 0;
	wc.slid = data[1] | data[2] << 8;
	wc.sl = data[3];
	wc.dlid_path_bits = data[4];
	memcpy(grh, data + 8, size - 8 > 40 ? 40 : size - 8);
	ref_ibv_init_ah_from_wc(&ctx, data[5], &wc,
				data[6] & 1 ? NULL : (struct ibv_grh *)grh,
				&attr);
	return 0;
}
