"""rdmaconf gate --rdma-core on a real rdma-core tree: the upstream
snapshot of the shared fixtures, made a git repository, with a commit that
changes a documented behaviour (umad_get_issm_path answers -ENODEV where
it answered -EINVAL), one that changes only a comment, and one that does
not build.  The gate names exactly the rows the behaviour change alters
and none for the comment; a tree built once is not built again; its
verdicts are those of two separate runs; and what it cannot gate fails
with one line and an exit of its own (ci/gate-rdma-core)."""
import glob
import json
import os
import subprocess
import time

import pytest

from conftest import RDMACONF, fixture_tarball, host_has_device

pytestmark = [pytest.mark.slow, pytest.mark.vm]


SNAPSHOT = fixture_tarball("rdma-core-v*.tar.gz")
if not SNAPSHOT:
    pytestmark.append(pytest.mark.skip(
        reason="no rdma-core-v*.tar.gz fixture (set RDMACONF_FIXTURES)"))

# The behaviour change: a port without a umad device is -ENODEV, not
# -EINVAL.  Its rows on rxe: a port out of range and a port whose umad
# device serves another (umad_attrs.c's overlay), documented -EINVAL, get
# worse; an unknown CA, documented -ENODEV, which libibumad answers
# -EINVAL through the same branch (a profile entry), now conforms.
ISSM_EINVAL = """	umad_id = dev_to_umad_id(found_ca_name, portnum);
	if (umad_id < 0) {
		result = -EINVAL;
		goto exit;
	}

	snprintf(path, max, "%s/issm%u", RDMA_CDEV_DIR, umad_id);"""
CHANGED = {
    ("WORSE", "umad/get_issm_path/port-out-of-range"):
        "-EINVAL port is not valid (bad portnum or no umad device)",
    ("WORSE", "umad/get_issm_path/port-without-umad-device"):
        "-EINVAL port is not valid (bad portnum or no umad device)",
    ("UPDATE", "umad/get_issm_path/unknown-device"):
        "-ENODEV IB device can't be resolved",
}


def git(repo, *args):
    return subprocess.run(["git", "-C", str(repo), "-c", "user.name=rdmaconf",
                           "-c", "user.email=rdmaconf@example.org", *args],
                          capture_output=True, text=True,
                          check=True).stdout.strip()


def edit(repo, path, old, new):
    f = os.path.join(str(repo), path)
    with open(f) as fh:
        src = fh.read()
    assert src.count(old) == 1, (path, old)
    with open(f, "w") as fh:
        fh.write(src.replace(old, new))


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    """The snapshot as a git repository: snapshot, behaviour, comment on
    the main branch, and a commit that does not build beside them."""
    d = tmp_path_factory.mktemp("gate-rdma-core")
    repo = d / "rdma-core"
    repo.mkdir()
    subprocess.run(["tar", "-xzf", SNAPSHOT, "-C", str(repo),
                    "--strip-components=1"], check=True)
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "the upstream snapshot")
    revs = {"snapshot": git(repo, "rev-parse", "HEAD")}
    edit(repo, "libibumad/umad.c", ISSM_EINVAL,
         ISSM_EINVAL.replace("-EINVAL", "-ENODEV", 1))
    git(repo, "commit", "-q", "-a", "-m", "umad_get_issm_path: -ENODEV "
        "for a port without a umad device")
    revs["behaviour"] = git(repo, "rev-parse", "HEAD")
    edit(repo, "libibumad/umad.c", "return -1;\t\t/* not found */",
         "return -1;\t\t/* no umad device for this port */")
    git(repo, "commit", "-q", "-a", "-m", "libibumad: say what is not found")
    revs["comment"] = git(repo, "rev-parse", "HEAD")
    git(repo, "switch", "-q", "-c", "broken", revs["snapshot"])
    edit(repo, "libibumad/umad.c", "int umad_close_port(int fd)\n{",
         "int umad_close_port(int fd)\n{\n\tthis does not compile;")
    git(repo, "commit", "-q", "-a", "-m", "libibumad: a syntax error")
    revs["broken"] = git(repo, "rev-parse", "HEAD")
    git(repo, "switch", "-q", "main")
    return {"repo": repo, "dir": d, "revs": revs, "cache": d / "cache"}


