#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Fault injection: ktrace must never make a bad situation worse. No crash, no hang, the kernel's
# tracing state put back, and what it says about a file true.
# Usage: faults.sh KTRACE SNAPSHOT CORPUS CASE [ROUNDS]
#   SNAPSHOT: a script printing the tracefs settings (tests/kernel/control/tracefs-snapshot.sh)
# Cases touching tracefs run under flock /tmp/ktrace-tracefs.lock (meson.build does it).
set -u
K=$(realpath "$1")
SNAP=$2
CORPUS=$3
CASE=$4
ROUNDS=${5:-20}
W=$(mktemp -d /tmp/ktrace-faults.XXXXXX)
MNT=""
cleanup() {
	[ -n "$MNT" ] && umount "$MNT" 2>/dev/null
	rm -rf "$W"
}
trap cleanup EXIT

fail() {
	echo "FAIL [$CASE]: $*" >&2
	exit 1
}

# Counters printed at the end, for the README figures.
FAULTS=0
DIFFS=0

state_same() {	# BEFORE-FILE WHAT
	sh "$SNAP" > "$W/after.snap"
	diff "$1" "$W/after.snap" > "$W/snap.diff" ||
		fail "$2: tracefs not restored: $(head -20 "$W/snap.diff")"
	DIFFS=$((DIFFS + 1))
}

# Exit statuses 129..192 are deaths by a signal (timeout -s KILL gives 137); 255 is an error
# status (report exits 255 on a file that is not a trace.dat, as trace-cmd does).
by_signal() {
	[ "$1" -gt 128 ] && [ "$1" -le 192 ]
}

# A report of FILE either succeeds or fails with one line naming the file, never by a signal
# or a hang. Prints "ok" or "error" on stdout.
report_verdict() {
	local file=$1 rc
	timeout -s KILL 60 "$K" report -i "$file" > "$W/report.out" 2> "$W/report.err"
	rc=$?
	! by_signal $rc ||
		fail "ktrace report -i $file died (exit $rc): $(head -3 "$W/report.err")"
	if [ $rc = 0 ]; then
		echo ok
		return
	fi
	[ "$(wc -l < "$W/report.err")" = 1 ] ||
		fail "report of $file: expected one error line, got: $(head -5 "$W/report.err")"
	grep -q 'offset\|truncated\|incomplete\|No such file' "$W/report.err" ||
		fail "report of $file: the error names no offset: $(cat "$W/report.err")"
	echo error
}

# Something for sched_switch to record while the recorder runs.
load() {
	local end=$((SECONDS + $1))
	while [ $SECONDS -lt $end ]; do sleep 0.01; done
}

