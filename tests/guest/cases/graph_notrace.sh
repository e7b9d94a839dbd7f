# issue 4: -n leaves a function out of the graph (getname, called by every open) while the
# rest of do_sys_openat2's graph stays.

guest()
{
	$REC record -p function_graph -g do_sys_openat2 -n getname \
		-o "$OUT/notrace.dat" -- ls / || return
	$REC reset
}

check()
{
	same_report notrace.dat
	r=notrace.dat.tc.txt
	expect $r '^ +ls-[0-9]+ .*\| +do_sys_openat2\(\) \{$' 'ls: do_sys_openat2() {'
	expect $r '\| +do_filp_open\(\)' 'its other calls (do_filp_open)'
	expect_none $r '\| +getname\(\)' 'no getname()'
	graph_check $r ls
	tracefs_at_defaults
}
