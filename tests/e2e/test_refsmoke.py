"""The reference libibverbs' control path beside rdma-core's on a real
device: build/ref-smoke (tests/refsmoke) walks devices, contexts,
attributes, PDs, MRs, MWs, CQs, QPs of every type through every state,
SRQs, an async event and imports on both sides and compares what a
caller sees.  One step of the session's VM boot."""
import fnmatch
import os
import re

import pytest

from conftest import RDMACONF, host_has_device

pytestmark = pytest.mark.vm

SMOKE = os.path.join(os.path.dirname(RDMACONF), "ref-smoke")
VM_STEPS = {"refsmoke": SMOKE}

# Where the two sides may differ, with the reason: a deviation of
# rdma-core 44 from the page, or a reading of the reference's where the
# page is silent.  A pattern is a key, its device part a glob too
# ("*/cq/cqe", "siw*/cq_ex/*").  A difference that no entry explains
# fails the test; so does an entry whose devices were walked but that
# matches nothing any more.
EXPECTED_DIFFS = {
    "rxe*/srq/granted/max_wr":
        "our reading: the reference gives the SRQ's size as the driver "
        "made it (rxe's queue index_mask, what ibv_query_srq answers "
        "after); rdma-core 44 gives the size asked (both >= it, as the "
        "page says)",
    "rxe*/*/cap":
        "our reading: the reference gives the queues' sizes as rxe made "
        "them (what ibv_query_qp answers after); rdma-core 44 the sizes "
        "asked (both >= them, as the page says)",
    "rxe*/srq_ex/tm_without_cq":
        "rdma-core 44 crashes (NULL attr->cq) making a tag-matching SRQ "
        "without a CQ, which ibv_create_srq_ex(3) describes as XRC's; the "
        "reference refuses it (EINVAL)",
    "rxe*/srq_qp/uc*":
        "rdma-core 44 makes a UC QP on an SRQ; ibv_create_qp(3): \"will "
        "fail if a it is asked to create QP of a type other than "
        "IBV_QPT_RC or IBV_QPT_UD associated with an SRQ\"",
    "*/self/import_*":
        "rdma-core 44's rxe and siw providers import no PD or MR "
        "(EOPNOTSUPP); the kernel answers INFO_HANDLES and QUERY_MR for "
        "every driver, so the reference does",
    "*/child/inherited/import_*":
        "the same, from a second process sharing the command fd (the "
        "device itself cannot be imported on rxe or siw: both "
        "EOPNOTSUPP)",
    # siw: ready for ci/rxe-vm --siw, tried with a siw.ko built out of tree
    "siw*/alloc_mw/type3":
        "our reading: a type that is none is EINVAL before the device is "
        "asked; rdma-core 44's siw provider has no MWs (EOPNOTSUPP first)",
    "siw*/cq_ex/*":
        "rdma-core 44's siw provider has no create_cq_ex (EOPNOTSUPP); "
        "the kernel makes the CQ, and so does the reference",
    "siw*/qp_ex/*":
        "rdma-core 44's siw provider has no create_qp_ex (EOPNOTSUPP); "
        "the kernel makes the QP, and so does the reference",
    "siw*/srq/query*":
        "rdma-core 44's siw provider has no query_srq (EOPNOTSUPP); the "
        "kernel answers",
    "siw*/srq_ex/tm_without_cq":
        "rdma-core 44's siw provider has no create_srq_ex (EOPNOTSUPP); "
        "the reference refuses a tag-matching SRQ without a CQ (EINVAL)",
    "siw*/srq_qp/rc*":
        "rdma-core 44 hands the kernel the max_recv_wr and max_recv_sge "
        "of a QP on an SRQ, which siw refuses (EINVAL); ibv_create_qp(3): "
        "they \"are ignored ... if the QP is to be associated with an "
        "SRQ\"",
    "siw*/srq_qp/uc":
        "siw makes RC QPs only (the kernel: EOPNOTSUPP); the reference "
        "refuses a UC QP on an SRQ first, as ibv_create_qp(3) says "
        "(EINVAL)",
}

# What the walk must have compared on each rxe device: one key of each
# call family.
COVERED = [
    "list/names", "device/guid", "device/index", "context/num_comp_vectors",
    "query_device/max_qp", "query_device_ex/device_cap_flags_ex",
    "port1/state", "port1/pkey0", "query_rt_values_ex",
    "is_fork_initialized", "reg_mr/result", "reg_mr_iova/result",
    "rereg_mr/access", "dereg_mr", "alloc_mw/type1", "dealloc_pd",
    "cq/cqe", "cq/resize", "cq_ex/cqe", "comp_channel/destroy",
    "srq/query/max_wr", "srq/query_after_limit/srq_limit",
    "srq/get_srq_num", "rc/rts/query", "uc/rts/query", "ud/rts/query",
    "rc/err/query", "rc/reset/query", "async/event_type",
    "srq_qp/rc", "qp_ex/create_flags_0", "child/import_device",
    "close_device", "teardown/left_behind",
]


