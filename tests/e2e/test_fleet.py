"""Fleet runs on Slurm.

Quick: the fleet's report and gate on synthetic fleets (a node file per
node, copies of one real results file, a few outliers): the index's size
and the time per node do not grow with the nodes, the groups and outliers
read like the fleet, nodes added, removed and renamed, and neither the
report nor the fleet writes through a link planted in DIR; the fleet's
checks of its allocation (no node, a node list that does not resolve).

Slow: a throwaway cluster of three nodes on this host (ci/slurm-local),
`rdmaconf fleet --target ibsim` with a simulated HCA per node and per
node's peer, remote rows crossing the fabric from one Slurm node to
another; an outlier; a node whose step dies; a node that dies whole, whose
partner's remote rows are then not run ("partner gone"); SIGTERM, SIGINT
and SIGKILL of the fleet; and DIR keeping what the fleet did not write."""
import glob
import json
import os
import re
import signal
import subprocess
import sys
import time

import pytest

from conftest import RDMACONF, ROOT, SHIMS, as_md, left_after, \
    processes_carrying

sys.path.insert(0, os.path.join(ROOT, "tests", "bench"))
import fleet_synth  # noqa: E402

SLURM_LOCAL = os.path.join(ROOT, "ci", "slurm-local")
FLEET = os.path.join(ROOT, "ci", "fleet")
BUILD = os.path.dirname(RDMACONF)
# a real results file: every case of the suite on rxe (a host run in the VM)
SEED = os.path.join(ROOT, "cases", "baselines", "rxe-rdma-core-44.json")
SLOW = [pytest.mark.ibsim, pytest.mark.slow]
# quick rows, the remote rows, and one that waits (so that a step can be
# killed while it runs)
FILTER = ("umad/get_port/*,umad/set_grh/flow-label-*,umad/register/*remote*,"
          "umad/send/lid-*,umad/poll/arrives-while-waiting")
REMOTE_ROWS = ["umad/register/smi-lid-routed-to-remote-node",
               "umad/send/lid-to-remote-node"]


def rdmaconf(*args, timeout=300):
    env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
    return subprocess.run([RDMACONF, *args], capture_output=True, text=True,
                          env=env, timeout=timeout)


def one_line(p):
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1, p.stderr
    return lines[0]


# ---- the report and the gate, on synthetic fleets (quick) ----

@pytest.fixture(scope="module")
def broken():
    """Cases that pass everywhere in the seed: the outliers break them."""
    return fleet_synth.pick_cases(SEED, 8)


def test_report_size_and_time_do_not_grow_with_the_nodes(tmp_path, broken):
    """At 256 nodes as at 32: the index the same size (every list
    bounded), the time per node within 1.5x, the peak memory flat (make
    bench measures the gate too, to 4,096 nodes)."""
    def best(cmd, n):
        # the best of two where a run is short, and noisy
        runs = [fleet_synth.measure(cmd) for _ in range(2 if n < 100 else 1)]
        assert all(rc == 0 for rc, _, _ in runs), cmd
        return min(s for _, s, _ in runs), max(m for _, _, m in runs)

    figures = {}
    for n in (32, 256):
        d = tmp_path / str(n)
        fleet_synth.write_fleet(SEED, str(d), n, outliers={
            1: broken[:2], 5: broken[:2], n - 3: broken[2:3]})
        report = best([RDMACONF, "report", "--fleet", str(d)], n)
        figures[n] = report + ((d / "index.html").stat().st_size,)
        assert len(list((d / "nodes").glob("*.html"))) == n
    (r32, _, i32), (r256, m256, i256) = figures[32], figures[256]
    print("report: 32 nodes %.2f s, 256 nodes %.2f s (%.1f MB); index %d "
          "and %d bytes" % (r32, r256, m256, i32, i256))
    assert i256 <= i32 + 256, (i32, i256)
    assert i256 < 5 << 20
    # per node, with a little for the noise of a short run
    assert r256 / 256 <= 1.5 * r32 / 32 + 0.002, (r32, r256)
    # under make check SANITIZE=1 (which sets ASAN_OPTIONS) the peak is
    # ASan's: its shadow and its quarantine of freed memory (256 MB);
    # the plain build's make check holds the report to its bound
    if not os.environ.get("ASAN_OPTIONS"):
        assert m256 < 300


