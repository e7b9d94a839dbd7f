#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Live-kernel tests of record --flight-recorder and ktrace save. Usage: flight_tests.sh KTRACE CASE
# meson runs each CASE under flock /tmp/ktrace-tracefs.lock. Each save is read by ktrace report
# and by trace-cmd report (3.1.6); tracefs must be as found afterwards.
set -u
K=$(realpath "$1")
CASE=$2
T=/sys/kernel/tracing
W=$(mktemp -d /tmp/ktrace-flight-test.XXXXXX)
REC_PID=
cleanup() {
	[ -n "$REC_PID" ] && kill -INT "$REC_PID" 2>/dev/null && wait "$REC_PID" 2>/dev/null
	rm -rf "$W"
}
trap cleanup EXIT

fail() {
	echo "FAIL [$CASE]: $*" >&2
	[ -f "$W/rec.err" ] && sed 's/^/  recorder: /' "$W/rec.err" >&2
	exit 1
}

state() {
	local f
	for f in tracing_on current_tracer set_event buffer_size_kb buffer_percent \
		 set_event_notrace_pid options/event-fork options/overwrite \
		 events/sched/sched_switch/enable events/sched/sched_wakeup/enable \
		 events/sched/sched_process_exit/enable events/sched/sched_process_exit/filter \
		 events/sched/sched_process_exit/trigger; do
		printf '%s: ' "$f"
		tr '\n' ' ' < "$T/$f"
		echo
	done
	echo "instances: $(ls "$T/instances" | tr '\n' ' ')"
	echo "locks: $(ls /run/ktrace 2>/dev/null | grep '^flight' | tr '\n' ' ')"
}

# OPTIONS...: a recorder in the background, once it says it is armed
arm() {
	"${ARM_K:-$K}" record -W "$@" > "$W/rec.out" 2> "$W/rec.err" &
	REC_PID=$!
	for _ in $(seq 100); do
		grep -q 'flight recorder armed' "$W/rec.err" && return 0
		kill -0 "$REC_PID" 2>/dev/null || fail "record -W $* exited: $(cat "$W/rec.err")"
		sleep 0.1
	done
	fail "record -W $* did not arm in 10 s"
}

disarm() {
	kill -INT "$REC_PID"
	wait "$REC_PID" || fail "the recorder exited $? on SIGINT"
	REC_PID=
}

# FILE -> FILE.kt and FILE.tc: both reports, both must read it
reports() {
	"$K" report -i "$1" > "$1.kt" 2> "$W/kt.err" || fail "ktrace report $1: $(head -3 "$W/kt.err")"
	trace-cmd report -i "$1" > "$1.tc" 2> "$W/tc.err" ||
		fail "trace-cmd report $1: $(head -3 "$W/tc.err")"
	grep -qiE "error|corrupt" "$W/tc.err" && fail "trace-cmd report $1: $(head -3 "$W/tc.err")"
	[ "$(grep -c . "$1.kt")" = "$(grep -c . "$1.tc")" ] ||
		fail "$1: ktrace report has $(grep -c . "$1.kt") lines, trace-cmd $(grep -c . "$1.tc")"
}

marks() {	# PREFIX FROM TO: trace_marker writes, 10 ms apart
	local i
	for i in $(seq "$2" "$3"); do
		echo "$1-$i" > "$T/trace_marker"
		sleep 0.01
	done
}

saves() { ls -1tr "$W"/fl-*.dat 2>/dev/null; }	# in the order written

