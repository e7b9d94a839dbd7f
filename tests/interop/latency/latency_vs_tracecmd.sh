#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Latency files (a latency tracer's text instead of CPU data) written by ktrace's writer: v6,
# v7 uncompressed, zstd and zlib, made by the dat_roundtrip unit test from a known irqsoff text.
# ktrace report and trace-cmd report (3.1.6) must print the same, and that must be the text;
# trace-cmd convert of ktrace's v6 file (trace-cmd's own latency writer) must read the same too.
# Debian's trace-cmd has no zlib: that file is checked against the text alone.
#   latency_vs_tracecmd.sh KTRACE ROUNDTRIP_TEST CORPUS_DIR
set -u
K=$(realpath "$1")
RT=$(realpath "$2")
CORPUS=$(realpath "$3")
W=$(mktemp -d /tmp/ktrace-latency-interop.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$W"' EXIT
status=0
clean_env=(env -i PATH=/usr/bin:/bin HOME=/nonexistent LC_ALL=C)
for v in ASAN_OPTIONS LSAN_OPTIONS UBSAN_OPTIONS; do
	[ -z "${!v:-}" ] || clean_env+=("$v=${!v}")
done

fail() {
	echo "FAIL: $*" >&2
	status=1
}

# The text of a latency report: cpus=N, the text, one more newline.
has_text() {	# OUTPUT
	head -1 "$1" | grep -qx 'cpus=[0-9]*' &&
		sed -n 2p "$1" | grep -qx '# tracer: irqsoff' &&
		grep -q '^#  => ended at:   irq_exit_rcu$' "$1" &&
		[ "$(grep -c 'irq_enter_rcu <-sysvec_apic_timer_interrupt$' "$1")" -gt 1000 ] &&
		[ "$(tail -1 "$1")" = " => irq_exit_rcu" ]
}

compare() {	# FILE
	local f=$1
	(cd "$W" && "${clean_env[@]}" trace-cmd report "$f") > "$W/$f.tc" 2>&1 ||
		fail "$f: trace-cmd report failed: $(head -3 "$W/$f.tc")"
	(cd "$W" && "${clean_env[@]}" "$K" report "$f") > "$W/$f.kt" 2>&1 ||
		fail "$f: ktrace report failed: $(head -3 "$W/$f.kt")"
	if ! cmp -s "$W/$f.tc" "$W/$f.kt"; then
		fail "$f: ktrace report differs from trace-cmd report"
		diff "$W/$f.tc" "$W/$f.kt" | head -10 >&2
	fi
	has_text "$W/$f.kt" || fail "$f: the report does not print the latency text"
}

"$RT" "$CORPUS" "$W" > "$W/roundtrip.log" 2>&1 || {
	cat "$W/roundtrip.log" >&2
	fail "the roundtrip test could not write the latency files"
}
for f in latency-v6.dat latency-v7-none.dat latency-v7-zstd.dat; do
	compare "$f"
done
(cd "$W" && "$K" report latency-v7-zlib.dat) > "$W/zlib.kt" 2>&1 || fail "zlib: ktrace report"
has_text "$W/zlib.kt" || fail "latency-v7-zlib.dat: the report does not print the latency text"
cmp -s "$W/zlib.kt" "$W/latency-v6.dat.kt" || fail "zlib and v6 reports differ"
for v in "6" "7 none" "7 zstd"; do
	set -- $v
	out="tc-v$1${2:+-$2}.dat"
	if trace-cmd convert --file-version "$1" ${2:+--compression "$2"} \
		-i "$W/latency-v6.dat" -o "$W/$out" > "$W/convert.log" 2>&1; then
		compare "$out"
	else
		fail "trace-cmd convert to $out: $(head -3 "$W/convert.log")"
	fi
done
[ "$status" = 0 ] && echo "latency files: ktrace report = trace-cmd report (v6, v7 none/zstd," \
	"trace-cmd's conversions), zlib read back"
exit "$status"
