#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Kernel tests of ktrace stream and ktrace snapshot on the live tracefs. Run under
# flock /tmp/ktrace-tracefs.lock (meson does). Each case leaves tracefs as it found it.
#   live_tests.sh KTRACE HELPER SNAPSHOT CASE
set -u
KT=$(readlink -f "$1")
# A hang must fail the case, not hold the tracefs lock: every ktrace run is time-limited
# (SIGTERM, which restores tracefs, then SIGKILL).
LIMIT="timeout -k 10 90"
HELPER=$(readlink -f "$2")
SNAP=$(readlink -f "$3")
CASE=$4
T=/sys/kernel/tracing
TMP=$(mktemp -d /tmp/ktrace-live.XXXXXX)
STREAM=
# A failing case must not leave a stream (and its tracefs settings) behind: SIGINT restores.
cleanup() {
	if [ -n "$STREAM" ] && kill -INT "$STREAM" 2> /dev/null; then
		wait "$STREAM"
	fi
	rm -rf "$TMP"
}
trap cleanup EXIT

fail() {
	echo "FAIL ($CASE): $*" >&2
	exit 1
}

same_state() {
	"$SNAP" > "$TMP/after"
	diff -u "$TMP/before" "$TMP/after" >&2 || fail "tracefs differs from before ($1)"
}

# Starts `ktrace stream ARGS` in the background and waits until tracing is on.
start_stream() {
	$LIMIT "$KT" stream "$@" > "$TMP/out" 2> "$TMP/err" &
	STREAM=$!
	n=0
	# the formats of every event are parsed first: slow under a sanitizer on a loaded machine
	while ! grep -q 'Hit Ctrl^C' "$TMP/err" && [ $n -lt 600 ]; do
		kill -0 $STREAM 2> /dev/null || fail "stream exited early: $(cat "$TMP/err")"
		sleep 0.1
		n=$((n + 1))
	done
	[ "$(cat $T/tracing_on)" = 1 ] || fail "tracing is not on while streaming"
}

# The helper's lines, in the order printed, are marker 1, getppid, marker 2, getppid, ...
check_workload() {
	pid=$1
	nr=$2
	grep -E -- "-$pid +\[" "$TMP/out" > "$TMP/mine"
	awk -v nr="$nr" '
		/ print: / { m++; if ($0 !~ ("tracing_mark_write: ktrace-live " m "$")) bad = NR }
		/ sys_enter_getppid: / { g++; if (g != m) bad = NR }
		END { if (bad || m != nr || g != nr) { print "line " bad ", " m " marks, " g " calls"; exit 1 } }
	' "$TMP/mine" >&2 || { cat "$TMP/out" >&2; fail "the helper's events are missing or out of order"; }
	grep -q -- "live_helper-$pid " "$TMP/mine" || fail "the helper's comm is not shown"
	# Across every CPU, the timestamps never go back.
	awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { t = $i + 0; break }
	       if (t < last) { print "line " NR " goes back in time"; exit 1 } last = t }' \
		"$TMP/out" >&2 || fail "the stream is not merged by time"
}

