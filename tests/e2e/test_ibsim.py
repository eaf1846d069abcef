"""The umad cases on ibsim + opensm (rdmaconf run --target ibsim, which is
ci/ibsim-run): an InfiniBand link layer without hardware, every case in a
process of its own, rdmaconf-peer on another node of the fabric."""
import itertools
import json
import os
import subprocess

import pytest

from conftest import (RDMACONF, ROOT, SHIMS, left_after, recorded_changes,
                      why_not_ok)

# the tests that start ibsim carry the mark; the rest run everywhere
# the rows that need the fabric: SMPs, the SA, a remote node by LID
FABRIC = ("umad/register/smi-directed-route-answered",
          "umad/register/smi-lid-routed-to-remote-node",
          "umad/register/sa-class-answered-by-sm",
          "umad/register_oui/vendor-class-to-remote-node",
          "umad/send/lid-to-remote-node",
          "umad/send/unassigned-lid-returned")
FABRIC_FILTER = ",".join(FABRIC)
IBSIM_RUN = os.path.join(ROOT, "ci", "ibsim-run")
_marks = itertools.count()
BUILD = os.path.dirname(RDMACONF)


def marked(env=None):
    """@env (default: ours) with a mark that everything a run starts
    inherits, so that its leftovers can be told from other runs'."""
    mark = "rdmaconf-test-%d-%d" % (os.getpid(), next(_marks))
    return dict(os.environ if env is None else env,
                RDMACONF_TEST_MARK=mark), mark


def nothing_left(mark, within=0):
    """nothing the run with @mark started is left behind (@within seconds
    after its end)"""
    left = left_after("RDMACONF_TEST_MARK=" + mark, within)
    assert not left, left


def run_ibsim(args, env=None, timeout=600):
    env, mark = marked(env)
    p = subprocess.run([RDMACONF, "run", "--target", "ibsim"] + args,
                       capture_output=True, text=True, env=env,
                       timeout=timeout)
    return p, mark


@pytest.mark.ibsim
@pytest.mark.slow
def test_umad_cases_on_ibsim(tmp_path):
    """rdmaconf run --target ibsim: every umad case, a fabric per row in
    flight (lanes)."""
    path = str(tmp_path / "ibsim.json")
    env, mark = marked()
    env.pop("LD_PRELOAD", None)
    p = subprocess.run([RDMACONF, "run", "--target", "ibsim", "--json", path],
                       capture_output=True, text=True, env=env, timeout=600)
    stdout = p.stdout
    assert p.returncode == 0, why_not_ok(p, 1500)
    assert "; jobs 16" in stdout
    with open(path) as f:
        data = json.load(f)
    assert data["device"]["name"].startswith("ibsim")
    assert data["device"]["link_layer"] == "InfiniBand"
    # rdmaconf-peer on Hca3 of ci/ibsim/net: a LID and a port GUID
    remote = data["host"]["remote_node"]
    assert remote["lid"] > 0 and int(remote["port_guid"], 16) > 0
    rows = {r["id"]: r for r in data["results"]}
    # --target ibsim without --filter: the umad cases only
    assert all(rid.startswith("umad/") for rid in rows)
    # real behaviour on the simulated fabric: discovery, registration, and
    # the InfiniBand-only rows on both implementations
    for rid in ("umad/get_ca/target-device", "umad/register/vendor-class-client",
                "umad/register_oui/class-0x30",
                "umad/close_port/open-port") + FABRIC:
        assert rows[rid]["verdict"] == {"system": "PASS",
                                        "reference": "PASS"}, rows[rid]
    # the simulator's limits are the ibsim profile's, with reasons
    r = rows["umad/send/timeout-200ms-retries-1"]
    assert r["profile_entry"]["where"].split(":")[0].endswith("ibsim.expect")
    assert sum(r["verdict"]["system"] == "PASS" for r in rows.values()) >= 70
    # every row's verdicts as the recorded run on ibsim had them
    assert recorded_changes("ibsim", data) == []
    nothing_left(mark)


@pytest.mark.ibsim
def test_lid_byte_order_bug_is_caught_on_ibsim(tmp_path):
    """A libibumad that sends the destination LID byte-swapped: invisible
    on RoCE (LID 0), caught by every row that addresses another LID."""
    out = tmp_path / "bug.json"
    env = dict(os.environ, LD_PRELOAD=os.path.join(SHIMS, "mad_bugs.so"),
               RDMACONF_SHIM="lid-host-order")
    p, mark = run_ibsim(["--filter", FABRIC_FILTER, "--json", str(out)],
                        env=env)
    assert p.returncode == 1, p.stdout[-3000:] + p.stderr[-2000:]
    rows = {r["id"]: r for r in json.loads(out.read_text())["results"]}
    for rid in FABRIC[1:5]:
        assert rows[rid]["verdict"] == {"system": "FAIL",
                                        "reference": "PASS"}, rows[rid]
        assert "umad status 110" in rows[rid]["system_detail"], rows[rid]
    # LID 0xffff reads the same both ways round
    assert rows[FABRIC[0]]["verdict"]["system"] == "PASS"
    nothing_left(mark)


