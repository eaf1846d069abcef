/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What a schematized reference source (tests/mutants/srcmut/srcmut.py)
 * needs: the mutant this process runs, read once from RDMACONF_SRCMUT
 * before main (0, or unset: none), and where it marks the points it
 * reaches when RDMACONF_SRCMUT_COVER names a file (one byte a point,
 * shared by every process of the run).  Included first by every
 * generated file: no system header.
 */
#ifndef RDMACONF_SRCMUT_RT_H
#define RDMACONF_SRCMUT_RT_H

extern int rc_srcmut;
extern unsigned char *rc_srcmut_cov;

/* is mutant @n the one this process runs? */
#define RC_SM(n) __builtin_expect(rc_srcmut == (n), 0)
/* point @k is reached */
#define RC_COV(k)                                         \
	((void)(__builtin_expect(rc_srcmut_cov != 0, 0) ? \
			(rc_srcmut_cov[k] = 1) :          \
			0))

#endif
