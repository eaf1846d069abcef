"""The suite on a real rxe device: in the host's device if it has one,
else in the rxe VM (ci/rxe-vm), as `make check` runs on CI."""
import json
import os
import shutil
import subprocess

import pytest

from conftest import QUICK_SAMPLE, RDMACONF, ROOT, RXE_VM, SHIMS, \
    VM_SESSION_EXIT, host_has_device, load_results, recorded_changes, \
    left_after, sample_ids, suite_run, vocab_names

# every test here needs a device, in the VM when the host has none
pytestmark = pytest.mark.vm

# One boot of the rxe VM (conftest.vm_session) runs all of these.
VM_STEPS = {
    # make check's sample of the suite, with every timed row (the
    # report's plot of requested against observed times); every row:
    # test_serial (slow)
    "suite-sample": suite_run("--sample %d" % QUICK_SAMPLE),
    # the launcher carries the environment in, files written land here
    "probe": 'test "$RDMACONF_PROBE" = "x y" && ls /dev/infiniband/uverbs0 '
             '/dev/infiniband/umad0 && echo ok > written-in-guest',
    # --two: rxe0 and rxe1 on a veth pair; RC traffic between them
    "pingpong": (
        'timeout 60 ibv_rc_pingpong -d rxe0 -g 1 -n 5 > /dev/null 2>&1 & '
        'for i in $(seq 100); do '
        '  ibv_rc_pingpong -d rxe1 -g 1 -n 5 192.0.2.1 2>/dev/null && exit 0; '
        '  sleep 0.2; '     # the server may not listen yet: retry, bounded
        'done; exit 1'),
}


@pytest.fixture(scope="module")
def rxe_run(vm_session):
    """The sample's run on a device, shared by the tests below."""
    step = vm_session["suite-sample"]
    return step, load_results(step)


def test_the_sample_has_a_row_of_every_call(rxe_run):
    """make check's sample (rdmaconf run --sample) leaves out no call."""
    _, data = rxe_run
    everything = subprocess.run([RDMACONF, "list", "--json", "-"],
                                capture_output=True, text=True, check=True)
    calls = {r["call"] for r in json.loads(everything.stdout)}
    assert {r["call"] for r in data["results"]} == calls
    assert {r["id"] for r in data["results"]} == sample_ids()


def test_device_fingerprint(rxe_run):
    proc, data = rxe_run
    dev = data["device"]
    assert dev is not None, proc.err[-2000:]
    assert dev["link_layer"] in ("Ethernet", "InfiniBand")
    assert dev["port_state"] == "ACTIVE"
    assert dev["node_guid"] and dev["gids"]
    if not host_has_device():
        assert dev["name"] == "rxe0" and dev["driver"] == "rdma_rxe"
        assert data["host"]["kernel"].startswith("6.1.")
    assert data["host"]["rdma_core"]


@pytest.mark.skipif(host_has_device(), reason="recorded on the rxe VM")
def test_verdicts_as_recorded(rxe_run):
    """Every row's verdicts, agreement and ok as the recorded run on rxe
    had them: a change to the harness changes no verdict by accident."""
    _, data = rxe_run
    assert recorded_changes("rxe", data, sample_ids()) == []


