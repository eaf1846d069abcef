"""The kernel and distribution matrix: the suite on another Debian suite's
root (trixie: rdma-core 56) with its kernel (6.12), another kernel under
the host's root, and one report across them with what changed."""
import json
import os
import subprocess

import pytest

from conftest import (RDMACONF, RXE_VM, host_has_device, as_md, suite_run,
                      why_not_ok)

pytestmark = [pytest.mark.vm, pytest.mark.slow, pytest.mark.skipif(
    host_has_device(), reason="the matrix boots VMs; this host has a device")]

# the host's own suite, beside trixie in the report
VM_STEPS = {"suite": suite_run()}


@pytest.fixture(scope="module")
def trixie(tmp_path_factory):
    """Every case on trixie's root, booting trixie's kernel, two devices;
    run from outside the tree (its own directory), whose build the guest,
    in another suite's root, then finds only through its share."""
    d = tmp_path_factory.mktemp("trixie")
    out = d / "results.json"
    env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
    p = subprocess.run([RDMACONF, "run", "--vm", "--two", "--dist", "trixie",
                        "--json", str(out)], capture_output=True, text=True,
                       env=env, timeout=1200, cwd=str(d))
    return p, out


def test_trixie_runs_every_case_with_its_rdma_core(trixie):
    p, out = trixie
    assert p.returncode == 0, why_not_ok(p)
    data = json.loads(out.read_text())
    host = data["host"]
    assert host["rdma_core"].startswith("56."), host
    assert host["kernel"].startswith("6.12."), host
    assert "trixie" in host["os"], host
    assert data["summary"]["cases"] >= 268
    assert data["summary"]["not_ok"] == 0


def test_kernel_option_boots_another_kernel_under_the_host_root():
    p = subprocess.run([RXE_VM, "--kernel", "6.12", "--", "sh", "-c",
                        "uname -r; . /etc/os-release; echo $VERSION_CODENAME"],
                       capture_output=True, text=True, timeout=900)
    assert p.returncode == 0, p.stderr[-2000:]
    release, suite = p.stdout.split()[:2]
    assert release.startswith("6.12.") and suite == "bookworm", p.stdout


def test_matrix_report_says_what_changed(trixie, vm_session, tmp_path):
    """bookworm (6.1, rdma-core 44) then trixie (6.12, rdma-core 56): one
    report, a column each; the issm device the 6.12 kernel no longer makes
    for a RoCE port is the change."""
    _, out = trixie
    bookworm = os.path.join(vm_session["suite"].dir, "results.json")
    p = subprocess.run([RDMACONF, "report", bookworm, str(out), "-o",
                        str(tmp_path)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    md = (tmp_path / "summary.md").read_text()
    assert "## What changed" in md
    changed = md.split("## What changed")[1].split("\n## ")[0]
    assert "| %s | PASS -> UNSUPPORTED |" % as_md(
        "umad/get_issm_path/target-port") in changed, changed
    assert "rdma-core 56" in changed and "Debian GNU/Linux 13" in changed
    page = (tmp_path / "index.html").read_text()
    assert "<h2>What changed</h2>" in page


def one_line_cause(p, rc, text):
    assert p.returncode == rc, (p.returncode, p.stderr)
    causes = [l for l in p.stderr.splitlines() if l.strip()]
    assert len(causes) == 1 and text in causes[0], p.stderr


def test_kernels_that_cannot_be_had_or_used_are_named(tmp_path):
    one_line_cause(subprocess.run([RXE_VM, "--kernel", "9.9", "--", "true"],
                                  capture_output=True, text=True),
                   70, "no Debian kernel matches '9.9'")
    one_line_cause(subprocess.run([RXE_VM, "--dist", "nosuchsuite", "--",
                                   "true"], capture_output=True, text=True),
                   70, "serves no suite 'nosuchsuite'")
    # a kernel build tree whose modules lack rdma_rxe and 9p
    tree = tmp_path / "linux"
    (tree / "arch/x86/boot").mkdir(parents=True)
    (tree / "arch/x86/boot/bzImage").write_bytes(b"")
    mods = tree / "lib/modules/6.99.0"
    mods.mkdir(parents=True)
    (mods / "modules.dep").write_text("kernel/fs/overlayfs/overlay.ko:\n")
    (mods / "modules.builtin").write_text("")
    p = subprocess.run([RXE_VM, "--kernel", str(tree), "--", "true"],
                       capture_output=True, text=True,
                       env=dict(os.environ,
                                RDMACONF_CACHE=str(tmp_path / "cache")))
    one_line_cause(p, 70, "has no rdma_rxe")
    assert "9p" in p.stderr
