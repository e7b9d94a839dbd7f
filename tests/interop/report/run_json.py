#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""`ktrace report --format json|csv` on every corpus file.

    run_json.py KTRACE CORPUS_DIR

- every line is one valid JSON object (strict: no NaN, no duplicate keys);
- one object per event: as many as `ktrace report -R` prints event lines (with the same
  filters), since -R prints each event on one line;
- header and field values equal what trace-cmd 3.1.6 printed with `report -R` (the corpus's
  NAME.report-R.txt): cpu, pid, comm, event name, timestamp, and every field value whose raw
  text is a number or a string (symbols, printed through the event's format, are counted
  as not comparable);
- CSV rows parse with Python's csv module (RFC 4180) and hold the same values as the JSON;
- --format json --fields objects have the chosen members, in order, with the same values;
- bad --format/--fields combinations exit 255 with one line naming the option.
"""
import csv
import glob
import io
import json
import os
import re
import subprocess
import sys

KTRACE, CORPUS = sys.argv[1], sys.argv[2]
failures = []
stats = {"compared": 0, "skipped": 0, "events": 0}

LINE_RE = re.compile(r"^(.*)-(\d+)\s+\[(\d{3})\]\s+(\d+(?:\.\d+)?): (\S+): ?(.*)$")


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


def run(*args, check=True):
    p = subprocess.run([KTRACE, "report", *args], capture_output=True, env={"LC_ALL": "C"})
    if check and p.returncode != 0:
        fail("ktrace report %s: exit %d: %s" % (" ".join(args), p.returncode, p.stderr))
    return p


def no_dup_keys(pairs):
    keys = [k for k, _ in pairs]
    if len(keys) != len(set(keys)):
        raise ValueError("duplicate key in %r" % keys)
    return dict(pairs)


def reject_constant(name):
    raise ValueError("non-standard JSON constant " + name)


def load_json(out, what):
    events = []
    for n, line in enumerate(out.decode("utf-8").split("\n")[:-1], 1):
        try:
            obj = json.loads(line, object_pairs_hook=no_dup_keys, parse_constant=reject_constant)
        except ValueError as e:
            fail("%s line %d: not JSON: %s: %r" % (what, n, e, line[:200]))
            continue
        for key, typ in (("ts", int), ("cpu", int), ("pid", int), ("comm", str), ("fields", dict)):
            if not isinstance(obj.get(key), typ):
                fail("%s line %d: %s is not %s" % (what, n, key, typ.__name__))
        events.append(obj)
    return events


def raw_event_lines(text):
    return [l for l in text.split("\n")[1:] if l and not l.endswith("EVENTS DROPPED]")]


def as_int(text):
    """The values a raw number may mean: decimal, 0x-hex, bare hex (%llx in a format)."""
    text = text.strip()
    vals = set()
    for base, t in ((10, text), (16, text[2:] if text.lower().startswith("0x") else text)):
        try:
            vals.add(int(t, base))
        except ValueError:
            pass
    return vals


def same_int(value, text):
    cands = as_int(text)
    if not cands:
        return None
    return any((c - value) % (1 << 64) == 0 or (c - value) % (1 << 32) == 0 for c in cands)


def same_array(value, text):
    raw = bytes(int(b, 16) for b in text[len("ARRAY["):-1].split(", ") if b)
    for size in (1, 2, 4, 8):
        if len(raw) < size * len(value):
            continue
        vals = [int.from_bytes(raw[i * size:(i + 1) * size], "little")
                for i in range(len(value))]
        if all((a - v) % (1 << (8 * size)) == 0 for a, v in zip(vals, value)):
            return True
    return False


def split_fields(info, names):
    """name=value pairs of a raw line, cut at the known names (values may hold blanks)."""
    out, pos = {}, 0
    for i, name in enumerate(names):
        start = info.find(name + "=", pos)
        if start < 0:
            return None
        start += len(name) + 1
        end = info.find(" " + names[i + 1] + "=", start) if i + 1 < len(names) else len(info)
        if end < 0:
            return None
        out[name] = info[start:end]
        pos = end
    return out


def compare_value(where, name, value, text, last):
    if isinstance(value, str) and last and value.endswith("\n"):
        # trace-cmd drops the newline that ends its line (a trace_marker's text)
        value = value[:-1]
    if text == "(nil)":
        text = "0"
    if isinstance(value, str):
        ok = text == value if not text.startswith("ARRAY[") else None
    elif isinstance(value, list):
        ok = same_array(value, text) if text.startswith("ARRAY[") else None
    elif value is None:
        ok = None
    else:
        ok = same_int(value, text)
    if ok is None:
        stats["skipped"] += 1
        if os.environ.get("SHOW_SKIPPED"):
            print("skipped %s: %s=%r vs %r" % (where, name, value, text))
    elif ok:
        stats["compared"] += 1
    else:
        fail("%s: %s = %r in JSON, %r in trace-cmd -R" % (where, name, value, text))


def compare_line(where, ev, line):
    m = LINE_RE.match(line)
    if not m:
        fail("%s: cannot parse trace-cmd line %r" % (where, line))
        return
    comm, pid, cpu, ts, name, info = m.groups()
    if int(pid) != ev["pid"] or int(cpu) != ev["cpu"] or not comm.rstrip().endswith(ev["comm"]):
        fail("%s: task %s-%s [%s] vs %r" % (where, comm.strip(), pid, cpu, ev))
    if name != ev["event"]:
        fail("%s: event %s vs %s" % (where, name, ev["event"]))
    want = round(ev["ts"] / 1000) if "." in ts else ev["ts"]
    got = int(ts.replace(".", ""))
    if abs(want - got) > 1:
        fail("%s: timestamp %s vs %d" % (where, ts, ev["ts"]))
    names = list(ev["fields"])
    if not names:
        return
    fields = split_fields(info, names)
    if fields is None:
        fail("%s: fields %s not found in %r" % (where, names, info))
        return
    for key in names:
        compare_value(where, key, ev["fields"][key], fields[key], key == names[-1])


def check_against_trace_cmd(name, events):
    ref = os.path.join(CORPUS, name + ".report-R.txt")
    if not os.path.exists(ref):
        fail("missing reference " + ref)
        return
    lines = raw_event_lines(open(ref, encoding="utf-8", errors="surrogateescape").read())
    if len(lines) != len(events):
        fail("%s: %d JSON events, trace-cmd -R printed %d" % (name, len(events), len(lines)))
        return
    for n, (ev, line) in enumerate(zip(events, lines), 1):
        compare_line("%s event %d" % (name, n), ev, line)


def check_counts(dat, name, filters):
    events = load_json(run("--format", "json", *filters, dat).stdout, name)
    text = run("-R", *filters, dat).stdout.decode("utf-8", "surrogateescape")
    want = len(raw_event_lines(text))
    if len(events) != want:
        fail("%s %s: %d JSON objects, %d events in the text" % (name, filters, len(events), want))
    return events


def csv_cell(value):
    if value is None:
        return ""
    if isinstance(value, list):
        return json.dumps(value, separators=(",", ":"))
    return str(value)


def check_csv(dat, name, events):
    # two event fields the file has, one of them on only some events where possible
    names = []
    for ev in events:
        names += [k for k in ev["fields"] if k not in names]
    picked = (names[:1] + names[-1:]) if names else []
    cols = ",".join(["ts", "cpu", "comm", "pid", "system", "event", "instance", "dropped"] +
                    ["fields." + k for k in picked])
    out = run("--format", "csv", "--fields", cols, dat).stdout.decode("utf-8")
    rows = list(csv.reader(io.StringIO(out, newline="")))
    if rows[0] != cols.split(","):
        fail("%s csv header %r" % (name, rows[0]))
    if len(rows) - 1 != len(events):
        fail("%s: %d csv rows, %d JSON objects" % (name, len(rows) - 1, len(events)))
        return
    for n, (row, ev) in enumerate(zip(rows[1:], events), 1):
        f = ev["fields"]
        want = [str(ev["ts"]), str(ev["cpu"]), ev["comm"], str(ev["pid"]), ev["system"],
                ev["event"], ev.get("instance", ""), str(ev.get("dropped", ""))]
        want += [csv_cell(f.get(k)) for k in picked]
        if row != want:
            fail("%s csv row %d: %r, JSON says %r" % (name, n, row, want))
            return


def check_json_fields(dat, name, events):
    """--format json --fields: flat objects holding the same values as the whole events."""
    names = []
    for ev in events:
        names += [k for k in ev["fields"] if k not in names]
    picked = (names[:1] + names[-1:]) if names else []
    cols = ["ts", "cpu", "comm", "pid", "system", "event", "instance", "dropped"] + \
        ["fields." + k for k in picked]
    out = run("--format", "json", "--fields", ",".join(cols), dat).stdout.decode("utf-8")
    lines = out.splitlines()
    if len(lines) != len(events):
        fail("%s: %d --fields JSON objects, %d events" % (name, len(lines), len(events)))
        return
    for n, (line, ev) in enumerate(zip(lines, events), 1):
        got = json.loads(line, object_pairs_hook=no_dup_keys)
        want = {"ts": ev["ts"], "cpu": ev["cpu"], "comm": ev["comm"], "pid": ev["pid"],
                "system": ev["system"], "event": ev["event"],
                "instance": ev.get("instance"), "dropped": ev.get("dropped")}
        want.update({"fields." + k: ev["fields"].get(k) for k in picked})
        if list(got) != cols or got != want:
            fail("%s --fields JSON line %d: %r, the whole event says %r" % (name, n, got, want))
            return


def check_errors(dat):
    cases = [
        (["--format", "yaml"], "--format"),
        (["--fields", "ts"], "--fields"),
        (["--format", "json", "-w"], "-w"),
        (["--format", "csv", "--fields", "ts,nosuchfield"], "nosuchfield"),
    ]
    for args, word in cases:
        p = run(*args, dat, check=False)
        err = p.stderr.decode()
        if p.returncode == 0 or word not in err or err.count("\n") != 1:
            fail("report %s: exit %d, stderr %r" % (args, p.returncode, err))


def main():
    dats = sorted(glob.glob(os.path.join(CORPUS, "*.dat")))
    if not dats:
        fail("no corpus in " + CORPUS)
    for dat in dats:
        name = os.path.basename(dat)[:-4]
        events = check_counts(dat, name, [])
        stats["events"] += len(events)
        check_against_trace_cmd(name, events)
        check_csv(dat, name, events)
        check_json_fields(dat, name, events)
        first = events[0]["event"]
        for filters in (["--cpu", "0"], ["-F", first], ["-v", "-F", first],
                        ["-F", first + ": common_pid > 100"], ["--pid", "1"], ["-I", "-S"]):
            check_counts(dat, name, filters)
    check_errors(dats[0])
    # a real count: the corpus has thousands of comparable values
    if stats["compared"] < 5000:
        fail("only %d values compared" % stats["compared"])
    print("%d events, %d field values equal to trace-cmd -R, %d not comparable (symbols)"
          % (stats["events"], stats["compared"], stats["skipped"]))
    print("%d passed, %d failed" % (1 if not failures else 0, len(failures)))
    return 1 if failures else 0


sys.exit(main())
