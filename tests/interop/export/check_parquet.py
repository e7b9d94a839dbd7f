#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""
`ktrace export --parquet` on the reference corpus, read back by DuckDB (@duckdb/node-api, which
`scripts/deps duckdb` installs into a cache outside the clone; the test fails when it cannot):
every table of every file has the columns and, row by row, the values `ktrace sql` gives over
the .dat (integers as text, strings and blobs as hex: bytes, NULLs and order survive); counts,
sums and group-bys agree; a comm with odd bytes stays its bytes (BYTE_ARRAY, not STRING); several
files (--partition file|host) read together over a glob, --partition instance; a file that
exists needs --force; a damaged input, a full disk (RLIMIT_FSIZE) and bad flags fail with one
line and leave no file.

usage: check_parquet.py KTRACE CORPUS_DIR DEPS_SCRIPT DUCKDB_JS
"""
import glob
import json
import os
import resource
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile

KTRACE, CORPUS, DEPS, DUCKDB_JS = sys.argv[1:5]
FAILURES = []


def fail(case, msg):
    FAILURES.append(f"{case}: {msg}")
    print(f"FAIL {case}: {msg}")


def run(args, **kw):
    return subprocess.run(args, capture_output=True, text=True, errors="surrogateescape", **kw)


def node_modules():
    p = run([DEPS, "duckdb"])
    if p.returncode:
        sys.exit(f"check_parquet: DuckDB could not be installed (scripts/deps duckdb):\n{p.stderr}")
    return p.stdout.strip().splitlines()[-1]


MODULES = node_modules()


def duckdb(queries):
    p = run(["node", DUCKDB_JS, MODULES], input=json.dumps(queries))
    if p.returncode:
        raise RuntimeError(f"duckdb_query.js: {p.stderr.strip()}")
    return json.loads(p.stdout)


def ksql(dat, query):
    p = run([KTRACE, "sql", "-i", dat, "--format", "json", query])
    if p.returncode:
        raise RuntimeError(f"ktrace sql {query!r} on {dat}: {p.stderr.strip()}")
    return [json.loads(line) for line in p.stdout.splitlines()]


def norm(v):
    return None if v is None else str(v)


def lit(path):
    return "'" + path.replace("'", "''") + "'"


def sql_db(dat, tmp):
    """ktrace sql's own copy of the tables (-o), to read every row of hundreds of tables in
    one process; the aggregates go through `ktrace sql` over the .dat"""
    db = os.path.join(tmp, "tables.db")
    if os.path.exists(db):
        os.unlink(db)
    p = run([KTRACE, "sql", "-i", dat, "-o", db])
    if p.returncode:
        raise RuntimeError(f"ktrace sql -o on {dat}: {p.stderr.strip()}")
    con = sqlite3.connect(db)
    con.text_factory = bytes
    return con


def sql_tables(dat, tmp):
    con = sql_db(dat, tmp)
    tables = {}
    for (name,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'"):
        name = name.decode()
        cur = con.execute(f'SELECT * FROM "{name}" LIMIT 0')
        tables[name] = [d[0] for d in cur.description]
    return con, tables


def canon(col, kind, engine):
    """a column as text both engines print alike: integers in decimal, bytes in hex"""
    q = '"' + col.replace('"', '""') + '"'
    text = "VARCHAR" if engine == "duck" else "TEXT"
    if kind in ("VARCHAR", "BLOB"):
        return f"CASE WHEN {q} IS NULL THEN NULL ELSE upper(hex({q})) END"
    if kind == "DOUBLE":
        return f"CAST(CAST(round({q} * 1000000) AS BIGINT) AS {text})"
    return f"CAST({q} AS {text})"


def check_file(case, dat, tmp):
    out = os.path.join(tmp, "pq")
    shutil.rmtree(out, ignore_errors=True)
    p = run([KTRACE, "export", "--parquet", out, "-i", dat])
    if p.returncode:
        fail(case, f"export failed: {p.stderr.strip()}")
        return
    con, tables = sql_tables(dat, tmp)
    files = sorted(f[:-len(".parquet")] for f in os.listdir(out))
    if files != sorted(tables):
        fail(case, f"files {files} but ktrace sql has tables {sorted(tables)}")
    paths = {t: os.path.join(out, t + ".parquet") for t in tables}
    described = duckdb([f"DESCRIBE SELECT * FROM read_parquet({lit(paths[t])})" for t in tables])
    kinds = {}
    for t, d in zip(tables, described):
        if "error" in d:
            fail(case, f"DuckDB cannot read {t}: {d['error']}")
            continue
        names = [r[0] for r in d["rows"]]
        if names != tables[t]:
            fail(case, f"{t}: DuckDB columns {names}, ktrace sql {tables[t]}")
            continue
        kinds[t] = [r[1] for r in d["rows"]]
    # every row of every table, in order
    order = sorted(kinds)
    duck = duckdb([
        "SELECT " + ", ".join(canon(c, k, "duck") for c, k in zip(tables[t], kinds[t])) +
        f" FROM read_parquet({lit(paths[t])})" for t in order])
    for t, d in zip(order, duck):
        if "error" in d:
            fail(case, f"{t}: {d['error']}")
            continue
        exprs = [canon(c, k, "sqlite") + f" AS c{i}"
                 for i, (c, k) in enumerate(zip(tables[t], kinds[t]))]
        rows = con.execute("SELECT " + ", ".join(exprs) + f' FROM "{t}"').fetchall()
        want = [[None if v is None else v.decode() for v in r] for r in rows]
        got = [[norm(v) for v in r] for r in d["rows"]]
        if got != want:
            first = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b),
                         min(len(got), len(want)))
            a = got[first] if first < len(got) else None
            b = want[first] if first < len(want) else None
            fail(case, f"{t}: {len(got)} rows in DuckDB, {len(want)} in ktrace sql; "
                 f"first difference at row {first}: {a} vs {b}")
    con.close()
    check_aggregates(case, dat, tables, paths, kinds)
    return tables, kinds


def check_aggregates(case, dat, tables, paths, kinds):
    qs = []
    ev = paths.get("events")
    if ev:
        qs.append(("SELECT upper(hex(name)) AS k, count(*) AS n, sum(pid) AS s, min(ts) AS a, "
                   "max(ts) AS b FROM {events} GROUP BY name ORDER BY k"))
        qs.append("SELECT cpu AS k, count(*) AS n, sum(preempt_count) AS s FROM {events} "
                  "GROUP BY cpu ORDER BY k")
        qs.append("SELECT count(*) AS n FROM {events} WHERE instance IS NULL")
        qs.append("SELECT ts / 1000000000 AS k, cpu, count(*) AS n FROM {events} "
                  "GROUP BY k, cpu ORDER BY k, cpu")
    if "sched_switch" in tables:
        qs.append("SELECT upper(hex(prev_comm)) AS k, count(*) AS n, sum(prev_pid) AS s, "
                  "max(next_pid) AS m FROM {sched_switch} GROUP BY prev_comm ORDER BY k")
    if "sched_slice" in tables:
        qs.append("SELECT upper(hex(comm)) AS k, count(*) AS n, sum(dur) AS s, count(end_state) "
                  "AS e FROM {sched_slice} GROUP BY comm ORDER BY k")
    for q in qs:
        duck_q = q.format(**{t: f"read_parquet({lit(p)})" for t, p in paths.items()})
        sql_q = q.format(**{t: f'"{t}"' for t in paths})
        # DuckDB's / is a float division; SQLite's an integer one
        duck_q = duck_q.replace("ts / 1000000000", "ts // 1000000000")
        d = duckdb([duck_q])[0]
        if "error" in d:
            fail(case, f"{q}: DuckDB: {d['error']}")
            continue
        got = [[norm(v) for v in r] for r in d["rows"]]
        want = [[norm(v) for v in r.values()] for r in ksql(dat, sql_q)]
        if got != want:
            fail(case, f"{sql_q}: DuckDB {got[:3]}..., ktrace sql {want[:3]}...")


def check_odd_bytes(tmp):
    """a comm that is not UTF-8 and a file name with a space and an accent"""
    case = "odd bytes"
    with open(os.path.join(CORPUS, "date.dat"), "rb") as f:
        data = f.read()
    odd = os.path.join(tmp, "odd host é.dat")
    with open(odd, "wb") as f:
        f.write(data.replace(b"sleep", b"sl\xffep"))
    check_file(case, odd, tmp)
    path = os.path.join(tmp, "pq", "sched_process_exit.parquet")
    events = lit(os.path.join(tmp, "pq", "events.parquet"))
    d = duckdb([f"SELECT typeof(comm), hex(comm) FROM read_parquet({lit(path)}) LIMIT 1",
                f"SELECT typeof(comm) FROM read_parquet({events}) LIMIT 1"])
    if d[0].get("rows") != [["BLOB", b"sl\xffep".hex().upper()]]:
        fail(case, f"sched_process_exit.comm with a 0xff byte: {d[0]}")
    if d[1].get("rows") != [["VARCHAR"]]:
        fail(case, f"events.comm (UTF-8) is not VARCHAR: {d[1]}")
    return odd


def check_fleet(tmp, odd):
    """several inputs with a file column, read together over a glob"""
    case = "fleet"
    inputs = [os.path.join(CORPUS, n) for n in ("date.dat", "block.dat", "sched_v6.dat")] + [odd]
    out = os.path.join(tmp, "fleet")
    args = [KTRACE, "export", "--parquet", out, "--partition", "file"]
    for i in inputs:
        args += ["-i", i]
    p = run(args)
    if p.returncode:
        fail(case, f"export of {len(inputs)} files failed: {p.stderr.strip()}")
        return
    g = lit(os.path.join(out, "events", "*.parquet"))
    d = duckdb([f"SELECT file, count(*), sum(pid) FROM read_parquet({g}, union_by_name = true) "
                "GROUP BY file ORDER BY file"])[0]
    want = sorted([i, str(r["n"]), norm(r["s"])] for i in inputs
                  for r in ksql(i, "SELECT count(*) AS n, sum(pid) AS s FROM events"))
    if d.get("rows") != want:
        fail(case, f"events per file over the glob: {d} vs {want}")
    # a table only some inputs have is only in their files
    sw = glob.glob(os.path.join(out, "sched_switch", "*.parquet"))
    have = [i for i in inputs if "sched_switch" in sql_tables(i, tmp)[1]]
    if len(sw) != len(have):
        fail(case, f"sched_switch files {sw} for inputs that have it {have}")
    # --partition host: the corpus was recorded on one machine, so two inputs share a host
    p = run([KTRACE, "export", "--parquet", os.path.join(tmp, "hosts"), "--partition", "host",
             "-i", inputs[0], "-i", inputs[1]])
    if p.returncode != 1 or len(p.stderr.splitlines()) != 1 or "another input's" not in p.stderr:
        fail(case, f"two inputs of one host: status {p.returncode}, {p.stderr!r}")
    p = run([KTRACE, "export", "--parquet", os.path.join(tmp, "host1"), "--partition", "host",
             "-i", inputs[0]])
    host = glob.glob(os.path.join(tmp, "host1", "events", "*.parquet"))
    if p.returncode or len(host) != 1:
        fail(case, f"--partition host: {p.returncode} {p.stderr!r} {host}")
    else:
        d = duckdb([f"SELECT DISTINCT host FROM read_parquet({lit(host[0])})"])[0]
        name = os.path.basename(host[0])[:-len(".parquet")]
        if d.get("rows") != [[name]]:
            fail(case, f"host column {d} for file {name}")


def check_instances(tmp):
    """--partition instance: events split by instance (top: the top buffer), the rest whole"""
    case = "instance"
    dat = os.path.join(CORPUS, "instance.dat")
    out = os.path.join(tmp, "inst")
    p = run([KTRACE, "export", "--parquet", out, "--partition", "instance", "-i", dat])
    if p.returncode:
        fail(case, p.stderr)
        return
    files = sorted(os.listdir(os.path.join(out, "events")))
    want = sorted(("top" if r["i"] is None else r["i"]) + ".parquet"
                  for r in ksql(dat, "SELECT DISTINCT instance AS i FROM events"))
    if files != want:
        fail(case, f"events files {files}, instances {want}")
    g = lit(os.path.join(out, "events", "*.parquet"))
    d = duckdb([f"SELECT instance, count(*) FROM read_parquet({g}) GROUP BY instance "
                "ORDER BY instance NULLS FIRST"])[0]
    want = [[r["i"], str(r["n"])] for r in ksql(
        dat, "SELECT instance AS i, count(*) AS n FROM events GROUP BY instance ORDER BY instance")]
    if d.get("rows") != want:
        fail(case, f"per instance {d} vs {want}")
    if not os.path.exists(os.path.join(out, "sched_switch.parquet")):
        fail(case, f"sched_switch (no instance column) not written whole: {os.listdir(out)}")


def one_line_error(case, p, words):
    if p.returncode != 1 or len(p.stderr.splitlines()) != 1 or words not in p.stderr:
        fail(case, f"status {p.returncode}, stderr {p.stderr!r} (wanted one line with {words!r})")


def leftovers(d):
    return [f for f in os.listdir(d) if ".parquet." in f] if os.path.isdir(d) else []


def ignore_sigxfsz():
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (2048, 2048))


def check_errors(tmp):
    date = os.path.join(CORPUS, "date.dat")
    out = os.path.join(tmp, "again")
    run([KTRACE, "export", "--parquet", out, "-i", date])
    one_line_error("exists", run([KTRACE, "export", "--parquet", out, "-i", date]),
                   "exists (--force replaces it)")
    p = run([KTRACE, "export", "--parquet", out, "-i", date, "--force"])
    if p.returncode:
        fail("--force", p.stderr)
    one_line_error("--table", run([KTRACE, "export", "--parquet", out, "--force", "-i", date,
                                   "--table", "nosuch"]), "no table nosuch (tables: events")
    one_line_error("--partition", run([KTRACE, "export", "--parquet", out, "--partition", "cpu",
                                       "-i", date]), "--partition")
    # a damaged file: report's error, no file under its name
    bad = os.path.join(tmp, "damaged.dat")
    with open(os.path.join(CORPUS, "sched_v6.dat"), "rb") as f:
        data = f.read()
    with open(bad, "wb") as f:
        f.write(data[:len(data) // 3])
    dout = os.path.join(tmp, "damaged")
    p = run([KTRACE, "export", "--parquet", dout, "-i", bad])
    if p.returncode != 1 or len(p.stderr.splitlines()) != 1:
        fail("damaged", f"status {p.returncode}, {p.stderr!r}")
    if leftovers(dout):
        fail("damaged", f"left {leftovers(dout)}")
    # a full disk: the file size limit (2 KB of its 5) hits in the middle of events
    fout = os.path.join(tmp, "full")
    p = run([KTRACE, "export", "--parquet", fout, "-i", os.path.join(CORPUS, "sched_v6.dat"),
             "--table", "events"], preexec_fn=ignore_sigxfsz)
    one_line_error("full disk", p, "File too large")
    if os.path.exists(os.path.join(fout, "events.parquet")) or leftovers(fout):
        fail("full disk", f"left {os.listdir(fout)}")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        dats = sorted(glob.glob(os.path.join(CORPUS, "*.dat")))
        if not dats:
            sys.exit(f"no .dat files in {CORPUS}")
        for dat in dats:
            check_file(os.path.basename(dat), dat, tmp)
        odd = check_odd_bytes(tmp)
        check_fleet(tmp, odd)
        check_instances(tmp)
        check_errors(tmp)
    if FAILURES:
        print(f"{len(FAILURES)} failures")
        return 1
    print(f"ok: {len(dats)} corpus files exported and read back by DuckDB")
    return 0


sys.exit(main())