# The rare event is the exit of a task whose comm is flrare; the save holds it and the second
# of marks before it, and every mark written after it is in the next save, none twice.
case_save_on() {
	local before after files first second m
	cp /bin/true "$W/flrare"
	before=$(state)
	arm -e sched:sched_process_exit -e sched:sched_switch -o "$W/fl.dat" --save-interval 0 \
		--save-on 'sched:sched_process_exit: comm == "flrare"'
	[ -d "$T/instances/ktrace-flight-$REC_PID" ] || fail "no watcher instance"
	marks before 1 100
	"$W/flrare"
	marks after 1 100
	"$K" save > "$W/save.out" 2> "$W/save.err" || fail "ktrace save: $(cat "$W/save.err")"
	disarm
	after=$(state)
	[ "$before" = "$after" ] || fail "tracefs changed: $(diff <(echo "$before") <(echo "$after"))"
	files=$(saves)
	[ "$(echo "$files" | grep -c .)" = 2 ] || fail "expected 2 saves, got: $files"
	first=$(echo "$files" | head -1)
	second=$(echo "$files" | tail -1)
	[ "$(cat "$W/save.out")" = "$second" ] || fail "ktrace save printed $(cat "$W/save.out")"
	grep -q "saved $first" "$W/rec.err" || fail "the recorder did not say it saved $first"
	reports "$first"
	reports "$second"
	grep -qE 'flrare-[0-9]+ .*sched_process_exit' "$first.kt" || fail "the save lacks the rare event"
	for m in $(seq 1 100); do
		grep -q "tracing_mark_write: before-$m\$" "$first.kt" ||
			fail "before-$m (the second before the trigger) is not in the first save"
	done
	grep -q 'before-' "$second.kt" && fail "the second save repeats marks of the first"
	for m in $(seq 1 100); do
		n=$(cat "$first.kt" "$second.kt" | grep -c "tracing_mark_write: after-$m\$")
		[ "$n" = 1 ] || fail "after-$m (after the trigger) is in $n saves, not 1"
	done
	grep -q 'tracing_mark_write: after-100$' "$second.kt" || fail "after-100 not in the next save"
	echo "ok: save_on: the rare exit, 100 marks before it; 100 after it, each in one save"
}

# SIGUSR1 and ktrace save; a second recorder refused; --max-saves; save with none armed
case_signals() {
	local before after out
	before=$(state)
	arm -e sched:sched_switch -o "$W/fl.dat" --save-interval 0 --max-saves 3
	out=$("$K" record -W -e sched:sched_switch -o "$W/other.dat" 2>&1 </dev/null) &&
		fail "a second recorder armed"
	echo "$out" | grep -q "pid $REC_PID" || fail "the refusal does not name pid $REC_PID: $out"
	marks one 1 5
	kill -USR1 "$REC_PID"
	for _ in $(seq 50); do [ "$(saves | grep -c .)" = 1 ] && break; sleep 0.1; done
	marks two 1 5
	"$K" save -q || fail "ktrace save failed"
	marks three 1 5
	"$K" save > /dev/null || fail "the third ktrace save failed"
	wait "$REC_PID" || fail "the recorder did not end well after --max-saves 3"
	REC_PID=
	grep -q 'disarmed after 3 saves' "$W/rec.err" || fail "no 'disarmed after 3 saves'"
	[ "$(saves | grep -c .)" = 3 ] || fail "expected 3 saves: $(saves)"
	i=0
	for f in $(saves); do
		i=$((i + 1))
		reports "$f"
		w=$(echo "one two three" | cut -d' ' -f$i)
		[ "$(grep -c "tracing_mark_write: $w-" "$f.kt")" = 5 ] || fail "$f lacks its 5 $w marks"
	done
	out=$("$K" save 2>&1) && fail "ktrace save with none armed succeeded"
	echo "$out" | grep -q 'no flight recorder is armed' || fail "ktrace save said: $out"
	after=$(state)
	[ "$before" = "$after" ] || fail "tracefs changed: $(diff <(echo "$before") <(echo "$after"))"
	echo "ok: signals: SIGUSR1, ktrace save, refusal naming the pid, --max-saves 3"
}

# -- COMMAND: a failing command saves, a succeeding one does not
case_command() {
	local before after
	before=$(state)
	(cd "$W" && "$K" record -W -q -e sched:sched_switch -o fl.dat -- \
		sh -c "echo cmd-mark > $T/trace_marker; exit 3") || fail "record -W -- failing cmd"
	[ "$(saves | grep -c .)" = 1 ] || fail "a failing command saved $(saves | grep -c .) files"
	reports "$(saves)"
	grep -q 'tracing_mark_write: cmd-mark$' "$(saves).kt" || fail "the save lacks cmd-mark"
	rm -f "$W"/fl-*
	(cd "$W" && "$K" record -W -q -e sched:sched_switch -o fl.dat -- true) || fail "record -W -- true"
	[ -z "$(saves)" ] || fail "a succeeding command saved $(saves)"
	after=$(state)
	[ "$before" = "$after" ] || fail "tracefs changed: $(diff <(echo "$before") <(echo "$after"))"
	echo "ok: command: saved on exit 3, not on exit 0"
}

