// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A fleet's directory read at the scale of a cluster (report_fleet.h):
 * fleet.json's nodes, then each node's results file once, folded into a
 * verdict vector and a verdict class, and freed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "escape.h"
#include "rdmaconf.h"
#include "report_fleet.h"
#include "results.h"

/* ---- the sets ---- */

static uint64_t hash(const void *p, size_t len)
{
	const unsigned char *s = p;
	uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a */

	while (len--) {
		h ^= *s++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		abort();
	return p;
}

static void place(struct rc_fleet_set *s, unsigned int k)
{
	size_t mask = s->nslots - 1, i;

	for (i = s->e[k].hash & mask; s->slot[i]; i = (i + 1) & mask)
		;
	s->slot[i] = k + 1;
}

long rc_fleet_set_find(struct rc_fleet_set *s, const void *key, size_t len,
		       bool add)
{
	uint64_t h = hash(key, len);
	struct rc_fleet_key *e;
	size_t i, mask;
	unsigned int k;

	if (s->nslots) {
		mask = s->nslots - 1;
		for (i = h & mask; (k = s->slot[i]); i = (i + 1) & mask) {
			e = &s->e[k - 1];
			if (e->hash == h && e->len == len &&
			    !memcmp(e->key, key, len))
				return k - 1;
		}
	}
	if (!add)
		return -1;
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 64;
		s->e = xrealloc(s->e, s->cap * sizeof(*s->e));
	}
	e = &s->e[s->n];
	e->key = xrealloc(NULL, len + 1);
	memcpy(e->key, key, len);
	e->key[len] = 0;
	e->len = len;
	e->hash = h;
	if (2 * (s->n + 1) > s->nslots) {
		s->nslots = s->nslots ? 2 * s->nslots : 128;
		free(s->slot);
		s->slot = calloc(s->nslots, sizeof(*s->slot));
		if (!s->slot)
			abort();
		for (k = 0; k < s->n; k++)
			place(s, k);
	}
	place(s, s->n);
	return s->n++;
}

void rc_fleet_set_free(struct rc_fleet_set *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->e[i].key);
	free(s->e);
	free(s->slot);
	memset(s, 0, sizeof(*s));
}

long rc_fleet_set_str(struct rc_fleet_set *s, const char *str, bool add)
{
	return rc_fleet_set_find(s, str, strlen(str), add);
}

/* ---- a case's outcome in a byte ---- */

#define NV (RC_NVERDICTS + 1)
BUILD_ASSERT(1 + NV * NV * 2 <= 256);

static int verdict_index(const struct rc_jv *c, enum rc_impl_id impl)
{
	int v = rc_verdict_parse(rc_case_verdict(c, impl));

	return v < 0 ? RC_NVERDICTS : v;
}

uint8_t rc_fleet_code(const struct rc_jv *c)
{
	return 1 +
	       2 * (verdict_index(c, RC_IMPL_SYSTEM) * NV +
		    verdict_index(c, RC_IMPL_REFERENCE)) +
	       rc_report_case_ok(c);
}

bool rc_fleet_code_ok(uint8_t code)
{
	return code && (code - 1) % 2;
}

const char *rc_fleet_code_verdict(uint8_t code, int impl)
{
	int pair = (code - 1) / 2;
	int v = impl == RC_IMPL_SYSTEM ? pair / NV : pair % NV;

	return !code || v >= RC_NVERDICTS ? "-" : rc_verdict_name(v);
}

const char *rc_fleet_code_text(uint8_t code, char *buf, size_t len)
{
	if (!code)
		snprintf(buf, len, "not run");
	else
		snprintf(buf, len, "%s/%s%s",
			 rc_fleet_code_verdict(code, RC_IMPL_SYSTEM),
			 rc_fleet_code_verdict(code, RC_IMPL_REFERENCE),
			 rc_fleet_code_ok(code) ? "" : " not ok");
	return buf;
}

/* ---- fleet.json ---- */

/* A name that can be a file's in DIR: no path, no hidden file */
static bool file_name(const char *s)
{
	size_t n = s ? strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnop"
				 "qrstuvwxyz0123456789._-") :
		       0;

	return n && !s[n] && n <= 200 && s[0] != '.' && s[0] != '-';
}