@pytest.fixture(scope="module")
def smoke(vm_session):
    step = vm_session["refsmoke"]
    return step, step.out.splitlines()


def keyed(lines, kind):
    """{key: line} of the lines of @kind ("ok", "DIFF")"""
    out = {}
    for line in lines:
        parts = line.split(" ", 2)
        if parts[0] == kind and len(parts) > 1:
            out[parts[1]] = line
    return out


def devices_of(keys):
    """the devices walked (opened and closed), not only listed"""
    return {k.split("/")[0] for k in keys if k.endswith("/close_device")}


def test_smoke_ran_and_nothing_failed(smoke):
    step, lines = smoke
    assert step.rc == 0, step.out[-3000:] + step.err[-2000:]
    assert not [l for l in lines if l.startswith("FAIL")], \
        "\n".join(l for l in lines if l.startswith("FAIL"))
    summary = [l for l in lines if l.startswith("ref-smoke: ")]
    assert summary, step.out[-2000:]
    m = re.match(r"ref-smoke: (\d+) compared, (\d+) differ, 0 failed",
                 summary[-1])
    assert m and int(m.group(1)) >= 300, summary[-1]


def test_smoke_covers_the_control_path(smoke):
    step, lines = smoke
    seen = set(keyed(lines, "ok")) | set(keyed(lines, "DIFF"))
    devices = devices_of(seen)
    if not host_has_device():
        assert {"rxe0", "rxe1"} <= devices, sorted(devices)
    for dev in sorted(devices):
        if not dev.startswith("rxe"):
            continue
        missing = [k for k in COVERED
                   if (k if k.split("/")[0] in ("list", "teardown")
                       else dev + "/" + k) not in seen]
        assert not missing, "%s: not compared: %s" % (dev, missing)


def test_smoke_differences_are_known(smoke):
    step, lines = smoke
    diffs = keyed(lines, "DIFF")
    unknown = [line for key, line in sorted(diffs.items())
               if not any(fnmatch.fnmatch(key, p) for p in EXPECTED_DIFFS)]
    assert not unknown, "differences no entry explains:\n" + \
        "\n".join(unknown)
    walked = devices_of(set(keyed(lines, "ok")) | set(diffs))
    stale = [p for p in EXPECTED_DIFFS
             if any(fnmatch.fnmatch(d, p.split("/")[0]) for d in walked)
             and not any(fnmatch.fnmatch(k, p) for k in diffs)]
    assert not stale, "expected differences seen no more: %s" % stale


def test_no_provider_fails_cleanly(smoke):
    """A device of a driver the reference has no part for: what needs no
    driver data works, the rest is the kernel's clean refusal."""
    step, lines = smoke
    for dev in devices_of(keyed(lines, "ok")):
        if not dev.startswith("rxe"):
            continue
        for call, want in (("alloc_pd", "PD"), ("reg_mr", "MR"),
                           ("create_cq", "EINVAL"),
                           ("create_srq", "EINVAL")):
            line = "note reference %s/no_provider/%s %s" % (dev, call, want)
            assert line in lines, line


def test_async_event_and_import_seen(smoke):
    """IBV_EVENT_SQ_DRAINED reached both sides; the reference imported the
    PD and MR from a second process, with the original's keys, and the
    bogus handles not."""
    step, lines = smoke
    ok = keyed(lines, "ok")
    for dev in devices_of(ok):
        if dev.startswith("rxe"):     # siw's RC QPs need a connection
            assert ok.get(dev + "/async/event_type", "").endswith(" 5"), \
                dev
    diffs = keyed(lines, "DIFF")
    for dev in devices_of(ok):
        key = dev + "/child/inherited/import_mr/same"
        seen = diffs.get(key) or ok.get(key) or ""
        assert "reference=lkey 1 rkey 1 length 1 handle 1 addr (nil)" in \
            seen or seen.endswith("lkey 1 rkey 1 length 1 handle 1 "
                                  "addr (nil)"), (key, seen)
        for bogus in ("import_pd/bogus", "import_mr/bogus"):
            line = diffs.get("%s/child/inherited/%s" % (dev, bogus), "")
            assert line.endswith("reference=ENOENT"), (bogus, line)
