# issue 16: the blk tracer on the virtio disk (/sys/block/vda/trace/enable), while dd reads it
# with the page cache dropped: record, start+extract, stream and trace-cmd record. (stream printed
# none of the reads until it registered the made-up blktrace format, as report does.) (Neither
# report decodes a blktrace entry: its format has no print fmt and libtraceevent 1.7 no blk
# plugin, so both print the pid alone.)

blk_read()
{
	echo 3 > /proc/sys/vm/drop_caches
	dd if=/dev/vda of=/dev/null bs=4096 count=64 skip=$1 2> /dev/null
}

guest()
{
	echo 1 > /sys/block/vda/trace/enable
	$REC record -p blk -o "$OUT/rec.dat" -- sh -c 'echo 3 > /proc/sys/vm/drop_caches; dd if=/dev/vda of=/dev/null bs=4096 count=64 skip=1000 2> /dev/null' || return
	$REC start -p blk || return
	blk_read 2000
	$REC extract -o "$OUT/ext.dat" || return
	$REC reset || return
	$REC stream -p blk -- sh -c 'echo 3 > /proc/sys/vm/drop_caches; dd if=/dev/vda of=/dev/null bs=4096 count=64 skip=3000 2> /dev/null' > "$OUT/stream.txt" || return
	$REC reset || return
	trace-cmd record -p blk -o "$OUT/tc.dat" sh -c 'sleep 1; echo 3 > /proc/sys/vm/drop_caches; dd if=/dev/vda of=/dev/null bs=4096 count=64 skip=4000 2> /dev/null' || return
	trace-cmd reset || return
	$REC reset || return
	echo 0 > /sys/block/vda/trace/enable
}

check()
{
	for dat in rec.dat ext.dat tc.dat; do
		same_report $dat
		expect $dat.tc.txt '^ +dd-[0-9]+ +\[[0-9]+\] .* blktrace: ' "$dat: dd's requests"
	done
	expect stream.txt '^ +dd-[0-9]+ +\[[0-9]+\] .* blktrace: ' "stream: dd's requests"
	tracefs_at_defaults
}