# A killed recorder: its lock no longer counts, reset --restore puts tracefs back and removes it
case_killed() {
	local before after
	before=$(state)
	arm -e sched:sched_switch -o "$W/fl.dat" -b 64 \
		--save-on 'sched:sched_process_exit: comm == "flrare"' --save-on-latency 'wakeup_rt>1s'
	[ "$(cat "$T/options/event-fork")" = 1 ] || fail "event-fork is not on while armed"
	kill -KILL "$REC_PID"
	wait "$REC_PID" 2>/dev/null
	REC_PID=
	"$K" save > /dev/null 2>&1 && fail "ktrace save found a killed recorder"
	"$K" reset --restore > "$W/restore.out" 2>&1 || fail "reset --restore: $(cat "$W/restore.out")"
	grep -q 'flight recorder that was killed' "$W/restore.out" ||
		fail "reset --restore did not remove the lock: $(cat "$W/restore.out")"
	after=$(state)
	[ "$before" = "$after" ] || fail "tracefs changed: $(diff <(echo "$before") <(echo "$after"))"
	echo "ok: killed: reset --restore undid a SIGKILLed recorder and removed its lock"
}

# bad input: one line naming the flag, nothing changed
case_refusals() {
	local before after out
	before=$(state)
	for args in "--keep 5" "--save-on x" "-W --keep 5q -e sched:sched_switch" \
		    "-W -b 64 --keep 10MB -e sched:sched_switch" "-W -N localhost:1 -e sched:sched_switch" \
		    "-W -m 100 -e sched:sched_switch" "-W --save-on sched* -e sched:sched_switch" \
		    "-W --max-saves x -e sched:sched_switch" "--save-on-lost" \
		    "-W --save-on-latency wakeup>5q -e sched:sched_switch" \
		    "-W --save-on-latency irqsoff>5ms -e sched:sched_switch" \
		    "-W --save-on-latency wakeup -e sched:sched_switch"; do
		# shellcheck disable=SC2086
		out=$("$K" record $args 2>&1 </dev/null) && fail "record $args succeeded"
		[ "$(echo "$out" | grep -c .)" = 1 ] || fail "record $args: not one line: $out"
		echo "$out" | grep -qE -- '--keep|--save-on|-N|-m|-b|--max-saves' ||
			fail "record $args: the message names no flag: $out"
	done
	after=$(state)
	[ "$before" = "$after" ] || fail "tracefs changed: $(diff <(echo "$before") <(echo "$after"))"
	echo "ok: refusals"
}

one_save() {	# the only save, or fail
	[ "$(saves | grep -c .)" = 1 ] || fail "expected 1 save, got: $(saves | tr '\n' ' ')"
	saves
}

# --save-on-latency: a task woken by its timer while a SCHED_FIFO hog keeps its CPU (0) busy
# waits ~0.5 s; exactly one save, holding its wake-up and its switch-in; nothing before.
case_latency() {
	local before after f vic
	cp /bin/sleep "$W/flvictim"
	before=$(state)
	arm -e sched:sched_switch -e sched:sched_wakeup -o "$W/fl.dat" \
		--save-on-latency 'wakeup>200ms' --save-interval 5000
	[ -d "$T/instances/ktrace-flight-lat-$REC_PID" ] || fail "no latency watcher instance"
	sleep 1
	[ -z "$(saves)" ] || fail "saved before any long wake-up: $(cat "$W/rec.err")"
	taskset -c 0 "$W/flvictim" 0.3 &
	vic=$!
	sleep 0.05
	timeout 0.8 taskset -c 0 chrt -f 50 sh -c 'while :; do :; done'
	wait "$vic"
	sleep 1
	disarm
	after=$(state)
	[ "$before" = "$after" ] || fail "tracefs changed: $(diff <(echo "$before") <(echo "$after"))"
	f=$(one_save) || exit 1
	grep -qE "wakeup>200ms: pid [0-9]+ \(.*\) waited [0-9.]+ ms: saved $f" "$W/rec.err" ||
		fail "the recorder did not say why it saved $f"
	reports "$f"
	grep -qE "sched_wakeup: +flvictim:$vic " "$f.kt" || fail "$f lacks the victim's wake-up"
	grep -qE "sched_switch: .* ==> flvictim:$vic " "$f.kt" || fail "$f lacks its switch-in"
	echo "ok: latency: one save holding the 0.5 s wake-up of flvictim"
}

