// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* One checker per return convention, the one verdict function, the
 * agreement comparison and the row's decision. */
#include <criterion/criterion.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "../../harness/rdmaconf.h"
#include "../../harness/row.h"

/* the verdict of @o (a finished row, no profile entry) */
static struct rc_judgement decide_obs(const struct rc_group *g,
				      const struct rc_case *c,
				      const struct rc_obs *o, double slowness)
{
	struct rc_outcome oc = { .selected = true,
				 .obs = *o,
				 .attempts = 1,
				 .end = { .how = RC_END_EXITED } };
	struct rc_verdict_in in = { .slowness = slowness, .fastest_ms = -1 };
	struct rc_judgement j;

	rc_verdict_decide(g, c, &oc, &in, &j);
	return j;
}

static struct rc_judgement judge(enum rc_conv conv, struct rc_contract e,
				 long long ret, int err)
{
	struct rc_group g = { .call = "unit_call", .conv = conv };
	struct rc_case c = { .id = "unit/verdict", .contract = e };
	struct rc_obs o = { .state = RC_STATE_RAN, .ret = ret, .err = err };

	return decide_obs(&g, &c, &o, 1);
}

#define ERR(cv, ...) (cv), ((struct rc_contract){ RC_FAILS(__VA_ARGS__) })

static const struct rc_group value_group = { .call = "unit_call",
					     .conv = RC_CONV_VALUE };

static struct rc_judgement judge_case(const struct rc_case *c,
				      const struct rc_obs *o, double slowness)
{
	return decide_obs(&value_group, c, o, slowness);
}

Test(verdict, neg_errno)
{
	cr_assert_eq(judge(ERR(RC_CONV_NEG_ERRNO, EINVAL), -EINVAL, 0).verdict,
		     RC_PASS);
	cr_assert_eq(judge(ERR(RC_CONV_NEG_ERRNO, EINVAL), -EIO, 0).kind,
		     RC_FAIL_ERRNO);
	cr_assert_eq(judge(ERR(RC_CONV_NEG_ERRNO, EINVAL), 3, 0).kind,
		     RC_FAIL_UNEXPECTED_SUCCESS);
	/* an errno set: either documented value passes */
	cr_assert_eq(
		judge(ERR(RC_CONV_NEG_ERRNO, EINVAL, EIO), -EIO, 0).verdict,
		RC_PASS);
}

Test(verdict, minus_one_errno)
{
	cr_assert_eq(judge(ERR(RC_CONV_M1_ERRNO, ENODEV), -1, ENODEV).verdict,
		     RC_PASS);
	cr_assert_eq(judge(ERR(RC_CONV_M1_ERRNO, ENODEV), -1, EINVAL).kind,
		     RC_FAIL_ERRNO);
	/* -2 is success by this convention: only -1 reports an error */
	cr_assert_eq(judge(ERR(RC_CONV_M1_ERRNO, ENODEV), -2, ENODEV).kind,
		     RC_FAIL_UNEXPECTED_SUCCESS);
}

/* librdmacm's pages: "If an error occurs, errno will be set to indicate
 * the failure reason.": a -1 with errno 0 breaks it, whatever the row
 * names; other libraries' -1 conventions promise no errno */
static struct rc_judgement judge_lib(const char *lib, long long ret, int err)
{
	struct rc_group g = { .call = "unit_call",
			      .conv = RC_CONV_M1_ERRNO,
			      .lib = lib };
	struct rc_case c = { .id = "unit/verdict", .contract = { RC_FAILS() } };
	struct rc_obs o = { .state = RC_STATE_RAN, .ret = ret, .err = err };

	return decide_obs(&g, &c, &o, 1);
}

Test(verdict, rdmacm_failure_sets_errno)
{
	cr_assert_eq(judge_lib("rdmacm", -1, EINVAL).verdict, RC_PASS);
	cr_assert_eq(judge_lib("rdmacm", -1, 0).kind, RC_FAIL_ERRNO);
	cr_assert_eq(judge_lib("verbs", -1, 0).verdict, RC_PASS);
	/* success needs no errno */
	cr_assert_eq(judge_lib("rdmacm", 0, 0).kind,
		     RC_FAIL_UNEXPECTED_SUCCESS);
}

