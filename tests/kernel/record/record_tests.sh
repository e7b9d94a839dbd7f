#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Live-kernel tests of ktrace record/extract. Usage: record_tests.sh KTRACE HELPER CASE
# meson runs each CASE under flock /tmp/ktrace-tracefs.lock; every file written is checked with
# trace-cmd report (3.1.6), the reference reader.
set -u
K=$1
HELPER=$2
CASE=$3
NOMMAP=$(dirname "$HELPER")/nommap_shim.so
T=/sys/kernel/tracing
LATENCY_TRACERS=$(dirname "$0")/../../data/latency_tracers.tsv
W=$(mktemp -d /tmp/ktrace-record-test.XXXXXX)
CLEANUP=()
cleanup() {
	local c
	for c in "${CLEANUP[@]}"; do eval "$c"; done
	rm -rf "$W"
}
trap cleanup EXIT

fail() {
	echo "FAIL [$CASE]: $*" >&2
	exit 1
}

# The tracefs settings record may touch; a record must leave all of them as it found them.
snapshot() {
	local f
	for f in tracing_on current_tracer set_event buffer_size_kb trace_clock set_event_pid \
		 set_event_notrace_pid saved_cmdlines_size options/event-fork options/function-fork \
		 options/print-parent options/stacktrace events/enable events/sched/enable \
		 events/sched/sched_switch/enable events/sched/sched_switch/filter \
		 events/sched/sched_wakeup/filter \
		 events/syscalls/sys_enter_getppid/enable events/syscalls/sys_enter_getppid/trigger \
		 events/irq/irq_handler_entry/enable; do
		printf '%s: ' "$f"
		tr '\n' ' ' < "$T/$f"
		echo
	done
	echo "instances: $(ls "$T/instances" | tr '\n' ' ')"
}

same_state() {	# BEFORE AFTER [WHAT]: two snapshots, equal
	[ "$1" = "$2" ] || fail "${3:+$3: }tracefs changed: $(diff <(echo "$1") <(echo "$2"))"
}

report() {	# FILE -> $W/report.txt
	trace-cmd report -i "$1" > "$W/report.txt" 2> "$W/report.err" ||
		fail "trace-cmd report -i $1 failed: $(head -5 "$W/report.err")"
	if grep -qiE "error|fail|bad|corrupt" "$W/report.err"; then
		fail "trace-cmd report -i $1 complained: $(head -5 "$W/report.err")"
	fi
	trace-cmd dump --summary -i "$1" > "$W/dump.txt" 2>&1 ||
		fail "trace-cmd dump --summary -i $1 failed: $(head -5 "$W/dump.txt")"
}

# FILE N PID: exactly N getppid events, all from PID, and marks 1..N in order.
check_getppid() {
	local file=$1 n=$2 pid=$3 got mine marks
	report "$file"
	got=$(grep -c 'sys_enter_getppid:' "$W/report.txt")
	mine=$(grep -E -- "-$pid +\[[0-9]+\]" "$W/report.txt" | grep -c 'sys_enter_getppid:')
	[ "$got" = "$n" ] || fail "$file: $got sys_enter_getppid events, expected $n"
	[ "$mine" = "$n" ] || fail "$file: $mine getppid events from pid $pid, expected $n"
	marks=$(grep -o 'ktrace-mark [0-9]*' "$W/report.txt" | awk '{print $2}' | tr '\n' ' ')
	[ "$marks" = "$(seq 1 "$n" | tr '\n' ' ')" ] ||
		fail "$file: marks out of order or missing: ${marks:0:200}"
}

# OPTIONS... : records the helper with -F and checks the result.
record_helper() {
	local n=$1 out=$W/t.dat pid
	shift
	"$K" record -q -o "$out" -e syscalls:sys_enter_getppid -F "$@" -- "$HELPER" "$n" \
		> "$W/helper.out" 2> "$W/record.err" || fail "record $* failed: $(cat "$W/record.err")"
	pid=$(sed -n 's/^pid=//p' "$W/helper.out")
	[ -n "$pid" ] || fail "the helper did not run"
	check_getppid "$out" "$n" "$pid"
}

