#!/usr/bin/python3
"""make bench: time to a verdict, and the reference against rdma-core.

Everything is measured in this one run, on this machine; compare the ratios
within it, not numbers across runs (these machines are noisy).  Prints a
table and writes build/bench.json."""
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get("BUILD", "build")
RDMACONF = os.path.join(ROOT, BUILD, "rdmaconf")
BENCH = os.path.join(ROOT, BUILD, "bench")
RXE_VM = os.path.join(ROOT, "ci", "rxe-vm")
RUNS = int(os.environ.get("BENCH_VM_RUNS", "3"))
HAS_DEVICE = os.path.isdir("/sys/class/infiniband") and \
    bool(os.listdir("/sys/class/infiniband"))


def wall(cmd, **kw):
    t = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, **kw)
    return time.monotonic() - t, p


def vm_boot(two=False):
    """launcher start -> first guest command -> rxe ready -> whole run."""
    samples = []
    with tempfile.TemporaryDirectory() as d:
        timing = os.path.join(d, "t.json")
        for _ in range(RUNS):
            secs, p = wall([RXE_VM] + (["--two"] if two else []) +
                           ["--", "true"],
                           env=dict(os.environ, RDMACONF_VM_TIMING=timing))
            if p.returncode:
                return {"error": p.stderr.strip().splitlines()[-1:]}
        with open(timing) as f:
            samples = [json.loads(l) for l in f]
    out = {"runs": len(samples), "accel": samples[0]["accel"]}
    for k in ("first_guest_command_ms", "rxe_ready_ms", "total_ms"):
        v = [s[k] for s in samples if s[k] is not None]
        out[k] = {"median": statistics.median(v), "max": max(v)}
    return out


def floor_ms(results):
    """What the cases must wait out: each timed row's expected duration on
    each side that ran, and each watchdog that had to fire."""
    total = 0.0
    for r in results["results"]:
        for impl in ("system", "reference"):
            o = r.get(impl)
            if not o:
                continue
            if r["contract"].get("tol_ms"):
                total += r["contract"]["ms"]
            m = re.search(r"no result after (\d+) ms", r.get(impl + "_detail") or "")
            if m:
                total += int(m.group(1))
    return total


def executed(data):
    """Rows that some implementation ran (not SKIP or UNSUPPORTED)."""
    return sum(1 for r in data["results"]
               if set(r["verdict"].values()) - {"SKIP", "UNSUPPORTED"})


def suite():
    out = {}
    with tempfile.TemporaryDirectory(dir="/tmp") as d:
        res = os.path.join(d, "r.json")
        secs, p = wall([RDMACONF, "run", "--json", res])
        out["host_cases_s"] = round(secs, 2)
        for name, jobs in (("device", []), ("device_serial", ["--jobs", "1"])):
            args = [RDMACONF, "run", "--json", res] + jobs
            if not HAS_DEVICE:
                args[2:2] = ["--vm", "--two"]
            secs, p = wall(args)
            with open(res) as f:
                data = json.load(f)
            out[name] = {"wall_s": round(secs, 2),
                         "cases": data["summary"]["cases"],
                         "executed": executed(data),
                         "floor_s": round(floor_ms(data) / 1000, 2),
                         "jobs": re.search(r"; jobs (\d+)", p.stdout).group(1)
                         if "; jobs " in p.stdout else "?",
                         "ok": p.returncode == 0}
    return out