Test(verdict, errno_as_return)
{
	cr_assert_eq(judge(ERR(RC_CONV_ERRNO_RET, EINVAL), EINVAL, 0).verdict,
		     RC_PASS);
	/* -1 and errno is another convention: a wrong return value */
	cr_assert_eq(judge(ERR(RC_CONV_ERRNO_RET, EINVAL), -1, EINVAL).kind,
		     RC_FAIL_RETURN);
	cr_assert_eq(judge(ERR(RC_CONV_ERRNO_RET, EINVAL), ENODEV, 0).kind,
		     RC_FAIL_ERRNO);
	cr_assert_eq(judge(RC_CONV_ERRNO_RET,
			   ((struct rc_contract){ RC_SUCCEEDS }), EBUSY, 0)
			     .kind,
		     RC_FAIL_RETURN);
}

Test(verdict, null_errno)
{
	cr_assert_eq(judge(ERR(RC_CONV_NULL_ERRNO, ENOMEM), 0, ENOMEM).verdict,
		     RC_PASS);
	cr_assert_eq(judge(ERR(RC_CONV_NULL_ERRNO, ENOMEM), 0x1000, 0).kind,
		     RC_FAIL_UNEXPECTED_SUCCESS);
}

Test(verdict, values)
{
	struct rc_contract eq = { RC_RETURNS(64) };
	struct rc_contract in = { .ret = RC_RET_IN,
				  .value = 7,
				  .alt = { 0, 0 } };
	struct rc_contract any = { RC_ANY_RETURN };

	cr_assert_eq(judge(RC_CONV_VALUE, eq, 64, 0).verdict, RC_PASS);
	cr_assert_eq(judge(RC_CONV_VALUE, eq, 56, 0).kind, RC_FAIL_RETURN);
	cr_assert_eq(judge(RC_CONV_VALUE, in, 7, 0).verdict, RC_PASS);
	cr_assert_eq(judge(RC_CONV_VALUE, in, 0, 0).verdict, RC_PASS);
	cr_assert_eq(judge(RC_CONV_VALUE, in, 1, 0).kind, RC_FAIL_RETURN);
	/* "whatever it returns": a failure too, by the call's convention */
	cr_assert_eq(judge(RC_CONV_NEG_ERRNO, any, -EINVAL, 0).verdict,
		     RC_PASS);
}

Test(verdict, states_are_not_passes)
{
	struct rc_case c = { .id = "unit/state" };
	struct rc_outcome o = { .selected = true, .obs.state = RC_STATE_SKIP };
	struct rc_verdict_in in = { .slowness = 1, .fastest_ms = -1 };
	struct rc_judgement j;

	strcpy(o.obs.reason, "no device");
	rc_verdict_decide(&value_group, &c, &o, &in, &j);
	cr_assert_eq(j.verdict, RC_SKIP);
	cr_assert_str_eq(j.msg, "no device");
	o.obs.state = RC_STATE_STARTED; /* never finished: not a pass */
	rc_verdict_decide(&value_group, &c, &o, &in, &j);
	cr_assert_eq(j.verdict, RC_BROKEN);
	o.selected = false; /* --impl left it out: no verdict */
	rc_verdict_decide(&value_group, &c, &o, &in, &j);
	cr_assert_eq(j.verdict, RC_PASS);
	cr_assert(!j.judged);
}

