#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# `report -i A -i B ...` against the installed trace-cmd (3.1.6): pairs and triples of corpus
# files (v6 and v7, with instances, function_graph, counter clock, --date, lost events, one
# file given twice) through the options that apply per file or to the merge, comparing stdout
# and the exit status byte for byte. Then the options ktrace refuses with several files.
#
#   run_multi.sh KTRACE CORPUS_DIR
set -u

KTRACE=$1
corpus=$(realpath "$2")
. "$(dirname "$0")/../lib.sh"
need_trace_cmd

passed=0

# same_multi DIR ARG...: both tools, run in DIR with these arguments, agree
same_multi() {
	local dir=$1 tc_rc kt_rc
	shift

	run_clean "$dir" trace-cmd report "$@" > "$W/tc" 2> "$W/tc.err"
	tc_rc=$?
	run_clean "$dir" "$KTRACE" report "$@" > "$W/kt" 2> "$W/kt.err"
	kt_rc=$?
	if [ "$tc_rc" != "$kt_rc" ]; then
		fail "$*: exit status $kt_rc, trace-cmd's $tc_rc: $(head -2 "$W/kt.err")"
	elif ! cmp -s "$W/tc" "$W/kt"; then
		fail "$*: ktrace report differs from trace-cmd report:"
		diff "$W/tc" "$W/kt" | head -10
	elif [ "$tc_rc" = 0 ] && [ ! -s "$W/tc" ]; then
		fail "$*: nothing printed to compare"
	else
		passed=$((passed + 1))
		return 0
	fi
	return 1
}

sets=(
	"-i sched.dat -i sched_v6.dat"
	"-i instance.dat -i sched.dat"
	"-i sched_v6.dat -i instance.dat"
	"-i sched.dat -i sched.dat"
	"-i sched.dat -i fgraph_depth.dat -i instance.dat"
	"-i date.dat -i sched_clock_counter.dat -i lost.dat"
	"-i fgraph_events.dat -i function_vfs.dat -i sched_zstd.dat"
)
opts=(
	"" "-t" "-R" "-l" "-l -t" "--cpu 0" "--cpu 1,3" "--cpu 2-4" "--align-ts" "--align-ts -t"
	"--stat" "--uname" "--version" "--cpus" "--first-event" "--first-event --last-event"
	"--ts-diff" "-N" "-O fgraph:depth" "-I -S" "--nodate" "--raw-ts" "-q"
)
for set in "${sets[@]}"; do
	for o in "${opts[@]}"; do
		# shellcheck disable=SC2086 # both are lists of words
		same_multi "$corpus" $set $o
	done
done

# Options that belong to the -i before them, and the first file's that trace-cmd keeps apart
# (not with filters on a file with instances: trace-cmd 3.1.6 crashes there).
placed=(
	"-i sched.dat -i sched_v6.dat --pid 119" "-i sched_v6.dat -i sched.dat --comm trace-cmd"
	"-F sched_switch -i sched.dat -i sched_v6.dat"
	"-i sched.dat -F sched_switch -i sched_v6.dat"
	"-i sched.dat -i sched_v6.dat -F sched_wakeup"
	"-F sched_switch -i sched.dat -i sched_v6.dat -v -F sched_wakeup"
	"-i instance.dat -i sched.dat -F sched_switch"
	"-i sched.dat -i sched_v6.dat -i sched.dat -F sched_wakeup -t"
	"-i sched.dat --ts-offset 1000 -i sched_v6.dat"
	"-i sched.dat -i sched.dat --ts-offset 1000"
	"-i sched.dat -i sched.dat --ts-offset -3000000 -i sched.dat --ts-offset 2500"
	"-i instance.dat -i instance.dat --ts-offset 500000 --align-ts"
	"-i sched_v6.dat -i sched.dat --ts-offset -1000000000 --align-ts --cpu 1"
	"-i sched.dat -i sched_v6.dat --ts2secs 2000000000"
	"-i sched.dat --ts2secs 2000000000 -i sched_v6.dat"
	"-i sched.dat -i sched.dat --ts-offset 7 --first-event"
	"-i sched.dat -i sched_v6.dat -T -F sched_switch"
	"-i fgraph_depth.dat -i fgraph_events.dat -O fgraph:depth"
	"-i fgraph_depth.dat -i fgraph_events.dat -i fgraph_open.dat -O fgraph:depth"
	"-i function_vfs.dat -i function_stack.dat -O parent"
	"-i sched.dat -i sched_v6.dat -p" "-i sched.dat -i sched_v6.dat -e"
	"-i sched.dat -i sched_v6.dat -E" "-i sched.dat -i sched_v6.dat -P"
	"-i sched.dat -i nonexistent.dat"
)
for args in "${placed[@]}"; do
	# shellcheck disable=SC2086
	same_multi "$corpus" $args
done

# Base names, whatever the path, and a name column that widens as the instance names come in:
# the first file's "cpus=" line is as wide as the file names, the later lines are not.
mkdir -p "$W/d/e"
ln -s "$corpus/instance.dat" "$W/d/a"
ln -s "$corpus/sched.dat" "$W/d/e/b"
same_multi "$W/d" -i a -i e/b
same_multi "$W/d" -i "$W/d/e/b" -i ./a --cpu 2
same_multi "$W/d" -i a -i a -i e/b --stat

# --profile: a table per file, in -i order, each headed by its own name
run_clean "$corpus" "$KTRACE" report --profile -i sched.dat -i sched_v6.dat > "$W/kt" 2> "$W/kt.err"
rc=$?
heads=$(grep '^Profile of ' "$W/kt" | cut -d: -f1 | paste -sd,)
if [ "$rc" != 0 ] || [ "$heads" != "Profile of sched.dat,Profile of sched_v6.dat" ]; then
	fail "--profile with two -i: status $rc, tables '$heads': $(head -n 2 "$W/kt.err")"
else
	passed=$((passed + 1))
fi

refused=("--format json" "--format csv" -w)
for o in "${refused[@]}"; do
	# shellcheck disable=SC2086
	run_clean "$corpus" "$KTRACE" report -i sched.dat -i sched_v6.dat $o > "$W/kt" 2> "$W/kt.err"
	rc=$?
	if [ "$rc" = 0 ] || [ -s "$W/kt" ] || [ "$(wc -l < "$W/kt.err")" != 1 ] ||
	   ! grep -qF -- "$o" "$W/kt.err"; then
		fail "$o with two -i: not refused in one line naming it (status $rc): $(cat "$W/kt.err")"
	else
		passed=$((passed + 1))
	fi
done

echo "$passed passed"
finish "$W/kt.err"
