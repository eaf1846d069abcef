// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The libibverbs calls that need no device, over their whole finite
 * domains, on both implementations: the rate conversions, the *_str
 * names, ibv_inc_rkey, and what a host without RDMA gets from
 * ibv_get_device_list and ibv_is_fork_initialized.  Each asserts what
 * the pages say, then that the two sides agree, but for the deviations
 * of rdma-core listed below (each fails loudly once it no longer holds).
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "../../harness/impl.h"

static const struct rc_ops *sys, *ref;

static void both(void)
{
	sys = rc_impl(RC_IMPL_SYSTEM);
	ref = rc_impl(RC_IMPL_REFERENCE);
	cr_assert(sys->ibv_rate_to_mult, "libibverbs: %s",
		  rc_impl_open_error("verbs") ?: "no ibv_rate_to_mult");
}

TestSuite(verbs_pure, .init = both);

/* Every value of enum ibv_rate, and some that are none. */
#define RATE_MIN -2
#define RATE_MAX (IBV_RATE_1200_GBPS + 8)

/*
 * ibv_rate_to_mult(3): "converts the IB transmission rate enumeration
 * rate to a multiple of 2.5 Gbit/sec".  rdma-core 44 answers -1 for the
 * rates that are whole multiples of 2.5 Gb/s but came with FDR/EDR
 * signalling (25, 100, 200, 300 Gb/s), and mult_to_ibv_rate(3) does not
 * know their multipliers (it gives IBV_RATE_MAX).
 */
static const struct {
	enum ibv_rate rate;
	int mult;
} rdma_core_mult_deviations[] = {
	{ IBV_RATE_25_GBPS, 10 },
	{ IBV_RATE_100_GBPS, 40 },
	{ IBV_RATE_200_GBPS, 80 },
	{ IBV_RATE_300_GBPS, 120 },
};

static bool mult_deviates(int rate, int mult)
{
	size_t i;

	for (i = 0; i < sizeof(rdma_core_mult_deviations) /
				sizeof(rdma_core_mult_deviations[0]);
	     i++)
		if (rdma_core_mult_deviations[i].rate == rate ||
		    rdma_core_mult_deviations[i].mult == mult)
			return true;
	return false;
}

Test(verbs_pure, rate_examples_of_the_pages)
{
	const struct rc_ops *impl[] = { sys, ref };
	size_t i;

	for (i = 0; i < 2; i++) {
		/* "if rate is IBV_RATE_5_GBPS, the value 2 will be returned",
		 * "if mult is 2, the rate enumeration IBV_RATE_5_GBPS" */
		cr_expect_eq(impl[i]->ibv_rate_to_mult(IBV_RATE_5_GBPS), 2,
			     "%s", impl[i]->name);
		cr_expect_eq(impl[i]->mult_to_ibv_rate(2), IBV_RATE_5_GBPS,
			     "%s", impl[i]->name);
		/* "if rate is IBV_RATE_5_GBPS, the value 5000 will be
		 * returned", "if mult is 5000, ... IBV_RATE_5_GBPS" */
		cr_expect_eq(impl[i]->ibv_rate_to_mbps(IBV_RATE_5_GBPS), 5000,
			     "%s", impl[i]->name);
		cr_expect_eq(impl[i]->mbps_to_ibv_rate(5000), IBV_RATE_5_GBPS,
			     "%s", impl[i]->name);
	}
}

Test(verbs_pure, rate_to_mult_and_back_on_every_rate)
{
	int r, m;

	for (r = RATE_MIN; r <= RATE_MAX; r++) {
		m = ref->ibv_rate_to_mult(r);
		/* the reference's own: a multiplier names its rate again */
		if (m > 0)
			cr_expect_eq(ref->mult_to_ibv_rate(m), r,
				     "rate %d mult %d", r, m);
		if (mult_deviates(r, m)) {
			cr_expect_neq(sys->ibv_rate_to_mult(r), m,
				      "rate %d: rdma-core conforms now: drop "
				      "it from the deviations",
				      r);
			continue;
		}
		cr_expect_eq(sys->ibv_rate_to_mult(r), m, "rate %d", r);
	}
	for (m = -2; m <= 2000; m++) {
		if (mult_deviates(-100, m))
			continue;
		cr_expect_eq(sys->mult_to_ibv_rate(m), ref->mult_to_ibv_rate(m),
			     "mult %d", m);
	}
}

