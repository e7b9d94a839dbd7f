# SPDX-License-Identifier: GPL-2.0-only
# Sourced by kernel tests that need a task's every switch-in after a wakeup.
#
# On this VM's kernel a switch out of the idle task can be missing from the trace (on one CPU,
# even with no pid filter; seen by hand with only sched_switch enabled: 84 switches into idle,
# none out). A task woken on that idle CPU then runs with no switch-in in the file. With a
# nice-19 spinner on every CPU no CPU goes idle, and a woken task preempts the spinner, which
# the kernel does record.
#
# keep_cpus_busy starts the spinners and adds their pids to BUSY_CPU_PIDS; the caller's EXIT
# trap must run stop_busy_cpus.

BUSY_CPU_PIDS=

keep_cpus_busy() {
	local cpu

	for cpu in $(seq 0 $(($(nproc) - 1))); do
		taskset -c "$cpu" nice -n 19 sh -c 'while :; do :; done' &
		BUSY_CPU_PIDS="$BUSY_CPU_PIDS $!"
	done
}

stop_busy_cpus() {
	[ -z "$BUSY_CPU_PIDS" ] || kill $BUSY_CPU_PIDS 2> /dev/null
	BUSY_CPU_PIDS=
}
