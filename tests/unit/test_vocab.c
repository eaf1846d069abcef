// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The vocabulary tables: every name read back is the name written, none
 * twice, and what each word implies holds together. */
#include <criterion/criterion.h>
#include <string.h>

#include "../../harness/vocab.h"

Test(vocab, every_name_reads_back_as_itself)
{
	int i;

	for (i = 0; i < RC_NVERDICTS; i++)
		cr_assert_eq(rc_verdict_parse(rc_verdict_name(i)), i, "%s",
			     rc_verdict_name(i));
	for (i = 1; i < RC_NFAIL_KINDS; i++)
		cr_assert_eq(rc_fail_kind_parse(rc_fail_kind_qualifier(i)), i,
			     "%s", rc_fail_kind_qualifier(i));
	for (i = RC_BASIS_DOCUMENTED; i < RC_NBASES; i++)
		cr_assert_eq(rc_basis_parse(rc_basis_name(i)), i, "%s",
			     rc_basis_name(i));
	for (i = 0; i < RC_NIMPLS; i++)
		cr_assert_eq(rc_impl_parse(rc_impl_name(i)), i);
	for (i = 0; i < RC_NENTRY_KINDS; i++)
		cr_assert_eq(rc_entry_kind_parse(rc_entry_kind_name(i)), i);
	cr_assert_eq(rc_verdict_parse("BOGUS"), -1);
	cr_assert_eq(rc_verdict_parse(NULL), -1);
	cr_assert_eq(rc_fail_kind_parse(""), -1,
		     "the empty qualifier is "
		     "no qualifier");
	cr_assert_eq(rc_basis_parse("none"), -1);
}

Test(vocab, ranks_order_every_verdict)
{
	int i, k;

	cr_assert_eq(rc_verdict_rank(RC_PASS), 0);
	for (i = 0; i < RC_NVERDICTS; i++)
		for (k = i + 1; k < RC_NVERDICTS; k++)
			cr_assert_neq(rc_verdict_rank(i), rc_verdict_rank(k),
				      "%s and %s share a rank",
				      rc_verdict_name(i), rc_verdict_name(k));
	cr_assert_gt(rc_verdict_rank(RC_CRASH), rc_verdict_rank(RC_FAIL));
	cr_assert_gt(rc_verdict_rank(RC_FAIL), rc_verdict_rank(RC_XFAIL));
	cr_assert_gt(rc_verdict_rank(RC_XFAIL), rc_verdict_rank(RC_SKIP));
}

Test(vocab, what_the_verdicts_imply)
{
	/* ran: the call was run; CRASH and HANG too (one definition) */
	cr_assert(rc_verdict_ran(RC_CRASH) && rc_verdict_ran(RC_HANG));
	cr_assert(!rc_verdict_ran(RC_SKIP) && !rc_verdict_ran(RC_ABSENT) &&
		  !rc_verdict_ran(RC_UNSUPPORTED) &&
		  !rc_verdict_ran(RC_BROKEN));
	cr_assert(!rc_verdict_bad(RC_PASS) && !rc_verdict_bad(RC_XFAIL) &&
		  !rc_verdict_bad(RC_SKIP));
	cr_assert(rc_verdict_bad(RC_ABSENT), "a missing documented call "
					     "does not conform");
	/* a break is a failure against the basis; XPASS and BROKEN are no
	 * statement about the call */
	cr_assert(rc_verdict_breaks(RC_XFAIL) && !rc_verdict_breaks(RC_XPASS) &&
		  !rc_verdict_breaks(RC_BROKEN));
}

Test(vocab, only_its_own_qualifier_covers_a_verdict)
{
	int v;

	for (v = 0; v < RC_NVERDICTS; v++) {
		enum rc_fail_kind k = rc_fail_kind_of_verdict(v);

		if (k != RC_FAIL_NONE)
			cr_assert_eq(rc_fail_kind_covers(k), v);
	}
	cr_assert_eq(rc_fail_kind_of_verdict(RC_CRASH), RC_FAIL_CRASH);
	cr_assert_eq(rc_fail_kind_of_verdict(RC_FAIL), RC_FAIL_NONE);
	cr_assert_str_eq(rc_entry_kind_choices(), "XFAIL, DIVERGE, SKIP");
	cr_assert(strstr(rc_fail_kind_choices(), "success, return, errno"));
}