def test_the_index_reads_like_the_fleet(tmp_path, broken):
    """Nodes grouped by fingerprint, then by identical verdicts; the
    outliers with the cases that differ and the majority; per case the
    nodes where it is not ok, bounded; a page per node."""
    d = tmp_path / "fleet"
    names = fleet_synth.write_fleet(SEED, str(d), 40, outliers={
        i: broken[:2] for i in range(3, 15)} | {20: broken[2:3]})
    # two nodes of another kernel: a group of their own, too small for a
    # majority
    for name in names[38:]:
        doc = json.loads((d / (name + ".json")).read_text())
        doc["host"]["kernel"] = "6.12.0-other"
        (d / (name + ".json")).write_text(json.dumps(doc))
    p = rdmaconf("report", "--fleet", str(d))
    assert p.returncode == 0, p.stderr
    md = (d / "summary.md").read_text()
    assert md.count("#### driver rdma\\_rxe") == 2, md
    assert "Linux 6.12.0-other" in md and "no majority" in md
    # 38 nodes: 25 alike, 12 outliers alike (one line), 1 of its own
    assert re.search(r"\| 25 \| .*and 17 more \|", md), md
    assert "**Outliers: [node0004](nodes/node0004.html)" in md
    assert "(12 nodes, the same verdicts)" in md
    assert "**Outlier: [node0021](nodes/node0021.html)**" in md
    assert "| %s | FAIL/PASS not ok | PASS/PASS (37 of 38 nodes) |" % \
        broken[2].replace("_", "\\_") in md, md
    assert "| 12 nodes | " in md and "and 4 more |" in md
    html = (d / "index.html").read_text()
    assert html.count("<h2>Fleet</h2>") == 1
    every = (d / "nodes.html").read_text()
    assert all(every.count('href="nodes/%s.html"' % n) == 1 for n in names)
    page = (d / "nodes" / "node0004.html").read_text()
    assert broken[0] in page and "wrong errno" in page


def test_what_a_results_file_holds_is_shown_as_text(tmp_path):
    """Markup, table bars and escapes of a node's files, and a node name
    that is no file name, stay text in every page."""
    d = tmp_path / "fleet"
    fleet_synth.write_fleet(SEED, str(d), 3)
    for name in ("node0001", "node0002", "node0003"):
        doc = json.loads((d / (name + ".json")).read_text())
        doc["device"]["driver"] = "<b>rxe</b>|x\x1b[31m"
        (d / (name + ".json")).write_text(json.dumps(doc))
    fl = json.loads((d / "fleet.json").read_text())
    fl["nodes"][2]["node"] = "<i>n3</i>"
    (d / "fleet.json").write_text(json.dumps(fl))
    p = rdmaconf("report", "--fleet", str(d))
    assert p.returncode == 0, p.stderr
    html = (d / "index.html").read_text() + (d / "nodes.html").read_text()
    assert "<b>rxe" not in html and "&lt;b&gt;rxe&lt;/b&gt;" in html
    assert "<i>" not in html and "&lt;i&gt;n3" in html
    assert "\x1b" not in html
    md = (d / "summary.md").read_text()
    assert "\\<b\\>rxe\\</b\\>\\|x?\\[31m" in md, md
    # no page for a name that is no file name
    assert sorted(os.listdir(d / "nodes")) == ["node0001.html",
                                               "node0002.html"]


