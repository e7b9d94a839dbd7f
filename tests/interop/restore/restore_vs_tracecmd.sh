#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# ktrace restore against trace-cmd 3.1.6 restore (issue 20), without tracefs: the CPU data of
# uncompressed corpus files cut out into per-CPU files (as a crashed trace-cmd record leaves
# them), restored by both tools with -i (the corpus file as the header part); every output
# reports the same in trace-cmd report and ktrace report, and as the corpus file itself.
# Then bad input: one line naming the file, exit 1, no output left.
# Usage: restore_vs_tracecmd.sh KTRACE CORPUS_DIR
set -u
KTRACE=$1
CORPUS=$2
. "$(dirname "$0")/../lib.sh"
need_trace_cmd

. "$(dirname "$0")/cut_cpus.sh"

# restore_both NAME HEADER CPU...: $W/NAME.tc.dat (trace-cmd) and $W/NAME.kt.dat (ktrace)
restore_both() {
	local name=$1 header=$2
	shift 2
	trace-cmd restore -i "$header" -o "$W/$name.tc.dat" "$@" > "$W/$name.tc.log" 2>&1 || {
		fail "$name: trace-cmd restore failed: $(head -3 "$W/$name.tc.log")"
		return 1
	}
	"$KTRACE" restore -i "$header" -o "$W/$name.kt.dat" "$@" > "$W/$name.kt.log" 2>&1 || {
		fail "$name: ktrace restore failed: $(head -3 "$W/$name.kt.log")"
		return 1
	}
	[ ! -s "$W/$name.kt.log" ] || fail "$name: ktrace restore printed: $(head -3 "$W/$name.kt.log")"
}

# same_text NAME A B: files A and B are equal
same_text() {
	cmp -s "$2" "$3" && return 0
	fail "$1: $(basename "$2") and $(basename "$3") differ:"
	diff "$2" "$3" | head -10
	return 1
}

# check NAME REFERENCE: both outputs report alike in both tools, and as REFERENCE does
check() {
	local name=$1 ref=$2
	same_reports "$name.kt" "$W/$name.kt.dat" || return 1
	same_reports "$name.tc" "$W/$name.tc.dat" || return 1
	same_text "$name: ktrace's vs trace-cmd's restore" "$W/$name.kt.kt" "$W/$name.tc.tc" ||
		return 1
	if [ -n "$ref" ]; then
		run_clean "$(dirname "$ref")" trace-cmd report -i "$(basename "$ref")" > "$W/$name.ref"
		same_text "$name: restored vs the original" "$W/$name.ref" "$W/$name.kt.kt" || return 1
	fi
	pass "$name: $(($(wc -l < "$W/$name.kt.kt") - 1)) events report alike"
}

for case in sched_v6 sched_none; do
	mapfile -t cpus < <(cut_cpus "$CORPUS/$case.dat" "$W/$case") ||
		{ fail "$case: cannot cut the CPU data"; continue; }
	restore_both "$case" "$CORPUS/$case.dat" "${cpus[@]}" && check "$case" "$CORPUS/$case.dat"
done

# A compressed header part: the CPU data is compressed too (other pages, same kernel).
mapfile -t cpus < <(cut_cpus "$CORPUS/sched_none.dat" "$W/z")
if restore_both zstd "$CORPUS/sched_zstd.dat" "${cpus[@]}"; then
	"$KTRACE" dump -i "$W/zstd.kt.dat" | grep -q 'zstd	\[Compression algorithm\]' ||
		fail "zstd: the output is not zstd-compressed"
	check zstd ""
fi

# A torn last page is left out with a warning; the whole pages still report alike.
cp "$W/z.cpu0" "$W/torn.cpu0"
head -c 100 "$W/z.cpu1" >> "$W/torn.cpu0"
if "$KTRACE" restore -i "$CORPUS/sched_none.dat" -o "$W/torn.kt.dat" "$W/torn.cpu0" "$W/z.cpu1" \
	2> "$W/torn.err"; then
	grep -q 'torn.cpu0: the last 100 bytes are not a whole 4096-byte page' "$W/torn.err" ||
		fail "torn: no warning: $(cat "$W/torn.err")"
	"$KTRACE" report -i "$W/torn.kt.dat" > "$W/torn.txt" 2>&1 &&
		same_text torn "$W/torn.txt" "$W/sched_none.kt.kt" && pass "torn: last page left out"
else
	fail "torn: restore failed: $(cat "$W/torn.err")"
fi

# bad NAME WANT ARGS...: exit 1, one line on stderr containing WANT, no $W/bad.dat left
bad() {
	local name=$1 want=$2 rc
	shift 2
	rm -f "$W/bad.dat"
	"$KTRACE" restore -o "$W/bad.dat" "$@" > "$W/bad.out" 2> "$W/bad.err"
	rc=$?
	if [ "$rc" != 1 ]; then
		fail "$name: exit $rc, not 1: $(head -3 "$W/bad.err")"
	elif [ "$(wc -l < "$W/bad.err")" != 1 ] || ! grep -qF -- "$want" "$W/bad.err"; then
		fail "$name: not one line naming $want: $(head -3 "$W/bad.err")"
	elif [ -e "$W/bad.dat" ] || [ -s "$W/bad.out" ]; then
		fail "$name: left an output or printed on stdout"
	else
		pass "$name: $(cat "$W/bad.err")"
	fi
}

head -c 3000 "$CORPUS/sched_none.dat" > "$W/short.dat"
head -c 2000000 "$CORPUS/sched_v6.dat" > "$W/short6.dat"
printf 'not a trace file at all, just some text padding it out to a size' > "$W/text.dat"
bad "missing cpu file" "$W/nothere.cpu1" -i "$CORPUS/sched_none.dat" "$W/z.cpu0" "$W/nothere.cpu1"
bad "missing header" "$W/nothere.dat" -i "$W/nothere.dat" "$W/z.cpu0"
bad "truncated header" "$W/short.dat" -i "$W/short.dat" "$W/z.cpu0"
bad "truncated v6 header" "$W/short6.dat" -i "$W/short6.dat" "$W/z.cpu0"
bad "wrong magic" "$W/text.dat" -i "$W/text.dat" "$W/z.cpu0"
bad "no cpu files" "CPU-FILE" -i "$CORPUS/sched_none.dat"
bad "-c with cpu files" "$W/z.cpu0" -c "$W/z.cpu0"
bad "-c with -i" "-i" -c -i "$CORPUS/sched_none.dat"
bad "-t with -i" "-t" -t /tmp -i "$CORPUS/sched_none.dat" "$W/z.cpu0"
bad "missing -k file" "$W/nothere.syms" -c -k "$W/nothere.syms" -t "$W"

# The output is a CPU file: refused before anything is truncated.
cp "$W/z.cpu0" "$W/keep.cpu0"
"$KTRACE" restore -i "$CORPUS/sched_none.dat" -o "$W/keep.cpu0" "$W/keep.cpu0" 2> "$W/same.err"
rc=$?
if [ "$rc" = 1 ] && cmp -s "$W/keep.cpu0" "$W/z.cpu0" && grep -q 'CPU files' "$W/same.err"; then
	pass "output = input refused"
else
	fail "output = input: exit $rc, $(cat "$W/same.err")"
fi
# A failed restore keeps an existing output when it fails before writing (missing CPU file).
echo keep > "$W/old.dat"
"$KTRACE" restore -i "$CORPUS/sched_none.dat" -o "$W/old.dat" "$W/nothere" 2> /dev/null
[ "$(cat "$W/old.dat")" = keep ] && pass "existing output untouched" ||
	fail "a failed restore changed the existing output"

finish