def gate(tree, *args, out=None):
    """rdmaconf gate ... with the module's own build cache (cold at first)."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("LD_PRELOAD", "RDMACONF_RDMA_CORE")}
    env["RDMACONF_GATE_CACHE"] = str(tree["cache"])
    cmd = [RDMACONF, "gate", *args]
    if out:
        cmd += ["-o", str(out)]
    start = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True, env=env,
                       cwd=str(tree["dir"]), timeout=1200)
    p.seconds = time.monotonic() - start
    return p


def build_of(tree, rev):
    """The build of @rev in the module's cache: its entry is named by the
    first 16 digits of its tree's hash."""
    tree_hash = git(tree["repo"], "rev-parse", rev + "^{tree}")
    return tree["cache"] / tree_hash[:16] / "build"


def listed(stdout):
    """{(mark, id): the sentence it cites} of the gate's table."""
    rows, last = {}, None
    for line in stdout.splitlines():
        word = line.split(" ", 1)[0]
        if word in ("WORSE", "UPDATE", "BETTER", "CHANGED"):
            last = (word, line.split()[1])
            rows[last] = None
        elif line.strip().startswith("cites: ") and last:
            rows[last] = line.strip()[len('cites: "'):-1]
    return rows


def one_line_failure(p, code):
    lines = p.stderr.splitlines()
    causes = [l for l in lines if l.startswith("rdmaconf:")]
    assert p.returncode == code, (p.returncode, p.stderr[-2000:])
    assert len(causes) == 1 and lines[-1] == causes[0], p.stderr


def test_a_behaviour_change_names_exactly_its_rows(tree):
    out = tree["dir"] / "behaviour"
    revs = tree["revs"]
    p = gate(tree, "--rdma-core", str(tree["repo"]), "--base",
             revs["snapshot"], "--head", revs["behaviour"], out=out)
    print("cold gate, both built: %.1f s\n%s%s" % (p.seconds, p.stderr,
                                                     p.stdout))
    assert p.returncode == 1, p.stdout[-3000:] + p.stderr[-2000:]
    assert listed(p.stdout) == CHANGED, p.stdout
    assert "gate: 2 worse, 1 now conform (update the profile), 0 better" \
        in p.stdout, p.stdout
    assert (out / "gate.txt").read_text() == p.stdout
    for f in ("base.json", "head.json", "base-ktap.txt", "head-ktap.txt",
              "base-junit.xml", "head-junit.xml", "index.html",
              "summary.md", "timing.json"):
        assert (out / f).stat().st_size > 0, f
    timing = json.loads((out / "timing.json").read_text())
    for step in ("base_export_s", "base_configure_s", "base_build_s",
                 "head_build_s", "runs_s", "base_run_s", "head_run_s",
                 "gate_s", "total_s"):
        assert step in timing, timing
    # each run tested its own build, from the cache
    for side, rev in (("base", "snapshot"), ("head", "behaviour")):
        with open(out / (side + ".json")) as f:
            host = json.load(f)["host"]
        assert host["libibumad"].startswith(
            str(build_of(tree, revs[rev]) / "lib")), host


def test_a_comment_changes_no_row_and_the_base_is_not_built_again(tree):
    revs = tree["revs"]
    built = build_of(tree, revs["behaviour"])
    # (configure links every provider; only the gate's are built)
    libs = {f: os.stat(f).st_mtime_ns
            for f in glob.glob(str(built / "lib" / "*.so*"))
            if os.path.isfile(f)}
    assert libs, "the behaviour commit was built by the test before"
    out = tree["dir"] / "comment"
    # the head is the checkout's HEAD (the comment), by default; the rows
    # of the library the commits touch (the whole suite's gate is the
    # test above)
    p = gate(tree, "--rdma-core", str(tree["repo"]), "--base",
             revs["behaviour"], "--filter", "umad/*", out=out)
    print("gate with the base cached: %.1f s\n%s%s" % (p.seconds, p.stderr,
                                                         p.stdout))
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-2000:]
    assert listed(p.stdout) == {}, p.stdout
    assert "gate: 0 worse, 0 now conform (update the profile), 0 better" \
        in p.stdout, p.stdout
    base_line = [l for l in p.stderr.splitlines()
                 if l.startswith("gate: base ")]
    assert base_line and "cached, checked in" in base_line[0] and \
        "configured" not in base_line[0], p.stderr
    assert libs == {f: os.stat(f).st_mtime_ns for f in libs}, \
        "the base build was built again"
    timing = json.loads((out / "timing.json").read_text())
    assert "base_configure_s" not in timing and "head_configure_s" in \
        timing, timing


