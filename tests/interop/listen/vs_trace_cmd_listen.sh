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

start_tc_listener "$W/tc"

D=$W/kt
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
		rm -f "$W"/tc/*.dat
		"$REPLAY" $flags 127.0.0.1 "$TC_PORT" "$CORPUS/$name.dat" || fail "$what: to trace-cmd"
		n=$(grep -c ': wrote ' "$LOG")
		"$REPLAY" $flags 127.0.0.1 "$PORT" "$CORPUS/$name.dat" || fail "$what: to ktrace"
		wait_log ': wrote ' $((n + 1))
		kt=$D/$(tail -1 "$LOG" | sed -n 's/.*: wrote \([^ ]*\) .*/\1/p')
		tc=$(wait_tc_file "$W/tc")
		if diff <(layout "$tc") <(layout "$kt") > "$W/diff"; then
			pass "$what: the same layout as trace-cmd listen's file"
		else
			fail "$what: layout differs from trace-cmd listen's file"; cat "$W/diff"
		fi
		tc_report "$tc" > "$W/tc.txt" 2>&1
		tc_report "$kt" 2>&1 | cmp -s - "$W/tc.txt" && pass "$what: the same report" ||
			fail "$what: the reports differ"
		rm -f "$kt"
	done
done
stop_tc
stop_listener
finish "$LOG"
