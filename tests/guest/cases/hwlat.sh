# issue 16: the hwlat tracer (a 20 ms width of every 0.5 s: a wider one starves a one-CPU guest): its
# kthread's samples are ftrace:hwlat events in the ring buffer, recorded by record,
# start+extract, stream, snapshot and trace-cmd record.

# Up to TRIES x 0.5 s for an hwlat sample in the top buffer (read without consuming it)
wait_for_sample()
{
	local tries=$1

	while [ "$tries" -gt 0 ]; do
		grep -q 'inner/outer' $T/trace && return 0	# the text form of a sample
		sleep 0.5
		tries=$((tries - 1))
	done
	echo "no hwlat sample in the buffer after the snapshot" >&2
	return 1
}

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
	# the swap left the main buffer empty: extract once a new sample is in it (one per window
	# at most, and only when the width saw a latency), not at a fixed time (CI once got none)
	wait_for_sample 20 || return
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