case_getppid() {
	local before
	before=$(snapshot)
	record_helper 200
	grep -q 'zstd' "$W/dump.txt" || fail "default file is not zstd: $(head -12 "$W/dump.txt")"
	grep -q '7	\[Version\]' "$W/dump.txt" || fail "default file is not version 7"
	same_state "$before" "$(snapshot)"
}

case_compressions() {
	local opt want
	# each option set, then the version and compression trace-cmd dump must find in its file
	while IFS='|' read -r opt want; do
		# shellcheck disable=SC2086
		record_helper 50 $opt
		grep -q "^[[:space:]]*${want% *}[[:space:]]\[Version\]" "$W/dump.txt" &&
			grep -q "^[[:space:]]*${want#* }[[:space:]]\[Compression algorithm\]" "$W/dump.txt" ||
			fail "record $opt: not version/compression '$want': $(head -12 "$W/dump.txt")"
	done <<-EOF
		--compression zstd|7 zstd
		--compression none|7 none
		--compression any|7 zstd
		--file-version 7 --compression none|7 none
	EOF
	record_helper 50 --file-version 6
	grep -q '^[[:space:]]*6[[:space:]]\[Version\]' "$W/dump.txt" ||
		fail "record --file-version 6: not a v6 file: $(head -5 "$W/dump.txt")"
	# Debian's trace-cmd reads zstd only; a zlib file must at least say so in its header.
	"$K" record -q -o "$W/z.dat" --compression zlib -e syscalls:sys_enter_getppid -F -- \
		"$HELPER" 5 > /dev/null 2> "$W/record.err" || fail "zlib record: $(cat "$W/record.err")"
	head -c 64 "$W/z.dat" | grep -aq zlib || fail "zlib file without zlib header"
}

case_v6_layout() {
	record_helper 30 --file-version 6
	grep -q '6	\[Version\]' "$W/dump.txt" || fail "not a v6 file: $(head -5 "$W/dump.txt")"
}

case_sched() {
	local out=$W/s.dat
	"$K" record -q -o "$out" -e sched:sched_switch -e sched:sched_process_exec \
		-e sched:sched_process_exit -e sched:sched_wakeup -- sh -c 'sleep 0.1; exec true' \
		2> "$W/record.err" || fail "record failed: $(cat "$W/record.err")"
	report "$out"
	grep -q 'sched_process_exec:.*filename=.*true' "$W/report.txt" ||
		fail "no sched_process_exec of true"
	grep -q 'sched_process_exit:.*comm=true' "$W/report.txt" ||
		fail "no sched_process_exit of true"
	[ "$(grep -c 'sched_switch:' "$W/report.txt")" -gt 2 ] || fail "too few sched_switch"
	grep -q 'Events format, 1 systems' "$W/dump.txt" ||
		fail "expected the sched formats only: $(grep 'Events format' "$W/dump.txt")"
}

# A signal in the middle of a recording still leaves a valid file and the kernel as found.
signal_case() {
	local sig=$1 out=$W/sig.dat before rc pid
	before=$(snapshot)
	"$K" record -q -o "$out" -e sched:sched_switch "${@:2}" 2> "$W/record.err" &
	pid=$!
	sleep 1
	kill -"$sig" "$pid"
	wait "$pid"
	rc=$?
	[ "$rc" = 0 ] || fail "record ended by SIG$sig returned $rc: $(cat "$W/record.err")"
	report "$out"
	[ "$(grep -c 'sched_switch:' "$W/report.txt")" -gt 0 ] || fail "SIG$sig: no events"
	same_state "$before" "$(snapshot)" "SIG$sig"
}

case_signals() {
	signal_case INT
	signal_case TERM -- sleep 30
	signal_case HUP -- sleep 30
}

# Custom settings before record; record changes them all and must put every one back.
case_restore() {
	local before
	CLEANUP+=("echo 0 > $T/options/stacktrace; echo 1 > $T/options/print-parent")
	CLEANUP+=("echo 0 > $T/events/sched/sched_wakeup/filter; echo 0 > $T/events/irq/irq_handler_entry/enable")
	CLEANUP+=("echo $(cat $T/buffer_size_kb) > $T/buffer_size_kb")
	echo 0 > "$T/options/print-parent"
	echo 'prio < 50' > "$T/events/sched/sched_wakeup/filter"
	echo 1 > "$T/events/irq/irq_handler_entry/enable"
	echo 1100 > "$T/buffer_size_kb"
	before=$(snapshot)
	record_helper 20 -b 2048 -C global -O stacktrace -e sched:sched_switch -f 'prev_pid != 0'
	same_state "$before" "$(snapshot)"
}

