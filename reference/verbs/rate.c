// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_rate_to_mult(3), mult_to_ibv_rate(3), ibv_rate_to_mbps(3),
 * mbps_to_ibv_rate(3).
 *
 * enum ibv_rate is the kernel's enum ib_rate (the static_rate of an
 * address vector).  ibv_rate_to_mult "converts the IB transmission rate
 * enumeration rate to a multiple of 2.5 Gbit/sec": the rates that are a
 * whole multiple of it have one (25 Gb/s is 10), the FDR rates (14, 56,
 * 112, 168 Gb/s) are none, and neither is a value that names no rate
 * (-1; the page names no failure).  The kernel's own ib_rate_to_mult
 * (drivers/infiniband/core/verbs.c) rounds the FDR rates to 6, 22, 45 and
 * 67 instead: a reading the page does not allow.  The Mb/s of the FDR and
 * later rates are their lanes' real data rates (14.0625, 25.78125, 53.125
 * and 106.25 Gb/s a lane), as the kernel's ib_rate_to_mbps has them; the
 * kernel of Linux 6.1 stops at 600 Gb/s, and 800 and 1200 are 8 and 12
 * lanes of 106.25 Gb/s by the same rule.  A multiplier or Mb/s that is no
 * rate's gives IBV_RATE_MAX, which asks for no particular rate (the
 * kernel's mult_to_ib_rate gives IB_RATE_PORT_CURRENT, the same value).
 */
#include <infiniband/verbs.h>

#include "ref_verbs.h"

/* a rate that is no whole multiple of 2.5 Gb/s */
#define NO_MULT -1

static const struct rate {
	enum ibv_rate rate;
	int mult, mbps;
} rates[] = {
	{ IBV_RATE_2_5_GBPS, 1, 2500 },
	{ IBV_RATE_5_GBPS, 2, 5000 },
	{ IBV_RATE_10_GBPS, 4, 10000 },
	{ IBV_RATE_20_GBPS, 8, 20000 },
	{ IBV_RATE_30_GBPS, 12, 30000 },
	{ IBV_RATE_40_GBPS, 16, 40000 },
	{ IBV_RATE_60_GBPS, 24, 60000 },
	{ IBV_RATE_80_GBPS, 32, 80000 },
	{ IBV_RATE_120_GBPS, 48, 120000 },
	{ IBV_RATE_14_GBPS, NO_MULT, 14062 },
	{ IBV_RATE_56_GBPS, NO_MULT, 56250 },
	{ IBV_RATE_112_GBPS, NO_MULT, 112500 },
	{ IBV_RATE_168_GBPS, NO_MULT, 168750 },
	{ IBV_RATE_25_GBPS, 10, 25781 },
	{ IBV_RATE_100_GBPS, 40, 103125 },
	{ IBV_RATE_200_GBPS, 80, 206250 },
	{ IBV_RATE_300_GBPS, 120, 309375 },
	{ IBV_RATE_28_GBPS, 11, 28125 },
	{ IBV_RATE_50_GBPS, 20, 53125 },
	{ IBV_RATE_400_GBPS, 160, 425000 },
	{ IBV_RATE_600_GBPS, 240, 637500 },
	{ IBV_RATE_800_GBPS, 320, 850000 },
	{ IBV_RATE_1200_GBPS, 480, 1275000 },
};

#define NRATES (sizeof(rates) / sizeof(rates[0]))

static const struct rate *by_rate(enum ibv_rate rate)
{
	unsigned int i;

	for (i = 0; i < NRATES; i++)
		if (rates[i].rate == rate)
			return &rates[i];
	return NULL;
}

int ref_ibv_rate_to_mult(enum ibv_rate rate)
{
	const struct rate *r = by_rate(rate);

	return r ? r->mult : -1;
}

enum ibv_rate ref_mult_to_ibv_rate(int mult)
{
	unsigned int i;

	for (i = 0; i < NRATES; i++)
		if (rates[i].mult == mult && mult != NO_MULT)
			return rates[i].rate;
	return IBV_RATE_MAX;
}

int ref_ibv_rate_to_mbps(enum ibv_rate rate)
{
	const struct rate *r = by_rate(rate);

	return r ? r->mbps : -1;
}

enum ibv_rate ref_mbps_to_ibv_rate(int mbps)
{
	unsigned int i;

	for (i = 0; i < NRATES; i++)
		if (rates[i].mbps == mbps)
			return rates[i].rate;
	return IBV_RATE_MAX;
}
