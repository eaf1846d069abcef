"""End-to-end driver: runs build/rdmaconf as a user would and reads its JSON."""
import functools
import json
import os
import shlex
import signal
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RDMACONF = os.environ.get("RDMACONF", os.path.join(ROOT, "build", "rdmaconf"))
SHIMS = os.environ.get("RDMACONF_SHIMS", os.path.join(ROOT, "build", "shims"))
RXE_VM = os.path.join(ROOT, "ci", "rxe-vm")


def processes_carrying(*tokens):
    """(pid, command line) of each process but ours whose environment
    holds every one of @tokens: what a run started inherits its mark."""
    tokens = [t.encode() if isinstance(t, str) else t for t in tokens]
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open("/proc/%s/environ" % pid, "rb") as f:
                env = f.read()
            if int(pid) == os.getpid() or \
                    not all(t in env for t in tokens):
                continue
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                found.append((int(pid), f.read().replace(b"\0", b" ")))
        except OSError:
            pass
    return found


def left_after(token, within):
    """The processes carrying @token that are still there @within seconds
    from now; the wait ends as soon as none is (a run's leftovers must be
    gone within a bound, not after a fixed sleep)."""
    import time
    deadline = time.monotonic() + within
    while True:
        left = processes_carrying(token)
        if not left or time.monotonic() >= deadline:
            return left
        time.sleep(0.05)


@functools.lru_cache(maxsize=None)
def vocab_json():
    """`rdmaconf __vocab`'s output, asked once a session (the binary does
    not change while the tests run; a test that asked per row spent
    seconds in fork and exec)."""
    return subprocess.run([RDMACONF, "__vocab"], capture_output=True,
                          text=True, check=True).stdout


def vocab():
    """Every table of the vocabulary, as the binary has it (`rdmaconf
    __vocab`): the only list of verdicts, bases, implementations... a test
    may use.  A fresh copy each call: the caller may change it."""
    return json.loads(vocab_json())


def vocab_names(table, key="name"):
    return [e[key] for e in vocab()[table]]


def fixture_tarball(pattern):
    """A source snapshot of ../shared/fixtures (RDMACONF_FIXTURES, or the
    shared fixtures beside the checkout or beside its worktree's
    parent): the last that matches @pattern, or None."""
    import glob
    dirs = [os.environ.get("RDMACONF_FIXTURES", "")] + [
        os.path.join(ROOT, up, "shared", "fixtures") for up in ("..",
                                                               "../..")]
    for d in filter(None, dirs):
        found = sorted(glob.glob(os.path.join(d, pattern)))
        if found:
            return found[-1]
    return None


def as_md(text):
    """text as the reports write it in Markdown (harness/escape.c
    rc_str_md): a case id from a results file is never markup."""
    return "".join("\\" + c if c in "\\`*_[]<>|#!~&" else c for c in text)


def host_has_device():
    return os.path.isdir("/sys/class/infiniband") and \
        bool(os.listdir("/sys/class/infiniband"))


def not_ok_blocks(ktap):
    """The "not ok" lines of a KTAP run with their diagnostics, its STALE
    lines and the list of not-ok rows above its last line."""
    out, keep = [], False
    for line in ktap.splitlines():
        if line.startswith(("ok ", "not ok ")):
            keep = line.startswith("not ok ")
        if keep or line.startswith(("# STALE", "# not ok: ")):
            out.append(line)
    return "\n".join(out[:60]) + "\n"


def why_not_ok(p, tail=3000):
    """What a suite run that failed says of itself: its not-ok rows with
    the lines that explain them (a long run's tail alone may hold none of
    them), then the tails of its output."""
    return not_ok_blocks(p.stdout) + "--- the tails ---\n" + \
        p.stdout[-tail:] + p.stderr[-2000:]


def suite_run(args=""):
    """A VM step: rdmaconf run of every case on the session's device, into
    results.json in the step's directory."""
    return "%s run %s --json results.json" % (RDMACONF, args)