case_exec_failure() {
	local before
	before=$(snapshot)
	if "$K" record -q -o "$W/x.dat" -e sched:sched_switch -- /nonexistent/ktrace-cmd \
		2> "$W/record.err"; then
		fail "record of a missing command succeeded"
	fi
	grep -q '/nonexistent/ktrace-cmd' "$W/record.err" ||
		fail "the error does not name the command: $(cat "$W/record.err")"
	"$K" record -q -o "$W/x.dat" -- true 2> "$W/record.err" &&
		fail "record without -e or -p succeeded"
	grep -q 'no event or tracer' "$W/record.err" || fail "no -e/-p: $(cat "$W/record.err")"
	[ ! -e "$W/x.dat" ] || fail "a failed record left its output file"
	same_state "$before" "$(snapshot)"
}

# A filter that matches nothing and a trigger that stops tracing after the first event.
case_filter_trigger() {
	local out=$W/f.dat pid
	"$K" record -q -o "$out" -e syscalls:sys_enter_getppid -f 'common_pid == 1' -- \
		"$HELPER" 0 > /dev/null 2> "$W/record.err" || fail "record -f: $(cat "$W/record.err")"
	report "$out"
	[ "$(grep -c 'sys_enter_getppid:' "$W/report.txt")" = 0 ] || fail "-f did not filter"
	grep -q 'no events were recorded' "$W/record.err" || fail "no 'nothing recorded' diagnosis"
	"$K" record -q -o "$out" -e syscalls:sys_enter_getppid -R traceoff -F -- \
		"$HELPER" 10 > "$W/helper.out" 2> "$W/record.err" || fail "record -R: $(cat "$W/record.err")"
	pid=$(sed -n 's/^pid=//p' "$W/helper.out")
	report "$out"
	[ "$(grep -c 'sys_enter_getppid:' "$W/report.txt")" = 1 ] ||
		fail "traceoff trigger: expected exactly one getppid event"
	grep -q 'ktrace-mark' "$W/report.txt" && fail "traceoff trigger: marks after tracing stopped"
	true
}

# A rejected filter shows the kernel's error_log entry (message, text, caret), on record and start,
# in the top instance and in another one; nothing stays behind.
case_error_log() {
	local before b
	before=$(snapshot)
	for b in "" "-B ktrace_rec_err"; do
		# shellcheck disable=SC2086
		"$K" record -q -o "$W/e.dat" $b -e syscalls:sys_enter_getppid -f 'common_pidd == 1' \
			-- true 2> "$W/record.err" && fail "record $b with a bad filter succeeded"
		grep -q "^  kernel: event filter parse error: error: Field not found" "$W/record.err" ||
			fail "record $b: no kernel message: $(cat "$W/record.err")"
		grep -q '^    Command: (common_pidd == 1)$' "$W/record.err" ||
			fail "record $b: no kernel Command line: $(cat "$W/record.err")"
		# The kernel's caret line follows the Command line, under a column of its text.
		awk '/^    Command: / { s = length("    Command: ") + 1; e = length($0); next }
		     e && /^ *\^$/ { c = index($0, "^"); ok = c >= s && c <= e + 1 } { e = 0 }
		     END { exit !ok }' "$W/record.err" ||
			fail "record $b: no caret under the text: $(cat "$W/record.err")"
	done
	"$K" start -e syscalls:sys_enter_getppid -f 'common_pid = = 1' 2> "$W/start.err" &&
		fail "start with a bad filter succeeded"
	grep -q "^  kernel: event filter parse error: error: " "$W/start.err" ||
		fail "start: no kernel message: $(cat "$W/start.err")"
	same_state "$before" "$(snapshot)"
}