def test_the_verdicts_are_those_of_two_separate_runs(tree):
    """One boot for both runs changes nothing: the verdicts of the gate's
    runs are those of a run --rdma-core of each build on its own (of the
    rows of the library the change touched, the changed ones among
    them)."""
    out = tree["dir"] / "behaviour"
    for side in ("base", "head"):
        with open(out / (side + ".json")) as f:
            gated = json.load(f)
        build = os.path.dirname(os.path.dirname(gated["host"]["libibumad"]))
        alone = tree["dir"] / ("alone-%s.json" % side)
        args = [RDMACONF, "run", "--rdma-core", build, "--filter", "umad/*",
                "--json", str(alone)]
        if not host_has_device():
            args[2:2] = ["--vm", "--two"]
        env = {k: v for k, v in os.environ.items()
               if k not in ("LD_PRELOAD", "RDMACONF_RDMA_CORE")}
        p = subprocess.run(args, capture_output=True, text=True, env=env,
                           timeout=900)
        assert p.returncode in (0, 1), p.stderr[-2000:]
        with open(alone) as f:
            data = json.load(f)

        def verdicts(d):
            return {r["id"]: (r["verdict"]["system"],
                              r["verdict"]["reference"], r["ok"])
                    for r in d["results"]}
        b = verdicts(data)
        a = {i: v for i, v in verdicts(gated).items() if i in b}
        assert {i for (_, i) in CHANGED} <= set(b), sorted(b)
        assert a == b, (side, {i: (a.get(i), b.get(i)) for i in set(a) | set(b)
                               if a.get(i) != b.get(i)})


def test_two_builds_given_directly(tree):
    """--builds: the same gate over two build trees given as they are."""
    revs = tree["revs"]
    builds = [str(build_of(tree, revs[r])) for r in ("snapshot",
                                                     "behaviour")]
    p = gate(tree, "--builds", *builds, "--filter", "umad/get_issm_path/*",
             out=tree["dir"] / "builds")
    assert p.returncode == 1, p.stdout[-3000:] + p.stderr[-2000:]
    assert listed(p.stdout) == CHANGED, p.stdout


def test_what_cannot_be_gated_fails_with_a_line_and_an_exit_of_its_own(
        tree, tmp_path):
    repo, revs = str(tree["repo"]), tree["revs"]
    # a revision that does not exist
    one_line_failure(gate(tree, "--rdma-core", repo, "--base", "no-such-rev"),
                     84)
    # a tree that is not rdma-core: not git, or git of something else
    plain = tmp_path / "plain"
    plain.mkdir()
    one_line_failure(gate(tree, "--rdma-core", str(plain), "--base", "HEAD"),
                     83)
    other = tmp_path / "other"
    other.mkdir()
    (other / "README").write_text("not rdma-core\n")
    git(other, "init", "-q")
    git(other, "add", "README")
    git(other, "commit", "-q", "-m", "other")
    git(other, "commit", "-q", "--allow-empty", "-m", "more")
    one_line_failure(gate(tree, "--rdma-core", str(other), "--base",
                          "HEAD~1"), 83)
    # no --base, and a branch without an upstream
    one_line_failure(gate(tree, "--rdma-core", repo), 85)
    # a build tree that is none
    one_line_failure(gate(tree, "--builds", str(plain), str(plain)), 83)
    # a revision that does not build: no run, one line naming it
    p = gate(tree, "--rdma-core", repo, "--base", revs["snapshot"],
             "--head", revs["broken"], out=tmp_path / "broken")
    one_line_failure(p, 78)
    assert "head %s does not build" % revs["broken"][:12] in p.stderr and \
        "umad.c" in p.stderr, p.stderr
    assert not (tmp_path / "broken" / "head.json").exists()

