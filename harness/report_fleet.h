/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A fleet directory (rdmaconf fleet, DIR/fleet.json and a results file
 * per node) read the way a cluster of thousands of nodes can be: each
 * node's file loaded once, in fleet.json's order, handed to a callback
 * and folded into compact data, then freed, so that no two documents are
 * in memory at once.  What is kept of a node is a verdict vector -- a
 * byte per case id of the fleet (its outcome: both verdicts and ok, or
 * not in its results) -- and its fingerprint (driver, vendor part,
 * firmware, kernel, rdma-core).  Nodes of one fingerprint with the same
 * vector are one verdict class, kept once however many nodes it has.
 *
 * rdmaconf report --fleet and the fleet's gate (gate.c) read fleets
 * through this; the report's pages are written here.
 */
#ifndef RDMACONF_REPORT_FLEET_H
#define RDMACONF_REPORT_FLEET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "report_doc.h"

/* How many names a list of nodes shows before "and N more" */
#define RC_FLEET_NAMES 8

/* A byte string of a set, with its hash */
struct rc_fleet_key {
	char *key; /* NUL-terminated (a vector's bytes too) */
	size_t len;
	uint64_t hash;
};

/* A set of byte strings, each kept once with its index (case ids,
 * fingerprints, node names, verdict vectors) */
struct rc_fleet_set {
	size_t n, cap, nslots;
	unsigned int *slot; /* index + 1; 0: free */
	struct rc_fleet_key *e;
};

/* The index of @key in @s, adding it when @add; -1 when absent */
long rc_fleet_set_find(struct rc_fleet_set *s, const void *key, size_t len,
		       bool add);
/* The same for a string */
long rc_fleet_set_str(struct rc_fleet_set *s, const char *str, bool add);
void rc_fleet_set_free(struct rc_fleet_set *s);
/* String member @key of @o, or @dflt */
const char *rc_fleet_str(const struct rc_jv *o, const char *key,
			 const char *dflt);

/* A node as fleet.json names it, and what its results file folded into */
struct rc_fleet_node {
	const char *name, *partner; /* fleet.json's ("?", "-" if none) */
	const char *results; /* its file in DIR, or NULL: none */
	int status; /* its suite's exit status; -1: the step died */
	bool page; /* its name is a file name: it has a page */
	bool loaded; /* its results were read */
	bool complete; /* ... and the run completed */
	char *unreadable; /* why its results could not be read, or NULL */
	char *guid; /* its device's node GUID, or NULL */
	unsigned int fp; /* its fingerprint, in rc_fleet.fps */
	unsigned int cls; /* its verdict class, in rc_fleet.classes */
	unsigned int cases, not_ok;
	unsigned int partner_gone; /* cases not run: their partner gone */
};

/* A verdict class: the nodes of one fingerprint with the same vector
 * (and whose runs completed, or did not) */
struct rc_fleet_class {
	unsigned int fp, nodes;
	bool complete; /* its nodes' runs completed */
	size_t len; /* of its vector */
	const uint8_t *vec;
	size_t first[RC_FLEET_NAMES]; /* its first nodes, in fleet order */
};

struct rc_fleet {
	const char *dir;
	struct rc_jv *doc; /* fleet.json */
	struct rc_fleet_node *nodes;
	size_t n;
	struct rc_fleet_set names, ids, fps, keys;
	struct rc_fleet_class *classes; /* one per keys entry */
	size_t classes_cap;
	uint8_t *scratch; /* a vector being folded */
	size_t scratch_cap;
};

/*
 * A case's outcome on a node in a byte: 0 when the case is not in its
 * results, else 1 + (system verdict, reference verdict, ok), a verdict
 * of RC_NVERDICTS being none.
 */
uint8_t rc_fleet_code(const struct rc_jv *c);
/* "PASS/XFAIL", "FAIL/PASS not ok", "not run": words of the vocabulary */
const char *rc_fleet_code_text(uint8_t code, char *buf, size_t len);
bool rc_fleet_code_ok(uint8_t code);
/* The code's verdict on @impl as rc_case_verdict() has it ("-": none) */
const char *rc_fleet_code_verdict(uint8_t code, int impl);

/*
 * DIR/fleet.json into @f: its nodes, each checked (a name once, a
 * results file that is a plain name in DIR).  0, or -1 with a one-line
 * cause on stderr.  A fleet of no node is an error: it tested nothing.
 */
int rc_fleet_open(struct rc_fleet *f, const char *dir);

/* Called with each node's loaded results (after its fold), in order;
 * non-zero stops the reading and is returned */
typedef int (*rc_fleet_fn)(struct rc_fleet *f, size_t node,
			   const struct rc_report_run *run, void *arg);
/*
 * Every node's results file, once each: loaded, folded, handed to @fn
 * (when not NULL), freed.  A file that cannot be read is that node's
 * (its unreadable cause), not the fleet's.  0, or what @fn returned.
 */
int rc_fleet_read(struct rc_fleet *f, rc_fleet_fn fn, void *arg);
void rc_fleet_free(struct rc_fleet *f);

/* rdmaconf report --fleet DIR -o OUT: an exit status of vocab.h */
int rc_report_fleet(const char *dir, const char *out);

#endif
