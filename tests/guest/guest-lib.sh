# Helpers for the guest side of the cases (busybox sh), sourced before each case's guest().
# $OUT is the case's result folder; whatever is left there comes back to the host.

T=/sys/kernel/tracing

# The tracefs settings a recorder may change, one "file: value" line each, so that two
# snapshots compare with diff. Event filters and triggers list only the non-default ones.
# buffer_size_kb is left out: the kernel grows the buffers on first use ("7 (expanded: 1408)"
# becomes "1410") and nothing shrinks them back.
tracefs_snapshot()
{
	for f in current_tracer tracing_on trace_clock tracing_cpumask \
		max_graph_depth tracing_thresh tracing_max_latency set_ftrace_pid set_event_pid set_event_notrace_pid \
		set_ftrace_notrace_pid set_graph_notrace kprobe_events uprobe_events \
		dynamic_events set_event; do
		[ -e "$T/$f" ] && sed "s|^|$f: |" "$T/$f"
	done
	# Only the first lines: "all functions enabled" is one line, a filter is many.
	for f in set_ftrace_filter set_ftrace_notrace set_graph_function; do
		head -n 3 "$T/$f" | sed "s|^|$f: |"
	done
	sed 's|^|trace_options: |' "$T/trace_options"
	ls "$T/instances" | sed 's|^|instance: |'
	grep -H -v -x none "$T"/events/*/*/filter | sed "s|^$T/||"
	grep -H -v '^#' "$T"/events/*/*/trigger | sed "s|^$T/||"
}

# Put tracefs back the way a fresh boot has it, without ktrace or trace-cmd, so that a case
# that failed half-way cannot change the next one.
tracefs_cleanup()
{
	echo 0 > "$T/tracing_on"
	echo nop > "$T/current_tracer"
	echo > "$T/set_event"
	echo > "$T/set_ftrace_filter"
	echo > "$T/set_ftrace_notrace"
	echo > "$T/set_graph_function"
	echo > "$T/set_graph_notrace"
	echo > "$T/set_ftrace_pid"
	echo > "$T/set_event_pid"
	echo > "$T/kprobe_events"
	echo > "$T/trace"
	echo 0 > "$T/tracing_thresh"
	[ -e "$T/tracing_max_latency" ] && echo 0 > "$T/tracing_max_latency"
	for i in "$T"/instances/*; do
		[ -d "$i" ] && rmdir "$i"
	done
	grep -l -v -x none "$T"/events/*/*/filter | while read -r f; do
		echo 0 > "$f"
	done
	sed -n 's/^trace_options: //p' /out/tracefs-boot.txt | while read -r o; do
		echo "$o" > "$T/trace_options"
	done
	sed -n 's/^trace_clock: .*\[\(.*\)\].*/\1/p' /out/tracefs-boot.txt > "$T/trace_clock"
	sed -n 's/^max_graph_depth: //p' /out/tracefs-boot.txt > "$T/max_graph_depth"
	echo 1 > "$T/tracing_on"
}

# latency_cases TRACER FUNCS WORKLOAD...: a latency tracer recorded every way it allows, each
# while WORKLOAD runs, into $OUT: rec.dat (record -l FUNCS: only those functions are patched,
# which under TCG takes seconds instead of half a minute), ext.dat (start -O nofunction-trace,
# then extract), tc.dat (trace-cmd record -l FUNCS), stream.txt (stream's refusal) and max.txt
# (tracing_max_latency before and after record: record zeroes it and puts it back).
latency_cases()
{
	tracer=$1 funcs=$2
	shift 2
	echo 7 > $T/tracing_max_latency
	echo "before $(cat $T/tracing_max_latency)" > "$OUT/max.txt"
	$REC record -p "$tracer" -l "$funcs" -o "$OUT/rec.dat" -- "$@" || return
	echo "after $(cat $T/tracing_max_latency)" >> "$OUT/max.txt"
	$REC start -p "$tracer" -O nofunction-trace || return
	"$@" || return
	$REC extract -p "$tracer" -o "$OUT/ext.dat" || return
	$REC reset || return
	if [ "$REC" = ktrace ]; then
		timeout 20 ktrace stream -p "$tracer" > "$OUT/stream.txt" 2>&1
		echo "status $?" >> "$OUT/stream.txt"
	fi
	trace-cmd record -p "$tracer" -l "$funcs" -o "$OUT/tc.dat" "$@" || return
	trace-cmd reset || return
	$REC reset
}

# The recorder the ktrace cases run: ktrace, or trace-cmd when the harness was started with
# `run -r trace-cmd` (to try a case's checks on a file trace-cmd made).
REC=ktrace
[ -f /cases/recorder ] && REC=$(cat /cases/recorder)
