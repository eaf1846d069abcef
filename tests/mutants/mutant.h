/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Deliberately broken rdma-core, one behaviour at a time, for LD_PRELOAD:
 * every wrapper passes through to the real call unless the mutant named
 * by RDMACONF_MUTANT=call/name is one of its own.  `make mutation` runs
 * the rows of each call against each of its mutants and counts the ones
 * no verdict notices (survivors).  RDMACONF_MUTANT=list prints them all.
 */
#ifndef RDMACONF_MUTANT_H
#define RDMACONF_MUTANT_H

#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>

struct mutant {
	const char *call; /* the documented call it breaks */
	const char *name;
	const char *what; /* the behaviour it breaks, for the report */
};

#define MUTANT(var, call_, name_, what_)                            \
	static const struct mutant var = { call_, name_, what_ };   \
	static const struct mutant *const var##_ptr __attribute__(( \
		section("rc_mutants"), used, aligned(sizeof(void *)))) = &var

/* Is @m the mutant this process runs with? */
bool mutant_on(const struct mutant *m);
/* The real call, next in the lookup order. */
void *mutant_real(const char *name);
#define REAL(fn) ((__typeof__(&fn))mutant_real(#fn))

#endif
