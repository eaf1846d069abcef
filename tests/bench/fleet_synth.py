"""Synthetic fleets for the fleet's bench and tests: DIR/fleet.json and a
results file per node, every node a copy of one real results file (a host
run, or the umad suite on ibsim) under its own name, partner and device
node GUID, and a few nodes made outliers: cases whose verdicts they have
differently.

    write_fleet(seed, out, n, outliers={index: [case ids]}, ...)

A node's file is the seed's document with three strings replaced, so
that thousands are written in seconds."""
import json
import os

# placeholders, replaced in the seed's text per node
NODE, PARTNER, GUID = "@@node@@", "@@partner@@", "@@guid@@"


def node_name(i, prefix="node"):
    return "%s%04d" % (prefix, i + 1)


def guid_of(i):
    """A device node GUID per node, as ibv_devinfo shows them."""
    return "0002:c903:00%02x:%04x" % (i >> 16 & 0xff, i & 0xffff)


def _template(doc, job):
    doc = json.loads(json.dumps(doc))
    doc.setdefault("host", {})["fleet"] = {"node": NODE, "job": job,
                                           "partner": PARTNER}
    doc.setdefault("device", {})
    if doc["device"] is None:
        doc["device"] = {}
    doc["device"]["node_guid"] = GUID
    return doc


def outlier_doc(doc, cases):
    """@doc with @cases failing on the system side: FAIL, not ok."""
    doc = json.loads(json.dumps(doc))
    for r in doc["results"]:
        if r["id"] in cases:
            r["verdict"]["system"] = "FAIL"
            r["ok"] = False
            r["system_detail"] = "wrong errno: expected EINVAL, got 0"
    return doc


def pick_cases(seed, k, verdict="PASS"):
    """@k case ids of the seed that pass on both sides: the ones to break."""
    with open(seed) as f:
        doc = json.load(f)
    ids = [r["id"] for r in doc["results"]
           if set(r["verdict"].values()) == {verdict}]
    return ids[:k]


def write_fleet(seed, out, n, outliers=None, job="synthetic", prefix="node",
                names=None, status=None, guids=None):
    """A fleet of @n nodes in @out (made if need be).  @outliers: {node
    index: [case ids that fail there]}; @names: the nodes' names (else
    nodeNNNN); @status: {index: exit status or None (died)}; @guids:
    {index: GUID or None}.  Returns the names."""
    outliers = outliers or {}
    status = status or {}
    guids = guids or {}
    with open(seed) as f:
        doc = json.load(f)
    os.makedirs(out, exist_ok=True)
    names = names or [node_name(i, prefix) for i in range(n)]
    plain = json.dumps(_template(doc, job))
    variants = {}
    nodes = []
    for i, name in enumerate(names):
        partner = names[(i + 1) % n]
        if i in outliers:
            key = tuple(sorted(outliers[i]))
            if key not in variants:
                variants[key] = json.dumps(_template(
                    outlier_doc(doc, set(key)), job))
            text = variants[key]
        else:
            text = plain
        g = guids.get(i, guid_of(i))
        text = text.replace(NODE, name).replace(PARTNER, partner)
        text = text.replace('"%s"' % GUID, json.dumps(g))
        with open(os.path.join(out, name + ".json"), "w") as f:
            f.write(text)
        nodes.append({"node": name, "partner": partner,
                      "status": status.get(i, 0),
                      "results": name + ".json"})
    with open(os.path.join(out, "fleet.json"), "w") as f:
        json.dump({"job": job, "target": "host", "elapsed_s": 1.0,
                   "nodes": nodes}, f)
    return names


def measure(cmd, cap_s=None, cap_mb=None):
    """Run @cmd: (exit status, wall seconds, peak RSS in MB) of the
    command itself (/usr/bin/time: a child forked from this process would
    count this process's memory).  Stopped after @cap_s seconds (status
    None), or refused memory beyond @cap_mb (RLIMIT_AS)."""
    import resource
    import signal
    import subprocess
    import tempfile
    import time

    def limit():
        if cap_mb:
            resource.setrlimit(resource.RLIMIT_AS,
                               (cap_mb << 20, cap_mb << 20))

    with tempfile.NamedTemporaryFile("r") as out:
        t = time.monotonic()
        p = subprocess.Popen(["/usr/bin/time", "-f", "%M", "-o", out.name,
                              *cmd], stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, preexec_fn=limit,
                             start_new_session=True)
        try:
            status = p.wait(timeout=cap_s)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
            status = None
        secs = time.monotonic() - t
        lines = out.read().split()
    # /usr/bin/time prints "Command exited with non-zero status N" first
    rss = int(lines[-1]) / 1024 if lines and lines[-1].isdigit() else None
    return status, secs, rss
