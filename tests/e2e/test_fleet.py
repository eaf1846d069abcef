"""Fleet runs on Slurm: a throwaway cluster of three nodes on this host
(ci/slurm-local), `rdmaconf fleet --target ibsim` with a simulated HCA per
node and per node's peer, remote rows crossing the fabric from one Slurm
node to another; an outlier; a node whose step dies; the fleet gate."""
import json
import os
import signal
import subprocess
import time

import pytest

from conftest import RDMACONF, ROOT, SHIMS, as_md

pytestmark = [pytest.mark.ibsim, pytest.mark.slow]

SLURM_LOCAL = os.path.join(ROOT, "ci", "slurm-local")
BUILD = os.path.dirname(RDMACONF)
# quick rows, the remote rows, and one that waits (so that a step can be
# killed while it runs)
FILTER = ("umad/get_port/*,umad/set_grh/flow-label-*,umad/register/*remote*,"
          "umad/send/lid-*,umad/poll/arrives-while-waiting")
REMOTE_ROWS = ["umad/register/smi-lid-routed-to-remote-node",
               "umad/send/lid-to-remote-node"]


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    env = dict(os.environ, RDMACONF_BUILD=BUILD,
               RDMACONF_SLURM_DIR=str(tmp_path_factory.mktemp("slurm")))
    env.pop("LD_PRELOAD", None)
    p = subprocess.run([SLURM_LOCAL, "start", "3"], env=env,
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    out = subprocess.run([SLURM_LOCAL, "env"], env=env, capture_output=True,
                         text=True, check=True).stdout
    conf = out.strip().split("=", 1)[1]
    env["SLURM_CONF"] = conf
    yield env
    subprocess.run([SLURM_LOCAL, "stop"], env=env, capture_output=True)
    # nothing of the cluster outlives it
    left = subprocess.run(["pgrep", "-f", env["RDMACONF_SLURM_DIR"]],
                          capture_output=True, text=True).stdout
    assert not left.strip(), left


def fleet(env, out, *args, nodes=3, popen=False):
    cmd = ["salloc", "-N", str(nodes), RDMACONF, "fleet", "--target", "ibsim",
           "--filter", FILTER, *args, "-o", str(out)]
    if popen:
        return subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True,
                                start_new_session=True)
    t = time.monotonic()
    p = subprocess.run(cmd, env=env, capture_output=True, text=True,
                       timeout=600)
    return p, time.monotonic() - t


@pytest.fixture(scope="module")
def good(cluster, tmp_path_factory):
    out = tmp_path_factory.mktemp("fleet")
    p, secs = fleet(cluster, out)
    return p, out, secs


def nodes_of(out):
    return {n["node"]: n for n in
            json.loads((out / "fleet.json").read_text())["nodes"]}


def test_every_node_runs_and_its_remote_rows_cross_the_fabric(good):
    p, out, _ = good
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
    nodes = nodes_of(out)
    assert sorted(nodes) == ["node1", "node2", "node3"]
    for name, n in nodes.items():
        data = json.loads((out / n["results"]).read_text())
        assert data["host"]["fleet"]["node"] == name
        assert data["host"]["fleet"]["partner"] == n["partner"] != name
        assert data["host"]["fleet"]["job"]
        assert data["host"]["remote_node"], data["host"]
        rows = {r["id"]: r for r in data["results"]}
        for rid in REMOTE_ROWS:
            assert rows[rid]["verdict"] == {"system": "PASS",
                                            "reference": "PASS"}, rows[rid]
    # each node's remote node is a different one: its partner's peer
    remotes = {json.loads((out / n["results"]).read_text())["host"][
        "remote_node"]["lid"] for n in nodes.values()}
    assert len(remotes) == 3
    md = (out / "summary.md").read_text()
    assert "## Fleet" in md and "No outliers." in md
    assert (out / "index.html").read_text().count("<h2>Fleet</h2>") == 1


