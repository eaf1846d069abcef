// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * One implementation's verdict on one row, top to bottom, as kselftest's
 * harness decides a test's result in one place: how the row's process
 * ended, then what it observed against the row's contract (the return
 * value by the call's convention, the output, the wait), then whether a
 * call that documents no wait blocked, then the profile entry.
 */
#define _GNU_SOURCE /* strerrorname_np */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conv.h"
#include "diff.h"
#include "verdict.h"

const char *rc_errno_name(int err)
{
	static char buf[16];
	const char *name;

	/* one case per name: a table to read, not to reflow */
	/* clang-format off */
	switch (err) {
#define E(x) case x: return #x;
	E(EPERM) E(ENOENT) E(ESRCH) E(EINTR) E(EIO) E(ENXIO) E(E2BIG)
	E(EBADF) E(EAGAIN) E(ENOMEM) E(EACCES) E(EFAULT) E(EBUSY) E(EEXIST)
	E(ENODEV) E(EINVAL) E(ENFILE) E(EMFILE) E(ENOTTY) E(ENOSPC)
	E(ERANGE) E(ENOSYS) E(ENODATA) E(ETIME) E(EOVERFLOW) E(EPROTO)
	E(EMSGSIZE) E(EOPNOTSUPP) E(EADDRINUSE) E(EADDRNOTAVAIL)
	E(ENETUNREACH) E(ECONNREFUSED) E(ECONNRESET) E(ETIMEDOUT)
	E(EHOSTUNREACH) E(EALREADY) E(EINPROGRESS) E(ENOTCONN) E(EISCONN)
#undef E
	case 0:
		return "0";
	}
	/* clang-format on */
	/* the rest by glibc's names (2.32 and later), "EISDIR" */
	name = strerrorname_np(err);
	if (name)
		return name;
	snprintf(buf, sizeof(buf), "errno %d", err);
	return buf;
}

