"""The suite's detection power, sampled: CI runs the mutants of a dozen
calls (tests/mutants/run_mutation.py --sample) in the rxe VM; `make
mutation` runs them all.  Every mutant must be killed or have a written
reason in tests/mutants/survivors.expect."""
import json
import os
import subprocess

import pytest

from conftest import RDMACONF, ROOT

pytestmark = pytest.mark.vm

MUTANTS = os.environ.get("RDMACONF_MUTANTS",
                         os.path.join(ROOT, "build", "mutants.so"))
DRIVER = os.path.join(ROOT, "tests", "mutants", "run_mutation.py")


def test_every_sampled_mutant_is_killed_or_explained(tmp_path):
    out = tmp_path / "mutation.json"
    cmd = ["/usr/bin/python3", "-u", DRIVER, "--sample", "--rdmaconf",
           RDMACONF, "--mutants", MUTANTS, "--json", str(out)]
    if not (os.path.isdir("/sys/class/infiniband") and
            os.listdir("/sys/class/infiniband")):
        cmd = [os.path.join(ROOT, "ci", "rxe-vm"), "--"] + cmd
    env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
    p = subprocess.run(cmd, capture_output=True, text=True, env=env,
                       cwd=str(tmp_path), timeout=600)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-2000:]
    report = json.loads(out.read_text())
    assert report["complete"] and report["mutants"] >= 25, report
    calls = report["calls"]
    assert "ibv_destroy_ah" in calls and "umad_set_grh" in calls
    for call, c in calls.items():
        assert not c["errors"], (call, c["errors"])
        for s in c["survivors"]:
            assert s["reason"], (call, s)


def test_the_mutants_library_lists_one_call_per_mutant():
    p = subprocess.run(["/bin/true"], env=dict(
        os.environ, LD_PRELOAD=MUTANTS, RDMACONF_MUTANT="list"),
        capture_output=True, text=True, check=True)
    names = [l.split("\t")[0] for l in p.stdout.splitlines()]
    assert len(names) == len(set(names)) and len(names) >= 80
    rows = json.loads(subprocess.run([RDMACONF, "list", "--json", "-"],
                                     capture_output=True, text=True,
                                     check=True).stdout)
    calls = {r["call"] for r in rows}
    mutated = {n.split("/")[0] for n in names}
    assert mutated <= calls, mutated - calls
    # every call with rows has mutants, but the one rdma-core lacks and
    # the two that are inline in <infiniband/umad.h>
    assert calls - mutated == {"umad_set_grh_net", "umad_alloc",
                               "umad_free"}, calls - mutated