# make check's run of the suite: of each table of rows its first, and the
# timed rows (rdmaconf run --sample), every call's, in a fifth of the full
# run's rows (272 of 1370; the first and third, 466 rows, took 29 s of
# the VM's two cores, a third of make check's CPU); the slow tier runs
# every row (test_serial, test_matrix).  make coverage, which no time
# goal bounds, takes two (RDMACONF_QUICK_SAMPLE): the reference's paths
# that a call's third row reaches count there
QUICK_SAMPLE = int(os.environ.get("RDMACONF_QUICK_SAMPLE", "1"))


def sample_ids(n=QUICK_SAMPLE):
    """The ids rdmaconf run --sample @n takes."""
    return set(subprocess.run([RDMACONF, "list", "--sample", str(n)],
                              capture_output=True, text=True,
                              check=True).stdout.split())


def load_results(step):
    """The results.json a step (suite_run) wrote."""
    path = os.path.join(step.dir, "results.json")
    with open(path) as f:
        data = json.load(f)
    data["_path"] = path
    return data


def recorded_changes(target, data, selected=None):
    """The rows of a run whose verdicts differ from the recorded run of
    @target (tests/e2e/recorded/TARGET.json): [(id, recorded, now)].  A
    row the record does not know is new and judged elsewhere; a recorded
    row the run lacks is a change, of those the run @selected (a set of
    ids; None: every row).  A deliberate change of verdict is a change of
    the record, in the same commit."""
    with open(os.path.join(ROOT, "tests", "e2e", "recorded",
                           target + ".json")) as f:
        rec = json.load(f)
    now = {r["id"]: [r["verdict"]["system"], r["verdict"]["reference"],
                     r["agree"], r["ok"]] for r in data["results"]}
    return [(i, v, now.get(i)) for i, v in sorted(rec["rows"].items())
            if now.get(i) != v and (selected is None or i in selected)]


# What the session's one boot of the rxe VM exits with, after all steps:
# the launcher must hand it back (test_rxe_vm checks).
VM_SESSION_EXIT = 7
# the guest's gcov data under make coverage, in its build (Makefile)
GUEST_GCDA = "guest-gcda.tar"


def output_text(path):
    """A command's output file as text: what the libraries under test print
    (their debug output names what they were given, unterminated names
    included) is not always UTF-8, and shows escaped; "" when absent."""
    if not os.path.exists(path):
        return ""
    with open(path, errors="backslashreplace") as f:
        return f.read()


class Step:
    """One command of the VM session: its exit status, output and the
    directory it ran in (its files are there)."""

    def __init__(self, d):
        self.dir = d
        self.rc = int(open(os.path.join(d, "rc")).read().strip() or -1) \
            if os.path.exists(os.path.join(d, "rc")) else None
        self.out = output_text(os.path.join(d, "out"))
        self.err = output_text(os.path.join(d, "err"))


def uses_vm(item):
    return "vm_session" in getattr(item, "fixturenames", ())


