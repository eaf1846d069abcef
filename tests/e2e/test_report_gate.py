"""rdmaconf report and rdmaconf gate, on results of real runs."""
import json
import os
import shutil
import subprocess

import pytest

from conftest import RDMACONF, ROOT, as_md, vocab, vocab_names


def run(*args, env=None, timeout=300):
    full = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
    full.update(env or {})
    return subprocess.run([RDMACONF, *args], capture_output=True, text=True,
                          env=full, timeout=timeout)


@pytest.fixture(scope="module")
def clean(tmp_path_factory):
    path = tmp_path_factory.mktemp("clean") / "results.json"
    p = run("run", "--filter", "umad/*", "--json", str(path))
    assert p.returncode == 0, p.stdout[-2000:]
    return path


def test_gate_passes_on_itself_and_fails_on_a_shim(clean, shim, tmp_path):
    p = run("gate", "--baseline", str(clean), str(clean))
    assert p.returncode == 0, p.stdout
    assert "0 worse" in p.stdout
    # a library change: umad_set_grh stores the flow label in host order
    broken = tmp_path / "broken.json"
    run("run", "--filter", "umad/*", "--json", str(broken),
        env={"LD_PRELOAD": shim("grh_host_order.so")})
    p = run("gate", "--baseline", str(clean), str(broken))
    assert p.returncode == 1, p.stdout
    worse = [l for l in p.stdout.splitlines() if l.startswith("WORSE")]
    assert any("umad/set_grh/flow-label-host-to-net" in l for l in worse), worse
    assert all("umad/set_grh/" in l for l in worse), worse
    # and back: the clean run against the broken baseline is an improvement
    p = run("gate", "--baseline", str(broken), str(clean))
    assert p.returncode == 0 and "BETTER" in p.stdout, p.stdout


def test_gate_worse_kinds(clean, tmp_path):
    data = json.loads(clean.read_text())
    rows = [r for r in data["results"] if r["verdict"]["system"] == "PASS"]
    rows[0]["ok"] = False                       # PASS -> FAIL
    rows[0]["verdict"]["system"] = "FAIL"
    rows[1]["verdict"]["system"] = "SKIP"       # ran -> no longer runs
    rows[3]["verdict"]["system"] = "ABSENT"     # ran -> missing
    data["results"].append(dict(rows[2], id="umad/new/case", ok=False))
    vanished = rows[4]["id"]
    data["results"].remove(rows[4])             # gone from the results
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(data))
    p = run("gate", "--baseline", str(clean), str(edited))
    assert p.returncode == 1
    assert "5 worse" in p.stdout, p.stdout
    assert "no longer runs" in p.stdout and "new case" in p.stdout
    assert "system no longer runs it (ABSENT)" in p.stdout, p.stdout
    assert [l for l in p.stdout.splitlines()
            if l.startswith("WORSE") and vanished in l and "vanished" in l]


def test_gate_reports_a_fix_as_a_profile_update(clean, tmp_path):
    """A case that now conforms where the profile expects a failure fails
    the gate, as "update the profile", not as worse."""
    data = json.loads(clean.read_text())
    row = next(r for r in data["results"] if r["verdict"]["system"] == "XFAIL")
    row.update(ok=False, conforms_now=True, stale="now conforms: update "
               "the profile (x:1 expects a failure, but the system "
               "implementation passes)")
    row["verdict"]["system"] = "XPASS"
    edited = tmp_path / "fixed.json"
    edited.write_text(json.dumps(data))
    p = run("gate", "--baseline", str(clean), str(edited))
    assert p.returncode == 1, p.stdout
    assert "0 worse, 1 now conform" in p.stdout, p.stdout
    assert [l for l in p.stdout.splitlines()
            if l.startswith("UPDATE") and row["id"] in l]
    # a profile already out of date in the baseline is not what changed
    # (two revisions of rdma-core that both have the fix)
    p = run("gate", "--baseline", str(edited), str(edited))
    assert p.returncode == 0, p.stdout
    assert "0 worse, 0 now conform" in p.stdout, p.stdout


def test_gate_and_report_bad_input(clean, tmp_path):
    p = run("gate", "--baseline", str(clean))
    assert p.returncode == 2 and p.stderr.count("\n") == 1, p.stderr
    bad = tmp_path / "bad.json"
    bad.write_text('{"results": [ {"id": "x", ')
    p = run("gate", "--baseline", str(clean), str(bad))
    assert p.returncode == 3, p.stderr
    assert "not JSON: byte" in p.stderr and p.stderr.count("\n") == 1
    p = run("report", str(bad), "-o", str(tmp_path / "r"))
    assert p.returncode == 3 and "not JSON" in p.stderr
    p = run("report", str(clean))
    assert p.returncode == 2 and "-o DIR" in p.stderr
    other = tmp_path / "other.json"
    other.write_text('{"a": 1}')
    p = run("report", str(other), "-o", str(tmp_path / "r"))
    assert p.returncode == 3 and "not an rdmaconf results file" in p.stderr