# Two instances in one file, v7 and v6 (their buffer options differ).
case_instances() {
	local out=$W/i.dat pid v
	for v in 7 6; do
		"$K" record -q -o "$out" --file-version $v -B ktrace_rec_a \
			-e syscalls:sys_enter_getppid -F -B ktrace_rec_b -e sched:sched_process_exit \
			-- "$HELPER" 15 "$T/instances/ktrace_rec_a/trace_marker" > "$W/helper.out" \
			2> "$W/record.err" || fail "record -B: $(cat "$W/record.err")"
		pid=$(sed -n 's/^pid=//p' "$W/helper.out")
		report "$out"
		[ "$(grep -c '^ktrace_rec_a: .*sys_enter_getppid:' "$W/report.txt")" = 15 ] ||
			fail "v$v instance a: getppid count"
		[ "$(grep -c '^ktrace_rec_a: .*ktrace-mark' "$W/report.txt")" = 15 ] ||
			fail "v$v instance a: marks"
		grep -q "^ktrace_rec_b: .*sched_process_exit:.*pid=$pid" "$W/report.txt" ||
			fail "v$v instance b: no exit of $pid"
		[ ! -e "$T/instances/ktrace_rec_a" ] || fail "instance ktrace_rec_a left behind"
	done
}

case_extract() {
	local out=$W/e.dat
	CLEANUP+=("echo $(cat $T/tracing_on) > $T/tracing_on; echo > $T/trace")
	echo > "$T/trace"
	echo 1 > "$T/tracing_on"
	"$HELPER" 7 > /dev/null
	echo 0 > "$T/tracing_on"
	"$K" extract -q -o "$out" 2> "$W/record.err" || fail "extract: $(cat "$W/record.err")"
	report "$out"
	[ "$(grep -o 'ktrace-mark [0-9]*' "$W/report.txt" | wc -l)" = 7 ] || fail "extract: marks"
	# -a: every instance too
	mkdir "$T/instances/ktrace_extract_a"
	CLEANUP+=("rmdir $T/instances/ktrace_extract_a")
	"$HELPER" 3 "$T/instances/ktrace_extract_a/trace_marker" > /dev/null
	"$K" extract -q -a -o "$out" 2> "$W/record.err" || fail "extract -a: $(cat "$W/record.err")"
	report "$out"
	[ "$(grep -c '^ktrace_extract_a: .*ktrace-mark' "$W/report.txt")" = 3 ] ||
		fail "extract -a: instance marks"
}

# Function tracing is refused by this kernel (EPERM): record fails before changing anything.
case_eperm() {
	local before
	before=$(snapshot)
	if "$K" record -q -o "$W/p.dat" -p function -- true 2> "$W/record.err"; then
		fail "record -p function succeeded on a kernel that refuses it"
	fi
	grep -q 'set_ftrace' "$W/record.err" || fail "the error does not name the file: $(cat "$W/record.err")"
	[ ! -e "$W/p.dat" ] || fail "a failed record left its output file"
	same_state "$before" "$(snapshot)"
}

# -P: only the given process; its forks show it as the parent, nobody else's do.
case_pid_filter() {
	local sh_pid others mine
	sh -c 'while :; do sleep 0.02; done' &
	sh_pid=$!
	CLEANUP+=("kill $sh_pid")
	"$K" record -q -o "$W/p.dat" -P "$sh_pid" -e sched:sched_process_fork -- sleep 0.5 \
		2> "$W/record.err" || fail "record -P: $(cat "$W/record.err")"
	report "$W/p.dat"
	mine=$(grep -c "sched_process_fork:.*pid=$sh_pid child_comm" "$W/report.txt")
	others=$(grep 'sched_process_fork:' "$W/report.txt" | grep -vc "pid=$sh_pid child_comm")
	[ "$mine" -gt 3 ] || fail "-P: only $mine forks of $sh_pid recorded"
	[ "$others" = 0 ] || fail "-P: $others forks of other processes recorded"
}

