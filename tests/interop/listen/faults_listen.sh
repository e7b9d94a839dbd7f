#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Faults around `ktrace listen` (issue 6): a client stalled mid-data must not hold up one
# sending at full speed; a client killed mid-stream leaves a .partial.dat that reads, and the
# listener stays up; a listener killed mid-stream ends its client with an error (no hang),
# leaves nothing that passes for a complete recording, and once restarted on the same port
# and directory recovers what the killed one received into a .incomplete.dat that both
# reports read (one line on stderr says so, no hidden file is left) and serves a new client
# right; a second listener started on a directory a live one writes into leaves its files be;
# a listener stopped by SIGTERM mid-stream keeps the session's data in a .partial.dat.
#   faults_listen.sh KTRACE NET_REPLAY CORPUS_DIR
set -u
KTRACE=$1
REPLAY=$2
CORPUS=$3
. "$(dirname "$0")/lib.sh"

D=$W/out
SRC=$CORPUS/sched.dat
# Enough pages that a client is still sending when it is stopped or killed, one second after
# its setup: each CPU's pages a million times over (about 3 MB/s go through here, a few GB
# would take minutes anywhere).
BIG=1000000
# A client that is stopped with the listener sends a known volume instead (--stall: all its pages,
# then it waits with the session open): about 400 K events, whatever the machine's speed, so
# that both reports of what is kept take seconds, not minutes.
SOME=600

# streaming N: the Nth session of this listener is set up, and has been sending for a second
streaming() {
	wait_log ": protocol 3, " "$1" || return 1
	sleep 1
}

# stalled N ERRFILE: the Nth session's --stall client has sent everything (it says so in ERRFILE)
# and the listener's CPU files have stopped growing
stalled() {
	local size=-1 now
	wait_log ": protocol 3, " "$1" || return 1
	for _ in $(seq 600); do grep -q stalling "$2" && break; sleep 0.05; done
	grep -q stalling "$2" || return 1
	for _ in $(seq 100); do
		now=$(cat "$D"/.*.part.cpu* 2>/dev/null | wc -c)
		[ "$now" -gt 0 ] && [ "$now" = "$size" ] && return 0
		size=$now
		sleep 0.3
	done
	return 1
}

# last_file: the name the latest ": wrote " line gives
last_file() {
	grep ': wrote ' "$LOG" | tail -1 | sed -n 's/.*: wrote \([^ ]*\) .*/\1/p'
}

# reads_incomplete FILE REASON WHAT: ktrace report prints FILE's events (over a thousand) and
# says on stderr it is incomplete, for a reason starting REASON; trace-cmd prints the same events
reads_incomplete() {
	local rc events
	timeout -s KILL 60 "$KTRACE" report -i "$1" > "$W/inc.txt" 2> "$W/inc.err"
	rc=$?
	events=$(grep -c 'sched_' "$W/inc.txt")
	[ $rc = 0 ] && [ "$events" -gt 1000 ] &&
		grep -qF "$1: incomplete recording ($2" "$W/inc.err" &&
		pass "ktrace report reads $3 ($events events) and says it is incomplete" ||
		fail "report of $3: exit $rc, $events events: $(head -3 "$W/inc.err")"
	tc_report "$1" 2> "$W/inc_tc.err" | cmp -s - "$W/inc.txt" &&
		pass "trace-cmd report reads $3 the same" ||
		fail "trace-cmd report differs on $3: $(head -3 "$W/inc_tc.err")"
}

start_listener "$D" --timeout 2

