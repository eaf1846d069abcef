"""The paths behind the library's usual ones (the detection issue, #27),
and a target that lacks what some rows need (the house issue, #26), in
the session's boot of the rxe VM (slow tier): the libibumad rows again
with the library's debug output on (RDMACONF_UMAD_DEBUG), and without
ib_umad.
A path that runs only with debug on must not change what a caller sees:
every row ok, and each verdict as the recorded run of the rows had it."""
import pytest

from conftest import host_has_device, load_results, recorded_changes, \
    suite_run, vocab_names

pytestmark = [pytest.mark.vm, pytest.mark.slow]

VM_STEPS = {
    "umad-debug": "RDMACONF_UMAD_DEBUG=2 " + suite_run("--filter 'umad/*'"),
    # a RoCE host before `modprobe ib_umad`: no umad device; the module
    # comes back for the steps after this one
    "no-umad": "modprobe -r ib_umad && { %s --filter 'umad/*'; rc=$?; "
               "modprobe ib_umad; exit $rc; }" % suite_run(),
}


@pytest.mark.skipif(host_has_device(), reason="recorded on the rxe VM")
def test_umad_rows_with_debug_output_on(vm_session):
    step = vm_session["umad-debug"]
    data = load_results(step)
    assert step.rc == 0, step.out[-3000:] + step.err[-1000:]
    assert data["complete"] and len(data["results"]) > 100
    changed = [c for c in recorded_changes("rxe", data)
               if c[0].startswith("umad/")]
    assert changed == [], changed
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
