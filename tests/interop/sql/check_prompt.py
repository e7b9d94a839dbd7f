#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""
`ktrace sql` without a QUERY: on a terminal (a pty here) a prompt that runs statements as they
are completed over several lines, prints an error and goes on, lists the tables, ends at
Ctrl-D and keeps the statements in $HOME/.ktrace_sql_history, which the next prompt reads
(the up arrow recalls the last statement); without a terminal the statements from stdin.

usage: check_prompt.py KTRACE DAT
"""
import os
import pty
import select
import subprocess
import sys
import tempfile
import time

KTRACE, DAT = sys.argv[1:3]


def session(home, keys):
    pid, fd = pty.fork()
    if pid == 0:
        os.environ["HOME"] = home
        os.execv(KTRACE, [KTRACE, "sql", "-i", DAT])
    out = b""
    for k in keys + [b"\x04"]:
        os.write(fd, k)
        end = time.time() + 3
        while time.time() < end:
            r, _, _ = select.select([fd], [], [], 0.1)
            if not r:
                if out.endswith(b"> "):
                    break
                continue
            try:
                out += os.read(fd, 65536)
            except OSError:
                break
    _, status = os.waitpid(pid, 0)
    return out.decode(errors="replace").replace("\r", ""), status


def main():
    failures = []
    with tempfile.TemporaryDirectory() as home:
        out, status = session(home, [b"SELECT count(*) AS n\r", b"FROM events;\r",
                                     b"SELECT nope;\r", b".tables\r"])
        want = subprocess.run([KTRACE, "sql", "-i", DAT, "SELECT count(*) AS n FROM events"],
                              capture_output=True, text=True).stdout
        for what, ok in (("the count's table", want in out),
                         ("the error, and the prompt after it",
                          "no such column: nope\nktrace> " in out),
                         (".tables", "sched_switch" in out and "thread_state" in out),
                         ("status 0 at Ctrl-D", status == 0)):
            if not ok:
                failures.append(what)
        hist = open(os.path.join(home, ".ktrace_sql_history")).read()
        if "SELECT\\040nope;" not in hist:
            failures.append(f"the history file holds {hist!r}")
        # the up arrow brings back the last statement of the previous session
        out, _ = session(home, [b"\x1b[A\x1b[A\r"])
        if "no such column: nope" not in out:
            failures.append(f"history recall: {out[-300:]!r}")
    p = subprocess.run([KTRACE, "sql", "-i", DAT, "--format", "csv"],
                       input="SELECT 1 AS a;\nSELECT 2 AS b;\n", capture_output=True, text=True)
    if p.returncode or p.stdout != "a\n1\nb\n2\n":
        failures.append(f"statements from stdin: {p.returncode} {p.stdout!r} {p.stderr!r}")
    for f in failures:
        print("FAIL", f)
    print("prompt checks:", "failed" if failures else "passed")
    return 1 if failures else 0


sys.exit(main())
