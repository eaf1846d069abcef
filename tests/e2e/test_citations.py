"""Every row cites its man page verbatim.

Renders every man page of libibumad-dev, libibverbs-dev and librdmacm-dev
with groff, as installed, and finds each row's sentence in one of them,
whitespace aside.  Pages that rdma-core 44.0's source holds and its build
does not install (libibumad's umad_*_ca_device_list.3.md), and pages that
only the upstream snapshot has (functions documented after 44.0), come
from the source snapshots in ../shared/fixtures, their Markdown and
reStructuredText taken as text.  A row may cite two passages of one page joined by
" ... ".  A sentence that no page holds is a claim the man pages do not
make, and fails here with the row's id.
"""
import fnmatch
import glob
import gzip
import hashlib
import json
import os
import re
import subprocess
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache

import pytest

from conftest import RDMACONF, ROOT, fixture_tarball, vocab_names

PACKAGES = ("libibumad-dev", "libibverbs-dev", "librdmacm-dev")
ASCII = {"\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-",
         "\u2014": "--", "\u2212": "-", "\u2018": "'", "\u2019": "'",
         "\u201c": '"', "\u201d": '"', "\u00ad": "", "\u00a0": " "}


def normalize(text):
    for a, b in ASCII.items():
        text = text.replace(a, b)
    text = re.sub(r"\s+", " ", text)
    # roff puts a space between an italic word and the comma after it
    return re.sub(r" ([,.;:)])", r"\1", text).strip()