def pyverbs(vm_start_s):
    """rdma-core's own tests (pyverbs) on the same VM, when at hand:
    python3-pyverbs installed and RDMACONF_PYVERBS_TESTS naming the tests
    directory of the matching rdma-core source (run_tests.py)."""
    tests = os.environ.get("RDMACONF_PYVERBS_TESTS")
    if not tests or not os.path.exists(os.path.join(tests, "run_tests.py")):
        return {"error": "set RDMACONF_PYVERBS_TESTS to rdma-core's tests/ "
                "directory (the installed version's)"}
    if subprocess.run(["/usr/bin/python3", "-c", "import pyverbs"],
                      capture_output=True).returncode:
        return {"error": "python3-pyverbs is not installed"}
    cmd = ["/usr/bin/python3", os.path.join(tests, "run_tests.py")]
    if not HAS_DEVICE:
        cmd = [RXE_VM, "--"] + cmd
    secs, p = wall(cmd)
    # the VM's console carries the guest's stderr on stdout
    text = p.stdout + p.stderr
    ran = re.search(r"Ran (\d+) tests? in", text)
    skipped = re.search(r"skipped=(\d+)", text)
    if not ran:
        return {"error": "no unittest summary: %s" %
                text.strip().splitlines()[-1:]}
    n, k = int(ran.group(1)), int(skipped.group(1)) if skipped else 0
    return {"wall_s": round(secs, 2), "tests": n, "executed": n - k,
            "per_s": round((n - k) / max(secs - vm_start_s, 0.1), 1)}


def make_times():
    """make check, in a fresh clone of the committed tree, build included
    (the kernel comes from the user's cache, as it does on a second
    clone), and make conformance on this build, each timed whole
    (BENCH_CHECK=0 leaves them out: minutes)."""
    out = {}
    if os.environ.get("BENCH_CHECK", "1") != "1":
        return out
    env = {k: v for k, v in os.environ.items()
           if k not in ("BUILD", "MAKEFLAGS", "MAKELEVEL", "MFLAGS")}
    with tempfile.TemporaryDirectory() as d:
        clone = os.path.join(d, "clone")
        subprocess.run(["git", "clone", "-q", ROOT, clone], check=True)
        for name, cmd, cwd in (
                ("make_check", ["make", "-s", "check"], clone),
                ("make_conformance", ["make", "-s", "conformance",
                                      "REPORT=%s/bench-report" % BUILD],
                 ROOT)):
            t = time.monotonic()
            p = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd,
                               env=env if cwd == clone else None)
            out[name] = {"s": round(time.monotonic() - t, 1),
                         "ok": p.returncode == 0}
            # what failed, if anything, is worth reading
            with open(os.path.join(ROOT, BUILD, "bench-%s.log" % name),
                      "w") as f:
                f.write(p.stdout + p.stderr)
    return out


def overhead():
    """Per isolated case: fork, watchdog, judging, KTAP and result write;
    measured on host rows only (umad/set_*), whose calls take nanoseconds,
    against a run that selects no case.  A bare fork + wait on this
    machine is measured beside it: the floor of any isolation."""
    n = 5
    res = "/tmp/rdmaconf-bench.json"
    empty = min(wall([RDMACONF, "run", "--filter", "no/such/*",
                      "--json", res])[0] for _ in range(n))
    full = []
    for _ in range(n):
        secs, p = wall([RDMACONF, "run", "--filter", "umad/set_*",
                        "--json", res])
        full.append(secs)
    with open(res) as f:
        data = json.load(f)
    ran = sum(1 for r in data["results"] for i in ("system", "reference")
              if r["verdict"].get(i) not in ("SKIP", "UNSUPPORTED"))
    os.unlink(res)
    fork = subprocess.run([BENCH, "fork"], capture_output=True, text=True)
    return {"isolated_runs": ran,
            "per_case_ms": round((statistics.median(full) - empty) / ran * 1000, 3),
            "startup_ms": round(empty * 1000, 1),
            "bare_fork_wait_ms": float(fork.stdout.strip() or "nan")}


def calls():
    rows = []
    p = subprocess.run([BENCH, "host", "200"], capture_output=True, text=True)
    rows += [json.loads(l) for l in p.stdout.splitlines() if l.startswith("{")]
    cmd = [BENCH, "device", "300"]
    if not HAS_DEVICE:
        cmd = [RXE_VM, "--"] + cmd
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    rows += [json.loads(l) for l in p.stdout.splitlines() if l.startswith("{")]
    return rows


