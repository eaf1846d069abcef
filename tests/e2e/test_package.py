"""rdmaconf as a Debian package: a fresh clone builds it (make deb) without
lintian errors; unpacked into a root of its own, with the clone deleted,
it runs from / and finds its profiles and launchers; autopkgtest passes
on it (RDMACONF_AUTOPKGTEST=1: it installs the package on this machine,
and removes it after)."""
import json
import os
import shutil
import subprocess

import pytest

from conftest import ROOT, host_has_device, why_not_ok


@pytest.fixture(scope="module")
def package(tmp_path_factory):
    """make deb in a fresh clone of the committed tree."""
    d = tmp_path_factory.mktemp("pkg")
    clone = d / "clone"
    subprocess.run(["git", "clone", "-q", ROOT, str(clone)], check=True)
    env = {k: v for k, v in os.environ.items()
           if k not in ("BUILD", "MAKEFLAGS", "MAKELEVEL", "MFLAGS")}
    p = subprocess.run(["make", "-s", "deb", "BUILD=build"], cwd=str(clone),
                       capture_output=True, text=True, timeout=1200,
                       env=env)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
    out = clone / "build" / "deb"
    debs = list(out.glob("rdmaconf_*_amd64.deb"))
    assert len(debs) == 1, list(out.iterdir())
    deb = d / debs[0].name
    shutil.copy(debs[0], deb)
    lintian = (out / "lintian.txt").read_text()
    head = subprocess.run(["git", "-C", str(clone), "rev-parse", "HEAD"],
                          capture_output=True, text=True).stdout.strip()
    shutil.rmtree(clone)
    return deb, lintian, head


@pytest.mark.package
@pytest.mark.slow
def test_a_fresh_clone_builds_a_lintian_clean_package(package):
    deb, lintian, _ = package
    assert not [l for l in lintian.splitlines() if l.startswith("E:")], \
        lintian
    info = subprocess.run(["dpkg-deb", "-f", str(deb), "Package", "Version",
                           "Depends", "Recommends"], capture_output=True,
                          text=True, check=True).stdout
    assert "Package: rdmaconf" in info and "libibumad3" in info
    assert "qemu-system-x86" in info
    files = subprocess.run(["dpkg-deb", "-c", str(deb)], capture_output=True,
                           text=True, check=True).stdout
    for f in ("./usr/bin/rdmaconf", "./usr/bin/rdmaconf-peer",
              "./usr/libexec/rdmaconf/rxe-vm",
              "./usr/libexec/rdmaconf/siw-module",
              "./usr/libexec/rdmaconf/gate-rdma-core",
              "./usr/share/rdmaconf/expect/rdma-core.expect",
              "./usr/share/rdmaconf/baselines/rxe-rdma-core-44.json",
              "./usr/share/rdmaconf/guest/stage2",
              "./usr/share/man/man1/rdmaconf.1.gz",
              "./usr/share/bash-completion/completions/rdmaconf"):
        assert f in files, f


@pytest.mark.vm
@pytest.mark.package
@pytest.mark.slow
def test_unpacked_package_runs_from_root_without_the_source(package,
                                                            tmp_path):
    deb, _, head = package
    root = tmp_path / "root"
    subprocess.run(["dpkg-deb", "-x", str(deb), str(root)], check=True)
    exe = str(root / "usr" / "bin" / "rdmaconf")
    v = subprocess.run([exe, "--version"], capture_output=True, text=True,
                       cwd="/")
    assert v.returncode == 0 and head[:12] in v.stdout, v.stdout
    out = tmp_path / "r.json"
    args = [exe, "run", "--filter", "umad/get_issm_path/*,verbs/create_ah/*",
            "--json", str(out)]
    if not host_has_device():
        args[2:2] = ["--vm"]
    env = {k: v for k, v in os.environ.items()
           if k not in ("LD_PRELOAD", "RDMACONF_EXPECT_DIR")}
    p = subprocess.run(args, capture_output=True, text=True, cwd="/",
                       env=env, timeout=600)
    assert p.returncode == 0, why_not_ok(p)
    data = json.loads(out.read_text())
    assert data["tool"]["revision"].startswith(head[:12])
    # the profiles came from the package (an XFAIL cites its file)
    wheres = {r["profile_entry"]["where"].rsplit(":", 1)[0]
              for r in data["results"] if r["profile_entry"]}
    assert data["host"]["profile_dir"].startswith(
        str(root / "usr/share/rdmaconf")), data["host"]
    # named relative to it: results carry no host's paths
    assert wheres and not [w for w in wheres if "/" in w], wheres
    assert data["device"] is not None

    # another suite's root has no installed rdmaconf: one line, exit 3,
    # before any VM starts
    d = subprocess.run([exe, "run", "--vm", "--dist", "trixie"],
                       capture_output=True, text=True, cwd="/", env=env,
                       timeout=60)
    assert d.returncode == 3 and "--dist boots trixie's own root" in \
        d.stderr and len(d.stderr.strip().splitlines()) == 1, d.stderr

    # the packaged completion asks the packaged binary for its words
    script = root / "usr/share/bash-completion/completions/rdmaconf"

    def complete(*words):
        cmd = ("source %s; COMP_WORDS=(%s); COMP_CWORD=%d; _rdmaconf; "
               "printf '%%s\\n' \"${COMPREPLY[@]}\"" % (
                   script, " ".join("'%s'" % w for w in words),
                   len(words) - 1))
        return subprocess.run(["bash", "-c", cmd], capture_output=True,
                              text=True, cwd="/").stdout.split()
    assert complete(exe, "r") == ["run", "report"]
    assert "--jobs" in complete(exe, "run", "--j")
    assert complete(exe, "run", "--filter", "umad/size/") == \
        ["umad/size/after-open-port", "umad/size/header-size"]


@pytest.mark.vm
@pytest.mark.package
@pytest.mark.slow
@pytest.mark.skipif(os.environ.get("RDMACONF_AUTOPKGTEST") != "1",
                    reason="installs the package on this machine: set "
                    "RDMACONF_AUTOPKGTEST=1 (.ci/run does)")
def test_autopkgtest_passes_on_the_package(package, tmp_path):
    deb, _, _ = package
    # autopkgtest refuses a host whose dpkg was interrupted (journal
    # entries in /var/lib/dpkg/updates): dpkg's own recovery first
    if os.listdir("/var/lib/dpkg/updates"):
        subprocess.run(["dpkg", "--configure", "-a"], capture_output=True,
                       env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"))
    if os.listdir("/var/lib/dpkg/updates"):
        pytest.skip("this host's dpkg has unfinished journal entries "
                    "(/var/lib/dpkg/updates) that dpkg --configure -a "
                    "did not take in")
    try:
        p = subprocess.run(["autopkgtest", str(deb), ROOT, "-o",
                            str(tmp_path / "out"), "--", "null"],
                           capture_output=True, text=True, timeout=1800)
    finally:
        subprocess.run(["dpkg", "-r", "rdmaconf"], capture_output=True)
    summary = (tmp_path / "out" / "summary").read_text() \
        if (tmp_path / "out" / "summary").exists() else ""
    assert p.returncode == 0, summary + why_not_ok(p)
    assert "conformance          PASS" in summary, summary
