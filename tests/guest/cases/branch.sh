# issue 16: the branch tracer (CONFIG_BRANCH_TRACER, annotated branches): every likely() and
# unlikely() the kernel evaluates is an ftrace:branch event; record and trace-cmd record.

guest()
{
	$REC record -p branch -b 2048 -o "$OUT/rec.dat" -- getppid_helper 5 || return
	$REC reset || return
	trace-cmd record -p branch -b 2048 -o "$OUT/tc.dat" sh -c 'sleep 1; getppid_helper 5' || return
	trace-cmd reset || return
	$REC reset
}

check()
{
	for dat in rec.dat tc.dat; do
		same_report $dat
		expect $dat.tc.txt ' branch: ' "$dat: branch events"
	done
	tracefs_at_defaults
}
