"""End-to-end driver: runs build/rdmaconf as a user would and reads its JSON."""
import json
import os
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RDMACONF = os.environ.get("RDMACONF", os.path.join(ROOT, "build", "rdmaconf"))
SHIMS = os.environ.get("RDMACONF_SHIMS", os.path.join(ROOT, "build", "shims"))


def pytest_configure(config):
    config.addinivalue_line("markers", "vm: needs an RDMA device or the rxe VM")
    config.addinivalue_line("markers", "ibsim: runs the InfiniBand simulator")


class Run:
    def __init__(self, proc, json_path):
        self.rc = proc.returncode
        self.out = proc.stdout
        self.err = proc.stderr
        self.data = None
        if json_path and os.path.exists(json_path):
            with open(json_path) as f:
                self.data = json.load(f)

    def result(self, case_id):
        for r in self.data["results"]:
            if r["id"] == case_id:
                return r
        raise KeyError(case_id)

    def verdicts(self, impl):
        return {r["id"]: r["verdict"][impl] for r in self.data["results"]}


@pytest.fixture
def rdmaconf(tmp_path):
    """rdmaconf(args, env=..., json=True) -> Run"""

    def run(*args, env=None, json_out=True, timeout=300):
        full_env = dict(os.environ)
        full_env.pop("LD_PRELOAD", None)
        full_env.update(env or {})
        path = str(tmp_path / "results.json") if json_out else None
        cmd = [RDMACONF, *args] + (["--json", path] if json_out else [])
        proc = subprocess.run(cmd, env=full_env, capture_output=True,
                              text=True, timeout=timeout)
        return Run(proc, path)

    return run


@pytest.fixture
def shim():
    return lambda name: os.path.join(SHIMS, name)