def main():
    report = {"host": os.uname().release, "time": time.strftime("%Y-%m-%dT%H:%M:%S")}
    report["vm"] = vm_boot()
    report["vm_two"] = vm_boot(two=True)
    report["overhead"] = overhead()
    report["calls"] = calls()
    report["suite"] = suite()
    vm_start = 0 if HAS_DEVICE else report["vm_two"].get(
        "total_ms", {}).get("median", 0) / 1000
    report["pyverbs"] = pyverbs(
        0 if HAS_DEVICE else report["vm"].get("total_ms", {}).get(
            "median", 0) / 1000)
    report["make"] = make_times()
    with open(os.path.join(ROOT, BUILD, "bench.json"), "w") as f:
        json.dump(report, f, indent=1)
    vm = report["vm"]
    print("rxe VM (%s runs, %s)" % (vm.get("runs"), vm.get("accel")))
    for k, target in (("first_guest_command_ms", None), ("rxe_ready_ms", 6000),
                      ("total_ms", 8000)):
        if k in vm:
            print("  %-24s median %6.0f ms  max %6.0f ms  %s" % (
                k, vm[k]["median"], vm[k]["max"],
                "" if not target else "target <= %d ms: %s" % (
                    target, "met" if vm[k]["median"] <= target else "NOT met")))
    o = report["overhead"]
    print("harness overhead: %.3f ms per isolated case (%d runs; startup %.0f ms;"
          " a bare fork+wait here: %.3f ms)  target <= 1 ms: %s" % (
              o["per_case_ms"], o["isolated_runs"], o["startup_ms"],
              o["bare_fork_wait_ms"],
              "met" if o["per_case_ms"] <= 1 else "NOT met"))
    print("per call, operations/s (side by side):")
    for c in report["calls"]:
        if "error" in c:
            print("  %-44s error: %s" % (c.get("call", "device"), c["error"]))
            continue
        print("  %-44s system %12.0f  reference %12.0f  ratio %.2f%s" % (
            c["call"], c["system_ops_s"], c["reference_ops_s"], c["ratio"],
            "" if c["ratio"] >= 0.95 else "  (reference slower)"))
    s = report["suite"]
    print("suite: host cases %.1f s" % s["host_cases_s"])
    for name in ("device", "device_serial"):
        d = s[name]
        body = d["wall_s"] - vm_start
        print("  %-14s jobs %-2s %5.1f s wall (VM start %.1f s), %d cases, "
              "%d executed; floor (mandated waits) %.1f s; (wall - VM start) "
              "/ floor %.1f%s; %.1f executed cases/s outside start and waits"
              % (name, d["jobs"], d["wall_s"], vm_start, d["cases"],
                 d["executed"], d["floor_s"], body / max(d["floor_s"], 0.1),
                 "" if d["ok"] else " (run FAILED)",
                 d["executed"] / max(body - d["floor_s"], 0.1)))
    d = s["device"]
    ratio = (d["wall_s"] - vm_start) / max(d["floor_s"], 0.1)
    print("  goal: within 3x the floor plus the VM's start: %s" %
          ("met" if ratio <= 3 else "NOT met"))
    pv = report["pyverbs"]
    ours = d["executed"] / max(d["wall_s"] - vm_start - d["floor_s"], 0.1)
    if "error" in pv:
        print("pyverbs: not measured: %s" % pv["error"])
    else:
        print("pyverbs (rdma-core's tests, same VM): %d tests, %d executed, "
              "%.1f s wall, %.1f executed/s outside boot; rdmaconf %.1f/s: "
              "%.1fx  goal >= 2x: %s" % (
                  pv["tests"], pv["executed"], pv["wall_s"], pv["per_s"],
                  ours, ours / max(pv["per_s"], 0.1),
                  "met" if ours >= 2 * pv["per_s"] else "NOT met"))
    for name, what, goal in (("make_check", "make check, fresh clone", 90),
                             ("make_conformance", "make conformance", 45)):
        if name in report["make"]:
            m = report["make"][name]
            print("%s: %.0f s (%s)  goal <= %d s: %s" % (
                what, m["s"],
                "passed" if m["ok"] else
                "FAILED, see %s/bench-%s.log" % (BUILD, name), goal,
                "met" if m["s"] <= goal else "NOT met"))
    print("written: %s" % os.path.join(BUILD, "bench.json"))


if __name__ == "__main__":
    sys.exit(main())