# Device rows that rxe on Linux 6.1 cannot run, on either side, and why.
UNSUPPORTED_ON_RXE = {
    "verbs/query_rt_values_ex/raw-clock": "rxe has no query_rt_values",
    "verbs/query_rt_values_ex/nothing-asked": "rxe has no query_rt_values",
    "verbs/rereg_mr/change-translation": "rxe has no rereg_user_mr",
    "verbs/rereg_mr/change-pd": "rxe has no rereg_user_mr",
    "verbs/rereg_mr/change-access": "rxe has no rereg_user_mr",
    "verbs/is_fork_initialized/disabled-before-fork-init":
        "the kernel copies DMA pages on fork (5.13 and later)",
    "verbs/is_fork_initialized/enabled-after-fork-init":
        "the kernel copies DMA pages on fork (5.13 and later)",
    "verbs/create_srq/max-wr-exact":
        "rxe's max_srq_wr (2^20 WRs) is more memory than a row takes",
    "verbs/get_srq_num/xrc-srq": "rxe has no XRC",
    "verbs/modify_srq/resize-unsupported-fails": "rxe resizes SRQs",
    # what the verbs rxe does not implement do where a device has them
    # (cases/verbs/verbs_opt.h): no such object on rxe
    **{"verbs/%s" % row: "rxe has no " + what for row, what in (
        ("alloc_dm/within-max", "device memory"),
        ("free_dm/made", "device memory"),
        ("memcpy_to_dm/round-trip", "device memory"),
        ("memcpy_from_dm/round-trip", "device memory"),
        ("alloc_null_mr/its-pd", "null MR"),
        ("alloc_parent_domain/dealloc-as-pd", "parent domain"),
        ("alloc_td/its-context", "thread domain"),
        ("dealloc_td/made", "thread domain"),
        ("destroy_counters/made", "counters"),
        ("read_counters/fresh-zero", "counters"),
        ("attach_counters_point_flow/static-packets", "counters"),
        ("destroy_flow/made", "flow steering"),
        ("modify_wq/reset-to-rdy", "WQ"),
        ("destroy_wq/made", "WQ"),
        ("create_rwq_ind_table/no-tables", "WQ to make a table of"),
        ("destroy_rwq_ind_table/made", "indirection table"),
        ("open_qp/no-such-qp", "XRC domain"),
        ("close_xrcd/made", "XRC domain"),
        ("modify_cq/within-caps", "CQ moderation"))},
}
# ... and on the system's side only: rdma-core's rxe provider imports no
# PD or MR (verbs/import_pd/own-handle and import_mr/own-handle record
# it), so there is nothing to unimport.
UNSUPPORTED_ON_RXE_SYSTEM = {
    "verbs/unimport_pd/kernel-pd-stays", "verbs/unimport_pd/one-of-two-imports",
    "verbs/unimport_mr/kernel-mr-stays",
}
# Calls documented after 44.0 (ABSENT on the system, XFAIL:absent by
# rdma-core.expect) whose reference cannot run here either, with the
# cause its verdict must give: what needs the kernel's WRITE_CM_EVENT
# (Linux 6.15; not in 6.1 or 6.12) is a SKIP, a DMA handle on rxe (which
# makes none: its cause names ibv_alloc_dmah or the DMA handle) UNSUPPORTED.
ABSENT_AND_NOT_HERE = {
    **{"rdmacm/" + row: ("SKIP", "WRITE_CM_EVENT") for row in (
        "write_cm_event/user-event-delivered", "write_cm_event/two-in-order",
        "resolve_addrinfo/dns-resolved", "query_addrinfo/after-resolved")},
    **{"verbs/" + row: ("UNSUPPORTED", "dma") for row in (
        "alloc_dmah/of-the-context", "dealloc_dmah/made",
        "dealloc_dmah/other-handle-kept")},
}


def test_device_rows_ran_and_conform(rxe_run):
    device_rows_conform(*rxe_run)


