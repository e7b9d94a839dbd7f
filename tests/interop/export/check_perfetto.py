#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""
`ktrace export --perfetto` on every file of the reference corpus, decoded with protoc against
perfetto_subset.proto (Perfetto's field numbers), and compared with what `ktrace report` says of
the same file: every record is exported once, sched events and markers are counted as report
counts them, function_graph slices nest and balance per thread, threads are named as report
names them. Then the filters and the errors.

usage: check_perfetto.py KTRACE CORPUS_DIR PROTO
"""
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile

KTRACE, CORPUS, PROTO = sys.argv[1:4]
FAILURES = []


def fail(case, msg):
    FAILURES.append(f"{case}: {msg}")
    print(f"FAIL {case}: {msg}")


def run(args, check=True):
    p = subprocess.run(args, capture_output=True, text=True)
    if check and p.returncode:
        raise RuntimeError(f"{' '.join(args)}: exit {p.returncode}: {p.stderr.strip()}")
    return p


def parse_text(text):
    """protoc's text format as nested lists of (key, value) pairs; a message is a list."""
    root = []
    stack = [root]
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        if line == "}":
            stack.pop()
        elif line.endswith("{"):
            child = []
            stack[-1].append((line[:-1].strip(), child))
            stack.append(child)
        else:
            key, _, value = line.partition(": ")
            if value.startswith('"'):
                value = bytes(value[1:-1], "latin-1").decode("unicode_escape")
            stack[-1].append((key, value))
    return root


def get(msg, key, default=None):
    for k, v in msg:
        if k == key:
            return v
    return default


def all_of(msg, key):
    return [v for k, v in msg if k == key]


def export(dat, out, *extra):
    p = run([KTRACE, "export", "--perfetto", out, "-i", dat, *extra])
    m = re.search(r"(\d+) function exits without their entry", p.stderr)
    return int(m.group(1)) if m else 0


def decode(case, path):
    with open(path, "rb") as f:
        p = subprocess.run(["protoc", "--proto_path", os.path.dirname(PROTO),
                            "--decode=perfetto.protos.Trace", os.path.basename(PROTO)],
                           stdin=f, capture_output=True, text=True)
    if p.returncode:
        fail(case, f"protoc --decode failed: {p.stderr.strip()}")
        return []
    # a field number the subset does not know prints as a bare number
    unknown = re.findall(r"^\s*(\d+)[:{ ]", p.stdout, re.M)
    if unknown:
        fail(case, f"fields unknown to Perfetto's schema: {sorted(set(unknown))}")
    return parse_text(p.stdout)


def report_lines(dat, *extra):
    out = run([KTRACE, "report", *extra, "-i", dat]).stdout.splitlines()
    return [l for l in out[1:] if not re.search(r"EVENTS DROPPED\]$", l)]


def report_records(dat):
    """The records of `ktrace report -R`, counted by event name."""
    names = collections.Counter()
    lines = report_lines(dat, "-R")
    for line in lines:
        m = re.search(r"\[\d+\]\s+[\d.]+:\s+(\S+):", line)
        names[m.group(1) if m else None] += 1
    return len(lines), names


def report_count(dat, event):
    """What `ktrace report -F EVENT` prints, 0 for an event the file has no format of."""
    events = run([KTRACE, "report", "-E", "-i", dat]).stdout.split()
    if not any(e.endswith(":" + event) for e in events):
        return 0
    return len(report_lines(dat, "-F", event))


class Trace:
    """What one exported file holds, by kind."""

    def __init__(self, packets):
        self.events = []            # (cpu, FtraceEvent)
        self.track_events = []      # TrackEvent, in file order
        self.descriptors = []
        self.threads = {}           # ProcessTree tid -> name
        for _, pkt in packets:
            bundle = get(pkt, "ftrace_events")
            if bundle is not None:
                cpu = int(get(bundle, "cpu", "0"))
                self.events += [(cpu, e) for e in all_of(bundle, "event")]
            te = get(pkt, "track_event")
            if te is not None:
                self.track_events.append(te)
            td = get(pkt, "track_descriptor")
            if td is not None:
                self.descriptors.append(td)
            for tree in all_of(pkt, "process_tree"):
                for th in all_of(tree, "threads"):
                    self.threads[int(get(th, "tid"))] = get(th, "name")

    def count(self, kind):
        return sum(1 for _, e in self.events if get(e, kind) is not None)

    def generic(self, name):
        return sum(1 for _, e in self.events
                   if get(get(e, "generic", []), "event_name") == name)


def check_slices(case, tr, names, unmatched):
    depth = collections.Counter()
    begins = ends = 0
    for te in tr.track_events:
        kind, uuid = get(te, "type"), get(te, "track_uuid")
        if kind == "TYPE_SLICE_BEGIN":
            begins += 1
            depth[uuid] += 1
        elif kind == "TYPE_SLICE_END":
            ends += 1
            depth[uuid] -= 1
            if depth[uuid] < 0:
                fail(case, f"a slice ends on track {uuid} with none open")
    want_b, want_e = names["funcgraph_entry"], names["funcgraph_exit"]
    if begins != want_b:
        fail(case, f"{begins} slice begins, report has {want_b} funcgraph_entry")
    # an exit without its entry is left out; an entry whose exit was lost is closed by the
    # exit of its caller, so ends may exceed the exits kept
    if ends + unmatched < want_e or ends > begins:
        fail(case, f"{ends} slice ends (+{unmatched} left out) for {want_e} funcgraph_exit")
    if case in ("fgraph_depth", "fgraph_open", "lost_graph") and begins != ends:
        fail(case, f"{begins} slice begins but {ends} ends")
    return begins + ends


def check_names(case, tr, dat):
    """Every task report shows is named in the ProcessTree, with a comm report gave it."""
    comms = collections.defaultdict(set)
    for line in report_lines(dat):
        m = re.match(r"^(?:\S+: )?\s*(.*?)-(\d+)\s+\[\d+\]", line)
        if m:
            comms[int(m.group(2))].add(m.group(1))
    for pid, names in comms.items():
        if pid == 0 or names == {"<...>"}:
            continue
        if pid not in tr.threads:
            fail(case, f"thread {pid} ({sorted(names)}) has no name in the ProcessTree")
        elif tr.threads[pid] not in names:
            fail(case, f"thread {pid} named {tr.threads[pid]!r}, report says {sorted(names)}")
    for td in tr.descriptors:
        th = get(td, "thread", [])
        if not get(th, "thread_name") or get(th, "pid") != get(th, "tid"):
            fail(case, f"thread track without a name or with pid != tid: {td}")


def check_case(case, dat, tmp):
    out = os.path.join(tmp, case + ".pftrace")
    unmatched = export(dat, out)
    tr = Trace(decode(case, out))
    want = report_count(dat, "sched_switch")
    if tr.count("sched_switch") != want:
        fail(case, f"{tr.count('sched_switch')} sched_switch events, report -F has {want}")
    total, names = report_records(dat)
    for kind in ("sched_switch", "sched_wakeup", "sched_waking", "sched_wakeup_new", "print"):
        if tr.count(kind) != names[kind]:
            fail(case, f"{tr.count(kind)} {kind} events, report -R has {names[kind]}")
    slices = check_slices(case, tr, names, unmatched)
    instants = sum(1 for te in tr.track_events if get(te, "type") == "TYPE_INSTANT")
    if instants != tr.count("print"):
        fail(case, f"{instants} instants for {tr.count('print')} markers")
    if len(tr.events) + slices + unmatched != total:
        fail(case, f"{len(tr.events)} events + {slices} slice ends + {unmatched} left out, "
             f"report -R has {total} records")
    check_names(case, tr, dat)
    if case == "sched" and not tr.threads:
        fail(case, "no ProcessTree threads")
    return tr


def check_filters(tmp):
    dat = os.path.join(CORPUS, "sched.dat")
    out = os.path.join(tmp, "filtered.pftrace")
    export(dat, out, "-F", "sched_switch: prev_pid != 0")
    tr = Trace(decode("filter -F", out))
    want = len(report_lines(dat, "-F", "sched_switch: prev_pid != 0"))
    if len(tr.events) != want or tr.count("sched_switch") != want:
        fail("filter -F", f"{len(tr.events)} events, report has {want} sched_switch")
    export(dat, out, "--cpu", "1")
    tr = Trace(decode("filter --cpu", out))
    want = len(report_lines(dat, "--cpu", "1"))
    if len(tr.events) != want or {cpu for cpu, _ in tr.events} != {1}:
        fail("filter --cpu", f"{len(tr.events)} events on CPUs "
             f"{sorted({c for c, _ in tr.events})}, report --cpu 1 has {want}")


def check_errors(tmp):
    out = os.path.join(tmp, "error.pftrace")
    dat = os.path.join(CORPUS, "sched.dat")
    cases = [
        ("no format", [KTRACE, "export", "-i", dat], "--perfetto"),
        ("no input", [KTRACE, "export", "--perfetto", out, "-i", "/nonexistent.dat"],
         "/nonexistent.dat"),
        ("bad filter", [KTRACE, "export", "--perfetto", out, "-i", dat, "-F", "a || b"],
         "-F 'a || b'"),
        ("bad cpu list", [KTRACE, "export", "--perfetto", out, "-i", dat, "--cpu", "x"],
         "--cpu"),
        ("unwritable", [KTRACE, "export", "--perfetto", "/nonexistent/x.pftrace", "-i", dat],
         "/nonexistent/x.pftrace"),
    ]
    for name, args, word in cases:
        p = run(args, check=False)
        err = p.stderr.strip()
        if p.returncode != 1 or word not in err or len(err.splitlines()) != 1:
            fail(name, f"exit {p.returncode}, stderr {err!r}: want 1 and one line naming {word}")
        if os.path.exists(out):
            fail(name, f"{out} left behind")
            os.unlink(out)


def main():
    if not shutil.which("protoc"):
        print("protoc is missing: run scripts/deps test (Debian's protobuf-compiler)")
        return 1
    cases = sorted(f[:-4] for f in os.listdir(CORPUS) if f.endswith(".dat"))
    with tempfile.TemporaryDirectory() as tmp:
        for case in cases:
            check_case(case, os.path.join(CORPUS, case + ".dat"), tmp)
        check_filters(tmp)
        check_errors(tmp)
    print(f"{len(cases)} corpus files, {len(FAILURES)} failures")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