# -F follows only the command; -c adds its children (event-fork, function-fork).
case_children() {
	local cmd='ls / > /dev/null; true'
	"$K" record -q -o "$W/c.dat" -F -e sched:sched_process_exec -- sh -c "$cmd" \
		2> "$W/record.err" || fail "record -F: $(cat "$W/record.err")"
	report "$W/c.dat"
	grep -q 'filename=.*/ls ' "$W/report.txt" && fail "-F without -c traced a child's exec"
	"$K" record -q -o "$W/c.dat" -F -c -e sched:sched_process_exec -- sh -c "$cmd" \
		2> "$W/record.err" || fail "record -F -c: $(cat "$W/record.err")"
	report "$W/c.dat"
	grep -q 'filename=.*/ls ' "$W/report.txt" || fail "-F -c did not trace the child's exec"
	# the function tracers' pid filter follows them too, as with trace-cmd -c (function-fork)
	"$K" record -q -o "$W/c.dat" -F -c -e sched:sched_process_exec -- \
		cat "$T/options/function-fork" > "$W/fork.txt" 2> "$W/record.err" ||
		fail "record -F -c: $(cat "$W/record.err")"
	[ "$(cat "$W/fork.txt")" = 1 ] || fail "-F -c left options/function-fork at $(cat "$W/fork.txt")"
	[ "$(cat "$T/options/function-fork")" = 0 ] || fail "record -c left function-fork on"
}

case_date() {
	local now first
	"$K" record -q --date -o "$W/d.dat" -e sched:sched_process_exec -- true \
		2> "$W/record.err" || fail "record --date: $(cat "$W/record.err")"
	report "$W/d.dat"
	now=$(date +%s)
	first=$(grep -m1 -o '\] *[0-9]*\.' "$W/report.txt" | tr -dc 0-9)
	[ -n "$first" ] && [ $((now - first)) -ge 0 ] && [ $((now - first)) -lt 60 ] ||
		fail "--date: first timestamp ${first:-none} is not the wall clock ($now)"
}

# -m keeps the newest data only: the marks left are contiguous and end with the last one
# (-b big enough that nothing is lost to overruns on a loaded machine, and one CPU: each CPU
# keeps its own newest data, so a migrating helper would leave gaps).
case_max_size() {
	local c range
	for c in none zstd; do
		"$K" record -q -o "$W/m.dat" -m 128 -b 4096 --compression $c -e syscalls:sys_enter_getppid \
			-F -- taskset -c 0 "$HELPER" 50000 > /dev/null 2> "$W/record.err" ||
			fail "record -m: $(cat "$W/record.err")"
		report "$W/m.dat"
		range=$(grep -o 'ktrace-mark [0-9]*' "$W/report.txt" | awk '
			NR == 1 { first = $2 }
			$2 != first + NR - 1 { print "gap"; exit }
			END { print first, $2 }')
		case "$range" in
		*gap*|"1 "*|"") fail "-m $c: marks kept: $range" ;;
		*" 50000") ;;
		*) fail "-m $c: the newest marks were not kept: $range" ;;
		esac
	done
}

# FILE -> the events of $W/report.txt without who/where/when (pid, CPU, time stamp).
event_content() {
	report "$1"
	sed -nE 's/^.*\[[0-9]+\] +[0-9.]+: +//p' "$W/report.txt"
}

# pid -> whether its ring-buffer reading maps trace_pipe_raw (/proc/PID/maps names the file).
maps_ring() {
	grep -q 'per_cpu/cpu[0-9]*/trace_pipe_raw' "/proc/$1/maps"
}

