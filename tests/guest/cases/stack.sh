# issue 16/20: the stack tracer (Debian's kernel and the test kernel have CONFIG_STACK_TRACER):
# ktrace stack --start/--stop/--reset switch it as trace-cmd stack does, and with the tracer
# stopped (so the deepest stack holds still) both print the same text.

guest()
{
	S=/proc/sys/kernel/stack_tracer_enabled
	cat $S > "$OUT/enabled-before.txt"
	$REC stack > "$OUT/k-idle.txt" || return
	$REC stack --start || return
	cat $S > "$OUT/enabled-started.txt"
	ls -R /sys > /dev/null 2>&1
	find / -xdev > /dev/null 2>&1
	$REC stack > "$OUT/k-running.txt" || return
	$REC stack --stop || return
	cat $S > "$OUT/enabled-stopped.txt"
	$REC stack > "$OUT/k-stopped.txt" || return
	trace-cmd stack > "$OUT/tc-stopped.txt" || return
	cat $T/stack_max_size > "$OUT/max-before-reset.txt"
	$REC stack --reset || return
	cat $T/stack_max_size > "$OUT/max-after-reset.txt"
	$REC stack --start --stop || return	# the last action wins, as in trace-cmd
	cat $S > "$OUT/enabled-last-wins.txt"
	$REC stack --bogus 2> "$OUT/bogus.err"
	echo $? > "$OUT/bogus.rc"
	echo "$(cat "$OUT/enabled-before.txt")" > $S
}

check()
{
	[ "$(cat enabled-started.txt)" = 1 ] || fail "--start left stack_tracer_enabled at $(cat enabled-started.txt)"
	[ "$(cat enabled-stopped.txt)" = 0 ] || fail "--stop left stack_tracer_enabled at $(cat enabled-stopped.txt)"
	[ "$(cat enabled-last-wins.txt)" = 0 ] || fail "--start --stop: the last action did not win"
	echo "ok: --start, --stop, last action wins"
	expect k-running.txt '^\(stack tracer running\)$' "running state shown"
	expect k-stopped.txt '^\(stack tracer not running\)$' "stopped state shown"
	expect k-stopped.txt '^ +Depth +Size +Location' "the stack table"
	cmp k-stopped.txt tc-stopped.txt || { diff -u tc-stopped.txt k-stopped.txt | head -20; fail "ktrace stack != trace-cmd stack"; }
	echo "ok: ktrace stack = trace-cmd stack ($(wc -l < k-stopped.txt) lines)"
	[ "$(cat max-before-reset.txt)" -gt 0 ] || fail "no deepest stack recorded: $(cat max-before-reset.txt)"
	[ "$(cat max-after-reset.txt)" = 0 ] || fail "--reset left stack_max_size at $(cat max-after-reset.txt)"
	echo "ok: --reset zeroes stack_max_size (was $(cat max-before-reset.txt))"
	[ "$(cat bogus.rc)" != 0 ] || fail "an unknown option was accepted"
	expect bogus.err "unknown option '--bogus'" "an unknown option is one line"
	tracefs_at_defaults
}
