# issue 16: irqsoff with tracing_thresh set. The kernel then keeps the latest irqs-off section
# longer than the threshold rather than the longest: record and trace-cmd record read that text
# the same way, record leaves tracing_thresh alone (trace-cmd does not touch it either), and
# ktrace reset puts it back to 0.

guest()
{
	echo 20 > $T/tracing_thresh
	workload='dd if=/dev/zero bs=65536 count=64 2> /dev/null | cat > /dev/null; getppid_helper 50 > /dev/null'
	$REC record -p irqsoff -l '_raw_spin_*' -o "$OUT/rec.dat" -- sh -c "$workload" || return
	echo "after record $(cat $T/tracing_thresh)" > "$OUT/thresh.txt"
	trace-cmd record -p irqsoff -l '_raw_spin_*' -o "$OUT/tc.dat" sh -c "$workload" || return
	trace-cmd reset || return
	echo "after trace-cmd reset $(cat $T/tracing_thresh)" >> "$OUT/thresh.txt"
	$REC reset || return
	echo "after ktrace reset $(cat $T/tracing_thresh)" >> "$OUT/thresh.txt"
}

check()
{
	for dat in rec.dat tc.dat; do
		same_report $dat
		expect $dat.tc.txt '^# irqsoff latency trace v1\.1\.5 on ' "$dat holds the irqsoff latency text"
		expect $dat.tc.txt '^# latency: [0-9]+ us, #[0-9]+/[0-9]+, CPU#[0-9]+' "$dat: its latency line"
	done
	# over the threshold: every latency line says at least 20 us
	for dat in rec.dat tc.dat; do
		lat=$(sed -n 's/^# latency: \([0-9]*\) us,.*/\1/p' $dat.tc.txt | head -1)
		[ "$lat" -ge 20 ] || fail "$dat: a latency of $lat us under tracing_thresh 20"
	done
	echo "ok: both latencies are over tracing_thresh"
	expect thresh.txt '^after record 20$' 'record left tracing_thresh alone'
	expect thresh.txt '^after ktrace reset 0$' 'ktrace reset put tracing_thresh back to 0'
	tracefs_at_defaults
}