# The two ways of reading the ring buffer (KTRACE_RECORD_READ, recorder.h): the mapping (this
# kernel has it: Linux 6.10+) and splice. Each must record the same events, account lost ones
# alike (the events in the file plus the pages' dropped counts are exactly what the workload
# made), fall back or fail as documented, and leave tracefs as found.
case_read_paths() {
	local before m c pid n got lost dropped inst=ktrace-read-test
	[ "$(uname -r | awk -F. '{ print $1 * 100 + $2 }')" -ge 610 ] ||
		fail "this case needs Linux 6.10+ (the mapped ring buffer); kernel $(uname -r)"
	before=$(snapshot)
	for m in mmap splice; do
		for c in zstd none; do
			KTRACE_RECORD_READ=$m record_helper 3000 --compression $c
			event_content "$W/t.dat" > "$W/content.$m.$c"
		done
		cmp -s "$W/content.$m.zstd" "$W/content.$m.none" ||
			fail "$m: zstd and none recorded different events"
		# this trace-cmd reads no zlib: ktrace's reader checks that file
		KTRACE_RECORD_READ=$m "$K" record -q -o "$W/z.dat" --compression zlib \
			-e syscalls:sys_enter_getppid -F -- "$HELPER" 3000 > /dev/null 2> "$W/record.err" ||
			fail "$m: zlib record failed: $(cat "$W/record.err")"
		n=$("$K" report -i "$W/z.dat" 2> "$W/report.err" | grep -c 'ktrace-mark')
		[ "$n" = 3000 ] || fail "$m: zlib file holds $n marks, expected 3000"
	done
	cmp -s "$W/content.mmap.zstd" "$W/content.splice.zstd" ||
		fail "mmap and splice recorded different events: $(diff "$W/content.mmap.zstd" \
			"$W/content.splice.zstd" | head -5)"
	same_state "$before" "$(snapshot)" "after recording both ways"

	# which path runs: auto and mmap map the ring buffer, splice does not
	for m in auto mmap splice; do
		KTRACE_RECORD_READ=$m "$K" record -q -o "$W/bg.dat" -e sched:sched_switch \
			2> "$W/record.err" &
		pid=$!
		for ((n = 0; n < 100; n++)); do
			[ "$(cat "$T/tracing_on")" = 1 ] && break
			sleep 0.05
		done
		sleep 0.3
		got=no
		maps_ring "$pid" && got=yes
		kill -INT "$pid"
		wait "$pid" || fail "KTRACE_RECORD_READ=$m record failed: $(cat "$W/record.err")"
		case "$m:$got" in
		auto:yes|mmap:yes|splice:no) ;;
		*) fail "KTRACE_RECORD_READ=$m: trace_pipe_raw mapped: $got" ;;
		esac
		report "$W/bg.dat"
		grep -q 'sched_switch:' "$W/report.txt" || fail "$m: no sched_switch recorded"
	done
	same_state "$before" "$(snapshot)" "after the background records"

	# lost events: a 4 KiB buffer and a burst. What the file holds plus what record says was
	# lost (the kernel's overrun and dropped counts) is every event the helper made, on both
	# paths; the pages' own dropped marks are shown (the kernel stores a count only where the
	# page has room for it)
	for m in mmap splice; do
		KTRACE_RECORD_READ=$m "$K" record -o "$W/l.dat" -b 4 -e syscalls:sys_enter_getppid \
			-F -- taskset -c 1 "$HELPER" 200000 > /dev/null 2> "$W/record.err" ||
			fail "$m: record -b 4 failed: $(cat "$W/record.err")"
		report "$W/l.dat"
		got=$(grep -c 'sys_enter_getppid:' "$W/report.txt")
		n=$(grep -c 'ktrace-mark' "$W/report.txt")
		lost=$(grep -o 'lost [0-9]* events' "$W/record.err" | awk '{ s += $2 } END { print s + 0 }')
		dropped=$(grep -o '\[[0-9]* EVENTS DROPPED\]' "$W/report.txt" | tr -dc '0-9\n' |
			awk '{ s += $1 } END { print s + 0 }')
		# getppid and marks alternate in one ring buffer: losses count both kinds
		[ $((got + n + lost)) = 400000 ] ||
			fail "$m: $got getppid + $n marks + $lost lost != 400000 events made"
		echo "$m: -b 4 burst: $got getppid, $n marks, $lost lost, $dropped counted in pages," \
			"$(grep -c 'EVENTS DROPPED' "$W/report.txt") pages marked"
	done
	same_state "$before" "$(snapshot)" "after the lost-event records"

	# a kernel that refuses the mapping (the shim: ENODEV, as before 6.10): auto splices,
	# mmap fails with one line naming the file and leaves no file and tracefs as found
	for m in auto mmap; do
		rm -f "$W/s.dat"
		# an ASan build (scripts/sanitize) wants its runtime first: the shim goes before it
		if ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0 \
		   LD_PRELOAD=$NOMMAP KTRACE_RECORD_READ=$m "$K" record -q -o "$W/s.dat" \
			-e syscalls:sys_enter_getppid -F -- "$HELPER" 500 > /dev/null 2> "$W/record.err"
		then
			[ $m = auto ] || fail "mmap refused, yet KTRACE_RECORD_READ=mmap succeeded"
			report "$W/s.dat"
			[ "$(grep -c 'sys_enter_getppid:' "$W/report.txt")" = 500 ] ||
				fail "mmap refused, auto: not the 500 events"
		else
			[ $m = mmap ] || fail "mmap refused, auto failed: $(cat "$W/record.err")"
			[ "$(wc -l < "$W/record.err")" = 1 ] &&
				grep -q 'cannot map .*/per_cpu/cpu0/trace_pipe_raw' "$W/record.err" ||
				fail "mmap refused: not one line naming the file: $(cat "$W/record.err")"
			[ ! -e "$W/s.dat" ] || fail "mmap refused: left $W/s.dat behind"
		fi
		same_state "$before" "$(snapshot)" "after a refused mapping ($m)"
	done
	# a snapshot-armed instance refuses it too (where the kernel has snapshots)
	if [ -e "$T/snapshot" ]; then
		CLEANUP+=("rmdir $T/instances/$inst 2>/dev/null")
		mkdir "$T/instances/$inst" || fail "cannot create instance $inst"
		echo 1 > "$T/instances/$inst/snapshot" || fail "cannot arm a snapshot in $inst"
		KTRACE_RECORD_READ=auto "$K" record -q -o "$W/s.dat" -B "$inst" -e sched:sched_switch \
			-- sleep 0.2 2> "$W/record.err" ||
			fail "auto on a snapshot instance: $(cat "$W/record.err")"
		KTRACE_RECORD_READ=mmap "$K" record -q -o "$W/s2.dat" -B "$inst" \
			-e sched:sched_switch -- sleep 0.2 2> "$W/record.err" &&
			fail "mmap on a snapshot-armed instance succeeded"
		rmdir "$T/instances/$inst"
	else
		echo "NOTE: no CONFIG_TRACER_SNAPSHOT in $(uname -r): the snapshot-armed refusal is" \
			"tested through the shim's refusal only"
	fi
	same_state "$before" "$(snapshot)" "after the refusals"
	if KTRACE_RECORD_READ=bogus "$K" record -q -o "$W/b.dat" -e sched:sched_switch -- true \
		2> "$W/record.err"; then
		fail "KTRACE_RECORD_READ=bogus accepted"
	fi
	grep -q 'KTRACE_RECORD_READ=bogus' "$W/record.err" ||
		fail "KTRACE_RECORD_READ=bogus: message does not name it: $(cat "$W/record.err")"
	same_state "$before" "$(snapshot)" "after a bad KTRACE_RECORD_READ"
}

