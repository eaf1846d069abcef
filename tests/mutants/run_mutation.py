#!/usr/bin/env python3
"""make mutation: how many deliberately broken rdma-core behaviours the
suite notices.

Every mutant in mutants.so (tests/mutants/*_mutants.c) breaks one
documented behaviour of one call.  For each call, the rows of that call
run once with the mutants library preloaded and no mutant on (the
control, which must be ok), then once per mutant.  A mutant is killed
when the run is not ok (exit 1): some verdict flipped.  One that leaves
every verdict as it was survives; tests/mutants/survivors.expect gives
the reason for each survivor that cannot be observed, and a survivor
without one, or an entry for a mutant that is killed, fails the run.

Exit 0 every mutant killed or explained, 1 otherwise, 2 usage, 3 the
control run of a call is not ok (the suite itself is red there).
"""
import argparse
import fnmatch
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
# what CI runs (--sample): the header helpers, whose rows are quick, and
# three device calls with failure rows, so that the device path is tried
SAMPLE_CALLS = ("umad_set_grh", "umad_set_addr", "umad_set_addr_net",
                "umad_set_pkey", "umad_get_pkey", "umad_status", "umad_size",
                "umad_get_mad", "umad_get_mad_addr", "umad_get_fd",
                "umad_close_port", "ibv_destroy_ah")


def load_survivors(path):
    reasons = {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            name, _, why = line.partition(" ")
            if not why.strip():
                sys.exit("%s:%d: expected '<call/mutant> <reason>'" % (path, n))
            reasons[name] = why.strip()
    return reasons


def run_rows(args, ids, mutant, out):
    env = {k: v for k, v in os.environ.items() if k != "RDMACONF_MUTANT"}
    env["LD_PRELOAD"] = " ".join(filter(None, [args.mutants,
                                               os.environ.get("LD_PRELOAD")]))
    if mutant:
        env["RDMACONF_MUTANT"] = mutant
    # the machine's slowness, measured once by the first run: a run
    # samples it for up to a second under TCG
    if args.slowness:
        env["RDMACONF_SLOWNESS"] = str(args.slowness)
    cmd = [args.rdmaconf, "run", "--watchdog-ms",
           str(args.watchdog_ms), "--filter", ",".join(ids), "--json", out]
    # stderr has what the code under test printed: any bytes at all
    p = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True, errors="replace",
                       timeout=600)
    flipped = []
    try:
        with open(out) as f:
            data = json.load(f)
        flipped = [r["id"] for r in data["results"] if not r["ok"]]
        args.slowness = args.slowness or data["host"]["slowness"]
    except (OSError, ValueError, KeyError):
        pass
    return p.returncode, flipped, p.stderr.strip().splitlines()[-1:]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rdmaconf", required=True)
    ap.add_argument("--mutants", required=True, help="mutants.so")
    ap.add_argument("--json", help="write the results here")
    ap.add_argument("--calls", default="*", help="glob of calls to mutate")
    ap.add_argument("--sample", action="store_true",
                    help="only the calls CI samples (SAMPLE_CALLS)")
    ap.add_argument("--watchdog-ms", type=int, default=5000)
    ap.add_argument("--survivors",
                    default=os.path.join(HERE, "survivors.expect"))
    args = ap.parse_args()
    args.mutants = os.path.abspath(args.mutants)
    args.slowness = None

    listing = subprocess.run(["/bin/true"], env=dict(
        os.environ, LD_PRELOAD=args.mutants, RDMACONF_MUTANT="list"),
        capture_output=True, text=True).stdout
    mutants = [l.split("\t") for l in listing.splitlines() if "\t" in l]
    if not mutants:
        print("mutation: %s lists no mutants" % args.mutants, file=sys.stderr)
        return 2
    rows = json.loads(subprocess.run([args.rdmaconf, "list", "--json", "-"],
                                     capture_output=True, text=True,
                                     check=True).stdout)
    survivors_expected = load_survivors(args.survivors)
    by_call = {}
    for name, what in mutants:
        call = name.split("/")[0]
        if fnmatch.fnmatch(call, args.calls) and \
                (not args.sample or call in SAMPLE_CALLS):
            by_call.setdefault(call, []).append((name, what))

    tmp = os.path.join(os.environ.get("TMPDIR", "/tmp"),
                       "rdmaconf-mutation-%d.json" % os.getpid())
    report = {"calls": {}, "complete": False}
    status = 0
    start = time.monotonic()
    for call, ms in by_call.items():
        ids = [r["id"] for r in rows if r["call"] == call]
        entry = {"rows": len(ids), "mutants": len(ms), "killed": [],
                 "survivors": [], "errors": []}
        report["calls"][call] = entry
        rc, flipped, err = run_rows(args, ids, None, tmp)
        if rc != 0:
            entry["errors"].append("control run exits %d: %s %s" %
                                   (rc, flipped[:3], err))
            print("%-24s control run not ok (exit %d): %s" %
                  (call, rc, ", ".join(flipped[:3]) or err))
            status = max(status, 3)
            continue
        for name, what in ms:
            rc, flipped, err = run_rows(args, ids, name, tmp)
            if rc == 1:
                entry["killed"].append({"mutant": name, "by": flipped})
            elif rc == 0:
                entry["survivors"].append({"mutant": name, "breaks": what,
                                           "reason": survivors_expected.get(name)})
            else:
                entry["errors"].append("%s: exit %d %s" % (name, rc, err))
        unexplained = [s["mutant"] for s in entry["survivors"]
                       if not s["reason"]]
        stale = [k["mutant"] for k in entry["killed"]
                 if k["mutant"] in survivors_expected]
        print("%-24s %2d rows %2d mutants %2d killed%s%s%s" % (
            call, len(ids), len(ms), len(entry["killed"]),
            "".join("\n    SURVIVOR %s (%s)%s" % (
                s["mutant"], s["breaks"],
                ": " + s["reason"] if s["reason"] else ": NO REASON")
                for s in entry["survivors"]),
            "".join("\n    STALE %s is killed, but survivors.expect "
                    "excuses it" % m for m in stale),
            "".join("\n    ERROR %s" % e for e in entry["errors"])))
        if unexplained or stale or entry["errors"]:
            status = max(status, 1)
    if os.path.exists(tmp):
        os.unlink(tmp)
    calls = report["calls"].values()
    total = sum(c["mutants"] for c in calls)
    killed = sum(len(c["killed"]) for c in calls)
    survived = [s for c in calls for s in c["survivors"]]
    explained = sum(1 for s in survived if s["reason"])
    errors = sum(len(c["errors"]) for c in calls)
    report.update(complete=True, mutants=total, killed=killed,
                  explained=explained, unexplained=len(survived) - explained,
                  errors=errors,
                  seconds=round(time.monotonic() - start, 1))
    print("mutation: %d mutants of %d calls: %d killed, %d survived with a "
          "reason, %d survived without one, %d not run (errors) (%.0f s)" % (
              total, len(report["calls"]), killed, explained,
              len(survived) - explained, total - killed - len(survived),
              report["seconds"]))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)
    return status


if __name__ == "__main__":
    sys.exit(main())
