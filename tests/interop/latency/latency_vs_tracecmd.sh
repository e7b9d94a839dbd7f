#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Latency files (a latency tracer's text instead of CPU data) written by ktrace's writer: v6,
# v7 uncompressed, zstd and zlib, made by the dat_roundtrip unit test from a known irqsoff text.
# ktrace report and trace-cmd report (3.1.6) must print the same, and that must be the text;
# trace-cmd convert of ktrace's v6 file (trace-cmd's own latency writer) must read the same too.
# Debian's trace-cmd has no zlib: that file is checked against the text alone.
#   latency_vs_tracecmd.sh KTRACE ROUNDTRIP_TEST CORPUS_DIR
set -u
KTRACE=$1
RT=$(realpath "$2")
CORPUS=$(realpath "$3")
. "$(dirname "$0")/../lib.sh"
need_trace_cmd

# The text of a latency report: cpus=N, the text, one more newline.
has_text() {	# OUTPUT
	head -1 "$1" | grep -qx 'cpus=[0-9]*' &&
		sed -n 2p "$1" | grep -qx '# tracer: irqsoff' &&
		grep -q '^#  => ended at:   irq_exit_rcu$' "$1" &&
		[ "$(grep -c 'irq_enter_rcu <-sysvec_apic_timer_interrupt$' "$1")" -gt 1000 ] &&
		[ "$(tail -1 "$1")" = " => irq_exit_rcu" ]
}

compare() {	# FILE
	same_reports "$1" "$W/$1"
	has_text "$W/$1.kt" || fail "$1: the report does not print the latency text"
}

"$RT" "$CORPUS" "$W" > "$W/roundtrip.log" 2>&1 || {
	cat "$W/roundtrip.log"
	fail "the roundtrip test could not write the latency files"
}
for f in latency-v6.dat latency-v7-none.dat latency-v7-zstd.dat; do
	compare "$f"
done
run_clean "$W" "$KTRACE" report latency-v7-zlib.dat > "$W/zlib.kt" 2>&1 || fail "zlib: ktrace report"
has_text "$W/zlib.kt" || fail "latency-v7-zlib.dat: the report does not print the latency text"
cmp -s "$W/zlib.kt" "$W/latency-v6.dat.kt" || fail "zlib and v6 reports differ"
for v in "${TC_VARIANTS[@]}"; do
	out=tc$(variant_suffix "$v")
	if tc_convert "$W/latency-v6.dat" "$W/$out" "$v"; then
		compare "$out"
	else
		fail "trace-cmd convert to $out: $(head -3 "$W/$out.log")"
	fi
done
[ "$FAILS" = 0 ] && echo "latency files: ktrace report = trace-cmd report (v6, v7 none/zstd," \
	"trace-cmd's conversions), zlib read back"
finish
