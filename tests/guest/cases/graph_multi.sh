# issue 4: -g given twice graphs both functions: wc opens its file and read(2)s it.

guest()
{
	$REC record -p function_graph -g do_sys_openat2 -g ksys_read \
		-o "$OUT/multi.dat" -- wc /init || return
	$REC reset
}

check()
{
	same_report multi.dat
	r=multi.dat.tc.txt
	expect $r '^ +wc-[0-9]+ .*\|  do_sys_openat2\(\) \{$' 'wc: do_sys_openat2() at the top'
	expect $r '^ +wc-[0-9]+ .*\|  ksys_read\(\) \{$' 'wc: ksys_read() at the top'
	graph_check $r wc
	tracefs_at_defaults
}