/* How the process ended decides before what it recorded. */
Test(verdict, the_end_of_the_process)
{
	struct rc_case c = { .id = "unit/end", .contract = { RC_RETURNS(0) } };
	struct rc_outcome o = { .selected = true,
				.attempts = 1,
				.obs.state = RC_STATE_STARTED,
				.end = { .how = RC_END_SIGNALED,
					 .status = SIGSEGV } };
	struct rc_verdict_in in = { .slowness = 1, .fastest_ms = -1 };
	struct rc_judgement j;

	rc_verdict_decide(&value_group, &c, &o, &in, &j);
	cr_assert_eq(j.verdict, RC_CRASH);
	cr_assert(strstr(j.msg, "inside the call under test"), "%s", j.msg);
	o.end = (struct rc_end){ .how = RC_END_HUNG, .watchdog_ms = 300 };
	rc_verdict_decide(&value_group, &c, &o, &in, &j);
	cr_assert_eq(j.verdict, RC_HANG);
	cr_assert(strstr(j.msg, "300 ms"), "%s", j.msg);
	cr_assert(!strstr(j.msg, "SIGKILL"), "%s", j.msg);
	/* a process SIGKILL did not end: where the kernel holds it */
	strcpy(o.end.stuck, "__rxe_cleanup");
	rc_verdict_decide(&value_group, &c, &o, &in, &j);
	cr_assert_eq(j.verdict, RC_HANG);
	cr_assert(strstr(j.msg, "SIGKILL did not end it, in the kernel at "
				"__rxe_cleanup"),
		  "%s", j.msg);
	/* a result recorded, then a non-zero exit: not a pass */
	o.obs.state = RC_STATE_RAN;
	o.end = (struct rc_end){ .how = RC_END_EXITED, .status = 3 };
	rc_verdict_decide(&value_group, &c, &o, &in, &j);
	cr_assert_eq(j.verdict, RC_CRASH);
	cr_assert(!j.judged);
	o.end.status = 0;
	rc_verdict_decide(&value_group, &c, &o, &in, &j);
	cr_assert_eq(j.verdict, RC_PASS);
	cr_assert(j.judged);
	/* fork failed: what the runner recorded */
	o.end = (struct rc_end){ .how = RC_END_NO_START };
	o.obs.state = RC_STATE_BROKEN;
	strcpy(o.obs.reason, "fork: no memory");
	rc_verdict_decide(&value_group, &c, &o, &in, &j);
	cr_assert_eq(j.verdict, RC_BROKEN);
	cr_assert(strstr(j.msg, "fork"), "%s", j.msg);
}

/* A timing failure runs once more, alone; the second time it stands. */
Test(verdict, a_timing_failure_runs_again_once)
{
	struct rc_case c = { .id = "unit/late",
			     .contract = { RC_RETURNS(0), .ms = 100,
					   .tol_ms = 20 } };
	struct rc_outcome o = { .selected = true,
				.attempts = 1,
				.obs = { .state = RC_STATE_RAN,
					 .elapsed_ms = 300 },
				.end = { .how = RC_END_EXITED } };
	struct rc_verdict_in in = { .slowness = 1, .fastest_ms = -1 };
	struct rc_judgement j;

	rc_verdict_decide(&value_group, &c, &o, &in, &j);
	cr_assert(j.verdict == RC_FAIL && j.kind == RC_FAIL_TIMING && j.retry);
	o.attempts = 2;
	rc_verdict_decide(&value_group, &c, &o, &in, &j);
	cr_assert(j.verdict == RC_FAIL && !j.retry);
	/* another failure never runs again */
	o.attempts = 1;
	o.obs.ret = 1;
	rc_verdict_decide(&value_group, &c, &o, &in, &j);
	cr_assert(j.kind == RC_FAIL_RETURN && !j.retry);
}

/* A call that documents no wait blocked: 20 times its fastest, at least
 * a second; a row over a whole domain by the time of one of its calls. */
Test(verdict, blocking_is_judged_a_call_at_a_time)
{
	struct rc_case c = { .id = "unit/block",
			     .contract = { RC_RETURNS(0) } };
	struct rc_outcome o = { .selected = true,
				.attempts = 1,
				.obs = { .state = RC_STATE_RAN,
					 .elapsed_ms = 4500 },
				.end = { .how = RC_END_EXITED } };
	struct rc_verdict_in in = { .slowness = 1, .fastest_ms = 0.2 };
	struct rc_judgement j;

	rc_verdict_decide(&value_group, &c, &o, &in, &j);
	cr_assert(j.verdict == RC_FAIL && j.kind == RC_FAIL_TIMING, "%s",
		  j.msg);
	cr_assert(strstr(j.msg, "blocked 4500 ms;"), "%s", j.msg);
	o.obs.elapsed_ms = 900;
	rc_verdict_decide(&value_group, &c, &o, &in, &j);
	cr_assert_eq(j.verdict, RC_PASS, "under a second: %s", j.msg);
	/* a million calls in 4.5 s: 4.5 us a call */
	c.calls = 1000000;
	o.obs.elapsed_ms = 4500;
	rc_verdict_decide(&value_group, &c, &o, &in, &j);
	cr_assert_eq(j.verdict, RC_PASS, "%s", j.msg);
	/* but not when one of them blocked that long on average */
	o.obs.elapsed_ms = 2000.0 * c.calls;
	rc_verdict_decide(&value_group, &c, &o, &in, &j);
	cr_assert(j.verdict == RC_FAIL && strstr(j.msg, "ms a call"), "%s",
		  j.msg);
}

