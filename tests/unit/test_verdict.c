// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* One checker per return convention, and the agreement comparison. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../../harness/rdmaconf.h"
#include "../../harness/row.h"

static struct rc_judgement judge(struct rc_expect e, long long ret, int err)
{
	struct rc_case c = { .id = "unit/verdict", .expect = e };
	struct rc_obs o = { .state = RC_STATE_RAN, .ret = ret, .err = err };
	struct rc_judgement j;

	rc_judge(&c, &o, 1, &j);
	return j;
}

#define ERR(cv, ...) ((struct rc_expect){ .conv = (cv), .ret = RC_RET_ERR, \
					     .errnos = { __VA_ARGS__ } })

Test(verdict, neg_errno)
{
	cr_assert_eq(judge(ERR(RC_CONV_NEG_ERRNO, EINVAL), -EINVAL, 0).verdict, RC_PASS);
	cr_assert_eq(judge(ERR(RC_CONV_NEG_ERRNO, EINVAL), -EIO, 0).kind, RC_FAIL_ERRNO);
	cr_assert_eq(judge(ERR(RC_CONV_NEG_ERRNO, EINVAL), 3, 0).kind,
		     RC_FAIL_UNEXPECTED_SUCCESS);
	/* an errno set: either documented value passes */
	cr_assert_eq(judge(ERR(RC_CONV_NEG_ERRNO, EINVAL, EIO), -EIO, 0).verdict, RC_PASS);
}

Test(verdict, minus_one_errno)
{
	cr_assert_eq(judge(ERR(RC_CONV_M1_ERRNO, ENODEV), -1, ENODEV).verdict, RC_PASS);
	cr_assert_eq(judge(ERR(RC_CONV_M1_ERRNO, ENODEV), -1, EINVAL).kind, RC_FAIL_ERRNO);
	/* -2 is success by this convention: only -1 reports an error */
	cr_assert_eq(judge(ERR(RC_CONV_M1_ERRNO, ENODEV), -2, ENODEV).kind,
		     RC_FAIL_UNEXPECTED_SUCCESS);
}

Test(verdict, errno_as_return)
{
	cr_assert_eq(judge(ERR(RC_CONV_ERRNO_RET, EINVAL), EINVAL, 0).verdict, RC_PASS);
	/* -1 and errno is another convention: a wrong return value */
	cr_assert_eq(judge(ERR(RC_CONV_ERRNO_RET, EINVAL), -1, EINVAL).kind, RC_FAIL_RETURN);
	cr_assert_eq(judge(ERR(RC_CONV_ERRNO_RET, EINVAL), ENODEV, 0).kind, RC_FAIL_ERRNO);
	cr_assert_eq(judge((struct rc_expect){ .conv = RC_CONV_ERRNO_RET,
					       .ret = RC_RET_OK }, EBUSY, 0).kind,
		     RC_FAIL_RETURN);
}

Test(verdict, null_errno)
{
	cr_assert_eq(judge(ERR(RC_CONV_NULL_ERRNO, ENOMEM), 0, ENOMEM).verdict, RC_PASS);
	cr_assert_eq(judge(ERR(RC_CONV_NULL_ERRNO, ENOMEM), 0x1000, 0).kind,
		     RC_FAIL_UNEXPECTED_SUCCESS);
}

Test(verdict, values)
{
	struct rc_expect eq = { .conv = RC_CONV_VALUE, .ret = RC_RET_EQ, .value = 64 };
	struct rc_expect in = { .conv = RC_CONV_VALUE, .ret = RC_RET_IN,
				.value = 7, .alt = { 0, 0 } };

	cr_assert_eq(judge(eq, 64, 0).verdict, RC_PASS);
	cr_assert_eq(judge(eq, 56, 0).kind, RC_FAIL_RETURN);
	cr_assert_eq(judge(in, 7, 0).verdict, RC_PASS);
	cr_assert_eq(judge(in, 0, 0).verdict, RC_PASS);
	cr_assert_eq(judge(in, 1, 0).kind, RC_FAIL_RETURN);
}