const char *rc_fleet_str(const struct rc_jv *o, const char *key,
			 const char *dflt)
{
	const char *s = rc_jv_str(o, key);

	return s ? s : dflt;
}

int rc_fleet_open(struct rc_fleet *f, const char *dir)
{
	const struct rc_jv *nodes, *st;
	char path[4096], err[512], shown[256];
	size_t i;

	memset(f, 0, sizeof(*f));
	f->dir = dir;
	snprintf(path, sizeof(path), "%s/fleet.json", dir);
	f->doc = rc_json_load(path, err, sizeof(err));
	if (!f->doc) {
		fprintf(stderr, "rdmaconf: %s\n", err);
		return -1;
	}
	nodes = rc_jv_get(f->doc, "nodes");
	if (!nodes || nodes->type != RC_JARR) {
		fprintf(stderr, "rdmaconf: %s: no \"nodes\" array\n", path);
		return -1;
	}
	if (!nodes->n) {
		fprintf(stderr,
			"rdmaconf: %s names no node: a fleet of none "
			"tested nothing\n",
			path);
		return -1;
	}
	f->n = nodes->n;
	f->nodes = calloc(f->n, sizeof(*f->nodes));
	if (!f->nodes)
		abort();
	for (i = 0; i < f->n; i++) {
		const struct rc_jv *nd = &nodes->items[i];
		struct rc_fleet_node *fn = &f->nodes[i];
		const char *res = rc_jv_str(nd, "results");

		fn->name = rc_fleet_str(nd, "node", NULL);
		if (!fn->name) {
			fprintf(stderr,
				"rdmaconf: %s: node %zu has no "
				"\"node\" name\n",
				path, i + 1);
			return -1;
		}
		if ((size_t)rc_fleet_set_str(&f->names, fn->name, true) != i) {
			fprintf(stderr,
				"rdmaconf: %s: node %s is there "
				"twice\n",
				path,
				rc_term_str(fn->name, shown, sizeof(shown)));
			return -1;
		}
		fn->partner = rc_fleet_str(nd, "partner", "-");
		st = rc_jv_get(nd, "status");
		fn->status = st && st->type == RC_JNUM ? (int)st->num : -1;
		fn->page = file_name(fn->name);
		if (res && !file_name(res)) {
			fprintf(stderr,
				"rdmaconf: %s: node %s's results "
				"\"%s\" are not a file of %s\n",
				path,
				rc_term_str(fn->name, shown, sizeof(shown)),
				rc_term_str(res, err, sizeof(err)), dir);
			return -1;
		}
		fn->results = res;
	}
	return 0;
}

/* ---- the fold ---- */

/* What makes two nodes the same kind of machine */
static unsigned int fingerprint(struct rc_fleet *f, const struct rc_jv *doc)
{
	const struct rc_jv *dev = rc_jv_get(doc, "device");
	const struct rc_jv *host = rc_jv_get(doc, "host");
	char v[5][128];
	struct rc_str fp = {};
	long k;

	rc_str_printf(
		&fp,
		"driver %s, part %s, firmware %s, Linux %s, "
		"rdma-core %s",
		rc_report_text(dev, "driver", v[0], sizeof(v[0]))[0] ? v[0] :
								       "-",
		rc_report_text(dev, "vendor_part_id", v[1], sizeof(v[1]))[0] ?
			v[1] :
			"-",
		rc_report_text(dev, "fw_ver", v[2], sizeof(v[2]))[0] ? v[2] :
								       "-",
		rc_report_text(host, "kernel", v[3], sizeof(v[3]))[0] ? v[3] :
									"-",
		rc_report_text(host, "rdma_core", v[4], sizeof(v[4]))[0] ?
			v[4] :
			"-");
	k = rc_fleet_set_find(&f->fps, fp.s, fp.len, true);
	rc_str_free(&fp);
	return k;
}

/* A remote row that did not run, its partner gone (run.c) */
static bool gone(const struct rc_jv *c)
{
	static const char *const keys[] = { "system_detail",
					    "reference_detail" };
	size_t i, n = strlen(RC_PARTNER_GONE);

	for (i = 0; i < ARRAY_SIZE(keys); i++)
		if (!strncmp(rc_fleet_str(c, keys[i], ""), RC_PARTNER_GONE, n))
			return true;
	return false;
}

