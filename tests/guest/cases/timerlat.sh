# issue 16: the timerlat tracer (a 10 ms period) with the osnoise:* events: the per-CPU
# timerlat threads' IRQ and thread latencies, by record, start+extract, stream and trace-cmd
# record.

guest()
{
	nproc > "$OUT/cpus.txt"
	echo 10000 > $T/osnoise/timerlat_period_us
	$REC record -p timerlat -e 'osnoise:*' -o "$OUT/rec.dat" -- sleep 2 || return
	$REC start -p timerlat -e 'osnoise:*' || return
	sleep 2
	$REC extract -o "$OUT/ext.dat" || return
	$REC reset || return
	timeout -s INT 12 $REC stream -p timerlat > "$OUT/stream.txt"
	$REC reset || return
	trace-cmd record -p timerlat -e 'osnoise:*' -o "$OUT/tc.dat" sleep 2 || return
	trace-cmd reset || return
	$REC reset || return
	echo 1000 > $T/osnoise/timerlat_period_us
}

check()
{
	for dat in rec.dat ext.dat tc.dat; do
		same_report $dat
		cpu=0
		while [ $cpu -lt "$(cat cpus.txt)" ]; do
			expect $dat.tc.txt "^ +timerlat/$cpu-[0-9]+ " "$dat: the thread of CPU $cpu"
			cpu=$((cpu + 1))
		done
		expect $dat.tc.txt ' timerlat: ' "$dat: timerlat samples"
	done
	expect stream.txt 'timerlat' 'stream printed timerlat samples'
	tracefs_at_defaults
}
