// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The case tables themselves, run in-process on the reference: every row
 * must PASS there.  And the converse, so the rows can fail at all: an
 * implementation with one deliberate bug must FAIL the rows that pin it.
 */
#include <criterion/criterion.h>
#include <endian.h>
#include <errno.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../harness/rdmaconf.h"
#include "../../harness/verdict.h"
#include "../../reference/umad/ref_umad.h"

static const struct rc_group *group_at(unsigned int i)
{
	return __start_rc_groups[i];
}

static unsigned int ngroups(void)
{
	return __stop_rc_groups - __start_rc_groups;
}

static void run_row(const struct rc_group *g, size_t i,
		    const struct rc_ops *ops, struct rc_judgement *j)
{
	static struct rc_obs obs;
	struct rc_target t = { .slowness = 1 };
	struct rc_ctx ctx = { .ops = ops, .target = &t, .obs = &obs };

	struct rc_outcome o = { .selected = true,
				.attempts = 1,
				.end.how = RC_END_EXITED };
	struct rc_verdict_in in = { .slowness = 1, .fastest_ms = -1 };

	memset(&obs, 0, sizeof(obs));
	g->run(RC_ROW(g, i), &ctx);
	o.obs = obs;
	rc_verdict_decide(g, RC_ROW(g, i), &o, &in, j);
}

#ifdef RDMACONF_COVERAGE
void __gcov_dump(void);
#endif

/* A row of the reference in a child of its own, as the harness runs it (a
 * row may crash, or leave state behind): the child's judgement comes back
 * through @fd, and the row's end, if it did not, in @j->msg. */
static void run_row_apart(const struct rc_group *g, size_t r,
			  struct rc_judgement *j)
{
	int fd[2], status;
	ssize_t n = -1;
	pid_t pid;

	memset(j, 0, sizeof(*j));
	cr_assert(pipe(fd) == 0);
	pid = fork();
	cr_assert(pid >= 0);
	if (pid == 0) {
		close(fd[0]);
		run_row(g, r, rc_impl(RC_IMPL_REFERENCE), j);
#ifdef RDMACONF_COVERAGE
		/* _exit skips gcov's exit hook: save what the row covered */
		__gcov_dump();
#endif
		/* _exit: none of Criterion's exit handlers in a child of its
		 * test */
		_exit(write(fd[1], j, sizeof(*j)) == sizeof(*j) ? 0 : 1);
	}
	close(fd[1]);
	n = read(fd[0], j, sizeof(*j));
	close(fd[0]);
	cr_assert(waitpid(pid, &status, 0) == pid);
	if (n != sizeof(*j)) {
		j->verdict = RC_CRASH;
		snprintf(j->msg, sizeof(j->msg), "its process ended: %s %d",
			 WIFSIGNALED(status) ? "signal" : "exit",
			 WIFSIGNALED(status) ? WTERMSIG(status) :
					       WEXITSTATUS(status));
	}
}

/* The rows that need nothing (the others run on a device: the VM), a
 * forked child each: a Criterion test each was an exec of this binary
 * and its 25 libraries, 167 of them 5 of make check's seconds. */
Test(cases, reference_passes_every_row)
{
	char failed[4096] = "";
	unsigned int g, ran = 0, bad = 0;
	size_t r, len = 0;

	for (g = 0; g < ngroups(); g++)
		for (r = 0; r < group_at(g)->nrows; r++) {
			const struct rc_case *c = RC_ROW(group_at(g), r);
			struct rc_judgement j;

			if (c->needs)
				continue;
			run_row_apart(group_at(g), r, &j);
			ran++;
			if (j.verdict == RC_PASS)
				continue;
			bad++;
			if (len < sizeof(failed))
				len += snprintf(failed + len,
						sizeof(failed) - len,
						"\n%s: %s: %s", c->id,
						rc_verdict_name(j.verdict),
						j.msg);
		}
	cr_assert(ran > 100, "%u rows that need nothing", ran);
	cr_assert_eq(bad, 0, "%u of %u rows do not pass:%s", bad, ran, failed);
}

Test(cases, ids_are_unique_and_cite_a_sentence)
{
	unsigned int g, h;
	size_t r, s;

	for (g = 0; g < ngroups(); g++) {
		const struct rc_group *a = group_at(g);

		for (r = 0; r < a->nrows; r++) {
			const struct rc_case *c = RC_ROW(a, r);

			cr_assert(c->id && strncmp(c->id, a->lib,
						   strlen(a->lib)) == 0,
				  "%s: id must start with %s/", c->id, a->lib);
			/* verbatim in the page: tests/e2e/test_citations.py */
			cr_assert(c->doc && strlen(c->doc) >= 8,
				  "%s: no man-page sentence", c->id);
			for (h = 0; h < ngroups(); h++)
				for (s = 0; s < group_at(h)->nrows; s++)
					cr_assert(
						!(h == g &&
						  s == r) && strcmp(RC_ROW(group_at(h),
									   s)
									    ->id,
								    c->id) ?
							1 :
							(h == g && s == r),
						"%s: duplicate id", c->id);
		}
	}
}

