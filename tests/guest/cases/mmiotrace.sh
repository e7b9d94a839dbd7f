# issue 16: the mmiotrace tracer. Nothing in this guest maps MMIO while it is traced (no driver
# loads), so what is tested is what every recording has: the marker, and tracing off and back
# (mmiotrace takes the other CPUs offline while it runs and brings them back).

guest()
{
	nproc > "$OUT/cpus-before.txt"
	$REC record -p mmiotrace -o "$OUT/rec.dat" -- sh -c 'echo ktrace-mmio-mark > /sys/kernel/tracing/trace_marker' || return
	nproc > "$OUT/cpus-after.txt"
	$REC reset || return
	trace-cmd record -p mmiotrace -o "$OUT/tc.dat" sh -c 'sleep 1; echo ktrace-mmio-mark > /sys/kernel/tracing/trace_marker' || return
	trace-cmd reset || return
	$REC reset
}

check()
{
	for dat in rec.dat tc.dat; do
		same_report $dat
		expect $dat.tc.txt 'ktrace-mmio-mark' "$dat: the marker"
	done
	[ "$(cat cpus-after.txt)" = "$(cat cpus-before.txt)" ] || fail "CPUs not back online"
	echo "ok: every CPU back online"
	tracefs_at_defaults
}
