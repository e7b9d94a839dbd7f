# issue 4: --max-graph-depth 2 keeps the graph of do_sys_openat2 two calls deep.

guest()
{
	$REC record -p function_graph --max-graph-depth 2 -g do_sys_openat2 \
		-o "$OUT/depth.dat" -- ls / || return
	$REC reset
}

check()
{
	same_report depth.dat
	r=depth.dat.tc.txt
	expect $r '\| +do_sys_openat2\(\) \{$' 'do_sys_openat2() {'
	expect $r '\|    [a-z_.0-9]+\(\);$' 'its calls, as leaves at depth 2'
	graph_check $r ls 2
	tracefs_at_defaults
}