def test_report_merges_and_renders(clean, tmp_path):
    """Two results files, one column each, in the page and the summary."""
    out = tmp_path / "report"
    p = run("report", str(clean), str(clean), "-o", str(out))
    assert p.returncode == 0, p.stderr
    page = (out / "index.html").read_text()
    assert page.count("<th>system 1</th>") == 1 and "<th>system 2</th>" in page
    assert "Verdicts per call" in page and "umad_set_grh" in page
    # a known deviation with its man-page sentence and its hex dump
    assert "umad/size/header-size" in page and "umad_size() returns" in page
    assert "<pre>" in page and "http" not in page.replace(
        "http://www.w3.org/2000/svg", "")
    md = (out / "summary.md").read_text()
    assert md.startswith("# rdmaconf conformance report")
    assert "| umad/size/header-size | XFAIL | PASS |" in md


@pytest.mark.slow
def test_report_renders_in_a_browser(clean, tmp_path):
    """The page renders in Chromium, to a screenshot of some size (the
    slow tier: chromium is ~4 s of make check's CPU)."""
    out = tmp_path / "report"
    p = run("report", str(clean), str(clean), "-o", str(out))
    assert p.returncode == 0, p.stderr
    chromium = shutil.which("chromium")
    if not chromium:
        pytest.skip("chromium is not installed (make deps installs it)")
    png = tmp_path / "report.png"
    r = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu",
                        "--hide-scrollbars", "--screenshot=%s" % png,
                        "--window-size=1400,1800", "file://%s/index.html" % out],
                       capture_output=True, text=True, timeout=120)
    assert png.exists(), r.stderr[-2000:]
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20000


def test_where_the_time_goes(clean, tmp_path):
    """Each row's time in its phases, their sums, and the report's
    section on them."""
    data = json.loads(clean.read_text())
    ran = [r for r in data["results"] if r["system"]]
    assert ran
    for r in ran:
        for impl in vocab_names("implementations"):
            o = r[impl]
            assert o["setup_ms"] >= 0 and o["teardown_ms"] >= 0, r
    for impl in vocab_names("implementations"):
        t = data["summary"]["%s_ms" % impl]
        assert t["rows"] >= t["setup"] + t["call"] + t["teardown"] - 1, t
        assert t["rows"] > 0, t
    out = tmp_path / "report"
    p = run("report", str(clean), "-o", str(out))
    assert p.returncode == 0, p.stderr
    page = (out / "index.html").read_text()
    assert "Where the time goes" in page and "checks and clean-up" in page


def test_results_schema_is_versioned_and_old_files_read(clean, tmp_path):
    """Results carry their schema (2: "contract", "note", "profile_entry");
    files of schema 1 ("expected", "reason", "expectation") still read,
    and a schema this build does not know is refused with one line."""
    data = json.loads(clean.read_text())
    assert data["schema"] == 2
    row = data["results"][0]
    assert {"contract", "note", "profile_entry"} <= set(row)
    assert not {"expected", "reason", "expectation"} & set(row)
    # the same results as schema 1 wrote them
    old = dict(data)
    del old["schema"]
    old["results"] = []
    for r in data["results"]:
        r = dict(r)
        r["expected"] = r.pop("contract")
        r["reason"] = r.pop("note")
        r["expectation"] = r.pop("profile_entry")
        old["results"].append(r)
    v1 = tmp_path / "v1.json"
    v1.write_text(json.dumps(old))
    p = run("gate", "--baseline", str(v1), str(clean))
    assert p.returncode == 0 and "0 worse" in p.stdout, p.stdout[-2000:]
    p = run("report", str(v1), str(clean), "-o", str(tmp_path / "r"))
    assert p.returncode == 0, p.stderr
    page = (tmp_path / "r" / "index.html").read_text()
    assert page.count("<th>contract</th>") % 2 == 0
    future = dict(data, schema=99)
    f = tmp_path / "future.json"
    f.write_text(json.dumps(future))
    p = run("gate", "--baseline", str(f), str(clean))
    assert p.returncode == 3 and "schema" in p.stderr, p.stderr
    assert p.stderr.count("\n") == 1


