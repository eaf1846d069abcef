"""The paths behind the library's usual ones (the detection issue, #27),
and a target that lacks what some rows need (the house issue, #26), in
the session's boot of the rxe VM (slow tier): the libibumad rows again
with the library's debug output on (RDMACONF_UMAD_DEBUG), and without
ib_umad.
A path that runs only with debug on must not change what a caller sees:
every row ok, and each verdict as the recorded run of the rows had it,
but for the entries of rdma-core.expect that hold only with the output on
(%when umad-debug), which must then be the ones that decided."""
import os

import pytest

from conftest import ROOT, host_has_device, load_results, \
    recorded_changes, suite_run, vocab_names

pytestmark = [pytest.mark.vm, pytest.mark.slow]

VM_STEPS = {
    "umad-debug": "RDMACONF_UMAD_DEBUG=2 " + suite_run("--filter 'umad/*'"),
    # a RoCE host before `modprobe ib_umad`: no umad device; the module
    # comes back for the steps after this one
    "no-umad": "modprobe -r ib_umad && { %s --filter 'umad/*'; rc=$?; "
               "modprobe ib_umad; exit $rc; }" % suite_run(),
}


def debug_only_entries():
    """{id: "rdma-core.expect:LINE"} of the entries that hold only with
    libibumad's debug output on: those after a '%when umad-debug' line."""
    entries, on = {}, False
    path = os.path.join(ROOT, "cases", "expect", "rdma-core.expect")
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if line.startswith("%when"):
                on = line.split()[1:2] == ["umad-debug"]
            elif on and line.strip() and not line.startswith("#"):
                entries[line.split()[0]] = "rdma-core.expect:%d" % n
    return entries


@pytest.mark.skipif(host_has_device(), reason="recorded on the rxe VM")
def test_umad_rows_with_debug_output_on(vm_session):
    step = vm_session["umad-debug"]
    data = load_results(step)
    assert step.rc == 0, step.out[-3000:] + step.err[-1000:]
    assert data["complete"] and len(data["results"]) > 100
    debug_only = debug_only_entries()
    assert debug_only, "rdma-core.expect has no %when umad-debug entry"
    changed = [c for c in recorded_changes("rxe", data)
               if c[0].startswith("umad/")]
    assert [c for c in changed if c[0] not in debug_only] == [], changed
    decided = {r["id"]: (r["profile_entry"] or {}).get("where")
               for r in data["results"]}
    assert {i: decided.get(i) for i in debug_only} == debug_only
    # the library did print: the debug paths ran
    assert step.err, "no debug output from libibumad"


@pytest.mark.skipif(host_has_device(), reason="unloads ib_umad in the VM")
def test_without_ib_umad_rows_that_need_it_skip_with_the_cause(vm_session):
    """Declared needs are checked: without ib_umad, every row that needs
    the port's umad device is a SKIP that says so, and no row is not ok
    (a FAIL or BROKEN there would be a row that does not declare it)."""
    step = vm_session["no-umad"]
    data = load_results(step)
    assert step.rc == 0, step.out[-3000:] + step.err[-1000:]
    need = [r for r in data["results"] if "umad" in r["needs"]]
    assert len(need) >= 60
    for r in need:
        for impl in vocab_names("implementations"):
            assert r["verdict"][impl] in ("SKIP", "UNSUPPORTED"), r
        if r["verdict"]["system"] == "SKIP":
            assert "umad device" in r["system_detail"], r
    assert all(r["ok"] for r in data["results"])
