"""Rows in parallel decide every row as rows one at a time do: the suite
with the default pool and with --jobs 1, in one boot of the rxe VM."""
import pytest

from conftest import load_results, suite_run

pytestmark = [pytest.mark.vm, pytest.mark.slow]

# The same suite one row at a time, but for ibv_modify_qp's state pairs
# of UC and UD QPs (122 rows, two minutes serially in the VM): each row
# has a QP of its own and shares nothing with another; RC's pairs, the
# same code on another QP type, stay.  Every other call's rows, present
# and to come (modify_cq, modify_wq, modify_qp_rate_limit ...): the test
# fails for a row the globs leave out.
SERIAL = ("umad/*,rdmacm/*,verbs/[!m]*,verbs/m[!o]*,verbs/mo[!d]*,"
          "verbs/modify_[!q]*,verbs/modify_qp_*,verbs/modify_qp/rc-*")

VM_STEPS = {
    "suite": suite_run(),
    # one row at a time: the verdicts must not change
    "suite-serial": suite_run("--jobs 1 --filter '%s'" % SERIAL),
}


def test_serial_and_parallel_runs_give_the_same_verdicts(vm_session):
    """Rows run in parallel unless they share state (rc_share): the same
    suite one row at a time must decide every row the same way."""
    par, ser = (load_results(vm_session[s]) for s in ("suite",
                                                      "suite-serial"))

    # whether a row diverges is decided; the values its message quotes
    # need not repeat (librdmacm's rdma_get_dst_port of an id that is
    # resolved and not connected gives another value each run)
    def decided(data):
        return {r["id"]: (r["verdict"], r["ok"], r["agree"],
                          bool(r["divergence"]))
                for r in data["results"]}
    a, b = decided(par), decided(ser)
    left_out = {k for k in a if k.startswith(("verbs/modify_qp/uc-",
                                              "verbs/modify_qp/ud-"))}
    assert left_out and b.keys() == a.keys() - left_out
    a = {k: v for k, v in a.items() if k in b}
    differ = {k: (a[k], b[k]) for k in a if a[k] != b[k]}
    assert not differ, differ
    assert vm_session["suite-serial"].out.startswith("KTAP version 1")
    assert "; jobs 1" in vm_session["suite-serial"].out
    assert "; jobs 1" not in vm_session["suite"].out
