/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The words of rdmaconf, each list once.  Every vocabulary the harness,
 * its results files, its report and its users share is one X-macro table
 * here: the enum, the name written and read back, and what the word
 * implies.  Nothing else spells these names: C code takes them from here,
 * and `rdmaconf __vocab` prints every table as JSON for what is not C
 * (the man page, the bash completion, the Python tests), whose tests fail
 * when they disagree with it.
 */
#ifndef RDMACONF_VOCAB_H
#define RDMACONF_VOCAB_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Verdicts of one implementation on one row.
 *   rank: how bad, for the worst of several (a cell's colour); 0 is PASS
 *   ran: the implementation ran the row's call (its outcome is a result,
 *        not a reason the row could not run): compare.c's "no longer
 *        runs it" and KTAP's SKIP line both mean this
 *   bad: on its own a reason for "not ok"
 *   breaks: a failure counted against the row's basis ("breaks the man
 *        page" for a documented row)
 */
#define RC_VERDICTS(X)                                                        \
	X(PASS, "PASS", 0, true, false, false,                                \
	  "behaved as the row's contract says")                               \
	X(FAIL, "FAIL", 7, true, true, true,                                  \
	  "broke the contract (the failure kind says how)")                   \
	X(XFAIL, "XFAIL", 4, true, false, true,                               \
	  "broke it as a profile entry records, with its reason")             \
	X(XPASS, "XPASS", 5, true, true, false,                               \
	  "conforms where a profile entry records a failure: the entry is "   \
	  "out of date")                                                      \
	X(SKIP, "SKIP", 1, false, false, false,                               \
	  "could not run here: a need the target does not meet, with its "    \
	  "cause")                                                            \
	X(UNSUPPORTED, "UNSUPPORTED", 2, false, false, false,                 \
	  "the device or kernel cannot do what the row checks")               \
	X(CRASH, "CRASH", 9, true, true, true,                                \
	  "the row's process died (a signal, or an exit in the call)")        \
	X(HANG, "HANG", 8, true, true, true, "no result before the watchdog") \
	X(ABSENT, "ABSENT", 3, false, true, true,                             \
	  "the implementation does not have the documented call")             \
	X(BROKEN, "BROKEN", 6, false, true, false,                            \
	  "the set-up around the call failed: nothing was judged")

#define RC_VERDICT_ENUM(e, ...) RC_##e,
enum rc_verdict { RC_VERDICTS(RC_VERDICT_ENUM) RC_NVERDICTS };
#undef RC_VERDICT_ENUM

/*
 * How a FAIL failed, and what a profile's XFAIL:<qualifier> covers.  The
 * last four are never a FAIL's kind: they name the verdict (CRASH, HANG,
 * ABSENT, BROKEN) that only an entry with that qualifier covers.
 */
#define RC_FAIL_KINDS(X)                                                     \
	X(NONE, "", "", RC_NVERDICTS)                                        \
	X(UNEXPECTED_SUCCESS, "success", "unexpected success", RC_NVERDICTS) \
	X(RETURN, "return", "wrong return value", RC_NVERDICTS)              \
	X(ERRNO, "errno", "wrong errno", RC_NVERDICTS)                       \
	X(OUTPUT, "output", "wrong output", RC_NVERDICTS)                    \
	X(TIMING, "timing", "out of time tolerance", RC_NVERDICTS)           \
	X(CRASH, "crash", "crash", RC_CRASH)                                 \
	X(HANG, "hang", "hang", RC_HANG)                                     \
	X(ABSENT, "absent", "absent", RC_ABSENT)                             \
	X(BROKEN, "broken", "broken set-up", RC_BROKEN)

#define RC_FAIL_KIND_ENUM(e, ...) RC_FAIL_##e,
enum rc_fail_kind { RC_FAIL_KINDS(RC_FAIL_KIND_ENUM) RC_NFAIL_KINDS };
#undef RC_FAIL_KIND_ENUM

/*
 * What a row's contract rests on.  Only a "documented" row may call a
 * different answer a break of the man page; the summary and the report
 * count each basis apart.  0 is no basis, which a unit test refuses.
 *   title: how the report heads its failures
 *   short: how the summary line names it
 */
#define RC_BASES(X)                                                        \
	X(DOCUMENTED, "documented", "breaks the man page", "the man page") \
	X(LINUX, "linux", "breaks Linux's ABI", "Linux's ABI")             \
	X(INTERPRETATION, "interpretation", "differs from our reading",    \
	  "our reading")

#define RC_BASIS_ENUM(e, ...) RC_BASIS_##e,
enum rc_basis { RC_BASIS_NONE, RC_BASES(RC_BASIS_ENUM) RC_NBASES };
#undef RC_BASIS_ENUM

/* How a call reports success and failure: one per call, one checker each
 * (verdict.c). */
#define RC_CONVS(X)                                                        \
	X(VALUE, "value", "no error indication: a plain value")            \
	X(NEG_ERRNO, "-errno", ">= 0 success, -errno on failure")          \
	X(NEG, "negative", ">= 0 success, some negative value on failure") \
	X(ERRNO_RET, "errno-as-return",                                    \
	  "0 success, the errno value itself on failure")                  \
	X(NULL_ERRNO, "NULL+errno",                                        \
	  "non-NULL success, NULL and errno on "                           \
	  "failure")                                                       \
	X(M1_ERRNO, "-1+errno", ">= 0 success, -1 and errno on failure")   \
	X(OFFSET, "offset", "a pointer into the caller's buffer, as an offset")

