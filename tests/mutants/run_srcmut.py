#!/usr/bin/env python3
"""make mutation, second part: how many mechanical mutants of the
reference the rows notice.

tests/mutants/srcmut/build.py gives one rdmaconf with every schema point
of reference/ in it (the mutant chosen by RDMACONF_SRCMUT) and one binary
more per mutant of a case label.  Every mutant belongs to each call whose
ref_ function reaches its function (manifest "owners"), and is judged by
the rows of those calls alone, on the reference alone.  Each of those
rows first runs alone with no mutant (its control, which must be ok),
marking the points it reaches (RDMACONF_SRCMUT_COVER).  A mutant no
owner's row reaches is "not reached" and counts as a survivor; the others
run once, in one run of the rows that reach them (a row that never
reaches a point cannot tell its mutants from the original), and are
killed when some row's verdict or ok flag differs from its control.  A
second control at the end, each call's rows together, finds the rows
that change by themselves; a mutant killed by those alone runs again,
and what does not flip again is an error, not a kill.  Runs whose rows
need no device go two at a time (they share nothing); the others one
after the other, each with rdmaconf's own parallel rows.

tests/mutants/srcmut-survivors.expect lists the survivors that are
equivalent or unobservable, each with its reason; a survivor it does not
list, or an entry for a mutant that is killed or no longer exists, fails
the run.  An entry <mutant id>@<call> lists a mutant for one call alone:
another call's rows kill it, this call's cannot (its WR never reads
what the mutant changes, say).  A call's score counts its mutants that
neither kind lists; a mutant killed by other calls' rows and by none of
this call's, listed for neither, is a GAP of the call (printed, and in
the JSON, not a failure: it lowers the call's score).  A mutant whose
rows hang and leave the device failing its controls is a "hang" (a
kernel finding), and the device mutants after it are errors, not run.
Exit 0 every mutant killed or listed, 1 otherwise, 2 usage, 3 the
control run of a call is not ok.
"""
import argparse
import collections
import concurrent.futures
import fnmatch
import json
import os
import subprocess
import sys
import tempfile
import threading
import time

# the same file format: "<mutant> <reason>" a line
from run_mutation import load_survivors

HERE = os.path.dirname(os.path.abspath(__file__))
# what CI runs (--sample): calls whose rows are quick and whose every
# mutant is killed or listed in srcmut-survivors.expect (umad_set_grh
# and umad_set_grh_net together: they share set_grh())
SAMPLE_CALLS = ("umad_set_addr", "umad_set_addr_net", "umad_set_grh",
                "umad_set_grh_net", "umad_set_pkey", "umad_get_pkey",
                "umad_get_mad", "umad_get_mad_addr", "umad_size",
                "umad_status", "umad_init", "umad_done", "umad_debug",
                "umad_class_str", "umad_method_str", "umad_attribute_str",
                "umad_common_mad_status_str", "umad_sa_mad_status_str",
                "umad_dump", "umad_addr_dump", "umad_alloc")
# runs at once of rows that need no device
LANES = 2


# The reference's driver parts (reference/verbs/prov_<driver>.c, and its
# data path dp_<driver>.c) run only on a device of that driver: their
# mutants are judged on one (--device), the rest of the reference on any.
PROVIDERS = ("rxe", "siw")



def split_survivors(reasons):
    """The survivors' file as two maps: mutant id -> reason (it survives
    every row), and (mutant id, call) -> reason, from the entries
    written <mutant id>@<call> (another call's rows kill it; for this
    call it is equivalent or unobservable)."""
    listed, for_call = {}, {}
    for name, why in reasons.items():
        mutant, at, call = name.rpartition("@")
        if at:
            for_call[(mutant, call)] = why
        else:
            listed[name] = why
    return listed, for_call


def per_call_stale(for_call, listed, mutants):
    """The entries <mutant id>@<call> that cannot hold, whatever ran:
    (mutant id, call), why."""
    owners = {m["id"]: m["owners"] for m in mutants}
    for (i, c) in sorted(for_call):
        if i not in owners:
            yield (i, c), "no such mutant exists"
        elif c not in owners[i]:
            yield (i, c), "%s does not reach it" % c
        elif i in listed:
            yield (i, c), "the mutant is listed for every call"