static const struct rc_field fields[] = { { "a", 0, 2 }, { "b", 2, 2 } };
static const struct rc_layout layout = { "unit", fields, 2 };

Test(verdict, output_names_the_field)
{
	static const struct rc_bytes want = {
		.len = 4, .fill = 0, .patch = { RC_PATCH_BE(2, 2, 0x0102) }
	};
	struct rc_case c = { .id = "unit/out",
			     .contract = { RC_RETURNS(0), .out = &want,
					   .layout = &layout } };
	struct rc_obs o = { .state = RC_STATE_RAN,
			    .out_len = 4,
			    .out = { 0, 0, 2, 1 } };
	struct rc_judgement j;

	j = judge_case(&c, &o, 1);
	cr_assert_eq(j.kind, RC_FAIL_OUTPUT);
	cr_assert(strstr(j.msg, "in b") && !strstr(j.msg, "in a"), "%s", j.msg);
	o.out[2] = 1;
	o.out[3] = 2;
	j = judge_case(&c, &o, 1);
	cr_assert_eq(j.verdict, RC_PASS, "%s", j.msg);
}

Test(verdict, bytes_orders)
{
	static const uint8_t raw[2] = { 9, 8 };
	struct rc_bytes b = { .len = 8,
			      .fill = 0xee,
			      .patch = { RC_PATCH_BE(0, 2, 0x1234),
					 RC_PATCH_HOST(2, 2, 0x1234),
					 RC_PATCH_RAW(4, 2, raw) } };
	uint8_t buf[8];
	uint16_t host = 0x1234;

	rc_bytes_build(&b, buf);
	cr_assert(buf[0] == 0x12 && buf[1] == 0x34);
	cr_assert(!memcmp(buf + 2, &host, 2));
	cr_assert(buf[4] == 9 && buf[5] == 8 && buf[6] == 0xee &&
		  buf[7] == 0xee);
}

Test(verdict, timing_scales_with_slowness)
{
	struct rc_case c = { .id = "unit/time",
			     .contract = { RC_RETURNS(0), .ms = 100,
					   .tol_ms = 20 } };
	struct rc_obs o = { .state = RC_STATE_RAN, .elapsed_ms = 140 };
	struct rc_judgement j;

	j = judge_case(&c, &o, 1);
	cr_assert_eq(j.kind, RC_FAIL_TIMING, "%s", j.msg);
	j = judge_case(&c, &o, 2); /* tolerance 40 ms on a 2x slower host */
	cr_assert_eq(j.verdict, RC_PASS, "%s", j.msg);
}

/* However slow the host, half or double the documented wait fails. */
Test(verdict, timing_tolerance_has_a_ceiling)
{
	struct rc_case c = { .id = "unit/time",
			     .contract = { RC_RETURNS(0), .ms = 100,
					   .tol_ms = 40 } };
	static const double wrong[] = { 0, 50, 200, 1000 };
	struct rc_obs o = { .state = RC_STATE_RAN };
	struct rc_judgement j;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(wrong); i++) {
		o.elapsed_ms = wrong[i];
		j = judge_case(&c, &o, 1000);
		cr_assert_eq(j.kind, RC_FAIL_TIMING, "%.0f ms: %s", wrong[i],
			     j.msg);
	}
	o.elapsed_ms = 140;
	j = judge_case(&c, &o, 1000);
	cr_assert_eq(j.verdict, RC_PASS, "%s", j.msg);
}

