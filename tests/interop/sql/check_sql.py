#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""
`ktrace sql` on the reference corpus against `ktrace report`: the events table has a row per
event `report --format json` prints, in its order, with the same task, event, common fields and
fields; `count(*)` equals the event lines of the text report; per-event counts agree; the
per-format tables hold the fields report shows (sched_switch, and every format's first rows);
a ts or cpu range gives the rows a scan without the pushdown gives; csv and json output parse
to the same rows; -o writes a database with the same tables; errors are one line.

usage: check_sql.py KTRACE CORPUS_DIR
"""
import collections
import csv
import glob
import io
import json
import os
import re
import sqlite3
import subprocess
import sys
import tempfile

KTRACE, CORPUS = sys.argv[1:3]
FAILURES = []
# the tables that are not one format's records (check_derived.py checks them)
DERIVED = {"events", "sched_slice", "thread_state", "wakeup", "syscall", "irq", "softirq",
           "fgraph_call", "thread", "process", "lost_events", "files", "instances"}
# an event line of the text report: "comm-pid [cpu] ts: name: ..." (an instance prefix before)
EVENT_LINE = re.compile(r"^\s*(?:\S+:\s+)?.*-\d+\s+\[\d+\]\s+\S*\s*\d+(?:\.\d+)?: [\w:]+:")


def fail(case, msg):
    FAILURES.append(f"{case}: {msg}")
    print(f"FAIL {case}: {msg}")


def run(args):
    return subprocess.run(args, capture_output=True, text=True, errors="surrogateescape")


def sql(dat, query, fmt="json", extra=()):
    p = run([KTRACE, "sql", "-i", dat, "--format", fmt, *extra, query])
    if p.returncode:
        raise RuntimeError(f"sql {query!r} on {dat}: {p.stderr.strip()}")
    if fmt == "json":
        return [json.loads(line) for line in p.stdout.splitlines()]
    return p.stdout


def report_json(dat):
    p = run([KTRACE, "report", "--format", "json", "-i", dat])
    if p.returncode:
        raise RuntimeError(f"report --format json {dat}: {p.stderr}")
    return [json.loads(line) for line in p.stdout.splitlines()]


def check_events(case, dat, rep):
    rows = sql(dat, "SELECT * FROM events")
    if len(rows) != len(rep):
        fail(case, f"events has {len(rows)} rows, report --format json {len(rep)}")
        return
    for i, (row, ev) in enumerate(zip(rows, rep)):
        want = {"ts": ev["ts"], "cpu": ev["cpu"], "pid": ev["pid"], "comm": ev["comm"],
                "system": ev["system"], "name": ev["event"], "flags": ev.get("flags"),
                "preempt_count": ev.get("preempt_count"), "fields": ev["fields"],
                "instance": ev.get("instance") or None}
        got = dict(row)
        got["fields"] = json.loads(got["fields"]) if got["fields"] is not None else {}
        if got != want:
            fail(case, f"event {i}: sql {got} != report {want}")
            return


def check_text_count(case, dat, rep):
    """count(*) against the text report, where each record is one line (no function_graph
    pairs folded into one line, no dropped-events lines)."""
    p = run([KTRACE, "report", "-i", dat])
    lines = [line for line in p.stdout.splitlines() if EVENT_LINE.match(line)]
    if any(ev["event"] in ("funcgraph_entry", "funcgraph_exit") for ev in rep) or \
       "EVENTS DROPPED" in p.stdout or "LOST" in p.stdout:
        return
    n = sql(dat, "SELECT count(*) AS n FROM events")[0]["n"]
    if n != len(lines):
        fail(case, f"count(*) {n}, report prints {len(lines)} event lines")


def check_counts(case, dat, rep):
    want = collections.Counter(ev["event"] for ev in rep)
    rows = sql(dat, "SELECT name, count(*) AS n FROM events GROUP BY name")
    got = {r["name"]: r["n"] for r in rows}
    if got != dict(want):
        fail(case, f"counts by name: sql {got} != report {dict(want)}")


def table_names(dat):
    p = run([KTRACE, "sql", "-i", dat, "SELECT * FROM no_such_table"])
    m = re.search(r"\(the tables: (.*)\)$", p.stderr.strip())
    if p.returncode != 1 or not m or len(p.stderr.strip().splitlines()) != 1:
        raise RuntimeError(f"unknown table on {dat}: status {p.returncode}, {p.stderr!r}")
    return m.group(1).split()


def check_formats(case, dat, rep):
    """Every table that has rows: its rows are report's events of that format, fields equal
    (a BLOB column as report's array of bytes)."""
    tables = [t for t in table_names(dat) if t not in DERIVED]
    # every table's count in one run (there may be a thousand formats), then the rows
    counts = sql(dat, ";".join(f"SELECT '{t}' AS t, count(*) AS n FROM \"{t}\"" for t in tables))
    counts = {r["t"]: r["n"] for r in counts}
    for table in tables:
        system, _, name = table.rpartition("__")
        evs = [ev for ev in rep if ev["event"] == name and (not system or
                                                           ev["system"] == system)]
        if counts.get(table) != len(evs):
            fail(case, f"{table}: {counts.get(table)} rows, report has {len(evs)} such events")
            continue
        if not evs:
            continue
        rows = sql(dat, f'SELECT * FROM "{table}"')
        for row, ev in zip(rows, evs):
            for field, value in ev["fields"].items():
                got = row.get(field)
                if isinstance(value, list) and isinstance(got, str):
                    continue	# an array as a BLOB: shown as x'hex', compared in bytes below
                if isinstance(value, int) and isinstance(got, int) and value >= 1 << 63:
                    got &= (1 << 64) - 1
                if got != value:
                    fail(case, f"{table} at ts {ev['ts']}: {field} {got!r} != {value!r}")
                    break
            task = {k: row["common_" + k] if "common_" + k in row else row[k]
                    for k in ("ts", "cpu", "pid", "comm")}
            if task != {k: ev[k] for k in ("ts", "cpu", "pid", "comm")}:
                fail(case, f"{table} at ts {ev['ts']}: {task}")
                break
    if any(ev["event"] == "sched_switch" for ev in rep):
        want = [(ev["fields"]["prev_comm"], ev["fields"]["next_pid"]) for ev in rep
                if ev["event"] == "sched_switch"]
        got = [(r["prev_comm"], r["next_pid"])
               for r in sql(dat, "SELECT prev_comm, next_pid FROM sched_switch")]
        if got != want:
            fail(case, "sched_switch prev_comm/next_pid differ from report's")


def check_slices(case, dat, rep):
    """sched_slice from report's sched_switch events, paired per cpu in file order."""
    switches = [ev for ev in rep if ev["event"] == "sched_switch"]
    if not switches:
        return
    by_cpu = collections.defaultdict(list)
    for ev in switches:
        by_cpu[ev["cpu"]].append(ev)
    want = []
    for cpu, evs in by_cpu.items():
        for a, b in zip(evs, evs[1:] + [None]):
            want.append({"cpu": cpu, "ts": a["ts"], "dur": b["ts"] - a["ts"] if b else None,
                         "pid": a["fields"]["next_pid"], "comm": a["fields"]["next_comm"],
                         "end_state": b["fields"]["prev_state"] if b else None})
    key = lambda r: (r["ts"], r["cpu"])
    got = sql(dat, "SELECT * FROM sched_slice")
    if sorted(got, key=key) != sorted(want, key=key):
        fail(case, f"sched_slice: {len(got)} rows differ from report's switches ({len(want)})")


def check_ranges(case, dat, rep):
    """The same rows with the ts/cpu constraints pushed into the scan and without (a unary +
    keeps SQLite from handing them to xBestIndex)."""
    if not rep:
        return
    ts = sorted(ev["ts"] for ev in rep)
    lo, hi = ts[len(ts) // 4], ts[3 * len(ts) // 4]
    cpu = rep[len(rep) // 2]["cpu"]
    queries = [
        ("ts BETWEEN {lo} AND {hi}", "+ts BETWEEN {lo} AND {hi}"),
        ("ts > {lo} AND ts < {hi}", "+ts > {lo} AND +ts < {hi}"),
        ("ts = {lo}", "+ts = {lo}"),
        ("cpu = {cpu}", "+cpu = {cpu}"),
        ("cpu >= {cpu} AND ts <= {hi}", "+cpu >= {cpu} AND +ts <= {hi}"),
        ("ts < {lo}.5", "+ts < {lo}.5"),
        ("ts < 0", "+ts < 0"),
    ]
    table = "sched_switch" if any(ev["event"] == "sched_switch" for ev in rep) else "events"
    # all in two runs, each statement's rows tagged with its number
    pushed, plain = [], []
    for p, q in queries:
        for t in ("events", table):
            n = len(pushed)
            pushed.append(f"SELECT {n} AS q, * FROM {t} WHERE " + p.format(lo=lo, hi=hi, cpu=cpu))
            plain.append(f"SELECT {n} AS q, * FROM {t} WHERE " + q.format(lo=lo, hi=hi, cpu=cpu))
    a, b = sql(dat, ";".join(pushed)), sql(dat, ";".join(plain))
    for n, query in enumerate(pushed):
        ra, rb = [r for r in a if r["q"] == n], [r for r in b if r["q"] == n]
        if ra != rb:
            fail(case, f"{query}: {len(ra)} rows, {len(rb)} without pushdown")
    want = [ev for ev in rep if lo <= ev["ts"] <= hi]
    got = sql(dat, f"SELECT ts, cpu FROM events WHERE ts BETWEEN {lo} AND {hi}")
    if [(r["ts"], r["cpu"]) for r in got] != [(ev["ts"], ev["cpu"]) for ev in want]:
        fail(case, f"events between {lo} and {hi}: not report's events in that range")


def check_formats_output(case, dat):
    query = "SELECT ts, cpu, comm, name, fields FROM events"
    rows = sql(dat, query)
    text = sql(dat, query, "csv")
    parsed = list(csv.reader(io.StringIO(text, newline="")))
    if parsed[0] != ["ts", "cpu", "comm", "name", "fields"]:
        fail(case, f"csv header {parsed[0]}")
    cells = [[str(v) if v is not None else "" for v in r.values()] for r in rows]
    if parsed[1:] != cells:
        fail(case, "csv rows differ from json rows")
    table = sql(dat, "SELECT ts, cpu, name FROM events", "table").splitlines()
    if len(table) != len(rows) + 2 or not set(table[1]) <= {"-", " "}:
        fail(case, f"table output: {len(table)} lines for {len(rows)} rows")


def check_db(case, dat):
    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, "trace.db")
        p = run([KTRACE, "sql", "-i", dat, "-o", db])
        if p.returncode:
            fail(case, f"-o: {p.stderr.strip()}")
            return
        con = sqlite3.connect(db)
        n = con.execute("SELECT count(*) FROM events").fetchone()[0]
        version = con.execute("PRAGMA user_version").fetchone()[0]
        con.close()
        want = sql(dat, "SELECT count(*) AS n FROM events")[0]["n"]
        if n != want or version != 2:
            fail(case, f"-o: {n} events (want {want}), user_version {version}")
        p = run([KTRACE, "sql", "-i", dat, "-o", db])
        if p.returncode != 1 or "exists" not in p.stderr:
            fail(case, f"-o over an existing file: status {p.returncode} {p.stderr!r}")
        p = run([KTRACE, "sql", "-i", dat, "-o", db, "--force", "SELECT 1 AS one"])
        if p.returncode or "one" not in p.stdout:
            fail(case, f"-o --force: status {p.returncode} {p.stderr!r}")


def check_errors():
    dat = os.path.join(CORPUS, "sched.dat")
    for query, want in (("SELEC 1", "syntax error"), ("SELECT nope FROM events", "no such column")):
        p = run([KTRACE, "sql", "-i", dat, query])
        if p.returncode != 1 or len(p.stderr.splitlines()) != 1 or want not in p.stderr:
            fail("errors", f"{query!r}: status {p.returncode}, {p.stderr!r}")
    tables = table_names(dat)
    if "events" not in tables or "sched_switch" not in tables:
        fail("errors", f"the tables listed: {tables}")
    with tempfile.TemporaryDirectory() as tmp:
        # a damaged page: report and sql name the same damage
        bad = os.path.join(tmp, "bad.dat")
        data = bytearray(open(os.path.join(CORPUS, "sched_v6.dat"), "rb").read())
        data = data[: len(data) - 2000]
        open(bad, "wb").write(data)
        r = run([KTRACE, "report", "-i", bad])
        s = run([KTRACE, "sql", "-i", bad, "SELECT count(*) FROM events"])
        rmsg = r.stderr.strip().splitlines()[-1].replace("ktrace report: ", "")
        smsg = s.stderr.strip().replace("ktrace sql: ", "")
        if r.returncode == 0 or s.returncode != 1 or rmsg != smsg:
            fail("errors", f"damaged file: report {r.returncode} {rmsg!r}, "
                 f"sql {s.returncode} {smsg!r}")


def main():
    files = sorted(glob.glob(os.path.join(CORPUS, "*.dat")))
    if not files:
        print(f"no corpus files in {CORPUS}")
        return 1
    for dat in files:
        case = os.path.basename(dat)
        try:
            rep = report_json(dat)
            check_events(case, dat, rep)
            check_text_count(case, dat, rep)
            check_counts(case, dat, rep)
            check_formats(case, dat, rep)
            check_ranges(case, dat, rep)
            check_slices(case, dat, rep)
            check_formats_output(case, dat)
            check_db(case, dat)
        except RuntimeError as e:
            fail(case, str(e))
        print(f"{case}: checked")
    check_errors()
    if FAILURES:
        print(f"{len(FAILURES)} failures")
        return 1
    print("all sql checks passed")
    return 0


sys.exit(main())