#define RC_CONV_ENUM(e, ...) RC_CONV_##e,
enum rc_conv { RC_CONVS(RC_CONV_ENUM) RC_NCONVS };
#undef RC_CONV_ENUM

/* What a row requires of the return value, within its call's convention. */
#define RC_OUTCOMES(X)                                            \
	X(EQ, "eq", "exactly the row's value")                    \
	X(IN, "in", "the row's value or one of its alternatives") \
	X(OK, "ok", "the convention's success")                   \
	X(ERR, "error",                                           \
	  "the convention's failure, with an errno of the "       \
	  "row's set")                                            \
	X(ANY, "any", "whatever it returns: the row judges other effects")

#define RC_OUTCOME_ENUM(e, ...) RC_RET_##e,
enum rc_ret { RC_OUTCOMES(RC_OUTCOME_ENUM) RC_NOUTCOMES };
#undef RC_OUTCOME_ENUM

/* The two implementations every row runs on. */
#define RC_IMPLS(X)                                                     \
	X(SYSTEM, "system", "rdma-core as the dynamic linker finds it") \
	X(REFERENCE, "reference",                                       \
	  "rdmaconf's own, from the man pages and "                     \
	  "the kernel ABI")

#define RC_IMPL_ENUM(e, ...) RC_IMPL_##e,
enum rc_impl_id { RC_IMPLS(RC_IMPL_ENUM) RC_NIMPLS };
#undef RC_IMPL_ENUM

/* What a profile entry records (profile.h). */
#define RC_ENTRY_KINDS(X)                                                     \
	X(XFAIL, "XFAIL", "the system breaks the contract here, as recorded") \
	X(DIVERGE, "DIVERGE", "both are within the contract but differ")      \
	X(SKIP, "SKIP", "the row cannot run on this target at all")

#define RC_ENTRY_KIND_ENUM(e, ...) RC_ENTRY_##e,
enum rc_entry_kind { RC_ENTRY_KINDS(RC_ENTRY_KIND_ENUM) RC_NENTRY_KINDS };
#undef RC_ENTRY_KIND_ENUM

/*
 * How rdmaconf ends.  The launchers (ci/) end with codes of their own
 * from 64 on, which `rdmaconf run --vm` and `--target ibsim` pass on.
 */
#define RC_EXITS(X)                                                         \
	X(OK, 0, "every case ok")                                           \
	X(FAILURES, 1,                                                      \
	  "a case failed, crashed, hung, diverged, or went "                \
	  "stale; or the gate found a case worse")                          \
	X(USAGE, 2,                                                         \
	  "bad command line or profile, or a filter that selects "          \
	  "no case")                                                        \
	X(ENV, 3,                                                           \
	  "the environment cannot run the suite: no such device, a "        \
	  "results file that cannot be read or is not one, an output that " \
	  "cannot be written (the results so far are kept)")                \
	X(NOTHING, 4,                                                       \
	  "no case ran: every selected one was skipped or "                 \
	  "unsupported here; a run that tested nothing is not green")       \
	X(INTERRUPTED, 130,                                                 \
	  "interrupted (SIGINT or SIGTERM): the results "                   \
	  "so far are kept")

#define RC_EXIT_ENUM(e, v, ...) RC_EXIT_##e = v,
enum rc_exit_code { RC_EXITS(RC_EXIT_ENUM) };
#undef RC_EXIT_ENUM

/* The names, and lookups of names read back (-1: no such word). */
const char *rc_verdict_name(enum rc_verdict v);
int rc_verdict_parse(const char *name);
unsigned int rc_verdict_rank(enum rc_verdict v);
bool rc_verdict_ran(enum rc_verdict v);
bool rc_verdict_bad(enum rc_verdict v);
bool rc_verdict_breaks(enum rc_verdict v);
/* "wrong errno", for messages; "errno", the profile qualifier */
const char *rc_fail_kind_name(enum rc_fail_kind k);
const char *rc_fail_kind_qualifier(enum rc_fail_kind k);
int rc_fail_kind_parse(const char *qualifier);
/* The verdict only XFAIL:<k> covers, or RC_NVERDICTS for a FAIL's kind */
enum rc_verdict rc_fail_kind_covers(enum rc_fail_kind k);
/* The kind whose qualifier alone covers verdict @v, or RC_FAIL_NONE */
enum rc_fail_kind rc_fail_kind_of_verdict(enum rc_verdict v);
const char *rc_basis_name(enum rc_basis b);
const char *rc_basis_title(enum rc_basis b);
const char *rc_basis_short(enum rc_basis b);
int rc_basis_parse(const char *name);
const char *rc_conv_name(enum rc_conv c);
const char *rc_outcome_name(enum rc_ret r);
const char *rc_impl_name(enum rc_impl_id i);
int rc_impl_parse(const char *name);
const char *rc_entry_kind_name(enum rc_entry_kind k);
int rc_entry_kind_parse(const char *name);
/* The words a message offers when a word is not one of them:
 * "XFAIL, DIVERGE, SKIP" */
const char *rc_entry_kind_choices(void);
const char *rc_fail_kind_choices(void);

#endif
