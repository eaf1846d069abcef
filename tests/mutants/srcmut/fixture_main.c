// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Calls every function of srcmut's fixture on inputs under which each of
 * its mutants prints something else (tests/e2e/test_srcmut.py).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "fixture.h"

int main(void)
{
	int (*const rel[])(int, int) = { fx_lt, fx_le, fx_gt,
					 fx_ge, fx_eq, fx_ne };
	long (*const compound[])(long, long) = { fx_addeq, fx_subeq, fx_muleq,
						 fx_diveq, fx_modeq, fx_andeq,
						 fx_oreq,  fx_xoreq, fx_shleq,
						 fx_shreq };
	unsigned int (*const bits[])(unsigned int,
				     unsigned int) = { fx_and, fx_or, fx_xor,
						       fx_shl, fx_shr };
	int a[3] = { 0, 0, 0 };
	struct fx_box b = { .w = 1 };
	unsigned int i;
	int x;

	for (i = 0; i < sizeof(rel) / sizeof(rel[0]); i++)
		printf("rel%u %d %d %d\n", i, rel[i](1, 2), rel[i](2, 2),
		       rel[i](3, 2));
	printf("ptr %d %d %d\n", fx_ptr(a, a + 1), fx_ptr(a + 1, a + 1),
	       fx_ptr(a + 2, a + 1));
	printf("arith %ld %ld\n", fx_arith(7, 2), fx_arith(9, 4));
	for (i = 0; i < sizeof(compound) / sizeof(compound[0]); i++)
		printf("compound%u %ld %ld\n", i, compound[i](7, 3),
		       compound[i](8, 3));
	for (i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
		printf("bits%u %u %u\n", i, bits[i](6, 3), bits[i](5, 1));
	printf("const %d\n", fx_const(3));
	printf("table %d %d\n", fx_table(0), fx_table(1));
	printf("case %d %d %d\n", fx_case(1), fx_case(2), fx_case(3));
	printf("be %x %x %" PRIx64 "\n", fx_htobe16(0x1234),
	       fx_htobe32(0x12345678), fx_htobe64(0x0102030405060708));
	printf("toh %x %x %" PRIx64 "\n", fx_be16toh(0x1234),
	       fx_be32toh(0x12345678), fx_be64toh(0x0102030405060708));
	printf("net %x\n", fx_net(0x1234, 0x12345678));
	fx_field(&b, 5);
	printf("field %d %d\n", b.v, b.w);
	fx_out(a, 7);
	printf("out %d %d %d\n", a[0], a[1], a[2]);
	errno = 0;
	x = fx_errno(4);
	printf("errno %d %d %d\n", x, errno, fx_level());
	b.v = 0;
	x = fx_truth(&b);
	printf("truth %d %d", x, b.ok);
	b.v = 1;
	b.ok = false;
	printf(" %d %d\n", fx_truth(&b), b.ok);
	printf("name %s %s\n", fx_name(1) ? fx_name(1) : "(null)",
	       fx_name(0) ? fx_name(0) : "(null)");
	printf("if %d %d\n", fx_if(0), fx_if(3));
	printf("loops %u %u %u %u %u %u\n", fx_while(5), fx_while(12), fx_do(9),
	       fx_do(13), fx_for(5), fx_for(12));
	return 0;
}
