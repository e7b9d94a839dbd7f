# issue 8: ktrace snapshot -s/-c/-f and printing it, on a kernel with CONFIG_TRACER_SNAPSHOT.

guest()
{
	$REC start -e sched:sched_switch || return
	echo ktrace-snap-before > $T/trace_marker
	$REC snapshot -s || return
	echo ktrace-snap-after > $T/trace_marker
	$REC snapshot > "$OUT/snap.txt" || return
	$REC snapshot -c || return
	$REC snapshot > "$OUT/cleared.txt" || return
	$REC snapshot -f || return
	$REC reset
}

check()
{
	expect snap.txt 'tracing_mark_write: ktrace-snap-before' 'the marker written before -s'
	expect snap.txt 'sched_switch: ' 'the sched_switch events before -s'
	expect_none snap.txt 'ktrace-snap-after' 'the marker written after -s'
	expect_none cleared.txt 'ktrace-snap' 'anything left after -c'
	tracefs_at_defaults
}
