"""soft-iWARP (siw) beside rxe: ci/siw-module builds siw.ko out of tree for
the kernel ci/rxe-vm boots, and ci/rxe-vm --siw brings it up in the guest
(siw0, and siw1 with --two, on a veth pair of their own)."""
import json
import os
import subprocess
import time

import pytest

from conftest import ROOT, RXE_VM, host_has_device, why_not_ok

SIW_MODULE = os.path.join(ROOT, "ci", "siw-module")

# the addresses of siwnet0 and siwnet1 (ci/guest/stage2)
SIW0, SIW1 = "198.51.100.1", "198.51.100.2"
SIW0_6, SIW1_6 = "2001:db8:1::1", "2001:db8:1::2"


def siw_module(*args, env=None, timeout=900):
    full = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
    full.update(env or {})
    return subprocess.run([SIW_MODULE, *args], capture_output=True,
                          text=True, env=full, timeout=timeout)


def rxe_vm(*args, env=None, timeout=900):
    full = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
    full.update(env or {})
    return subprocess.run([RXE_VM, *args], capture_output=True, text=True,
                          env=full, timeout=timeout)


def one_line_cause(p, rc, text, prog="siw-module"):
    """Exit @rc and exactly one line of cause, naming @text (notes and the
    guest console's tail aside)."""
    assert p.returncode == rc, (p.returncode, p.stdout, p.stderr)
    causes = [l for l in p.stderr.splitlines()
              if l.startswith(prog + ": ") and "guest console" not in l]
    assert len(causes) == 1 and text in causes[0], p.stderr


def modinfo(path, field):
    return subprocess.run(["modinfo", "-F", field, path], capture_output=True,
                          text=True, check=True).stdout.strip()


def kernel_release(*args):
    p = rxe_vm("--kernel-dir", *args)
    assert p.returncode == 0, p.stderr
    with open(os.path.join(p.stdout.strip(), ".ready")) as f:
        return p.stdout.strip(), f.read().strip()


def fake_tree(tmp_path, extra_modules=()):
    """A kernel build tree with the modules rxe-vm needs, and more."""
    tree = tmp_path / "linux"
    (tree / "arch/x86/boot").mkdir(parents=True)
    (tree / "arch/x86/boot/bzImage").write_bytes(b"")
    mods = tree / "lib/modules/6.99.0"
    mods.mkdir(parents=True)
    needs = ["drivers/infiniband/sw/rxe/rdma_rxe", "drivers/infiniband/core/"
             "ib_umad", "drivers/infiniband/core/ib_uverbs",
             "drivers/infiniband/core/rdma_ucm", "fs/9p/9p",
             "net/9p/9pnet_virtio", "fs/overlayfs/overlay", *extra_modules]
    (mods / "modules.dep").write_text(
        "".join("kernel/%s.ko:\n" % m for m in needs))
    (mods / "modules.builtin").write_text("")
    return tree


# --- the quick tier: what needs neither the archive nor a build

def test_usage_and_a_tree_without_siw(tmp_path):
    p = siw_module("--bogus")
    one_line_cause(p, 64, "unknown argument '--bogus'")
    # a kernel build tree: its own siw or none, never Debian's headers
    env = {"RDMACONF_CACHE": str(tmp_path / "cache")}
    p = siw_module("--kernel", str(fake_tree(tmp_path)), env=env)
    one_line_cause(p, 77, "kernel build tree without siw")
    assert "CONFIG_RDMA_SIW=m" in p.stderr


def test_a_kernel_with_siw_of_its_own_gives_that_module(tmp_path):
    tree = fake_tree(tmp_path, ["drivers/infiniband/sw/siw/siw"])
    p = siw_module("--kernel", str(tree),
                   env={"RDMACONF_CACHE": str(tmp_path / "cache")})
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip().endswith(
        "/6.99.0/kernel/drivers/infiniband/sw/siw/siw.ko"), p.stdout


# --- the slow tier: the archive, the build, the VM

