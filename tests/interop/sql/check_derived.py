#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""
The derived tables of `ktrace sql` on the reference corpus against ktrace's own figures:
syscall against `ktrace hist syscall`, wakeup against `hist wakeup` (all, and --by task),
fgraph_call against `hist funcgraph`, thread_state against `report --profile`, irq, softirq,
lost_events and the per-CPU event counts against `ktrace report`'s text; and the example
questions of the man page (examples.sql) run and give those figures.

usage: check_derived.py KTRACE CORPUS_DIR EXAMPLES_SQL [KPROBE_DAT]
"""
import collections
import json
import os
import re
import subprocess
import sys

KTRACE, CORPUS, EXAMPLES = sys.argv[1:4]
FAILURES = []
CHECKED = collections.Counter()


def fail(case, msg):
    FAILURES.append(f"{case}: {msg}")
    print(f"FAIL {case}: {msg}")


def run(args):
    p = subprocess.run(args, capture_output=True, text=True, errors="surrogateescape")
    if p.returncode:
        raise RuntimeError(f"{' '.join(args)}: status {p.returncode}: {p.stderr.strip()}")
    return p.stdout


def sql(dat, query):
    out = run([KTRACE, "sql", "-i", dat, "--format", "json", query])
    return [json.loads(line) for line in out.splitlines()]


def examples():
    """NAME -> query text, from examples.sql"""
    found, name = {}, None
    for line in open(EXAMPLES):
        m = re.match(r"^-- (\w+): ", line)
        if m:
            name = m.group(1)
            found[name] = ""
        elif name and not line.startswith("--"):
            found[name] += line
    return found


def hist(dat, what, *extra):
    out = run([KTRACE, "hist", what, "--format", "json", *extra, "-i", dat])
    return {g["name"]: g for g in json.loads(out)["groups"]}


def percentile(values, pct):
    rank = (len(values) * pct + 99) // 100
    return values[rank - 1 if rank else 0]


def stats(values):
    values = sorted(values)
    return {"count": len(values), "min": values[0], "p50": percentile(values, 50),
            "p90": percentile(values, 90), "p99": percentile(values, 99), "max": values[-1]}


def same_groups(case, what, got, want):
    want = {k: {s: g[s] for s in ("count", "min", "p50", "p90", "p99", "max")}
            for k, g in want.items()}
    if got != want:
        keys = sorted(set(got) | set(want))
        diff = [k for k in keys if got.get(k) != want.get(k)][:3]
        fail(case, f"{what}: {[(k, got.get(k), want.get(k)) for k in diff]} (sql, hist)")
    CHECKED[what] += 1


def check_syscall(case, dat, ex):
    rows = sql(dat, "SELECT name, dur FROM syscall WHERE dur IS NOT NULL")
    if not rows:
        return
    by = collections.defaultdict(list)
    for r in rows:
        by[r["name"]].append(r["dur"])
    same_groups(case, "syscall", {k: stats(v) for k, v in by.items()}, hist(dat, "syscall"))
    h = hist(dat, "syscall")
    got = {r["name"]: (r["count"], r["min"], r["p50"], r["p99"], r["max"])
           for r in sql(dat, ex["syscall_p99"])}
    want = {k: (g["count"], g["min"], g["p50"], g["p99"], g["max"]) for k, g in h.items()}
    if got != want:
        fail(case, f"example syscall_p99: {got} != hist {want}")
    CHECKED["example syscall_p99"] += 1
    # one row per entry line of the text report
    text = run([KTRACE, "report", "-i", dat])
    enters = len(re.findall(r" sys_enter(_\w+)?: ", text))
    n = sql(dat, "SELECT count(*) AS n FROM syscall")[0]["n"]
    if n != enters:
        fail(case, f"syscall: {n} rows, report has {enters} sys_enter lines")


def check_wakeup(case, dat, ex):
    rows = sql(dat, "SELECT pid, comm, latency FROM wakeup")
    if not rows:
        return
    same_groups(case, "wakeup", {"all": stats([r["latency"] for r in rows])},
                hist(dat, "wakeup"))
    # --by task names a group comm-pid with the comm at switch-in: compare per pid
    want = collections.Counter()
    for name, g in hist(dat, "wakeup", "--by", "task").items():
        want[int(name.rsplit("-", 1)[1])] += g["count"]
    got = collections.Counter(r["pid"] for r in rows)
    if got != want:
        fail(case, f"wakeup per task: {dict(got)} != hist {dict(want)}")
    per_comm = collections.defaultdict(list)
    for r in rows:
        per_comm[r["comm"]].append(r["latency"])
    got = {r["comm"]: (r["wakeups"], r["max"]) for r in sql(dat, ex["wakeup_per_comm"])}
    want = {c: (len(v), max(v)) for c, v in per_comm.items()}
    if got != want:
        fail(case, f"example wakeup_per_comm: {got} != {want}")
    CHECKED["example wakeup_per_comm"] += 1


def check_fgraph(case, dat, ex):
    rows = sql(dat, "SELECT id, parent_id, func, depth, dur FROM fgraph_call")
    if not rows:
        return
    by = collections.defaultdict(list)
    for r in rows:
        by[r["func"]].append(r["dur"])
    same_groups(case, "fgraph_call", {k: stats(v) for k, v in by.items()},
                hist(dat, "funcgraph"))
    ids = {r["id"]: r for r in rows}
    for r in rows:
        p = ids.get(r["parent_id"])
        if r["parent_id"] is not None and p and p["depth"] >= r["depth"]:
            fail(case, f"fgraph_call {r}: parent {p} is not shallower")
            break
    longest = sql(dat, ex["longest_calls"])
    func = longest[0]["func"]
    want = sorted(by[func], reverse=True)[:5]
    if [r["dur"] for r in longest] != want:
        fail(case, f"example longest_calls: {longest} != the {func} durations {want}")
    CHECKED["example longest_calls"] += 1


PROFILE_ROW = re.compile(r"^(\S+)-(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)"
                         r"\s+([\d.]+)\s+(\d+)")


def check_thread_state(case, dat, ex):
    """RUNNING per task (ms) and RUNS against report --profile, for the tasks whose first
    change the file shows is a switch-in or a wakeup (before a first switch-out, profile
    counts the time from the file's start, which thread_state cannot know) and that never
    leave a CPU without a switch-in after their wakeup or run beside another task's scheduler
    event on their CPU (profile infers the switches the kernel did not record; thread_state
    shows what the file has). A file whose clock is not
    in ns (profile prints no ms) is left out: the example's ms are ns / 1e6."""
    if not sql(dat, "SELECT 1 AS x FROM sched_switch LIMIT 1") if "sched_switch" in \
       tables(dat) else True:
        return
    text = run([KTRACE, "report", "--profile", "-i", dat])
    profile = {}
    for line in text.splitlines():
        m = PROFILE_ROW.match(line)
        if m:
            profile[int(m.group(2))] = (m.group(3), int(m.group(9)))
    first = {r["pid"]: r["state"] for r in sql(
        dat, "SELECT pid, CASE WHEN waker_pid IS NULL THEN state ELSE 'woken' END AS state "
        "FROM (SELECT *, row_number() OVER (PARTITION BY pid ORDER BY ts) AS k "
        "FROM thread_state) WHERE k = 1")}
    unrecorded = {r["pid"] for r in sql(
        dat, "SELECT pid FROM (SELECT pid, state, waker_pid, lag(state) OVER (PARTITION BY pid "
        "ORDER BY ts) AS before FROM thread_state) WHERE waker_pid IS NULL AND "
        "state <> 'running' AND before <> 'running'")}
    # a scheduler event (not a switch) of another task on the CPU of a running task: the
    # kernel left out the switch between them, which profile infers there and then
    for r in sql(dat, "SELECT DISTINCT s.pid AS a, e.pid AS b FROM thread_state s JOIN events e "
                 "ON e.cpu = s.cpu AND e.ts > s.ts AND (s.dur IS NULL OR e.ts < s.ts + s.dur) "
                 "WHERE s.state = 'running' AND e.system = 'sched' AND "
                 "e.name <> 'sched_switch' AND e.pid <> s.pid"):
        unrecorded |= {r["a"], r["b"]}
    if not re.search(r"^Times in ms", text, re.M) or \
       not re.search(r"\d\.\d{3} ms from", text):
        return
    top = {r["pid"]: (f"{r['cpu_ms']:.3f}", r["runs"]) for r in sql(
        dat, ex["top_tasks"].replace("LIMIT 10", ""))}
    compared = 0
    for pid, (ms, runs) in top.items():
        if first.get(pid) in ("running", "woken") and pid not in unrecorded:
            compared += 1
            if profile.get(pid) != (ms, runs):
                fail(case, f"example top_tasks: pid {pid} ran {ms} ms in {runs} runs, "
                     f"profile {profile.get(pid)}")
    if compared:
        CHECKED["example top_tasks"] += 1
        CHECKED["top_tasks tasks compared"] += compared


def tables(dat):
    p = subprocess.run([KTRACE, "sql", "-i", dat, "SELECT * FROM no_such_table"],
                       capture_output=True, text=True)
    return re.search(r"\(the tables: (.*)\)$", p.stderr.strip()).group(1).split()


def check_text_counts(case, dat, ex):
    text = run([KTRACE, "report", "-i", dat])
    n = sql(dat, "SELECT count(*) AS n FROM irq")[0]["n"]
    want = len(re.findall(r" irq_handler_entry: ", text))
    if n != want:
        fail(case, f"irq: {n} rows, report has {want} irq_handler_entry lines")
    got = {r["name"]: r["n"] for r in sql(dat, "SELECT name, count(*) AS n FROM softirq "
                                          "GROUP BY name")}
    want = collections.Counter(re.findall(r" softirq_entry:\s+vec=\d+ \[action=(\w+)\]", text))
    if got != dict(want):
        fail(case, f"softirq: {got}, report {dict(want)}")
    got = [r["lost"] for r in sql(dat, "SELECT lost FROM lost_events")]
    want = [int(x or -1) for x in re.findall(r"\[(?:(\d+) )?EVENTS DROPPED\]", text)]
    if sorted(got) != sorted(want):
        fail(case, f"lost_events: {got}, report {want}")
    if want:
        CHECKED["lost_events"] += 1
    CHECKED["irq/softirq counts"] += 1


def check_events_per_second(case, dat, ex):
    """events per second per CPU from report --format json, which has a line per record"""
    want = collections.Counter()
    for line in run([KTRACE, "report", "--format", "json", "-i", dat]).splitlines():
        ev = json.loads(line)
        want[(ev["ts"] // 1000000000, ev["cpu"])] += 1
    got = {(r["second"], r["cpu"]): r["events"] for r in sql(dat, ex["events_per_second"])}
    if got != dict(want):
        fail(case, f"example events_per_second: {got} != report {dict(want)}")
    CHECKED["example events_per_second"] += 1


def check_kprobe(dat, ex):
    rows = sql(dat, ex["kprobe_in_syscall"])
    probes = sql(dat, "SELECT count(*) AS n FROM myopen")[0]["n"]
    if not probes or len(rows) != probes or any(r["syscall"] != "openat" for r in rows):
        fail("kprobe_in_syscall", f"{probes} probe hits, joined {rows}")
    CHECKED["example kprobe_in_syscall"] += 1


def check_docs(ex, root):
    """every example is in the man page and the README, as examples.sql has it"""
    flat = lambda text: " ".join(text.replace("\\-", "-").replace("\\e", "\\").split())
    for doc in ("man/ktrace-sql.1", "README.md"):
        text = flat(open(os.path.join(root, doc)).read())
        for name, query in ex.items():
            if flat(query) not in text:
                fail(doc, f"example {name} is not there as examples.sql has it")


def check_runs(ex):
    """every example runs on a file that lacks its tables' events, with no rows"""
    dat = os.path.join(CORPUS, "kprobe.dat")
    for name, query in ex.items():
        try:
            rows = sql(dat, query)
        except RuntimeError as e:
            fail(name, str(e))
            continue
        if name not in ("events_per_second", "top_tasks") and rows:
            fail(name, f"rows on kprobe.dat, which has no syscall/sched/fgraph events: {rows}")


def main():
    ex = examples()
    check_docs(ex, os.path.join(os.path.dirname(EXAMPLES), "..", "..", ".."))
    check_runs(ex)
    files = sorted(f for f in os.listdir(CORPUS) if f.endswith(".dat"))
    if not files:
        print(f"no corpus files in {CORPUS}")
        return 1
    for f in files:
        dat = os.path.join(CORPUS, f)
        for check in (check_syscall, check_wakeup, check_fgraph, check_thread_state,
                      check_text_counts, check_events_per_second):
            try:
                check(f, dat, ex)
            except RuntimeError as e:
                fail(f, f"{check.__name__}: {e}")
    if len(sys.argv) > 4:
        check_kprobe(sys.argv[4], ex)
    print("checked:", dict(CHECKED))
    for what in ("syscall", "wakeup", "fgraph_call", "lost_events", "example top_tasks",
                 "example syscall_p99", "example longest_calls", "example wakeup_per_comm",
                 "example events_per_second"):
        if not CHECKED[what]:
            fail("corpus", f"no file exercised {what}")
    if FAILURES:
        print(f"{len(FAILURES)} failures")
        return 1
    print("all derived-table checks passed")
    return 0


sys.exit(main())
