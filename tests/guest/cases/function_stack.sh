# issue 4: -p function --func-stack prints a kernel stack after each traced function.

guest()
{
	$REC record -p function -l do_sys_openat2 --func-stack \
		-o "$OUT/stack.dat" -- wc /init || return
	$REC reset
}

check()
{
	same_report stack.dat
	r=stack.dat.tc.txt
	expect $r '^ +wc-[0-9]+ .*function: +do_sys_openat2$' 'wc: do_sys_openat2'
	expect $r 'kernel_stack: +<stack trace >' 'a stack after it'
	expect $r '^=> __x64_sys_openat ' 'the stack holds the syscall entry'
	tracefs_at_defaults
}