def test_report_writes_through_no_link(tmp_path):
    """A link planted where the report writes is refused (one line, exit
    3) before anything is read; what it points to is untouched."""
    d = tmp_path / "fleet"
    fleet_synth.write_fleet(SEED, str(d), 3)
    victim = tmp_path / "victim"
    victim.write_text("keep")
    for name in ("index.html", "summary.md", "nodes.html",
                 "nodes/node0002.html", "nodes"):
        target = d / name
        if name.startswith("nodes/"):
            (d / "nodes").mkdir(exist_ok=True)
        elif name == "nodes":
            for f in (d / "nodes").glob("*"):
                f.unlink()
            (d / "nodes").rmdir()
        target.symlink_to(victim if name != "nodes" else tmp_path)
        p = rdmaconf("report", "--fleet", str(d))
        assert p.returncode == 3, (name, p.stdout)
        assert "is a symbolic link" in one_line(p) and name in p.stderr
        assert victim.read_text() == "keep"
        assert not (tmp_path / "node0001.html").exists()
        target.unlink()
    p = rdmaconf("report", "--fleet", str(d))
    assert p.returncode == 0, p.stderr


def test_report_of_a_fleet_of_no_node_is_an_error(tmp_path):
    (tmp_path / "fleet.json").write_text('{"job": "1", "nodes": []}')
    p = rdmaconf("report", "--fleet", str(tmp_path))
    assert p.returncode == 3 and "names no node" in one_line(p)


def gate_lines(base, now):
    """The change lines: a file gate also prints, under each case, the
    sentence it cites ("cites: ..."), which are not changes"""
    p = rdmaconf("gate", "--baseline", str(base), str(now))
    return p, [l for l in p.stdout.splitlines()[1:-1]
               if not l.lstrip().startswith("cites: ")]


def test_gate_of_fleets_with_nodes_added_removed_and_renamed(tmp_path,
                                                             broken):
    """By name; a new name with the device node GUID of exactly one node
    gone is that node renamed, judged against it; without a GUID, a
    removal and an addition."""
    base, now = tmp_path / "base", tmp_path / "now"
    names = [fleet_synth.node_name(i) for i in range(6)]
    fleet_synth.write_fleet(SEED, str(base), 6, names=names,
                            guids={4: None})
    # node0002 removed, node0003 renamed (same GUID) and broken, node0005
    # renamed without a GUID, one node added
    new = ["node0001", "node0003-new", "node0004", "node0005-new",
           "node0006", "node0099"]
    g = fleet_synth.guid_of
    fleet_synth.write_fleet(SEED, str(now), 6, names=new,
                            guids={0: g(0), 1: g(2), 2: g(3), 3: None,
                                   4: g(5), 5: g(40)},
                            outliers={1: broken[:1]})
    p, lines = gate_lines(base, now)
    assert p.returncode == 1, p.stdout
    out = "\n".join(lines)
    assert re.search(r"^RENAMED +node0003-new +was node0003 ", out, re.M), out
    assert re.search(r"^WORSE +node0003-new:%s +PASS/PASS +-> +FAIL/PASS" %
                     re.escape(broken[0]), out, re.M), out
    # a line per change, with its nodes
    assert re.search(r"^WORSE +node0002 \+1 +vanished from the fleet "
                     r"\[2 nodes: node0002, node0005\]$", out, re.M), out
    assert re.search(r"^NEW +node0005-new \+1 +not in the baseline "
                     r"\[2 nodes: node0005-new, node0099\]$", out, re.M), out
    assert len(lines) == 4, out
    assert "gate: 3 worse" in p.stdout
    # the fleet against itself
    p, lines = gate_lines(base, base)
    assert p.returncode == 0 and not lines and "0 worse" in p.stdout, \
        p.stdout


