// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * srcmut's fixture: every kind of point of every operator of srcmut.py
 * at least once.  A line's comment "srcmut: OP..." names every point
 * srcmut.py must find on it (OP*N: N of them); a comment of its own names
 * those of the line after it.  tests/e2e/test_srcmut.py counts them, and
 * finds no others; fixture_main.c calls each function on inputs under
 * which every mutant changes what it prints.
 */
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include "fixture.h"

#define LIMIT 9
enum { RED, GREEN };

static const int weights[] = { 40, 50 }; /* srcmut: constant constant */
static int level;

int fx_lt(int x, int y)
{
	return x < y; /* srcmut: relational return */
}

int fx_le(int x, int y)
{
	return x <= y; /* srcmut: relational return */
}

int fx_gt(int x, int y)
{
	return x > y; /* srcmut: relational return */
}

int fx_ge(int x, int y)
{
	return x >= y; /* srcmut: relational return */
}

int fx_eq(int x, int y)
{
	return x == y; /* srcmut: relational return */
}

int fx_ne(int x, int y)
{
	return x != y; /* srcmut: relational return */
}

int fx_ptr(const int *p, const int *q)
{
	return p < q; /* srcmut: relational return */
}

long fx_arith(long x, long y)
{
	long r = x + y; /* srcmut: arithmetic */

	r = r - y * x; /* srcmut: arithmetic arithmetic */
	r = r + x / y; /* srcmut: arithmetic arithmetic */
	r = r + x % y; /* srcmut: arithmetic arithmetic */
	r++; /* srcmut: arithmetic */
	--r; /* srcmut: arithmetic */
	return r; /* srcmut: return */
}

long fx_addeq(long r, long y)
{
	r += y; /* srcmut: arithmetic */
	return r; /* srcmut: return */
}

long fx_subeq(long r, long y)
{
	r -= y; /* srcmut: arithmetic */
	return r; /* srcmut: return */
}

long fx_muleq(long r, long y)
{
	r *= y; /* srcmut: arithmetic */
	return r; /* srcmut: return */
}

long fx_diveq(long r, long y)
{
	r /= y; /* srcmut: arithmetic */
	return r; /* srcmut: return */
}

long fx_modeq(long r, long y)
{
	r %= y; /* srcmut: arithmetic */
	return r; /* srcmut: return */
}

long fx_andeq(long r, long y)
{
	r &= y; /* srcmut: bitwise */
	return r; /* srcmut: return */
}

long fx_oreq(long r, long y)
{
	r |= y; /* srcmut: bitwise */
	return r; /* srcmut: return */
}

long fx_xoreq(long r, long y)
{
	r ^= y; /* srcmut: bitwise */
	return r; /* srcmut: return */
}

long fx_shleq(long r, long y)
{
	r <<= y; /* srcmut: shift */
	return r; /* srcmut: return */
}

long fx_shreq(long r, long y)
{
	r >>= y; /* srcmut: shift */
	return r; /* srcmut: return */
}

unsigned int fx_and(unsigned int x, unsigned int y)
{
	return x & y; /* srcmut: bitwise return */
}

unsigned int fx_or(unsigned int x, unsigned int y)
{
	return x | y; /* srcmut: bitwise return */
}

unsigned int fx_xor(unsigned int x, unsigned int y)
{
	return x ^ y; /* srcmut: bitwise return */
}

unsigned int fx_shl(unsigned int x, unsigned int y)
{
	return x << y; /* srcmut: shift return */
}

unsigned int fx_shr(unsigned int x, unsigned int y)
{
	return x >> y; /* srcmut: shift return */
}

int fx_const(int x)
{
	/* srcmut: arithmetic*4 constant*4 return */
	return x * 100 + 'a' + LIMIT + GREEN;
}

int fx_table(int i)
{
	return weights[i]; /* srcmut: return */
}

int fx_case(int x)
{
	switch (x) {
	case 2: /* srcmut: constant */
		return x; /* srcmut: return */
	default:
		return -x; /* srcmut: return */
	}
}

uint16_t fx_htobe16(uint16_t v)
{
	return htobe16(v); /* srcmut: byteorder return */
}

uint32_t fx_htobe32(uint32_t v)
{
	return htobe32(v); /* srcmut: byteorder return */
}

uint64_t fx_htobe64(uint64_t v)
{
	return htobe64(v); /* srcmut: byteorder return */
}

uint16_t fx_be16toh(uint16_t v)
{
	return be16toh(v); /* srcmut: byteorder return */
}

uint32_t fx_be32toh(uint32_t v)
{
	return be32toh(v); /* srcmut: byteorder return */
}

uint64_t fx_be64toh(uint64_t v)
{
	return be64toh(v); /* srcmut: byteorder return */
}

uint32_t fx_net(uint16_t s, uint32_t l)
{
	/* srcmut: arithmetic*3 byteorder*4 return */
	return htons(s) + htonl(l) + ntohs(s) + ntohl(l);
}

void fx_field(struct fx_box *b, int v)
{
	b->v = v; /* srcmut: assign-delete */
	b->w += v; /* srcmut: assign-delete arithmetic */
}

void fx_out(int *p, int v)
{
	*p = v; /* srcmut: assign-delete */
	p[1] = v; /* srcmut: assign-delete constant */
}

int fx_errno(int v)
{
	level = v; /* srcmut: assign-delete */
	return errno = v; /* srcmut: assign-delete return */
}

int fx_level(void)
{
	return level; /* srcmut: return */
}

bool fx_truth(struct fx_box *b)
{
	b->ok = true; /* srcmut: assign-delete constant */
	return b->v; /* srcmut: return */
}

const char *fx_name(int x)
{
	return x ? "yes" : 0; /* srcmut: negate return */
}

int fx_if(int n)
{
	int s = n;

	if (n) /* srcmut: negate */
		s = s * n; /* srcmut: arithmetic */
	return s; /* srcmut: return */
}

unsigned int fx_while(unsigned int n)
{
	unsigned int s = n;

	while (n) { /* srcmut: negate */
		n = n / 4; /* srcmut: arithmetic constant */
		s = s + n; /* srcmut: arithmetic */
	}
	return s; /* srcmut: return */
}

unsigned int fx_do(unsigned int n)
{
	unsigned int s = n;

	do
		s = s / 4; /* srcmut: arithmetic constant */
	while (!s); /* srcmut: negate */
	return s; /* srcmut: return */
}

unsigned int fx_for(unsigned int n)
{
	unsigned int s = n;
	unsigned int i;

	for (i = n; i; i = i / 4) /* srcmut: negate arithmetic constant */
		s = s + i; /* srcmut: arithmetic */
	return s; /* srcmut: return */
}
