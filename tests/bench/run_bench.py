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


def vm_boot():
    """launcher start -> first guest command -> rxe ready -> whole run."""
    samples = []
    with tempfile.TemporaryDirectory() as d:
        timing = os.path.join(d, "t.json")
        for _ in range(RUNS):
            secs, p = wall([RXE_VM, "--", "true"],
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
            if r["expected"].get("tol_ms"):
                total += r["expected"]["ms"]
            m = re.search(r"no result after (\d+) ms", r.get(impl + "_detail") or "")
            if m:
                total += int(m.group(1))
    return total


def suite():
    out = {}
    with tempfile.TemporaryDirectory(dir="/tmp") as d:
        res = os.path.join(d, "r.json")
        secs, p = wall([RDMACONF, "run", "--json", res])
        out["host_cases_s"] = round(secs, 2)
        args = [RDMACONF, "run", "--json", res]
        if not HAS_DEVICE:
            args[2:2] = ["--vm", "--two"]
        secs, p = wall(args)
        out["device_cases_s"] = round(secs, 2)
        with open(res) as f:
            data = json.load(f)
        out["cases"] = data["summary"]["cases"]
        out["floor_s"] = round(floor_ms(data) / 1000, 2)
    if os.environ.get("BENCH_CHECK", "1") == "1":
        secs, p = wall(["make", "-s", "check"])
        out["make_check_s"] = round(secs, 1)
        out["make_check_ok"] = p.returncode == 0
        # what failed, if anything, is worth reading
        with open(os.path.join(ROOT, BUILD, "bench-check.log"), "w") as f:
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
    report["overhead"] = overhead()
    report["calls"] = calls()
    report["suite"] = suite()
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
    print("suite: host cases %.1f s; device cases %.1f s (%d cases, floor %.1f s)"
          % (s["host_cases_s"], s["device_cases_s"], s["cases"], s["floor_s"]))
    if "make_check_s" in s:
        print("make check: %.0f s (%s)  target <= 120 s: %s" % (
            s["make_check_s"], "passed" if s["make_check_ok"] else
            "FAILED, see %s/bench-check.log" % BUILD,
            "met" if s["make_check_s"] <= 120 else "NOT met"))
    print("written: %s" % os.path.join(BUILD, "bench.json"))


if __name__ == "__main__":
    sys.exit(main())