/* A class's key: its fingerprint (4 bytes), whether its nodes' runs
 * completed (1), its vector */
#define KEY 5

/* Node @i's results into its fingerprint, its vector and its class */
static void fold(struct rc_fleet *f, size_t i, const struct rc_report_run *run)
{
	struct rc_fleet_node *nd = &f->nodes[i];
	const struct rc_jv *res = run->results;
	const struct rc_jv *complete = rc_jv_get(run->doc, "complete");
	const char *guid =
		rc_jv_str(rc_jv_get(run->doc, "device"), "node_guid");
	struct rc_fleet_class *c;
	size_t k, before, len = 0, need = KEY + f->ids.n + res->n;
	uint32_t fp = fingerprint(f, run->doc);
	uint8_t *vec;
	long idx;

	nd->loaded = true;
	nd->complete = complete && complete->type == RC_JBOOL && complete->b;
	nd->guid = guid && *guid ? strdup(guid) : NULL;
	nd->fp = fp;
	if (need > f->scratch_cap) {
		f->scratch_cap = 2 * need;
		f->scratch = xrealloc(f->scratch, f->scratch_cap);
	}
	memset(f->scratch, 0, need);
	memcpy(f->scratch, &fp, 4);
	f->scratch[4] = nd->complete;
	vec = f->scratch + KEY;
	for (k = 0; k < res->n; k++) {
		const struct rc_jv *cs = &res->items[k];

		/* the results are checked: every case has its id */
		idx = rc_fleet_set_str(&f->ids, rc_jv_str(cs, "id"), true);
		vec[idx] = rc_fleet_code(cs);
		nd->not_ok += !rc_fleet_code_ok(vec[idx]);
		nd->partner_gone += gone(cs);
		if ((size_t)idx + 1 > len)
			len = idx + 1;
	}
	nd->cases = res->n;
	before = f->keys.n;
	idx = rc_fleet_set_find(&f->keys, f->scratch, KEY + len, true);
	if (f->keys.n > before) {
		if (f->keys.n > f->classes_cap) {
			f->classes_cap = f->keys.cap;
			f->classes =
				xrealloc(f->classes,
					 f->classes_cap * sizeof(*f->classes));
		}
		c = &f->classes[idx];
		memset(c, 0, sizeof(*c));
		c->fp = fp;
		c->complete = nd->complete;
		c->len = len;
	}
	c = &f->classes[idx];
	c->vec = (const uint8_t *)f->keys.e[idx].key + KEY;
	if (c->nodes < RC_FLEET_NAMES)
		c->first[c->nodes] = i;
	c->nodes++;
	nd->cls = idx;
}

int rc_fleet_read(struct rc_fleet *f, rc_fleet_fn fn, void *arg)
{
	struct rc_report_run run;
	char path[4096], err[512];
	size_t i;
	int ret = 0;

	for (i = 0; i < f->n && !ret; i++) {
		struct rc_fleet_node *nd = &f->nodes[i];

		if (!nd->results)
			continue;
		snprintf(path, sizeof(path), "%s/%s", f->dir, nd->results);
		memset(&run, 0, sizeof(run));
		if (rc_report_load_one(path, &run, err, sizeof(err))) {
			nd->unreadable = strdup(err);
			if (!nd->unreadable)
				abort();
			continue;
		}
		fold(f, i, &run);
		if (fn)
			ret = fn(f, i, &run, arg);
		rc_jv_free(run.doc);
	}
	return ret;
}

void rc_fleet_free(struct rc_fleet *f)
{
	size_t i;

	for (i = 0; i < f->n; i++) {
		free(f->nodes[i].unreadable);
		free(f->nodes[i].guid);
	}
	free(f->nodes);
	free(f->classes);
	free(f->scratch);
	rc_fleet_set_free(&f->names);
	rc_fleet_set_free(&f->ids);
	rc_fleet_set_free(&f->fps);
	rc_fleet_set_free(&f->keys);
	rc_jv_free(f->doc);
	memset(f, 0, sizeof(*f));
}
