"""The harness end to end on the host: no device needed."""
import json
import os
import signal
import subprocess
import time
import xml.etree.ElementTree as ET

from conftest import RDMACONF, left_after, processes_carrying, vocab_names

RESULT_KEYS = {"id", "call", "needs", "verdict", "agree", "system",
               "reference", "contract", "note", "profile_entry"}
VERDICTS = set(vocab_names("verdicts"))


def list_ids(pattern=None):
    args = [RDMACONF, "list"] + (["--filter", pattern] if pattern else [])
    return subprocess.run(args, capture_output=True, text=True,
                          check=True).stdout.split()


def host_rows(r):
    """Rows that run on this host: no device needed, or a device present."""
    have_dev = r.data["device"] is not None
    return [res for res in r.data["results"]
            if have_dev or "device" not in res["needs"]]


def test_list_and_filter():
    ids = list_ids()
    assert len(ids) == len(set(ids)) > 40
    grh = list_ids("umad/set_grh/*")
    assert grh and all(i.startswith("umad/set_grh/") for i in grh)
    p = subprocess.run([RDMACONF, "list", "--filter", "no/such/*"],
                       capture_output=True, text=True)
    assert p.returncode == 2 and "selects no case" in p.stderr
    # several globs, comma separated: the union, in table order
    both = list_ids("umad/set_grh/*,verbs/*")
    assert set(both) == set(grh) | set(list_ids("verbs/*"))
    assert list_ids("no/such/*,umad/set_grh/*") == grh


def test_run_json_shape_and_ktap(rdmaconf):
    r = rdmaconf("run", "--filter", "umad/*")
    assert r.rc == 0, r.out
    lines = r.out.splitlines()
    assert lines[0] == "KTAP version 1"
    assert lines[1] == "1..%d" % len(list_ids("umad/*"))
    assert r.data["tool"]["name"] == "rdmaconf"
    assert set(r.data["host"]) >= {"kernel", "rdma_core"}
    assert "device" in r.data and r.data["complete"] is True
    assert len(r.data["results"]) == len(list_ids("umad/*"))
    for res in r.data["results"]:
        assert RESULT_KEYS <= set(res), res["id"]
        assert set(res["verdict"].values()) <= VERDICTS
        assert res["doc"]
    # the reference meets every row that can run here; the system either
    # meets it or its deviation is in a profile (XFAIL) or the call is absent
    for res in host_rows(r):
        assert res["verdict"]["reference"] == "PASS", res
        assert res["verdict"]["system"] in {"PASS", "XFAIL", "ABSENT"}, res
    for res in r.data["results"]:
        if res not in host_rows(r):     # device rows, on a host without one
            assert res["verdict"]["system"] in {"PASS", "XFAIL", "SKIP"}, res
    assert r.data["summary"]["not_ok"] == 0
    assert r.out.splitlines()[-1].startswith("# rdmaconf: ")


def test_absent_symbol_is_found_at_run_time(rdmaconf, shim):
    """A libibumad that lacks calls: ABSENT, the rest still runs."""
    r = rdmaconf("run", "--filter", "umad/*",
                 env={"LD_LIBRARY_PATH": shim("fake")})
    assert r.data["host"]["libibumad"].endswith("fake/libibumad.so.3")
    v = r.verdicts("system")
    assert v["umad/set_addr/gsi-typical"] == "ABSENT"
    assert v["umad/set_grh/flow-label-zero"] == "ABSENT"
    # the fake returns 64, as documented: the rdma-core profile's XFAIL
    # entry no longer matches, and that is reported, not ignored
    assert v["umad/size/header-size"] == "XPASS"
    assert "now conforms" in r.result("umad/size/header-size")["stale"]
    assert r.result("umad/size/header-size")["conforms_now"] is True
    # a missing documented call is not ok
    assert r.result("umad/set_addr/gsi-typical")["ok"] is False
    assert r.rc == 1
    assert all(res["verdict"]["reference"] == "PASS" for res in host_rows(r))


