#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# trace-cmd 3.4 listen's --debug and --verbose[=LEVEL] in ktrace listen: --debug logs the
# listening port and each protocol message received and sent (trace-cmd's debug lines), and
# changes nothing else (the file comes back byte for byte); without it no such line. --verbose
# takes trace-cmd's levels (names by their start, numbers, none) and refuses others; -V
# (vsock) is refused with one line. usage: debug_flags.sh KTRACE NET_REPLAY CORPUS_DIR
set -u
KTRACE=$1
REPLAY=$2
CORPUS=$3
. "$(dirname "$0")/lib.sh"

got_file() {	# the file the listener's last session wrote
	wait_log ': wrote ' 1
	sed -n 's/.*: wrote \([^ ]*\) .*/\1/p' "$LOG" | tail -1
}

D=$W/debug
start_listener "$D" --debug --verbose=warning
"$REPLAY" 127.0.0.1 "$PORT" "$CORPUS/sched_v6.dat" || fail "--debug: the client failed"
f=$(got_file)
cmp -s "$D/$f" "$CORPUS/sched_v6.dat" && pass "--debug: the file as sent" ||
	fail "--debug: the file differs from the original"
grep -q "Create listen port: $PORT fd:[0-9]" "$LOG" && pass "--debug: the listening port" ||
	fail "--debug: no 'Create listen port: $PORT' line"
grep -q ': msg received: 1 (TINIT) \[[0-9]*\]$' "$LOG" &&
	grep -q ': msg received: 0 (CLOSE) \[[0-9]*\]$' "$LOG" &&
	grep -q ': msg send: 2 (RINIT) \[[0-9]*\]$' "$LOG" &&
	pass "--debug: the messages received and sent" || fail "--debug: message lines missing"
kill "$LISTEN_PID"; wait "$LISTEN_PID" 2>/dev/null; LISTEN_PID=

D=$W/plain
start_listener "$D"
"$REPLAY" 127.0.0.1 "$PORT" "$CORPUS/sched_v6.dat" || fail "plain: the client failed"
got_file > /dev/null
grep -q 'msg received\|Create listen port' "$LOG" && fail "without --debug: debug lines" ||
	pass "without --debug: no debug line"
kill "$LISTEN_PID"; wait "$LISTEN_PID" 2>/dev/null; LISTEN_PID=

for level in "" =none =0 =6 =9 =warnings =all; do
	D=$W/level
	rm -rf "$D"
	start_listener "$D" "--verbose$level"
	kill "$LISTEN_PID"; wait "$LISTEN_PID" 2>/dev/null; LISTEN_PID=
done
pass "--verbose, =none, =0, =6, =9, =warnings, =all: accepted"
for bad in --verbose=bogus --verbose=-1 -V; do
	"$KTRACE" listen -p 0 "$bad" > "$W/bad.out" 2>&1
	rc=$?
	[ "$rc" = 1 ] && [ "$(wc -l < "$W/bad.out")" = 1 ] && pass "$bad: refused, one line" ||
		fail "$bad: exit $rc: $(cat "$W/bad.out")"
done
finish
