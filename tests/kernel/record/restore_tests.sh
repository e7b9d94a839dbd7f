#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# ktrace restore on this machine against trace-cmd 3.1.6 restore (issue 20). meson runs each
# CASE under flock /tmp/ktrace-tracefs.lock (restore -c only reads tracefs; the record does not).
#   partial: `restore -c` of both tools; both files read back by both dump commands, alike
#   live:    a v6 recording's CPU data cut into per-CPU files, restored by both tools behind
#            both tools' partial files: every output reports alike in both reports, and as the
#            recording itself
# Usage: restore_tests.sh KTRACE CASE
set -u
KTRACE=$1
CASE=$2
T=/sys/kernel/tracing
. "$(dirname "$0")/../../interop/lib.sh"
need_trace_cmd
. "$(dirname "$0")/../../interop/restore/cut_cpus.sh"

snapshot() {
	local f
	for f in tracing_on current_tracer set_event buffer_size_kb trace_clock events/enable \
		 events/sched/sched_switch/enable; do
		echo "$f: $(tr '\n' ' ' < "$T/$f")"
	done
	echo "instances: $(ls "$T/instances" | tr '\n' ' ')"
}

# partials: $W/tc-p.dat and $W/kt-p.dat, made back to back
partials() {
	(cd "$W" && trace-cmd restore -c -o tc-p.dat > tc-p.log 2>&1) ||
		{ fail "trace-cmd restore -c failed: $(head -3 "$W/tc-p.log")"; return 1; }
	(cd "$W" && "$KTRACE" restore -c > kt-p.log 2>&1 && mv trace-partial.dat kt-p.dat) ||
		{ fail "ktrace restore -c failed: $(head -3 "$W/kt-p.log")"; return 1; }
	[ ! -s "$W/kt-p.log" ] || fail "ktrace restore -c printed: $(head -3 "$W/kt-p.log")"
}

case_partial() {
	local before p tool
	before=$(snapshot)
	partials || finish
	[ "$before" = "$(snapshot)" ] || fail "tracefs changed"
	for p in tc-p kt-p; do
		for tool in trace-cmd "$KTRACE"; do
			"$tool" dump -i "$W/$p.dat" > "$W/$p.$(basename "$tool").dump" 2>&1 ||
				fail "$tool dump -i $p.dat: $(head -3 "$W/$p.$(basename "$tool").dump")"
		done
		cmp -s "$W/$p.trace-cmd.dump" "$W/$p.ktrace.dump" ||
			fail "$p: the dumps differ: $(diff "$W/$p.trace-cmd.dump" "$W/$p.ktrace.dump")"
		grep -q '7	\[Version\]' "$W/$p.ktrace.dump" || fail "$p: not version 7"
		grep -q 'none	\[Compression algorithm\]' "$W/$p.ktrace.dump" ||
			fail "$p: compressed"
		grep -q '^	\[buffer' "$W/$p.ktrace.dump" && fail "$p: holds a buffer"
		for what in 'Kallsyms' 'Events format' 'Ftrace format' 'Header page' \
			    'Saved command lines'; do
			grep -q "\[$what" "$W/$p.ktrace.dump" || fail "$p: no $what"
		done
	done
	# the same parts, the file name aside (command lines: what tracing added in between)
	diff <(sed 1,2d "$W/tc-p.ktrace.dump" | grep -v 'Saved command lines') \
	     <(sed 1,2d "$W/kt-p.ktrace.dump" | grep -v 'Saved command lines') > "$W/p.diff" ||
		fail "the partial files differ: $(head -10 "$W/p.diff")"
	[ "$FAILS" != 0 ] || pass "partial: both -c files read back alike ($(grep -c . \
		"$W/kt-p.ktrace.dump") dump lines)"
	copied_tracefs
}