# Events appear live (before the stream stops), merged, in order; SIGINT restores tracefs.
case_stream_live() {
	"$SNAP" > "$TMP/before"
	start_stream -e syscalls:sys_enter_getppid
	pid=$($LIMIT "$HELPER" $T 40) || fail "the helper failed"
	n=0
	while [ "$(grep -c "ktrace-live" "$TMP/out")" -lt 40 ] && [ $n -lt 100 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	[ $n -lt 100 ] || fail "the events did not appear while streaming"
	kill -INT $STREAM
	wait $STREAM || fail "stream exited with $?"
	STREAM=
	check_workload "$pid" 40
	same_state "stream ended by SIGINT"
}

# SIGTERM: what is still buffered is printed, and tracefs is restored.
case_stream_term() {
	"$SNAP" > "$TMP/before"
	start_stream -e syscalls:sys_enter_getppid -b 2048 -O nosym-offset
	pid=$($LIMIT "$HELPER" $T 200) || fail "the helper failed"
	kill -TERM $STREAM
	wait $STREAM || fail "stream exited with $?"
	STREAM=
	check_workload "$pid" 200
	same_state "stream ended by SIGTERM"
}

# stream -F COMMAND: only the command's events, until it exits; tracefs restored.
case_stream_command() {
	"$SNAP" > "$TMP/before"
	$LIMIT "$KT" stream -e syscalls:sys_enter_getppid -F -- "$HELPER" $T 30 > "$TMP/out" 2> "$TMP/err" ||
		fail "stream -F exited with $?: $(cat "$TMP/err")"
	pid=$(grep -x '[0-9]*' "$TMP/out")
	[ -n "$pid" ] || fail "the helper did not run"
	check_workload "$pid" 30
	grep -v -x '[0-9]*' "$TMP/out" | grep -v -E -- "-$pid +\[" >&2 && fail "events of other tasks"
	same_state "stream -F COMMAND"
	# The same workload recorded and reported: the same lines but for pid, CPU and time.
	$LIMIT "$KT" record -q -e syscalls:sys_enter_getppid -F -o "$TMP/r.dat" -- "$HELPER" $T 30 \
		> /dev/null 2>&1 || fail "record failed"
	$LIMIT "$KT" report -i "$TMP/r.dat" > "$TMP/rep" 2> /dev/null || fail "report failed"
	sed -n 's/^ *live_helper-[0-9]* *\[[0-9]*\] *[0-9.]*: //p' "$TMP/out" > "$TMP/s.norm"
	sed -n 's/^ *live_helper-[0-9]* *\[[0-9]*\] *[0-9.]*: //p' "$TMP/rep" > "$TMP/r.norm"
	[ "$(wc -l < "$TMP/s.norm")" = 60 ] || fail "not 60 lines to compare"
	diff -u "$TMP/r.norm" "$TMP/s.norm" >&2 || fail "stream's lines differ from report's"
	same_state "record after stream"
}

# stream --filter (report's -F) keeps only what it matches; the same events recorded at the same
# time in another instance print the same lines in report (but for the comm, which only the
# stream knows from /proc, and the time, which each buffer takes itself).
case_stream_filter() {
	"$SNAP" > "$TMP/before"
	$LIMIT "$KT" record -q -B kt_live_cmp -e syscalls:sys_enter_getppid -o "$TMP/c.dat" \
		> /dev/null 2> "$TMP/rec.err" &
	REC=$!
	n=0
	while [ ! -e $T/instances/kt_live_cmp ] || [ "$(cat $T/instances/kt_live_cmp/tracing_on)" != 1 ]; do
		[ $n -lt 600 ] || fail "record -B did not start: $(cat "$TMP/rec.err")"
		sleep 0.1
		n=$((n + 1))
	done
	$LIMIT "$KT" stream -e syscalls:sys_enter_getppid --filter sys_enter_getppid -F -- \
		"$HELPER" $T 25 > "$TMP/out" 2> "$TMP/err" || fail "stream --filter: $(cat "$TMP/err")"
	kill -INT $REC
	wait $REC || fail "record -B exited with $?: $(cat "$TMP/rec.err")"
	pid=$(grep -x '[0-9]*' "$TMP/out")
	[ -n "$pid" ] || fail "the helper did not run"
	grep -q ' print: ' "$TMP/out" && fail "--filter sys_enter_getppid let the markers through"
	[ "$(grep -c -E -- "^ *live_helper-$pid +\[[0-9]{3}\] +[0-9]+\.[0-9]{6}: sys_enter_getppid: " \
		"$TMP/out")" = 25 ] || fail "not the helper's 25 getppid lines: $(head -5 "$TMP/out")"
	$LIMIT "$KT" report -i "$TMP/c.dat" > "$TMP/rep" 2> /dev/null || fail "report failed"
	norm='s/^ *[^ ]*-'$pid' *\(\[[0-9]*\]\) *[0-9.]*: /PID \1 TS: /p'
	sed -n "$norm" "$TMP/out" > "$TMP/s.norm"
	sed -n "$norm" "$TMP/rep" > "$TMP/r.norm"
	diff -u "$TMP/r.norm" "$TMP/s.norm" >&2 || fail "stream's lines differ from report's"
	$LIMIT "$KT" stream -e syscalls:sys_enter_getppid --filter 'no_such_field ==' -- true \
		> /dev/null 2> "$TMP/err" && fail "a bad --filter was accepted"
	grep -q 'ktrace stream: .*filter' "$TMP/err" || fail "bad --filter: unclear error: $(cat "$TMP/err")"
	$LIMIT "$KT" record --filter x -e sched -o "$TMP/x.dat" -- true 2> "$TMP/err" &&
		fail "record accepted --filter"
	grep -q "unknown option '--filter'" "$TMP/err" || fail "record --filter: unclear error: $(cat "$TMP/err")"
	same_state "stream --filter"
}

# Without CONFIG_TRACER_SNAPSHOT: every action names the missing kernel option, changes nothing.
snapshot_missing() {
	for flag in "" -s -r -f "-r -s" "-c 0" "-c 0 -r"; do
		$LIMIT "$KT" snapshot $flag > "$TMP/out" 2> "$TMP/err" && fail "snapshot $flag succeeded"
		grep -q 'CONFIG_TRACER_SNAPSHOT is not set' "$TMP/err" ||
			fail "snapshot $flag: unclear error: $(cat "$TMP/err")"
	done
}

# take while markers are written, print (the marker before, not the one after), clear, free;
# in the top instance and in a -B instance the test creates.
snapshot_cycle() {
	inst=$1
	dir=$T
	bflag=""
	if [ -n "$inst" ]; then
		mkdir "$T/instances/$inst" || fail "cannot create instance $inst"
		dir=$T/instances/$inst
		bflag="-B $inst"
	fi
	on=$(cat "$dir/tracing_on")
	echo 1 > "$dir/tracing_on"
	echo "ktrace-snap-before" > "$dir/trace_marker"
	$LIMIT "$KT" snapshot -s $bflag || fail "snapshot -s $bflag failed"
	echo "ktrace-snap-after" > "$dir/trace_marker"
	echo "$on" > "$dir/tracing_on"
	$LIMIT "$KT" snapshot $bflag > "$TMP/snap" || fail "snapshot $bflag (print) failed"
	grep -q 'ktrace-snap-before' "$TMP/snap" || fail "the snapshot lacks the marker written before"
	grep -q 'ktrace-snap-after' "$TMP/snap" && fail "the snapshot has the marker written after"
	$LIMIT "$KT" snapshot -c 0 $bflag > "$TMP/snap" || fail "snapshot -c 0 $bflag (print) failed"
	grep -E -v '^#' "$TMP/snap" | grep -E -v '\[000\]' | grep -q . &&
		fail "snapshot -c 0 printed another CPU's events"
	$LIMIT "$KT" snapshot -r $bflag || fail "snapshot -r failed"
	$LIMIT "$KT" snapshot $bflag > "$TMP/snap"
	grep -q 'ktrace-snap' "$TMP/snap" && fail "the snapshot was not cleared"
	echo "ktrace-snap-again" > "$dir/trace_marker"
	$LIMIT "$KT" snapshot -r -s $bflag || fail "snapshot -r -s failed"
	$LIMIT "$KT" snapshot $bflag > "$TMP/snap"
	grep -q 'ktrace-snap-again' "$TMP/snap" || fail "snapshot -r -s took no new snapshot"
	$LIMIT "$KT" snapshot -f $bflag || fail "snapshot -f failed"
	echo > "$dir/trace"
	[ -n "$inst" ] && rmdir "$T/instances/$inst"
}

# stream and report share one rule for a clock's unit: with -C boot (not counted as nanoseconds
# by trace-cmd) both print raw counts, never seconds.
case_stream_clock() {
	"$SNAP" > "$TMP/before"
	$LIMIT "$KT" stream -C boot -e syscalls:sys_enter_getppid -F -- "$HELPER" $T 5 \
		> "$TMP/out" 2> "$TMP/err" || fail "stream -C boot: $(cat "$TMP/err")"
	$LIMIT "$KT" record -q -C boot -e syscalls:sys_enter_getppid -o "$TMP/b.dat" -F -- \
		"$HELPER" $T 5 > /dev/null 2> "$TMP/err" || fail "record -C boot: $(cat "$TMP/err")"
	$LIMIT "$KT" report -i "$TMP/b.dat" > "$TMP/rep" 2> /dev/null || fail "report failed"
	raw='^ *[^ ]+-[0-9]+ +\[[0-9]+\] *[0-9]+: sys_enter_getppid: '
	[ "$(grep -c -E "$raw" "$TMP/rep")" = 5 ] || fail "report -C boot: not 5 raw times: $(head -3 "$TMP/rep")"
	[ "$(grep -c -E "$raw" "$TMP/out")" = 5 ] || fail "stream -C boot: not 5 raw times: $(head -3 "$TMP/out")"
	same_state "stream -C boot"
}

# The blk tracer's records have no format file: stream decodes them with the format report makes
# up (it printed "[UNKNOWN EVENT]" for each); record -p blk's file reads the same in both reports.
# The workload reads the disk with the cache dropped.
case_stream_blk() {
	dev=
	for d in /sys/block/vd* /sys/block/sd* /sys/block/nvme*; do
		[ -e "$d/trace/enable" ] && [ "$(cat "$d/size")" -gt 8192 ] && { dev=$d; break; }
	done
	[ -n "$dev" ] || fail "no disk with a blk trace directory under /sys/block"
	"$SNAP" > "$TMP/before"
	was=$(cat "$dev/trace/enable")
	echo 1 > "$dev/trace/enable"
	$LIMIT "$KT" stream -p blk -F -- sh -c "echo 3 > /proc/sys/vm/drop_caches;
		dd if=/dev/${dev##*/} of=/dev/null bs=4096 count=64 skip=$(( $$ % 5000 + 100 )) 2> /dev/null" \
		> "$TMP/out" 2> "$TMP/err"
	rc=$?
	# and recorded on this host: both reports of the file agree and hold the workload's requests
	$LIMIT "$KT" record -q -p blk -o "$TMP/blk.dat" -- sh -c "echo 3 > /proc/sys/vm/drop_caches;
		dd if=/dev/${dev##*/} of=/dev/null bs=4096 count=64 skip=$(( $$ % 5000 + 6000 )) 2> /dev/null" \
		> /dev/null 2> "$TMP/rec.err"
	rrc=$?
	echo "$was" > "$dev/trace/enable"
	[ $rc = 0 ] || fail "stream -p blk: $(cat "$TMP/err")"
	[ $rrc = 0 ] || fail "record -p blk: $(cat "$TMP/rec.err")"
	"$KT" report -i "$TMP/blk.dat" > "$TMP/blk.kt" 2>&1 || fail "ktrace report of blk.dat"
	trace-cmd report -i "$TMP/blk.dat" > "$TMP/blk.tc" 2>&1 || fail "trace-cmd report of blk.dat"
	cmp -s "$TMP/blk.kt" "$TMP/blk.tc" || { diff "$TMP/blk.tc" "$TMP/blk.kt" | head >&2; fail "record -p blk: the reports differ"; }
	grep -q -E '^ +(dd|sh)-[0-9]+ +\[[0-9]+\] .* blktrace: ' "$TMP/blk.kt" ||
		fail "record -p blk holds no request of the workload: $(head -3 "$TMP/blk.kt")"
	grep -q 'UNKNOWN EVENT' "$TMP/out" && fail "stream -p blk: $(grep -m1 UNKNOWN "$TMP/out")"
	grep -q -E '^ +(dd|sh)-[0-9]+ +\[[0-9]+\] .* blktrace: ' "$TMP/out" ||
		fail "stream -p blk printed no request of the workload: $(head -3 "$TMP/out")"
	same_state "stream -p blk"
}

case_snapshot() {
	"$SNAP" > "$TMP/before"
	# trace-cmd's flags: -c takes a CPU (-r clears), -s and -f are refused together
	$LIMIT "$KT" snapshot -s -f 2> "$TMP/err" && fail "-s -f accepted"
	grep -q 'taken and freed at once' "$TMP/err" || fail "-s -f: unclear error: $(cat "$TMP/err")"
	$LIMIT "$KT" snapshot -c 2> "$TMP/err" && fail "-c without a CPU accepted"
	$LIMIT "$KT" snapshot -c x 2> "$TMP/err" && fail "-c x accepted"
	grep -q "ktrace snapshot: -c 'x'" "$TMP/err" || fail "-c x: unclear error: $(cat "$TMP/err")"
	$LIMIT "$KT" snapshot -c 99999 2> "$TMP/err" && fail "a missing CPU accepted"
	grep -q 'no such CPU' "$TMP/err" || fail "-c 99999: unclear error: $(cat "$TMP/err")"
	$LIMIT "$KT" snapshot -B kt_live_none 2> "$TMP/err" && fail "a missing instance accepted"
	grep -q 'no such instance' "$TMP/err" || fail "-B missing: unclear error"
	if [ -e $T/snapshot ]; then
		snapshot_cycle ""
		snapshot_cycle kt_live_snap
	else
		snapshot_missing
	fi
	same_state "snapshot"
}

case "$CASE" in
stream_live | stream_term | stream_command | stream_filter | stream_clock | stream_blk | snapshot)
	"case_$CASE"
	;;
*)
	fail "unknown case"
	;;
esac
echo "ok $CASE"
