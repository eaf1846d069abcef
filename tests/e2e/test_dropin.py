"""The reference as a drop-in libibumad: programs nobody here wrote
(infiniband-diags, opensm) run on rdma-core's libibumad and on
build/ref/libibumad.so.3, and print the same, on the simulated InfiniBand
fabric and, for what RoCE has, on rxe."""
import json
import os
import re
import subprocess

import pytest

from conftest import RDMACONF, ROOT, host_has_device

BUILD = os.path.dirname(RDMACONF)
REF = os.path.join(BUILD, "ref")
DRIVER = os.path.join(ROOT, "tests", "e2e", "dropin_clients.py")
IBSIM_RUN = os.path.join(ROOT, "ci", "ibsim-run")

# the clients of the issue, with the LIDs of ci/ibsim/net: the switch is
# LID 1, Hca1 2, Hca2 (where the clients run) 3, Hca3 4
FABRIC_CLIENTS = ["ibstat", "ibaddr", "sminfo", "smpquery nodeinfo 4",
                  "smpquery portinfo 4", "saquery -s", "saquery 4",
                  "perfquery", "ibnetdiscover", "ibroute 1"]

# What legitimately varies between two runs, whatever the library.
VARIES = [(re.compile(r"generated on .*"), "generated on <time>"),
          (re.compile(r"activity count \d+"), "activity count <n>")]

# Differences that are explained, each with its reason: none.  A drop-in
# gives the clients the same output, and no line is ignored.
EXPLAINED = {}


def normalize(client, text, reference):
    for pattern, repl in VARIES:
        text = pattern.sub(repl, text)
    if reference:
        for ref_text, sys_text, _why in EXPLAINED.get(client.split()[0], []):
            text = text.replace(ref_text, sys_text)
    return text


def compare(results):
    problems = []
    for client, r in results.items():
        sysr, ref = r["system"], r["reference"]
        if ref["rc"] == "hang" or (isinstance(ref["rc"], int) and
                                   ref["rc"] < 0):
            problems.append("%s on the reference: %s\n%s%s" % (
                client, "hung" if ref["rc"] == "hang" else
                "killed by signal %d" % -ref["rc"], ref["out"][-800:],
                ref["err"][-800:]))
            continue
        if sysr["rc"] != ref["rc"]:
            problems.append("%s: exit %s on libibumad, %s on the reference"
                            "\n%s" % (client, sysr["rc"], ref["rc"],
                                      ref["err"][-800:]))
        a = normalize(client, sysr["out"], False)
        b = normalize(client, ref["out"], True)
        if a != b:
            problems.append("%s prints differently:\n--- libibumad\n%s\n"
                            "--- reference\n%s" % (client, a[-1200:],
                                                   b[-1200:]))
    return problems


def run_clients(tmp_path, clients, opensm_on_reference=False):
    out = tmp_path / "clients.json"
    cmd = ["/usr/bin/python3", DRIVER, REF, str(out)] + clients
    env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
    env["RDMACONF_BUILD"] = BUILD
    cmd = [IBSIM_RUN, "--"] + cmd
    if opensm_on_reference:
        env["RDMACONF_IBSIM_OPENSM_LIBS"] = REF
    p = subprocess.run(cmd, capture_output=True, text=True, env=env,
                       cwd=str(tmp_path), timeout=600)
    assert p.returncode == 0, p.stderr[-2000:]
    return json.loads(out.read_text())


def test_the_drop_in_exports_libibumads_abi():
    lib = os.path.join(REF, "libibumad.so.3")
    dyn = subprocess.run(["objdump", "-T", "-p", lib], capture_output=True,
                         text=True, check=True).stdout
    assert "SONAME               libibumad.so.3" in dyn
    system = subprocess.run(["objdump", "-T",
                             "/usr/lib/x86_64-linux-gnu/libibumad.so.3"],
                            capture_output=True, text=True,
                            check=True).stdout

    def exports(text):
        return {(l.split()[-2], l.split()[-1]) for l in text.splitlines()
                if " DF .text" in l}
    missing = exports(system) - exports(dyn)
    assert not missing, "rdma-core exports, the reference does not: %s" % \
        sorted(missing)
    assert not [l for l in dyn.splitlines() if " ref_" in l or "sysfs" in l]


@pytest.mark.ibsim
def test_clients_print_the_same_on_both_libraries(tmp_path):
    problems = compare(run_clients(tmp_path, FABRIC_CLIENTS))
    assert not problems, "\n\n".join(problems)


@pytest.mark.ibsim
def test_opensm_on_the_reference_brings_the_subnet_up(tmp_path):
    """ci/ibsim-run waits for SUBNET UP from an opensm on the reference;
    the clients then see the same fabric."""
    problems = compare(run_clients(tmp_path, ["ibnetdiscover", "sminfo",
                                              "saquery -s"],
                                   opensm_on_reference=True))
    assert not problems, "\n\n".join(problems)


RXE_CLIENTS = ["ibstat", "ibstat -p", "ibstat -l"]
# in the session's one boot of the rxe VM (conftest.vm_session)
VM_STEPS = {"dropin-rxe": "RDMACONF_BUILD=%s /usr/bin/python3 %s %s "
            "clients.json %s" % (BUILD, DRIVER, REF,
                                 " ".join("'%s'" % c for c in RXE_CLIENTS))}


@pytest.mark.vm
def test_clients_on_rxe(vm_session):
    """On RoCE there is no SMI and no SM: what the clients can do without
    them (ibstat) prints the same on both."""
    if host_has_device():
        pytest.skip("runs in the rxe VM; this host has its own device")
    p = vm_session["dropin-rxe"]
    assert p.rc == 0, p.err[-2000:]
    with open(os.path.join(p.dir, "clients.json")) as f:
        problems = compare(json.load(f))
    assert not problems, "\n\n".join(problems)