def test_a_library_without_the_calls_fails_the_run(rdmaconf, shim):
    """ABSENT is not ok: a libibumad without umad_set_grh and
    umad_set_addr fails the run of their rows."""
    r = rdmaconf("run", "--filter", "umad/set_grh/*,umad/set_addr/*",
                 env={"LD_LIBRARY_PATH": shim("fake")})
    assert r.rc == 1, r.out
    host = [res for res in host_rows(r)]
    assert host and all(not res["ok"] for res in host)
    assert "25 not ok" in r.out.splitlines()[-1], r.out.splitlines()[-3:]


def test_byte_order_shim_is_flagged(rdmaconf, shim):
    r = rdmaconf("run", "--filter", "umad/set_grh/*",
                 env={"LD_PRELOAD": shim("grh_host_order.so")})
    assert r.rc == 1
    res = r.result("umad/set_grh/flow-label-host-to-net")
    assert res["verdict"] == {"system": "FAIL", "reference": "PASS"}
    assert res["agree"] is False
    assert "addr.flow_label" in res["divergence"]
    assert "wrong output" in res["system_detail"]
    assert res["system"]["out"][52 * 2:56 * 2] == "debc0a00"
    assert res["reference"]["out"][52 * 2:56 * 2] == "000abcde"
    # rows with flow label 0 cannot tell the orders apart: they agree
    assert r.result("umad/set_grh/flow-label-zero")["agree"] is True
    # both buffers are hex-dumped on the mismatch, the differing bytes marked
    assert "# system: observed" in r.out and "de* " in r.out


def run_hostile(rdmaconf, shim, mode, *extra):
    # the host's slowness fixed at 1: the watchdog is what the test says
    # on any build (a coverage build measures itself slower)
    return rdmaconf("run", "--filter", "umad/*", *extra,
                    env={"LD_PRELOAD": shim("hostile.so"),
                         "RDMACONF_SHIM": mode, "RDMACONF_SLOWNESS": "1"})


def assert_everything_else_ran(r, broken_call):
    assert len(r.data["results"]) == len(list_ids("umad/*"))
    for res in host_rows(r):
        if res["call"] != broken_call:
            assert res["verdict"]["system"] in {"PASS", "XFAIL", "ABSENT"}, res
        assert res["verdict"]["reference"] == "PASS", res


def test_segfault_is_crash(rdmaconf, shim):
    r = run_hostile(rdmaconf, shim, "segv")
    assert r.rc == 1
    res = r.result("umad/set_addr/gsi-typical")
    assert res["verdict"]["system"] == "CRASH"
    assert "signal 11" in res["system_detail"]
    assert "inside the call under test" in res["system_detail"]
    assert_everything_else_ran(r, "umad_set_addr")


def test_abort_and_exit_are_crash(rdmaconf, shim):
    for mode, text in (("abort", "signal 6"), ("exit", "exited with status 0")):
        r = run_hostile(rdmaconf, shim, mode)
        assert r.rc == 1
        res = r.result("umad/set_pkey/one")
        assert res["verdict"]["system"] == "CRASH", mode
        assert text in res["system_detail"], res["system_detail"]
        assert_everything_else_ran(r, "umad_set_pkey")


def test_hang_is_hang_and_run_goes_on(rdmaconf, shim):
    start = time.monotonic()
    # the watchdog is every row's: 3 s, which no row that does not hang
    # comes near on a busy host (300 ms stopped a umad_debug row of a
    # coverage build while the VM session ran beside it)
    r = run_hostile(rdmaconf, shim, "hang", "--watchdog-ms", "3000")
    assert r.rc == 1
    for res in host_rows(r):
        if res["call"] == "umad_set_pkey":
            assert res["verdict"]["system"] == "HANG"
            assert "3000 ms" in res["system_detail"]
    assert_everything_else_ran(r, "umad_set_pkey")
    # 5 hung rows, each stopped by the watchdog, not by the test's timeout
    assert time.monotonic() - start < 60


def test_closing_the_harness_descriptors_costs_one_row(rdmaconf, shim):
    """The code under test closes every descriptor of its process: that
    row's outcome is still judged, and every other row runs."""
    r = run_hostile(rdmaconf, shim, "closefds")
    assert r.data["complete"] is True
    for res in host_rows(r):
        if res["call"] == "umad_set_pkey":
            assert res["verdict"]["system"] in {"PASS", "XFAIL", "FAIL",
                                                "XPASS"}, res
    assert_everything_else_ran(r, "umad_set_pkey")