# 1. One client stalls mid-data (SIGSTOP with its connections open), another sends at full speed.
"$REPLAY" --repeat $BIG 127.0.0.1 "$PORT" "$SRC" 2>/dev/null &
BIG_PID=$!
streaming 1 || fail "the big client was not set up"
kill -STOP "$BIG_PID"
kill -0 "$BIG_PID" 2>/dev/null || fail "the big client ended before it was stopped: raise BIG"
timeout 60 "$REPLAY" 127.0.0.1 "$PORT" "$SRC" || fail "full-speed client beside a stalled one"
wait_log ": wrote " 1
got=$D/$(last_file)
case $got in
*.partial.dat) fail "the full-speed client's file is partial: $got" ;;
esac
tc_report "$got" | cmp -s - "$CORPUS/sched.report.txt" &&
	pass "a full-speed client is served while another stalls mid-data" ||
	fail "the full-speed client's file differs from the original"
rm -f "$got"

# 2. The stalled client is killed: its data so far is kept as .partial.dat, which reads.
kill -KILL "$BIG_PID"
kill -CONT "$BIG_PID" 2>/dev/null
wait "$BIG_PID" 2>/dev/null
wait_log "wrote .*\.partial\.dat .*the client vanished mid-recording" 1 &&
	pass "client killed mid-stream: a .partial.dat, one log line"
got=$D/$(last_file)
timeout -s KILL 60 "$KTRACE" report -i "$got" > "$W/partial.txt" 2> "$W/partial.err"
rc=$?
[ $rc = 0 ] && [ -s "$W/partial.txt" ] &&
	grep -qF "$got: incomplete recording (the client vanished mid-recording)" \
		"$W/partial.err" &&
	pass "the .partial.dat of the killed client reads ($(wc -l < "$W/partial.txt") lines)," \
	     "and report says why it is incomplete" ||
	fail "report of the .partial.dat: exit $rc: $(head -3 "$W/partial.err")"
rm -f "$got"
kill -0 "$LISTEN_PID" 2>/dev/null && pass "the listener is still up" || fail "the listener died"

# 3. The listener is killed mid-stream, then started again on the same port and directory.
"$REPLAY" --stall --repeat $SOME 127.0.0.1 "$PORT" "$SRC" 2> "$W/big.err" &
BIG_PID=$!
stalled 3 "$W/big.err" || fail "the client did not send its data: $(cat "$W/big.err")"
kill -KILL "$LISTEN_PID"
wait "$LISTEN_PID" 2>/dev/null
LISTEN_PID=
start=$SECONDS
timeout -s KILL 30 tail --pid="$BIG_PID" -f /dev/null
kill -0 "$BIG_PID" 2>/dev/null &&
	{ kill -KILL "$BIG_PID"; fail "the client hangs after the listener died"; }
wait "$BIG_PID"
rc=$?
[ $rc != 0 ] && pass "listener killed: its client exits $rc after $((SECONDS - start)) s" ||
	fail "listener killed: its client exits 0"
complete=$(find "$D" -maxdepth 1 -name '*.dat' ! -name '*.partial.dat')
[ -z "$complete" ] && pass "listener killed: no file passes for a complete recording" ||
	fail "listener killed: left $complete"
echo "left by the killed listener: $(cd "$D" && ls -A | tr '\n' ' ')"
part=$(cd "$D" && ls -A | grep '^\..*\.dat\.part$')
[ -n "$part" ] && pass "listener killed: its session's data is in $part" ||
	fail "listener killed: no .part file left to recover"
# started again as a user would: the same port (SO_REUSEADDR: no wait) and directory
: > "$LOG"
"$KTRACE" listen -p "$PORT" --bind 127.0.0.1 -d "$D" -l "$LOG" --timeout 2 2> "$W/restart.err" &
LISTEN_PID=$!
# It recovers (copies and fsyncs) before it listens: give a loaded disk a minute.
for _ in $(seq 1200); do grep -q "listening on" "$LOG" && break; sleep 0.05; done
wait_log "listening on" || { finish "$LOG"; exit 1; }
want="ktrace listen: recovered $part, left by a listener stopped mid-recording, into ${part#.}"
want=${want%.dat.part}.incomplete.dat
[ "$(wc -l < "$W/restart.err")" = 1 ] && grep -qF "$want (" "$W/restart.err" &&
	pass "restarted: one line on stderr: $(cat "$W/restart.err")" ||
	fail "restarted: expected one line '$want (...)' on stderr, got: $(cat "$W/restart.err")"
