#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# ktrace mem vs trace-cmd 3.1.6 mem: the same stdout, byte for byte, and the same exit status, on
# every corpus file (kmem.dat has kmalloc/kfree rows, the others print the header alone), on
# kmem.dat converted by trace-cmd to v6, v7 and v7 zstd, and with the file given bare. A file
# without records (a piece of kmem.dat before its first event) fails in both with "No records
# found in file" and 255, as do a latency file ("does not work with latency traces") and two
# -i. usage: mem_vs_tracecmd.sh KTRACE CORPUS ROUNDTRIP_TEST (it writes the latency files)
KTRACE=$1
CORPUS=$(realpath "$2")
RT=$(realpath "$3")
. "$(dirname "$0")/../lib.sh"
need_trace_cmd

same_mem() {	# NAME DIR ARG...: stdout and exit status equal; outputs in $W/NAME.{tc,kt}
	local name=$1 dir=$2 tc kt

	shift 2
	run_clean "$dir" trace-cmd mem "$@" > "$W/$name.tc" 2> "$W/$name.tc.err"
	tc=$?
	run_clean "$dir" "$KTRACE" mem "$@" > "$W/$name.kt" 2> "$W/$name.kt.err"
	kt=$?
	if [ "$tc" != "$kt" ]; then
		fail "$name: exit $kt, trace-cmd $tc ($(head -2 "$W/$name.kt.err"))"
		return 1
	fi
	cmp -s "$W/$name.tc" "$W/$name.kt" || {
		fail "$name: ktrace mem differs from trace-cmd mem:"
		diff "$W/$name.tc" "$W/$name.kt" | head -20
		return 1
	}
}

n=0
for f in "$CORPUS"/*.dat; do
	base=${f##*/}
	same_mem "$base" "$CORPUS" -i "$base" || continue
	[ "$(wc -l < "$W/$base.kt")" -ge 2 ] || { fail "$base: no header printed"; continue; }
	n=$((n + 1))
done
[ "$n" -ge 20 ] && pass "$n corpus files: trace-cmd mem's output" ||
	fail "only $n corpus files agree"

# kmem.dat's rows: a real table, not only the header both print for files without kmem events
rows=$(($(wc -l < "$W/kmem.dat.kt") - 2))
site=$(printf ' *security_task_alloc\t24\t96\t72\t')
[ "$rows" -ge 10 ] && grep -q "^$site" "$W/kmem.dat.kt" &&
	pass "kmem.dat: $rows call sites" || fail "kmem.dat: $rows call sites, expected 11"

same_mem bare "$CORPUS" kmem.dat && pass "a bare FILE"
cp "$CORPUS/kmem.dat" "$W/trace.dat"
same_mem default "$W" && pass "trace.dat by default"

for v in "${TC_VARIANTS[@]}"; do
	out=$W/kmem$(variant_suffix "$v")
	if ! tc_convert "$CORPUS/kmem.dat" "$out" "$v"; then
		fail "trace-cmd convert $v: $(cat "$out.log")"
		continue
	fi
	same_mem "${out##*/}" "$W" -i "${out##*/}" && cmp -s "$W/${out##*/}.kt" "$W/kmem.dat.kt" &&
		pass "kmem.dat as $v" || fail "kmem.dat as $v: not kmem.dat's table"
done

# no records: trace-cmd dies with "  No records found in file", exit 255
"$KTRACE" split -i "$CORPUS/kmem.dat" -o "$W/none" 1 2 > "$W/split.log" 2>&1 ||
	fail "split: $(cat "$W/split.log")"
same_mem empty "$W" -i none.1 && grep -q 'No records found in file' "$W/empty.tc.err" &&
	grep -qx 'ktrace mem: No records found in file' "$W/empty.kt.err" &&
	[ ! -s "$W/empty.kt" ] && pass "no records: exit 255, the message" ||
	fail "no records: $(cat "$W/empty.kt.err")"
same_mem two "$CORPUS" -i kmem.dat -i sched.dat && pass "two -i: exit 255"

"$RT" "$CORPUS" "$W" > "$W/roundtrip.log" 2>&1 ||
	fail "no latency files: $(cat "$W/roundtrip.log")"
for f in latency-v6.dat latency-v7-zstd.dat; do
	same_mem "$f" "$W" -i "$f" &&
		grep -q 'does not work with latency traces' "$W/$f.tc.err" &&
		grep -qx 'ktrace mem: trace-cmd mem does not work with latency traces' "$W/$f.kt.err" &&
		pass "$f: refused as trace-cmd refuses it" || fail "$f: $(cat "$W/$f.kt.err")"
done
finish
