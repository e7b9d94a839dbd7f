# issue 16: the hwlat tracer (a 20 ms width of every 0.5 s: a wider one starves a one-CPU guest): its
# kthread's samples are ftrace:hwlat events in the ring buffer, recorded by record,
# start+extract, stream, snapshot and trace-cmd record.

guest()
{
	echo 20000 > $T/hwlat_detector/width
	echo 500000 > $T/hwlat_detector/window
	$REC record -p hwlat -o "$OUT/rec.dat" -- sleep 3 || return
	$REC start -p hwlat || return
	sleep 2
	$REC snapshot -s || return
	$REC snapshot > "$OUT/snap.txt" || return
	$REC snapshot -f || return
	$REC extract -o "$OUT/ext.dat" || return
	$REC reset || return
	timeout -s INT 10 $REC stream -p hwlat > "$OUT/stream.txt"
	$REC reset || return
	trace-cmd record -p hwlat -o "$OUT/tc.dat" sleep 3 || return
	trace-cmd reset || return
	$REC reset || return
	echo 1000000 > $T/hwlat_detector/window
	echo 500000 > $T/hwlat_detector/width
}

check()
{
	for dat in rec.dat ext.dat tc.dat; do
		same_report $dat
		expect $dat.tc.txt ' hwlat: +cnt:[0-9]+' "$dat has hwlat samples"
	done
	expect snap.txt 'hwlat' 'the snapshot has hwlat samples'
	expect stream.txt 'hwlat' 'stream printed hwlat samples'
	tracefs_at_defaults
}
