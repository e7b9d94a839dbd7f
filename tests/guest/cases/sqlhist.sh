# issue 20: ktrace sqlhist -e makes a synthetic wakeup-latency event (sched_waking JOIN
# sched_switch, onmax of lat): the event is in dynamic_events, both hist triggers are on, and
# the event fires once enabled. A JOIN whose end trigger the kernel refuses (a field only the
# -t copy has) shows the kernel's error_log and puts back what it had written (the synthetic
# event, the start trigger); a histogram goes into a -B instance it makes. ktrace reset then
# leaves tracefs as at boot.

SQLHIST_LAT='SELECT end.next_comm AS comm, (end.TIMESTAMP_USECS - start.TIMESTAMP_USECS) AS lat FROM sched_waking AS start JOIN sched_switch AS end ON start.pid = end.next_pid'

guest()
{
	ktrace sqlhist -n wakeup_lat -e -m lat "$SQLHIST_LAT" > "$OUT/made.txt" || return
	cat $T/dynamic_events > "$OUT/dynamic_events.txt"
	cat $T/events/sched/sched_waking/trigger > "$OUT/start_trigger.txt"
	cat $T/events/sched/sched_switch/trigger > "$OUT/end_trigger.txt"
	echo 1 > $T/events/synthetic/wakeup_lat/enable || return
	for i in 1 2 3 4 5; do sleep 0.1; done
	echo 0 > $T/events/synthetic/wakeup_lat/enable
	cat $T/trace > "$OUT/trace.txt"
	cat $T/events/sched/sched_switch/hist > "$OUT/end_hist.txt"
	# a copy of the events where sched_switch has a field the kernel's does not
	mkdir -p /tmp/copy/events/sched/sched_switch /tmp/copy/events/sched/sched_waking
	cp $T/events/header_page /tmp/copy/events/
	: > /tmp/copy/events/sched/enable
	cp $T/events/sched/sched_waking/format /tmp/copy/events/sched/sched_waking/
	awk '{ print } /field:int next_prio;/ { print "\tfield:int bogus;\toffset:64;\tsize:4;\tsigned:1;" }' \
		$T/events/sched/sched_switch/format > /tmp/copy/events/sched/sched_switch/format
	cp /tmp/copy/events/sched/sched_switch/format "$OUT/copy_format.txt"
	ktrace sqlhist -t /tmp/copy -n bad -e 'SELECT start.pid, (end.TIMESTAMP_USECS - start.TIMESTAMP_USECS) AS d FROM sched_waking AS start JOIN sched_switch AS end ON start.pid = end.bogus' \
		> "$OUT/bad.out" 2> "$OUT/bad.err" && return 1
	cat $T/dynamic_events > "$OUT/dynamic_events-bad.txt"
	cat $T/events/sched/sched_waking/trigger > "$OUT/start_trigger-bad.txt"
	[ -d $T/instances/sqlh ] && return 1
	ktrace sqlhist -e -B sqlh 'SELECT pid, CAST(prio AS _COUNTER_) FROM sched_waking' \
		> "$OUT/inst.txt" || return
	cat $T/instances/sqlh/events/sched/sched_waking/trigger > "$OUT/inst_trigger.txt"
	ktrace reset -a -d || return
}

check()
{
	expect made.txt "^echo 's:wakeup_lat char comm\[16\]; u64 lat;' >> /sys/kernel/tracing/dynamic_events$" \
		'the synthetic event is printed'
	expect dynamic_events.txt '^s:synthetic/wakeup_lat[[:space:]]+char\[16\] comm; u64 lat$' \
		'the synthetic event exists'
	expect start_trigger.txt '^hist:keys=pid:.*__arg_[0-9]+_2=common_timestamp.usecs' \
		'the start histogram saves the timestamp'
	expect end_trigger.txt 'onmax\(\$__lat_[0-9]+_3\)\.trace\(wakeup_lat,' \
		'the end histogram traces wakeup_lat on a new maximum of lat'
	expect trace.txt ' wakeup_lat: +comm=[^ ]+ lat=[0-9]+$' 'the synthetic event fired'
	expect end_hist.txt '^# trigger info: hist:keys=next_pid' 'the end histogram counts'
	expect bad.err "^ktrace sqlhist: cannot write 'hist:keys=bogus:.*' to /sys/kernel/tracing/events/sched/sched_switch/trigger" \
		'the refused end trigger is named'
	expect bad.err "^  kernel: hist:sched:sched_switch: error: Couldn't find field" \
		"the kernel's error_log entry"
	expect bad.err '^    Command: hist:keys=bogus:' 'the refused trigger in the error_log'
	[ -s bad.out ] && fail 'commands printed although -e failed'
	expect_none dynamic_events-bad.txt 'bad' 'the synthetic event of the failed -e is removed'
	expect_none start_trigger-bad.txt '__arg_[0-9]+_2=common_timestamp.usecs.*__arg' \
		'only one start histogram'
	if [ "$(grep -c '^hist:' start_trigger-bad.txt)" != 1 ]; then
		cat start_trigger-bad.txt
		fail 'the start trigger of the failed -e is still there'
	fi
	echo 'ok: the start trigger of the failed -e is removed'
	expect inst.txt "^echo 'hist:keys=pid:vals=prio' > /sys/kernel/tracing/instances/sqlh/events/sched/sched_waking/trigger$" \
		'the -B histogram is printed with its instance'
	expect inst_trigger.txt '^hist:keys=pid:vals=hitcount,prio' 'the -B instance has the histogram'
	tracefs_at_defaults
}