# The latency tracers. Where the kernel lacks one (this host's and Debian's kernels lack all):
# record, extract fail naming its config option, write no file and change nothing. Where it has
# one: record stores the text of `trace`, which both reports print, and tracefs is restored
# (tracing_max_latency included). stream and -N refuse them on any kernel. The tracers and their
# options: tests/data/latency_tracers.tsv, which the unit test record_plan_latency reads too.
case_latency() {
	local before t config text n=0
	before=$(snapshot; cat "$T/tracing_max_latency" 2>/dev/null)
	[ -r "$LATENCY_TRACERS" ] || fail "cannot read $LATENCY_TRACERS"
	while IFS=$'\t' read -r t config <&3; do
		n=$((n + 1))
		if grep -qw "$t" "$T/available_tracers"; then
			"$K" record -q -o "$W/l.dat" -p $t -- sleep 0.2 2> "$W/record.err" ||
				fail "record -p $t: $(cat "$W/record.err")"
			report "$W/l.dat"
			text=$(sed -n 2p "$W/report.txt")
			[ "$text" = "# tracer: $t" ] || fail "-p $t: the report starts with '$text'"
			"$K" report -i "$W/l.dat" > "$W/kt.txt" 2>&1 || fail "ktrace report -p $t"
			cmp -s "$W/report.txt" "$W/kt.txt" || fail "-p $t: the reports differ"
			continue
		fi
		for cmd in record extract; do
			"$K" $cmd -o "$W/l.dat" -p $t 2> "$W/record.err" &&
				fail "$cmd -p $t succeeded on a kernel without $t"
			grep -qF "ktrace $cmd: -p $t: this kernel has no $t tracer" "$W/record.err" &&
				grep -qF "$config" "$W/record.err" ||
				fail "$cmd -p $t: $(cat "$W/record.err")"
			[ ! -e "$W/l.dat" ] || fail "$cmd -p $t left $W/l.dat"
		done
	done 3< <(grep -v '^#' "$LATENCY_TRACERS")
	[ "$n" -gt 0 ] || fail "no tracer in $LATENCY_TRACERS"
	"$K" stream -p wakeup_rt 2> "$W/record.err" && fail "stream -p wakeup_rt succeeded"
	grep -q 'nothing to stream' "$W/record.err" || fail "stream: $(cat "$W/record.err")"
	"$K" record -N localhost:9 -p irqsoff true 2> "$W/record.err" && fail "-N -p irqsoff"
	grep -q 'cannot be sent to a listener' "$W/record.err" || fail "-N: $(cat "$W/record.err")"
	same_state "$before" "$(snapshot; cat "$T/tracing_max_latency" 2>/dev/null)"
}