def device_rows_conform(proc, data):
    """Every device row of the run @proc wrote (@data) ran, and passed or
    failed as a profile expects (test_serial: on every row)."""
    assert proc.rc == 0, proc.out[-4000:] + proc.err[-2000:]
    device_rows = [r for r in data["results"] if "device" in r["needs"]]
    assert len(device_rows) >= 100
    assert len([r for r in device_rows if r["id"].startswith("verbs/")]) >= 25
    assert len([r for r in device_rows if r["id"].startswith("rdmacm/")]) >= 10
    if not host_has_device():
        assert data["host"]["peer_device"] == "rxe1"
    for r in device_rows:
        if "peer" in r["needs"] and not data["host"]["peer_device"]:
            assert r["verdict"]["system"] == "SKIP", r
            continue
        if "ib" in r["needs"] and data["device"]["link_layer"] != "InfiniBand":
            assert r["verdict"] == {"system": "UNSUPPORTED",
                                    "reference": "UNSUPPORTED"}, r
            continue
        # rxe is RoCE: the rows of iWARP's own behaviour are not its
        if "iwarp" in r["needs"]:
            assert r["verdict"] == {"system": "UNSUPPORTED",
                                    "reference": "UNSUPPORTED"}, r
            assert "iWARP" in r["system_detail"], r
            continue
        if r["id"] in ("rdmacm/leave_multicast/ipv6-after-join",
                       "rdmacm/join_multicast/ipv6-message-arrives"):
            # Linux refuses IPv6 groups on RoCE v2 (ENOTSUPP)
            assert r["verdict"]["reference"] in ("PASS", "UNSUPPORTED"), r
            assert r["verdict"]["system"] == r["verdict"]["reference"], r
            continue
        if r["id"] in UNSUPPORTED_ON_RXE:
            assert r["verdict"] == {"system": "UNSUPPORTED",
                                    "reference": "UNSUPPORTED"}, r
            continue
        if r["id"] in UNSUPPORTED_ON_RXE_SYSTEM:
            assert r["verdict"] == {"system": "UNSUPPORTED",
                                    "reference": "PASS"}, r
            continue
        if r["id"] in ABSENT_AND_NOT_HERE:
            verdict, cause = ABSENT_AND_NOT_HERE[r["id"]]
            assert r["verdict"] == {"system": "XFAIL",
                                    "reference": verdict}, r
            assert cause.lower() in r["reference_detail"].lower(), r
            continue
        # the reference is excused only by a kernel or device profile entry
        ref_ok = ("PASS", "XFAIL") if r["profile_entry"] and \
            not r["profile_entry"]["where"].split(":")[0].endswith(
                "rdma-core.expect") else ("PASS",)
        assert r["verdict"]["reference"] in ref_ok, r
        assert r["verdict"]["system"] in ("PASS", "XFAIL"), r
    # the libibumad mode switch, seen from both sides: 56 with no port
    # open (XFAIL by profile), 64 with one
    assert data["results"] and \
        [r for r in data["results"] if r["id"] == "umad/size/after-open-port"][0][
            "verdict"] == {"system": "PASS", "reference": "PASS"}


