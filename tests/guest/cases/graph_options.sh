# issue 4: -g twice, -n, --max-graph-depth, events beside the graph, and -F, in one recording
# (each function_graph recording costs the emulated guest half a minute or more: enabling the
# graph tracer patches every kernel function). wc opens and read(2)s its file; getname, called
# by every open, is left out; only wc is traced, ktrace itself is not.

guest()
{
	$REC record -p function_graph -g do_sys_openat2 -g ksys_read -n getname \
		--max-graph-depth 3 -e sched:sched_process_exec -e syscalls:sys_enter_openat -F \
		-o "$OUT/options.dat" -- wc /init || return
	$REC reset
}

check()
{
	same_report options.dat
	r=options.dat.tc.txt
	expect $r '^ +wc-[0-9]+ .*\|  do_sys_openat2\(\) \{$' '-g: wc: do_sys_openat2() at the top'
	expect $r '^ +wc-[0-9]+ .*\|  ksys_read\(\) \{$' '-g: wc: ksys_read() at the top'
	expect $r '\|    do_filp_open\(\) \{$' 'do_sys_openat2 calls do_filp_open'
	expect $r '\|      [a-z_.0-9]+\(\);$' '--max-graph-depth 3: leaves at depth 3'
	expect_none $r '\| +getname\(\)' '-n getname: no getname()'
	expect $r '^ +wc-[0-9]+ .*sched_process_exec: ' '-e: the exec of wc'
	expect $r '^ +wc-[0-9]+ .*sys_enter_openat: ' '-e: its openat syscalls'
	# Nothing but wc: ktrace forks wc held before exec and writes its pid to set_ftrace_pid
	# before current_tracer, so no ktrace thread is ever traced (nor marked inside a -g function,
	# a mark wc would inherit at fork). A stray leaf here fails.
	only_task $r wc
	graph_check $r wc 3
	tracefs_at_defaults
}