static void set(struct rc_judgement *j, enum rc_verdict v, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void set(struct rc_judgement *j, enum rc_verdict v, const char *fmt, ...)
{
	va_list ap;

	j->verdict = v;
	va_start(ap, fmt);
	vsnprintf(j->msg, sizeof(j->msg), fmt, ap);
	va_end(ap);
}

static void fail(struct rc_judgement *j, enum rc_fail_kind k, const char *fmt,
		 ...) __attribute__((format(printf, 3, 4)));

static void fail(struct rc_judgement *j, enum rc_fail_kind k, const char *fmt,
		 ...)
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

/* The verdicts of a process that did not end with a result to judge. */
static bool judge_end(const struct rc_outcome *o, struct rc_judgement *j)
{
	const struct rc_end *e = &o->end;
	bool in_call = o->obs.state == RC_STATE_STARTED;

	switch (e->how) {
	case RC_END_HUNG:
		set(j, RC_HANG, "no result after %u ms (watchdog), %s%s%s",
		    e->watchdog_ms,
		    in_call ? "inside the call under test" :
			      "in the row's setup",
		    e->stuck[0] ?
			    "; SIGKILL did not end it, in the kernel at " :
			    "",
		    e->stuck);
		return true;
	case RC_END_SIGNALED:
		set(j, RC_CRASH, "killed by signal %d (%s)%s", e->status,
		    strsignal(e->status),
		    in_call ? " inside the call under test" : "");
		return true;
	case RC_END_EXITED:
		if (!in_call && o->obs.state != RC_STATE_NONE && !e->status)
			return false;
		set(j, RC_CRASH, "process exited with status %d %s", e->status,
		    in_call ? "inside the call under test" :
			      "before recording a result");
		return true;
	default: /* NONE, NO_START: the observation says */
		return false;
	}
}

static bool errno_allowed(const struct rc_contract *e, int err)
{
	unsigned int i;

	if (!e->errnos[0])
		return true;
	for (i = 0; i < RC_MAX_ERRNOS && e->errnos[i]; i++)
		if (e->errnos[i] == err)
			return true;
	return false;
}

static void errno_set_str(const struct rc_contract *e, char *buf, size_t len)
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

/*
 * Does @g's page promise an errno with every failure, whatever the row
 * names?  librdmacm's pages of the calls that return -1 do, each in its
 * RETURN VALUE: "If an error occurs, errno will be set to indicate the
 * failure reason." (the newer ones: "errno will be set to indicate the
 * failure reason").  A failure that leaves errno 0 breaks that.
 */
#define RC_ERRNO_PROMISE \
	"If an error occurs, errno will be set to indicate the failure reason."
static bool errno_promised(const struct rc_group *g)
{
	return g->conv == RC_CONV_M1_ERRNO && g->lib &&
	       !strcmp(g->lib, "rdmacm");
}

/* The return value (and errno) against the row's outcome, read by the
 * call's convention; @promised: the page promises an errno with every
 * failure. */
static bool judge_return(enum rc_conv conv, bool promised,
			 const struct rc_contract *e, const struct rc_obs *o,
			 struct rc_judgement *j)
{
	char errs[64];
	int err;
	bool failed = rc_conv_failed(conv, o->ret, o->err, &err);

	switch (e->ret) {
	case RC_RET_EQ:
		if (o->ret == e->value)
			return true;
		fail(j, RC_FAIL_RETURN, "expected %lld, got %lld%s%s", e->value,
		     o->ret, failed ? " errno " : "",
		     failed ? rc_errno_name(err) : "");
		return false;
	case RC_RET_IN:
		if (o->ret == e->value || o->ret == e->alt[0] ||
		    o->ret == e->alt[1])
			return true;
		fail(j, RC_FAIL_RETURN,
		     "expected %lld (or %lld, %lld), got "
		     "%lld",
		     e->value, e->alt[0], e->alt[1], o->ret);
		return false;
	case RC_RET_OK:
		if (!failed)
			return true;
		fail(j, RC_FAIL_RETURN, "expected success, got %lld (errno %s)",
		     o->ret, rc_errno_name(err));
		return false;
	case RC_RET_ERR:
		errno_set_str(e, errs, sizeof(errs));
		if (!failed) {
			fail(j, RC_FAIL_UNEXPECTED_SUCCESS,
			     "expected failure "
			     "with %s, got %lld",
			     errs, o->ret);
			return false;
		}
		/* "the value of errno": an errno value is positive */
		if (conv == RC_CONV_ERRNO_RET && o->ret < 0) {
			fail(j, RC_FAIL_RETURN,
			     "expected the value of errno "
			     "(positive), got %lld",
			     o->ret);
			return false;
		}
		if (promised && !err) {
			fail(j, RC_FAIL_ERRNO,
			     "failed (ret %lld) with errno 0; the page: "
			     "\"" RC_ERRNO_PROMISE "\"",
			     o->ret);
			return false;
		}
		if ((rc_conv_has_errno(conv) || e->errnos[0]) &&
		    !errno_allowed(e, err)) {
			fail(j, RC_FAIL_ERRNO, "expected %s, got %s (ret %lld)",
			     errs, rc_errno_name(err), o->ret);
			return false;
		}
		return true;
	default: /* RC_RET_ANY: the row judges other effects */
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
		n += snprintf(buf + n, len - n, "%s%.*s", n ? ", " : "", (int)w,
			      v);
		v = strstr(v, "; ");
		if (!v)
			break;
		v += 2;
	}
}

static bool judge_output(const struct rc_contract *e, const struct rc_obs *o,
			 struct rc_judgement *j)
{
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
double rc_tolerance_ms(const struct rc_contract *e, double slowness)
{
	double tol = e->tol_ms * (slowness > 1 ? slowness : 1);
	double ceiling = e->ms ? e->ms * RC_TOL_CEILING : e->tol_ms * 2.0;

	return tol < ceiling ? tol : ceiling;
}

bool rc_within_tolerance(const struct rc_contract *e, double ms,
			 double slowness)
{
	return fabs(ms - e->ms) <= rc_tolerance_ms(e, slowness);
}

static bool judge_timing(const struct rc_contract *e, const struct rc_obs *o,
			 double slowness, struct rc_judgement *j)
{
	if (!e->tol_ms || rc_within_tolerance(e, o->elapsed_ms, slowness))
		return true;
	fail(j, RC_FAIL_TIMING, "expected %u ms +/- %.0f ms, took %.1f ms",
	     e->ms, rc_tolerance_ms(e, slowness), o->elapsed_ms);
	return false;
}

/* The row's observation against its contract; or what the row recorded
 * instead of a result. */
static void judge_obs(const struct rc_group *g, const struct rc_case *c,
		      const struct rc_obs *o, double slowness,
		      struct rc_judgement *j)
{
	switch (o->state) {
	case RC_STATE_RAN:
		j->judged = true;
		if (judge_return(g->conv, errno_promised(g), &c->contract, o,
				 j) &&
		    judge_output(&c->contract, o, j) &&
		    judge_timing(&c->contract, o, slowness, j))
			j->verdict = RC_PASS;
		return;
	case RC_STATE_ABSENT:
		set(j, RC_ABSENT, "%s", o->reason);
		return;
	case RC_STATE_UNSUPPORTED:
		set(j, RC_UNSUPPORTED, "%s", o->reason);
		return;
	case RC_STATE_SKIP:
		set(j, RC_SKIP, "%s", o->reason);
		return;
	case RC_STATE_BROKEN:
		set(j, RC_BROKEN, "setup failed: %s", o->reason);
		return;
	default:
		set(j, RC_BROKEN, "the row recorded no result (state %d)",
		    o->state);
		return;
	}
}

/*
 * A call whose page documents no wait should not block: one that takes
 * far longer than the same call anywhere else in this run (both
 * implementations, every row so far) is flagged.  "Far": 20 times the
 * fastest, and at least a second on this host.  A row that times a loop
 * over a whole domain (rc_case.calls) is judged by the time of one call
 * of it: a million calls are not one call that blocked.
 */
#define RC_BLOCK_FACTOR 20
#define RC_BLOCK_MIN_MS 1000
static void judge_blocking(const struct rc_group *g, const struct rc_case *c,
			   const struct rc_outcome *o,
			   const struct rc_verdict_in *in,
			   struct rc_judgement *j)
{
	double limit = in->fastest_ms * RC_BLOCK_FACTOR;
	unsigned int calls = c->calls > 1 ? c->calls : 1;

	if (in->fastest_ms < 0 || c->contract.tol_ms || j->verdict != RC_PASS)
		return;
	if (limit < RC_BLOCK_MIN_MS * in->slowness)
		limit = RC_BLOCK_MIN_MS * in->slowness;
	if (o->obs.elapsed_ms / calls > limit)
		fail(j, RC_FAIL_TIMING,
		     "%s documents no wait, but blocked "
		     "%.0f ms%s; elsewhere in this run it took %.1f ms",
		     g->call, o->obs.elapsed_ms / calls,
		     calls > 1 ? " a call" : "", in->fastest_ms);
}

/* Is the failure the very one a pinned entry records? */
static bool pin_matches(const struct rc_profile_entry *x,
			const struct rc_outcome *o,
			const struct rc_judgement *j)
{
	if (!x->pin || x->fail_kind != (int)j->kind)
		return true; /* no pin; a wrong kind is judged below */
	if (x->fail_kind == RC_FAIL_RETURN)
		return o->obs.ret == strtoll(x->pin, NULL, 0);
	return !strcmp(j->fields, x->pin);
}

static void expected(const struct rc_profile_entry *x, struct rc_judgement *j)
{
	set(j, RC_XFAIL, "%s (%s)", x->reason, x->where);
}

/*
 * An XFAIL entry on the verdict.  A failure of another kind than the
 * entry names stays what it is and makes the entry stale: an entry never
 * hides a new bug.  Only its own qualifier covers a CRASH, HANG, ABSENT
 * or BROKEN.
 */
static void apply_entry(const struct rc_profile_entry *x,
			const struct rc_outcome *o, enum rc_impl_id impl,
			struct rc_judgement *j)
{
	enum rc_verdict v = j->verdict;
	int kind = rc_fail_kind_of_verdict(v);
	size_t len = sizeof(j->stale);

	if (x->kind != RC_ENTRY_XFAIL || !rc_entry_applies(x, impl) ||
	    v == RC_SKIP || v == RC_UNSUPPORTED)
		return;
	if (kind) {
		if (x->fail_kind == kind)
			expected(x, j);
		else if (x->fail_kind)
			snprintf(j->stale, len,
				 "%s expects a failure of kind "
				 "'%s', got %s",
				 x->where, rc_fail_kind_name(x->fail_kind),
				 rc_verdict_name(v));
		return;
	}
	if (v == RC_FAIL && !pin_matches(x, o, j)) {
		snprintf(j->stale, len, "%s expects %s %.60s, got %.160s",
			 x->where,
			 x->fail_kind == RC_FAIL_OUTPUT ?
				 "wrong output in exactly" :
				 "the wrong return value",
			 x->pin, j->msg);
	} else if (v == RC_FAIL) {
		if (!x->fail_kind || x->fail_kind == (int)j->kind)
			expected(x, j);
		else
			snprintf(j->stale, len,
				 "%s expects a failure of kind "
				 "'%s', got '%s'",
				 x->where, rc_fail_kind_name(x->fail_kind),
				 rc_fail_kind_name(j->kind));
	} else if (v == RC_PASS) {
		j->conforms_now = true;
		snprintf(j->stale, len,
			 "now conforms: update the profile (%s "
			 "expects a failure, but the %s implementation passes)",
			 x->where, rc_impl_name(impl));
		set(j, RC_XPASS, "%s", j->stale);
	}
}

void rc_verdict_decide(const struct rc_group *g, const struct rc_case *c,
		       const struct rc_outcome *o,
		       const struct rc_verdict_in *in, struct rc_judgement *j)
{
	memset(j, 0, sizeof(*j));
	if (!o->selected)
		return;
	if (!judge_end(o, j))
		judge_obs(g, c, &o->obs, in->slowness, j);
	j->retry = j->verdict == RC_FAIL && j->kind == RC_FAIL_TIMING &&
		   o->attempts < 2;
	judge_blocking(g, c, o, in, j);
	if (in->entry)
		apply_entry(in->entry, o, in->impl, j);
}
