#!/usr/bin/env python3
"""Builds the source mutants of the reference (make srcmut).

One rdmaconf with every schema point in it (OUT/rdmaconf, the mutant
chosen by RDMACONF_SRCMUT), and one more per mutant no schema can hold (a
case label's constant: OUT/alt/rdmaconf-N, that object alone rebuilt).
The harness and the cases are the objects of the normal build, given on
the command line; only the reference's change.  A generated source is
compiled again only when it, the reference headers or the flags change.
The generated code is built without warnings (-w): a mutant is often
what a warning is for (an always-true comparison, a shift too wide).
A mutant whose object does not compile is listed in the manifest as
stillborn, with the compiler's first error, and is no mutant.
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import shlex
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import srcmut  # noqa: E402


def headers(root):
    out = []
    for d, _, files in os.walk(os.path.join(root, "reference")):
        out += [os.path.join(d, f) for f in sorted(files) if f.endswith(".h")]
    return sorted(out)


def headers_digest(paths):
    """What every source includes of the reference's own: a change to any
    of its headers (a struct's layout) is a change to every object."""
    h = hashlib.sha1()
    for path in paths:
        with open(path, "rb") as f:
            h.update(path.encode() + b"\0" + f.read())
    return h.hexdigest()


def compile_one(cc, flags, src, obj, extra=(), salt=""):
    """Compile @src unless @obj was built from the same text, headers
    (@salt) and flags; returns None or the compiler's first error."""
    with open(src, "rb") as f:
        key = hashlib.sha1(f.read() + " ".join(flags + list(extra))
                           .encode() + salt.encode()).hexdigest()
    stamp = obj + ".key"
    if os.path.exists(obj) and os.path.exists(stamp) and \
            open(stamp).read() == key:
        return None
    os.makedirs(os.path.dirname(obj), exist_ok=True)
    p = subprocess.run([cc] + flags + list(extra) + ["-c", "-o", obj, src],
                       capture_output=True, text=True)
    if p.returncode:
        if os.path.exists(obj):
            os.unlink(obj)
        errs = [l for l in p.stderr.splitlines() if "error" in l]
        return (errs or p.stderr.splitlines() or ["exit %d" % p.returncode])[0]
    with open(stamp, "w") as f:
        f.write(key)
    return None


def link(cc, flags, objs, out, ldlibs):
    os.makedirs(os.path.dirname(out), exist_ok=True)
    p = subprocess.run([cc] + flags + ["-o", out] + objs + ldlibs,
                       capture_output=True, text=True)
    if p.returncode:
        raise SystemExit("srcmut: linking %s: %s" % (out, p.stderr.strip()))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--cc", default="cc")
    ap.add_argument("--cflags", default="")
    ap.add_argument("--ldlibs", default="")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("objs", nargs="+", help="the harness's and cases' objects")
    args = ap.parse_args()
    out = os.path.abspath(args.out)
    root = srcmut.ROOT
    # the normal flags but what makes a mutant's warning an error, or
    # writes dependency files
    drop = ("-Werror", "-MMD", "-MP")
    flags = [f for f in shlex.split(args.cflags) if f not in drop] + ["-w"]
    ldlibs = shlex.split(args.ldlibs)

    units = srcmut.load(srcmut.reference_sources(root), root)
    manifest = srcmut.generate(units, out)
    src = os.path.join(out, "src")
    for h in headers(root):
        dst = os.path.join(src, os.path.relpath(h, os.path.join(root,
                                                                "reference")))
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copyfile(h, dst)
    shutil.copyfile(os.path.join(HERE, "srcmut_rt.h"),
                    os.path.join(src, "srcmut_rt.h"))
    inc = ["-I" + src]

    jobs = []
    objs = {}
    for rel in manifest["sources"]:
        o = os.path.join(out, "obj", rel[:-2] + ".o")
        objs[rel] = o
        jobs.append((os.path.join(src, rel), o, inc))
    rt = os.path.join(out, "obj", "srcmut_rt.o")
    jobs.append((os.path.join(HERE, "srcmut_rt.c"), rt,
                 inc + ["-DRC_SRCMUT_SLOTS=%d" % manifest["slots"]]))
    alts = [m for m in manifest["mutants"] if m["build"] == "alt"]
    for m in alts:
        d = os.path.join(out, "alt", str(m["n"]))
        jobs.append((os.path.join(d, m["file"]),
                     os.path.join(d, m["file"][:-2] + ".o"),
                     inc + ["-iquote", os.path.join(src, os.path.dirname(
                         m["file"]))]))
    salt = headers_digest(headers(root) + [os.path.join(HERE, "srcmut_rt.h")])
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        errors = list(pool.map(lambda j: compile_one(args.cc, flags, j[0],
                                                     j[1], j[2], salt), jobs))
    failed = {j[1]: e for j, e in zip(jobs, errors) if e}
    for j, e in zip(jobs[:len(objs) + 1], errors):
        if e:
            raise SystemExit("srcmut: the schemata do not compile: %s" % e)
    link(args.cc, flags, args.objs + list(objs.values()) + [rt],
         os.path.join(out, "rdmaconf"), ldlibs)

    def link_alt(m):
        d = os.path.join(out, "alt", str(m["n"]))
        o = os.path.join(d, m["file"][:-2] + ".o")
        if o in failed:
            m["stillborn"] = failed[o]
            return
        bin_ = os.path.join(out, "alt", "rdmaconf-%d" % m["n"])
        link(args.cc, flags, args.objs + [o if rel == m["file"] else x
                                          for rel, x in objs.items()] + [rt],
             bin_, ldlibs)
        m["binary"] = os.path.relpath(bin_, out)
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        list(pool.map(link_alt, alts))
    manifest["binary"] = "rdmaconf"
    srcmut.write(os.path.join(out, "manifest.json"),
                 json.dumps(manifest, indent=1) + "\n")
    stillborn = sum(1 for m in alts if "stillborn" in m)
    print("srcmut: %d mutants (%d in separate builds, %d of them do not "
          "compile), %d listed unbuilt" % (
              len(manifest["mutants"]), len(alts), stillborn,
              len(manifest["unbuilt"])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