# --save-on-lost: a non-overwriting buffer of 8 KB flooded with marks drops events: one save
# (--save-interval 10000), the recorder naming the lost events, the first marks in it.
case_lost() {
	local before after f i
	before=$(state)
	arm -e syscalls:sys_enter_getppid -b 8 -O nooverwrite -o "$W/fl.dat" --save-on-lost \
		--save-interval 10000
	sleep 1.5
	[ -z "$(saves)" ] || fail "saved before any event was lost: $(cat "$W/rec.err")"
	# a full non-overwriting buffer refuses the write (EBADF): that is the loss
	for i in $(seq 2000); do echo "lost-$i" 2> /dev/null > "$T/trace_marker"; done
	for _ in $(seq 50); do [ -n "$(saves)" ] && break; sleep 0.1; done
	disarm
	after=$(state)
	[ "$before" = "$after" ] || fail "tracefs changed: $(diff <(echo "$before") <(echo "$after"))"
	f=$(one_save) || exit 1
	grep -qE "lost events: [0-9]+ on CPU [0-9]+ of the top instance: saved $f" "$W/rec.err" ||
		fail "the recorder did not say it saved $f for lost events"
	reports "$f"
	grep -q 'tracing_mark_write: lost-1$' "$f.kt" || fail "$f lacks the first mark"
	echo "ok: lost: one save when the full buffer dropped events"
}

# A save's own threads leave no event of their own in the trace (only the sched_switch and
# sched_wakeup lines of another task that the kernel keeps); the recorder runs as flsaver.
case_self() {
	local before after f n
	cp "$K" "$W/flsaver"
	before=$(state)
	ARM_K="$W/flsaver" arm -e sched:sched_switch -e sched:sched_wakeup \
		-e syscalls:sys_enter_read -e syscalls:sys_enter_write -e syscalls:sys_enter_splice \
		-e syscalls:sys_enter_openat -e syscalls:sys_enter_mmap -o "$W/fl.dat" --save-interval 0
	marks one 1 5
	kill -USR1 "$REC_PID"
	for _ in $(seq 50); do [ "$(saves | grep -c .)" = 1 ] && break; sleep 0.1; done
	marks two 1 5
	kill -USR1 "$REC_PID"
	for _ in $(seq 50); do [ "$(saves | grep -c .)" = 2 ] && break; sleep 0.1; done
	disarm
	after=$(state)
	[ "$before" = "$after" ] || fail "tracefs changed: $(diff <(echo "$before") <(echo "$after"))"
	[ "$(saves | grep -c .)" = 2 ] || fail "expected 2 saves: $(saves)"
	for f in $(saves); do
		reports "$f"
		grep -q 'sys_enter_write' "$f.kt" || fail "$f has no sys_enter_write at all"
		n=$(grep -E '^ *flsaver-[0-9]+ ' "$f.kt" | grep -cvE 'sched_(switch|wakeup):')
		[ "$n" = 0 ] || fail "$f has $n events of the recorder: $(grep -E '^ *flsaver-[0-9]+ ' \
			"$f.kt" | grep -vE 'sched_(switch|wakeup):' | head -3)"
	done
	echo "ok: self: no event of the recorder or its save threads in 2 saves"
}

"case_$CASE"