/* Where a row of basis "documented" requires an errno, its sentence
 * names it: otherwise a different errno is no break of the man page. */
static bool sentence_names(const char *doc, int err)
{
	const char *name = rc_errno_name(err);

	/* Linux's EWOULDBLOCK is EAGAIN */
	return strstr(doc, name) ||
	       (err == EAGAIN && strstr(doc, "EWOULDBLOCK"));
}

Test(cases, rows_state_their_basis_and_documented_errnos_are_cited)
{
	for (unsigned int g = 0; g < ngroups(); g++)
		for (size_t r = 0; r < group_at(g)->nrows; r++) {
			const struct rc_case *c = RC_ROW(group_at(g), r);

			cr_assert(c->basis >= RC_BASIS_DOCUMENTED &&
					  c->basis < RC_NBASES,
				  "%s: no basis", c->id);
			cr_assert(c->basis == RC_BASIS_DOCUMENTED || c->note,
				  "%s: a %s row says why in its note", c->id,
				  rc_basis_name(c->basis));
			if (c->basis != RC_BASIS_DOCUMENTED)
				continue;
			for (int i = 0;
			     i < RC_MAX_ERRNOS && c->contract.errnos[i]; i++)
				cr_assert(sentence_names(c->doc,
							 c->contract.errnos[i]),
					  "%s: requires %s, which its sentence "
					  "does not name (basis linux?)",
					  c->id,
					  rc_errno_name(c->contract.errnos[i]));
		}
}

/*
 * Each call whose convention reports failures has rows where it fails:
 * a failure path no row takes is a documented behaviour nobody checks.
 * The exceptions, each with its reason.
 */
/* the calls of objects the suite's providers cannot make */
#define NOT_MADE                                                     \
	"its object is none rxe or siw can make: no row of it runs " \
	"there yet (#29)"

static const struct {
	const char *call, *why;
} never_fails[] = {
	{ "umad_set_addr",
	  "its page: \"Currently, there are no errors indicated.\"" },
	{ "umad_set_addr_net",
	  "its page: \"Currently, there are no errors indicated.\"" },
	{ "umad_set_grh",
	  "its page: \"Currently, there are no errors indicated.\"" },
	{ "umad_set_grh_net",
	  "its page: \"Currently, there are no errors indicated.\"" },
	{ "umad_set_pkey",
	  "no argument is documented as invalid: any index is stored" },
	{ "umad_get_cas_names",
	  "fails only when sysfs has no infiniband_mad class, "
	  "which a row cannot take away from the running kernel" },
	{ "ibv_get_device_list",
	  "fails only without the kernel's verbs ABI "
	  "(ENOSYS) or memory: a row cannot take the ABI away from a library "
	  "the harness initialised before the row (the device's fingerprint)" },
	{ "ibv_close_device",
	  "no failure a caller can cause: close(2) of the "
	  "command file releases what is left on it (ibv_open_device(3)'s "
	  "NOTES)" },
	{ "umad_get_ca_device_list",
	  "its page's one error is ENOMEM, which a "
	  "row cannot bring about in the library alone" },
	{ "umad_get_smi_gsi_pairs", "its page names no error for its -1, and "
				    "no argument as invalid" },
	{ "ibv_poll_cq",
	  "no argument of a CQ the implementation made is "
	  "documented as invalid, and neither rxe nor the reference fails a "
	  "poll of one (an overrun CQ is reported by an async event)" },
	{ "ibv_req_notify_cq",
	  "no argument of a CQ the implementation made is "
	  "documented as invalid (solicited_only is any int), and rxe arms "
	  "every such CQ" },
	{ "rdma_destroy_id", "its page names no failure, and an id the "
			     "library did not make is undefined to destroy" },
	{ "ibv_dealloc_td", NOT_MADE },
	{ "ibv_free_dm", NOT_MADE },
	{ "ibv_dealloc_dmah", NOT_MADE },
	{ "ibv_memcpy_to_dm", NOT_MADE },
	{ "ibv_memcpy_from_dm", NOT_MADE },
	{ "ibv_destroy_counters", NOT_MADE },
	{ "ibv_attach_counters_point_flow", NOT_MADE },
	{ "ibv_read_counters", NOT_MADE },
	{ "ibv_destroy_flow", NOT_MADE },
	{ "ibv_modify_wq", NOT_MADE },
	{ "ibv_destroy_wq", NOT_MADE },
	{ "ibv_destroy_rwq_ind_table", NOT_MADE },
	{ "ibv_close_xrcd", NOT_MADE },
};

static bool may_never_fail(const char *call)
{
	for (size_t i = 0; i < ARRAY_SIZE(never_fails); i++)
		if (!strcmp(never_fails[i].call, call))
			return true;
	return false;
}