def vm_session_start(items, d):
    """Start the one boot of the session (see vm_session) in the
    background: the host's tests run beside it.  Returns the process and
    the steps by name; the launcher's output goes to @d."""
    steps = {}
    # a module's steps only when a selected test of it reads them (the
    # slow tier selects test_rxe_vm's own boots, not its sample's tests)
    for item in filter(uses_vm, items):
        steps.update(getattr(item.module, "VM_STEPS", {}))
    script = ["cd %s || exit 99" % shlex.quote(str(d))]
    for name, cmd in steps.items():
        sd = d / name
        sd.mkdir()
        # each step's wall time (ms), where the quick tier's time goes
        script.append("t=$(date +%%s%%N); "
                      "(cd %s && %s) > %s/out 2> %s/err < /dev/null; "
                      "echo $? > %s/rc; "
                      "echo $(( ($(date +%%s%%N) - t) / 1000000 )) > %s/ms" % (
                          (shlex.quote(str(sd)), cmd) +
                          (shlex.quote(str(sd)),) * 4))
    # make coverage (RDMACONF_GCOV_DIR, its build): the rows in the guest
    # write their gcov data to the guest's tmpfs (each row's dump of ~300
    # files over 9p made the session take tens of minutes), brought back
    # in one archive that make coverage reads as a tracefile of its own:
    # gcov-tool merge aborted on profiles the host's binaries wrote
    # differently, and lost all of it
    gcov = os.environ.get("RDMACONF_GCOV_DIR")
    if gcov and not host_has_device():
        guest = "/run/rdmaconf-gcov"
        script.insert(1, "export GCOV_PREFIX=%s" % guest)
        script.append("tar -C %s -cf %s . || echo 'tar: the gcov data of "
                      "the guest did not come back' >&2" % (
                          shlex.quote(guest + os.path.abspath(gcov)),
                          shlex.quote(os.path.join(gcov, GUEST_GCDA))))
    # the guest's stdout and stderr come back apart
    script.append("echo session-stdout; echo session-stderr >&2")
    script.append("exit %d" % VM_SESSION_EXIT)
    cmd = ["sh", "-c", "\n".join(script)]
    if not host_has_device():
        cmd = [RXE_VM, "--two", "--"] + cmd
    env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
    env["RDMACONF_PROBE"] = "x y"
    out, err = open(d / "launcher.out", "w"), open(d / "launcher.err", "w")
    # its own session: what is left of it at the end can be signalled
    proc = subprocess.Popen(cmd, stdout=out, stderr=err, text=True, env=env,
                            stdin=subprocess.DEVNULL, start_new_session=True)
    out.close()
    err.close()
    return proc, steps


def pytest_collection_modifyitems(session, config, items):
    """The modules that read the VM session go last, so that the tests
    before them run while the VM does (vm_session waits for it)."""
    vm_modules = {item.module for item in items if uses_vm(item)}
    items.sort(key=lambda item: item.module in vm_modules)


def pytest_runtest_setup(item):
    """A test of a VM module starts after the session's boot: some boot a
    VM of their own, and two at once would share the two cores."""
    vm = getattr(item.config, "rdmaconf_vm", None)
    if vm and item.module in vm[3]:
        vm[1].wait()


def pytest_collection_finish(session):
    if not any(uses_vm(item) for item in session.items):
        return
    d = session.config._tmp_path_factory.mktemp("vm-session")
    modules = {item.module for item in session.items if uses_vm(item)}
    session.config.rdmaconf_vm = (d,) + vm_session_start(session.items, d) + \
        (modules,)


def pytest_sessionfinish(session):
    """A VM session nobody waited for (a run stopped early) ends here."""
    vm = getattr(session.config, "rdmaconf_vm", None)
    if vm and vm[1].poll() is None:
        os.killpg(vm[1].pid, signal.SIGTERM)
        vm[1].wait()


@pytest.fixture(scope="session")
def vm_session(request):
    """Every VM_STEPS of the selected test modules, run one after the
    other in a single boot of the rxe VM with two devices (a boot is
    ~10 s of make check), or on the host when it has a device; started
    when collection ends (pytest_collection_finish), waited for here.

    VM_STEPS maps a step's name to a shell command; it runs in a directory
    of its own with the environment of the test run.  Returns the steps
    (Step) by name and the launcher's own result under "_launcher"."""
    d, proc, steps, _ = request.config.rdmaconf_vm
    try:
        rc = proc.wait(timeout=1800)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGTERM)
        raise
    launcher = subprocess.CompletedProcess(
        proc.args, rc, output_text(str(d / "launcher.out")),
        output_text(str(d / "launcher.err")))
    found = {name: Step(str(d / name)) for name in steps}
    found["_launcher"] = launcher
    return found


def pytest_configure(config):
    config.addinivalue_line("markers", "vm: needs an RDMA device or the rxe VM")
    config.addinivalue_line("markers", "ibsim: runs the InfiniBand simulator")
    config.addinivalue_line("markers", "package: builds the Debian package")
    config.addinivalue_line(
        "markers", "slow: the slow tier (make check-slow): other suites and "
        "kernels, the package, the fleet, the serial run, the mutation "
        "sample and the walk of the reference it rests on, the whole umad "
        "suite on ibsim, the VM without ib_umad and with umad debug on, "
        "failure paths that wait out their deadlines, chromium, ibsim runs "
        "stopped by a signal and two fabrics at once")


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
