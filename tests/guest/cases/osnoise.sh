# issue 16: the osnoise tracer (runtime 0.2 s of every 0.5 s) with the osnoise:* events: its
# per-CPU threads' summaries and the noise events, by record, start+extract, stream and
# trace-cmd record.

guest()
{
	nproc > "$OUT/cpus.txt"
	ls $T/osnoise > "$OUT/osnoise-files.txt"
	echo 200000 > $T/osnoise/runtime_us
	echo 500000 > $T/osnoise/period_us
	$REC record -p osnoise -e 'osnoise:*' -o "$OUT/rec.dat" -- sleep 3 || return
	$REC start -p osnoise -e 'osnoise:*' || return
	sleep 2
	$REC extract -o "$OUT/ext.dat" || return
	$REC reset || return
	timeout -s INT 12 $REC stream -p osnoise -e 'osnoise:*' > "$OUT/stream.txt"
	$REC reset || return
	trace-cmd record -p osnoise -e 'osnoise:*' -o "$OUT/tc.dat" sleep 3 || return
	trace-cmd reset || return
	$REC reset || return
	echo 1000000 > $T/osnoise/period_us
	echo 1000000 > $T/osnoise/runtime_us
}

check()
{
	for dat in rec.dat ext.dat tc.dat; do
		same_report $dat
		cpu=0
		while [ $cpu -lt "$(cat cpus.txt)" ]; do
			expect $dat.tc.txt "^ +osnoise/$cpu-[0-9]+ " "$dat: the thread of CPU $cpu"
			cpu=$((cpu + 1))
		done
		expect $dat.tc.txt ' (irq|thread|softirq|sample_threshold)_?noise?: ' \
			"$dat: osnoise:* events"
	done
	expect stream.txt 'osnoise/[01]-' 'stream printed the per-CPU threads'
	tracefs_at_defaults
}