Test(verdict, agreement)
{
	struct rc_group g = { .call = "unit_call", .conv = RC_CONV_NEG_ERRNO };
	struct rc_case c = { .id = "unit/agree",
			     .contract = { RC_FAILS(), .layout = &layout } };
	struct rc_obs a = { .state = RC_STATE_RAN,
			    .ret = -EINVAL,
			    .out_len = 4 };
	struct rc_obs b = a;
	char why[256];

	cr_assert(rc_agree(&g, &c, &a, &b, 1, why, sizeof(why)));
	b.ret = -EIO;
	cr_assert(!rc_agree(&g, &c, &a, &b, 1, why, sizeof(why)));
	cr_assert(strstr(why, "return value"), "%s", why);
	/* "a negative value on error": the value itself is not compared */
	g.conv = RC_CONV_NEG;
	cr_assert(rc_agree(&g, &c, &a, &b, 1, why, sizeof(why)), "%s", why);
	b.ret = 0;
	cr_assert(!rc_agree(&g, &c, &a, &b, 1, why, sizeof(why)));
	b = a;
	b.out[1] = 7;
	cr_assert(!rc_agree(&g, &c, &a, &b, 1, why, sizeof(why)));
	cr_assert(strstr(why, "in a"), "%s", why);
	/* the call's convention, whatever the row expects: on a success row
	 * two different errors are a divergence (was compared by the row's
	 * convention, "negative", and agreed) */
	g.conv = RC_CONV_NEG_ERRNO;
	c.contract = (struct rc_contract){ RC_RETURNS(0) };
	a.ret = -EINVAL;
	b = a;
	b.ret = -EIO;
	cr_assert(!rc_agree(&g, &c, &a, &b, 1, why, sizeof(why)));
}

/* The row pipeline: rc_row_decide with a profile entry, from what each
 * implementation observed. */
static char row_id[] = "unit/row", row_reason[] = "r", row_where[] = "f:1";
static const struct rc_group row_group = { .call = "unit_call",
					   .lib = "unit",
					   .conv = RC_CONV_NEG_ERRNO };
static const struct rc_case row_case = { .id = "unit/row",
					 .basis = RC_BASIS_DOCUMENTED,
					 .contract = { RC_RETURNS(0) } };

/* system observed @sys (ended as @end), the reference passed */
static void decide_row(struct rc_obs sys, struct rc_end end,
		       const struct rc_profile_entry *x,
		       struct rc_row_result *r)
{
	const struct rc_profile_entry *xs[RC_NIMPLS] = { x, x };

	memset(r, 0, sizeof(*r));
	r->oc[RC_IMPL_SYSTEM] = (struct rc_outcome){
		.selected = true, .obs = sys, .end = end, .attempts = 1
	};
	r->oc[RC_IMPL_REFERENCE] =
		(struct rc_outcome){ .selected = true,
				     .obs.state = RC_STATE_RAN,
				     .attempts = 1,
				     .end.how = RC_END_EXITED };
	rc_row_decide(&row_group, &row_case, xs, 1, NULL, r);
}

#define RAN(r) ((struct rc_obs){ .state = RC_STATE_RAN, .ret = (r) })
#define EXITED ((struct rc_end){ .how = RC_END_EXITED })

Test(row, absent_is_not_ok_unless_recorded)
{
	struct rc_profile_entry x = { .id = row_id,
				      .kind = RC_ENTRY_XFAIL,
				      .fail_kind = RC_FAIL_ABSENT,
				      .applies = { [RC_IMPL_SYSTEM] = true },
				      .reason = row_reason,
				      .where = row_where };
	struct rc_profile_entry any = x;
	struct rc_obs absent = { .state = RC_STATE_ABSENT };
	struct rc_row_result r;

	decide_row(absent, EXITED, NULL, &r);
	cr_assert(r.bad, "ABSENT with no profile entry must be not ok");
	decide_row(absent, EXITED, &x, &r);
	cr_assert(!r.bad && r.oc[0].j.verdict == RC_XFAIL, "%s", r.stale);
	/* a plain XFAIL does not cover a missing call */
	any.fail_kind = 0;
	decide_row(absent, EXITED, &any, &r);
	cr_assert(r.bad && r.oc[0].j.verdict == RC_ABSENT);
}

Test(row, a_fix_is_reported_as_conforming_not_as_worse)
{
	struct rc_profile_entry x = { .id = row_id,
				      .kind = RC_ENTRY_XFAIL,
				      .fail_kind = RC_FAIL_ERRNO,
				      .applies = { [RC_IMPL_SYSTEM] = true },
				      .reason = row_reason,
				      .where = row_where };
	struct rc_row_result r;

	decide_row(RAN(0), EXITED, &x, &r);
	cr_assert(r.bad && r.conforms_now && r.oc[0].j.verdict == RC_XPASS);
	cr_assert(strstr(r.stale, "now conforms"), "%s", r.stale);
	/* another kind of failure: stale, and no excuse */
	decide_row(RAN(5), EXITED, &x, &r);
	cr_assert(r.bad && !r.conforms_now && r.oc[0].j.verdict == RC_FAIL);
	decide_row(
		RAN(0),
		((struct rc_end){ .how = RC_END_SIGNALED, .status = SIGSEGV }),
		&x, &r);
	cr_assert(r.bad && !r.conforms_now && r.stale[0]);
	cr_assert_eq(r.oc[0].j.verdict, RC_CRASH);
}