@pytest.mark.slow
def test_module_builds_for_the_default_kernel_and_is_cached():
    _, release = kernel_release()
    t0 = time.monotonic()
    p = siw_module()
    built = time.monotonic() - t0
    assert p.returncode == 0, p.stderr
    ko = p.stdout.strip()
    assert ko.endswith("/siw/siw.ko") and os.path.isfile(ko), p.stdout
    assert modinfo(ko, "name") == "siw"
    assert modinfo(ko, "vermagic").split()[0] == release
    assert "ib_core" in modinfo(ko, "depends").split(",")
    # warm: the cached module, at once
    t0 = time.monotonic()
    again = siw_module()
    warm = time.monotonic() - t0
    assert again.returncode == 0 and again.stdout == p.stdout, again.stderr
    assert warm < 2, warm
    print("siw-module: %.1f s, then %.2f s cached" % (built, warm))


@pytest.mark.slow
def test_module_failures_have_distinct_exits():
    one_line_cause(siw_module(env={
        "RDMACONF_SIW_SOURCE": "linux-source-0.0"}),
        76, "no source package linux-source-0.0")
    one_line_cause(siw_module(env={
        "RDMACONF_SIW_HEADERS": "linux-headers-0.0-amd64"}),
        77, "no headers package linux-headers-0.0-amd64")
    # the build itself (from the unpacked sources the test above cached)
    p = siw_module(env={"RDMACONF_SIW_MAKEFLAGS":
                        "KCFLAGS=-include/nonexistent/siw-test.h"})
    one_line_cause(p, 78, "siw.ko build for")
    assert "/nonexistent/siw-test.h" in p.stderr
    # a failed build keeps the good module
    ok = siw_module()
    assert ok.returncode == 0 and os.path.isfile(ok.stdout.strip()), ok.stderr


# In the guest: siw0 and siw1 beside rxe0 and rxe1; siw0's port, an
# rdma_cm exchange (rping) from siw1's address to siw0's over IPv4 and
# IPv6, and the veth's counters to show that it crossed the veth.  Every
# wait is bounded: the client retries only while its server lives (once
# CI saw the server disconnected mid-exchange under TCG, and a client
# retrying for ever after it), and a failed exchange runs again, twice
# at most, each with a server of its own.
GUEST = r"""
rdma link show
ibv_devinfo -d siw0
tx0=$(cat /sys/class/net/siwnet1/statistics/tx_bytes)
exchange() {	# server address, client address
	timeout -s KILL 60 rping -s -a "$1" -C 5 -v > server.out 2>&1 &
	srv=$!
	for i in $(seq 100); do
		timeout -s KILL 30 rping -c -a "$1" -I "$2" -C 5 -v \
			> client.out 2>&1 && break
		kill -0 $srv 2> /dev/null || break	# the server gave up
		sleep 0.2	# the server may not listen yet: retry, bounded
	done
	wait $srv
	rc=$?
	[ $rc = 0 ] && [ "$(grep -c '^ping data' client.out)" = 5 ]
}
ping() {
	for try in 1 2 3; do
		exchange "$1" "$2" && break
		echo "exchange $try with $1 failed: $(tail -2 server.out client.out | tr '\n' ' ')"
	done
	echo "server $rc $(grep -c 'server ping data' server.out)"
	echo "client $(grep -c '^ping data' client.out)"
}
ping %s %s
ping %s %s
echo "veth $(( $(cat /sys/class/net/siwnet1/statistics/tx_bytes) - tx0 ))"
""" % (SIW0, SIW1, SIW0_6, SIW1_6)


def check_siw_guest(p):
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    out = p.stdout
    links = {l.split()[1]: l for l in out.splitlines()
             if l.startswith("link ")}
    # rxe as it was, siw beside it
    assert "netdev rxenet0" in links["rxe0/1"], out
    assert "netdev rxenet1" in links["rxe1/1"], out
    assert "netdev siwnet0" in links["siw0/1"], out
    assert "netdev siwnet1" in links["siw1/1"], out
    assert all("state ACTIVE" in l for l in links.values()), out
    info = out.split("hca_id:\tsiw0")[1]
    assert "transport:\t\t\tiWARP" in info, out
    assert "link_layer:\t\tEthernet" in info, out
    assert "PORT_ACTIVE" in info, out
    # two exchanges of 5 pings, each seen by both ends
    assert out.count("server 0 5") == 2, out
    assert out.count("client 5") == 2, out
    veth = int(out.split("veth ")[1].split()[0])
    assert veth > 10 * 64, out     # the pings crossed siwnet1, not lo


