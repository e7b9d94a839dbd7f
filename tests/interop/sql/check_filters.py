#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""
Report's filters in `ktrace sql` and `ktrace export --parquet`: with -F, -v -F, an -F condition,
--cpu, --pid, --comm, -I, -S (and some together) on every corpus file, `count(*)` and the counts
by event of the events table are those of `ktrace report` with the same flags (its text lines,
where each record is one line, and its JSON); a per-format table and sched_slice hold only the
records kept; a -F after a second -i filters that file (m1_events) only; -o writes the filtered
tables; a bad filter is one line and status 1; export --parquet with filters writes the rows
`ktrace sql` with the same flags has (the row counts of its files' footers), on the direct path
and through SQLite.

usage: check_filters.py KTRACE CORPUS_DIR
"""
import collections
import glob
import json
import os
import re
import sqlite3
import subprocess
import sys
import tempfile

KTRACE, CORPUS = sys.argv[1:3]
# Under ASan (scripts/sanitize sets ASAN_OPTIONS) each run costs about twice as much and the
# whole matrix took 440 s: the sanitizers need each code path once, so they get the files of
# distinct shapes (v6, function graph, instances, lost events, irqs, a kprobe) only.
SANITIZED_SUBSET = {"sched.dat", "sched_v6.dat", "fgraph_depth.dat", "instance.dat", "lost.dat",
                    "syscalls_irq.dat", "kprobe.dat"}
FAILURES = []
EVENT_LINE = re.compile(r"^\s*(?:\S+:\s+)?.*-\d+\s+\[\d+\]\s+\S*\s*\d+(?:\.\d+)?: [\w:]+:")


def fail(case, msg):
    FAILURES.append(f"{case}: {msg}")
    print(f"FAIL {case}: {msg}")


def run(args):
    return subprocess.run(args, capture_output=True, text=True, errors="surrogateescape")


def sql(dat, flags, query, more=()):
    p = run([KTRACE, "sql", "-i", dat, *flags, *more, "--format", "json", query])
    if p.returncode:
        raise RuntimeError(f"sql {flags} {query!r} on {dat}: {p.stderr.strip()}")
    return [json.loads(line) for line in p.stdout.splitlines()]


def report_json(dat, flags):
    p = run([KTRACE, "report", "--format", "json", "-i", dat, *flags])
    if p.returncode:
        raise RuntimeError(f"report --format json {flags} {dat}: {p.stderr.strip()}")
    return [json.loads(line) for line in p.stdout.splitlines()]


def report_lines(dat, flags):
    """The event lines of the text report, or None where a record is not one line."""
    p = run([KTRACE, "report", "-i", dat, *flags])
    if p.returncode:
        raise RuntimeError(f"report {flags} {dat}: {p.stderr.strip()}")
    if "funcgraph_" in p.stdout or "EVENTS DROPPED" in p.stdout or "LOST" in p.stdout:
        return None
    return sum(1 for line in p.stdout.splitlines() if EVENT_LINE.match(line))


def flag_sets(rep):
    """Filters that keep some records of this file and leave out others."""
    names = collections.Counter(ev["event"] for ev in rep)
    pids = collections.Counter(ev["pid"] for ev in rep if ev["pid"])
    top = names.most_common(1)[0][0]
    sets = [["-F", top], ["-v", "-F", top], ["-F", f"{top}: common_pid != 0"], ["--cpu", "0"],
            ["-I"], ["-S"], ["-F", top, "--cpu", "1"]]
    if len(names) > 1:
        second = names.most_common(2)[1][0]
        sets.append(["-F", f"{top},{second}"])
    if pids:
        pid = pids.most_common(1)[0][0]
        comm = next(ev["comm"] for ev in rep if ev["pid"] == pid)
        sets += [["--pid", str(pid)], ["--comm", comm], ["--pid", str(pid), "-v", "-F", top]]
    return sets


def check_flags(case, dat, flags, text_ok):
    rep = report_json(dat, flags)
    rows = sql(dat, flags, "SELECT count(*) AS n FROM events; "
               "SELECT name, count(*) AS n FROM events GROUP BY name")
    n = rows[0]["n"]
    if n != len(rep):
        fail(case, f"{flags}: count(*) {n}, report --format json {len(rep)} events")
    got = {r["name"]: r["n"] for r in rows[1:]}
    want = dict(collections.Counter(ev["event"] for ev in rep))
    if got != want:
        fail(case, f"{flags}: counts by name {got} != report's {want}")
    if text_ok:
        lines = report_lines(dat, flags)
        if lines is not None and lines != n:
            fail(case, f"{flags}: count(*) {n}, report prints {lines} event lines")
    return rep


def check_tables(case, dat, rep_all):
    """A per-format table and sched_slice see the kept records only."""
    if not any(ev["event"] == "sched_switch" for ev in rep_all):
        return
    for flags in (["--cpu", "0"], ["-F", "sched_switch: prev_pid != 0"]):
        rep = report_json(dat, flags)
        want = sum(1 for ev in rep if ev["event"] == "sched_switch")
        got = sql(dat, flags, "SELECT count(*) AS n FROM sched_switch; "
                  "SELECT count(*) AS n, count(DISTINCT cpu) AS c, min(cpu) AS lo "
                  "FROM sched_slice")
        if got[0]["n"] != want or got[1]["n"] != want:
            fail(case, f"{flags}: sched_switch {got[0]['n']} rows, sched_slice {got[1]['n']}, "
                 f"report {want} switches")
        if flags[0] == "--cpu" and want and (got[1]["c"], got[1]["lo"]) != (1, 0):
            fail(case, f"--cpu 0: sched_slice has cpus {got[1]}")


def check_inputs(tmp):
    """-F after the second -i filters that file only, as in report; -o keeps the filters."""
    a, b = os.path.join(CORPUS, "sched.dat"), os.path.join(CORPUS, "sched_zstd.dat")
    rows = sql(a, [], "SELECT count(*) AS n FROM events; SELECT count(*) AS n FROM m1_events",
               more=["-i", b, "-F", "sched_switch"])
    want = (len(report_json(a, [])), len(report_json(b, ["-F", "sched_switch"])))
    if (rows[0]["n"], rows[1]["n"]) != want:
        fail("inputs", f"-i A -i B -F: events {rows[0]['n']}, m1_events {rows[1]['n']}, "
             f"want {want}")
    db = os.path.join(tmp, "filtered.db")
    p = run([KTRACE, "sql", "-i", a, "--pid", "0", "-o", db])
    if p.returncode:
        fail("-o", p.stderr.strip())
        return
    con = sqlite3.connect(db)
    n = con.execute("SELECT count(*) FROM events").fetchone()[0]
    con.close()
    if n != len(report_json(a, ["--pid", "0"])):
        fail("-o", f"--pid 0 -o: {n} events")


def check_errors():
    dat = os.path.join(CORPUS, "sched.dat")
    for flags, words in ((["-F", "sched_switch: nosuch >"], "-F"), (["--cpu", "x"], "--cpu"),
                         (["-v", "-v"], "Only 1 -v")):
        p = run([KTRACE, "sql", "-i", dat, *flags, "SELECT 1"])
        lines = p.stderr.strip().splitlines()
        if p.returncode == 0 or not lines or words not in lines[-1] or p.stdout:
            fail("errors", f"{flags}: status {p.returncode}, {p.stderr!r}")


def parquet_rows(path):
    """The row count of a Parquet file, from its footer: FileMetaData's num_rows (field 3,
    an i64 in thrift's compact protocol), after the schema list (field 2)."""
    with open(path, "rb") as f:
        data = f.read()
    meta_len = int.from_bytes(data[-8:-4], "little")
    meta = data[-8 - meta_len:-8]
    return _num_rows(meta)


def _varint(b, i):
    v = shift = 0
    while True:
        c = b[i]
        i += 1
        v |= (c & 0x7F) << shift
        shift += 7
        if not c & 0x80:
            return v, i


def _skip(b, i, t):
    if t in (1, 2):
        return i
    if t == 3:
        return i + 1
    if t in (4, 5, 6):
        return _varint(b, i)[1]
    if t == 7:
        return i + 8
    if t == 8:
        n, i = _varint(b, i)
        return i + n
    if t in (9, 10):
        h = b[i]
        i += 1
        n = h >> 4
        if n == 15:
            n, i = _varint(b, i)
        for _ in range(n):
            i = _skip(b, i, h & 0x0F)
        return i
    if t == 12:
        fid = 0
        while True:
            h = b[i]
            i += 1
            if h == 0:
                return i
            d = h >> 4
            fid = fid + d if d else _varint(b, i)[0]
            i = _skip(b, i, h & 0x0F)
    raise ValueError(f"thrift type {t}")


def _num_rows(b):
    i = fid = 0
    while b[i]:
        h = b[i]
        i += 1
        d = h >> 4
        if not d:
            raise ValueError("long field header")
        fid += d
        if fid == 3:
            v, _ = _varint(b, i)
            return (v >> 1) ^ -(v & 1)
        i = _skip(b, i, h & 0x0F)
    raise ValueError("no num_rows")


def check_export(tmp):
    """export --parquet with filters: events.parquet and sched_switch.parquet have the rows
    ktrace sql with the same flags has, on the direct path and through SQLite (--via-sql)."""
    dat = os.path.join(CORPUS, "sched.dat")
    for flags in (["-F", "sched_switch,sched_wakeup"], ["--cpu", "1"], ["--pid", "0"]):
        want = sql(dat, flags, "SELECT count(*) AS n FROM events; "
                   "SELECT count(*) AS n FROM sched_switch")
        for via in ([], ["--via-sql"]):
            out = os.path.join(tmp, "pq" + "".join(flags) + "".join(via))
            p = run([KTRACE, "export", "--parquet", out, "-i", dat, *flags, *via,
                     "--table", "events", "--table", "sched_switch"])
            if p.returncode:
                fail("export", f"{flags} {via}: {p.stderr.strip()}")
                continue
            got = (parquet_rows(os.path.join(out, "events.parquet")),
                   parquet_rows(os.path.join(out, "sched_switch.parquet")))
            if got != (want[0]["n"], want[1]["n"]):
                fail("export", f"{flags} {via}: parquet rows {got}, sql "
                     f"{(want[0]['n'], want[1]['n'])}")


def main():
    files = sorted(glob.glob(os.path.join(CORPUS, "*.dat")))
    if os.environ.get("ASAN_OPTIONS"):
        files = [f for f in files if os.path.basename(f) in SANITIZED_SUBSET]
        if len(files) != len(SANITIZED_SUBSET):
            print(f"the sanitized subset is not all in {CORPUS}: {sorted(SANITIZED_SUBSET)}")
            return 1
    if not files:
        print(f"no corpus files in {CORPUS}")
        return 1
    for dat in files:
        case = os.path.basename(dat)
        try:
            rep = report_json(dat, [])
            if not rep:
                continue
            for flags in flag_sets(rep):
                check_flags(case, dat, flags, True)
            check_tables(case, dat, rep)
        except RuntimeError as e:
            fail(case, str(e))
        print(f"{case}: checked")
    with tempfile.TemporaryDirectory() as tmp:
        try:
            check_inputs(tmp)
            check_export(tmp)
        except RuntimeError as e:
            fail("inputs/export", str(e))
    check_errors()
    if FAILURES:
        print(f"{len(FAILURES)} failures")
        return 1
    print("all sql filter checks passed")
    return 0


sys.exit(main())
