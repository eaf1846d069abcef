"""The source mutants of the reference (tests/mutants/srcmut).

Quick: the generator finds every point of its fixture (each operator,
each kind of point, one line at a time) and no other; every mutant of the
fixture, compiled as schemata or built apart, changes what the fixture
prints, and without a mutant it prints what the original prints; a
plain token scan of reference/ finds no operator the syntax walk passed
over without a reason; ids survive unrelated edits; a static helper
belongs to the calls that reach it.  (The CI sample of the source
mutants in the rxe VM is test_mutation.py's: a module's VM_STEPS run
in the quick tier's VM session when any of its tests is selected.)"""
import collections
import os
import pathlib
import re
import shutil
import subprocess
import sys

import pytest

from conftest import ROOT

SRCMUT = os.path.join(ROOT, "tests", "mutants", "srcmut")
sys.path.insert(0, SRCMUT)
import srcmut  # noqa: E402

FIXTURE = os.path.join(SRCMUT, "fixture.c")
CC = os.environ.get("CC", "cc")
# the Makefile's warnings: the fixture is code of the project
WARNINGS = ["-Wall", "-Wextra", "-Wno-sign-compare", "-Wno-unused-parameter",
            "-Wmissing-prototypes", "-Wshadow", "-Wstrict-prototypes",
            "-Werror"]


