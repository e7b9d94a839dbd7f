# issue 4: a kprobe and a kretprobe on do_sys_openat2, recorded as events, print their fields
# (the file name as a string). ktrace reset removes them.

guest()
{
	echo 'p:myopen do_sys_openat2 dfd=%di filename=+0(%si):string flags=+0(%dx):x64' \
		>> /sys/kernel/tracing/kprobe_events || return
	echo 'r:myopenret do_sys_openat2 ret=$retval' >> /sys/kernel/tracing/kprobe_events
	$REC record -e kprobes:myopen -e kprobes:myopenret -o "$OUT/kprobe.dat" \
		-- sh -c 'cat /etc/hostname /etc/passwd /no/such/file > /dev/null 2>&1' || return
	$REC reset
}

check()
{
	same_report kprobe.dat
	r=kprobe.dat.tc.txt
	expect $r '^ +cat-[0-9]+ .*myopen: +\([0-9a-f]+\) dfd=0x[0-9a-f]+ filename="/etc/hostname" flags=0x' \
		'myopen prints its fields'
	expect $r 'filename="/no/such/file"' 'the failed open too'
	expect $r '^ +cat-[0-9]+ .*myopenret: +\([0-9a-f]+ <- [0-9a-f]+\) ret=0x' 'myopenret'
	tracefs_at_defaults
}