Test(verdict, states_are_not_passes)
{
	struct rc_case c = { .id = "unit/state" };
	struct rc_obs o = { .state = RC_STATE_SKIP };
	struct rc_judgement j;

	strcpy(o.reason, "no device");
	rc_judge(&c, &o, 1, &j);
	cr_assert_eq(j.verdict, RC_SKIP);
	cr_assert_str_eq(j.msg, "no device");
	o.state = RC_STATE_STARTED;	/* never finished: not a pass */
	rc_judge(&c, &o, 1, &j);
	cr_assert_eq(j.verdict, RC_BROKEN);
	cr_assert(!rc_verdict_ran(RC_SKIP) && !rc_verdict_ran(RC_ABSENT));
}

static const struct rc_field fields[] = { { "a", 0, 2 }, { "b", 2, 2 } };
static const struct rc_layout layout = { "unit", fields, 2 };

Test(verdict, output_names_the_field)
{
	static const struct rc_bytes want = { .len = 4, .fill = 0,
		.patch = { RC_PATCH_BE(2, 2, 0x0102) } };
	struct rc_case c = { .id = "unit/out", .expect = {
		.conv = RC_CONV_VALUE, .ret = RC_RET_EQ, .out = &want,
		.layout = &layout } };
	struct rc_obs o = { .state = RC_STATE_RAN, .out_len = 4,
			    .out = { 0, 0, 2, 1 } };
	struct rc_judgement j;

	rc_judge(&c, &o, 1, &j);
	cr_assert_eq(j.kind, RC_FAIL_OUTPUT);
	cr_assert(strstr(j.msg, "in b") && !strstr(j.msg, "in a"), "%s", j.msg);
	o.out[2] = 1;
	o.out[3] = 2;
	rc_judge(&c, &o, 1, &j);
	cr_assert_eq(j.verdict, RC_PASS, "%s", j.msg);
}

Test(verdict, bytes_orders)
{
	static const uint8_t raw[2] = { 9, 8 };
	struct rc_bytes b = { .len = 8, .fill = 0xee, .patch = {
		RC_PATCH_BE(0, 2, 0x1234), RC_PATCH_HOST(2, 2, 0x1234),
		RC_PATCH_RAW(4, 2, raw) } };
	uint8_t buf[8];
	uint16_t host = 0x1234;

	rc_bytes_build(&b, buf);
	cr_assert(buf[0] == 0x12 && buf[1] == 0x34);
	cr_assert(!memcmp(buf + 2, &host, 2));
	cr_assert(buf[4] == 9 && buf[5] == 8 && buf[6] == 0xee && buf[7] == 0xee);
}

Test(verdict, timing_scales_with_slowness)
{
	struct rc_case c = { .id = "unit/time", .expect = {
		.conv = RC_CONV_VALUE, .ret = RC_RET_EQ, .ms = 100, .tol_ms = 20 } };
	struct rc_obs o = { .state = RC_STATE_RAN, .elapsed_ms = 140 };
	struct rc_judgement j;

	rc_judge(&c, &o, 1, &j);
	cr_assert_eq(j.kind, RC_FAIL_TIMING, "%s", j.msg);
	rc_judge(&c, &o, 2, &j);	/* tolerance 40 ms on a 2x slower host */
	cr_assert_eq(j.verdict, RC_PASS, "%s", j.msg);
}

/* However slow the host, half or double the documented wait fails. */
Test(verdict, timing_tolerance_has_a_ceiling)
{
	struct rc_case c = { .id = "unit/time", .expect = {
		.conv = RC_CONV_VALUE, .ret = RC_RET_EQ, .ms = 100, .tol_ms = 40 } };
	static const double wrong[] = { 0, 50, 200, 1000 };
	struct rc_obs o = { .state = RC_STATE_RAN };
	struct rc_judgement j;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(wrong); i++) {
		o.elapsed_ms = wrong[i];
		rc_judge(&c, &o, 1000, &j);
		cr_assert_eq(j.kind, RC_FAIL_TIMING, "%.0f ms: %s", wrong[i],
			     j.msg);
	}
	o.elapsed_ms = 140;
	rc_judge(&c, &o, 1000, &j);
	cr_assert_eq(j.verdict, RC_PASS, "%s", j.msg);
}