def annotated(path):
    """line -> Counter of the operators its "srcmut:" comment names (a
    comment alone on its line: the next line's)."""
    want = {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            m = re.search(r"srcmut: ([a-z0-9* -]+?) \*/", line)
            if not m:
                continue
            c = collections.Counter()
            for op in m.group(1).split():
                name, _, times = op.partition("*")
                c[name] += int(times or 1)
            want[n + 1 if line.lstrip().startswith("/*") else n] = c
    return want


def found(u):
    got = collections.defaultdict(collections.Counter)
    for p in u.points:
        if p.op != "probe":
            got[u.line_of(p.a)][p.op] += 1
    return dict(got)


def test_fixture_every_point_is_found_and_no_other():
    u = srcmut.load([FIXTURE])[0]
    want = annotated(FIXTURE)
    assert found(u) == want
    assert {op for c in want.values() for op in c} == set(srcmut.OPERATORS)
    assert srcmut.cross_check(u) == []
    kinds = {(p.op, p.build) for p in u.points}
    assert ("constant", "alt") in kinds and ("constant", "table") in kinds


def run(exe, env=None):
    try:
        p = subprocess.run([exe], capture_output=True, text=True, timeout=1,
                           env=dict(os.environ, **(env or {})))
    except subprocess.TimeoutExpired:
        return "(hangs)"
    return "%s(exit %d)" % (p.stdout, p.returncode)


def test_fixture_every_mutant_changes_what_it_prints(tmp_path):
    out = tmp_path / "srcmut"
    units = srcmut.load([FIXTURE])
    manifest = srcmut.generate(units, str(out), calls=[])
    shutil.copyfile(os.path.join(SRCMUT, "srcmut_rt.h"),
                    out / "src" / "srcmut_rt.h")
    main = os.path.join(SRCMUT, "fixture_main.c")
    base = ["-std=gnu11", "-O0", "-I" + SRCMUT]
    subprocess.run([CC] + base + WARNINGS + ["-o", str(tmp_path / "orig"),
                                            FIXTURE, main], check=True)
    rt = str(tmp_path / "rt.o")
    subprocess.run([CC] + base + ["-w", "-I" + str(out / "src"),
                                  "-DRC_SRCMUT_SLOTS=%d" % manifest["slots"],
                                  "-c", "-o", rt,
                                  os.path.join(SRCMUT, "srcmut_rt.c")],
                   check=True)

    def build(src, exe):
        p = subprocess.run([CC] + base + ["-w", "-I" + str(out / "src"),
                                          "-o", exe, src, main, rt],
                           capture_output=True, text=True)
        return p.returncode == 0

    assert build(str(out / "src" / "fixture.c"), str(tmp_path / "schema"))
    want = run(str(tmp_path / "orig"))
    assert want.endswith("(exit 0)")
    assert run(str(tmp_path / "schema")) == want
    cover = tmp_path / "cover"
    cover.write_bytes(bytes(manifest["slots"]))
    assert run(str(tmp_path / "schema"),
               {"RDMACONF_SRCMUT_COVER": str(cover)}) == want
    hit = cover.read_bytes()
    funcs = manifest["functions"]
    assert all(hit[f["slot"]] for f in funcs.values())
    unreached = [m["id"] for m in manifest["mutants"]
                 if m["slot"] is not None and not hit[m["slot"]]]
    assert not unreached
    same, stillborn = [], []
    for m in manifest["mutants"]:
        if m["build"] == "alt":
            exe = str(tmp_path / ("alt-%d" % m["n"]))
            if not build(str(out / "alt" / str(m["n"]) / "fixture.c"), exe):
                stillborn.append(m["id"])
                continue
            got = run(exe)
        else:
            got = run(str(tmp_path / "schema"),
                      {"RDMACONF_SRCMUT": str(m["n"])})
        if got == want:
            same.append((m["id"], m["mutated"]))
    assert not same and not stillborn, (same, stillborn)
    assert len(manifest["mutants"]) > 150


@pytest.fixture(scope="module")
def reference():
    return srcmut.load(srcmut.reference_sources())


@pytest.mark.slow
def test_reference_a_token_scan_finds_nothing_the_walk_passed_over(reference):
    missed = ["%s:%d: %s (%s)" % ((u.rel,) + m) for u in reference
              for m in srcmut.cross_check(u)]
    assert not missed
    assert sum(len(u.points) for u in reference) > 1000


def test_ids_are_unique_and_survive_unrelated_edits(tmp_path):
    text = pathlib.Path(FIXTURE).read_text()
    edited = text.replace("int fx_lt(int x, int y)\n{\n",
                          "int fx_new(int x);\nint fx_new(int x)\n{\n"
                          "\treturn x > 4 ? x - 1 : x + 1;\n}\n\n"
                          "int fx_lt(int x, int y)\n{\n", 1)
    edited = edited.replace("\tlong r = x + y;", "\tlong q = y - x + 2;\n"
                            "\tlong r = x + y;", 1)
    assert edited.count("fx_new") == 2 and "long q" in edited
    for name in ("fixture.c", "fixture.h"):
        shutil.copyfile(os.path.join(SRCMUT, name), tmp_path / name)
    (tmp_path / "fixture.c").write_text(edited)
    ids = {}
    for key, path in (("old", FIXTURE), ("new", str(tmp_path / "fixture.c"))):
        us = srcmut.load([path])
        _, mutants = srcmut.number(us)
        ids[key] = ["%s:%s" % (p.stable, name) for _, p, name, _ in mutants]
        assert len(ids[key]) == len(set(ids[key]))
    assert set(ids["old"]) <= set(ids["new"])
    assert len(ids["new"]) > len(ids["old"])


@pytest.mark.slow
def test_a_helper_belongs_to_every_call_that_reaches_it(reference):
    owners = srcmut.owners_of(reference, srcmut.ops_calls())
    assert {"umad_send", "umad_recv", "umad_close_port", "umad_poll"} <= \
        owners["umad/ports.c:port_of"]
    assert owners["umad/mad_addr.c:set_grh"] == {"umad_set_grh",
                                                 "umad_set_grh_net"}
    # through a function pointer (qsort's comparison)
    assert "umad_get_cas_names" in owners["umad/device.c:cmp_names"]
    assert owners["umad/device.c:cmp_nodes"] == {"umad_sort_ca_device_list"}
    # through a provider table's field: prov->post_send_one(...) reaches
    # what ".post_send_one = ..." put there, and only the data path does
    assert {"ibv_post_send", "rdma_post_send"} <= \
        owners["ref_rxe_post_send_one"]
    assert "ibv_post_recv" in owners["ref_rxe_post_recv_one"]
    assert "ibv_poll_cq" in owners["ref_rxe_poll_one"]
    assert "ibv_poll_cq" not in owners["ref_rxe_post_send_one"]
    strings = [u for u in reference if u.rel == "umad/strings.c"][0]
    tables = {p.table for p in strings.points if p.build == "table"}
    assert {"classes", "sa_codes"} <= tables
    keys = {k for p in strings.points if p.build == "table" and
            p.table == "classes" for k in srcmut.point_owner_keys(p)}
    assert keys == {"ref_umad_class_str"}


def test_a_survivor_listed_for_one_call_counts_for_that_call_alone():
    sys.path.insert(0, os.path.join(ROOT, "tests", "mutants"))
    import run_srcmut
    listed, for_call = run_srcmut.split_survivors({
        "f.c:g:constant:1.1:+1": "every call",
        "f.c:g:constant:1.1:-1@ibv_wr_send": "send alone",
        "f.c:gone:return:2.1:0@ibv_wr_send": "no such mutant",
        "f.c:g:constant:1.1:+1@ibv_wr_send": "listed twice",
        "f.c:g:constant:1.1:-1@ibv_poll_cq": "a call that never reaches it",
    })
    assert listed == {"f.c:g:constant:1.1:+1": "every call"}
    assert for_call[("f.c:g:constant:1.1:-1", "ibv_wr_send")] == \
        "send alone"
    mutants = [{"id": "f.c:g:constant:1.1:+1",
                "owners": ["ibv_wr_send", "ibv_wr_rdma_write"]},
               {"id": "f.c:g:constant:1.1:-1",
                "owners": ["ibv_wr_send", "ibv_wr_rdma_write"]}]
    stale = dict(run_srcmut.per_call_stale(for_call, listed, mutants))
    assert set(stale) == {("f.c:gone:return:2.1:0", "ibv_wr_send"),
                          ("f.c:g:constant:1.1:+1", "ibv_wr_send"),
                          ("f.c:g:constant:1.1:-1", "ibv_poll_cq")}


def test_a_survivor_listed_for_each_call_judging_it_is_listed():
    """A slice that leaves out the call whose rows kill a mutant: the
    mutant is listed when every call judging it here has its entry."""
    sys.path.insert(0, os.path.join(ROOT, "tests", "mutants"))
    import run_srcmut
    i = "f.c:g:constant:1.1:-1"
    listed = {"f.c:g:constant:1.1:+1": "every call"}
    for_call = {(i, "ibv_wr_send"): "send alone",
                (i, "ibv_wr_rdma_write"): "write alone"}

    def reason(mutant, judges):
        return run_srcmut.survivor_reason({"id": mutant, "judges": judges},
                                          listed, for_call)
    assert reason("f.c:g:constant:1.1:+1", ["ibv_poll_cq"]) == "every call"
    assert reason(i, ["ibv_wr_send"]) == "send alone"
    assert reason(i, ["ibv_wr_send", "ibv_wr_rdma_write"]) == \
        "send alone; write alone"
    # a judging call without an entry: a finding
    assert reason(i, ["ibv_wr_send", "ibv_wr_send_imm"]) is None
    assert reason("f.c:g:constant:1.1:0", ["ibv_wr_send"]) is None


def test_an_object_is_rebuilt_when_a_header_it_includes_changes(tmp_path):
    """build.py keeps an object built from the same source and flags; a
    reference header changed since (a struct's layout) makes every object
    stale, so its digest is part of the key."""
    import build
    src, hdr, obj = tmp_path / "a.c", tmp_path / "a.h", tmp_path / "a.o"
    hdr.write_text("struct s { int a; };\n")
    src.write_text('#include "a.h"\nint size(void) { return sizeof(struct s); }\n')
    flags = ["-O0", "-I" + str(tmp_path)]

    def compiled(salt):
        before = obj.stat().st_mtime_ns if obj.exists() else None
        assert build.compile_one(CC, flags, str(src), str(obj),
                                 salt=salt) is None
        return obj.stat().st_mtime_ns != before

    assert compiled(build.headers_digest([str(hdr)]))
    assert not compiled(build.headers_digest([str(hdr)]))
    hdr.write_text("struct s { int a, b; };\n")
    assert compiled(build.headers_digest([str(hdr)]))


def test_a_run_whose_rows_print_any_bytes_keeps_its_results(tmp_path):
    """The rows' own output reaches stderr, and a mutant may write any
    bytes there (ucma_open returning 1 sent the kernel's commands to
    it): the run's results are read all the same."""
    sys.path.insert(0, os.path.join(ROOT, "tests", "mutants"))
    import argparse
    import run_srcmut
    fake = tmp_path / "rdmaconf"
    fake.write_text(
        "#!/usr/bin/python3\n"
        "import json, sys\n"
        "out = sys.argv[sys.argv.index('--json') + 1]\n"
        "sys.stderr.buffer.write(b'\\x00\\x18\\x80\\xff\\xfe not UTF-8\\n')\n"
        "json.dump({'complete': True, 'host': {'slowness': 1.0},\n"
        "           'results': [{'id': 'a/b/c', 'ok': False,\n"
        "                        'verdict': {'reference': 'CRASH'}}]},\n"
        "          open(out, 'w'))\n"
        "sys.exit(1)\n")
    fake.chmod(0o755)
    args = argparse.Namespace(watchdog_ms=1000, device=None,
                              run_timeout=60, json=None)
    got = run_srcmut.Runner(args, str(tmp_path)).rows(str(fake), ["a/b/c"],
                                                      mutant=7)
    assert got == {"a/b/c": ("CRASH", False)}, got