# -m with two instances bounds the disk used while recording, not only the file at the end.
# The output directory is a tmpfs (the recorders' O_TMPFILE files count there), its use sampled
# all along: at most the empty recording plus, per instance and CPU, -m KB of kept data (two
# files of -m/2 in turn) twice over (the file is assembled from them), with room for the
# rounding the man page allows; while the helper makes several times that (50000 getppid
# events in each instance, 50000 marks). Instance a must still end with its newest marks.
case_max_size_instances() {
	local d=$W/mi base peak pid bound range used
	mkdir "$d"
	mount -t tmpfs -o size=64m ktrace-max-size "$d" || fail "cannot mount a tmpfs"
	CLEANUP+=("umount $d")
	rec() {	# N: record N marks with -m 64 into $d/m.dat; peak: the most $d used meanwhile
		rm -f "$d/m.dat"
		"$K" record -q -o "$d/m.dat" -m 64 -b 4096 --compression none \
			-B ktrace_rec_ma -e syscalls:sys_enter_getppid -F \
			-B ktrace_rec_mb -e syscalls:sys_enter_getppid \
			-- taskset -c 0 "$HELPER" "$1" "$T/instances/ktrace_rec_ma/trace_marker" \
			> /dev/null 2> "$W/record.err" &
		pid=$!
		peak=0
		while kill -0 $pid 2>/dev/null; do
			used=$(df -B1 --output=used "$d" | tail -1)
			[ "$used" -gt "$peak" ] && peak=$used
			sleep 0.02
		done
		wait $pid || fail "record -m with 2 instances: $(cat "$W/record.err")"
	}
	rec 1
	base=$(stat -c %s "$d/m.dat")
	rec 50000
	bound=$((base + 2 * $(nproc) * 64 * 1024 * 2 * 2 + 256 * 1024))
	echo "2 instances, -m 64: peak disk use $peak bytes, bound $bound (empty recording $base)," \
	     "file $(stat -c %s "$d/m.dat")"
	[ "$peak" -le "$bound" ] || fail "-m 64, 2 instances: peak disk use $peak > $bound"
	report "$d/m.dat"
	[ "$(grep -c 'sys_enter_getppid' "$W/report.txt")" -lt 50000 ] ||
		fail "-m 64, 2 instances: every event kept, nothing was bounded"
	range=$(grep '^ *ktrace_rec_ma: ' "$W/report.txt" | grep -o 'ktrace-mark [0-9]*' |
		awk 'NR == 1 { first = $2 }
		     $2 != first + NR - 1 { print "gap"; exit }
		     END { print first, $2 }')
	case "$range" in
	*gap*|"1 "*|"") fail "-m 64, 2 instances: marks kept: $range" ;;
	*" 50000") ;;
	*) fail "-m 64, 2 instances: the newest marks were not kept: $range" ;;
	esac
	[ ! -e "$T/instances/ktrace_rec_ma" ] || fail "instance ktrace_rec_ma left behind"
}

"case_$CASE"