def test_results_not_writable_or_disk_full(rdmaconf, tmp_path):
    for path, cause in (("/nonexistent/dir/r.json", "No such file"),
                        ("/dev/full", "No space left")):
        r = rdmaconf("run", "--filter", "umad/size/*", "--json", path,
                     json_out=False)
        assert r.rc == 3, r.err
        assert r.err.count("\n") == 1 and cause in r.err, r.err
    r = rdmaconf("run", "--filter", "umad/size/*", "--junit",
                 "/nonexistent/j.xml", json_out=False)
    assert r.rc == 3 and "cannot write /nonexistent/j.xml" in r.err, r.err
    # the KTAP of every case already run was printed before that
    assert "ok 2 umad/size/" in r.out


def test_case_in_a_process_of_its_own(rdmaconf, shim):
    """RDMACONF_CASE_PRELOAD (ci/ibsim-run): each row is this program again
    with that library preloaded, in a fresh process; only the rows see it."""
    r = rdmaconf("run", "--filter", "umad/set_grh/*",
                 env={"RDMACONF_CASE_PRELOAD": shim("grh_host_order.so")})
    assert r.rc == 1, r.out
    res = r.result("umad/set_grh/flow-label-host-to-net")
    assert res["verdict"] == {"system": "FAIL", "reference": "PASS"}, res
    # the harness itself ran without it: its host record says so
    assert r.data["host"]["ld_preload"] is None


def test_known_crash_and_hang_only_by_their_own_kind(rdmaconf, shim, tmp_path):
    """XFAIL:crash covers a CRASH, XFAIL:hang a HANG, and nothing else does."""
    prof = tmp_path / "p.expect"
    prof.write_text("umad/set_addr/gsi-typical XFAIL:crash known segfault\n"
                    "umad/set_pkey/one XFAIL:hang known deadlock\n")
    r = run_hostile(rdmaconf, shim, "segv", "--filter", "umad/set_addr/gsi-typical",
                    "--expect", str(prof))
    res = r.result("umad/set_addr/gsi-typical")
    assert res["verdict"]["system"] == "XFAIL", res
    # the hang entry's row was not selected: not stale, the run passes
    assert r.rc == 0, r.out
    r = run_hostile(rdmaconf, shim, "hang", "--filter", "umad/set_pkey/one",
                    "--watchdog-ms", "300", "--expect", str(prof))
    assert r.result("umad/set_pkey/one")["verdict"]["system"] == "XFAIL"
    # a crash where the profile expects a hang stays a CRASH
    r = run_hostile(rdmaconf, shim, "abort", "--filter", "umad/set_pkey/one",
                    "--expect", str(prof))
    assert r.result("umad/set_pkey/one")["verdict"]["system"] == "CRASH"
    assert r.rc == 1


def test_garbage_and_overflow_are_fail_or_crash(rdmaconf, shim):
    r = run_hostile(rdmaconf, shim, "garbage")
    res = r.result("umad/set_pkey/zero")
    # the profile excuses a missing write (XFAIL:output), not garbage
    assert res["verdict"]["system"] == "FAIL"
    assert "wrong return value" in res["system_detail"]
    assert "expects a failure of kind 'wrong output'" in res["stale"]
    assert_everything_else_ran(r, "umad_set_pkey")
    r = run_hostile(rdmaconf, shim, "overflow")
    assert r.rc == 1
    assert r.result("umad/set_pkey/zero")["verdict"]["system"] in {"CRASH", "FAIL"}
    assert_everything_else_ran(r, "umad_set_pkey")


