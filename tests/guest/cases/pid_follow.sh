# issue 4: -P PID traces a running process until it exits: here a shell that opens
# /etc/passwd five times itself (a redirection, no child), while other tasks open files too.

guest()
{
	(sleep 2; i=0; while [ $i -lt 5 ]; do : < /etc/passwd; i=$((i + 1)); done) &
	bg=$!
	echo $bg > "$OUT/pid.txt"
	(sleep 1; while kill -0 $bg 2> /dev/null; do : < /etc/group; done) &
	$REC record -P $bg -p function_graph -g do_sys_openat2 -o "$OUT/pid.dat" || return
	$REC reset
}

check()
{
	same_report pid.dat
	r=pid.dat.tc.txt
	bg=$(cat pid.txt)
	n=$(grep -c -E -- "-$bg +\[.*\|  do_sys_openat2\(\) \{$" $r)
	[ "$n" -ge 5 ] || fail "$n calls of do_sys_openat2 by pid $bg, 5 expected"
	echo "ok: pid $bg opened $n times"
	others=$(grep -E 'funcgraph_(entry|exit):' $r | grep -v -E -- "-$bg +\[" | head -n 3)
	[ -z "$others" ] || fail "events of other tasks: $others"
	echo "ok: only pid $bg"
	tracefs_at_defaults
}