# The output directory is a tiny tmpfs: the record cannot end well; it must say so, put tracefs
# back, and leave no file that passes for complete.
case_disk_full() {
	local size comp rc verdict
	MNT=$W/mnt
	mkdir -p "$MNT"
	# full during the metadata, during the compressed data, during uncompressed data
	for size_comp in 64k:zstd 1300k:zstd 8m:none; do
		size=${size_comp%:*}
		comp=${size_comp#*:}
		mount -t tmpfs -o size="$size" ktrace-faults "$MNT" || fail "cannot mount a tmpfs"
		sh "$SNAP" > "$W/before.snap"
		"$K" record -q -o "$MNT/full.dat" --compression "$comp" -e syscalls -e sched -- \
			sh -c 'end=$(($(date +%s) + 2))
			       while [ $(date +%s) -lt $end ]; do cat /proc/self/stat; done' \
			> /dev/null 2> "$W/record.err"
		rc=$?
		FAULTS=$((FAULTS + 1))
		! by_signal $rc || fail "$size: record died (exit $rc): $(cat "$W/record.err")"
		[ $rc != 0 ] || fail "$size: record on a full disk reported success"
		grep -qi 'space' "$W/record.err" ||
			fail "$size: the error does not say the disk is full:" \
			     "$(cat "$W/record.err")"
		state_same "$W/before.snap" "disk full ($size)"
		if [ -e "$MNT/full.dat" ]; then
			verdict=$(report_verdict "$MNT/full.dat") || exit 1
			echo "tmpfs $size, $comp: record failed (exit $rc), file left:" \
			     "report says $verdict"
		else
			echo "tmpfs $size, $comp: record failed (exit $rc), no file left"
		fi
		echo "  $(head -1 "$W/record.err")"
		umount "$MNT" || fail "umount"
	done
	MNT=""
}

# SIGKILL: nothing of ktrace runs any more; `ktrace reset --restore` replays its journal and a
# new record works. A record killed before it finished leaves no file or one that report calls
# an incomplete recording, in one line naming it. The kill comes within 2.5 s and the command
# sleeps 3 s, so it always lands before the record can finish: a record that had finished
# (file complete) and was killed on its way out (an ASan build's leak check at exit) would
# read as complete with status 137, and the test could not tell it from a real failure.
case_sigkill() {
	local i delay pid rc verdict
	for i in $(seq 1 "$ROUNDS"); do
		sh "$SNAP" > "$W/before.snap"
		rm -f "$W/k.dat"
		"$K" record -q -o "$W/k.dat" -e sched:sched_switch -- sleep 3 \
			> /dev/null 2> "$W/record.err" &
		pid=$!
		delay=$(awk -v r="$RANDOM" 'BEGIN { printf "%.2f", (r % 250) / 100 }')
		sleep "$delay"
		kill -KILL "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
		rc=$?
		FAULTS=$((FAULTS + 1))
		"$K" reset --restore > /dev/null 2> "$W/reset.err" ||
			fail "round $i (kill after ${delay}s): reset --restore failed:" \
			     "$(cat "$W/reset.err")"
		state_same "$W/before.snap" \
			"round $i: SIGKILL after ${delay}s, then reset --restore"
		if [ -e "$W/k.dat" ]; then
			verdict=$(report_verdict "$W/k.dat") || exit 1
		else
			verdict="no file"
		fi
		if [ "$rc" = 137 ] && [ "$verdict" = ok ]; then
			fail "round $i: killed after ${delay}s, yet the file reads as complete"
		elif [ "$verdict" = error ]; then
			[ "$rc" = 137 ] || fail "round $i: record ended (exit $rc), file unreadable:" \
				"$(cat "$W/report.err")"
			grep -qx "ktrace report: $W/k.dat: incomplete recording (ktrace record was.*)" \
				"$W/report.err" ||
				fail "round $i: not reported as an incomplete recording:" \
				     "$(cat "$W/report.err")"
			verdict="error: $(cat "$W/report.err")"
		fi
		echo "round $i: SIGKILL after ${delay}s (exit $rc): $verdict"
	done
	"$K" record -q -o "$W/again.dat" -e sched:sched_switch -- sleep 0.2 2> "$W/record.err" ||
		fail "record after the kills failed: $(cat "$W/record.err")"
	[ "$(report_verdict "$W/again.dat")" = ok ] ||
		fail "the record after the kills is unreadable"
	state_same "$W/before.snap" "record after the kills"
}

# SIGINT/TERM/HUP at a random moment: setup, running or finishing. Every time tracefs is as
# found, and the record either ends with a valid file, or fails with a message and no file.
# A signal that comes once all is written and undone may end ktrace with its default action
# (exit 128+N): the file must then be complete. One that comes before ktrace set its handlers
# ends it the same way with no file; tracefs is checked unchanged then too.
case_signals() {
	local i sig delay pid rc verdict sigs=(INT TERM HUP) files=0 late=0 nofile=0 early=0
	for i in $(seq 1 "$ROUNDS"); do
		sig=${sigs[$((RANDOM % 3))]}
		sh "$SNAP" > "$W/before.snap"
		rm -f "$W/s.dat"
		"$K" record -q -o "$W/s.dat" -e sched:sched_switch -- sleep 1.5 \
			> /dev/null 2> "$W/record.err" &
		pid=$!
		# every other round lands in the first 0.1 s, where start-up windows hide
		delay=$(awk -v r="$RANDOM" -v i="$i" \
			'BEGIN { printf "%.3f", i % 2 ? (r % 100) / 1000 : (r % 200) / 100 }')
		sleep "$delay"
		kill -"$sig" "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
		rc=$?
		FAULTS=$((FAULTS + 1))
		state_same "$W/before.snap" "round $i: SIG$sig after ${delay}s"
		what="round $i: SIG$sig after ${delay}s (exit $rc)"
		if [ $rc = $((128 + $(kill -l "$sig"))) ] && [ ! -e "$W/s.dat" ]; then
			# before main() set its handlers (ASan's start-up alone takes tens of ms):
			# nothing was changed (state_same above) and nothing written
			early=$((early + 1))
		elif [ $rc = 0 ] || [ $rc = $((128 + $(kill -l "$sig"))) ]; then
			[ -e "$W/s.dat" ] || fail "$what: no file"
			verdict=$(report_verdict "$W/s.dat") || exit 1
			[ "$verdict" = ok ] || fail "$what: $(cat "$W/report.err")"
			trace-cmd report -i "$W/s.dat" > /dev/null 2>&1 ||
				fail "$what: trace-cmd cannot read the file"
			[ $rc = 0 ] && files=$((files + 1)) || late=$((late + 1))
		elif ! by_signal $rc; then
			[ -s "$W/record.err" ] || fail "$what: failed without a message"
			[ ! -e "$W/s.dat" ] || fail "$what: failed and left $W/s.dat"
			nofile=$((nofile + 1))
		else
			fail "$what: killed by another signal"
		fi
	done
	echo "$ROUNDS signals: $files valid files, $late valid files then killed by the" \
	     "signal once done, $nofile clean failures, $early killed before setting anything up"
}

# The window the random rounds above can only hit by luck (CI did once): record and extract
# block the stop signals before they create the output file, so no signal can end them between
# the two and leave a file marked unfinished. strace shows the order of the two system calls.
case_signal_window() {
	command -v strace > /dev/null ||
		fail "strace is not installed (scripts/deps test installs it)"
	window_order record -e sched:sched_switch -- true
	window_order extract
	echo "signal window: record and extract block stop signals before creating their file"
}

window_order() {	# SUBCOMMAND ARGS...
	local cmd=$1 line_block line_open
	shift
	rm -f "$W/w.dat"
	# LeakSanitizer cannot run under ptrace: an ASan build checks leaks in the other cases
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		strace -f -qq -e trace=rt_sigprocmask,openat -o "$W/strace.log" \
		"$K" "$cmd" -q -o "$W/w.dat" "$@" > /dev/null 2> "$W/record.err" ||
		fail "$cmd: $(cat "$W/record.err")"
	line_block=$(grep -n 'rt_sigprocmask(SIG_BLOCK, \[[A-Z ]*INT[A-Z ]*\]' "$W/strace.log" |
		     grep TERM | head -1 | cut -d: -f1)
	line_open=$(grep -n "openat(.*\"$W/w.dat\", O_WRONLY" "$W/strace.log" |
		    head -1 | cut -d: -f1)
	[ -n "$line_block" ] || fail "$cmd: no SIGINT/SIGTERM block in $(cat "$W/strace.log")"
	[ -n "$line_open" ] || fail "$cmd: $W/w.dat never created"
	[ "$line_block" -lt "$line_open" ] ||
		fail "$cmd: creates its output (strace line $line_open) before it blocks" \
		     "SIGINT/SIGTERM (line $line_block)"
	FAULTS=$((FAULTS + 1))
}

# Damaged files: cut at every section boundary and at random offsets, bytes flipped at random
# offsets. Every report ends within the timeout with its output or one error line.
case_corrupt() {
	local src name size cut off i verdict ok=0 err=0
	for src in "$CORPUS"/instance.dat "$CORPUS"/sched_v6.dat "$CORPUS"/lost_graph.dat \
		   "$CORPUS"/sched_none.dat; do
		name=$(basename "$src" .dat)
		size=$(stat -c %s "$src")
		# section starts (v7) or block starts (v6), and a byte either side
		"$K" dump --sections --flyrecord -i "$src" 2>/dev/null |
			grep -oE '@ [0-9]+|^ *[0-9]+ +[0-9]+[^0-9]|^[0-9]+ \[offset\]' |
			grep -oE '[0-9]+' | sort -nu > "$W/bounds"
		for cut in $(cat "$W/bounds") 0 1 10 12 18 100 4096; do
			for off in $((cut - 1)) $cut $((cut + 1)); do
				[ $off -ge 0 ] && [ $off -lt "$size" ] || continue
				head -c $off "$src" > "$W/cut.dat"
				verdict=$(report_verdict "$W/cut.dat") || exit 1
				[ "$verdict" = ok ] && ok=$((ok + 1)) || err=$((err + 1))
				FAULTS=$((FAULTS + 1))
			done
		done
		for i in $(seq 1 "$ROUNDS"); do
			off=$(( (RANDOM * 32768 + RANDOM) % size ))
			head -c $off "$src" > "$W/cut.dat"
			verdict=$(report_verdict "$W/cut.dat") || exit 1
			[ "$verdict" = ok ] && ok=$((ok + 1)) || err=$((err + 1))
			off=$(( (RANDOM * 32768 + RANDOM) % size ))
			cp "$src" "$W/flip.dat"
			printf "$(printf '\\%03o' $((RANDOM % 256)))" |
				dd of="$W/flip.dat" bs=1 seek=$off conv=notrunc status=none
			verdict=$(report_verdict "$W/flip.dat") ||
				fail "$(cat "$W/report.err") [byte at $off of $name]"
			[ "$verdict" = ok ] && ok=$((ok + 1)) || err=$((err + 1))
			FAULTS=$((FAULTS + 2))
		done
	done
	echo "damaged files: $ok read, $err refused with one line"
}

SEED=${FAULTS_SEED:-$$}
RANDOM=$SEED
echo "seed $SEED (set FAULTS_SEED to replay)"
"case_$CASE" || exit 1
echo "faults injected: $FAULTS, tracefs state diffs passed: $DIFFS"
