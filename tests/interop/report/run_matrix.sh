#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Differential test against the installed trace-cmd (3.1.6): corpus files of every kind (v6,
# v7, compressed or not, instances, function_graph, lost events, counter clock, --date)
# through option combinations that the corpus manifest does not cover, comparing stdout and
# the exit status of `trace-cmd report` and `ktrace report`.
#
#   run_matrix.sh KTRACE CORPUS_DIR
#
# trace-cmd 3.1.6 crashes on some combinations (filters on a file with instances): those runs
# are reported and must give, at least, every line trace-cmd printed before it crashed.
set -u

KTRACE=$1
corpus=$2
. "$(dirname "$0")/../lib.sh"
need_trace_cmd

opts=(
	"-l -t" "-R -l" "-R -t" "--ts-diff" "-t --ts-diff" "-I" "-S" "-I -S -l"
	"--pid 1" "--comm sh" "--comm trace-cmd,sleep" "-N" "-N -R" "-N -l" "-O parent"
	"-O fgraph:depth -O fgraph:tailprint" "-O fgraph:tailprint -l" "--nodate" "--raw-ts"
	"--raw-ts -t" "-r sched_switch" "-n sched_switch" "-r .*" "-E" "-f" "-P" "-e" "-p"
	"--cpus" "--first-event" "--last-event" "--first-event --last-event -t" "--uname"
	"--version" "--stat -N" "--cpu 1" "--cpu 0-1" "--cpu 1,3" "-F sched"
	"-F sched:sched_switch" "-v -F sched_switch" "-F irq -F sched_switch"
	"-v -F irq -F sched" "-w" "-w -t" "-L" "-F '.*:common_pid>100'" "-F 'sched_wakeup:pid==15'"
	"--check-events" "-q" "-F 'a || b'" "-v -v" "--cpu x"
	"--boundary" "--debug" "--debug -R -t" "--boundary -F sched_switch" "--debug --cpu 1"
)

files=(sched sched_v6 sched_none instance lost fgraph_events kprobe sched_clock_counter date
       function_vfs syscalls_irq)

run() {
	local prog=$1 out=$2
	shift 2
	# the subshell keeps bash's "Segmentation fault" notice out of the log
	("${CLEAN_ENV[@]}" $prog report "$@" >"$out") 2>"$out.err"
}

passed=0
failed=0
cd "$corpus" || exit 1
for name in "${files[@]}"; do
	dat=$name.dat
	for o in "${opts[@]}"; do
		eval "set -- $o -i $dat"
		run "stdbuf -o0 trace-cmd" "$W/tc" "$@"
		tc_rc=$?
		run "$KTRACE" "$W/kt" "$@"
		kt_rc=$?
		if [ "$tc_rc" -ge 128 ] && [ "$tc_rc" != 255 ]; then
			# trace-cmd crashed: ours must print at least what it printed
			if cmp -s "$W/tc" <(head -c "$(stat -c %s "$W/tc")" "$W/kt"); then
				echo "note: trace-cmd crashed ($tc_rc) on $o -i $dat; ktrace agrees up to there"
				passed=$((passed + 1))
				continue
			fi
		elif [ "$tc_rc" = "$kt_rc" ] && cmp -s "$W/tc" "$W/kt"; then
			passed=$((passed + 1))
			continue
		fi
		echo "--- report $o -i $dat: exit $kt_rc, trace-cmd $tc_rc"
		diff -u "$W/tc" "$W/kt" | sed -n '3,12p'
		[ "$kt_rc" = 0 ] || head -5 "$W/kt.err"
		failed=$((failed + 1))
	done
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