Test(row, an_entry_applies_to_each_implementation_on_its_own)
{
	struct rc_profile_entry x = { .id = row_id,
				      .kind = RC_ENTRY_XFAIL,
				      .fail_kind = RC_FAIL_RETURN,
				      .applies = { true, true },
				      .reason = row_reason,
				      .where = row_where };
	struct rc_row_result r;

	/* the system fails as recorded, the reference passes: its XPASS
	 * makes the entry stale, and the system's XFAIL stays */
	decide_row(RAN(3), EXITED, &x, &r);
	cr_assert_eq(r.oc[0].j.verdict, RC_XFAIL);
	cr_assert_eq(r.oc[1].j.verdict, RC_XPASS);
	cr_assert(r.bad && r.conforms_now, "%s", r.stale);
}

Test(row, skip_entries_obey_their_scope)
{
	struct rc_profile_entry x = { .id = row_id,
				      .kind = RC_ENTRY_SKIP,
				      .applies = { [RC_IMPL_SYSTEM] = true } };

	cr_assert(rc_entry_skips(&x, RC_IMPL_SYSTEM));
	cr_assert(!rc_entry_skips(&x, RC_IMPL_REFERENCE));
	x.applies[RC_IMPL_REFERENCE] = true;
	cr_assert(rc_entry_skips(&x, RC_IMPL_REFERENCE));
	cr_assert(!rc_entry_skips(NULL, RC_IMPL_SYSTEM));
}

Test(row, a_call_with_no_documented_wait_that_blocks_is_flagged)
{
	struct rc_call_times times = {};
	struct rc_row_result r;
	int i;

	for (i = 0; i < 2; i++) {
		memset(&r, 0, sizeof(r));
		r.oc[0].selected = r.oc[1].selected = true;
		r.oc[0].obs.state = r.oc[1].obs.state = RC_STATE_RAN;
		r.oc[0].end.how = r.oc[1].end.how = RC_END_EXITED;
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
	struct rc_contract e = { RC_FAILS() };

	cr_assert_eq(judge(RC_CONV_ERRNO_RET, e, -EINVAL, 0).kind,
		     RC_FAIL_RETURN);
	cr_assert_eq(judge(RC_CONV_ERRNO_RET, e, EINVAL, 0).verdict, RC_PASS);
}

/* A pinned entry covers its own wrong answer only. */
Test(row, pinned_entries_cover_only_the_known_answer)
{
	static char pin[] = "56", flow[] = "grh.flow_label";
	struct rc_profile_entry x = { .id = row_id,
				      .kind = RC_ENTRY_XFAIL,
				      .fail_kind = RC_FAIL_RETURN,
				      .pin = pin,
				      .reason = row_reason,
				      .where = row_where,
				      .applies = { [RC_IMPL_SYSTEM] = true } };
	struct rc_obs out = RAN(0);
	struct rc_row_result r;

	decide_row(RAN(3), EXITED, &x, &r); /* 3, not 56 */
	cr_assert(r.bad && r.stale[0], "%s", r.stale);
	decide_row(RAN(56), EXITED, &x, &r);
	cr_assert(!r.bad && r.oc[0].j.verdict == RC_XFAIL, "%s", r.stale);
	/* output: exactly the fields recorded */
	x.fail_kind = RC_FAIL_OUTPUT;
	x.pin = flow;
	snprintf(out.violation, sizeof(out.violation),
		 "grh.flow_label 1, sent 2; is_global 0");
	decide_row(out, EXITED, &x, &r);
	cr_assert(r.bad && r.stale[0], "another field too: %s", r.stale);
	snprintf(out.violation, sizeof(out.violation),
		 "grh.flow_label 1, sent 2");
	decide_row(out, EXITED, &x, &r);
	cr_assert(!r.bad && r.oc[0].j.verdict == RC_XFAIL, "%s", r.stale);
}
