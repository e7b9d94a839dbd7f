#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Live-kernel tests of record -A (the host's side of host-guest tracing) on this machine's
# loopback: the agent is net_replay --agent, which serves a corpus file through ktrace's own
# agent code (a real agent here would share the host's tracefs). Usage:
# guest_tests.sh KTRACE NET_REPLAY CORPUS_DIR CASE. meson runs each CASE under flock
# /tmp/ktrace-tracefs.lock.
set -u
K=$1
REPLAY=$2
CORPUS=$3
CASE=$4
T=/sys/kernel/tracing
W=$(mktemp -d /tmp/ktrace-guest-test.XXXXXX)
AGENT_PID=
cleanup() {
	[ -n "$AGENT_PID" ] && kill "$AGENT_PID" 2>/dev/null && wait "$AGENT_PID" 2>/dev/null
	rm -rf "$W"
}
trap cleanup EXIT

fail() {
	echo "FAIL [$CASE]: $*" >&2
	[ -f "$W/agent.err" ] && sed 's/^/  agent: /' "$W/agent.err" >&2
	[ -f "$W/rec.err" ] && sed 's/^/  record: /' "$W/rec.err" | tail -20 >&2
	exit 1
}

snapshot() {
	local f
	for f in tracing_on current_tracer set_event buffer_size_kb trace_clock set_event_pid \
		 events/sched/sched_switch/enable; do
		printf '%s: ' "$f"
		tr '\n' ' ' < "$T/$f"
		echo
	done
	echo "instances: $(ls "$T/instances" | tr '\n' ' ')"
}

free_port() {
	local p
	for p in $(shuf -i 20000-60000 -n 50); do
		if ! (exec 3<>/dev/tcp/127.0.0.1/$p) 2>/dev/null; then
			echo "$p"
			return
		fi
	done
	fail "no free TCP port"
}

start_agent() {	# FILE
	PORT=$(free_port)
	"$REPLAY" --agent 127.0.0.1 "$PORT" "$1" > "$W/agent.out" 2> "$W/agent.err" &
	AGENT_PID=$!
	local i
	for i in $(seq 50); do
		[ -n "$(ss -Hltn "sport = :$PORT")" ] && return
		kill -0 "$AGENT_PID" 2>/dev/null || fail "the agent exited at start"
		sleep 0.1
	done
	fail "the agent does not listen on $PORT"
}

wait_agent() {
	wait "$AGENT_PID"
	local rc=$?
	AGENT_PID=
	[ "$rc" = 0 ] || fail "the agent exited $rc"
}

# The guest's file reads as the file the agent sent: same events, same text, with both readers.
same_report() {	# GUEST-FILE ORIGINAL
	"$K" report -i "$1" > "$W/got.txt" 2> "$W/got.err" || fail "ktrace report $1: $(cat "$W/got.err")"
	"$K" report -i "$2" > "$W/want.txt" 2>&1 ||
		fail "ktrace report of the original: $(tail -3 "$W/want.txt")"
	[ -s "$W/want.txt" ] || fail "the original has no events"
	cmp -s "$W/got.txt" "$W/want.txt" ||
		fail "ktrace report differs: $(diff "$W/want.txt" "$W/got.txt" | head -5)"
	if command -v trace-cmd > /dev/null; then
		trace-cmd report -i "$1" > "$W/tgot.txt" 2> "$W/tgot.err" ||
			fail "trace-cmd report $1: $(head -3 "$W/tgot.err")"
		trace-cmd report -i "$2" > "$W/twant.txt" 2>/dev/null
		cmp -s "$W/tgot.txt" "$W/twant.txt" ||
			fail "trace-cmd report differs: $(diff "$W/twant.txt" "$W/tgot.txt" | head -5)"
	fi
}

# The host records its own trace.dat while the guest's arrives in trace-NAME.dat; the options
# after -A are the guest's, the command after them the host's.
# A guest without -C of its own is sent the host's clock first, as trace-cmd does.
record_pair() {	# CORPUS-FILE EXPECTED-ARGS GUEST-OPTION...
	local before after file=$1 want=$2
	shift 2
	before=$(snapshot)
	start_agent "$CORPUS/$file"
	timeout 120 "$K" record -o "$W/trace.dat" -e sched:sched_switch \
		-A "@127.0.0.1:$PORT" --name g "$@" -- sleep 0.5 \
		> "$W/rec.out" 2> "$W/rec.err" || fail "record -A failed"
	wait_agent
	after=$(snapshot)
	[ "$before" = "$after" ] || fail "tracefs changed: $(diff <(echo "$before") <(echo "$after"))"
	[ "$(cat "$W/agent.out")" = "args: $want" ] ||
		fail "the guest got '$(cat "$W/agent.out")', not '$want'"
	# the host's file names its guest as trace-cmd's does: name, the guest's trace id, CPUs
	"$K" dump --options "$W/trace.dat" > "$W/opts.txt" 2>&1 || fail "dump --options"
	grep -A3 "Option GUEST" "$W/opts.txt" | tr '\n' ' ' | grep -q \
		"g \[Guest name\] 0x1234ABCD \[trace id\] 2 \[Guest CPUs\]" ||
		fail "no GUEST option for g: $(grep -A3 GUEST "$W/opts.txt")"
	[ -f "$W/trace-g.dat" ] || fail "no trace-g.dat: $(ls "$W")"
	same_report "$W/trace-g.dat" "$CORPUS/$file"
	"$K" report -i "$W/trace.dat" > "$W/host.txt" 2>&1 || fail "the host's file does not read"
	grep -q "sched_switch:" "$W/host.txt" || fail "the host recorded no sched_switch"
	grep -q "guest g: .* written to $W/trace-g.dat" "$W/rec.err" || fail "no guest summary"
	[ -z "$(ls "$W" | grep '\.cpu')" ] || fail "temp files left: $(ls "$W")"
}

