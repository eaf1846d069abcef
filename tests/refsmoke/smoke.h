/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * ref-smoke: the libibverbs control path walked on both implementations
 * on a real device, and what a caller sees of each compared.
 *
 * A walk runs on one side (struct side) and records what it observes
 * under a key ("rxe0/cq/cqe"): see() values the two sides must share,
 * note() values that are each side's own (handles, keys, QP numbers).
 * require() checks what a page requires of that side alone, citing it.
 * Each side walks in a child process of its own, under a watchdog, and
 * sends each observation to the parent as it makes it: a crash or a hang
 * is a FAIL after the last thing seen, not the end of the run.  Once both
 * sides have walked, the observations are compared key by key
 * (report.c).  Output, one line each:
 *
 *	ok KEY VALUE
 *	DIFF KEY system=VALUE reference=VALUE
 *	FAIL SIDE WHAT (the page's sentence)
 *	note SIDE KEY VALUE
 *	ref-smoke: N compared, D differ, F failed
 */
#ifndef RDMACONF_REFSMOKE_H
#define RDMACONF_REFSMOKE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "../../harness/impl.h"

struct obs {
	char key[128];
	char val[192];
	bool shared; /* compared with the other side */
};

struct side {
	const char *name; /* "system", "reference" */
	const struct rc_ops *ops;
	struct obs *obs;
	size_t n, cap;
	unsigned int fails;
	char dev[64]; /* the device walked now: keys' prefix */
	bool iwarp; /* its transport: RC needs a connection */
	FILE *out; /* the walking child's line to the parent */
	char last[128]; /* the last key the parent took */
};

void see(struct side *s, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void note(struct side *s, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* false (and a FAIL line) when @cond does not hold */
bool require(struct side *s, bool cond, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* @fn(@s, @arg) in a child of its own: what it sees counts, and a crash
 * is seen under @key ("crash (signal 11)") instead of ending the walk */
void isolated(struct side *s, const char *key,
	      void (*fn)(struct side *, void *), void *arg);
/* an errno value by name ("EINVAL"), or its number */
const char *errname(int err);

/* In the parent: one line of the walking child's (a FAIL is printed). */
void take_line(struct side *s, char *line);
/* Compare and print both sides' observations; the number that differ. */
unsigned int report(const struct side *sys, const struct side *ref,
		    unsigned int *compared);

/* The walks, in the order main runs them; each leaves nothing behind. */
void walk_devices(struct side *s);
struct ibv_context *open_by_name(struct side *s, const char *name);
void walk_context(struct side *s, struct ibv_context *ctx);
void walk_memory(struct side *s, struct ibv_context *ctx);
void walk_queues(struct side *s, struct ibv_context *ctx);
void walk_qps(struct side *s, struct ibv_context *ctx);
void walk_import(struct side *s, struct ibv_context *ctx);
/* the reference only: a device of a driver it has no part for */
void walk_no_provider(struct side *s, const char *name);

/* What the process holds of the devices: fds and uverbs mappings. */
struct holdings {
	int fds, maps;
};
void holdings(struct holdings *h);

#endif