/* Has any row of @call, in any of its groups, a failing contract? */
static bool call_has_failing_row(const char *call)
{
	for (unsigned int g = 0; g < ngroups(); g++) {
		const struct rc_group *grp = group_at(g);

		if (strcmp(grp->call, call))
			continue;
		for (size_t r = 0; r < grp->nrows; r++)
			if (RC_ROW(grp, r)->contract.ret == RC_RET_ERR)
				return true;
	}
	return false;
}

/* per call: a call's rows may sit in several files (its port events,
 * its memory-window opcodes), one of which has its failing rows */
Test(cases, every_failure_convention_has_failing_rows)
{
	for (unsigned int g = 0; g < ngroups(); g++) {
		const struct rc_group *grp = group_at(g);
		bool can_fail, fails = call_has_failing_row(grp->call);

		can_fail = grp->conv != RC_CONV_VALUE &&
			   grp->conv != RC_CONV_OFFSET;
		if (can_fail && !may_never_fail(grp->call))
			cr_assert(fails,
				  "%s reports failures, but no row "
				  "makes it fail",
				  grp->call);
		if (may_never_fail(grp->call))
			cr_assert(!fails,
				  "%s has failing rows now: drop it "
				  "from never_fails",
				  grp->call);
	}
}

/* A documented wait is judged, at any slowness, with a tolerance below
 * half the wait (rc_tolerance_ms): a row's own tolerance must fit. */
Test(cases, timed_rows_can_tell_half_or_double_the_wait)
{
	for (unsigned int g = 0; g < ngroups(); g++)
		for (size_t r = 0; r < group_at(g)->nrows; r++) {
			const struct rc_case *c = RC_ROW(group_at(g), r);
			const struct rc_contract *e = &c->contract;

			if (!e->tol_ms || !e->ms)
				continue;
			cr_assert_lt(rc_tolerance_ms(e, 1000), e->ms / 2.0,
				     "%s: tolerance", c->id);
			cr_assert_leq(e->tol_ms, e->ms * 0.45,
				      "%s: %u ms +/- %u ms cannot tell half or "
				      "double the wait",
				      c->id, e->ms, e->tol_ms);
		}
}

/* umad_set_grh storing flow_label in host order: the classic mistake. */
static int set_grh_host_order(void *umad, void *mad_addr)
{
	ib_mad_addr_t *a = mad_addr;
	uint32_t flow;

	ref_umad_set_grh(umad, mad_addr);
	if (a) {
		flow = a->flow_label;
		memcpy((uint8_t *)umad + REF_UMAD_OFF_FLOW_LABEL, &flow, 4);
	}
	return 0;
}

/* umad_set_addr writing sl into path_bits: an off-by-one in the layout. */
static int set_addr_off_by_one(void *umad, int dlid, int dqp, int sl, int qkey)
{
	ref_umad_set_addr(umad, dlid, dqp, 0, qkey);
	((uint8_t *)umad)[REF_UMAD_OFF_SL] = 0xa5;
	((uint8_t *)umad)[REF_UMAD_OFF_PATH_BITS] = sl;
	return 0;
}

static const struct rc_group *group_of(const char *call)
{
	for (unsigned int g = 0; g < ngroups(); g++)
		if (!strcmp(group_at(g)->call, call))
			return group_at(g);
	return NULL;
}

static unsigned int count_fails(const char *call, const struct rc_ops *ops)
{
	const struct rc_group *g = group_of(call);
	struct rc_judgement j;
	unsigned int fails = 0;

	cr_assert(g, "no group for %s", call);
	for (size_t r = 0; r < g->nrows; r++) {
		run_row(g, r, ops, &j);
		if (j.verdict == RC_FAIL) {
			cr_assert_eq(j.kind, RC_FAIL_OUTPUT, "%s: %s",
				     RC_ROW(g, r)->id, j.msg);
			fails++;
		}
	}
	return fails;
}

Test(cases, broken_byte_order_is_caught)
{
	struct rc_ops ops = *rc_impl(RC_IMPL_REFERENCE);

	ops.umad_set_grh = set_grh_host_order;
	/* the five rows with a non-zero flow label must catch it */
	cr_assert_geq(count_fails("umad_set_grh", &ops), 5);
}

Test(cases, broken_layout_is_caught)
{
	struct rc_ops ops = *rc_impl(RC_IMPL_REFERENCE);

	ops.umad_set_addr = set_addr_off_by_one;
	cr_assert_eq(count_fails("umad_set_addr", &ops),
		     group_of("umad_set_addr")->nrows);
}

Test(cases, missing_call_is_absent)
{
	struct rc_ops ops = *rc_impl(RC_IMPL_REFERENCE);
	struct rc_judgement j;

	ops.umad_size = NULL;
	run_row(group_of("umad_size"), 0, &ops, &j);
	cr_assert_eq(j.verdict, RC_ABSENT, "%s", j.msg);
}
