"""Every list outside the C code says what the binary's tables say
(`rdmaconf __vocab`): the bash completion, the man page, and ci/fleet's
share of the command line.  A word added to a table and not to these, or
the other way round, fails here."""
import os
import re
import subprocess

from conftest import RDMACONF, ROOT, vocab

MAN = os.path.join(ROOT, "man", "rdmaconf.1")


def complete(*words):
    """What completion/rdmaconf offers after @words (the last is the word
    being completed)."""
    script = os.path.join(ROOT, "completion", "rdmaconf")
    cmd = ("source %s; COMP_WORDS=(%s); COMP_CWORD=%d; _rdmaconf; "
           "printf '%%s\\n' \"${COMPREPLY[@]}\"" % (
               script, " ".join("'%s'" % w for w in (RDMACONF,) + words),
               len(words)))
    return subprocess.run(["bash", "-c", cmd], capture_output=True,
                          text=True).stdout.split()


def test_completion_offers_every_command_and_option_of_the_tables():
    v = vocab()
    assert set(complete("")) == {c["name"] for c in v["commands"]} | \
        {"--help", "--version"}
    for c in v["commands"]:
        assert sorted(complete(c["name"], "--")) == sorted(c["options"]), c
    for o in v["options"]:
        offered = complete("run", o["name"], "")
        if not o["value"]:
            continue
        words = (o["complete"] or "").split()
        if "@targets" in words:
            assert set(offered) == {t["name"] for t in v["targets"]}, o
        elif "@impls" in words:
            assert set(offered) == {i["name"] for i in
                                    v["implementations"]} | {"both"}, o
        elif not any(w.startswith("@") for w in words):
            assert set(offered) == set(words), o


def test_completion_of_case_ids_and_lists():
    assert sorted(complete("r")) == ["report", "run"]
    # in the order of the tables, which the link order makes: compared
    # as sets, so that every build (coverage, -O0, sanitizers) agrees
    ids = complete("run", "--filter", "umad/size/")
    assert sorted(ids) == ["umad/size/after-open-port",
                           "umad/size/header-size"]
    assert complete("run", "--filter", "verbs/*,umad/size/h") == \
        ["verbs/*,umad/size/header-size"]


def rendered_man():
    out = subprocess.run(["groff", "-man", "-Tutf8", "-rLL=3000n", "-rHY=0",
                          MAN], capture_output=True, check=True).stdout
    text = re.sub(r".\x08", "", out.decode("utf-8", "replace"))
    text = text.replace("\u2010", "-").replace("\u2212", "-")
    sections, name = {}, None
    for line in text.splitlines():
        if re.match(r"^[A-Z][A-Z -]+$", line):
            name = line.strip()
            sections[name] = ""
        elif name:
            sections[name] += line + "\n"
    return sections


def test_man_page_names_every_word_of_the_tables():
    v, man = vocab(), rendered_man()
    missing = []

    def need(section, word):
        if not re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(word),
                         man.get(section, "")):
            missing.append("%s: %s" % (section, word))
    for d in v["verdicts"]:
        need("VERDICTS", d["name"])
    for b in v["bases"]:
        need("BASIS", b["name"])
    for k in v["entry_kinds"]:
        need("EXPECTATION PROFILES", k["name"])
    for k in v["fail_kinds"]:
        need("EXPECTATION PROFILES", ":" + k["qualifier"])
    for e in v["exits"]:
        need("EXIT STATUS", str(e["code"]))
    for t in v["targets"]:
        need("OPTIONS", t["name"])
        need("NEEDS", t["name"])
    for n in v["needs"]:
        need("NEEDS", n["name"])
    # each command's options where its section documents it
    where = {"list": ("OPTIONS", "SYNOPSIS"), "run": ("OPTIONS", "SYNOPSIS"),
             "fleet": ("FLEET",), "report": ("REPORT AND GATE",),
             "gate": ("REPORT AND GATE",)}
    for c in v["commands"]:
        for o in c["options"]:
            if o == "--help":
                continue
            if not any(re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(o),
                                 man.get(s, "")) for s in where[c["name"]]):
                missing.append("%s: %s" % (c["name"], o))
    assert not missing, "in the tables, not in rdmaconf(1): " + \
        ", ".join(missing)
    # and no option the man page gives that the tables lack (but the
    # peer's own section: rdmaconf-peer is another program)
    known = {o["name"] for o in v["options"]}
    text = "".join(t for s, t in man.items() if s != "RDMACONF-PEER")
    stray = set(re.findall(r"(?<![\w-])--[a-z][a-z0-9-]+", text)) - known
    assert not stray, "in rdmaconf(1), not in the tables: %s" % stray


def script_options(name):
    """The options a script of ci/ parses: the long words of its case
    arms (a tab, then the patterns)."""
    src = open(os.path.join(ROOT, "ci", name)).read()
    arms = set()
    for pat in re.findall(r"^\t(-[-\w|]+)\)", src, re.M):
        arms |= {w for w in pat.split("|") if w.startswith("--")}
    return arms - {"--"}


def command_options(name):
    return set(next(c for c in vocab()["commands"]
                    if c["name"] == name)["options"])


def test_ci_fleet_takes_exactly_the_fleet_options():
    """ci/fleet parses the fleet's command line itself (bash): its case
    arms must be the table's fleet options."""
    arms, fleet = script_options("fleet"), command_options("fleet")
    assert arms == fleet, arms ^ fleet


def test_ci_gate_rdma_core_takes_the_gate_options_but_the_baseline():
    """ci/gate-rdma-core parses `rdmaconf gate --rdma-core|--builds`
    itself: every gate option of the table but --baseline, which compares
    results files in the binary."""
    arms = script_options("gate-rdma-core")
    gate = command_options("gate") - {"--baseline"}
    assert arms == gate, arms ^ gate
