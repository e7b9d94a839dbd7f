# issue 8: ktrace extract -s writes the snapshot buffer to a .dat, and the snapshot trigger
# (-R snapshot) of start swaps the buffer when its event fires; ktrace reset removes it.

guest()
{
	$REC start -e syscalls:sys_enter_getppid || return
	getppid_helper 23 > "$OUT/helper.out" || return
	$REC snapshot -s || return
	getppid_helper 5 > "$OUT/helper-after.out" || return
	$REC extract -s -o "$OUT/snap.dat" || return
	$REC reset || return
	$REC snapshot -f || return
	# snapshot:1 fires once, at the first exec after start: getppid_helper's. Only shell
	# builtins run between start and that exec, and between it and the next marker.
	$REC start -e sched:sched_process_exec -R snapshot:1 -e syscalls:sys_enter_getppid || return
	echo ktrace-trig-before > $T/trace_marker
	getppid_helper 3 > "$OUT/helper-trig.out" || return
	echo ktrace-trig-after > $T/trace_marker
	while read -r l; do echo "$l"; done < $T/events/sched/sched_process_exec/trigger \
		> "$OUT/trigger-on.txt"
	$REC snapshot > "$OUT/trig-snap.txt" || return
	$REC reset || return
	cat $T/events/sched/sched_process_exec/trigger > "$OUT/trigger-after.txt"
	$REC snapshot -f
}

check()
{
	pid=$(sed -n "s/^pid=//p" helper.out)
	same_report snap.dat
	[ "$(grep -c -E -- "-$pid +\[[0-9]+\] .* sys_enter_getppid: " snap.dat.kt.txt)" = 23 ] ||
		fail "extract -s: not the helper's 23 getppid calls"
	[ "$(grep -c -E 'tracing_mark_write: ktrace-mark [0-9]+$' snap.dat.kt.txt)" = 23 ] ||
		fail "extract -s: not the helper's 23 marks"
	after=$(sed -n "s/^pid=//p" helper-after.out)
	expect_none snap.dat.kt.txt "-$after +\[" 'events after snapshot -s'
	expect trigger-on.txt '^snapshot:count=0' 'the snapshot:1 trigger fired once'
	expect trig-snap.txt 'tracing_mark_write: ktrace-trig-before' 'the marker before the exec'
	expect_none trig-snap.txt 'ktrace-trig-after' 'the marker after the exec'
	expect_none trig-snap.txt 'sys_enter_getppid' 'the getppid calls after the exec'
	expect_none trigger-after.txt '^snapshot' 'the trigger after reset'
	tracefs_at_defaults
}
