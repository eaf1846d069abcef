"""Every row on rxe, the slow tier's: the whole suite as recorded, gated
against the baseline, and deciding every row in parallel as rows one at
a time do (the default pool and --jobs 1), in one boot of the rxe VM.
make check runs a sample of it (test_rxe_vm)."""
import os
import re
import subprocess

import pytest

from conftest import RDMACONF, ROOT, host_has_device, load_results, \
    recorded_changes, suite_run
from test_rxe_vm import device_rows_conform

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


def jobs(ktap):
    """The pool's size a run's KTAP header gives ("; jobs 16")."""
    return int(re.search(r"; jobs (\d+)$", ktap, re.M).group(1))


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
    assert jobs(vm_session["suite-serial"].out) == 1
    assert jobs(vm_session["suite"].out) > 1


@pytest.fixture(scope="module")
def full_run(vm_session):
    step = vm_session["suite"]
    return step, load_results(step)


def test_every_device_row_ran_and_conforms(full_run):
    device_rows_conform(*full_run)


@pytest.mark.skipif(host_has_device(), reason="recorded on the rxe VM")
def test_every_verdict_as_recorded(full_run):
    """Every row's verdicts, agreement and ok as the recorded run on rxe
    had them."""
    assert recorded_changes("rxe", full_run[1]) == []


def test_gate_against_the_baseline_in_the_tree(full_run):
    """The rxe run gated against Debian's rdma-core 44 baseline."""
    _, data = full_run
    if host_has_device():
        pytest.skip("the baseline is of rxe in the VM; this host has a device")
    base = os.path.join(ROOT, "cases", "baselines", "rxe-rdma-core-44.json")
    p = subprocess.run([RDMACONF, "gate", "--baseline", base, data["_path"]],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stdout[-4000:]
