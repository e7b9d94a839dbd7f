#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# ktrace split vs trace-cmd 3.1.6 split on corpus files: usage split_vs_tracecmd.sh KTRACE CORPUS
#
# Every ktrace piece must be read alike by trace-cmd report and ktrace report, and the pieces
# together must hold the input's events of the range once each (in order; by CPU for -c/-C).
# Where trace-cmd's split works, its pieces' reports must be byte-identical to ktrace's. Two
# known bugs of trace-cmd 3.1.6 (fixed later upstream) are checked as what they are:
#   lose:  the event that ends a piece is lost when its CPU had no event in the piece (the
#          cursor of that CPU is not set back); ktrace's pieces must then hold every event
#          trace-cmd's hold, plus the lost ones.
#   once:  -r with an END writes only the first piece (upstream 1439b8f5); ktrace's first
#          piece must equal trace-cmd's only one.
# "top": same as trace-cmd, but the input has instances, which split leaves out (as trace-cmd
# does), so the input's report is no measure of what the pieces hold.
KTRACE=$1
CORPUS=$(realpath "$2")
. "$(dirname "$0")/../lib.sh"
need_trace_cmd

# file | split arguments | how trace-cmd's pieces compare
CASES=(
	"sched.dat|-e 100|same"
	"sched.dat|-r -e 50|same"
	"sched.dat|-r -e 1|lose"
	"sched.dat|-r -m 5|lose"
	"sched.dat|-u 300|same"
	"sched.dat|-r -s 1|same"
	"sched.dat|-c -e 30|same"
	"sched.dat|-r -c -e 20|same"
	"sched.dat|-C 0|same"
	"sched.dat|-r -C 1 -e 20|same"
	"sched.dat|-r -p 2|same"
	"sched.dat|5.87 5.9|same"
	"sched.dat|-r -e 10 5.87 5.9|once"
	"sched_v6.dat|-r -e 50|same"
	"sched_zstd.dat|-r -e 40|same"
	"sched_clock_counter.dat|-e 60|same"
	"lost.dat|-r -e 50|same"
	"lost.dat|-r -p 2|same"
	"date.dat|-e 30|same"
	"instance.dat|-r -e 50|top"
	"fgraph_events.dat|-r -e 200|same"
	"kprobe.dat|-r -e 40|same"
)

# The event lines of a report, as the pieces must keep them: CPU, timestamp in ns (trace-cmd
# prints a counter clock's counts raw in the input, as seconds in its split files, which have
# no TRACECLOCK option), raw fields (-R: no plugin state such as the function indent); not the
# task name, which report takes from the events before (sched_switch), so it may differ in a
# piece. Lines outside START..END (ns, converted as split converts them) are left out.
events() {	# FILE START END [OPTION...]
	local f=$1 s=$2 e=$3
	shift 3
	"${CLEAN_ENV[@]}" trace-cmd report -R -t "$@" -i "$f" 2> /dev/null | grep -v '^cpus=' |
	awk -v s="$s" -v e="$e" '{
		c = 0
		for (i = 1; i < NF; i++) if ($i ~ /^\[[0-9]+\]$/) { c = i; break }
		if (!c) { print; next }
		t = $(c + 1)
		sub(/:$/, "", t)
		if (t ~ /\./) { split(t, p, "."); ns = p[1] * 1000000000 + p[2] } else ns = t + 0
		if (ns < int(s * 1000000000) || (e != 0 && ns > int(e * 1000000000))) next
		line = $c " " ns
		for (i = c + 2; i <= NF; i++) line = line " " $i
		print line
	}'
}

# The events of the input the pieces must hold: START..END, or CPU N's for -C N.
expected() {	# FILE ARGS...
	local f=$1 start=0 end=0 cpu="" times=0
	shift
	while [ $# -gt 0 ]; do
		case $1 in
		-C) cpu=$2; shift 2 ;;
		-[smuep]|-o|-i) shift 2 ;;
		-*) shift ;;
		*) if [ "$times" = 0 ]; then start=$1; else end=$1; fi
		   times=$((times + 1)); shift ;;
		esac
	done
	events "$f" "$start" "$end" ${cpu:+--cpu "$cpu"}
}

