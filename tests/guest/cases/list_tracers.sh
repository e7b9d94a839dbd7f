# `ktrace list -t` in the guest names the tracers of a kernel that has them all, as
# `trace-cmd list -t` does.

guest()
{
	ktrace list -t > "$OUT/kt.txt" || return
	trace-cmd list -t > "$OUT/tc.txt"
}

check()
{
	expect kt.txt '(^| )function_graph( |$)' 'ktrace list -t shows function_graph'
	diff -u tc.txt kt.txt || fail "ktrace list -t differs from trace-cmd list -t"
	echo "ok: ktrace list -t = trace-cmd list -t"
}
