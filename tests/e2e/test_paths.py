"""The paths behind the library's usual ones (the detection issue, #27):
the libibumad rows again with the library's debug output on
(RDMACONF_UMAD_DEBUG), in the session's boot of the rxe VM (slow tier).
A path that runs only with debug on must not change what a caller sees:
every row ok, and each verdict as the recorded run of the rows had it."""
import pytest

from conftest import host_has_device, load_results, recorded_changes, \
    suite_run

pytestmark = [pytest.mark.vm, pytest.mark.slow]

VM_STEPS = {
    "umad-debug": "RDMACONF_UMAD_DEBUG=2 " + suite_run("--filter 'umad/*'"),
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