n=0
for c in "${CASES[@]}"; do
	IFS='|' read -r file args how <<< "$c"
	n=$((n + 1))
	name="$file $args"
	d=$W/case$n
	mkdir -p "$d/tc" "$d/kt"
	# shellcheck disable=SC2086 # the arguments are words
	(cd "$d/tc" && trace-cmd split -i "$CORPUS/$file" -o out $args > log 2>&1) ||
		{ fail "$name: trace-cmd split failed: $(tail -1 "$d/tc/log")"; continue; }
	# shellcheck disable=SC2086
	(cd "$d/kt" && "$KTRACE" split -i "$CORPUS/$file" -o out $args > log 2>&1) ||
		{ fail "$name: ktrace split failed: $(tail -1 "$d/kt/log")"; continue; }
	left=""
	for x in "$d/kt"/* "$d/kt"/.[!.]*; do
		case ${x##*/} in
		log|out.[0-9]|out.[0-9][0-9][0-9][0-9]) ;;
		*) [ ! -e "$x" ] || left="$left ${x##*/}" ;;
		esac
	done
	[ -z "$left" ] || { fail "$name: temp files left:$left"; continue; }
	tc_pieces=$(cd "$d/tc" && ls out.* | sort)
	kt_pieces=$(cd "$d/kt" && ls out.* | sort)
	ok=1
	for p in $kt_pieces; do
		"${CLEAN_ENV[@]}" trace-cmd report -i "$d/kt/$p" > "$d/kt/$p.tc" 2>&1 ||
			{ fail "$name: trace-cmd cannot read $p"; ok=0; }
		"${CLEAN_ENV[@]}" "$KTRACE" report -i "$d/kt/$p" > "$d/kt/$p.kt" 2>&1 ||
			{ fail "$name: ktrace cannot read $p"; ok=0; }
		cmp -s "$d/kt/$p.tc" "$d/kt/$p.kt" ||
			{ fail "$name: $p: the two reports differ"; ok=0; }
		events "$d/kt/$p" 0 0 > "$d/kt/$p.ev"
		[ -s "$d/kt/$p.ev" ] || { fail "$name: $p has no event"; ok=0; }
		cat "$d/kt/$p.ev" >> "$d/kt/all"
	done
	# shellcheck disable=SC2086
	expected "$CORPUS/$file" $args > "$d/want"
	case " $args " in
	*" -c "*|*" -p "*) sort -o "$d/kt/all" "$d/kt/all"; sort -o "$d/want" "$d/want" ;;
	esac
	[ -s "$d/want" ] || { fail "$name: nothing to compare"; ok=0; }
	if [ "$how" != once ] && [ "$how" != top ] && ! cmp -s "$d/want" "$d/kt/all"; then
		# pieces without -r hold the first piece only
		case " $args " in
		*" -r "*) fail "$name: the pieces do not hold the input's events once each"; ok=0 ;;
		*" -c "*) ;;	# each CPU's first events: checked with -r
		*) head -n "$(wc -l < "$d/kt/all")" "$d/want" | cmp -s - "$d/kt/all" ||
			{ fail "$name: the piece is not the input's first events"; ok=0; } ;;
		esac
	fi
	case $how in
	same|top)
		[ "$tc_pieces" = "$kt_pieces" ] ||
			{ fail "$name: pieces [$kt_pieces], trace-cmd [$tc_pieces]"; ok=0; }
		for p in $tc_pieces; do
			"${CLEAN_ENV[@]}" trace-cmd report -i "$d/tc/$p" > "$d/tc/$p.tc" 2>&1
			cmp -s "$d/tc/$p.tc" "$d/kt/$p.tc" ||
				{ fail "$name: $p differs from trace-cmd's"; ok=0; }
		done ;;
	lose)
		for p in $tc_pieces; do events "$d/tc/$p" 0 0; done | sort > "$d/tc/all"
		sort "$d/kt/all" | comm -23 "$d/tc/all" - | grep -q . &&
			{ fail "$name: trace-cmd's pieces hold events ktrace's lack"; ok=0; }
		cmp -s "$d/tc/all" <(sort "$d/kt/all") &&
			{ fail "$name: trace-cmd lost nothing: mark the case same"; ok=0; } ;;
	once)
		[ "$tc_pieces" = out.0001 ] ||
			{ fail "$name: trace-cmd wrote [$tc_pieces]: mark the case same"; ok=0; }
		"${CLEAN_ENV[@]}" trace-cmd report -i "$d/tc/out.0001" > "$d/tc/out.0001.tc" 2>&1
		cmp -s "$d/tc/out.0001.tc" "$d/kt/out.0001.tc" ||
			{ fail "$name: out.0001 differs from trace-cmd's"; ok=0; }
		cmp -s "$d/want" "$d/kt/all" ||
			{ fail "$name: the pieces do not hold START..END once each"; ok=0; } ;;
	esac
	[ "$ok" = 1 ] && pass "$name ($(echo $kt_pieces | wc -w) files, $how)"
done

# Bad input: one line on stderr, exit 1, no file left.
bad() {	# WHAT ARGS...
	local what=$1 err
	shift
	mkdir -p "$W/bad"
	err=$(cd "$W/bad" && "$KTRACE" split "$@" 2>&1 > /dev/null)
	local rc=$?
	if [ "$rc" != 1 ] || [ "$(printf '%s\n' "$err" | wc -l)" != 1 ] || [ -z "$err" ]; then
		fail "bad input ($what): exit $rc, stderr: $err"
	elif [ -n "$(ls -A "$W/bad")" ]; then
		fail "bad input ($what): left $(ls -A "$W/bad")"
	else
		pass "bad input ($what): $err"
	fi
	rm -rf "$W/bad"
}
printf 'not a trace file at all, just text\n' > "$W/garbage.dat"
bad "missing file" -i "$W/none.dat"
bad "not a trace.dat" -i "$W/garbage.dat"
bad "truncated" -i <(head -c 5000 "$CORPUS/sched.dat")
bad "two limits" -i "$CORPUS/sched.dat" -s 1 -e 2
bad "zero count" -i "$CORPUS/sched.dat" -e 0
bad "START not a number" -i "$CORPUS/sched.dat" 5x
bad "END before START" -i "$CORPUS/sched.dat" 6 5
bad "three times" -i "$CORPUS/sched.dat" 1 2 3
bad "no such CPU" -i "$CORPUS/sched.dat" -C 7

finish
