#!/usr/bin/python3
"""make bench: time to a verdict, the reference against rdma-core, and the
fleet's report and gate at 16 to 4,096 nodes (BENCH_ONLY=fleet: those
only; BENCH_FLEET_BEFORE=REV measures an older build beside this one).

Everything is measured in this one run, on this machine; compare the ratios
within it, not numbers across runs (these machines are noisy).  Prints a
table and writes build/bench.json."""
import json
import os
import re
import shutil
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
        # the fixtures beside it, as CI has them (../shared): the
        # citation test reads the 44.0 man pages there
        shared = os.path.join(os.path.dirname(ROOT), "shared")
        if os.path.isdir(shared):
            os.symlink(shared, os.path.join(d, "shared"))
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


FLEET_SIZES = [int(n) for n in
               os.environ.get("BENCH_FLEET_SIZES", "16 256 4096").split()]
# an older rdmaconf to measure beside this one: a binary, or a git
# revision of this tree, built afresh (BENCH_FLEET_BEFORE=684c9b4)
FLEET_BEFORE = os.environ.get("BENCH_FLEET_BEFORE", "")
# what a run of the older one may take before it is stopped
FLEET_CAP_S = float(os.environ.get("BENCH_FLEET_CAP_S", "120"))
FLEET_CAP_MB = int(os.environ.get("BENCH_FLEET_CAP_MB", "2048"))
# the goals at the largest size (2 cores)
FLEET_GOALS = {"s": 30, "mb": 300, "index_mb": 5, "per_node_ratio": 1.5}


def fleet_seed(d):
    """One real results file: a host run of the whole suite (the rows
    this host cannot run are SKIP, with their causes, as on a node
    without a device), or the recorded rxe run when that fails."""
    seed = os.path.join(d, "seed.json")
    wall([RDMACONF, "run", "--json", seed])
    try:
        with open(seed) as f:
            if json.load(f)["results"]:
                return seed, "a host run (rdmaconf run)"
    except (OSError, ValueError, KeyError):
        pass
    return os.path.join(ROOT, "cases", "baselines", "rxe-rdma-core-44.json"), \
        "cases/baselines/rxe-rdma-core-44.json"


def fleet_before(d):
    """The older rdmaconf: BENCH_FLEET_BEFORE's binary, or its revision
    built in a clone; None when not asked for or not built."""
    if not FLEET_BEFORE:
        return None, None
    if os.path.isfile(FLEET_BEFORE) and os.access(FLEET_BEFORE, os.X_OK):
        return FLEET_BEFORE, FLEET_BEFORE
    clone = os.path.join(d, "before")
    env = {k: v for k, v in os.environ.items()
           if k not in ("BUILD", "MAKEFLAGS", "MAKELEVEL", "MFLAGS")}
    for cmd in (["git", "clone", "-q", ROOT, clone],
                ["git", "-C", clone, "checkout", "-q", FLEET_BEFORE],
                ["make", "-s", "-C", clone, "-j2", "build/rdmaconf"]):
        if subprocess.run(cmd, capture_output=True, env=env).returncode:
            return None, "%s: %s failed" % (FLEET_BEFORE, cmd[0])
    return os.path.join(clone, "build", "rdmaconf"), FLEET_BEFORE


