# issue 4: function_graph together with events: the exec of ls and its openat syscalls sit
# between the graph lines, in time order.

guest()
{
	$REC record -p function_graph -g do_sys_openat2 -e sched:sched_process_exec \
		-e syscalls:sys_enter_openat -o "$OUT/events.dat" -- ls / || return
	$REC reset
}

check()
{
	same_report events.dat
	r=events.dat.tc.txt
	expect $r '^ +ls-[0-9]+ .*sched_process_exec: ' 'the exec of ls'
	expect $r '^ +ls-[0-9]+ .*sys_enter_openat: ' 'its openat syscalls'
	expect $r '^ +ls-[0-9]+ .*do_sys_openat2\(\) \{$' 'and the graph of each open'
	graph_check $r ls
	tracefs_at_defaults
}
