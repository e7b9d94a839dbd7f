# issue 20: record --profile and ktrace profile where the kernel has function_graph: the graph
# tracer at depth 1 (max_graph_depth put back afterwards), the stacks of sched_switch and
# sched_wakeup, the event formats trace-cmd 3.1.6's record --profile saves, and profile's table.

guest()
{
	cat $T/max_graph_depth > "$OUT/depth-before.txt"
	$REC record --profile -o "$OUT/prof.dat" -- ls / > /dev/null || return
	cat $T/max_graph_depth > "$OUT/depth-after.txt"
	trace-cmd record --profile -o "$OUT/tc-prof.dat" -- ls / > /dev/null || return
	trace-cmd reset
	$REC profile -o "$OUT/profile.txt" -- ls / > /dev/null || return
}

check()
{
	same_report prof.dat
	r=prof.dat.kt.txt
	expect $r 'funcgraph_entry: ' 'function_graph runs under --profile'
	expect $r ' kernel_stack: ' 'sched stacks are recorded'
	expect $r ' sys_enter: ' 'raw_syscalls are recorded'
	# depth 1: no call nests inside another
	expect_none $r 'funcgraph_entry: +\|     ' 'no call nests inside another (depth 1)'
	[ "$(cat depth-after.txt)" = "$(cat depth-before.txt)" ] ||
		fail "max_graph_depth left at $(cat depth-after.txt), was $(cat depth-before.txt)"
	# the same event formats as trace-cmd's record --profile saves
	kt_report -E prof.dat | sort > kt-formats.txt
	kt_report -E tc-prof.dat | sort > tc-formats.txt
	cmp -s kt-formats.txt tc-formats.txt || {
		diff tc-formats.txt kt-formats.txt | head -20
		fail "record --profile saves other formats than trace-cmd's"
	}
	echo "ok: $(wc -l < kt-formats.txt) formats, as trace-cmd record --profile"
	expect profile.txt '^ls-[0-9]+ ' 'ktrace profile prints a row for ls'
	tracefs_at_defaults
}
