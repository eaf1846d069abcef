#!/usr/bin/env python3
"""Run libibumad clients twice, on rdma-core's libibumad and on the
reference's drop-in build, and write what each printed as JSON.

Run where the clients find a port: inside ci/ibsim-run (which names the
simulator's preload in RDMACONF_CASE_PRELOAD and a working directory for
its fake sysfs in RDMACONF_CASE_DIR) or in the rxe VM.
usage: dropin_clients.py REF_DIR OUT.json CLIENT [CLIENT...]
where CLIENT is a command line, e.g. "smpquery nodeinfo 3".
"""
import json
import os
import shlex
import subprocess
import sys

TIMEOUT = 20


def run(cmd, ref_dir):
    env = dict(os.environ)
    env.pop("LD_LIBRARY_PATH", None)
    if ref_dir:
        env["LD_LIBRARY_PATH"] = ref_dir
    if os.environ.get("RDMACONF_CASE_PRELOAD"):
        env["LD_PRELOAD"] = os.environ["RDMACONF_CASE_PRELOAD"]
    try:
        p = subprocess.run(shlex.split(cmd), capture_output=True, text=True,
                           env=env, timeout=TIMEOUT,
                           cwd=os.environ.get("RDMACONF_CASE_DIR"))
        return {"rc": p.returncode, "out": p.stdout, "err": p.stderr}
    except subprocess.TimeoutExpired as e:
        return {"rc": "hang", "out": e.stdout or "", "err": e.stderr or ""}


def main():
    ref_dir, out, clients = sys.argv[1], sys.argv[2], sys.argv[3:]
    result = {c: {"system": run(c, None), "reference": run(c, ref_dir)}
              for c in clients}
    with open(out, "w") as f:
        json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
