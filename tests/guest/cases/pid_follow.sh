# issue 4: -P PID traces a running process until it exits: a shell that opens /etc/passwd five
# times itself (a redirection, no child) while another shell opens /etc/group in a loop. Events
# (the openat syscall) rather than the function tracer keep this case cheap in the guest.

guest()
{
	# The opens wait until the recorder has set the pid filter and switched tracing on: the
	# recorder's start takes seconds in the emulated guest.
	(set +x
	 while [ -z "$(cat $T/set_event_pid)" ] || [ "$(cat $T/tracing_on)" != 1 ]; do sleep 0.2; done
	 i=0; while [ $i -lt 5 ]; do : < /etc/passwd; i=$((i + 1)); done) &
	bg=$!
	echo $bg > "$OUT/pid.txt"
	(set +x; while kill -0 $bg 2> /dev/null; do : < /etc/group; sleep 0.1; done) &
	$REC record -P $bg -e syscalls:sys_enter_openat -o "$OUT/pid.dat" || return
	$REC reset
}

check()
{
	same_report pid.dat
	r=pid.dat.tc.txt
	bg=$(cat pid.txt)
	n=$(grep -c -E -- "-$bg +\[.*sys_enter_openat: .*filename: 0x" $r)
	[ "$n" -ge 5 ] || fail "$n openat calls by pid $bg, 5 expected"
	echo "ok: pid $bg opened $n times"
	only_task $r "$(grep -o -E -m 1 -- "[^ ]+-$bg +\[" $r | sed -E "s/-$bg +\[//")"
	tracefs_at_defaults
}
