# issue 8, issue 20: ktrace snapshot with trace-cmd's flags (-s take, -r clear, -f free, -c CPU,
# several actions at once) and printing it, on a kernel with CONFIG_TRACER_SNAPSHOT. Debian's
# kernel has no CONFIG_TRACER_SNAPSHOT_PER_CPU_SWAP: -s -c is refused there, -r -c works.

guest()
{
	$REC start -e sched:sched_switch || return
	echo ktrace-snap-before > $T/trace_marker
	# one marker from each CPU, for the per-CPU snapshots (-c)
	taskset -c 0 sh -c "echo ktrace-on-cpu0 > $T/trace_marker" || return
	taskset -c 1 sh -c "echo ktrace-on-cpu1 > $T/trace_marker" || return
	$REC snapshot -s || return
	echo ktrace-snap-after > $T/trace_marker
	$REC snapshot > "$OUT/snap.txt" || return
	$REC snapshot -c 0 > "$OUT/snap-cpu0.txt" || return
	$REC snapshot -c 1 > "$OUT/snap-cpu1.txt" || return
	$REC snapshot -c 0 -r || return
	$REC snapshot -c 0 > "$OUT/cleared-cpu0.txt" || return
	$REC snapshot -c 1 > "$OUT/kept-cpu1.txt" || return
	$REC snapshot -c 0 -f 2> "$OUT/free-cpu0.err" && echo accepted >> "$OUT/free-cpu0.err"
	$REC snapshot -r || return
	$REC snapshot > "$OUT/cleared.txt" || return
	echo ktrace-snap-again > $T/trace_marker
	$REC snapshot -r -s || return
	$REC snapshot > "$OUT/again.txt" || return
	$REC snapshot -f || return
	$REC reset
}

check()
{
	expect snap.txt 'tracing_mark_write: ktrace-snap-before' 'the marker written before -s'
	expect snap.txt 'sched_switch: ' 'the sched_switch events before -s'
	expect_none snap.txt 'ktrace-snap-after' 'the marker written after -s'
	expect snap-cpu0.txt '\[000\] .* ktrace-on-cpu0' "CPU 0's marker in -c 0"
	expect_none snap-cpu0.txt '\[001\]|ktrace-on-cpu1' 'CPU 1 events in -c 0'
	expect snap-cpu1.txt '\[001\] .* ktrace-on-cpu1' "CPU 1's marker in -c 1"
	expect_none snap-cpu1.txt '\[000\]|ktrace-on-cpu0' 'CPU 0 events in -c 1'
	expect_none cleared-cpu0.txt '\[000\]' 'CPU 0 events left after -c 0 -r'
	expect kept-cpu1.txt 'ktrace-on-cpu1' "CPU 1's marker kept by -c 0 -r"
	expect free-cpu0.err 'every CPU at once' '-c 0 -f refused with the reason'
	expect_none free-cpu0.err 'accepted' '-c 0 -f refused'
	expect_none cleared.txt 'ktrace-snap|sched_switch: ' 'anything left after -r'
	expect again.txt 'tracing_mark_write: ktrace-snap-again' 'the new snapshot of -r -s'
	tracefs_at_defaults
}
