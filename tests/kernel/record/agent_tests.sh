#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Live-kernel tests of ktrace agent on this machine's loopback (TCP, -N). Usage:
# agent_tests.sh KTRACE CASE. meson runs each CASE under flock /tmp/ktrace-tracefs.lock.
set -u
K=$1
CASE=$2
T=/sys/kernel/tracing
W=$(mktemp -d /tmp/ktrace-agent-test.XXXXXX)
AGENT_PID=
cleanup() {
	[ -n "$AGENT_PID" ] && kill "$AGENT_PID" 2>/dev/null && wait "$AGENT_PID" 2>/dev/null
	rm -rf "$W"
}
trap cleanup EXIT

fail() {
	echo "FAIL [$CASE]: $*" >&2
	[ -f "$W/agent.err" ] && sed 's/^/  agent: /' "$W/agent.err" >&2
	[ -f "$W/rec.err" ] && sed 's/^/  host: /' "$W/rec.err" | tail -20 >&2
	exit 1
}

snapshot() {
	local f
	for f in tracing_on current_tracer set_event buffer_size_kb trace_clock set_event_pid \
		 set_event_notrace_pid events/sched/sched_switch/enable; do
		printf '%s: ' "$f"
		tr '\n' ' ' < "$T/$f"
		echo
	done
	echo "instances: $(ls "$T/instances" | tr '\n' ' ')"
}

# A port nobody listens on: bash's /dev/tcp connect fails there.
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

start_agent() {	# ARGS...
	PORT=$(free_port)
	"$K" agent -p "$PORT" "$@" > "$W/agent.out" 2> "$W/agent.err" &
	AGENT_PID=$!
	local i
	# ss, not a connection: the agent would take a probe for a host
	for i in $(seq 50); do
		[ -n "$(ss -Hltn "sport = :$PORT")" ] && return
		kill -0 "$AGENT_PID" 2>/dev/null || fail "agent exited at start"
		sleep 0.1
	done
	fail "agent does not listen on $PORT"
}

stop_agent() {
	kill -TERM "$AGENT_PID"
	wait "$AGENT_PID"
	local rc=$?
	AGENT_PID=
	[ "$rc" = 0 ] || fail "agent exited $rc on SIGTERM"
}

# The host: agent_host.py, trace-cmd 3.1.6's side of `record -A` scripted. (trace-cmd record
# -A itself cannot be the host here: on one tracefs its command handling switches the agent's
# events off, and on SIGINT it crashes leaving its recorders running. The guest-pair tests
# run it against the agent on two machines.)
host_record() {	# OUTDIR RECORD-ARGS...
	local out=$1
	shift
	mkdir -p "$out"
	( for i in $(seq 40); do sleep 0.05; done ) &
	timeout 120 python3 "$(dirname "$0")/agent_host.py" "$PORT" 2 "$out" "$@" \
		> "$W/rec.out" 2> "$W/rec.err"
}

# The guest's data: the metadata of a trace.dat file, then whole pages on every CPU.
check_host_files() {	# OUTDIR
	local out=$1 cpus page total=0 f n
	cpus=$(sed -n 's/^cpus=\([0-9]*\) .*/\1/p' "$W/rec.out")
	page=$(sed -n 's/.* page_size=\([0-9]*\) .*/\1/p' "$W/rec.out")
	[ "$cpus" = "$(nproc --all)" ] || fail "TRACE_RESP says $cpus CPUs, this machine has $(nproc --all)"
	[ "$(head -c 10 "$out/meta" | od -An -c | tr -d ' ')" = '027\bDtracing' ] ||
		fail "the metadata is not a trace.dat file's start"
	for f in "$out"/cpu*; do
		n=$(stat -c %s "$f")
		[ $((n % page)) = 0 ] || fail "$f: $n bytes, not whole pages of $page"
		total=$((total + n))
	done
	[ "$total" -gt 0 ] || fail "no page of data from the agent"
}

case_scripted_host() {
	local before after
	before=$(snapshot)
	start_agent -N 127.0.0.1 --verbose
	host_record "$W/h" -C local -e sched_switch || fail "the host failed: $(cat "$W/rec.err")"
	check_host_files "$W/h"
	stop_agent
	after=$(snapshot)
	[ "$before" = "$after" ] || fail "tracefs changed: $(diff <(echo "$before") <(echo "$after"))"
	grep -q "asks to record: -C local -e sched_switch" "$W/agent.err" ||
		fail "--verbose did not show the host's options"
}

# Options an agent cannot honour end that host's session with one line, not the agent.
case_bad_options() {
	start_agent -N 127.0.0.1
	host_record "$W/h" -e no_such_event_xyz && fail "the agent served an unknown event"
	host_record "$W/h2" -o /tmp/elsewhere.dat -e sched_switch && fail "the agent took -o"
	grep -q "an agent records to the host only" "$W/agent.err" || fail "no message for -o"
	host_record "$W/h3" -e sched_switch || fail "the host after bad options: $(cat "$W/rec.err")"
	check_host_files "$W/h3"
	stop_agent
}

# A host that sends garbage gets one line and a closed connection; the agent serves the next.
case_bad_request() {
	start_agent -N 127.0.0.1
	exec 3<>/dev/tcp/127.0.0.1/$PORT
	printf '\0\0\0\x10\0\0\0\x63\0\0\0\0\0\0\0\0' >&3
	timeout 10 cat <&3 > /dev/null
	exec 3>&-
	sleep 0.3
	grep -q "reading its trace request" "$W/agent.err" || fail "no message for a bad request"
	[ "$(wc -l < "$W/agent.err")" = 1 ] || fail "more than one line for a bad request"
	host_record "$W/h" -e sched_switch || fail "the host after a bad request: $(cat "$W/rec.err")"
	check_host_files "$W/h"
	stop_agent
}

# -N names the one host served, --allow the ranges: others are closed at once.
case_refused() {
	start_agent -N 127.0.0.2 --verbose
	exec 3<>/dev/tcp/127.0.0.1/$PORT
	timeout 10 cat <&3 > /dev/null || fail "the agent kept a host -N does not name"
	exec 3>&-
	stop_agent
	grep -q "refused (not allowed)" "$W/agent.err" || fail "no refusal for -N"
	start_agent -N 127.0.0.1 --allow 10.0.0.0/8 --verbose
	exec 3<>/dev/tcp/127.0.0.1/$PORT
	timeout 10 cat <&3 > /dev/null || fail "the agent kept a host outside --allow"
	exec 3>&-
	stop_agent
	grep -q "refused (not allowed)" "$W/agent.err" || fail "no refusal for --allow"
}

case_usage() {
	local rc
	"$K" agent -P 3 2> "$W/err"
	rc=$?
	[ "$rc" = 1 ] || fail "-P: exit $rc, not 1"
	grep -q "^ktrace agent: -P" "$W/err" || fail "-P: $(cat "$W/err")"
	"$K" agent -p x 2> "$W/err"
	rc=$?
	[ "$rc" = 1 ] || fail "-p x: exit $rc, not 1"
	"$K" agent -N 127.0.0.1 -p 70000 2> "$W/err"
	rc=$?
	[ "$rc" = 1 ] || fail "-N -p 70000: exit $rc, not 1"
	"$K" agent --allow 10.0.0.0/99 2> "$W/err"
	rc=$?
	[ "$rc" = 1 ] || fail "--allow 10.0.0.0/99: exit $rc, not 1"
}

command -v python3 > /dev/null || fail "python3 is not installed: scripts/deps"
command -v ss > /dev/null || fail "ss (iproute2) is not installed: scripts/deps"
"case_$CASE"
echo "PASS [$CASE]"