Test(verdict, agreement)
{
	struct rc_case c = { .id = "unit/agree", .expect = {
		.conv = RC_CONV_NEG_ERRNO, .ret = RC_RET_ERR, .layout = &layout } };
	struct rc_obs a = { .state = RC_STATE_RAN, .ret = -EINVAL, .out_len = 4 };
	struct rc_obs b = a;
	char why[256];

	cr_assert(rc_agree(&c, &a, &b, 1, why, sizeof(why)));
	b.ret = -EIO;
	cr_assert(!rc_agree(&c, &a, &b, 1, why, sizeof(why)));
	cr_assert(strstr(why, "return value"), "%s", why);
	/* "a negative value on error": the value itself is not compared */
	c.expect.conv = RC_CONV_NEG;
	cr_assert(rc_agree(&c, &a, &b, 1, why, sizeof(why)), "%s", why);
	b.ret = 0;
	cr_assert(!rc_agree(&c, &a, &b, 1, why, sizeof(why)));
	b = a;
	b.out[1] = 7;
	cr_assert(!rc_agree(&c, &a, &b, 1, why, sizeof(why)));
	cr_assert(strstr(why, "in a"), "%s", why);
}

/* The row pipeline: rc_row_decide with a profile entry. */
static char row_id[] = "unit/row", row_reason[] = "r", row_where[] = "f:1";
static const struct rc_group row_group = { .call = "unit_call", .lib = "unit" };
static const struct rc_case row_case = { .id = "unit/row",
	.basis = RC_BASIS_DOCUMENTED, .expect = { .conv = RC_CONV_NEG_ERRNO,
						  .ret = RC_RET_EQ } };

static void decide(enum rc_verdict sys, enum rc_fail_kind kind,
		   struct rc_expectation *x, struct rc_row_result *r)
{
	memset(r, 0, sizeof(*r));
	r->oc[RC_IMPL_SYSTEM].ran = r->oc[RC_IMPL_REFERENCE].ran = true;
	r->oc[RC_IMPL_SYSTEM].j.verdict = sys;
	r->oc[RC_IMPL_SYSTEM].j.kind = kind;
	r->oc[RC_IMPL_REFERENCE].j.verdict = RC_PASS;
	rc_row_decide(&row_group, &row_case, x, 1, NULL, r);
}

Test(row, absent_is_not_ok_unless_recorded)
{
	struct rc_expectation x = { .id = row_id, .kind = RC_ENTRY_XFAIL,
				    .fail_kind = RC_FAIL_ABSENT,
				    .applies = { [RC_IMPL_SYSTEM] = true },
				    .reason = row_reason, .where = row_where };
	struct rc_expectation any = x;
	struct rc_row_result r;

	decide(RC_ABSENT, RC_FAIL_NONE, NULL, &r);
	cr_assert(r.bad, "ABSENT with no profile entry must be not ok");
	decide(RC_ABSENT, RC_FAIL_NONE, &x, &r);
	cr_assert(!r.bad && r.oc[0].j.verdict == RC_XFAIL, "%s", r.stale);
	/* a plain XFAIL does not cover a missing call */
	any.fail_kind = 0;
	decide(RC_ABSENT, RC_FAIL_NONE, &any, &r);
	cr_assert(r.bad && r.oc[0].j.verdict == RC_ABSENT);
}

Test(row, a_fix_is_reported_as_conforming_not_as_worse)
{
	struct rc_expectation x = { .id = row_id, .kind = RC_ENTRY_XFAIL,
				    .fail_kind = RC_FAIL_ERRNO,
				    .applies = { [RC_IMPL_SYSTEM] = true },
				    .reason = row_reason, .where = row_where };
	struct rc_row_result r;

	decide(RC_PASS, RC_FAIL_NONE, &x, &r);
	cr_assert(r.bad && r.conforms_now && r.oc[0].j.verdict == RC_XPASS);
	cr_assert(strstr(r.stale, "now conforms"), "%s", r.stale);
	/* another kind of failure: stale, and no excuse */
	decide(RC_FAIL, RC_FAIL_RETURN, &x, &r);
	cr_assert(r.bad && !r.conforms_now && r.oc[0].j.verdict == RC_FAIL);
	decide(RC_CRASH, RC_FAIL_NONE, &x, &r);
	cr_assert(r.bad && !r.conforms_now && r.stale[0]);
}