def roff_source(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        text = f.read().decode("utf-8", "replace")
    link = re.match(r"\.so\s+(\S+)", text)
    if link:
        target = glob.glob(os.path.join(os.path.dirname(os.path.dirname(path)),
                                        link.group(1)) + "*")
        return roff_source(target[0]) if target else ""
    return text


def groff(source):
    return subprocess.run(["groff", "-man", "-Tutf8", "-rLL=3000n", "-rHY=0",
                           "-P-cbou"], input=source.encode(),
                          capture_output=True, check=True).stdout.decode(
                              "utf-8", "replace")


def render(source):
    return normalize(groff(source))


# A line between two pages rendered by one groff: no page has it.
PAGE_BREAK = "RDMACONF-PAGE-BREAK"


def render_batch(sources):
    """Several pages by one groff, each page's text as render() gives it
    but for its footer (source, date and title: no row cites it), which
    groff writes only at the end of a batch.  A groff per page cost 9 of
    the 10 s that rendering the installed pages took here."""
    out = groff("".join(s + "\n.br\n" + PAGE_BREAK + "\n.br\n"
                        for s in sources)).split(PAGE_BREAK)
    assert len(out) == len(sources) + 1, "a page holds %s" % PAGE_BREAK
    return [normalize(text) for text in out[:-1]]


@lru_cache(maxsize=None)
def rendered():
    """Every man page of PACKAGES, rendered once for all tests, a groff
    for each CPU's share: {path: text}."""
    paths = []
    for pkg in PACKAGES:
        files = subprocess.run(["dpkg", "-L", pkg], capture_output=True,
                               text=True, check=True).stdout.split()
        paths += [f for f in files if os.path.isfile(f) and
                  re.search(r"/man/man\d/[^/]+\.\d\w*(\.gz)?$", f)]
    n = os.cpu_count() or 1
    shares = [paths[i::n] for i in range(n)]
    with ThreadPoolExecutor(n) as pool:
        texts = pool.map(lambda share: render_batch(
            [roff_source(f) for f in share]), shares)
    return {f: text for share, batch in zip(shares, texts)
            for f, text in zip(share, batch)}


def markdown_text(source):
    """A pandoc man page's Markdown as its rendering reads: no front
    matter, no emphasis or code marks, no heading marks."""
    source = re.sub(r"\A\s*---\n.*?\n---\n", "", source, flags=re.S)
    source = re.sub(r"^#+ ", "", source, flags=re.M)
    source = re.sub(r"\*\*([^*\n]+?)\*\*|\*([^*\n]+?)\*",
                    lambda m: m.group(1) or m.group(2), source)
    return normalize(source.replace("```c", "").replace("```", ""))


def rst_text(source):
    """A reStructuredText man page as its rendering reads: no comments,
    directives, underlines, literal or strong marks."""
    source = re.sub(r"^\.\. .*$|^[=-]{3,}$", "", source, flags=re.M)
    source = re.sub(r"``([^`]+)``|\*\*([^*\n]+?)\*\*",
                    lambda m: m.group(1) or m.group(2), source)
    return normalize(source)


def page_kind(name, text):
    if name.endswith(".md"):
        return "md"
    if "-*- rst -*-" in text.split("\n", 1)[0] or name.endswith(".rst"):
        return "rst"
    return "roff"


def page_text(name, text):
    return {"md": markdown_text, "rst": rst_text,
            "roff": render}[page_kind(name, text)](text)


# The source snapshots whose pages count, oldest first: 44.0 (Debian 12's
# rdma-core), then upstream, for what 44.0 does not document.
SNAPSHOTS = (("44.0", "rdma-core-44.0.tar.gz"),
             ("upstream", "rdma-core-v*.tar.gz"))


@lru_cache(maxsize=None)
def source_pages():
    """The section-3 pages of rdma-core's libraries that no package
    installs here: 44.0's that its build leaves out, and upstream's that
    44.0 does not have: {"source:SNAPSHOT/man3/NAME": text}."""
    import tarfile
    installed = {re.sub(r"\.gz$", "", os.path.basename(f)): text
                 for f, text in rendered().items()}
    have = set(installed)
    found = {}
    for label, pattern in SNAPSHOTS:
        tarball = fixture_tarball(pattern)
        assert tarball, "no %s in ../shared/fixtures" % pattern
        candidates = []
        with tarfile.open(tarball) as t:
            for m in t.getmembers():
                name = os.path.basename(m.name)
                if not (m.isfile() and re.search(
                        r"/lib(ibumad|ibverbs|rdmacm)/man/[^/]+"
                        r"\.3(\.md|\.in\.rst)?$", m.name)):
                    continue
                base = re.sub(r"\.md$|\.in\.rst$", "", name)
                if base in have and (label != "upstream" or
                                     base not in installed):
                    continue
                candidates.append((name, base, t.extractfile(m).read().decode(
                    "utf-8", "replace")))
        # the roff pages by one groff (a groff a page cost 4 s here)
        roff = [c for c in candidates if page_kind(*c[::2]) == "roff"]
        texts = dict(zip((c[0] for c in roff),
                         render_batch([c[2] for c in roff]) if roff else []))
        for name, base, source in candidates:
            text = texts[name] if name in texts else page_text(name, source)
            # upstream's page of an installed name counts where it
            # documents functions the installed one does not (its
            # ibv_reg_mr.3 has ibv_reg_mr_ex, 44.0's has not)
            if base in have and not (page_functions(text) -
                                     page_functions(installed[base])):
                continue
            found["source:%s/man3/%s" % (label, name)] = text
        have |= {re.sub(r"^.*/|\.md$|\.in\.rst$", "", k) for k in found}
    return found


def page_functions(text):
    """Every "name, name - what" of a page's NAME section: a page may
    document several functions, each with a line of its own."""
    m = re.search(r"NAME (.*?) SYNOPSIS", text)
    if not m:
        return set()
    return {fn for group in re.findall(r"((?:\w+,\s*)*\w+) -", m.group(1))
            for fn in re.split(r",\s*", group)}


# The pages as rendered, kept between runs (make check, then its
# sanitizer and coverage builds, render the same pages): valid while
# this file, the packages' versions, groff and the snapshots are the same
CACHE = os.path.join(ROOT, "build", "citations-pages.json")


def cache_key():
    h = hashlib.sha256()
    with open(__file__, "rb") as f:
        h.update(f.read())
    for cmd in (["dpkg-query", "-W", "-f", "${Package} ${Version}\n",
                 *PACKAGES], ["groff", "--version"]):
        h.update(subprocess.run(cmd, capture_output=True,
                                check=True).stdout)
    for _, pattern in SNAPSHOTS:
        tarball = fixture_tarball(pattern) or ""
        st = os.stat(tarball) if tarball else None
        h.update(("%s %s %s\n" % (tarball, st and st.st_size,
                                   st and st.st_mtime_ns)).encode())
    return h.hexdigest()


@lru_cache(maxsize=None)
def all_pages():
    key = cache_key()
    try:
        with open(CACHE) as f:
            kept = json.load(f)
        if kept.get("key") == key:
            return kept["pages"]
    except (OSError, ValueError, AttributeError):
        pass
    pages = {**rendered(), **source_pages()}
    try:
        os.makedirs(os.path.dirname(CACHE), exist_ok=True)
        with open(CACHE + ".tmp", "w") as f:
            json.dump({"key": key, "pages": pages}, f)
        os.replace(CACHE + ".tmp", CACHE)
    except OSError:
        pass
    return pages


@pytest.fixture(scope="module")
def pages():
    found = {os.path.basename(f): text for f, text in all_pages().items()}
    assert found, "no man pages installed (make deps installs them)"
    return found


def rows():
    out = subprocess.run([RDMACONF, "list", "--json", "-"],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def test_every_cited_sentence_is_in_a_man_page(pages):
    missing = []
    for row in rows():
        parts = [normalize(p) for p in row["doc"].split(" ... ")]
        if not any(all(p in text for p in parts) for text in pages.values()):
            missing.append("%s: %s" % (row["id"], row["doc"]))
    assert not missing, "cited, but in no installed man page:\n" + \
        "\n".join(missing)


def test_every_row_states_its_basis():
    counts = {}
    for row in rows():
        assert row["basis"] in vocab_names("bases"), row
        counts[row["basis"]] = counts.get(row["basis"], 0) + 1
        if row["basis"] != "documented":
            assert row["note"], "%s: a %s row says why in its note" % (
                row["id"], row["basis"])
    print("rows per basis:", counts)


# The pages whose functions are in scope: all of libibumad's, the
# address-handle, GID and multicast pages of libibverbs and librdmacm, and
# librdmacm's connections (#31: those with rows so far).
IN_SCOPE = re.compile(r"^(umad_|ibv_\w*(_ah|_gid|mcast)|rdma_\w*multicast|"
                      r"rdma_(resolve_addr|resolve_route|listen|connect|"
                      r"accept|reject|establish|disconnect|init_qp_attr|"
                      r"get_src_port|get_dst_port|get_local_addr|"
                      r"get_peer_addr|event_str|create_qp|destroy_qp|"
                      r"destroy_id|get_cm_event|get_devices|free_devices|set_option|notify|migrate_id|getaddrinfo|create_ep|destroy_ep|get_request|create_id|create_srq|destroy_srq|reg_msgs|reg_read|reg_write|post_send|post_recv|post_read|post_write|post_sendv|post_recvv|post_readv|post_writev|post_ud_send|get_send_comp|get_recv_comp|create_event_channel|destroy_event_channel|ack_cm_event|bind_addr|dereg_mr|set_local_ece|get_remote_ece)$)")
# libibverbs' control path (#29): devices and ports, the strings and the
# rate helpers, fork support, PDs, MRs, MWs, completion channels and CQs,
# and the imports its providers lack.  By name: their pages also document
# functions not in scope yet (ibv_reg_dmabuf_mr).
CONTROL_PATH = {
    "ibv_get_device_list", "ibv_free_device_list", "ibv_get_device_name",
    "ibv_get_device_guid", "ibv_get_device_index", "ibv_open_device",
    "ibv_close_device", "ibv_query_device", "ibv_query_device_ex",
    "ibv_query_port", "ibv_query_pkey", "ibv_get_pkey_index",
    "ibv_query_rt_values_ex", "ibv_node_type_str", "ibv_port_state_str",
    "ibv_event_type_str", "ibv_rate_to_mult", "mult_to_ibv_rate",
    "ibv_rate_to_mbps", "mbps_to_ibv_rate", "ibv_fork_init",
    "ibv_is_fork_initialized", "ibv_alloc_pd", "ibv_dealloc_pd",
    "ibv_reg_mr", "ibv_reg_mr_iova", "ibv_rereg_mr", "ibv_dereg_mr",
    "ibv_alloc_mw", "ibv_dealloc_mw", "ibv_inc_rkey",
    "ibv_create_comp_channel", "ibv_destroy_comp_channel", "ibv_create_cq",
    "ibv_create_cq_ex", "ibv_resize_cq", "ibv_destroy_cq", "ibv_import_pd",
    "ibv_unimport_pd", "ibv_import_mr", "ibv_unimport_mr",
    "ibv_create_qp", "ibv_create_qp_ex", "ibv_query_qp", "ibv_modify_qp",
    "ibv_destroy_qp",
}
# libibverbs' SRQs and async events (#29).
SRQ_ASYNC = {
    "ibv_create_srq", "ibv_create_srq_ex", "ibv_modify_srq", "ibv_query_srq",
    "ibv_destroy_srq", "ibv_get_srq_num", "ibv_get_async_event",
    "ibv_ack_async_event",
}
# The verbs rxe and siw do not implement (#29): the documented outcome
# for "not supported", and what they do where a device has them.
OPTIONAL = {
    "ibv_alloc_td", "ibv_dealloc_td", "ibv_alloc_parent_domain",
    "ibv_alloc_dm", "ibv_free_dm", "ibv_memcpy_to_dm", "ibv_memcpy_from_dm",
    "ibv_create_counters", "ibv_destroy_counters",
    "ibv_attach_counters_point_flow", "ibv_read_counters",
    "ibv_create_flow", "ibv_destroy_flow", "ibv_create_wq", "ibv_modify_wq",
    "ibv_destroy_wq", "ibv_create_rwq_ind_table",
    "ibv_destroy_rwq_ind_table", "ibv_open_xrcd", "ibv_close_xrcd",
    "ibv_open_qp", "ibv_query_ece", "ibv_set_ece", "ibv_modify_cq",
    "ibv_alloc_null_mr", "ibv_advise_mr", "ibv_reg_dmabuf_mr",
    "ibv_query_qp_data_in_order", "ibv_modify_qp_rate_limit",
    "ibv_post_srq_ops",
}
# libibverbs' work-request API of struct ibv_qp_ex and type 1 MW binds
# (#30).
WR_API = {
    "ibv_wr_start", "ibv_wr_complete", "ibv_wr_abort", "ibv_wr_send",
    "ibv_wr_send_imm", "ibv_wr_rdma_write", "ibv_wr_rdma_write_imm",
    "ibv_wr_rdma_read", "ibv_wr_atomic_cmp_swp", "ibv_wr_atomic_fetch_add",
    "ibv_wr_set_sge", "ibv_wr_set_sge_list", "ibv_wr_set_inline_data",
    "ibv_wr_set_inline_data_list", "ibv_wr_set_ud_addr", "ibv_bind_mw",
    "ibv_wr_bind_mw", "ibv_wr_local_inv", "ibv_wr_send_inv",
}
# libibverbs' calls documented after 44.0, of the families above: its
# buffers (ibv_alloc_buf(3), rdma-core 64 and 65), ibv_reg_mr_ex (59) and
# the port's speed (62), DMA handles (59).  ABSENT on 44.0, as
# rdma-core.expect records.
NEWER = {
    "ibv_alloc_buf", "ibv_free_buf", "ibv_reg_buf_mr",
    "ibv_export_buf_dmabuf_fd", "ibv_reg_mr_ex", "ibv_query_port_speed",
    "ibv_alloc_dmah", "ibv_dealloc_dmah",
}
# Documented functions with no rows, each with its reason.
NOT_COVERED = {
    "ibv_wr_send_tso": "TSO: rxe and siw have none",
    "ibv_wr_set_xrc_srqn": "XRC: the reference opens no XRC domain",
    "efadv_query_ah": "a direct verb of the efa provider, not of libibverbs",
    "mlx5dv_map_ah_to_qp": "a direct verb of the mlx5 provider",
}


def documented_functions():
    names = {}
    for f, text in all_pages().items():
        if not re.search(r"/man3/[^/]+\.3\w*(\.gz|\.md)?$", f):
            continue
        for fn in page_functions(text):
            if IN_SCOPE.match(fn) or fn in CONTROL_PATH or \
                    fn in SRQ_ASYNC or fn in OPTIONAL or \
                    fn in WR_API or fn in NEWER or \
                    fn in NOT_COVERED:
                names[fn] = os.path.basename(f)
    return names


def test_every_documented_function_has_rows():
    calls = {r["call"] for r in rows()}
    missing = []
    for fn, page in sorted(documented_functions().items()):
        if fn in NOT_COVERED:
            continue
        # "umad_*_str" names a family
        if not any(fnmatch.fnmatch(c, fn) for c in calls):
            missing.append("%s (%s)" % (fn, page))
    assert not missing, "documented, but no rows: " + ", ".join(missing)
    stale = [fn for fn in NOT_COVERED if fn in calls]
    assert not stale, "rows exist now, drop from NOT_COVERED: %s" % stale
