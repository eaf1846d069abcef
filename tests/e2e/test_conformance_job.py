"""make conformance's orchestration (ci/conformance) on a host without a
device: rxe and siw in one boot of the VM, each run's status kept, and
what a failing VM or siw leaves.  The VM launcher and the runs are
stand-ins (RDMACONF_RXE_VM, BUILD): what is tested is the job's own
logic, quickly; the real thing runs in make conformance and make bench."""
import json
import os
import subprocess

import pytest

from conftest import RDMACONF, ROOT, host_has_device

pytestmark = pytest.mark.skipif(
    host_has_device(), reason="the host has a device: no VM is started")

BASELINE = os.path.join(ROOT, "cases", "baselines", "rxe-rdma-core-44.json")

# A launcher that records its words and either fails as rxe-vm would
# (FAKE_VM_RC, FAKE_VM_SIW_RC for a --siw boot) or runs the command.
FAKE_VM = r"""#!/bin/bash
echo "$*" >> "$FAKE_LOG"
siw=0
while [ "$1" != -- ]; do [ "$1" = --siw ] && siw=1; shift; done
shift
[ "$siw" = 1 ] && [ -n "${FAKE_VM_SIW_RC:-}" ] && exit "$FAKE_VM_SIW_RC"
[ -n "${FAKE_VM_RC:-}" ] && exit "$FAKE_VM_RC"
exec "$@"
"""

# rdmaconf: `run` writes the baseline as its results (siw's as siw0's)
# and exits with FAKE_RUN_RC_<device>; `report` is the real one.
FAKE_RDMACONF = r"""#!/bin/bash
[ "$1" = run ] || exec "$REAL_RDMACONF" "$@"
dev=rxe0 json=
while [ $# -gt 0 ]; do
	case $1 in
	--device) dev=$2; shift ;;
	--json) json=$2; shift ;;
	esac
	shift
done
echo "run $dev" >> "$FAKE_LOG"
sed "s/\"name\": \"rxe0\"/\"name\": \"$dev\"/" "$BASELINE" > "$json"
echo "# rdmaconf: run on $dev"
rc=FAKE_RUN_RC_$dev
exit "${!rc:-0}"
"""


def conformance(tmp_path, **env):
    build = tmp_path / "build"
    build.mkdir(exist_ok=True)
    for name, text in (("rdmaconf", FAKE_RDMACONF), ("rxe-vm", FAKE_VM)):
        f = build / name
        f.write_text(text)
        f.chmod(0o755)
    log = tmp_path / "log"
    log.write_text("")
    e = dict(os.environ, BUILD=str(build), IBSIM="0", SIW="1",
             RDMACONF_RXE_VM=str(build / "rxe-vm"), FAKE_LOG=str(log),
             REAL_RDMACONF=RDMACONF, BASELINE=BASELINE, **env)
    report = tmp_path / "report"
    p = subprocess.run([os.path.join(ROOT, "ci", "conformance"), str(report)],
                       capture_output=True, text=True, env=e, timeout=120)
    return p, report, log.read_text().splitlines()


def test_rxe_and_siw_run_in_one_boot(tmp_path):
    p, report, log = conformance(tmp_path)
    assert p.returncode == 0, p.stderr
    boots = [l for l in log if l.startswith("--")]
    assert len(boots) == 1 and "--siw" in boots[0].split(), log
    assert [l for l in log if l.startswith("run ")] == ["run rxe0",
                                                      "run siw0"]
    assert json.loads((report / "siw.json").read_text())["device"]["name"] \
        == "siw0"
    assert "# rdmaconf: run on rxe0" in (report / "ktap.txt").read_text()
    assert (report / "index.html").exists()
    assert not list(report.glob(".*.rc")), "the status files are removed"


def test_a_failing_siw_run_keeps_both_results(tmp_path):
    p, report, _ = conformance(tmp_path, FAKE_RUN_RC_siw0="1")
    assert p.returncode == 1, p.stderr
    assert (report / "results.json").exists() and \
        (report / "siw.json").exists()
    assert "siw0" in (report / "summary.md").read_text()


def test_the_first_failing_run_gives_the_status(tmp_path):
    p, _, _ = conformance(tmp_path, FAKE_RUN_RC_rxe0="1",
                          FAKE_RUN_RC_siw0="3")
    assert p.returncode == 1, p.stderr


def test_siw_that_cannot_be_had_leaves_rxe_run_without_it(tmp_path):
    """rxe-vm --siw's 77 (no linux-headers for siw.ko): rxe's run in a
    boot without siw, its results kept, and the job exits 77."""
    p, report, log = conformance(tmp_path, FAKE_VM_SIW_RC="77")
    assert p.returncode == 77, p.stderr
    boots = [l.split() for l in log if l.startswith("--")]
    assert len(boots) == 2 and "--siw" in boots[0] and \
        "--siw" not in boots[1], log
    assert "exit 77" in p.stderr
    assert (report / "results.json").exists()
    assert not (report / "siw.json").exists()


def test_a_vm_that_never_boots_is_its_status_and_no_report(tmp_path):
    p, report, _ = conformance(tmp_path, FAKE_VM_RC="71")
    assert p.returncode == 71, p.stderr
    assert "no run left results" in p.stderr
    assert not (report / "index.html").exists()
