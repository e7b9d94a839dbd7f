#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# A listener SIGKILLed during a session's final assembly (issue 13): at every point of it (the
# test hook KTRACE_LISTEN_ASSEMBLY_STOP=K stops the listener at point K: before the first
# append, after each mark mid-CPU or at a CPU's end, after the last append before the rename),
# for a v7 zstd and a v6 recording, the next listener completes the assembly: one line on
# stderr says so, the file has the session's name and is byte-identical to the one an
# uninterrupted listener writes, both reports print exactly the original's, no hidden file is
# left. The listener's write volume stays about once the file (CPU files + the file).
#   assembly_kill.sh KTRACE NET_REPLAY CORPUS_DIR
set -u
KTRACE=$1
REPLAY=$2
CORPUS=$3
. "$(dirname "$0")/lib.sh"

D=$W/out
# Each case: the corpus file, the bytes between marks (small enough for marks mid-CPU), and how
# many times over the client sends each CPU's pages: the files' own CPU data is 1-8 KB a CPU
# (the v7 one compressed as it arrives), the repeated one 1.6 MB a CPU, copied in 1 MB pieces.
CASES="sched:400:1 sched_v6:3000:1 sched_v6:1048576:200"

# session NAME REPEAT: one client sends the corpus file NAME and ends
session() {
	timeout 60 "$REPLAY" --repeat "$2" 127.0.0.1 "$PORT" "$CORPUS/$1.dat" ||
		fail "$1: client failed"
}

# wchar PID: the bytes PID wrote through system calls so far
wchar() {
	sed -n 's/^wchar: //p' "/proc/$1/io"
}

# stopped PID: until PID is stopped (SIGSTOP), at most 15 s
stopped() {
	for _ in $(seq 300); do
		[ "$(sed -n 's/^State:\t\(.\).*/\1/p' "/proc/$1/status" 2>/dev/null)" = T ] &&
			return 0
		sleep 0.05
	done
	return 1
}

for case in $CASES; do
	IFS=: read -r name step repeat <<< "$case"
	# The reference: an uninterrupted session, and what the listener wrote for it.
	start_listener "$D"
	before=$(wchar "$LISTEN_PID")
	session "$name" "$repeat"
	wait_log ": wrote " 1 || continue
	after=$(wchar "$LISTEN_PID")
	stop_listener
	got=$(find "$D" -maxdepth 1 -name '*.dat')
	ref=$W/$name.$repeat.ref.dat
	mv "$got" "$ref"
	size=$(stat -c %s "$ref")
	# The metadata is written once, the CPU data once as received and once into the file:
	# never more than twice the file, and the assembly's journal costs a few hundred bytes.
	echo "$name x$repeat: the listener wrote $((after - before)) bytes for a $size-byte file" \
	     "($(awk "BEGIN { printf \"%.3f\", ($after - $before) / $size }")x)"
	[ $((after - before)) -lt $((size * 2 + 65536)) ] &&
		pass "$name x$repeat: the listener writes at most twice the file" ||
		fail "$name x$repeat: the listener wrote $((after - before)) bytes for $size"
	# what was sent: the original's events (or, repeated, what the whole session prints)
	want=$CORPUS/$name.report.txt
	if [ "$repeat" != 1 ]; then
		want=$W/$name.$repeat.report.txt
		tc_report "$ref" > "$want"
	fi
	tc_report "$ref" | cmp -s - "$want" ||
		fail "$name x$repeat: the uninterrupted session's file does not report as sent"

	points=0
	for k in $(seq 0 100); do
		export KTRACE_LISTEN_ASSEMBLY_STOP=$k KTRACE_LISTEN_ASSEMBLY_STEP=$step
		start_listener "$D"
		unset KTRACE_LISTEN_ASSEMBLY_STOP KTRACE_LISTEN_ASSEMBLY_STEP
		session "$name" "$repeat"
		for _ in $(seq 300); do
			grep -q -e "assembly stopped at point $k " -e ": wrote " "$LOG" && break
			sleep 0.05
		done
		if grep -q ": wrote " "$LOG"; then
			# past the last point: assembled whole in steps, the same file
			stop_listener
			got=$(find "$D" -maxdepth 1 -name '*.dat')
			cmp -s "$got" "$ref" &&
				pass "$name x$repeat: assembled in steps of $step, the same file" ||
				fail "$name x$repeat: assembled in steps, the file differs"
			rm -f "$got"
			break
		fi
		point=$(sed -n "s/.*assembly stopped at point $k (\(.*\)) for a test$/\1/p" "$LOG")
		stopped "$LISTEN_PID" || fail "$name point $k: the listener did not stop"
		kill -KILL "$LISTEN_PID"
		wait "$LISTEN_PID" 2>/dev/null
		LISTEN_PID=
		points=$((points + 1))
		part=$(cd "$D" && ls -A | grep '^\..*\.dat\.part$')
		: > "$LOG"
		"$KTRACE" listen -p 0 --bind 127.0.0.1 -d "$D" -l "$LOG" 2> "$W/restart.err" &
		LISTEN_PID=$!
		for _ in $(seq 1200); do grep -q "listening on" "$LOG" && break; sleep 0.05; done
		stop_listener
		what="$name x$repeat killed at point $k ($point)"
		final=${part#.}
		final=${final%.part}
		line="ktrace listen: completed $part, which a listener was assembling when it"
		line="$line stopped, into $final ("
		[ -n "$part" ] && [ "$(wc -l < "$W/restart.err")" = 1 ] &&
			grep -qF "$line" "$W/restart.err" ||
			{ fail "$what: restart said: $(cat "$W/restart.err")"; break; }
		got=$(find "$D" -maxdepth 1 -name '*.dat')
		left=$(cd "$D" && ls -A | grep '^\.')
		[ -n "$got" ] && [ "$got" = "$D/$final" ] && [ -z "$left" ] ||
			fail "$what: recovered '$got' from '$part', hidden files left: $left"
		cmp -s "$got" "$ref" &&
			pass "$what: recovered, the uninterrupted session's file byte for byte" ||
			fail "$what: the recovered file differs from the uninterrupted session's"
		tc_report "$got" | cmp -s - "$want" &&
			pass "$what: trace-cmd report prints what was sent" ||
			fail "$what: trace-cmd report differs from what was sent"
		kt_report_is "$got" "$want" "$what"
		rm -f "$got"
	done
	rm -f "$ref"
	# before the first append, marks mid-CPU and at each CPU's end, before the rename
	[ "$points" -ge 6 ] && pass "$name x$repeat: killed at each of $points points" ||
		fail "$name x$repeat: only $points points to kill the listener at"
done
left=$(cd "$D" && ls -A)
[ -z "$left" ] && pass "nothing left in the directory" || fail "left in the directory: $left"
finish "$LOG"