def test_a_node_with_a_broken_rdma_core_is_the_outlier(cluster, good,
                                                       tmp_path):
    shim = os.path.join(SHIMS, "grh_host_order.so")
    p, _ = fleet(cluster, tmp_path, "--node-env",
                 "node3:LD_PRELOAD=" + shim)
    assert p.returncode == 1, p.stderr[-2000:]
    md = (tmp_path / "summary.md").read_text()
    fleet_md = md.split("## Fleet")[1].split("\n## ")[0]
    assert "**Outlier: node3**" in fleet_md, fleet_md
    assert "Outlier: node1" not in fleet_md and "Outlier: node2" not in \
        fleet_md
    assert as_md("umad/set_grh/flow-label-") in fleet_md
    # the fleet gate: node3 got worse against the good fleet
    g = subprocess.run([RDMACONF, "gate", "--baseline", str(good[1]),
                        str(tmp_path)], capture_output=True, text=True)
    assert g.returncode == 1, g.stdout
    worse = [l for l in g.stdout.splitlines() if l.startswith("WORSE")]
    assert worse and all(" node3:umad/set_grh/" in l for l in worse), \
        g.stdout
    same = subprocess.run([RDMACONF, "gate", "--baseline", str(good[1]),
                           str(good[1])], capture_output=True, text=True)
    assert same.returncode == 0, same.stdout


def test_a_node_whose_step_dies_is_reported_and_the_others_kept(cluster,
                                                                tmp_path):
    p = fleet(cluster, tmp_path, popen=True)
    ktap = tmp_path / ".fleet" / "ktap-node2"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if ktap.exists() and ktap.read_text().count("\nok ") >= 2:
            break
        time.sleep(0.1)
    # node2's step: its fleet-node task and all it started
    victims = subprocess.run(
        ["pgrep", "-f", "fleet-node suite %s" % tmp_path],
        capture_output=True, text=True).stdout.split()
    killed = False
    for pid in victims:
        try:
            with open("/proc/%s/environ" % pid, "rb") as f:
                if b"SLURMD_NODENAME=node2\0" in f.read():
                    os.killpg(os.getpgid(int(pid)), signal.SIGKILL)
                    killed = True
        except OSError:
            pass
    assert killed, victims
    out, err = p.communicate(timeout=300)
    assert p.returncode == 4, err[-2000:]
    nodes = nodes_of(tmp_path)
    assert nodes["node2"]["status"] is None
    for name in ("node1", "node3"):
        assert nodes[name]["status"] == 0, nodes
        data = json.loads((tmp_path / nodes[name]["results"]).read_text())
        assert data["complete"] is True
    md = (tmp_path / "summary.md").read_text()
    assert "| node2 | node3 | died" in md, md


def test_fleet_outside_an_allocation_and_bad_options(cluster, tmp_path):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("SLURM_JOB")}
    p = subprocess.run([RDMACONF, "fleet", "-o", str(tmp_path)], env=env,
                       capture_output=True, text=True)
    assert p.returncode == 3 and "inside a Slurm allocation" in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1, p.stderr
    p = subprocess.run([RDMACONF, "fleet", "--target", "moon", "-o", "x"],
                       capture_output=True, text=True)
    assert p.returncode == 2 and "--target takes host, vm or ibsim" in p.stderr
    p = subprocess.run([RDMACONF, "fleet", "--node-env", "node1", "-o", "x"],
                       capture_output=True, text=True)
    assert p.returncode == 2 and "NODE:VAR=VALUE" in p.stderr
    p = subprocess.run([SLURM_LOCAL, "env"], capture_output=True, text=True,
                       env=dict(os.environ, RDMACONF_SLURM_DIR=str(
                           tmp_path / "none")))
    assert p.returncode == 81 and "no cluster running" in p.stderr


def test_fleet_time_against_one_node(cluster, good, tmp_path):
    """Not a goal, a figure: three nodes side by side against one."""
    _, _, three = good
    p, one = fleet(cluster, tmp_path, nodes=1)
    assert p.returncode == 0, p.stderr[-2000:]
    print("fleet of 3: %.1f s; one node: %.1f s" % (three, one))
    assert three < 3 * one + 30