def test_fleet_gate_judges_each_node_as_the_file_gate(tmp_path, broken):
    """The fleet gate compares a node with the verdict vector of its
    baseline node: the same changes as the gate of the two files."""
    base, now = tmp_path / "base", tmp_path / "now"
    fleet_synth.write_fleet(SEED, str(base), 2, outliers={1: broken[:2]})
    fleet_synth.write_fleet(SEED, str(now), 2, outliers={0: broken[2:5]})
    # and the other ways a case changes: gone, new, stale, XFAIL fixed
    doc = json.loads((now / "node0002.json").read_text())
    doc["results"] = [r for r in doc["results"] if r["id"] != broken[6]]
    doc["results"][0]["ok"] = False
    doc["results"][0]["stale"] = "the entry no longer matches"
    new = dict(doc["results"][1], id="umad/new/case", ok=False)
    doc["results"].append(new)
    xfail = next(r for r in doc["results"]
                 if r["verdict"]["system"] == "XFAIL")
    xfail["verdict"]["system"] = "XPASS"
    xfail["ok"] = False
    xfail["conforms_now"] = True
    (now / "node0002.json").write_text(json.dumps(doc))
    p, fleet = gate_lines(base, now)

    def changes(lines, prefix=""):
        """(mark, [node:]case, the verdicts before and after)"""
        return {(f[0], prefix + f[1], " ".join(f[2:5]))
                for f in (l.split() for l in lines)}

    files = set()
    for node in ("node0001", "node0002"):
        _, lines = gate_lines(base / (node + ".json"),
                              now / (node + ".json"))
        files |= changes(lines, node + ":")
    assert changes(fleet) == files, (fleet, files)
    assert p.returncode == 1
    kinds = {m for m, _, _ in files}
    assert {"WORSE", "BETTER", "UPDATE"} <= kinds, kinds


def test_a_change_on_many_nodes_is_one_line(tmp_path, broken):
    base, now = tmp_path / "base", tmp_path / "now"
    fleet_synth.write_fleet(SEED, str(base), 40)
    fleet_synth.write_fleet(SEED, str(now), 40,
                            outliers={i: broken[:1] for i in range(40)})
    p, lines = gate_lines(base, now)
    assert p.returncode == 1
    assert len(lines) == 1, lines
    assert lines[0].startswith("WORSE    node0001 +39:" + broken[0])
    assert "[40 nodes: node0001, node0002" in lines[0]
    assert "gate: 40 worse" in p.stdout


# ---- the fleet's own checks, before any step (quick) ----