# -t and -k: a copy of this machine's tracefs files and kallsyms, as from another machine,
# gives both tools the same partial file as tracefs itself
copied_tracefs() {
	local c=$W/copy tool
	mkdir -p "$c"
	# tracefs files say size 0: each read to its end (cp and cpio copy nothing of them)
	python3 - "$T" "$c" <<'PY' || { fail "could not copy tracefs"; return; }
import os, sys
src, dst = sys.argv[1], sys.argv[2]
names = ["printk_formats", "saved_cmdlines"]
for d, _, files in os.walk(os.path.join(src, "events")):
    names += [os.path.relpath(os.path.join(d, f), src) for f in files
              if f in ("format", "header_page", "header_event")]
for n in names:
    os.makedirs(os.path.dirname(os.path.join(dst, n)), exist_ok=True)
    with open(os.path.join(src, n), "rb") as i, open(os.path.join(dst, n), "wb") as o:
        o.write(i.read())
PY
	cp /proc/kallsyms "$W/kallsyms.copy"
	[ -s "$c/events/header_page" ] || { fail "could not copy tracefs"; return; }
	(cd "$W" && trace-cmd restore -c -t "$c" -k kallsyms.copy -o tc-t.dat > tc-t.log 2>&1) ||
		{ fail "trace-cmd restore -c -t: $(head -3 "$W/tc-t.log")"; return; }
	"$KTRACE" restore -c -t "$c" -k "$W/kallsyms.copy" -o "$W/kt-t.dat" 2> "$W/kt-t.log" ||
		{ fail "ktrace restore -c -t: $(head -3 "$W/kt-t.log")"; return; }
	for tool in tc-t kt-t; do
		"$KTRACE" dump -i "$W/$tool.dat" | sed 1,2d > "$W/$tool.dump" ||
			fail "ktrace dump -i $tool.dat"
	done
	diff <(sed 1,2d "$W/kt-p.ktrace.dump") "$W/kt-t.dump" > "$W/t.diff" ||
		fail "-t/-k's file differs from tracefs's: $(head -6 "$W/t.diff")"
	diff "$W/tc-t.dump" "$W/kt-t.dump" > "$W/t.diff" ||
		fail "-t/-k: the tools' files differ: $(head -6 "$W/t.diff")"
	[ "$FAILS" != 0 ] || pass "partial -t/-k: a copied tracefs gives the same parts"
}

case_live() {
	local before hdr tool out ref
	local -a cpus
	before=$(snapshot)
	"$KTRACE" record -q --file-version 6 -o "$W/live.dat" -e sched:sched_switch \
		-e sched:sched_wakeup -- sh -c 'sleep 0.1; ls / > /dev/null; sleep 0.1' \
		2> "$W/record.err" || { fail "record failed: $(cat "$W/record.err")"; finish; }
	[ "$before" = "$(snapshot)" ] || fail "record changed tracefs"
	mapfile -t cpus < <(cut_cpus "$W/live.dat" "$W/live") || { fail "cannot cut"; finish; }
	partials || finish
	"$KTRACE" report -i "$W/live.dat" > "$W/ref.txt" 2>&1 || fail "report of the recording"
	ref=$W/ref.txt
	for hdr in tc-p kt-p; do
		for tool in trace-cmd "$KTRACE"; do
			out=$W/$hdr.$(basename "$tool").dat
			"$tool" restore -i "$W/$hdr.dat" -o "$out" "${cpus[@]}" > "$out.log" 2>&1 ||
				{ fail "$tool restore -i $hdr.dat: $(head -3 "$out.log")"; continue; }
			same_reports "$(basename "$out")" "$out" || continue
			cmp -s "$ref" "$W/$(basename "$out").kt" ||
				fail "$(basename "$out") reports otherwise than the recording: $(diff \
					"$ref" "$W/$(basename "$out").kt" | head -6)"
		done
	done
	[ "$before" = "$(snapshot)" ] || fail "tracefs changed"
	[ "$FAILS" != 0 ] || pass "live: $(($(wc -l < "$ref") - 1)) events, 4 restores alike"
}

"case_$CASE"
finish
