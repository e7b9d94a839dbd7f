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
	only_task $r wc
	# -g: nothing else at the top. ktrace used to start function_graph before set_ftrace_pid;
	# a 6.1 kernel then left its threads and the command marked as inside a graph function
	# (spawn_command in src/record/cmd_record.c): the command's first function after its
	# release and (5 runs of 5) one function of a recorder leaving its CPU to the command
	# were traced at depth 0 (finish_task_switch, _raw_spin_lock_irqsave).
	top=$(grep -E 'funcgraph_entry: .*\|  [^ ]' $r |
		grep -v -E '\|  (do_sys_openat2|ksys_read)\(\)' | head -n 3)
	[ -z "$top" ] || fail "-g: other calls at depth 0: $top"
	echo "ok: -g: only do_sys_openat2 and ksys_read at depth 0"
	graph_check $r wc 3
	tracefs_at_defaults
}
