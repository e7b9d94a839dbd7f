#!/bin/bash
# The real peer: trace-cmd 3.1.6 `record -N` streams to `ktrace listen`, over UDP and TCP,
# file versions 7 and 6. trace-cmd record needs the LD_PRELOAD shim on this kernel (EPERM on
# the function-tracer files). Each received file must read with `trace-cmd report` and describe
# itself as a local recording of the same kind does.
# Touches tracefs: run under flock /tmp/ktrace-tracefs.lock (meson does).
#   trace_cmd_record.sh KTRACE TCSHIM_SO
set -u
KTRACE=$1
SHIM=$2
. "$(dirname "$0")/lib.sh"

tc_host() {
	[ -e /sys/kernel/tracing/trace ] || mount -t tracefs nodev /sys/kernel/tracing
	LD_PRELOAD=$SHIM TCSHIM_SELF=$SHIM trace-cmd "$@"
}

tracefs_state() {
	local t=/sys/kernel/tracing
	cat $t/tracing_on $t/current_tracer $t/set_event $t/buffer_size_kb $t/trace_clock
}

BEFORE=$(tracefs_state)
D=$W/out
start_listener "$D"
CPUS=$(nproc)

for version in 7 6; do
	tc_host record -o "$W/local$version.dat" --file-version $version -e sched_switch \
		sleep 0.2 >/dev/null 2>&1 || fail "local v$version recording failed"
	for transport in udp tcp; do
		what="v$version $transport"
		flags="--file-version $version"
		[ $transport = tcp ] && flags="$flags -t"
		n=$(grep -c ': wrote \|: dropped' "$LOG")
		tc_host record -N 127.0.0.1:$PORT $flags -e sched_switch sleep 1 \
			> "$W/rec.log" 2>&1 || { fail "$what: trace-cmd record failed";
						     cat "$W/rec.log"; continue; }
		wait_log ': wrote \|: dropped' $((n + 1)) || continue
		got=$(tail -1 "$LOG" | sed -n 's/.*: wrote \([^ ]*\.dat\) .*/\1/p')
		case "$got" in
		trace.localhost:*.dat | trace.127.0.0.1:*.dat) ;;
		*) fail "$what: no file named like trace-cmd's: $(tail -1 "$LOG")"; continue ;;
		esac
		case "$got" in *.partial.dat) fail "$what: partial file"; continue ;; esac
		tc_report "$D/$got" > "$W/report.txt" 2>&1 || fail "$what: report failed"
		head -1 "$W/report.txt" | grep -qx "cpus=$CPUS" || fail "$what: header"
		events=$(sed 1d "$W/report.txt" | grep -c ' sched_switch: ')
		others=$(sed 1d "$W/report.txt" | grep -vc ' sched_switch: ')
		[ "$events" -gt 0 ] && [ "$others" = 0 ] ||
			fail "$what: $events sched_switch lines, $others other lines"
		if diff <(summary "$W/local$version.dat") <(summary "$D/$got") > "$W/diff"; then
			pass "$what: $events events, reads like a local v$version recording"
		else
			fail "$what: dump --summary differs from a local recording"; cat "$W/diff"
		fi
		kt_report_is "$D/$got" "$W/report.txt" "$what"
		rm -f "$D/$got"
	done
done

leftover=$(ls -A "$D")
[ -z "$leftover" ] && pass "nothing else left in DIR" || fail "left in DIR: $leftover"
[ "$(tracefs_state)" = "$BEFORE" ] && pass "tracefs left as found" ||
	fail "tracefs changed: $(tracefs_state)"
stop_listener
finish "$LOG"
