#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# -F strings against the installed trace-cmd 3.1.6 on corpus files: a filter both take prints
# the same bytes; one trace-cmd refuses (255) or crashes on (SIGSEGV, SIGFPE, a double free in
# libtraceevent 1.7.1) exits 255 here with one line on stderr naming -F and the column.
#
#   run_filters.sh KTRACE CORPUS_DIR
set -u

KTRACE=$1
corpus=$2
. "$(dirname "$0")/../lib.sh"
need_trace_cmd

# FILE<TAB>FILTER[<TAB>refused]; the filters libtraceevent takes, its quirks included, then the
# bad ones. ktrace passes over the records of events no filter names unread: the name-only lines
# check that nothing else changes (function_graph's look-ahead, stack traces). "refused":
# trace-cmd takes it but reads memory it never wrote (a char[16] compared as a number) or hides
# a missing operand behind an unknown field; ktrace refuses it.
filters=$(cat <<'LIST'
sched	sched_switch: prev_pid != 0
sched	sched_switch,sched_wakeup
sched	/sched_sw.*/: prev_pid == 0
sched	sched/sched_switch
sched	sched_switch: prev_pid == 0 || next_pid == 0
sched	sched_switch: !(prev_pid == 0)
sched	sched_switch: !!prev_pid == 0
sched	sched_switch: prev_pid & 1
sched	sched_switch: prev_pid % 3
sched	sched_switch: COMM == "bash"
sched	sched_switch: prev_comm =~ "^ksoft"
sched	sched_switch: prev_comm !~ "^ksoft"
sched	sched_switch: prev_state == 'a'
sched	sched_switch: prev_comm == 'a'	refused
sched	sched_switch: prev_comm == 1	refused
sched	sched_switch: nosuchfield ==	refused
sched	sched_switch: nosuchfield == 1 &&	refused
sched	sched_switch: prev_pid >= -1
sched	sched_switch: prev_pid == 0x10
sched	sched_switch: prev_pid == 1 prev_pid == 0
sched	sched_switch: prev_pid == 1 1
sched	sched_switch: ((prev_pid == 0) || next_pid == 0) && prev_prio < 120
sched	sched_switch: prev_comm == "ksoft" "irqd/1"
sched	sched_switch: CPU == 1
sched	.*: common_pid > 100
sched	sched_switch: nosuchfield == 1 || prev_pid == 0
sched	sched_switch: nosuchfield < "abc"
sched	sched_switch: prev_pid ~ "x"
kmem	kmalloc: bytes_req > 256 && call_site != 0
syscalls_irq	sys_exit_openat: ret < 0
syscalls_irq	softirq_entry,sys_exit_openat
syscalls_irq	/hrtimer_expire_.*/
kmem	kfree
fgraph_events	funcgraph_exit
fgraph_events	funcgraph_entry
fgraph_events	sched_switch,funcgraph_exit
function_stack	function
function_stack	kernel_stack
sched	sched_switch: prev_pid ==
sched	sched_switch: prev_pid == 1 &&
sched	sched_switch: prev_comm ~ 
sched	sched_switch: prev_pid == "abc
sched	sched_switch: prev_comm == "h\303\251"
sched	sched_switch: CPU == "1"
sched	sched_switch: prev_pid / 0
sched	sched_switch: prev_pid / next_pid
sched	sched_switch: prev_pid == 1 || nosuchfield == 1 &&
sched	sched_switch: prev_pid == 1 && next_pid == 1 prev_pid == 2
sched	sched_switch: prev_pid == 0 || prev_pid ==
sched	sched_switch: (prev_pid == 1
sched	sched_switch: prev_pid == 1)
sched	sched_switch: prev_pid = 1
sched	sched_switch: prev_pid == abc
sched	sched_switch: prev_pid == prev_prio
sched	sched_switch: 1 == prev_pid
sched	sched_switch: prev_comm < "abc"
sched	sched_switch: prev_comm =~ "["
sched	sched_switch: (!!prev_pid == 1)
sched	sched_switch:
sched	sched_switch: ()
sched	sched_switch,
sched	nosuchevent
sched	/[/
sched	sched:sched_switch
sched	a || b
LIST
)

run() {	# PROG OUT FILTER FILE
	("${CLEAN_ENV[@]}" $1 report -F "$3" "$4" >"$2") 2>"$2.err"
}

cd "$corpus" || exit 1
while IFS=$'\t' read -r name filter refused; do
	filter=$(printf '%b' "$filter")
	run trace-cmd "$W/tc" "$filter" "$name.dat"
	tc=$?
	run "$KTRACE" "$W/kt" "$filter" "$name.dat"
	kt=$?
	what="-F '$filter' $name.dat: trace-cmd $tc, ktrace $kt"
	if [ "$tc" = 0 ] && [ -z "$refused" ]; then
		[ "$kt" = 0 ] && cmp -s "$W/tc" "$W/kt" && pass "$what" && continue
		fail "$what"
		diff -u "$W/tc" "$W/kt" | sed -n '3,8p'
		head -3 "$W/kt.err"
	elif [ -n "$refused" ] && [ "$tc" != 0 ]; then
		fail "$what: trace-cmd no longer takes it"
	elif [ "$kt" = 255 ] && [ ! -s "$W/kt" ] && [ "$(wc -l <"$W/kt.err")" = 1 ] &&
	     grep -q "^ktrace report: -F '.*(column [0-9]*)" "$W/kt.err"; then
		pass "$what: $(cat "$W/kt.err")"
	else
		fail "$what"
		head -3 "$W/kt.err"
	fi
done <<<"$filters"
finish