def test_a_late_call_runs_again_alone_and_a_wrong_one_still_fails(tmp_path):
    """A timed call that is late once (a passing load) runs again alone and
    passes, its first time recorded; one that does not wait fails both
    times."""
    out = tmp_path / "late.json"
    env = dict(os.environ, LD_PRELOAD=os.path.join(SHIMS, "mad_bugs.so"),
               RDMACONF_SHIM="poll-late-once",
               RDMACONF_SHIM_ONCE=str(tmp_path / "once"))
    p, mark = run_ibsim(["--filter", "umad/poll/empty-100ms", "--json",
                         str(out)], env=env)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-2000:]
    row = json.loads(out.read_text())["results"][0]
    assert row["verdict"]["system"] == "PASS", row
    assert row["system"]["first_ms"] >= 350, row
    assert row["system"]["elapsed_ms"] < 300, row
    assert "system: took" in p.stdout and "ran again alone" in p.stdout
    env["RDMACONF_SHIM"] = "poll-nowait"
    p, mark = run_ibsim(["--filter", "umad/poll/empty-100ms", "--json",
                         str(out)], env=env)
    assert p.returncode == 1, p.stdout[-3000:]
    row = json.loads(out.read_text())["results"][0]
    assert row["verdict"]["system"] == "FAIL" and row["system"]["first_ms"]
    nothing_left(mark)


@pytest.mark.ibsim
@pytest.mark.slow
def test_hung_rows_give_their_simulator_slots_back(tmp_path):
    """ibsim has ten client slots, and only a process's exit hook gives one
    back.  Six runs of a row that hangs there (twelve hung processes) on
    one fabric; a row run after them still gets a slot."""
    hang = ("%s --attach Hca2 -- %s run --watchdog-ms 800 --filter "
            "umad/recv/negative-timeout-blocks > /dev/null" % (IBSIM_RUN,
                                                               RDMACONF))
    last = ("%s --attach Hca2 -- %s run --filter umad/get_port/target-port "
            "--json %s" % (IBSIM_RUN, RDMACONF, tmp_path / "after.json"))
    env, mark = marked()
    env["RDMACONF_BUILD"] = BUILD
    p = subprocess.run([IBSIM_RUN, "--fabric",
                        os.path.join(ROOT, "ci", "ibsim", "net"), "--", "sh",
                        "-c", "for i in 1 2 3 4 5 6; do %s; done; %s" % (
                            hang, last)],
                       capture_output=True, text=True, env=env, timeout=300)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
    row = json.loads((tmp_path / "after.json").read_text())["results"][0]
    assert row["ok"] and "CRASH" not in row["verdict"].values(), row
    nothing_left(mark)


def test_fabric_rows_say_why_without_a_remote_node(tmp_path):
    """Outside ci/ibsim-run (no device here, or one without
    RDMACONF_REMOTE) the fabric rows are skipped with their reason."""
    subprocess.run([RDMACONF, "run", "--filter", FABRIC_FILTER, "--json",
                    str(tmp_path / "r.json")], capture_output=True,
                   text=True, env=dict(os.environ, RDMACONF_REMOTE=""))
    rows = json.loads((tmp_path / "r.json").read_text())["results"]
    for r in rows:
        assert r["verdict"]["system"] in ("SKIP", "UNSUPPORTED"), r
        assert r["system_detail"].startswith("needs "), r


def test_bad_remote_is_a_usage_error():
    p = subprocess.run([RDMACONF, "run", "--filter", "none"],
                       capture_output=True, text=True,
                       env=dict(os.environ, RDMACONF_REMOTE="4-0x1"))
    assert p.returncode == 2 and p.stderr.count("\n") == 1, p.stderr
    assert "RDMACONF_REMOTE" in p.stderr


@pytest.mark.ibsim
def test_ibsim_run_missing_tools(tmp_path):
    p = subprocess.run([IBSIM_RUN, "true"], capture_output=True, text=True,
                       env=dict(os.environ, RDMACONF_UMAD2SIM="/nonexistent.so"))
    assert p.returncode == 69 and p.stderr.count("\n") == 1, p.stderr
    p = subprocess.run([IBSIM_RUN, "true"], capture_output=True, text=True,
                       env=dict(os.environ, RDMACONF_BUILD=str(tmp_path)))
    assert p.returncode == 69 and p.stderr.count("\n") == 1, p.stderr
    assert "rdmaconf-peer" in p.stderr