@pytest.mark.slow
@pytest.mark.skipif(host_has_device(), reason="the host has a device")
def test_siw_beside_rxe_in_the_vm(tmp_path):
    t0 = time.monotonic()
    p = rxe_vm("--siw", "--two", "--", "sh", "-c",
               "cd %s && %s" % (tmp_path, GUEST), timeout=900)
    print("rxe-vm --siw --two: %.1f s" % (time.monotonic() - t0))
    check_siw_guest(p)


@pytest.mark.slow
@pytest.mark.skipif(host_has_device(), reason="the host has a device")
def test_the_suite_on_siw_is_ok_and_skips_what_iwarp_has_not(tmp_path):
    """make conformance's siw column: every case ok on siw0; what iWARP
    has not (datagrams, libibumad's ca, RoCE) is UNSUPPORTED with its
    cause, never a failure or BROKEN."""
    from conftest import RDMACONF
    out = tmp_path / "siw.json"
    p = subprocess.run([RDMACONF, "run", "--vm", "--two", "--siw", "--device",
                        "siw0", "--json", str(out)], capture_output=True,
                       text=True, timeout=900, cwd=str(tmp_path))
    assert p.returncode == 0, why_not_ok(p)
    doc = json.loads(out.read_text())
    assert doc["device"]["name"] == "siw0" and doc["complete"]
    by_id = {r["id"]: r for r in doc["results"]}
    assert all(r["ok"] for r in doc["results"])
    for case, cause in (("umad/get_ca/target-device", "channel adapter"),
                        ("verbs/create_ah/port-0", "datagrams"),
                        ("verbs/query_gid/index-0", "datagrams")):
        r = by_id[case]
        assert r["verdict"] == {"system": "UNSUPPORTED",
                                "reference": "UNSUPPORTED"}, r
        assert cause in r["system_detail"] and "iWARP" in r["system_detail"]
    assert not [r["id"] for r in doc["results"]
                if "BROKEN" in r["verdict"].values()]


@pytest.mark.slow
@pytest.mark.skipif(host_has_device(), reason="the host has a device")
def test_siw_on_trixie(tmp_path):
    """trixie's root and 6.12 kernel: siw.ko built with trixie's gcc-14 in
    a build root; the same exchange."""
    _, release = kernel_release("--dist", "trixie")
    assert release.startswith("6.12."), release
    p = siw_module("--dist", "trixie", timeout=1800)
    assert p.returncode == 0, p.stderr
    assert modinfo(p.stdout.strip(), "vermagic").split()[0] == release
    p = rxe_vm("--siw", "--two", "--dist", "trixie", "--", "sh", "-c",
               "cd %s && %s" % (tmp_path, GUEST), timeout=1800)
    check_siw_guest(p)


@pytest.mark.slow
@pytest.mark.skipif(host_has_device(), reason="the host has a device")
def test_siw_failures_in_the_guest(tmp_path):
    """A module that does not load, and one that loads but is no siw (so
    rdma link add fails): exit 75 and one line each."""
    bogus = tmp_path / "bogus.ko"
    bogus.write_bytes(b"not a module")
    p = rxe_vm("--", "true", env={"RDMACONF_VM_SIW": "1",
                                  "RDMACONF_VM_SIW_KO": str(bogus)})
    one_line_cause(p, 75, "siw set-up failed in the guest: loading",
                   prog="rxe-vm")
    kdir, release = kernel_release()
    nlmon = os.path.join(kdir, "root/lib/modules", release,
                         "kernel/drivers/net/nlmon.ko")
    p = rxe_vm("--siw", "--", "true", env={"RDMACONF_VM_SIW_KO": nlmon})
    one_line_cause(p, 75, "rdma link add: error: Invalid argument",
                   prog="rxe-vm")
    p = rxe_vm("--", "true", env={"RDMACONF_VM_SIW": "yes"})
    one_line_cause(p, 64, "RDMACONF_VM_SIW=yes", prog="rxe-vm")