rec=$(find "$D" -maxdepth 1 -name '*.incomplete.dat')
left=$(cd "$D" && ls -A | grep '^\.')
[ -n "$rec" ] && [ -z "$left" ] &&
	pass "restarted: recovered into ${rec##*/}, no hidden file left" ||
	fail "restarted: recovered '$rec', hidden files left: $left"
reads_incomplete "$rec" "ktrace listen was stopped mid-recording; recovered" "the recovered file"
rm -f "$rec"
timeout 60 "$REPLAY" 127.0.0.1 "$PORT" "$SRC" || fail "client of the restarted listener"
wait_log ": wrote " 1
got=$D/$(last_file)
tc_report "$got" | cmp -s - "$CORPUS/sched.report.txt" &&
	pass "restarted on port $PORT and the same directory: a correct file" ||
	fail "the restarted listener's file differs from the original"
rm -f "$got"

# 4. A second listener on the same directory: a live session's files are not its to recover.
"$REPLAY" --repeat $BIG 127.0.0.1 "$PORT" "$SRC" 2>/dev/null &
BIG_PID=$!
streaming 2 || fail "the big client was not set up"
kill -STOP "$BIG_PID"
part=$(cd "$D" && ls -A | grep '^\..*\.dat\.part$')
"$KTRACE" listen -p 0 --bind 127.0.0.1 -d "$D" -l "$W/second.log" 2> "$W/second.err" &
SECOND_PID=$!
for _ in $(seq 100); do grep -q "listening on" "$W/second.log" && break; sleep 0.05; done
kill "$SECOND_PID"
wait "$SECOND_PID"
[ -n "$part" ] && [ -e "$D/$part" ] && [ ! -s "$W/second.err" ] &&
	! ls "$D"/*.incomplete.dat >/dev/null 2>&1 &&
	pass "a second listener leaves the live session's $part alone" ||
	fail "second listener: part '$part', stderr: $(cat "$W/second.err")"
kill -KILL "$BIG_PID"
kill -CONT "$BIG_PID" 2>/dev/null
wait "$BIG_PID" 2>/dev/null
wait_log "wrote .*\.partial\.dat .*the client vanished mid-recording" 1
got=$D/$(last_file)
"$KTRACE" report -i "$got" > /dev/null 2>&1 &&
	pass "the live session then ends as usual: ${got##*/} reads" ||
	fail "the live session's file after the second listener: ${got##*/}"
rm -f "$got"
left=$(cd "$D" && ls -A)
[ -z "$left" ] && pass "nothing else left in the directory" || fail "left in the directory: $left"

# 5. The listener is stopped (SIGTERM, as a user would) mid-stream: the session's data so far
# becomes a .partial.dat saying why, the client ends with an error, and the listener exits 0.
"$REPLAY" --stall --repeat $SOME 127.0.0.1 "$PORT" "$SRC" 2> "$W/stalled.err" &
BIG_PID=$!
stalled 3 "$W/stalled.err" || fail "the client did not send its data: $(cat "$W/stalled.err")"
stop_listener
wait_log "wrote .*\.partial\.dat .*ktrace listen was stopped mid-recording" 1 &&
	pass "listener stopped mid-stream: the session is kept in a .partial.dat"
timeout -s KILL 30 tail --pid="$BIG_PID" -f /dev/null
wait "$BIG_PID"
rc=$?
[ $rc != 0 ] && [ $rc != 137 ] && pass "listener stopped: its client exits $rc" ||
	fail "listener stopped: its client exits $rc"
got=$D/$(last_file)
reads_incomplete "$got" "ktrace listen was stopped mid-recording)" "the stopped session's file"
rm -f "$got"
left=$(cd "$D" && ls -A)
[ -z "$left" ] && pass "listener stopped: nothing else left" || fail "listener stopped: left $left"
finish "$LOG"