@pytest.mark.ibsim
def test_ibsim_run_peer_that_does_not_come_up(tmp_path):
    """A remote node that never serves: exit 72 with the peer's last word,
    and nothing left running."""
    os.makedirs(tmp_path / "ibsim")
    peer = tmp_path / "rdmaconf-peer"
    peer.write_text("#!/bin/sh\necho 'rdmaconf-peer: umad0: not in sysfs' >&2\n"
                    "exit 1\n")
    peer.chmod(0o755)
    os.symlink(os.path.join(BUILD, "ibsim", "umad2sim_pkey.so"),
               tmp_path / "ibsim" / "umad2sim_pkey.so")
    env, mark = marked(dict(os.environ, RDMACONF_BUILD=str(tmp_path)))
    p = subprocess.run([IBSIM_RUN, "true"], capture_output=True, text=True,
                       env=env, timeout=60)
    assert p.returncode == 72 and p.stderr.count("\n") == 1, p.stderr
    assert "not in sysfs" in p.stderr
    nothing_left(mark)


@pytest.mark.ibsim
@pytest.mark.slow
def test_ibsim_runs_in_parallel_do_not_collide(tmp_path):
    """Two fabrics at once: private socket names and scratch directories,
    each run sees its own remote node and passes."""
    procs = []
    env, mark = marked()
    for n in range(2):
        out = tmp_path / ("p%d.json" % n)
        procs.append((out, subprocess.Popen(
            [RDMACONF, "run", "--target", "ibsim", "--filter", FABRIC_FILTER,
             "--json", str(out)], stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True, env=env)))
    for out, p in procs:
        text, _ = p.communicate(timeout=300)
        assert p.returncode == 0, text[-3000:]
        rows = json.loads(out.read_text())["results"]
        assert len(rows) == len(FABRIC)
        assert all(r["verdict"] == {"system": "PASS", "reference": "PASS"}
                   for r in rows), text[-3000:]
    nothing_left(mark)


# A run that is still going when its tenth row is out: quick rows first
# in the table, then two sends that wait out their timeouts (~3 s).  The
# whole suite would print its first row only once the rows that wait for
# what ibsim never delivers are under way (rc_sched_order()).
MIDRUN = ",".join(["umad/free/*", "umad/alloc/*", "umad/sort_ca_device_list/*",
                   "umad/free_ca_device_list/*", "umad/get_ca_device_list/*",
                   "umad/send/timeout-200ms-retries-3",
                   "umad/send/timeout-negative-waits"])


def start_and_stop(tmp_path, sig, to_group):
    """An ibsim run stopped by @sig, to its own process (what `kill` and
    a CI runner's cancel do) or to its group (Ctrl-C), after its tenth
    row: how it ended, and its results.  Within 2 s of its end nothing
    of it is left.  Four lanes (--jobs): fabrics side by side to stop,
    without the CPU of the sixteen that a whole run starts."""
    import signal as _signal
    import time
    out = tmp_path / ("r-%d.json" % sig)
    env, mark = marked()
    p = subprocess.Popen([RDMACONF, "run", "--target", "ibsim", "--jobs", "4",
                          "--filter", MIDRUN, "--json", str(out)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, env=env, start_new_session=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if p.stdout.readline().startswith("ok 10 "):
            break
    (os.killpg if to_group else os.kill)(p.pid, sig)
    p.wait(timeout=60)
    nothing_left(mark, within=2)
    if p.returncode == -_signal.SIGKILL:
        return p, None
    return p, json.loads(out.read_text())


@pytest.mark.ibsim
@pytest.mark.slow
def test_ctrl_c_stops_the_fabric_and_keeps_results(tmp_path):
    """Ctrl-C (SIGINT to the foreground group) in the middle of an ibsim
    run: exit 130, the results so far kept, ibsim, opensm and the peer
    gone."""
    import signal
    p, data = start_and_stop(tmp_path, signal.SIGINT, to_group=True)
    assert p.returncode == 130, p.stderr.read()[-2000:]
    assert data["complete"] is False and len(data["results"]) >= 10


@pytest.mark.ibsim
@pytest.mark.slow
def test_sigterm_stops_an_ibsim_run_and_keeps_results(tmp_path):
    """SIGTERM to the run (a CI runner cancelling it) stops it at once:
    exit 130, the results so far, nothing left."""
    import signal
    p, data = start_and_stop(tmp_path, signal.SIGTERM, to_group=False)
    assert p.returncode == 130, p.stderr.read()[-2000:]
    assert data["complete"] is False and len(data["results"]) >= 10


@pytest.mark.ibsim
def test_sigkill_of_an_ibsim_run_leaves_no_process(tmp_path):
    """SIGKILL cannot be caught: ibsim, opensm, the peers, the rows and
    rdmaconf itself die with the launcher (their parent-death signal)."""
    import signal
    p, _ = start_and_stop(tmp_path, signal.SIGKILL, to_group=False)
    assert p.returncode == -signal.SIGKILL
