# The harness with no ktrace feature but report: trace-cmd records a function_graph of
# do_sys_openat2 (and an event) in the guest; on the host its report shows the nested calls of
# `ls /`, and ktrace report prints the same text.
# (`sleep 1` first: trace-cmd 3.1.6 loses a CPU when the command ends before its recorders start.)

guest()
{
	trace-cmd record -p function_graph -g do_sys_openat2 -e sched:sched_process_exec \
		-o "$OUT/tc.dat" sh -c 'sleep 1; ls /'
}

check()
{
	same_report tc.dat
	r=tc.dat.tc.txt
	expect $r '^ +ls-[0-9]+ .*funcgraph_entry: +\| +do_sys_openat2\(\) \{$' \
		'ls calls do_sys_openat2() {'
	expect $r 'funcgraph_entry: .*[0-9] us +\| +[a-z_]+\(\);$' 'leaf calls fold into func();'
	expect $r '^ +ls-[0-9]+ .*sched_process_exec:' 'the exec event of ls'
	graph_check $r ls
}
