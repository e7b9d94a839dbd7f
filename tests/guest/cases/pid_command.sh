# issue 4: -F traces only the command ktrace runs: every line of the graph is from ls, none from
# ktrace itself or another task.

guest()
{
	$REC record -p function_graph -g do_sys_openat2 -F -o "$OUT/pid.dat" -- ls / || return
	$REC reset
}

check()
{
	same_report pid.dat
	r=pid.dat.tc.txt
	expect $r '^ +ls-[0-9]+ .*do_sys_openat2\(\) \{$' 'ls: do_sys_openat2() {'
	tasks=$(grep -o '^ *[^ ]*-[0-9]* *\[' $r | sed 's/ *\[$//; s/^ *//' | sort -u)
	[ "$(echo "$tasks" | wc -l)" = 1 ] || fail "tasks other than ls in the report: $tasks"
	echo "ok: one task only: $tasks"
	graph_check $r ls
	tracefs_at_defaults
}