def survivor_reason(m, listed, for_call):
    """Why surviving mutant @m (its "judges": the calls whose rows ran on
    it) is no finding: its entry for every call, or the entries for each
    call judging it in this run (a slice without the call whose rows kill
    it); None when some judging call has none."""
    if m["id"] in listed:
        return listed[m["id"]]
    if m["judges"] and all((m["id"], c) in for_call for c in m["judges"]):
        return "; ".join(for_call[(m["id"], c)] for c in m["judges"])
    return None


def provider_of_file(mutant_id):
    """The driver whose part of the reference the mutant is in, or None"""
    name = os.path.basename(mutant_id.split(":", 1)[0])
    for p in PROVIDERS:
        if name in ("dp_%s.c" % p, "prov_%s.c" % p):
            return p
    return None


def provider_of_device(device):
    """rxe unless the device names another driver (siw0: siw)"""
    for p in PROVIDERS:
        if device and device.startswith(p):
            return p
    return "rxe"


class Runner:
    def __init__(self, args, build):
        self.args = args
        self.build = build
        self.slowness = None
        # shared mappings of the coverage files need a file system that
        # has them: in the VM, /tmp is the host's over 9p
        shm = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
        self.tmp = tempfile.mkdtemp(prefix="rdmaconf-srcmut-", dir=shm)
        self.runs = 0
        # the runs under way, in <json>.running: what to look at when a
        # mutant hangs the machine (one of the reference's data path made
        # Linux 6.1's rxe oops, and the run never came back)
        self.running = {}
        self.running_lock = threading.Lock()
        self.running_path = args.json + ".running" if args.json else None

    def in_flight(self, key, what):
        if not self.running_path:
            return
        with self.running_lock:
            if what:
                self.running[key] = what
            else:
                self.running.pop(key, None)
            with open(self.running_path, "w") as f:
                f.write("".join("%s\n" % w for w in self.running.values()))

    def rows(self, binary, ids, mutant=None, cover=None):
        """{row id: (verdict, ok)} of a run of @ids, or an error string."""
        env = {k: v for k, v in os.environ.items()
               if k not in ("RDMACONF_SRCMUT", "RDMACONF_SRCMUT_COVER")}
        if mutant:
            env["RDMACONF_SRCMUT"] = str(mutant)
        if cover:
            env["RDMACONF_SRCMUT_COVER"] = cover
        # the machine's slowness, measured once by the first run
        if self.slowness:
            env["RDMACONF_SLOWNESS"] = str(self.slowness)
        fd, out = tempfile.mkstemp(suffix=".json", dir=self.tmp)
        os.close(fd)
        cmd = [binary, "run", "--impl", "reference", "--watchdog-ms",
               str(self.args.watchdog_ms), "--filter", ",".join(ids),
               "--json", out]
        if self.args.device:
            cmd[2:2] = ["--device", self.args.device]
        self.runs += 1
        p = None
        self.in_flight(out, "mutant %s: %s" % (mutant or "none",
                                                " ".join(ids)))
        try:
            # the rows' own output goes to stderr, and a mutant may write
            # anything there (ucma_open returning 1 sends the kernel's
            # commands to it): read as text whatever the bytes
            p = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.PIPE, text=True,
                                 errors="replace")
            try:
                _, err = p.communicate(timeout=self.args.run_timeout)
            except subprocess.TimeoutExpired:
                return self.abandon(p)
            p.stderr_tail = " ".join(err.strip().splitlines()[-1:])
            with open(out) as f:
                data = json.load(f)
        except (OSError, ValueError):
            return "exit %s, no results: %s" % (
                p.returncode if p else "-",
                getattr(p, "stderr_tail", "") if p else "")
        finally:
            os.unlink(out)
            self.in_flight(out, None)
        if not data.get("complete"):
            return "exit %d, results incomplete" % p.returncode
        self.slowness = self.slowness or data["host"]["slowness"]
        return {r["id"]: (r["verdict"]["reference"], r["ok"])
                for r in data["results"]}

    def abandon(self, p):
        """A run that did not come back: killed, and if SIGKILL does not
        end it either (blocked in the kernel), left behind, as Hung."""
        p.kill()
        try:
            p.communicate(timeout=10)
            return Hung("the run took more than %d s" % self.args.run_timeout)
        except subprocess.TimeoutExpired:
            try:
                with open("/proc/%d/wchan" % p.pid) as f:
                    where = f.read().strip() or "unknown"
            except OSError:
                where = "unknown"
            return Hung("the run took more than %d s, and SIGKILL did not "
                        "end it (process %d, in the kernel at %s)" % (
                            self.args.run_timeout, p.pid, where))

    def each(self, jobs, work, free):
        """work(job) for every job: those free(job) says touch no device
        LANES at a time, the others one after the other (their rows share
        the devices, and time what they wait)."""
        loose = [j for j in jobs if free(j)]
        if loose and not self.slowness:
            work(loose.pop(0))	# measures the slowness, once
        with concurrent.futures.ThreadPoolExecutor(LANES) as pool:
            list(pool.map(work, loose))
        for j in jobs:
            if not free(j):
                work(j)