def test_sigkill_mid_run_leaves_valid_json(tmp_path, shim):
    path = tmp_path / "r.json"
    env = dict(os.environ, LD_PRELOAD=shim("hostile.so"), RDMACONF_SHIM="hang")
    proc = subprocess.Popen([RDMACONF, "run", "--json", str(path),
                             "--watchdog-ms", "20000"], env=env,
                            stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    data = None
    while time.monotonic() < deadline:      # wait until some cases are in
        try:
            data = json.loads(path.read_text())
            if len(data["results"]) >= 5:
                break
        except (OSError, ValueError):
            pass
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    data = json.loads(path.read_text())
    assert data["complete"] is False
    assert len(data["results"]) >= 5


def test_no_process_outlives_a_sigkilled_runner(shim):
    """SIGKILL of the runner while a case hangs deaf to SIGTERM, with a
    child of its own: 2 s later nothing of the run is left."""
    mark = "RDMACONF_ORPHAN_TEST=%d" % os.getpid()
    env = dict(os.environ, LD_PRELOAD=shim("hostile.so"),
               RDMACONF_SHIM="hang-forked",
               RDMACONF_ORPHAN_TEST=str(os.getpid()))
    proc = subprocess.Popen([RDMACONF, "run", "--impl", "system",
                             "--filter", "umad/set_pkey/zero",
                             "--watchdog-ms", "60000"], env=env,
                            stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    # the runner, its guardian, the case and the case's own child
    while len(processes_carrying(mark)) < 4 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(processes_carrying(mark)) >= 4, "the hanging case never forked"
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    left = left_after(mark, 2)
    for pid, _ in left:                     # leave the machine clean
        os.kill(pid, signal.SIGKILL)
    assert not left, "outlived the runner: %s" % left


def test_sigint_mid_run_exits_130_and_says_incomplete(tmp_path, shim):
    """Ctrl-C while a case hangs: the case is stopped, the run exits 130,
    and its results say they are not complete."""
    path = tmp_path / "r.json"
    env = dict(os.environ, LD_PRELOAD=shim("hostile.so"), RDMACONF_SHIM="hang")
    proc = subprocess.Popen([RDMACONF, "run", "--json", str(path),
                             "--watchdog-ms", "20000"], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:      # wait until some cases are in
        try:
            if len(json.loads(path.read_text())["results"]) >= 5:
                break
        except (OSError, ValueError):
            pass
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert "interrupted after" in err
    data = json.loads(path.read_text())
    assert data["complete"] is False
    assert len(data["results"]) >= 5


def test_impl_reference_only(rdmaconf):
    r = rdmaconf("run", "--impl", "reference", "--filter", "umad/size/*")
    res = r.result("umad/size/header-size")
    assert res["verdict"] == {"system": None, "reference": "PASS"}
    assert res["agree"] is None and r.rc == 0


def test_junit(rdmaconf, tmp_path):
    path = tmp_path / "j.xml"
    r = rdmaconf("run", "--filter", "umad/set_addr/*", "--junit", str(path))
    suite = ET.parse(path).getroot()
    assert suite.tag == "testsuite"
    assert int(suite.get("tests")) == len(list_ids("umad/set_addr/*"))
    assert r.rc == 0


def test_profiles_fail_loudly_when_stale(rdmaconf, tmp_path):
    prof = tmp_path / "p.expect"
    prof.write_text("umad/size/header-size XFAIL fails here\n"
                    "umad/no/such-case XFAIL gone\n")
    r = rdmaconf("run", "--filter", "umad/*", "--expect", str(prof),
                 "--impl", "reference")
    assert r.rc == 1
    assert "# STALE: %s:2: umad/no/such-case names no case" % prof in r.out
    # the rows that are not ok named again just above the last line, so
    # that a log cut to its tail still says which
    assert r.out.splitlines()[-2] == "# not ok: umad/no/such-case"
    # the system passes a row the profile says it fails: XPASS
    r = rdmaconf("run", "--filter", "umad/set_addr/all-zero", "--expect",
                 str(tmp_path / "x.expect"))
    assert r.rc == 2 and "cannot read profile" in r.err
    prof.write_text("umad/set_addr/all-zero XFAIL said to fail\n")
    r = rdmaconf("run", "--filter", "umad/set_addr/all-zero", "--expect",
                 str(prof))
    assert r.rc == 1
    assert r.out.splitlines()[-2] == "# not ok: umad/set_addr/all-zero"
    assert r.result("umad/set_addr/all-zero")["verdict"]["system"] == "XPASS"


def test_cli_errors_are_one_line(rdmaconf):
    cases = [(["frobnicate"], 2, "unknown command"),
             (["run", "--impl", "both2"], 2, "--impl takes"),
             (["run", "--watchdog-ms", "x"], 2, "--watchdog-ms"),
             (["run", "--bogus"], 2, "does not take"),
             (["list", "--junit", "x"], 2, "list does not take"),
             (["run", "--device", "nosuchdev0"], 3, "does not exist"),
             (["run", "--json", "/nonexistent/dir/r.json"], 3, "cannot write")]
    for args, rc, text in cases:
        p = subprocess.run([RDMACONF, *args], capture_output=True, text=True)
        assert p.returncode == rc, (args, p.returncode, p.stderr)
        lines = [l for l in p.stderr.splitlines() if l.startswith("rdmaconf:")]
        assert len(lines) == 1 and text in lines[0], (args, p.stderr)
    p = subprocess.run([RDMACONF, "--help"], capture_output=True, text=True)
    assert p.returncode == 0 and "usage: rdmaconf" in p.stdout


def one_line(p):
    # (make coverage sends libgcov's own complaints to a file of its own)
    err = p.stderr.splitlines()
    return len(err) == 1 and err[0].startswith("rdmaconf:")


def test_a_full_disk_keeps_every_finished_case(tmp_path):
    """The results file is written whole beside itself and renamed: a
    write that fails (here the process's file size limit, as a full disk
    would) leaves the last complete state, valid JSON, not cut."""
    path = tmp_path / "r.json"
    p = subprocess.run(["prlimit", "--fsize=60000", RDMACONF, "run",
                        "--filter", "umad/*", "--json", str(path)],
                       capture_output=True, text=True)
    assert p.returncode == 3, p.stderr
    assert one_line(p) and "it holds the first" in p.stderr, p.stderr
    kept = int(p.stderr.split("it holds the first ")[1].split()[0])
    data = json.loads(path.read_text())
    assert data["complete"] is False and len(data["results"]) == kept > 5
    assert not [f for f in os.listdir(tmp_path) if f != "r.json"], \
        "no temporary file is left beside it"
    # the JUnit file the same way, with the real cause
    junit = tmp_path / "j.xml"
    junit.write_text("before")
    p = subprocess.run(["prlimit", "--fsize=4000", RDMACONF, "run",
                        "--filter", "umad/*", "--junit", str(junit)],
                       capture_output=True, text=True)
    assert p.returncode == 3 and one_line(p), p.stderr
    assert "File too large" in p.stderr, p.stderr
    assert junit.read_text() == "before", "a failed write cut nothing"


def test_every_write_to_stdout_is_checked():
    for args in (["list"], ["list", "--json", "-"],
                 ["run", "--filter", "umad/size/*"], ["__vocab"]):
        with open("/dev/full", "w") as full:
            p = subprocess.run([RDMACONF, *args], stdout=full,
                               stderr=subprocess.PIPE, text=True)
        assert p.returncode == 3, (args, p.stderr)
        assert "No space left on device" in p.stderr or args == ["__vocab"]


def test_a_run_that_tests_nothing_is_not_green(tmp_path):
    for args in (["run", "--filter", "UMAD/*"], ["list", "--filter", "x"]):
        p = subprocess.run([RDMACONF, *args], capture_output=True, text=True)
        assert p.returncode == 2 and one_line(p), p.stderr
        assert "selects no case" in p.stderr
    if not os.path.isdir("/sys/class/infiniband"):
        # every row needs a device this host has not: all SKIP
        p = subprocess.run([RDMACONF, "run", "--filter", "verbs/create_ah/*"],
                           capture_output=True, text=True)
        assert p.returncode == 4 and "no case ran here" in p.stderr, \
            p.stderr


def test_a_profile_that_is_not_there_is_an_error(tmp_path):
    p = subprocess.run([RDMACONF, "run", "--filter", "umad/size/*",
                        "--expect", str(tmp_path)], capture_output=True,
                       text=True)
    assert p.returncode == 2 and "is not a file" in p.stderr, p.stderr
    env = dict(os.environ, RDMACONF_EXPECT_DIR=str(tmp_path / "none"))
    p = subprocess.run([RDMACONF, "run", "--filter", "umad/size/*"],
                       capture_output=True, text=True, env=env)
    assert p.returncode == 2 and one_line(p), p.stderr
    assert "RDMACONF_EXPECT_DIR" in p.stderr
