"""The launchers' exit codes are one table (ci/exits): every script of
ci/ exits with its names, never a number of its own, no two names share
a code, and rdmaconf(1) lists every code of both tables (rdmaconf's own,
harness/vocab.h's, through `rdmaconf __vocab`)."""
import os
import re
import subprocess

from conftest import ROOT, vocab

CI = os.path.join(ROOT, "ci")


def table():
    codes = {}
    for line in open(os.path.join(CI, "exits")):
        m = re.match(r"^(EX_[A-Z]+)=(\d+)\s+# (.*)", line)
        if m:
            codes[m.group(1)] = (int(m.group(2)), m.group(3))
    return codes


def scripts():
    for name in sorted(os.listdir(CI)):
        path = os.path.join(CI, name)
        if os.path.isfile(path) and open(path, "rb").read(2) == b"#!":
            yield name, open(path).read()


def test_the_table_is_one_code_a_name():
    t = table()
    assert len(t) >= 10
    codes = [c for c, _ in t.values()]
    assert len(codes) == len(set(codes)), t
    # clear of rdmaconf's own codes
    own = {e["code"] for e in vocab()["exits"]}
    assert not own & set(codes)


def test_every_script_exits_through_the_table():
    stray = []
    for name, src in scripts():
        for m in re.finditer(r"\b(?:exit|die|one_line)\s+(\d{2,3})\b", src):
            if m.group(1) not in ("130",):
                stray.append("%s: %s" % (name, m.group(0)))
        for m in re.finditer(r"^\s*(EX_[A-Z]+)=(\d+)", src, re.M):
            stray.append("%s defines %s itself" % (name, m.group(1)))
    assert not stray, stray


def test_the_man_page_lists_every_code():
    man = subprocess.run(["groff", "-man", "-Tutf8", "-rLL=3000n",
                          os.path.join(ROOT, "man", "rdmaconf.1")],
                         capture_output=True, check=True).stdout.decode()
    man = re.sub(r".\x08", "", man)
    missing = [str(c) for c, _ in table().values()
               if not re.search(r"(?<!\d)%d(?!\d)" % c, man)]
    missing += [str(e["code"]) for e in vocab()["exits"]
                if not re.search(r"(?<!\d)%d(?!\d)" % e["code"], man)]
    assert not missing, "codes rdmaconf(1) does not give: %s" % missing