Test(verbs_pure, rate_to_mbps_and_back_on_every_rate)
{
	int r, mbps;

	for (r = RATE_MIN; r <= RATE_MAX; r++) {
		mbps = ref->ibv_rate_to_mbps(r);
		cr_expect_eq(sys->ibv_rate_to_mbps(r), mbps, "rate %d", r);
		if (mbps > 0)
			cr_expect_eq(ref->mbps_to_ibv_rate(mbps), r, "rate %d",
				     r);
	}
	/* every Mb/s up to the fastest rate's, and past it */
	for (mbps = -2; mbps <= 1300000; mbps++)
		if (sys->mbps_to_ibv_rate(mbps) != ref->mbps_to_ibv_rate(mbps))
			cr_assert_fail("mbps %d: system %d, reference %d", mbps,
				       sys->mbps_to_ibv_rate(mbps),
				       ref->mbps_to_ibv_rate(mbps));
}

/* "Increases the 8 LSB of rkey", "the same index (bits 0xffffff00)" */
Test(verbs_pure, inc_rkey_every_tag)
{
	static const uint32_t index[] = { 0, 0x100, 0x123400, 0xffffff00 };
	uint32_t k, tag, want;
	size_t i;

	for (i = 0; i < sizeof(index) / sizeof(index[0]); i++)
		for (tag = 0; tag < 256; tag++) {
			k = index[i] | tag;
			want = index[i] | ((tag + 1) & 0xff);
			cr_expect_eq(ref->ibv_inc_rkey(k), want, "rkey %#x", k);
			cr_expect_eq(sys->ibv_inc_rkey(k), want, "rkey %#x", k);
		}
}

typedef const char *(*str_fn)(int);

/* "return a constant string that describes the enum value": one for every
 * value, the same each time, a different one for each value of the enum
 * (our reading of "describes"), "unknown" outside it on both sides. */
static void check_names(const char *call, str_fn s, str_fn r, int first,
			int last)
{
	const struct {
		const char *name;
		str_fn fn;
	} impl[] = { { "system", s }, { "reference", r } };
	int v, w;
	size_t i;

	cr_assert(s && r, "%s on both sides", call);
	for (i = 0; i < 2; i++) {
		for (v = first - 3; v <= last + 3; v++) {
			const char *a = impl[i].fn(v);

			cr_assert(a && a[0], "%s %s(%d)", impl[i].name, call,
				  v);
			cr_expect_eq(a, impl[i].fn(v), "%s %s(%d): constant",
				     impl[i].name, call, v);
			if (v < first || v > last) {
				cr_expect_str_eq(a, "unknown", "%s %s(%d)",
						 impl[i].name, call, v);
				continue;
			}
			for (w = first; w < v; w++)
				cr_expect_str_neq(a, impl[i].fn(w),
						  "%s %s(%d) and (%d)",
						  impl[i].name, call, v, w);
			if (i)
				cr_log_info("%s(%d): \"%s\" / \"%s\"", call, v,
					    s(v), a);
		}
	}
}

Test(verbs_pure, names_over_every_value)
{
	check_names("ibv_node_type_str", (str_fn)sys->ibv_node_type_str,
		    (str_fn)ref->ibv_node_type_str, IBV_NODE_CA,
		    IBV_NODE_UNSPECIFIED);
	check_names("ibv_port_state_str", (str_fn)sys->ibv_port_state_str,
		    (str_fn)ref->ibv_port_state_str, IBV_PORT_NOP,
		    IBV_PORT_ACTIVE_DEFER);
	check_names("ibv_event_type_str", (str_fn)sys->ibv_event_type_str,
		    (str_fn)ref->ibv_event_type_str, IBV_EVENT_CQ_ERR,
		    IBV_EVENT_WQ_FATAL);
	check_names("ibv_wc_status_str", (str_fn)sys->ibv_wc_status_str,
		    (str_fn)ref->ibv_wc_status_str, IBV_WC_SUCCESS,
		    IBV_WC_TM_RNDV_INCOMPLETE);
}

static bool host_has_rdma(void)
{
	return !access("/sys/class/infiniband_verbs/abi_version", F_OK);
}

/* ERRORS: "ENOSYS No kernel support for RDMA." */
Test(verbs_pure, no_rdma_kernel_no_device_list)
{
	const struct rc_ops *impl[] = { sys, ref };
	struct ibv_device **list;
	size_t i;
	int n;

	if (host_has_rdma())
		cr_skip_test("this host has RDMA: the VM smoke test lists it");
	for (i = 0; i < 2; i++) {
		n = -1;
		errno = 0;
		list = impl[i]->ibv_get_device_list(&n);
		cr_expect_null(list, "%s", impl[i]->name);
		cr_expect_eq(errno, ENOSYS, "%s: errno %d", impl[i]->name,
			     errno);
		cr_expect_eq(n, 0, "%s: num_devices", impl[i]->name);
		if (list)
			impl[i]->ibv_free_device_list(list);
	}
	cr_expect_eq(sys->ibv_is_fork_initialized(),
		     ref->ibv_is_fork_initialized());
}
