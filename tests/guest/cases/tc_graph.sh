# The harness itself: trace-cmd records a function_graph of do_sys_openat2 in the guest, and
# its report on the host shows the nested calls of `ls /`. Needs no ktrace feature.
# (`sleep 1` first: trace-cmd 3.1.6 loses a CPU when the command ends before its recorders start.)

guest()
{
	trace-cmd record -p function_graph -g do_sys_openat2 -o "$OUT/tc.dat" \
		sh -c 'sleep 1; ls /'
}

check()
{
	tc_report -i tc.dat > tc.txt || fail "trace-cmd report -i tc.dat"
	expect tc.txt '^ +ls-[0-9]+ .*funcgraph_entry: +\| +do_sys_openat2\(\) \{$' \
		'ls calls do_sys_openat2() {'
	expect tc.txt 'funcgraph_entry: .*[0-9] us +\| +[a-z_]+\(\);$' 'leaf calls fold into func();'
	graph_check tc.txt ls
}
