#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""
The host + guest pairs of tests/data/hostguest read together (`-i HOST -i GUEST`): each line
names its machine, the merged listing is in time order, every guest event is at the host time
its file's TimeShift samples give (computed here from `trace-cmd dump --options` and the raw
guest timestamps, as trace-cmd interpolates them), the guest's markers fall inside the host's
recording, and --profile and hist give each machine its own table, the same as for that file
alone. The report forms the folder keeps no output of are compared with trace-cmd's.

`ktrace sql` of the pair has the guest's tables as m1_* with the same times. And `export
--perfetto` of the pair: one trace where each file is a machine (TracePacket
machine_id, absent for the host), with that file's events at the same times as in the listing.

usage: check_hostguest.py KTRACE HOSTGUEST_DIR PERFETTO_PROTO
"""
import csv
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

KTRACE, DATA, PROTO = os.path.abspath(sys.argv[1]), sys.argv[2], os.path.abspath(sys.argv[3])
FAILURES = []
EVENT = re.compile(r"^\s*(\S+):\s+.*?\[(\d+)\]\s*(\d+)(?:\.(\d+))?: (\w+):\s*(.*)$")
ALONE = re.compile(r"^\s*.*?\[(\d+)\]\s*(\d+)(?:\.(\d+))?: (\w+):\s*(.*)$")
SAMPLE = re.compile(r"^\t(-?\d+) (-?\d+) (\d+) (\d+)\[offset \* scaling >> fraction @ time\]$")


def fail(case, msg):
    FAILURES.append(f"{case}: {msg}")
    print(f"FAIL {case}: {msg}")


def run(args):
    p = subprocess.run(args, capture_output=True, text=True, cwd=DATA,
                       env={"PATH": os.environ["PATH"], "LC_ALL": "C"})
    if p.returncode:
        raise RuntimeError(f"{' '.join(args)}: status {p.returncode}: {p.stderr[:300]}")
    return p.stdout


def ns(sec, frac):
    return int(sec) * 10**9 + int((frac or "0").ljust(9, "0")) if frac is not None else int(sec)


def samples(guest):
    """Per CPU, the TimeShift samples (time, offset, scaling, fraction) as trace-cmd dumps."""
    text = run(["trace-cmd", "dump", "--options", "-i", guest])
    counts = [int(m) for m in re.findall(r"^(\d+) \[samples count for CPU \d+\]$", text, re.M)]
    flat = [SAMPLE.match(l) for l in text.splitlines()]
    flat = [(int(m[4]), int(m[1]), int(m[2]), int(m[3])) for m in flat if m]
    cpus, at = [], 0
    for c in counts:
        seen, mine = set(), []
        for s in sorted(flat[at:at + c]):
            if s[0] not in seen:
                seen.add(s[0])
                mine.append(s)
        cpus.append(mine)
        at += c
    return cpus


def cdiv(a, b):
    """C's integer division (towards zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def wrap64(v):
    v &= (1 << 64) - 1
    return v - (1 << 64) if v >> 63 else v


def host_time(cpus, cpu, ts):
    s = cpus[cpu] if cpu < len(cpus) else []
    if not s:
        return ts
    if len(s) == 1:
        return ts + s[0][1]
    i = 0
    if len(s) > 2 and ts > s[0][0]:
        i = len(s) - 2
        while i > 0 and s[i][0] > ts:
            i -= 1
    lo, hi = s[i], s[i + 1]
    delta = hi[0] - lo[0]
    # in 64-bit signed arithmetic, as trace-cmd computes it: the product wraps past ~9.2e18
    # (a minute between samples and a 0.1 s change of offset is enough)
    off = lo[1] + (cdiv(wrap64(wrap64((ts - lo[0]) * (hi[1] - lo[1])) + delta // 2), delta)
                   if delta else 0)
    return ((ts * lo[2]) >> lo[3]) + off


def pairs():
    seen = []
    with open(os.path.join(DATA, "MANIFEST.tsv"), newline="") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            dats = row["dat"].split()
            if len(dats) == 2 and (row["case"], *dats) not in seen:
                seen.append((row["case"], *dats))
    return seen


def check_listing(case, host, guest):
    merged = run([KTRACE, "report", "-t", "-i", host, "-i", guest]).splitlines()
    lines = [EVENT.match(l) for l in merged[2:]]
    if not all(lines):
        fail(case, f"a merged line names no machine: {merged[2 + lines.index(None)]!r}")
        return
    names = [m[1] for m in lines]
    if set(names) != {host, guest}:
        fail(case, f"machines in the listing: {sorted(set(names))}")
    times = [ns(m[3], m[4]) for m in lines]
    if any(b < a for a, b in zip(times, times[1:])):
        fail(case, "the merged listing is not in time order")
    by = {n: [(int(m[2]), ns(m[3], m[4]), m[5], m[6]) for m in lines if m[1] == n]
          for n in (host, guest)}
    for name in (host, guest):
        alone = [ALONE.match(l) for l in run([KTRACE, "report", "-t", "-i", name]).splitlines()[1:]]
        alone = [(int(m[1]), ns(m[2], m[3]), m[4], m[5]) for m in alone if m]
        if alone != by[name]:
            fail(case, f"{name}: its events in the merged listing differ from its own listing")
    raw = [ALONE.match(l) for l in run([KTRACE, "report", "--raw-ts", "-i", guest]).splitlines()]
    raw = [(int(m[1]), int(m[2])) for m in raw if m]
    cpus = samples(guest)
    # by CPU: a CPU's events keep their order, the CPUs' offsets differ
    bad, total = [], 0
    for cpu in sorted({c for c, _ in raw}):
        want = [host_time(cpus, cpu, ts) for c, ts in raw if c == cpu]
        got = [e[1] for e in by[guest] if e[0] == cpu]
        total += len(got)
        if len(want) != len(got):
            bad.append((cpu, f"{len(want)} raw events, {len(got)} listed"))
        bad += [(cpu, f"expected {w}, listed {g}") for w, g in zip(want, got) if w != g]
    if bad:
        fail(case, f"{len(bad)} guest events not at raw + TimeShift (first: cpu {bad[0][0]}: "
             f"{bad[0][1]})")
    raw = sorted(raw, key=lambda r: host_time(cpus, *r))
    got = [e[1] for e in by[guest]]
    shift = sum(g - r[1] for g, r in zip(got, raw)) / max(len(got), 1) / 1e9
    marks = [e[1] for e in by[guest] if e[2] == "print"]
    first, last = by[host][0][1], by[host][-1][1]
    if not marks or not all(first <= t <= last for t in marks):
        fail(case, f"{len(marks)} guest markers, not all inside the host's recording")
    else:
        print(f"ok {case}: {len(by[host])} host + {len(by[guest])} guest events in time "
              f"order, guest shifted by {shift:.3f} s on average, {len(marks)} markers")


def check_forms(case, host, guest):
    """The report forms the folder does not keep, against the installed trace-cmd 3.1.6."""
    for form in ([], ["-t"], ["-R"], ["-l"], ["-N"], ["--cpu", "1"]):
        args = ["report", *form, "-i", host, "-i", guest]
        if run([KTRACE, *args]) != run(["trace-cmd", *args]):
            fail(case, f"ktrace {' '.join(args)} differs from trace-cmd's")
            return
    print(f"ok {case}: report, -t, -R, -l, -N, --cpu 1 of the pair as trace-cmd prints them")


def check_tables(case, host, guest):
    """--profile and hist event: one table per machine, as for that file alone."""
    alone = {}
    for name in (host, guest):
        text = run([KTRACE, "report", "-t", "-i", name])
        if " sched_switch:" not in text:
            print(f"   {case}: {name} has no sched_switch: no --profile/hist check")
            return
    for name in (host, guest):
        alone[name] = (run([KTRACE, "report", "--profile", "-i", name]),
                       run([KTRACE, "hist", "event", "sched_switch", "--key", "next_comm", "-i",
                            name]))
    both = run([KTRACE, "report", "--profile", "-i", host, "-i", guest])
    if both != alone[host][0] + "\n" + alone[guest][0]:
        fail(case, "--profile of the pair is not each file's own table in turn")
    hist = run([KTRACE, "hist", "event", "sched_switch", "--key", "next_comm", "-i", host, "-i",
                guest])
    want = "\n".join(f"# file {n}\n{alone[n][1]}" for n in (host, guest))
    docs, dec, text = [], json.JSONDecoder(), run([KTRACE, "report", "--profile", "--format",
                                                   "json", "-i", host, "-i", guest])
    at = 0
    while at < len(text):
        doc, at = dec.raw_decode(text, at)
        docs.append(doc.get("file"))
        at += len(text[at:]) - len(text[at:].lstrip())
    if docs != [host, guest]:
        fail(case, f"--profile --format json of the pair: documents of {docs}")
    if hist != want:
        fail(case, "hist event of the pair is not each file's own histogram in turn")
    else:
        print(f"ok {case}: --profile and hist event: one table per machine")


def perfetto_events(path):
    """(machine, cpu, timestamp) of every ftrace event of a Perfetto trace, via protoc."""
    with open(path, "rb") as f:
        p = subprocess.run(["protoc", "--proto_path", os.path.dirname(PROTO),
                            "--decode", "perfetto.protos.Trace", os.path.basename(PROTO)],
                           stdin=f, capture_output=True)
    if p.returncode:
        raise RuntimeError(f"protoc --decode: {p.stderr.decode()[:300]}")
    # protoc prints fields by number: a packet's machine_id (98) after its events (1)
    out, packet, machine, cpu, depth = [], [], 0, 0, 0
    for line in p.stdout.decode("latin-1").splitlines():
        line = line.strip()
        if line.endswith("{"):
            depth += 1
        elif line == "}":
            depth -= 1
            if depth == 0:
                out += [(machine, c, t) for c, t in packet]
                packet, machine, cpu = [], 0, 0
        elif line.startswith("machine_id: ") and depth == 1:
            machine = int(line.split()[1])
        elif line.startswith("cpu: ") and depth == 2:
            cpu = int(line.split()[1])
        elif line.startswith("timestamp: ") and depth == 3:
            packet.append((cpu, int(line.split()[1])))
    return out


def check_perfetto(case, host, guest, tmp):
    path = os.path.join(tmp, f"{case}.pftrace")
    run([KTRACE, "export", "--perfetto", path, "-i", host, "-i", guest])
    got = perfetto_events(path)
    for machine, name in enumerate((host, guest)):
        text = run([KTRACE, "report", "-t", "-i", name]).splitlines()[1:]
        want = sorted((int(m[1]), ns(m[2], m[3])) for m in map(ALONE.match, text) if m)
        mine = sorted((c, t) for mc, c, t in got if mc == machine)
        if mine != want:
            fail(case, f"perfetto machine {machine} ({name}): {len(mine)} events, "
                 f"{len(want)} in the file, or at other times")
            return
    if {m for m, _, _ in got} != {0, 1}:
        fail(case, f"perfetto machines {sorted({m for m, _, _ in got})}, expected 0 and 1")
    else:
        print(f"ok {case}: export --perfetto: host and guest as machines 0 and 1, "
              f"{len(got)} events at the listing's times")


def check_sql(case, host, guest):
    """ktrace sql of the pair: the guest's tables as m1_*, its ts on the host's clock."""
    q = ("SELECT (SELECT count(*) FROM events), (SELECT count(*) FROM m1_events), "
         "(SELECT group_concat(file, ',') FROM machines)")
    counts = run([KTRACE, "sql", "--format", "csv", "-i", host, "-i", guest, q]).splitlines()
    want = [len([l for l in run([KTRACE, "report", "-i", n]).splitlines()[1:] if ALONE.match(l)])
            for n in (host, guest)]
    if counts[1:] != [f'{want[0]},{want[1]},"{host},{guest}"']:
        fail(case, f"sql: events / m1_events / machines {counts[1:]}, expected {want}")
        return
    sql_ts = run([KTRACE, "sql", "--format", "csv", "-i", host, "-i", guest,
                  "SELECT ts FROM m1_events ORDER BY ts"]).splitlines()[1:]
    text = run([KTRACE, "report", "-t", "-i", guest]).splitlines()[1:]
    listed = sorted(ns(m[2], m[3]) for m in map(ALONE.match, text) if m)
    if [int(t) for t in sql_ts] != listed:
        fail(case, "sql: m1_events.ts are not the guest's times in the listing")
    else:
        print(f"ok {case}: sql: events and m1_events, {want[1]} guest rows at host times")


def main():
    if not shutil.which("trace-cmd"):
        print("FAIL: trace-cmd (3.1.6, the test peer) is not installed: scripts/deps installs it")
        return 1
    if not shutil.which("protoc"):
        print("FAIL: protoc is missing: run scripts/deps test (Debian's protobuf-compiler)")
        return 1
    todo = pairs()
    with tempfile.TemporaryDirectory(prefix="ktrace-hostguest.") as tmp:
        for case, host, guest in todo:
            try:
                check_listing(case, host, guest)
                check_forms(case, host, guest)
                check_tables(case, host, guest)
                check_perfetto(case, host, guest, tmp)
                check_sql(case, host, guest)
            except RuntimeError as e:
                fail(case, str(e))
    print(f"{len(todo)} pairs, {len(FAILURES)} failures")
    return 1 if FAILURES or not todo else 0


sys.exit(main())
