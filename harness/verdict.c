// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Turning an observation into a verdict.  The return convention is a column
 * of the row, and each convention has exactly one checker here, so "what is
 * a failure" is decided in one place for every call.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "rdmaconf.h"
#include "diff.h"
#include "row.h"

const char *rc_errno_name(int err)
{
	static char buf[16];

	switch (err) {
#define E(x) case x: return #x;
	E(EPERM) E(ENOENT) E(ESRCH) E(EINTR) E(EIO) E(ENXIO) E(E2BIG)
	E(EBADF) E(EAGAIN) E(ENOMEM) E(EACCES) E(EFAULT) E(EBUSY) E(EEXIST)
	E(ENODEV) E(EINVAL) E(ENFILE) E(EMFILE) E(ENOTTY) E(ENOSPC)
	E(ERANGE) E(ENOSYS) E(ENODATA) E(ETIME) E(EOVERFLOW) E(EPROTO)
	E(EMSGSIZE) E(EOPNOTSUPP) E(EADDRINUSE) E(EADDRNOTAVAIL)
	E(ENETUNREACH) E(ECONNREFUSED) E(ECONNRESET) E(ETIMEDOUT)
	E(EHOSTUNREACH) E(EALREADY) E(EINPROGRESS) E(ENOTCONN)
#undef E
	case 0:
		return "0";
	}
	snprintf(buf, sizeof(buf), "errno %d", err);
	return buf;
}

/* Did the call fail, by its convention; and which errno did it report? */
static bool conv_failed(enum rc_conv conv, long long ret, int err, int *errp)
{
	switch (conv) {
	case RC_CONV_NEG_ERRNO:
		*errp = ret < 0 ? (int)-ret : 0;
		return ret < 0;
	case RC_CONV_NEG:
		*errp = ret < 0 ? err : 0;
		return ret < 0;
	case RC_CONV_ERRNO_RET:
		*errp = (int)ret;
		return ret != 0;
	case RC_CONV_NULL_ERRNO:
		*errp = ret == 0 ? err : 0;
		return ret == 0;
	case RC_CONV_M1_ERRNO:
		*errp = ret == -1 ? err : 0;
		return ret == -1;
	default:	/* VALUE, OFFSET: no failure to tell */
		break;
	}
	*errp = 0;
	return false;
}

static bool errno_allowed(const struct rc_expect *e, int err)
{
	unsigned int i;

	if (!e->errnos[0])
		return true;
	for (i = 0; i < RC_MAX_ERRNOS && e->errnos[i]; i++)
		if (e->errnos[i] == err)
			return true;
	return false;
}

static void errno_set_str(const struct rc_expect *e, char *buf, size_t len)
{
	size_t n = 0;
	unsigned int i;

	buf[0] = 0;
	for (i = 0; i < RC_MAX_ERRNOS && e->errnos[i] && n < len; i++)
		n += snprintf(buf + n, len - n, "%s%s", i ? "|" : "",
			      rc_errno_name(e->errnos[i]));
	if (!i)
		snprintf(buf, len, "any");
}