def test_report_has_timing_plot(rxe_run, tmp_path):
    _, data = rxe_run
    p = subprocess.run([RDMACONF, "report", data["_path"], "-o",
                        str(tmp_path)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    page = (tmp_path / "index.html").read_text()
    assert "<svg" in page and "umad/send/timeout-200ms-retries-3" in page
    assert page.count("<circle") >= 2 * 8   # both sides of each timed row


def test_mad_traffic_rows_measured(rxe_run):
    """Timed rows record requested and observed durations; the kernel
    returns a timed-out request after about timeout x (retries + 1)."""
    _, data = rxe_run
    rows = {r["id"]: r for r in data["results"]}
    for retries in (0, 1, 3):
        r = rows["umad/send/timeout-200ms-retries-%d" % retries]
        assert r["contract"]["ms"] == 200 * (retries + 1)
        for impl in vocab_names("implementations"):
            assert r["verdict"][impl] == "PASS", r
            assert r[impl]["elapsed_ms"] >= 200 * (retries + 1) * 0.9, r
        # status ETIMEDOUT (110) comes back in the header, little endian
        assert r["system"]["out"].startswith("6e000000"), r


# The three bug shims over the rows the tests below name, in two runs
# (make mutation tries every mutant on every row of its call).  The MAD
# and rdma_cm shims share one run: neither touches a call of the other's
# rows, and the run's pool keeps their state apart.  The verbs shim's
# no-op ibv_attach_mcast would break the rdma_cm rows' own joins.
SHIM_STEPS = {
    "shim-verbs": {
        "verbs_bugs.so": ("ah-class,mcast-noop,ah-stale", "verbs/[ia][nt]*")},
    "shim-mad-rdmacm": {
        "rdmacm_bugs.so": ("leave-noop",
                           "rdmacm/leave_multicast/ipv4-after-join,"
                           "rdmacm/leave_multicast/two-ids-one-leaves"),
        "mad_bugs.so": ("no-retries,recv-agent,poll-nowait",
                        "umad/send/timeout-200ms-retries-[013],"
                        "umad/send/answered-by-server,"
                        "umad/recv/returns-receiving-agent,"
                        "umad/poll/arrives-while-waiting")},
}
for _step, _shims in SHIM_STEPS.items():
    VM_STEPS[_step] = "LD_PRELOAD='%s' RDMACONF_SHIM=%s %s run --filter " \
        "'%s' --json results.json" % (
            " ".join(os.path.join(SHIMS, lib) for lib in _shims),
            ",".join(bugs for bugs, _ in _shims.values()), RDMACONF,
            ",".join(rows for _, rows in _shims.values()))


@pytest.fixture(scope="module")
def shim_runs(vm_session):
    return {step: vm_session[step] for step in SHIM_STEPS}


def caught_in_run(step, caught):
    """Each id of @caught must get that system verdict in the shim run
    @step while the reference passes, and the run must fail."""
    ktap = step.out
    assert step.rc == 1, ktap[-3000:] + step.err[-2000:]
    rows = {r["id"]: r for r in load_results(step)["results"]}
    for rid, verdict in caught.items():
        assert rows[rid]["verdict"] == {"system": verdict,
                                        "reference": "PASS"}, rows[rid]
        assert "not ok" in [l for l in ktap.splitlines()
                            if l.endswith(rid)][0]
    return rows


def test_verbs_bugs_are_caught(shim_runs):
    """LD_PRELOAD bugs in ibv_init_ah_from_wc and ibv_attach_mcast,
    including an answer kept after its GID is gone."""
    rows = caught_in_run(shim_runs["shim-verbs"], {
        "verbs/init_ah_from_wc/ipv6-fields": "FAIL",
        "verbs/init_ah_from_wc/ipv6-max-values": "FAIL",
        "verbs/attach_mcast/ud-receives": "FAIL",
        "verbs/attach_mcast/twice-one-copy": "FAIL",
        "verbs/init_ah_from_wc/address-removed-after-a-call": "FAIL"})
    # the wrong field is named
    assert "traffic_class" in rows["verbs/init_ah_from_wc/ipv6-fields"][
        "system_detail"]
    assert "0 copies" in rows["verbs/attach_mcast/ud-receives"]["system_detail"]


def test_rdmacm_leave_bug_is_caught(shim_runs):
    """An rdma_leave_multicast that does nothing: messages still arrive."""
    rows = caught_in_run(shim_runs["shim-mad-rdmacm"], {
        "rdmacm/leave_multicast/ipv4-after-join": "FAIL",
        "rdmacm/leave_multicast/two-ids-one-leaves": "FAIL"})
    assert "after the leave" in rows[
        "rdmacm/leave_multicast/ipv4-after-join"]["system_detail"]


def test_mad_bugs_are_caught(shim_runs):
    """LD_PRELOAD bugs in umad_send, umad_recv and umad_poll: each row
    that covers one fails on the system side and diverges."""
    rows = caught_in_run(shim_runs["shim-mad-rdmacm"], {
        "umad/send/timeout-200ms-retries-1": "FAIL",
        "umad/send/timeout-200ms-retries-3": "FAIL",
        "umad/recv/returns-receiving-agent": "FAIL",
        "umad/poll/arrives-while-waiting": "FAIL"})
    # rows the bugs do not touch still pass
    assert rows["umad/send/answered-by-server"]["verdict"]["system"] == "PASS"


def run_vm(env, *cmd, timeout=300):
    full = dict(os.environ)
    full.update(env)
    return subprocess.run([RXE_VM, "--", *cmd], capture_output=True,
                          text=True, env=full, timeout=timeout)


def test_vm_exit_status_environment_and_files(vm_session):
    """The session's command exits 7: so does the launcher; the
    environment went in and the files the guest wrote came out."""
    if host_has_device():
        pytest.skip("the host has a device: no VM")
    launcher = vm_session["_launcher"]
    assert launcher.returncode == VM_SESSION_EXIT, launcher.stderr[-2000:]
    probe = vm_session["probe"]
    assert probe.rc == 0, probe.out + probe.err
    assert "/dev/infiniband/umad0" in probe.out
    with open(os.path.join(probe.dir, "written-in-guest")) as f:
        assert f.read() == "ok\n"
    # the command's errors come back on stderr, not in its output (a
    # KTAP stream's middle)
    assert "session-stdout" in launcher.stdout
    assert "session-stderr" in launcher.stderr
    assert "session-stderr" not in launcher.stdout


def one_line_cause(p, rc, text):
    assert p.returncode == rc, (p.returncode, p.stderr)
    causes = [l for l in p.stderr.splitlines() if l.startswith("rxe-vm: ")
              and "guest console" not in l]
    assert len(causes) == 1 and text in causes[0], p.stderr


@pytest.mark.slow
def test_vm_failures_have_distinct_exits(tmp_path):
    one_line_cause(run_vm({"RDMACONF_QEMU": "/nonexistent/qemu"}, "true"),
                   69, "not found")
    bad = tmp_path / "linux-image-broken_1_amd64.deb"
    bad.write_bytes(b"not a deb")
    one_line_cause(run_vm({"RDMACONF_KERNEL_DEB": str(bad),
                           "RDMACONF_CACHE": str(tmp_path / "cache")}, "true"),
                   70, "unavailable")
    # a guest whose module tree is missing cannot set up rxe
    one_line_cause(run_vm({"RDMACONF_GUEST_MODULES": "/nonexistent"}, "true"),
                   72, "rxe set-up failed")
    p = run_vm({"RDMACONF_BOOT_TIMEOUT": "1"}, "true")
    one_line_cause(p, 71, "boot timeout")
    # the tail of the guest console, or word that it is empty
    assert "  | " in p.stderr or "console is still empty" in p.stderr
    assert "Killed" not in p.stderr
    p = subprocess.run([RXE_VM, "--bogus"], capture_output=True, text=True)
    one_line_cause(p, 64, "unknown option")
    # empty and malformed values: one line and the usage exit, not a
    # bash error with 1 (the code of "a case failed")
    for args, env, text in ((["--kernel", ""], {}, "--kernel needs a value"),
                            (["--dist", ""], {}, "--dist needs a value"),
                            ([], {"RDMACONF_BOOT_TIMEOUT": "abc"},
                             "takes a positive number")):
        p = subprocess.run([RXE_VM, *args, "--", "true"],
                           capture_output=True, text=True,
                           env=dict(os.environ, **env))
        one_line_cause(p, 64, text)


def test_two_devices_reach_each_other(vm_session):
    """--two: rxe0 and rxe1 on a veth pair; RC traffic between them."""
    p = vm_session["pingpong"]
    assert p.rc == 0, p.out + p.err
    assert "iters in" in p.out


UPSTREAM = os.environ.get("RDMACONF_UPSTREAM_RDMA_CORE")


@pytest.mark.skipif(not UPSTREAM, reason="set RDMACONF_UPSTREAM_RDMA_CORE to "
                    "an rdma-core build tree (built in place) to run this")
def test_gate_on_an_upstream_rdma_core_build(shim, tmp_path):
    """--rdma-core DIR tests that build, in the VM too; a bug preloaded over
    it is caught by the gate against the baseline and named."""
    base = os.path.join(ROOT, "cases", "baselines", "rxe-rdma-core-44.json")
    args = [RDMACONF, "run", "--rdma-core", UPSTREAM, "--filter",
            "verbs/init_ah_from_wc/*", "--json", str(tmp_path / "r.json")]
    if not host_has_device():
        args[2:2] = ["--vm", "--two"]
    env = dict(os.environ, LD_PRELOAD=shim("verbs_bugs.so"),
               RDMACONF_SHIM="ah-class")
    subprocess.run(args, capture_output=True, text=True, env=env, timeout=900)
    import json
    with open(tmp_path / "r.json") as f:
        host = json.load(f)["host"]
    assert host["libibverbs"].startswith(os.path.realpath(UPSTREAM)), host
    p = subprocess.run([RDMACONF, "gate", "--baseline", base,
                        str(tmp_path / "r.json")], capture_output=True,
                       text=True)
    assert p.returncode == 1, p.stdout
    assert "WORSE    verbs/init_ah_from_wc/ipv6-fields" in p.stdout, p.stdout


@pytest.mark.slow
def test_ctrl_c_stops_the_vm_and_keeps_results(tmp_path):
    """Ctrl-C (SIGINT to the foreground group) during a run in the VM: exit
    130, qemu gone, and the results file valid with what was done."""
    if host_has_device():
        pytest.skip("the host has a device: no VM to stop")
    import json
    import signal
    import time
    mark = "RDMACONF_TEST_MARK=%d" % os.getpid()
    env = dict(os.environ, RDMACONF_TEST_MARK=str(os.getpid()))
    out = tmp_path / "r.json"
    # the whole suite, interrupted at its first row: rows run in parallel
    # and print in table order, so a later row's line can come late
    p = subprocess.Popen([RDMACONF, "run", "--vm", "--json", str(out)],
                         stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=env,
                         start_new_session=True)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        line = p.stdout.readline()
        if line.startswith("ok "):
            break
    os.killpg(p.pid, signal.SIGINT)
    p.wait(timeout=60)
    assert p.returncode == 130, p.stderr.read()[-2000:]
    assert not left_after(mark, 1)
    data = json.loads(out.read_text())
    assert data["complete"] is False and data["results"]


def stop_a_vm_run(tmp_path, sig, to_group):
    """A run in the VM stopped by @sig after its first row, sent to its
    own process (what `kill` and a CI cancel do) or to its group
    (Ctrl-C): how it ended, its stderr, and whether qemu is gone 2 s
    after."""
    import signal as _signal
    import time
    mark = "RDMACONF_TEST_MARK=%d-%d" % (os.getpid(), sig)
    env = dict(os.environ, RDMACONF_TEST_MARK=mark.split("=", 1)[1])
    out = tmp_path / ("r-%d.json" % sig)
    p = subprocess.Popen([RDMACONF, "run", "--vm", "--json", str(out)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, env=env, start_new_session=True)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if p.stdout.readline().startswith("ok "):
            break
    (os.killpg if to_group else os.kill)(p.pid, sig)
    p.wait(timeout=60)
    left = left_after(mark, 2)
    return p.returncode, "" if sig == _signal.SIGKILL else \
        p.stderr.read(), left, out


@pytest.mark.slow
@pytest.mark.skipif(host_has_device(), reason="no VM to stop")
def test_sigterm_and_sigkill_of_a_vm_run_leave_no_qemu(tmp_path):
    import json
    import signal
    rc, err, left, out = stop_a_vm_run(tmp_path, signal.SIGTERM, False)
    assert rc == 130 and not left, err[-2000:]
    assert "interrupted: the guest is stopped" in err
    assert json.loads(out.read_text())["complete"] is False
    rc, _, left, _ = stop_a_vm_run(tmp_path, signal.SIGKILL, False)
    assert rc == -signal.SIGKILL
    assert not left, "qemu outlived its SIGKILLed launcher"


@pytest.mark.slow
@pytest.mark.skipif(host_has_device(), reason="runs in the VM")
def test_vm_outputs_land_on_the_host_from_any_directory(tmp_path):
    """From a working directory whose path holds a space and a comma, with
    --json and --junit outside it and outside /tmp: both files land on
    the host, and the exit status comes back."""
    import json
    import tempfile
    cwd = os.path.join(ROOT, "build", "a dir, with a comma")
    os.makedirs(cwd, exist_ok=True)
    outdir = tempfile.mkdtemp(prefix="rdmaconf-out ", dir="/var/tmp")
    try:
        js = os.path.join(outdir, "r.json")
        p = subprocess.run([RDMACONF, "run", "--vm", "--filter",
                            "umad/size/*", "--json", js,
                            "--junit=" + os.path.join(outdir, "j.xml")],
                           capture_output=True, text=True, cwd=cwd,
                           timeout=600)
        assert p.returncode == 0, p.stderr[-2000:]
        assert json.load(open(js))["complete"] is True
        assert os.path.getsize(os.path.join(outdir, "j.xml")) > 100
    finally:
        shutil.rmtree(outdir, ignore_errors=True)
        shutil.rmtree(cwd, ignore_errors=True)
