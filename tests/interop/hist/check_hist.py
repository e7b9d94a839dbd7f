#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""
`ktrace hist` on the reference corpus against an independent computation from `ktrace report
-R -t` text: wakeup latencies (sched_waking/sched_wakeup -> switch-in, per task too), syscall
durations (sys_enter -> sys_exit per thread), function_graph durations (rettime - calltime)
and field value counts must have the same groups with the same count, min, p50, p90, p99 and
max (nearest rank). Then the errors.

usage: check_hist.py KTRACE CORPUS_DIR
"""
import collections
import functools
import glob
import json
import math
import os
import re
import subprocess
import sys

KTRACE, CORPUS = sys.argv[1:3]
FAILURES = []
LINE = re.compile(r"^\s*(.*)-(\d+)\s+\[(\d+)\]\s+(\d+)(?:\.(\d+))?: (\w+):\s+(.*)$")


def fail(case, msg):
    FAILURES.append(f"{case}: {msg}")
    print(f"FAIL {case}: {msg}")


def run(args):
    return subprocess.run(args, capture_output=True, text=True)


@functools.lru_cache(maxsize=1)
def events(dat):
    """(comm, pid, ts, name, {field: value}) of every record, ts an integer (ns or ticks)."""
    p = run([KTRACE, "report", "-R", "-t", "-i", dat])
    if p.returncode:
        raise RuntimeError(f"report -R {dat}: {p.stderr}")
    out = []
    for line in p.stdout.splitlines()[1:]:
        m = LINE.match(line)
        if not m:
            continue
        comm, pid, _, sec, frac, name, rest = m.groups()
        ts = int(sec) * 10 ** len(frac) + int(frac) if frac else int(sec)
        fields = dict(re.findall(r"(\w+)=(\S*)", rest))
        out.append((comm, int(pid), ts, name, fields))
    return out


def wakeups(dat, by_task):
    pending, groups = {}, collections.defaultdict(list)
    for _, _, ts, name, f in events(dat):
        if name in ("sched_waking", "sched_wakeup"):
            pending.setdefault(int(f["pid"]), ts)
        elif name == "sched_switch":
            pending.pop(int(f["prev_pid"]), None)
            nxt = int(f["next_pid"])
            if nxt in pending:
                key = f"{f['next_comm']}-{nxt}" if by_task else "all"
                groups[key].append(ts - pending.pop(nxt))
    return groups


def syscalls(dat):
    pending, groups = {}, collections.defaultdict(list)
    for _, pid, ts, name, f in events(dat):
        m = re.match(r"sys_(enter|exit)_(\w+)$", name)
        if not m:
            continue
        if m.group(1) == "enter":
            pending[pid] = (m.group(2), ts)
        elif pending.get(pid, (None,))[0] == m.group(2):
            groups[m.group(2)].append(ts - pending.pop(pid)[1])
    return groups


def funcgraph(dat):
    groups = collections.defaultdict(list)
    for _, _, _, name, f in events(dat):
        if name == "funcgraph_exit":
            call, ret = int(f["calltime"], 16), int(f["rettime"], 16)
            if ret >= call:
                groups[f["func"]].append(ret - call)
    return groups


def field_counts(dat, event, key):
    groups = collections.defaultdict(list)
    for _, _, _, name, f in events(dat):
        if name == event:
            groups[f[key]].append(0)
    return groups


def rank(values, pct):
    return values[max(math.ceil(len(values) * pct / 100), 1) - 1]


def compare(case, args, expected, counts_only=False):
    p = run([KTRACE, "hist", *args, "--format", "json"])
    if p.returncode:
        fail(case, f"exit {p.returncode}: {p.stderr.strip()}")
        return
    got = {g["name"]: g for g in json.loads(p.stdout)["groups"]}
    if set(got) != set(expected):
        fail(case, f"groups differ: only hist {sorted(set(got) - set(expected))[:5]}, "
                   f"only report {sorted(set(expected) - set(got))[:5]}")
        return
    for name, values in expected.items():
        values.sort()
        want = {"count": len(values)}
        if not counts_only:
            want.update(min=values[0], max=values[-1], p50=rank(values, 50),
                        p90=rank(values, 90), p99=rank(values, 99))
        have = {k: got[name][k] for k in want}
        if have != want:
            fail(case, f"{name}: hist says {have}, report -R gives {want}")
        elif not counts_only and sum(b["count"] for b in got[name]["buckets"]) != len(values):
            fail(case, f"{name}: the buckets do not add up to the count")
    print(f"ok {case}: {len(expected)} groups, {sum(map(len, expected.values()))} values")


def has_event(dat, event):
    """Records of `event` in the file (every file has the formats of ftrace's own events)."""
    return any(name == event for _, _, _, name, _ in events(dat))


def check_errors():
    sched = os.path.join(CORPUS, "sched.dat")
    for args, words in [(["syscall", sched], "raw_syscalls"),
                        (["wakeup", "--format", "xml", sched], "--format 'xml'"),
                        (["wakeup", "--by", "cpu", sched], "--by 'cpu'"),
                        (["syscall", "--by", "task", sched], "--by task"),
                        (["event", "sched_switch", sched], "--key"),
                        (["event", "sched_switch", "--key", "nope", sched], "--key nope"),
                        (["event", "nosuch", "--key", "pid", sched], "nosuch"),
                        (["latency", sched], "'latency'"),
                        (["wakeup", "/no/such.dat"], "/no/such.dat")]:
        p = run([KTRACE, "hist", *args])
        err = p.stderr.strip()
        if p.returncode != 1 or words not in err or len(err.splitlines()) != 1:
            fail("errors", f"hist {' '.join(args)}: exit {p.returncode}, stderr {err!r}")
    print("ok errors")


def main():
    for dat in sorted(glob.glob(os.path.join(CORPUS, "*.dat"))):
        case = os.path.basename(dat)[:-4]
        if has_event(dat, "sched_switch") and (has_event(dat, "sched_wakeup") or
                                               has_event(dat, "sched_waking")):
            compare(case + " wakeup", ["wakeup", "-i", dat], wakeups(dat, False))
            compare(case + " wakeup --by task", ["wakeup", "--by", "task", dat],
                    wakeups(dat, True))
            compare(case + " event", ["event", "sched:sched_switch", "--key", "next_comm", dat],
                    field_counts(dat, "sched_switch", "next_comm"), counts_only=True)
        if any(name.startswith("sys_enter") for _, _, _, name, _ in events(dat)):
            compare(case + " syscall", ["syscall", "-i", dat], syscalls(dat))
        if has_event(dat, "funcgraph_exit"):
            compare(case + " funcgraph", ["funcgraph", "-i", dat], funcgraph(dat))
    check_errors()
    if FAILURES:
        print(f"{len(FAILURES)} failures")
        sys.exit(1)


main()
