# ktrace report reads a function_graph recording that trace-cmd made in the guest (with events
# in between) and prints what trace-cmd report prints.

guest()
{
	trace-cmd record -p function_graph -g do_sys_openat2 -e sched:sched_process_exec \
		-o "$OUT/tc.dat" sh -c 'sleep 1; ls /'
}

check()
{
	same_report tc.dat
	expect tc.dat.tc.txt 'do_sys_openat2\(\) \{$' 'the graph of do_sys_openat2 is there'
	expect tc.dat.tc.txt 'sched_process_exec:' 'and the exec event'
}