static void fail(struct rc_judgement *j, enum rc_fail_kind k,
		 const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void fail(struct rc_judgement *j, enum rc_fail_kind k,
		 const char *fmt, ...)
{
	va_list ap;
	int n;

	j->verdict = RC_FAIL;
	j->kind = k;
	n = snprintf(j->msg, sizeof(j->msg), "%s: ", rc_fail_kind_name(k));
	va_start(ap, fmt);
	vsnprintf(j->msg + n, sizeof(j->msg) - n, fmt, ap);
	va_end(ap);
}

static bool judge_return(const struct rc_expect *e, const struct rc_obs *o,
			 struct rc_judgement *j)
{
	char set[64];
	int err;
	bool failed = conv_failed(e->conv, o->ret, o->err, &err);

	switch (e->ret) {
	case RC_RET_EQ:
		if (o->ret != e->value) {
			fail(j, RC_FAIL_RETURN, "expected %lld, got %lld%s%s",
			     e->value, o->ret, failed ? " errno " : "",
			     failed ? rc_errno_name(err) : "");
			return false;
		}
		return true;
	case RC_RET_IN:
		if (o->ret != e->value && o->ret != e->alt[0] &&
		    o->ret != e->alt[1]) {
			fail(j, RC_FAIL_RETURN, "expected %lld (or %lld, %lld), "
			     "got %lld", e->value, e->alt[0], e->alt[1], o->ret);
			return false;
		}
		return true;
	case RC_RET_OK:
		if (failed) {
			fail(j, RC_FAIL_RETURN,
			     "expected success, got %lld (errno %s)", o->ret,
			     rc_errno_name(err));
			return false;
		}
		return true;
	case RC_RET_ERR:
		errno_set_str(e, set, sizeof(set));
		if (!failed) {
			fail(j, RC_FAIL_UNEXPECTED_SUCCESS,
			     "expected failure with %s, got %lld", set, o->ret);
			return false;
		}
		/* "the value of errno": an errno value is positive */
		if (e->conv == RC_CONV_ERRNO_RET && o->ret < 0) {
			fail(j, RC_FAIL_RETURN, "expected the value of errno "
			     "(positive), got %lld", o->ret);
			return false;
		}
		if (e->conv == RC_CONV_M1_ERRNO || e->conv == RC_CONV_NULL_ERRNO ||
		    e->conv == RC_CONV_NEG_ERRNO || e->conv == RC_CONV_ERRNO_RET ||
		    e->errnos[0]) {
			if (!errno_allowed(e, err)) {
				fail(j, RC_FAIL_ERRNO, "expected %s, got %s (ret %lld)",
				     set, rc_errno_name(err), o->ret);
				return false;
			}
		}
		return true;
	case RC_RET_ANY:
	default:
		return true;
	}
}

/* "a 1, sent 2; b 3" names fields a and b: "a, b", as rc_diff_fields */
static void violated_fields(const char *v, char *buf, size_t len)
{
	size_t n = 0, w;

	buf[0] = 0;
	while (*v && n + 1 < len) {
		w = strcspn(v, " ;");
		n += snprintf(buf + n, len - n, "%s%.*s", n ? ", " : "",
			      (int)w, v);
		v = strstr(v, "; ");
		if (!v)
			break;
		v += 2;
	}
}

static bool judge_output(const struct rc_case *c, const struct rc_obs *o,
			 struct rc_judgement *j)
{
	const struct rc_expect *e = &c->expect;
	uint8_t want[RC_OUT_MAX];

	if (o->violation[0]) {
		violated_fields(o->violation, j->fields, sizeof(j->fields));
		fail(j, RC_FAIL_OUTPUT, "%s", o->violation);
		return false;
	}
	if (!e->out)
		return true;
	rc_bytes_build(e->out, want);
	if (o->out_len == e->out->len && !memcmp(want, o->out, o->out_len))
		return true;
	if (o->out_len != e->out->len) {
		fail(j, RC_FAIL_OUTPUT, "expected %u bytes, got %u",
		     e->out->len, o->out_len);
		return false;
	}
	rc_diff_fields(e->layout, want, o->out, o->out_len, j->fields,
		       sizeof(j->fields));
	fail(j, RC_FAIL_OUTPUT, "bytes differ in %s", j->fields);
	return false;
}

/*
 * A slow (emulated) host stretches what the kernel and the library do
 * around a wait, so the row's tolerance grows with the measured slowness;
 * but never so far that the wait itself goes unjudged: below half the
 * documented wait, so that a call that returns at once or waits twice as
 * long fails at any slowness.  A zero wait ("at once") keeps at most twice
 * the row's own tolerance.
 */
#define RC_TOL_CEILING 0.45
double rc_tolerance_ms(const struct rc_expect *e, double slowness)
{
	double tol = e->tol_ms * (slowness > 1 ? slowness : 1);
	double ceiling = e->ms ? e->ms * RC_TOL_CEILING : e->tol_ms * 2.0;

	return tol < ceiling ? tol : ceiling;
}

static bool within_tolerance(const struct rc_expect *e, double ms,
			     double slowness)
{
	return fabs(ms - e->ms) <= rc_tolerance_ms(e, slowness);
}

static bool judge_timing(const struct rc_expect *e, const struct rc_obs *o,
			 double slowness, struct rc_judgement *j)
{
	if (!e->tol_ms || within_tolerance(e, o->elapsed_ms, slowness))
		return true;
	fail(j, RC_FAIL_TIMING, "expected %u ms +/- %.0f ms, took %.1f ms",
	     e->ms, rc_tolerance_ms(e, slowness), o->elapsed_ms);
	return false;
}

void rc_judge(const struct rc_case *c, const struct rc_obs *o,
	      double slowness, struct rc_judgement *j)
{
	memset(j, 0, sizeof(*j));
	switch (o->state) {
	case RC_STATE_RAN:
		break;
	case RC_STATE_ABSENT:
		j->verdict = RC_ABSENT;
		snprintf(j->msg, sizeof(j->msg), "%s", o->reason);
		return;
	case RC_STATE_UNSUPPORTED:
		j->verdict = RC_UNSUPPORTED;
		snprintf(j->msg, sizeof(j->msg), "%s", o->reason);
		return;
	case RC_STATE_SKIP:
		j->verdict = RC_SKIP;
		snprintf(j->msg, sizeof(j->msg), "%s", o->reason);
		return;
	case RC_STATE_BROKEN:
		j->verdict = RC_BROKEN;
		snprintf(j->msg, sizeof(j->msg), "setup failed: %s", o->reason);
		return;
	default:
		j->verdict = RC_BROKEN;
		snprintf(j->msg, sizeof(j->msg),
			 "the row recorded no result (state %d)", o->state);
		return;
	}
	if (judge_return(&c->expect, o, j) && judge_output(c, o, j) &&
	    judge_timing(&c->expect, o, slowness, j))
		j->verdict = RC_PASS;
}

/*
 * Does the convention give the return value a meaning both sides share?
 * Not a pointer (addresses differ between processes), and not the value of
 * "a negative value on error" (which one is not documented, nor errno).
 */
static bool ret_comparable(enum rc_conv conv, bool fa, bool fb)
{
	if (conv == RC_CONV_NULL_ERRNO && !fa && !fb)
		return false;
	if (conv == RC_CONV_NEG && fa && fb)
		return false;
	return true;
}

/*
 * Do two implementations behave the same?  Return value, errno where the
 * convention reports one, output bytes, and timing class (in or out of the
 * row's tolerance) are compared; absolute times never are.
 */
bool rc_agree(const struct rc_case *c, const struct rc_obs *a,
	      const struct rc_obs *b, double slowness, char *why, size_t len)
{
	const struct rc_expect *e = &c->expect;
	int ea, eb;
	bool fa = conv_failed(e->conv, a->ret, a->err, &ea);
	bool fb = conv_failed(e->conv, b->ret, b->err, &eb);
	char fields[256];

	why[0] = 0;
	if (ret_comparable(e->conv, fa, fb) && a->ret != b->ret) {
		snprintf(why, len, "return value %lld vs %lld", a->ret, b->ret);
		return false;
	}
	if (ret_comparable(e->conv, fa, fb) && fa && fb && ea != eb) {
		snprintf(why, len, "errno %s vs %s", rc_errno_name(ea),
			 rc_errno_name(eb));
		return false;
	}
	if (a->out_len != b->out_len) {
		snprintf(why, len, "output length %u vs %u", a->out_len,
			 b->out_len);
		return false;
	}
	if (memcmp(a->out, b->out, a->out_len)) {
		rc_diff_fields(e->layout, a->out, b->out, a->out_len, fields,
			       sizeof(fields));
		snprintf(why, len, "output bytes differ in %s", fields);
		return false;
	}
	if (e->tol_ms && within_tolerance(e, a->elapsed_ms, slowness) !=
	    within_tolerance(e, b->elapsed_ms, slowness)) {
		snprintf(why, len, "timing class: %.1f ms vs %.1f ms",
			 a->elapsed_ms, b->elapsed_ms);
		return false;
	}
	return true;
}

/*
 * A call whose page documents no wait should not block: one that takes
 * far longer than the same call anywhere else in this run (both
 * implementations, every row so far) is flagged.  "Far": 20 times the
 * fastest, and at least a second on this host.
 */
#define RC_BLOCK_FACTOR 20
#define RC_BLOCK_MIN_MS 1000
static double *fastest_of(struct rc_call_times *t, const char *call)
{
	unsigned int i;

	for (i = 0; i < t->n; i++)
		if (!strcmp(t->call[i], call))
			return &t->fastest[i];
	if (t->n == ARRAY_SIZE(t->call))
		return NULL;
	t->call[t->n] = call;
	t->fastest[t->n] = -1;
	return &t->fastest[t->n++];
}

static void flag_blocking(const struct rc_group *g, const struct rc_case *c,
			  double slowness, struct rc_call_times *t,
			  struct rc_row_result *r)
{
	double *fastest = t ? fastest_of(t, g->call) : NULL;
	double limit;
	int i;

	if (!fastest || c->expect.tol_ms)
		return;
	for (i = 0; i < RC_NIMPLS; i++) {
		const struct rc_obs *o = &r->oc[i].obs;

		if (r->oc[i].ran && o->state == RC_STATE_RAN &&
		    (*fastest < 0 || o->elapsed_ms < *fastest))
			*fastest = o->elapsed_ms;
	}
	limit = *fastest * RC_BLOCK_FACTOR;
	if (limit < RC_BLOCK_MIN_MS * slowness)
		limit = RC_BLOCK_MIN_MS * slowness;
	for (i = 0; i < RC_NIMPLS; i++) {
		struct rc_outcome *oc = &r->oc[i];

		if (oc->ran && oc->j.verdict == RC_PASS &&
		    oc->obs.elapsed_ms > limit)
			fail(&oc->j, RC_FAIL_TIMING, "%s documents no wait, but "
			     "blocked %.0f ms; elsewhere in this run it took "
			     "%.1f ms", g->call, oc->obs.elapsed_ms, *fastest);
	}
}

void rc_row_decide(const struct rc_group *g, const struct rc_case *c,
		   struct rc_expectation *x, double slowness,
		   struct rc_call_times *times, struct rc_row_result *r)
{
	struct rc_outcome *a = &r->oc[RC_IMPL_SYSTEM];
	struct rc_outcome *b = &r->oc[RC_IMPL_REFERENCE];
	bool worse;
	int i;

	flag_blocking(g, c, slowness, times, r);
	r->agree = -1;
	r->why[0] = 0;
	if (a->ran && b->ran && a->obs.state == RC_STATE_RAN &&
	    b->obs.state == RC_STATE_RAN && rc_verdict_ran(a->j.verdict) &&
	    rc_verdict_ran(b->j.verdict))
		r->agree = rc_agree(c, &a->obs, &b->obs, slowness, r->why,
				    sizeof(r->why));
	rc_expect_apply(x, r);
	/* everything wrong with the row but a profile that is out of date
	 * because the implementation now conforms */
	worse = (r->agree == 0 && !r->expected_divergence) ||
		(r->stale[0] && !r->conforms_now);
	r->anyran = false;
	for (i = 0; i < RC_NIMPLS; i++) {
		if (!r->oc[i].ran)
			continue;
		if (r->oc[i].j.verdict != RC_XPASS)
			worse |= rc_verdict_bad(r->oc[i].j.verdict);
		r->anyran |= rc_verdict_ran(r->oc[i].j.verdict);
	}
	r->conforms_now &= !worse;
	r->bad = worse || r->conforms_now;
}