def test_report_opens_with_the_conformance_verdict(tmp_path):
    """Before any device table: per implementation, the cases it conforms
    in and those it breaks by the basis of the row, how many no profile
    records, counted here from the cases themselves."""
    base = os.path.join(ROOT, "cases", "baselines", "rxe-rdma-core-44.json")
    p = run("report", base, "-o", str(tmp_path))
    assert p.returncode == 0, p.stderr
    v = vocab()
    breaking = {x["name"] for x in v["verdicts"] if x["breaks"]}
    results = json.load(open(base))["results"]
    md = (tmp_path / "summary.md").read_text()
    page = (tmp_path / "index.html").read_text()
    assert md.index("## Verdict") < md.index("## Cases")
    assert page.index("<h2>Verdict</h2>") < page.index("Devices and hosts")
    for impl in ("system", "reference"):
        verdicts = [(r["verdict"][impl], r.get("basis") or "documented")
                    for r in results]
        conforms = sum(1 for x, _ in verdicts if x == "PASS")
        doc, linux, ours = (sum(1 for x, b in verdicts
                                if x in breaking and b == basis)
                            for basis in ("documented", "linux",
                                          "interpretation"))
        new = sum(1 for x, _ in verdicts if x in breaking and x != "XFAIL")
        line = ("- **%s** on " % impl) + \
            md.split("- **%s** on " % impl)[1].split("\n")[0]
        assert ("conforms in %d cases; breaks the man page in %d, "
                "Linux's ABI in %d, our reading in %d; %d of them new" % (
                    conforms, doc, linux, ours, new)) in line, line
    assert doc + linux + ours > 0   # the baseline does break its pages


def test_where_the_providers_differ(tmp_path):
    """rxe, then the same run as siw would give it: a case both ran that
    differs is listed, once, in its own section; the cases siw did not
    run are counted by cause, not listed; "What changed" points there."""
    base = os.path.join(ROOT, "cases", "baselines", "rxe-rdma-core-44.json")
    doc = json.load(open(base))
    doc["device"]["driver"], doc["device"]["name"] = "siw", "siw0"
    passed = [r for r in doc["results"]
              if r["verdict"] == {"system": "PASS", "reference": "PASS"}]
    cause = "needs UD QPs; siw0 is iWARP <RC only>"
    for r in passed[:5]:
        r["verdict"] = {"system": "SKIP", "reference": "SKIP"}
        r["system_detail"] = r["reference_detail"] = cause
    worse = passed[5]
    worse["verdict"]["system"], worse["ok"] = "FAIL", False
    worse["system_detail"] = "wrong errno <siw>"
    siw = tmp_path / "siw.json"
    siw.write_text(json.dumps(doc))
    p = run("report", base, str(siw), "-o", str(tmp_path / "out"))
    assert p.returncode == 0, p.stderr
    md = (tmp_path / "out" / "summary.md").read_text()
    section = md.split("## Where the providers differ\n")[1]
    section = section.split("\n## ")[0]
    assert section.startswith("\n### 1 -> 2: %s -> siw\n" % as_md("rdma_rxe"))
    rows = [line for line in section.splitlines() if line.startswith("| ")]
    assert len(rows) == 2 and as_md(worse["id"]) in rows[1], rows
    changed = md.split("## What changed\n")[1].split("\n## ")[0]
    assert "WORSE" not in changed and \
        "Another provider: see Where the providers differ." in changed
    assert "- 5 not run on siw: %s (%s, ...)" % (
        as_md(cause), as_md(passed[0]["id"])) in section, section
    page = (tmp_path / "out" / "index.html").read_text()
    assert '<h2 id="providers">Where the providers differ</h2>' in page
    assert "needs UD QPs; siw0 is iWARP &lt;RC only&gt;" in page
    # one provider: no such section
    p = run("report", base, base, "-o", str(tmp_path / "same"))
    assert "providers differ" not in \
        (tmp_path / "same" / "summary.md").read_text()


def test_shipped_baselines_name_no_host_path():
    """A baseline travels: its profile entries name their file relative
    to the data directory, and it is of the schema this build writes."""
    d = os.path.join(ROOT, "cases", "baselines")
    for name in os.listdir(d):
        doc = json.load(open(os.path.join(d, name)))
        wheres = [r["profile_entry"]["where"] for r in doc["results"]
                  if r.get("profile_entry")]
        assert wheres and not [w for w in wheres if "/" in w], (name, wheres)
        assert doc.get("schema") == 2, name
