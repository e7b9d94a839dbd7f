#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# ktrace hist on a live recording with known answers. Usage: hist_tests.sh KTRACE HELPER
# meson runs it under flock /tmp/ktrace-tracefs.lock. The workload makes exactly N getppid
# calls (HELPER), then runs `sleep 0.2` in the background and waits for it, so that:
#   - hist syscall --pid HELPER counts exactly N getppid (and N+1 writes: N marks, pid line);
#   - the sleep's clock_nanosleep lasts at least 0.2 s;
#   - the sleep task is woken at least once, and its wakeup latency does not include the sleep.
set -u
K=$1
HELPER=$2
N=150
W=$(mktemp -d /tmp/ktrace-hist-test.XXXXXX)
. "$(dirname "$0")/../lib/busy_cpus.sh"
trap 'stop_busy_cpus; rm -rf "$W"' EXIT
keep_cpus_busy	# the sleep task's switch-in after its wakeup must be in the file

fail() {
	echo "FAIL [hist]: $*" >&2
	exit 1
}

json() {	# FILE PYTHON-EXPR over g (groups by name): prints the value
	python3 -c 'import json, sys
g = {x["name"]: x for x in json.load(open(sys.argv[1]))["groups"]}
print(eval(sys.argv[2]))' "$1" "$2" || fail "cannot read $1: $(head -c 300 "$1")"
}

record() {
	"$K" record -q -o "$W/t.dat" -e raw_syscalls -e sched -- \
		sh -c "$HELPER $N > $W/helper.out; sleep 0.2 & echo \$! > $W/sleep.pid; wait" \
		2> "$W/record.err" || fail "record failed: $(cat "$W/record.err")"
	pid=$(sed -n 's/^pid=//p' "$W/helper.out")
	spid=$(cat "$W/sleep.pid")
	[ -n "$pid" ] && [ -n "$spid" ] || fail "the workload did not run"
	"$K" hist wakeup --by task --format json "$W/t.dat" > "$W/wakeup.json" ||
		fail "hist wakeup failed"
}

record
grep -q -- "-$spid\"" "$W/wakeup.json" ||
	fail "no wakeup pair for the sleep task ($spid): $(head -c 300 "$W/wakeup.json")"
"$K" hist syscall --pid "$pid" --format json -i "$W/t.dat" > "$W/helper.json" ||
	fail "hist syscall --pid $pid failed"
got=$(json "$W/helper.json" 'g["getppid"]["count"]') || exit 1
[ "$got" = "$N" ] || fail "getppid: count $got, the helper made $N calls"
got=$(json "$W/helper.json" 'g["write"]["count"]') || exit 1
[ "$got" = "$((N + 1))" ] || fail "write: count $got, the helper wrote $((N + 1)) times"

"$K" hist syscall --pid "$spid" --format json "$W/t.dat" > "$W/sleep.json" ||
	fail "hist syscall --pid $spid failed"
got=$(json "$W/sleep.json" 'g["clock_nanosleep"]["max"] if "clock_nanosleep" in g else g["nanosleep"]["max"]') || exit 1
[ "$got" -ge 200000000 ] || fail "sleep 0.2: its nanosleep took $got ns"
[ "$got" -lt 5000000000 ] || fail "sleep 0.2: its nanosleep took $got ns, more than 5 s"

name=$(json "$W/wakeup.json" '[n for n in g if n.endswith("-'"$spid"'")][0]') || exit 1
got=$(json "$W/wakeup.json" 'g["'"$name"'"]["count"]') || exit 1
[ "$got" -ge 1 ] || fail "$name: never woken"
got=$(json "$W/wakeup.json" 'g["'"$name"'"]["min"]') || exit 1
[ "$got" -lt 200000000 ] || fail "$name: wakeup latency $got ns includes the sleep"
# the text form agrees with the JSON one on the busiest group
"$K" hist syscall --pid "$pid" "$W/t.dat" | grep -q "^getppid: count $N " ||
	fail "text output lacks 'getppid: count $N'"
echo "ok: getppid $N, nanosleep >= 0.2 s, $name woken"