Test(row, skip_entries_obey_their_scope)
{
	struct rc_expectation x = { .id = row_id, .kind = RC_ENTRY_SKIP,
				    .applies = { [RC_IMPL_SYSTEM] = true } };

	cr_assert(rc_expect_skips(&x, RC_IMPL_SYSTEM));
	cr_assert(!rc_expect_skips(&x, RC_IMPL_REFERENCE));
	x.applies[RC_IMPL_REFERENCE] = true;
	cr_assert(rc_expect_skips(&x, RC_IMPL_REFERENCE));
	cr_assert(!rc_expect_skips(NULL, RC_IMPL_SYSTEM));
}

Test(row, a_call_with_no_documented_wait_that_blocks_is_flagged)
{
	struct rc_call_times times = {};
	struct rc_row_result r;
	int i;

	for (i = 0; i < 2; i++) {
		memset(&r, 0, sizeof(r));
		r.oc[0].ran = r.oc[1].ran = true;
		r.oc[0].obs.state = r.oc[1].obs.state = RC_STATE_RAN;
		r.oc[0].obs.elapsed_ms = i ? 5000 : 0.1;
		r.oc[1].obs.elapsed_ms = 0.1;
		rc_row_decide(&row_group, &row_case, NULL, 1, &times, &r);
	}
	cr_assert_eq(r.oc[0].j.kind, RC_FAIL_TIMING, "%s", r.oc[0].j.msg);
	cr_assert_eq(r.oc[1].j.verdict, RC_PASS);
}

/* "the value of errno on failure": -EINVAL is no errno value */
Test(verdict, errno_as_return_is_positive)
{
	struct rc_case c = { .id = "unit/errno-ret", .expect = {
		.conv = RC_CONV_ERRNO_RET, .ret = RC_RET_ERR } };
	struct rc_obs o = { .state = RC_STATE_RAN, .ret = -EINVAL };
	struct rc_judgement j;

	rc_judge(&c, &o, 1, &j);
	cr_assert_eq(j.kind, RC_FAIL_RETURN, "%s", j.msg);
	o.ret = EINVAL;
	rc_judge(&c, &o, 1, &j);
	cr_assert_eq(j.verdict, RC_PASS, "%s", j.msg);
}

/* A pinned entry covers its own wrong answer only. */
Test(row, pinned_entries_cover_only_the_known_answer)
{
	static char pin[] = "56", flow[] = "grh.flow_label";
	struct rc_expectation x = { .id = row_id, .kind = RC_ENTRY_XFAIL,
				    .fail_kind = RC_FAIL_RETURN, .pin = pin,
				    .reason = row_reason, .where = row_where,
				    .applies = { [RC_IMPL_SYSTEM] = true } };
	struct rc_row_result r;

	decide(RC_FAIL, RC_FAIL_RETURN, &x, &r);	/* ret 0, not 56 */
	cr_assert(r.bad && r.stale[0], "%s", r.stale);
	memset(&r, 0, sizeof(r));
	r.oc[0].ran = r.oc[1].ran = true;
	r.oc[0].j.verdict = RC_FAIL;
	r.oc[0].j.kind = RC_FAIL_RETURN;
	r.oc[0].obs.ret = 56;
	r.oc[1].j.verdict = RC_PASS;
	rc_row_decide(&row_group, &row_case, &x, 1, NULL, &r);
	cr_assert(!r.bad && r.oc[0].j.verdict == RC_XFAIL, "%s", r.stale);
	/* output: exactly the fields recorded */
	x.fail_kind = RC_FAIL_OUTPUT;
	x.pin = flow;
	memset(&r, 0, sizeof(r));
	r.oc[0].ran = r.oc[1].ran = true;
	r.oc[0].j.verdict = RC_FAIL;
	r.oc[0].j.kind = RC_FAIL_OUTPUT;
	snprintf(r.oc[0].j.fields, sizeof(r.oc[0].j.fields),
		 "grh.flow_label, is_global");
	r.oc[1].j.verdict = RC_PASS;
	rc_row_decide(&row_group, &row_case, &x, 1, NULL, &r);
	cr_assert(r.bad && r.stale[0], "another field too: %s", r.stale);
}
