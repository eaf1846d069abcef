// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Diagnostics and buffers: umad_debug(3), umad_dump(3), umad_addr_dump(3),
 * umad_alloc(3), umad_free(3).
 *
 * The pages fix no format for the dumps; this one prints every field of
 * the header in host terms (the address's network-order fields
 * converted), by its <infiniband/umad.h> name, in decimal, and the GID in
 * the usual colon notation.
 */
#include <endian.h>
#include <stdio.h>
#include <stdlib.h>

#include "ref_umad.h"

/* "0 - no debug (the default)" */
static int debug_level;

/* "Negative values are ignored in terms of set. ... the current debug
 * level can be queried by passing a negative value as level."  "returns
 * the actual debug level." */
int ref_umad_debug(int level)
{
	if (level >= 0)
		debug_level = level;
	return debug_level;
}

void ref_umad_addr_dump(ib_mad_addr_t *addr)
{
	const uint8_t *g = addr->gid;
	int i;

	fprintf(stderr,
		"mad_addr: qpn %u qkey %u lid %u sl %u path_bits %u "
		"grh_present %u gid_index %u hop_limit %u traffic_class %u "
		"flow_label %u pkey_index %u\ngid ",
		be32toh(addr->qpn), be32toh(addr->qkey), be16toh(addr->lid),
		addr->sl, addr->path_bits, addr->grh_present, addr->gid_index,
		addr->hop_limit, addr->traffic_class, be32toh(addr->flow_label),
		addr->pkey_index);
	for (i = 0; i < 16; i += 2)
		fprintf(stderr, "%02x%02x%s", g[i], g[i + 1],
			i < 14 ? ":" : "\n");
}

/* umad_dump(3): "dumps the given umad buffer to stderr" */
void ref_umad_dump(void *umad)
{
	ib_user_mad_t *u = umad;
	const uint8_t *mad = ref_umad_get_mad(umad);
	int i;

	fprintf(stderr,
		"umad: agent_id %u status %u timeout_ms %u retries %u "
		"length %u\n",
		u->agent_id, u->status, u->timeout_ms, u->retries, u->length);
	ref_umad_addr_dump(&u->addr);
	/* the MAD header (IBA 13.4.3: 24 bytes) */
	fprintf(stderr, "mad:");
	for (i = 0; i < 24; i++)
		fprintf(stderr, " %02x", mad[i]);
	fprintf(stderr, "\n");
}

/* "allocates memory for an array of num umad buffers of size bytes";
 * "returns NULL if out of memory" */
void *ref_umad_alloc(int num, size_t size)
{
	if (num < 0)
		return NULL;
	return calloc(num, size);
}

void ref_umad_free(void *umad)
{
	free(umad);
}