@pytest.fixture
def no_cluster(tmp_path):
    """An allocation's environment, with a Slurm configuration that lets
    scontrol expand node lists (no daemon)."""
    conf = tmp_path / "slurm.conf"
    conf.write_text("ClusterName=none\nSlurmctldHost=localhost\n"
                    "NodeName=node[1-3] State=UNKNOWN\n"
                    "PartitionName=p Nodes=ALL Default=YES\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("SLURM")}
    env.update(SLURM_CONF=str(conf), SLURM_JOB_ID="4242",
               SLURM_JOB_NODELIST="node[1-3]", SLURM_JOB_NUM_NODES="3")
    return env


def fleet_cmd(env, out, **more):
    env = dict(env, **more)
    return subprocess.run([RDMACONF, "fleet", "-o", str(out)], env=env,
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("nodelist, count, code, words", [
    ("", None, 89, "the allocation has no node"),
    ("node[1-3]", "0", 89, "the allocation has no node"),
    ("node[1-3", None, 88, "cannot resolve the node list"),
    ("node[1-2]", "3", 88, "2 names for the allocation's 3 nodes"),
])
def test_a_fleet_of_no_node_is_an_error(no_cluster, tmp_path, nodelist,
                                        count, code, words):
    env = dict(no_cluster, SLURM_JOB_NODELIST=nodelist)
    if count is None:
        env.pop("SLURM_JOB_NUM_NODES")
    else:
        env["SLURM_JOB_NUM_NODES"] = count
    p = fleet_cmd(env, tmp_path / "out")
    assert p.returncode == code, p.stderr
    assert words in one_line(p)
    assert not (tmp_path / "out" / "fleet.json").exists()


def test_the_fleet_writes_through_no_link(no_cluster, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    victim = tmp_path / "victim"
    victim.write_text("keep")
    for name in ("fleet.json", "node2.json", "index.html", "nodes"):
        (out / name).symlink_to(victim)
        p = fleet_cmd(no_cluster, out)
        assert p.returncode == 90, p.stderr
        assert "%s/%s is a symbolic link" % (out, name) in one_line(p)
        assert victim.read_text() == "keep"
        assert not glob.glob(str(out / ".fleet.*"))
        (out / name).unlink()


# ---- on a cluster (slow) ----

def start_cluster(path, nodes=3):
    env = dict(os.environ, RDMACONF_BUILD=BUILD, RDMACONF_SLURM_DIR=path)
    env.pop("LD_PRELOAD", None)
    p = subprocess.run([SLURM_LOCAL, "start", str(nodes)], env=env,
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    out = subprocess.run([SLURM_LOCAL, "env"], env=env, capture_output=True,
                         text=True, check=True).stdout
    env["SLURM_CONF"] = out.strip().split("=", 1)[1]
    return env


def stop_cluster(env):
    subprocess.run([SLURM_LOCAL, "stop"], env=env, capture_output=True)
    # nothing of the cluster outlives it
    left = subprocess.run(["pgrep", "-f", env["RDMACONF_SLURM_DIR"]],
                          capture_output=True, text=True).stdout
    assert not left.strip(), left
    # nor anything a job of it started (salloc's, steps' and tasks'
    # environments name the cluster's configuration)
    left = left_after("SLURM_CONF=%s\0" % env["SLURM_CONF"], within=1)
    assert not left, left


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    env = start_cluster(str(tmp_path_factory.mktemp("slurm")))
    yield env
    stop_cluster(env)


# the fleets a test started in the background: stopped when it ends,
# whatever it asserted
STARTED = []


def session_of(pid):
    """The session id of process @pid, None when it is gone."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            return int(f.read().rsplit(")", 1)[1].split()[3])
    except (OSError, ValueError, IndexError):
        return None


def stop_fleet(p):
    """Stop a fleet started in the background, as a user's Ctrl-C would,
    while its cluster still runs: salloc runs the fleet in a process group
    of its own, so the signal goes to every process of the session
    (ci/fleet stops its steps through the controller, within a second).
    What is left after 10 s is killed."""
    if p.poll() is not None:
        return
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for q in pids():
            if session_of(q) == p.pid:
                try:
                    os.kill(q, sig)
                except ProcessLookupError:
                    pass
        try:
            p.communicate(timeout=10)
            return
        except subprocess.TimeoutExpired:
            pass


@pytest.fixture(autouse=True)
def stop_started():
    yield
    while STARTED:
        stop_fleet(STARTED.pop())


def fleet(env, out, *args, nodes=3, popen=False):
    cmd = ["salloc", "-k", "-N", str(nodes), RDMACONF, "fleet", "--target",
           "ibsim", "--filter", FILTER, *args, "-o", str(out)]
    if popen:
        STARTED.append(subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True,
                                        start_new_session=True))
        return STARTED[-1]
    t = time.monotonic()
    p = subprocess.run(cmd, env=env, capture_output=True, text=True,
                       timeout=600)
    return p, time.monotonic() - t


# what a user keeps in the fleet's directory: never removed
KEPT = {"base.json": '{"a baseline": true}', "notes.txt": "mine",
        "other/x.json": "{}"}


def plant(out):
    for name, text in KEPT.items():
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_text(text)


def kept(out):
    return all((out / n).read_text() == t for n, t in KEPT.items())


@pytest.fixture(scope="module")
def good(cluster, tmp_path_factory):
    out = tmp_path_factory.mktemp("fleet")
    plant(out)
    p, secs = fleet(cluster, out)
    return p, out, secs


def nodes_of(out):
    return {n["node"]: n for n in
            json.loads((out / "fleet.json").read_text())["nodes"]}


def sync_of(out):
    return out / json.loads((out / "fleet.json").read_text())["sync"]


def results_of(out, node):
    return json.loads((out / (node + ".json")).read_text())


@pytest.mark.ibsim
@pytest.mark.slow
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
    assert sorted(os.listdir(out / "nodes")) == ["node1.html", "node2.html",
                                                 "node3.html"]
    # the user's files are where they were
    assert kept(out)


@pytest.mark.ibsim
@pytest.mark.slow
def test_a_node_with_a_broken_rdma_core_is_the_outlier(cluster, good,
                                                       tmp_path):
    shim = os.path.join(SHIMS, "grh_host_order.so")
    p, _ = fleet(cluster, tmp_path, "--node-env",
                 "node3:LD_PRELOAD=" + shim)
    assert p.returncode == 1, p.stderr[-2000:]
    md = (tmp_path / "summary.md").read_text()
    fleet_md = md.split("## Fleet")[1].split("\n## ")[0]
    assert "**Outlier: [node3](nodes/node3.html)**" in fleet_md, fleet_md
    assert "Outlier: [node1]" not in fleet_md and \
        "Outlier: [node2]" not in fleet_md
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


def wait_for(out, ready, what, before=None, timeout=120):
    """Until ready(directory) holds for the directory of the run now in
    @out (not the run whose directory was @before); that directory."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            sync = sync_of(out)
        except (OSError, ValueError, KeyError):
            sync = None
        if sync and sync != before and ready(sync):
            return sync
        time.sleep(0.02)
    raise AssertionError("the fleet never " + what)


def wait_for_rows(out, node, rows, before=None, timeout=120):
    """Until @node has run @rows rows in the run now in @out (not in the
    run whose working directory was @before); that run's directory."""
    def ran(sync):
        ktap = sync / ("ktap-" + node)
        return ktap.exists() and ktap.read_text().count("\nok ") >= rows
    return wait_for(out, ran, "saw %s run %d rows" % (node, rows), before,
                    timeout)


def wait_for_files(out, *names, timeout=120):
    """Until the run now in @out has written @names in its own directory;
    that directory."""
    return wait_for(out, lambda sync: all((sync / n).exists()
                                          for n in names),
                    "wrote " + ", ".join(names), timeout=timeout)


def step_of(pid):
    """The SLURM_STEP_ID=N mark of process @pid's environment (its
    step's tasks and all they started carry it)."""
    return next((kv + b"\0" for kv in environ(pid).split(b"\0")
                 if kv.startswith(b"SLURM_STEP_ID=")), b"\0no step\0")


def parent_of(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            return int(f.read().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return 0


def command_of(pid):
    try:
        with open("/proc/%d/cmdline" % pid, "rb") as f:
            return f.read()
    except OSError:
        return b""


def signal_gone_or(pid, sig):
    """Send @sig to @pid, unless it has ended (processes come and go
    while a step runs)."""
    try:
        os.kill(pid, sig)
    except ProcessLookupError:
        pass


def environ(pid):
    try:
        with open("/proc/%d/environ" % pid, "rb") as f:
            return f.read()
    except OSError:
        return b""


def pids():
    return [int(d[6:]) for d in glob.glob("/proc/[0-9]*")]


@pytest.mark.ibsim
@pytest.mark.slow
def test_a_node_whose_step_dies_is_reported_and_the_others_kept(cluster,
                                                                tmp_path):
    # one row at a time: rows run side by side are printed in order once
    # the slowest of them ends, and a node could go from no row printed
    # to its last at once, and end before it is killed; and killed at
    # its first row, as its second (the default port, 4 s on this
    # fabric) runs: after that one, the others take a fifth of a second
    p = fleet(cluster, tmp_path, "--jobs", "1", popen=True)
    sync = wait_for_rows(tmp_path, "node2", 1)
    # node2's step: its fleet-node task and all it started
    victims = subprocess.run(
        ["pgrep", "-f", "fleet-node suite %s" % tmp_path],
        capture_output=True, text=True).stdout.split()
    killed = False
    for pid in victims:
        if b"SLURMD_NODENAME=node2\0" in environ(int(pid)):
            os.killpg(os.getpgid(int(pid)), signal.SIGKILL)
            killed = True
    assert killed, ([(v, environ(int(v)).count(b"SLURMD_NODENAME=node2\0"))
                     for v in victims],
                    sorted(f.name for f in sync.iterdir()))
    out, err = p.communicate(timeout=300)
    assert p.returncode == 87, err[-2000:]
    nodes = nodes_of(tmp_path)
    assert nodes["node2"]["status"] is None
    for name in ("node1", "node3"):
        assert nodes[name]["status"] == 0, nodes
        assert results_of(tmp_path, name)["complete"] is True
    md = (tmp_path / "summary.md").read_text()
    assert "| died (results incomplete) | 1 | [node2](nodes/node2.html) |" \
        in md, md


@pytest.mark.ibsim
@pytest.mark.slow
def test_a_dead_node_costs_that_node_only(tmp_path_factory, tmp_path):
    """A node dies whole -- its slurmd, its steps, its peer -- as the
    controller marks it down.  The allocation (-k) and the steps
    (--no-kill) survive: the two others complete, and the one whose
    partner it was (the ring: node1's is node2, node2's node3, node3's
    node1) has its remote rows not run, "partner gone", where they would
    have failed."""
    env = start_cluster(str(tmp_path_factory.mktemp("slurm-death")))
    ring = ["node1", "node2", "node3"]
    try:
        state = os.path.dirname(env["SLURM_CONF"])
        p = fleet(env, tmp_path, popen=True)
        # node2 dies, and node1's remote rows address it.  Its peer is
        # stopped as soon as node1 can know it (node1's suite starts only
        # then): node1's remote rows fail against it whenever they run.
        # Its suite is killed once it has a row (its results incomplete).
        # Waiting for a number of rows instead raced them: on the
        # simulated fabric a node runs most of its rows within half a
        # second, and the victim had ended before it was killed (the CI
        # of 8aabfb1: the fleet exited 0, salloc gave the allocation up).
        orphan, victim = "node1", "node2"
        ours = ("SLURM_CONF=%s\0" % env["SLURM_CONF"]).encode()
        mark = ("SLURMD_NODENAME=%s\0" % victim).encode()
        sync = wait_for_files(tmp_path, "peer-" + victim)
        peer = [step_of(q) for q, cmd in processes_carrying(mark, ours)
                if b"fleet-node peer " in cmd]
        assert peer, "no peer step on " + victim
        for q, _ in processes_carrying(mark, ours, peer[0]):
            signal_gone_or(q, signal.SIGSTOP)
        wait_for_rows(tmp_path, victim, 1)
        assert not (sync / ("status-" + victim)).exists()
        with open(os.path.join(state, "slurmd-%s.pid" % victim)) as f:
            victims = {int(f.read())}
        # the victim of this cluster only: other clusters may run here
        tasks = [q for q, _ in processes_carrying(mark, ours)]
        for q in tasks:
            if command_of(parent_of(q)).startswith(b"slurmstepd"):
                victims.add(parent_of(q))
        for v in victims | set(tasks):
            signal_gone_or(v, signal.SIGKILL)
        subprocess.run(["scontrol", "update", "nodename=" + victim,
                        "state=down", "reason=killed by test_fleet"],
                       env=env, check=True)
        out, err = p.communicate(timeout=300)
    finally:
        # the fleet before its cluster: stopping the controller first
        # would leave the steps' slurmstepd and all under them running
        while STARTED:
            stop_fleet(STARTED.pop())
        stop_cluster(env)
    assert p.returncode == 87, err[-2000:]
    nodes = nodes_of(tmp_path)
    assert nodes[victim]["status"] is None
    for name in set(ring) - {victim}:
        data = results_of(tmp_path, name)
        assert nodes[name]["status"] == 0 and data["complete"] is True
        assert all(r["ok"] for r in data["results"]), name
    rows = {r["id"]: r for r in results_of(tmp_path, orphan)["results"]}
    gone = [i for i in REMOTE_ROWS
            if rows[i]["verdict"]["system"] == "SKIP"]
    assert gone, [rows[i]["verdict"] for i in REMOTE_ROWS]
    for i in REMOTE_ROWS:
        assert rows[i]["verdict"]["system"] in ("PASS", "SKIP"), rows[i]
        if i in gone:
            assert rows[i]["system_detail"].startswith("partner gone"), \
                rows[i]
    md = (tmp_path / "summary.md").read_text()
    assert "Partner gone: [%s](nodes/%s.html)" % (orphan, orphan) in md, md
    assert "| died (results incomplete) | 1 | [%s]" % victim in md, md


def running(pid):
    """Is @pid a process that has not ended (a zombie has)?"""
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def processes_of(run):
    """The processes that carry this fleet run's mark."""
    mark = b"RDMACONF_FLEET_RUN=" + run.encode()
    return [q for q, _ in processes_carrying(mark + b"\0")]


@pytest.mark.ibsim
@pytest.mark.slow
def test_stopping_the_fleet_leaves_no_process(cluster, tmp_path):
    """SIGTERM, SIGINT and SIGKILL of rdmaconf fleet while the nodes
    run: within 2 s no process of the run is left (srun steps, the
    fabric, the peers, the rows); the results so far are kept, and DIR
    keeps what the fleet did not write, run after run."""
    plant(tmp_path)
    previous = None
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGKILL):
        p = fleet(cluster, tmp_path, popen=True)
        sync = wait_for_rows(tmp_path, "node1", 1, before=previous)
        # the previous run's working directory: the fleet's own, gone
        assert previous is None or not previous.exists()
        previous = sync
        run = None
        for q in pids():
            e = environ(q)
            m = re.search(rb"RDMACONF_FLEET_RUN=([^\0]+\.%s)\0" %
                          re.escape(sync.name.split(".")[-1].encode()), e)
            if m:
                run = m.group(1).decode()
                break
        assert run and processes_of(run)
        fleet_pid = int(run.split(".")[1])
        os.kill(fleet_pid, sig)
        t = time.monotonic()
        # the fleet's own last steps (fleet.json: mktemp, cat, mv) carry
        # the run's mark too: what must be gone is every process of the
        # run once the fleet itself has ended
        while (running(fleet_pid) or processes_of(run)) and \
                time.monotonic() - t < 2:
            time.sleep(0.05)
        left = processes_of(run)
        print("%s: no process of the run after %.2f s" % (
            signal.Signals(sig).name, time.monotonic() - t))
        assert not left, (sig, [open("/proc/%d/cmdline" % q, "rb").read()
                                for q in left if os.path.exists(
                                    "/proc/%d" % q)])
        assert not running(fleet_pid), (sig, "the fleet itself goes on")
        p.communicate(timeout=60)
        if sig != signal.SIGKILL:
            fl = json.loads((tmp_path / "fleet.json").read_text())
            assert fl["state"] == "interrupted", fl
            # what node1 had run is kept, and named
            assert fl["nodes"][0]["results"] == "node1.json", fl
            assert results_of(tmp_path, "node1")["results"]
        assert kept(tmp_path)


@pytest.mark.ibsim
@pytest.mark.slow
def test_fleet_outside_an_allocation_and_bad_options(cluster, tmp_path):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("SLURM_JOB")}
    p = subprocess.run([RDMACONF, "fleet", "-o", str(tmp_path)], env=env,
                       capture_output=True, text=True)
    assert p.returncode == 3 and "inside a Slurm allocation" in one_line(p)
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


@pytest.mark.ibsim
@pytest.mark.slow
def test_fleet_time_against_one_node(cluster, good, tmp_path):
    """Not a goal, a figure: three nodes side by side against one."""
    _, _, three = good
    p, one = fleet(cluster, tmp_path, nodes=1)
    assert p.returncode == 0, p.stderr[-2000:]
    print("fleet of 3: %.1f s; one node: %.1f s" % (three, one))
    assert three < 3 * one + 30
