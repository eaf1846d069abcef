/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* srcmut's fixture (fixture.c), as fixture_main.c calls it */
#ifndef RDMACONF_SRCMUT_FIXTURE_H
#define RDMACONF_SRCMUT_FIXTURE_H

#include <stdbool.h>
#include <stdint.h>

struct fx_box {
	int v;
	int w;
	bool ok;
};

int fx_lt(int x, int y);
int fx_le(int x, int y);
int fx_gt(int x, int y);
int fx_ge(int x, int y);
int fx_eq(int x, int y);
int fx_ne(int x, int y);
int fx_ptr(const int *p, const int *q);
long fx_arith(long x, long y);
long fx_addeq(long r, long y);
long fx_subeq(long r, long y);
long fx_muleq(long r, long y);
long fx_diveq(long r, long y);
long fx_modeq(long r, long y);
long fx_andeq(long r, long y);
long fx_oreq(long r, long y);
long fx_xoreq(long r, long y);
long fx_shleq(long r, long y);
long fx_shreq(long r, long y);
unsigned int fx_and(unsigned int x, unsigned int y);
unsigned int fx_or(unsigned int x, unsigned int y);
unsigned int fx_xor(unsigned int x, unsigned int y);
unsigned int fx_shl(unsigned int x, unsigned int y);
unsigned int fx_shr(unsigned int x, unsigned int y);
int fx_const(int x);
int fx_table(int i);
int fx_case(int x);
uint16_t fx_htobe16(uint16_t v);
uint32_t fx_htobe32(uint32_t v);
uint64_t fx_htobe64(uint64_t v);
uint16_t fx_be16toh(uint16_t v);
uint32_t fx_be32toh(uint32_t v);
uint64_t fx_be64toh(uint64_t v);
uint32_t fx_net(uint16_t s, uint32_t l);
void fx_field(struct fx_box *b, int v);
void fx_out(int *p, int v);
int fx_errno(int v);
int fx_level(void);
bool fx_truth(struct fx_box *b);
const char *fx_name(int x);
int fx_if(int n);
unsigned int fx_while(unsigned int n);
unsigned int fx_do(unsigned int n);
unsigned int fx_for(unsigned int n);

#endif
