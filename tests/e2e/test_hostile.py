"""A results file is input from elsewhere: whatever its strings hold is
shown as text, never acts.  Every string of a real results file -- every
member of the schema that is free text -- is replaced by a hostile one
(markup and scripts, Markdown table bars and code marks, a terminal's
escape sequences, BEL, CR), and the report (HTML in headless Chromium,
Markdown) and the gate must show it inert.  Members whose words come from
the vocabulary (verdicts, bases) are refused when they are anything else,
as are duplicate ids, wrong types, and files that say nothing of being
complete."""
import html.parser
import json
import os
import re
import shutil
import subprocess

import pytest

from conftest import RDMACONF

HOSTILE = ('<script>document.title="PWNED"</script>'
           '<img src=x onerror="document.title=\'PWNED\'">'
           '| `x` *y* [z](javascript:alert(1)) \x1b[31m\x07\rend')
# members whose values are words of the vocabulary, checked by the reader
WORDS = {"verdict", "basis", "schema", "convention", "ret", "errno"}


def hostile(v, key=None):
    """@v with every free-text string made hostile."""
    if isinstance(v, dict):
        return {k: (v[k] if k in WORDS and k != "errno" else hostile(v[k], k))
                for k in v}
    if isinstance(v, list):
        return [hostile(x, key) for x in v]
    if isinstance(v, str) and key not in WORDS:
        return HOSTILE + v
    return v


def rdmaconf(*args):
    env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
    return subprocess.run([RDMACONF, *args], capture_output=True, env=env,
                          timeout=300)


@pytest.fixture(scope="module")
def files(tmp_path_factory, shim):
    """A real run (with a broken library, so that rows fail and every
    section has something to show), made hostile; and a second one where
    every ok row went bad, so that the gate prints them."""
    d = tmp_path_factory.mktemp("hostile")
    real = d / "real.json"
    env = dict(os.environ, LD_PRELOAD=shim("mad_bugs.so"))
    subprocess.run([RDMACONF, "run", "--filter", "umad/*", "--json",
                    str(real)], capture_output=True, env=env, timeout=300)
    data = json.loads(real.read_text())
    assert len(data["results"]) > 100
    bad = hostile(data)
    a = d / "a.json"
    a.write_text(json.dumps(bad))
    worse = json.loads(json.dumps(bad))
    for r in worse["results"]:
        r["ok"] = False
        r["verdict"] = {"system": "FAIL", "reference": "CRASH"}
    b = d / "b.json"
    b.write_text(json.dumps(worse))
    return d, a, b


@pytest.fixture(scope="module")
def shim():
    from conftest import SHIMS
    return lambda name: os.path.join(SHIMS, name)


class Tags(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.attrs = set(), set()

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        self.attrs |= {a for a, _ in attrs}


def test_report_shows_hostile_strings_as_text(files):
    d, a, b = files
    out = d / "report"
    p = rdmaconf("report", str(a), str(b), "-o", str(out))
    assert p.returncode == 0, p.stderr
    page = (out / "index.html").read_text()
    tags = Tags()
    tags.feed(page)
    assert "script" not in tags.tags and "img" not in tags.tags, tags.tags
    assert not [t for t in tags.attrs if t.startswith("on")], tags.attrs
    assert "&lt;script&gt;" in page
    assert "\x1b" not in page and "\x07" not in page
    md = (out / "summary.md").read_text()
    # the payload's markup, each mark escaped wherever the file's
    # strings went: no tag, no code span, no link, no emphasis
    for mark in (r"<script", r"<img", r"`x`", r"\*y\*", r"\[z\]"):
        assert not re.search(r"(?<!\\)" + mark, md), mark
    assert "\x1b" not in md and "\x07" not in md
    # every row of every Markdown table has its header's columns: no bar
    # from a file cut a cell
    for table in re.findall(r"((?:^\|.*\|\n)+)", md, re.M):
        rows = table.splitlines()
        cells = [len(re.findall(r"(?<!\\)\|", r)) for r in rows]
        assert len(set(cells)) == 1, table[:2000]


@pytest.mark.slow
def test_a_browser_runs_no_script_of_the_report(files):
    """The same report in a real browser: its DOM has the title and no
    payload ran.  (The slow tier: chromium starts in ~7 s of make
    check's CPU; the parse above is the quick tier's check.)"""
    d, a, b = files
    out = d / "report-browser"
    p = rdmaconf("report", str(a), str(b), "-o", str(out))
    assert p.returncode == 0, p.stderr
    chromium = shutil.which("chromium")
    if not chromium:
        pytest.skip("chromium is not installed (make deps installs it)")
    r = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu",
                        "--disable-background-networking", "--no-first-run",
                        "--virtual-time-budget=2000", "--dump-dom",
                        "file://%s/index.html" % out], capture_output=True,
                       text=True, timeout=120)
    assert "<title>rdmaconf conformance report</title>" in r.stdout, \
        r.stdout[:500] + r.stderr[-1000:]
    assert "PWNED" not in r.stdout.split("</title>")[0]


def test_gate_shows_hostile_strings_as_text(files):
    d, a, b = files
    p = rdmaconf("gate", "--baseline", str(a), str(b))
    assert p.returncode == 1
    out = p.stdout
    assert out.count(b"\n") > 100 and b"WORSE" in out
    assert not re.search(rb"[\x00-\x09\x0b-\x1f\x7f]", out), \
        "a control byte reached the terminal"
    assert b"\\x1b" in out


def test_files_that_break_the_schema_are_refused(files, tmp_path):
    d, a, _ = files
    data = json.loads(a.read_text())
    cases = {
        "a verdict that is none": lambda x: x["results"][0]["verdict"]
        .update(system="BOGUS"),
        "a hostile verdict": lambda x: x["results"][0]["verdict"]
        .update(system=HOSTILE),
        "an id twice": lambda x: x["results"].append(x["results"][0]),
        "ok of the wrong type": lambda x: x["results"][1].update(ok="yes"),
        "a note that is no string": lambda x: x["results"][2].update(note=7),
        "no complete": lambda x: x.pop("complete"),
        "a basis that is none": lambda x: x["results"][3].update(basis="x"),
    }
    for what, spoil in cases.items():
        bad = json.loads(json.dumps(data))
        spoil(bad)
        f = tmp_path / "bad.json"
        f.write_text(json.dumps(bad))
        for args in (("gate", "--baseline", str(a), str(f)),
                     ("report", str(f), "-o", str(tmp_path / "r"))):
            p = rdmaconf(*args)
            assert p.returncode == 3, (what, args, p.stdout[-500:])
            assert p.stderr.count(b"\n") == 1, (what, p.stderr)


def test_an_incomplete_baseline_counts_what_it_lacks(files, tmp_path):
    d, a, _ = files
    data = json.loads(a.read_text())
    partial = dict(data, complete=False, results=data["results"][:10])
    f = tmp_path / "partial.json"
    f.write_text(json.dumps(partial))
    p = rdmaconf("gate", "--baseline", str(f), str(a))
    assert p.returncode == 1, p.stdout[-1000:]
    assert p.stdout.count(b"whose run did not complete") == \
        len(data["results"]) - 10
