#!/bin/bash
# The same client sessions sent to trace-cmd 3.1.6's own `trace-cmd listen` and to
# `ktrace listen` must give files of the same layout (dump --summary/--options/--flyrecord)
# that report the same. One deliberate difference: trace-cmd writes the trace clock of the
# machine it listens on, ktrace the clock the client recorded with; it is masked here.
#   vs_trace_cmd_listen.sh KTRACE NET_REPLAY CORPUS_DIR
set -u
KTRACE=$1
REPLAY=$2
CORPUS=$3
. "$(dirname "$0")/lib.sh"

TC_PID=
stop_tc() {
	[ -n "$TC_PID" ] && kill -INT "$TC_PID" 2>/dev/null && wait "$TC_PID" 2>/dev/null
	TC_PID=
}
trap 'stop_tc; cleanup' EXIT

# trace-cmd listen has no "any free port": try a few random ones.
mkdir -p "$WORK/tc"
for _ in 1 2 3 4 5; do
	TC_PORT=$(shuf -i 20000-60000 -n 1)
	(cd "$WORK/tc" && exec trace-cmd listen -p "$TC_PORT") > "$WORK/tc.log" 2>&1 &
	TC_PID=$!
	sleep 0.3
	kill -0 "$TC_PID" 2>/dev/null && break
	TC_PID=
done
[ -n "$TC_PID" ] || { echo "FAIL: trace-cmd listen did not start"; exit 1; }

D=$WORK/kt
start_listener "$D"

layout() {
	for what in --summary --options --flyrecord; do
		trace-cmd dump $what -i "$1" 2>&1
	done | sed -e '/Tracing meta data in file/d' \
		-e 's/"[a-z0-9_-]*" \[clock\]/"CLOCK" [clock]/' \
		-e 's/"[a-z0-9_-]*" clock,/"CLOCK" clock,/' \
		-e 's/^\t\t\[[a-z0-9_-]*\]$/\t\t[CLOCK]/' \
		-e 's/\(options", flags 0x0, \)[0-9]* bytes/\1N bytes/' \
		-e 's/\[Option BUFFER, [0-9]* bytes\]/[Option BUFFER, N bytes]/'
}

for name in sched_v6 sched block; do
	for flags in "" "--udp"; do
		what="$name ${flags:-tcp}"
		rm -f "$WORK"/tc/*.dat
		"$REPLAY" $flags 127.0.0.1 "$TC_PORT" "$CORPUS/$name.dat" || fail "$what: to trace-cmd"
		n=$(grep -c ': wrote ' "$LOG")
		"$REPLAY" $flags 127.0.0.1 "$PORT" "$CORPUS/$name.dat" || fail "$what: to ktrace"
		wait_log ': wrote ' $((n + 1))
		kt=$D/$(tail -1 "$LOG" | sed -n 's/.*: wrote \([^ ]*\) .*/\1/p')
		# trace-cmd listen finishes a session about two seconds after it ends
		for _ in $(seq 100); do
			tc=$(ls "$WORK"/tc/*.dat 2>/dev/null)
			[ -n "$tc" ] && ! ls "$WORK"/tc/*.cpu* >/dev/null 2>&1 && break
			sleep 0.1
		done
		sleep 0.2
		if diff <(layout "$tc") <(layout "$kt") > "$WORK/diff"; then
			pass "$what: the same layout as trace-cmd listen's file"
		else
			fail "$what: layout differs from trace-cmd listen's file"; cat "$WORK/diff"
		fi
		tc_report "$tc" > "$WORK/tc.txt" 2>&1
		tc_report "$kt" 2>&1 | cmp -s - "$WORK/tc.txt" && pass "$what: the same report" ||
			fail "$what: the reports differ"
		rm -f "$kt"
	done
done
stop_tc
stop_listener
finish
