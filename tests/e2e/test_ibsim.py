"""The umad cases on ibsim + opensm (ci/ibsim-run): an InfiniBand link
layer without hardware, every case in a process of its own."""
import json
import os
import subprocess

import pytest

from conftest import RDMACONF, ROOT

pytestmark = pytest.mark.ibsim


def test_umad_cases_on_ibsim(tmp_path):
    out = tmp_path / "ibsim.json"
    p = subprocess.run([os.path.join(ROOT, "ci", "ibsim-run"), RDMACONF, "run",
                        "--filter", "umad/*", "--watchdog-ms", "3000",
                        "--json", str(out)], capture_output=True, text=True,
                       timeout=600)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-2000:]
    data = json.loads(out.read_text())
    assert data["device"]["name"].startswith("ibsim")
    assert data["device"]["link_layer"] == "InfiniBand"
    rows = {r["id"]: r for r in data["results"]}
    # real behaviour on the simulated fabric: discovery and registration
    for rid in ("umad/get_ca/target-device", "umad/register/vendor-class-client",
                "umad/register_oui/class-0x30", "umad/close_port/open-port"):
        assert rows[rid]["verdict"] == {"system": "PASS",
                                        "reference": "PASS"}, rows[rid]
    # the simulator's limits are the ibsim profile's, with reasons
    r = rows["umad/send/timeout-200ms-retries-1"]
    assert r["expectation"]["where"].split(":")[0].endswith("ibsim.expect")
    assert sum(r["verdict"]["system"] == "PASS" for r in rows.values()) >= 60
    # nothing the run started is left behind
    left = subprocess.run(["pgrep", "-f", "ibsim -s " + ROOT], capture_output=True)
    assert left.returncode == 1


def test_ibsim_run_missing_tools(tmp_path):
    p = subprocess.run([os.path.join(ROOT, "ci", "ibsim-run"), "true"],
                       capture_output=True, text=True,
                       env=dict(os.environ, RDMACONF_UMAD2SIM="/nonexistent.so"))
    assert p.returncode == 69 and p.stderr.count("\n") == 1, p.stderr