def fleet():
    """rdmaconf report --fleet and the fleet gate on synthetic fleets of
    FLEET_SIZES nodes, copies of one real results file with a few
    outliers: time, peak memory and index.html's size per size, and an
    older build's beside it (BENCH_FLEET_BEFORE), in this one run."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import fleet_synth
    out = {"sizes": FLEET_SIZES, "goals": FLEET_GOALS, "runs": {}}
    with tempfile.TemporaryDirectory(
            dir=os.environ.get("BENCH_FLEET_DIR", "/tmp")) as d:
        seed, out["seed"] = fleet_seed(d)
        before, out["before"] = fleet_before(d)
        broken = fleet_synth.pick_cases(seed, 6)
        builds = [("after", RDMACONF)] + ([("before", before)] if before
                                          else [])
        for n in FLEET_SIZES:
            base, now = os.path.join(d, "base"), os.path.join(d, "now")
            # a few outliers: two alike, one of its own, one against the
            # baseline's own outlier
            outliers = {1: broken[:2], n // 2: broken[:2],
                        n - 2: broken[2:3], n - 1: broken[3:5]}
            fleet_synth.write_fleet(seed, base, n,
                                    outliers={n - 1: broken[3:5]})
            fleet_synth.write_fleet(seed, now, n, outliers=outliers)
            # the fleets on disk before anything is timed: a gigabyte of
            # dirty pages would be written back during the runs
            os.sync()
            for name, binary in builds:
                rows = out["runs"].setdefault(name, {})
                r = {}
                for what, cmd in (
                        ("report", [binary, "report", "--fleet", now]),
                        ("gate", [binary, "gate", "--baseline", base, now])):
                    cap = (FLEET_CAP_S, FLEET_CAP_MB) if name == "before" \
                        else (None, None)
                    status, secs, rss = fleet_synth.measure(cmd, *cap)
                    # stopped at the time cap, or failed at the memory cap
                    stopped = "time" if status is None else "memory" if \
                        status not in (0, 1) and name == "before" else None
                    r[what] = {"s": round(secs, 2), "mb": rss,
                               "status": status, "stopped": stopped}
                index = os.path.join(now, "index.html")
                r["index_bytes"] = os.path.getsize(index) \
                    if r["report"]["status"] in (0, 1) and \
                    os.path.exists(index) else None
                rows[str(n)] = r
                for f in ("index.html", "summary.md", "nodes.html"):
                    if os.path.exists(os.path.join(now, f)):
                        os.unlink(os.path.join(now, f))
            shutil.rmtree(base)
            shutil.rmtree(now)
    return out


def print_fleet(f):
    sizes = [str(n) for n in f["sizes"]]
    print("fleet: report --fleet and the fleet gate, synthetic fleets of "
          "%s nodes (seed: %s)" % (", ".join(sizes), f["seed"]))
    if FLEET_BEFORE and "before" not in f["runs"]:
        print("  before: not measured (%s)" % f["before"])
    for name, rows in f["runs"].items():
        label = "this build" if name == "after" else "before (%s)" % \
            f["before"]
        for what in ("report", "gate"):
            cells = []
            for n in sizes:
                r = rows[n][what]
                if r["stopped"] == "time":
                    cells.append("%5d: stopped at %.0f s (the cap)" % (
                        int(n), r["s"]))
                elif r["stopped"] == "memory":
                    cells.append("%5d: out of memory at the %d MB cap, "
                                 "after %.1f s" % (int(n), FLEET_CAP_MB,
                                                   r["s"]))
                else:
                    cells.append("%5d: %7.2f s %6.2f ms/node %7.1f MB" % (
                        int(n), r["s"], r["s"] / int(n) * 1000,
                        r["mb"] or 0))
            print("  %-22s %-6s %s" % (label, what, " | ".join(cells)))
        cells = ["%5s: %s" % (n, "%.1f KB" % (rows[n]["index_bytes"] / 1024)
                              if rows[n]["index_bytes"] else "-")
                 for n in sizes]
        print("  %-22s %-6s %s" % (label, "index", " | ".join(cells)))
    after = f["runs"]["after"]
    big, mid = sizes[-1], sizes[-2] if len(sizes) > 1 else sizes[-1]
    for what in ("report", "gate"):
        a, m = after[big][what], after[mid][what]
        ratio = (a["s"] / int(big)) / max(m["s"] / int(mid), 1e-9)
        print("  %s at %s nodes: %.1f s (goal <= %d: %s), %.0f MB (goal <= "
              "%d: %s), per node %.2fx that at %s (goal <= %.1fx: %s)" % (
                  what, big, a["s"], FLEET_GOALS["s"],
                  "met" if a["s"] <= FLEET_GOALS["s"] else "NOT met",
                  a["mb"] or 0, FLEET_GOALS["mb"],
                  "met" if (a["mb"] or 0) <= FLEET_GOALS["mb"] else "NOT met",
                  ratio, mid, FLEET_GOALS["per_node_ratio"],
                  "met" if ratio <= FLEET_GOALS["per_node_ratio"]
                  else "NOT met"))
    ib = after[big]["index_bytes"] or 0
    print("  index.html at %s nodes: %.1f KB (goal <= %d MB: %s)" % (
        big, ib / 1024, FLEET_GOALS["index_mb"],
        "met" if ib <= FLEET_GOALS["index_mb"] << 20 else "NOT met"))
    if "before" in f["runs"]:
        for what in ("report", "gate"):
            cells = []
            for n in sizes:
                b, a = f["runs"]["before"][n][what], after[n][what]
                if b["stopped"] == "time":
                    cells.append("%5s: > %.0fx time" % (
                        n, b["s"] / max(a["s"], 1e-3)))
                elif b["stopped"] == "memory":
                    cells.append("%5s: > %.0fx memory" % (
                        n, FLEET_CAP_MB / max(a["mb"] or 1, 1e-3)))
                else:
                    cells.append("%5s: %.1fx time, %.1fx memory" % (
                        n, b["s"] / max(a["s"], 1e-3),
                        (b["mb"] or 0) / max(a["mb"] or 1, 1e-3)))
            print("  before/after %-6s %s" % (what, " | ".join(cells)))


def main():
    if os.environ.get("BENCH_ONLY") == "fleet":
        f = fleet()
        with open(os.path.join(ROOT, BUILD, "bench-fleet.json"), "w") as o:
            json.dump(f, o, indent=1)
        print_fleet(f)
        print("written: %s" % os.path.join(BUILD, "bench-fleet.json"))
        return 0
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
    report["fleet"] = fleet()
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
    print_fleet(report["fleet"])
    print("written: %s" % os.path.join(BUILD, "bench.json"))


if __name__ == "__main__":
    sys.exit(main())
