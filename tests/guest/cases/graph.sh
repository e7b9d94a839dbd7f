# issue 4: `ktrace record -p function_graph -g do_sys_openat2 -- ls /`. The report shows the
# nested calls of each open made by ls, leaves folded into `func();`, and durations that add up;
# trace-cmd reads the file the same way; ktrace reset puts tracefs back.

guest()
{
	$REC record -p function_graph -g do_sys_openat2 -o "$OUT/graph.dat" -- ls / || return
	$REC reset
}

check()
{
	same_report graph.dat
	r=graph.dat.tc.txt
	expect $r '^ +ls-[0-9]+ .*funcgraph_entry: +\| +do_sys_openat2\(\) \{$' \
		'ls calls do_sys_openat2() {'
	expect $r 'funcgraph_entry: +\|    [a-z_.0-9]+\(\) \{$' 'calls nested two deep'
	expect $r 'funcgraph_entry: .*[0-9] us +\| +[a-z_.0-9]+\(\);$' 'leaf calls fold into func();'
	expect $r 'funcgraph_exit: .*[0-9] us +\| +\}$' 'exits print their duration'
	graph_check $r ls
	tracefs_at_defaults
}
