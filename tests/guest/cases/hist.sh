# issue 8: a hist trigger (-R 'hist:...') on start and record, in the top instance and in
# another; ktrace show --hist prints the histogram and lists the events that have one; a
# trigger the kernel rejects shows the kernel's error_log entry; --clear zeroes a histogram (a
# filtered trigger's too) and keeps counting; ktrace reset removes them.

guest()
{
	$REC start -e syscalls:sys_enter_getppid \
		-R 'hist:keys=common_pid:vals=hitcount:sort=hitcount' || return
	getppid_helper 137 > "$OUT/helper.out" || return
	$REC show --hist syscalls:sys_enter_getppid --clear > "$OUT/hist.txt" || return
	getppid_helper 7 > "$OUT/helper3.out" || return
	$REC show --hist syscalls:sys_enter_getppid > "$OUT/hist3.txt" || return
	$REC start -B khist -e syscalls:sys_enter_getppid -R 'hist:keys=common_pid if common_pid > 1' \
		|| return
	getppid_helper 41 $T/instances/khist/trace_marker > "$OUT/helper2.out" || return
	$REC show -B khist --hist --clear sys_enter_getppid > "$OUT/hist2.txt" || return
	$REC show -B khist --hist sys_enter_getppid > "$OUT/hist2-cleared.txt" || return
	$REC show -B khist --hist > "$OUT/list2-cleared.txt" || return
	$REC show --hist > "$OUT/list.txt" || return
	$REC show -B khist --hist > "$OUT/list2.txt" || return
	$REC show --hist sched:sched_switch 2> "$OUT/nohist.err" && return 1
	$REC start -e sched:sched_switch -R 'hist:keys=no_such_field' 2> "$OUT/bad.err" && return 1
	$REC reset -a -d || return
	$REC show --hist > "$OUT/list-after-reset.txt" || return
	# record: the trigger is on while it records, and gone after it
	$REC record -o "$OUT/rec.dat" -e syscalls:sys_enter_getppid -R 'hist:keys=common_pid' \
		-- getppid_helper 5 > /dev/null || return
	$REC show --hist > "$OUT/list-after-record.txt"
}

check()
{
	pid=$(sed -n 's/^pid=//p' helper.out)
	pid2=$(sed -n 's/^pid=//p' helper2.out)
	pid3=$(sed -n 's/^pid=//p' helper3.out)
	expect hist.txt "^# trigger info: hist:keys=common_pid:vals=hitcount:sort=hitcount" \
		'the trigger heads the histogram'
	expect hist.txt "^\{ common_pid: +$pid \} hitcount: +137\$" '137 getppid calls of the helper'
	expect hist3.txt "^\{ common_pid: +$pid3 \} hitcount: +7\$" '7 calls counted after --clear'
	expect_none hist3.txt "common_pid: +$pid \}" 'the first helper after --clear'
	expect hist2.txt "^\{ common_pid: +$pid2 \} hitcount: +41\$" '41 calls in instance khist'
	expect_none hist2-cleared.txt "common_pid: +$pid2 \}" 'the filtered histogram after --clear'
	expect hist2-cleared.txt '^ +Hits: 0$' 'no hits after --clear'
	expect list2-cleared.txt '^syscalls:sys_enter_getppid	hist:.* if common_pid > 1' \
		'the filtered trigger kept by --clear'
	expect_none hist2.txt "common_pid: +$pid \}" 'the first helper in khist'
	expect list.txt '^syscalls:sys_enter_getppid	hist:keys=common_pid:vals=hitcount:sort=hitcount' \
		'the top instance lists its hist trigger'
	expect list2.txt '^syscalls:sys_enter_getppid	hist:keys=common_pid:vals=hitcount' \
		'khist lists its hist trigger'
	expect nohist.err "sched:sched_switch': the event has no hist trigger" 'no trigger, said so'
	expect bad.err "^  kernel: hist:sched:sched_switch: error: Couldn't find field" \
		"the kernel's message"
	expect bad.err '^    Command: hist:keys=no_such_field$' 'the rejected trigger'
	expect bad.err '^ +\^$' 'the caret line'
	expect list-after-reset.txt '^no event has a hist trigger$' 'reset removes hist triggers'
	expect list-after-record.txt '^no event has a hist trigger$' 'record removes its trigger'
	tracefs_at_defaults
}
