# issue 18: record --flight-recorder on a kernel with snapshot triggers (6.1). --save-on puts
# snapshot:1 if FILTER on the recorded instance's event: the buffer freezes at the rare event
# itself, so the first save holds the marks before it and none after; those are in the next
# save (ktrace save), and the trigger is armed again after each save.

guest()
{
	cp /bin/busybox /work/flrare
	$REC record -W -e sched:sched_process_exit -e sched:sched_switch --save-interval 0 \
		-o "$OUT/fl.dat" --save-on 'sched:sched_process_exit: comm == "flrare"' \
		2> "$OUT/rec.err" &
	pid=$!
	n=0
	until grep -q 'flight recorder armed' "$OUT/rec.err"; do
		kill -0 $pid || return 1
		n=$((n + 1))
		[ $n -lt 60 ] || return 1
		sleep 1
	done
	cat $T/events/sched/sched_process_exit/trigger > "$OUT/trigger-armed.txt"
	ls $T/instances > "$OUT/instances-armed.txt"
	for i in 1 2 3 4 5 6 7 8 9 10; do echo "before-$i" > $T/trace_marker; done
	/work/flrare > /dev/null 2>&1
	for i in 1 2 3 4 5 6 7 8 9 10; do echo "after-$i" > $T/trace_marker; done
	n=0
	until grep -q 'saved' "$OUT/rec.err"; do
		n=$((n + 1))
		[ $n -lt 60 ] || return 1
		sleep 1
	done
	cat $T/events/sched/sched_process_exit/trigger > "$OUT/trigger-rearmed.txt"
	$REC save > "$OUT/save.out" || return
	kill -INT $pid
	wait $pid || return
	cat $T/events/sched/sched_process_exit/trigger > "$OUT/trigger-after.txt"
	i=0
	for f in "$OUT"/fl-*.dat; do
		i=$((i + 1))
		mv "$f" "$OUT/save$i.dat"
	done
}

check()
{
	expect rec.err 'saves swap the snapshot buffer' 'a snapshot kernel: saves swap'
	expect trigger-armed.txt '^snapshot:count=1 if comm == "flrare"' 'the snapshot trigger armed'
	expect instances-armed.txt '^ktrace-flight-' 'the watcher instance'
	expect trigger-rearmed.txt '^snapshot:count=1' 'the trigger armed again after the save'
	expect_none trigger-after.txt '^snapshot' 'the trigger removed on exit'
	[ -s save2.dat ] && [ ! -e save3.dat ] || fail "not two saves: $(ls)"
	same_report save1.dat
	same_report save2.dat
	expect save1.dat.kt.txt 'flrare-[0-9]+ .*sched_process_exit' 'the rare event in the save'
	for i in 1 2 3 4 5 6 7 8 9 10; do
		expect save1.dat.kt.txt "tracing_mark_write: before-$i\$" "before-$i in the first save"
		expect save2.dat.kt.txt "tracing_mark_write: after-$i\$" "after-$i in the next save"
	done
	expect_none save1.dat.kt.txt 'tracing_mark_write: after-' 'frozen at the event: no mark after it'
	expect_none save2.dat.kt.txt 'tracing_mark_write: before-' 'the next save repeats nothing'
	tracefs_at_defaults
}
