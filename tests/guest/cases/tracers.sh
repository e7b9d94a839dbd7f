# issue 16: the test kernel offers every tracer it was built for (tests/guest/kernel/config),
# and ktrace list -t names them as trace-cmd list -t does.

guest()
{
	cat $T/available_tracers > "$OUT/available.txt" || return
	ktrace list -t > "$OUT/kt.txt" || return
	trace-cmd list -t > "$OUT/tc.txt"
}

check()
{
	for t in function function_graph irqsoff preemptoff preemptirqsoff wakeup wakeup_rt \
		wakeup_dl hwlat osnoise timerlat mmiotrace blk branch nop; do
		grep -q -w -- "$t" available.txt || fail "no $t in available_tracers: $(cat available.txt)"
	done
	echo "ok: available_tracers: $(cat available.txt)"
	diff -u tc.txt kt.txt || fail "ktrace list -t differs from trace-cmd list -t"
	echo "ok: ktrace list -t = trace-cmd list -t"
}