class Hung(str):
    """Why a run never came back (Runner.abandon)."""


def hung(got):
    """Did the run, or one of its rows, hang?"""
    return isinstance(got, Hung) or not isinstance(got, str) and any(
        v == "HANG" for v, _ in got.values())


def flips(control, got, ids):
    if isinstance(got, str):
        return None
    return [i for i in ids if got.get(i) != control[i]]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", required=True,
                    help="the srcmut build directory (manifest.json)")
    ap.add_argument("--json", help="write the results here")
    ap.add_argument("--calls", default="*",
                    help="globs of calls to judge, comma-separated")
    ap.add_argument("--sample", action="store_true",
                    help="only the calls CI samples (SAMPLE_CALLS)")
    ap.add_argument("--device", help="the rows' device (rdmaconf run "
                    "--device): siw0 judges siw's mutants")
    ap.add_argument("--mutants", default="*",
                    help="globs of mutant ids to judge, comma-separated; "
                    "one after '!' leaves out what it matches")
    ap.add_argument("--watchdog-ms", type=int, default=5000)
    ap.add_argument("--run-timeout", type=int, default=600, metavar="S",
                    help="a run of rows that takes longer hung")
    ap.add_argument("--progress", type=int, default=0, metavar="N",
                    help="say how far it is every N mutants")
    ap.add_argument("--survivors", default=os.path.join(
        HERE, "srcmut-survivors.expect"))
    args = ap.parse_args()
    build = os.path.abspath(args.build)
    with open(os.path.join(build, "manifest.json")) as f:
        manifest = json.load(f)
    binary = os.path.join(build, manifest["binary"])
    listed, for_call = split_survivors(load_survivors(args.survivors))
    rows = json.loads(subprocess.run([binary, "list", "--json", "-"],
                                     capture_output=True, text=True,
                                     check=True).stdout)
    by_call = collections.defaultdict(list)
    needs = {}
    for r in rows:
        by_call[r["call"]].append(r["id"])
        needs[r["id"]] = r["needs"]
    globs = args.calls.split(",")
    selected = {c for c in by_call
                if any(fnmatch.fnmatch(c, g) for g in globs) and
                (not args.sample or c in SAMPLE_CALLS)}
    mutant_globs = args.mutants.split(",")
    take = [g for g in mutant_globs if not g.startswith("!")] or ["*"]
    leave = [g[1:] for g in mutant_globs if g.startswith("!")]
    provider = provider_of_device(args.device)
    # the mutants --mutants selects; those that did not compile
    # (stillborn) are counted, not run
    chosen = [m for m in manifest["mutants"]
              if any(fnmatch.fnmatch(m["id"], g) for g in take) and
              not any(fnmatch.fnmatch(m["id"], g) for g in leave)]
    mutants = [m for m in chosen if "stillborn" not in m]
    stillborn = [m for m in chosen if "stillborn" in m]
    ids = {m["id"] for m in manifest["mutants"]}
    outside = collections.Counter()
    elsewhere = collections.Counter()
    judged = []
    for m in mutants:
        own = [c for c in m["owners"] if c in by_call]
        theirs = provider_of_file(m["id"])
        if theirs and theirs != provider:
            elsewhere[theirs] += 1
            continue
        if not own:
            outside[(m["functions"] or [m["function"]])[0]] += 1
        m["judges"] = [c for c in own if c in selected]
        if m["judges"]:
            judged.append(m)
    calls = sorted({c for m in judged for c in m["judges"]})

    start = time.monotonic()
    run = Runner(args, build)
    report = {"complete": False, "calls": {}, "operators": {},
              "mutants": [], "errors": []}
    status = 0
    control, cover = {}, {}
    broken = set()
    row_call = {i: c for c, l in by_call.items() for i in l}

    def free(rids):
        return all(not needs[i] for i in rids)

    def control_run(rid):
        fd, path = tempfile.mkstemp(dir=run.tmp)
        os.ftruncate(fd, manifest["slots"])
        os.close(fd)
        got = run.rows(binary, [rid], cover=path)
        with open(path, "rb") as f:
            cover[rid] = f.read()
        os.unlink(path)
        if isinstance(got, str) or not got.get(rid, (0, 0))[1]:
            report["errors"].append("%s: control run of %s not ok: %s"
                                    % (row_call[rid], rid, got))
            broken.add(row_call[rid])
            return
        control.update(got)
    run.each([i for c in calls for i in by_call[c]], control_run,
             lambda rid: free([rid]))
    for e in report["errors"]:
        print(e)
    if broken:
        status = 3
    control_seconds = time.monotonic() - start

    def reached(m, rid):
        c = cover[rid]
        if m["slot"] is not None:
            return bool(c[m["slot"]])
        # a table's constant: when a function that reads it ran
        return any(c[manifest["functions"][k]["slot"]]
                   for k in m["functions"])

    def attempt(m, rids):
        exe = os.path.join(build, m["binary"]) if m["build"] == "alt" \
            else binary
        got = run.rows(exe, rids, mutant=None if m["build"] == "alt"
                       else m["n"])
        return got, flips(control, got, rids)

    results = {}
    for m in judged:
        res = {"reached": [], "rows": [], "by": [], "error": None}
        results[m["n"]] = res
        if any(c in broken for c in m["judges"]):
            res["error"] = "a control run of %s is not ok" % ", ".join(
                c for c in m["judges"] if c in broken)
            continue
        res["rows"] = [i for c in m["judges"] for i in by_call[c]
                       if reached(m, i)]
        res["reached"] = sorted({row_call[i] for i in res["rows"]})
    done = []

    # A mutant that hangs a row may have wedged the kernel's device (one
    # of the reference's data path left Linux 6.1's rxe stuck): its rows'
    # controls run again, and when they no longer pass, the mutant is a
    # "hang" (a kernel finding) and the device mutants after it are not
    # run, since no verdict of theirs would mean anything.
    wedged = []

    def device_still_works(rids):
        """True, or the rows whose controls no longer pass (their new
        verdicts), or the run's error"""
        got = run.rows(binary, rids)
        if isinstance(got, str):
            return got
        changed = ["%s %s" % (i, got.get(i, ("missing",))[0])
                   for i in rids if got.get(i) != control[i]]
        return ", ".join(changed) if changed else True

    def mutant_run(m):
        res = results[m["n"]]
        device = not free(res["rows"])
        if device and wedged:
            res["error"] = "not run: the device is wedged since mutant " \
                "%s" % wedged[0]
            return
        t = time.monotonic()
        got, f = attempt(m, res["rows"])
        res["seconds"] = round(time.monotonic() - t, 2)
        still = device and hung(got) and device_still_works(res["rows"])
        if still is not True and still:
            wedged.append(m["id"])
            res["hang"] = (str(got) if isinstance(got, str) else
                           "rows %s hung" % " ".join(
                               i for i, (v, _) in got.items()
                               if v == "HANG")) + \
                "; after it, without the mutant: " + still
            res["by"] = f or res["rows"]
        elif f is None:
            res["error"] = got
        else:
            res["by"] = f
        done.append(m["n"])
        if args.progress and len(done) % args.progress == 0:
            print("srcmut: %d of %d runs, %.0f s" % (
                len(done), len(todo), time.monotonic() - start), flush=True)
    todo = [m for m in judged if results[m["n"]]["rows"]]
    run.each(todo, mutant_run, lambda m: free(results[m["n"]]["rows"]))
    # rows that change by themselves: a kill by them alone is tried again
    unstable = set()

    def again_run(call):
        if wedged and not free(by_call[call]):
            return
        got = run.rows(binary, by_call[call])
        f = flips(control, got, by_call[call])
        unstable.update(f if f is not None else by_call[call])
    run.each([c for c in calls if c not in broken], again_run,
             lambda c: free(by_call[c]))
    for m in judged:
        res = results[m["n"]]
        if res["by"] and set(res["by"]) <= unstable and \
                not res.get("hang"):
            _, again = attempt(m, res["rows"])
            if not again:
                res["error"] = "killed once by %s only, which change by " \
                    "themselves, and not again" % ", ".join(res["by"])
                res["by"] = []

    per_call = {c: collections.Counter() for c in calls}
    gaps = []
    per_op = collections.defaultdict(collections.Counter)
    survivors, stale = [], []
    for m in judged:
        res = results[m["n"]]
        killers = {row_call[i] for i in res["by"]}
        for c in m["judges"]:
            per_call[c]["mutants"] += 1
            if res["error"]:
                per_call[c]["errors"] += 1
            elif c in killers:
                per_call[c]["killed"] += 1
                if (m["id"], c) in for_call:
                    stale.append("%s@%s is listed, but the call's rows "
                                 "kill it (%s)" % (m["id"], c, ", ".join(
                                     i for i in res["by"]
                                     if row_call[i] == c)))
            else:
                per_call[c]["survived" if c in res["reached"]
                            else "not reached"] += 1
                # checked by hand to be equivalent or unobservable: out
                # of the call's score, which counts the others (the
                # issue's "non-equivalent mutants of every call"); for
                # every call (the mutant survives all rows), or for this
                # call alone (another call's rows kill it)
                if m["id"] in listed or (m["id"], c) in for_call:
                    per_call[c]["listed"] += 1
                elif res["by"]:
                    gaps.append({"id": m["id"], "call": c})
        op = per_op[m["operator"]]
        op["mutants"] += 1
        if res["error"]:
            state = "error"
            report["errors"].append("%s: %s" % (m["id"], res["error"]))
        elif res.get("hang"):
            state = "hang"
        elif res["by"]:
            state = "killed"
        elif res["reached"]:
            state = "survived"
        else:
            state = "not reached"
        op[state] += 1
        entry = {"n": m["n"], "id": m["id"], "state": state,
                 "calls": m["judges"], "reached": res["reached"],
                 "by": res["by"], "rows": len(res["rows"]),
                 "seconds": res.get("seconds"),
                 "file": m["file"], "line": m["line"],
                 "original": m["original"], "mutated": m["mutated"],
                 "source": m["source"]}
        if state == "hang":
            entry["hang"] = res["hang"]
            report["errors"].append(
                "%s wedged the device (%s): the device mutants after it "
                "were not run; a kernel finding to reproduce and report" % (
                    m["id"], res["hang"]))
        if state in ("survived", "not reached"):
            entry["reason"] = survivor_reason(m, listed, for_call)
            survivors.append(entry)
        elif state == "killed" and m["id"] in listed:
            stale.append("%s is killed (by %s), but the survivors file "
                         "lists it" % (m["id"], res["by"][0]))
        report["mutants"].append(entry)
    stale += ["%s is listed, but no such mutant exists" % i
              for i in listed if i not in ids]
    stale += ["%s@%s is listed, but %s" % (i, c, why)
              for (i, c), why in per_call_stale(for_call, listed,
                                                manifest["mutants"])]

    print("source mutants of the reference, per call (rows on the "
          "reference only):")
    print("(score: killed by the call's own rows, of its mutants not "
          "listed; - when every one is listed)")
    print("%-28s %5s %7s %6s %8s %11s %6s %6s" % (
        "call", "rows", "mutants", "killed", "survived", "not reached",
        "listed", "score"))
    for c in calls:
        n = per_call[c]
        # every mutant of the call listed: nothing left to score (not 0 %)
        scored = n["mutants"] - n["listed"]
        score = 100.0 * n["killed"] / scored if scored else None
        print("%-28s %5d %7d %6d %8d %11d %6d %6s%s" % (
            c, len(by_call[c]), n["mutants"], n["killed"], n["survived"],
            n["not reached"], n["listed"],
            "%.0f%%" % score if score is not None else "-",
            "  (%d errors)" % n["errors"] if n["errors"] else ""))
        report["calls"][c] = dict(n, rows=len(by_call[c]),
                                  score=round(score, 1)
                                  if score is not None else None)
    print("per operator (each mutant once):")
    print("%-14s %7s %6s %8s %11s" % ("operator", "mutants", "killed",
                                      "survived", "not reached"))
    for op in sorted(per_op):
        n = per_op[op]
        print("%-14s %7d %6d %8d %11d" % (op, n["mutants"], n["killed"],
                                           n["survived"], n["not reached"]))
        report["operators"][op] = dict(n)
    unlisted = [s for s in survivors if not s["reason"]]
    # the survivors a point at a time: its variants (* listed) and line
    points = collections.OrderedDict()
    for s in survivors:
        points.setdefault(s["id"].rsplit(":", 1)[0], []).append(s)
    for point, ss in points.items():
        print("  %s %s [%s]\n      %s:%d  %s" % (
            "SURVIVOR" if any(s["state"] == "survived" for s in ss)
            else "NOT REACHED", point, " ".join(
                s["id"].rsplit(":", 1)[1] + ("*" if s["reason"] else "")
                for s in ss), ss[0]["file"], ss[0]["line"],
            ss[0]["source"][:70]))
        for s in ss:
            if s["reason"]:
                print("      * %s" % s["reason"])
                break
    if outside:
        print("not judged, reached by no call that has rows: %s" % ", ".join(
            "%s %d" % kv for kv in sorted(outside.items())))
    for theirs, n in sorted(elsewhere.items()):
        print("not judged here: %d mutants of %s's driver part, judged on "
              "its device (--device)" % (n, theirs))
    why = collections.Counter(u["reason"] for u in manifest["unbuilt"])
    for reason, n in sorted(why.items()):
        print("unbuilt: %d constants, %s" % (n, reason))
    for m in stillborn:
        print("stillborn: %s: %s" % (m["id"], m["stillborn"]))
    for g in gaps:
        print("  GAP %s: killed by other calls' rows, not by %s's "
              "(a row of it, or a reason as %s@%s)" % (
                  g["id"], g["call"], g["id"], g["call"]))
    for s in stale:
        print("  STALE " + s)
    for e in report["errors"]:
        print("  ERROR " + e)
    if unlisted or stale or report["errors"]:
        status = max(status, 1)
    total = len(judged)
    killed = sum(1 for m in report["mutants"] if m["state"] == "killed")
    seconds = time.monotonic() - start
    print("srcmut: %d mutants of %d calls: %d killed, %d survived (%d of "
          "them listed), %d errors; %d not judged (their calls have no "
          "rows), %d stillborn, %d unbuilt, %d outside --mutants; %d "
          "runs, %.0f s (controls %.0f s)" % (
              total, len(calls), killed, len(survivors),
              len(survivors) - len(unlisted), len(report["errors"]),
              sum(outside.values()), len(stillborn),
              len(manifest["unbuilt"]),
              len(manifest["mutants"]) - len(chosen), run.runs, seconds,
              control_seconds))
    report.update(complete=True, total=total, killed=killed,
                  survivors=survivors, stale=stale, gaps=gaps,
                  unlisted=[s["id"] for s in unlisted],
                  outside=dict(outside), unstable=sorted(unstable),
                  stillborn=[{"id": m["id"], "error": m["stillborn"]}
                             for m in stillborn],
                  unbuilt=manifest["unbuilt"], runs=run.runs,
                  seconds=round(seconds, 1),
                  control_seconds=round(control_seconds, 1),
                  slowness=run.slowness)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)
        # every run came back: nothing under way
        if os.path.exists(run.running_path):
            os.unlink(run.running_path)
    return status


if __name__ == "__main__":
    sys.exit(main())
