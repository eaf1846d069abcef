"""The layout holds: no two files of harness/ call each other, nor any
longer circle of calls, so that each decision has one home and a reader
can follow a call downwards.  Read off the built objects (nm): what
each object uses and which object defines it."""
import collections
import glob
import os
import subprocess

from conftest import RDMACONF


def call_graph(objdir):
    defs, uses = {}, collections.defaultdict(set)
    objects = sorted(glob.glob(os.path.join(objdir, "*.o")))
    # one nm for all (-A: each line names its object): an nm per object
    # cost 3 s of make check, nearly all of it nm starting
    out = subprocess.run(["nm", "-A"] + objects, capture_output=True,
                         text=True, check=True).stdout if objects else ""
    for line in out.splitlines():
        where, _, symbol = line.partition(".o:")
        name = os.path.basename(where)
        parts = symbol.split()
        if len(parts) == 3 and parts[1] in "TDBR":
            defs[parts[2]] = name
        elif len(parts) == 2 and parts[0] == "U":
            uses[name].add(parts[1])
    edges = collections.defaultdict(set)
    for a, syms in uses.items():
        edges[a] |= {defs[s] for s in syms if defs.get(s, a) != a}
    return edges


def cycles(edges):
    found, state = [], {}

    def walk(n, path):
        state[n] = "open"
        for m in sorted(edges[n]):
            if state.get(m) == "open":
                found.append(path[path.index(m):] + [m])
            elif m not in state:
                walk(m, path + [m])
        state[n] = "done"
    for n in sorted(edges):
        if n not in state:
            walk(n, [n])
    return found


def test_no_two_harness_files_call_each_other():
    objdir = os.path.join(os.path.dirname(RDMACONF), "harness")
    edges = call_graph(objdir)
    # calls between files, not just files: a graph read wrong is empty
    assert sum(map(len, edges.values())) > 20, "no calls in %s" % objdir
    assert cycles(edges) == [], "calls that go round: " + "; ".join(
        " -> ".join(c) for c in cycles(edges))