host_clock() {
	sed 's/.*\[\(.*\)\].*/\1/' "$T/trace_clock"
}

case_pair_v7() {
	record_pair sched_zstd.dat "-C $(host_clock) -e sched_wakeup -p nop" -e sched_wakeup -p nop
}

case_pair_v6() {
	record_pair sched_v6.dat "-C global -e sched_wakeup" -C global -e sched_wakeup
}

# The agent killed while the host records: said at once, the host's recording goes on and is
# kept, the guest's file holds what the agent sent (all of the corpus file, sent at the start),
# the command fails, tracefs is put back.
case_agent_killed() {
	local before after rc pid i
	before=$(snapshot)
	start_agent "$CORPUS/sched_zstd.dat"
	timeout 120 "$K" record -o "$W/trace.dat" -e sched:sched_switch \
		-A "@127.0.0.1:$PORT" --name g -- sleep 6 > "$W/rec.out" 2> "$W/rec.err" &
	pid=$!
	# the agent has the request, then sends everything and waits for CLOSE; then it dies
	for i in $(seq 50); do
		grep -q "^args:" "$W/agent.out" && break
		sleep 0.1
	done
	sleep 1
	kill -KILL "$AGENT_PID"
	wait "$AGENT_PID" 2>/dev/null
	AGENT_PID=
	for i in $(seq 20); do
		grep -q "hung up while recording" "$W/rec.err" && break
		sleep 0.1
	done
	kill -0 "$pid" 2>/dev/null || fail "record ended with its agent"
	grep -q "^ktrace record: -A @127.0.0.1:$PORT: the agent hung up while recording; the host goes on" \
		"$W/rec.err" || fail "the agent's death is not said while recording"
	wait "$pid"
	rc=$?
	[ "$rc" = 1 ] || fail "exit $rc after the agent died, not 1"
	grep -q "^ktrace record: -A @127.0.0.1:$PORT: the agent hung up while recording; $W/trace-g.dat keeps the [1-9][0-9]* bytes of pages it sent$" "$W/rec.err" ||
		fail "the error does not say what was kept"
	after=$(snapshot)
	[ "$before" = "$after" ] || fail "tracefs changed: $(diff <(echo "$before") <(echo "$after"))"
	same_report "$W/trace-g.dat" "$CORPUS/sched_zstd.dat"
	"$K" report -i "$W/trace.dat" > "$W/host.txt" 2>&1 || fail "the host's file does not read"
	grep -q "sched_switch:" "$W/host.txt" || fail "the host recorded no sched_switch"
	[ -z "$(ls "$W" | grep '\.cpu')" ] || fail "temp files left: $(ls "$W")"
}

# No agent there: one line naming -A, tracefs untouched, no file left behind.
case_refused() {
	local before after port rc
	before=$(snapshot)
	port=$(free_port)
	timeout 60 "$K" record -o "$W/trace.dat" -e sched_switch -A "@127.0.0.1:$port" \
		-e sched_wakeup -- true > "$W/rec.out" 2> "$W/rec.err"
	rc=$?
	[ "$rc" = 1 ] || fail "exit $rc with no agent, not 1"
	grep -q "^ktrace record: -A @127.0.0.1:$port: connecting to the agent" "$W/rec.err" ||
		fail "no message naming -A"
	[ "$(wc -l < "$W/rec.err")" = 1 ] || fail "more than one line"
	[ -z "$(ls "$W" | grep -v '^rec\.')" ] || fail "files left: $(ls "$W")"
	after=$(snapshot)
	[ "$before" = "$after" ] || fail "tracefs changed"
}

# Bad -A words are usage errors before anything is touched.
case_usage() {
	local rc
	"$K" record -A somename -e sched_switch true 2> "$W/err"
	rc=$?
	[ "$rc" = 1 ] || fail "-A somename: exit $rc"
	grep -q "^ktrace record: -A 'somename' guest not found" "$W/err" || fail "$(cat "$W/err")"
	"$K" record -A 3:x true 2> "$W/err"
	rc=$?
	[ "$rc" = 1 ] || fail "-A 3:x: exit $rc"
	grep -q "port number" "$W/err" || fail "$(cat "$W/err")"
	"$K" record --name g -e sched_switch true 2> "$W/err"
	rc=$?
	[ "$rc" = 1 ] || fail "--name without -A: exit $rc"
	grep -q "after -A" "$W/err" || fail "$(cat "$W/err")"
	"$K" record -N 127.0.0.1:1 -A @127.0.0.1:2 true 2> "$W/err"
	rc=$?
	[ "$rc" = 1 ] || fail "-N with -A: exit $rc"
	# a flight recorder saves this machine's buffers only: -A is refused, not dropped
	"$K" record -W -A @127.0.0.1:2 -e sched_switch true 2> "$W/err"
	rc=$?
	[ "$rc" = 1 ] || fail "-W with -A: exit $rc"
	grep -q -- "-A.*-W" "$W/err" || fail "$(cat "$W/err")"
}

command -v ss > /dev/null || fail "ss (iproute2) is not installed: scripts/deps"
"case_$CASE"
echo "PASS [$CASE]"
