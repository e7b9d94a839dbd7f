#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Real recordings made by ktrace record, printed by both trace-cmd report (3.1.6) and
# ktrace report: the outputs must be identical. Usage: record_vs_tracecmd.sh KTRACE HELPER
# Runs under flock /tmp/ktrace-tracefs.lock (it records on the live kernel).
set -u
KTRACE=$1
HELPER=$(realpath "$2")
. "$(dirname "$0")/../lib.sh"
need_trace_cmd

rec() {	# NAME OPTIONS... (-- COMMAND)
	local name=$1
	shift
	"$KTRACE" record -q -o "$W/$name.dat" "$@" > /dev/null 2> "$W/$name.err" ||
		{ fail "$name: record: $(cat "$W/$name.err")"; finish; }
}

rec getppid -e syscalls:sys_enter_getppid -e syscalls:sys_exit_getppid -e sched:sched_switch \
	-- sh -c "sleep 0.2; $HELPER 100"
same_reports getppid "$W/getppid.dat"
rec getppid_v6 --file-version 6 -e syscalls:sys_enter_getppid -e sched:sched_switch \
	-- sh -c "sleep 0.2; $HELPER 50"
same_reports getppid_v6 "$W/getppid_v6.dat"
rec sched_none --compression none -e sched -- sh -c 'sleep 0.05; ls / > /dev/null'
same_reports sched_none "$W/sched_none.dat"
same_reports sched_none_stat "$W/sched_none.dat" --stat
# A CPU with no data and a file without a top buffer: "cpus=" still comes from CPUCOUNT, and
# the instance lines keep their "name:" prefix.
rec one_cpu -e sched:sched_process_exec -e sched:sched_process_fork -e sched:sched_process_exit \
	-- sh -c "/bin/true; /bin/true; /bin/true"
same_reports one_cpu "$W/one_cpu.dat"
rec no_top -B a -e syscalls:sys_enter_getppid -F -B b -e sched:sched_process_exit \
	-- sh -c "$HELPER 3"
same_reports no_top "$W/no_top.dat"
finish
