# issue 4: -T records a kernel stack after each event.

guest()
{
	$REC record -e sched:sched_process_exec -T -o "$OUT/stack.dat" -- ls / || return
	$REC reset
}

check()
{
	same_report stack.dat
	r=stack.dat.tc.txt
	expect $r '^ +ls-[0-9]+ .*sched_process_exec: ' 'the exec of ls'
	expect $r 'kernel_stack: +<stack trace >' 'a stack after it'
	expect $r '^=> .*exec' 'the stack holds the exec path'
	tracefs_at_defaults
}
