#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Real recordings made by ktrace record, printed by both trace-cmd report (3.1.6) and
# ktrace report: the outputs must be identical. Usage: record_vs_tracecmd.sh KTRACE HELPER
# Runs under flock /tmp/ktrace-tracefs.lock (it records on the live kernel).
set -u
K=$(realpath "$1")
HELPER=$(realpath "$2")
W=$(mktemp -d /tmp/ktrace-record-interop.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$W"' EXIT
status=0
# A clean environment, but an ASan build (scripts/sanitize) keeps its settings.
clean_env=(env -i PATH=/usr/bin:/bin HOME=/nonexistent LC_ALL=C)
for v in ASAN_OPTIONS LSAN_OPTIONS UBSAN_OPTIONS; do
	[ -z "${!v:-}" ] || clean_env+=("$v=${!v}")
done

compare() {	# NAME FILE [report options...]
	local name=$1 file=$2
	shift 2
	(cd "$(dirname "$file")" && "${clean_env[@]}" \
		trace-cmd report "$@" -i "$(basename "$file")") > "$W/$name.tc" 2>&1
	(cd "$(dirname "$file")" && "${clean_env[@]}" \
		"$K" report "$@" -i "$(basename "$file")") > "$W/$name.kt" 2>&1
	if ! cmp -s "$W/$name.tc" "$W/$name.kt"; then
		echo "FAIL: $name: ktrace report differs from trace-cmd report:" >&2
		diff "$W/$name.tc" "$W/$name.kt" | head -20 >&2
		status=1
	elif [ "$(wc -l < "$W/$name.tc")" -lt 3 ]; then
		echo "FAIL: $name: too few lines to compare" >&2
		status=1
	fi
}

rec() {	# NAME OPTIONS... (-- COMMAND)
	local name=$1
	shift
	"$K" record -q -o "$W/$name.dat" "$@" > /dev/null 2> "$W/$name.err" ||
		{ echo "FAIL: $name: record: $(cat "$W/$name.err")" >&2; exit 1; }
}

rec getppid -e syscalls:sys_enter_getppid -e syscalls:sys_exit_getppid -e sched:sched_switch \
	-- sh -c "sleep 0.2; $HELPER 100"
compare getppid "$W/getppid.dat"
rec getppid_v6 --file-version 6 -e syscalls:sys_enter_getppid -e sched:sched_switch \
	-- sh -c "sleep 0.2; $HELPER 50"
compare getppid_v6 "$W/getppid_v6.dat"
rec sched_none --compression none -e sched -- sh -c 'sleep 0.05; ls / > /dev/null'
compare sched_none "$W/sched_none.dat"
compare sched_none_stat "$W/sched_none.dat" --stat
# A CPU with no data and a file without a top buffer: "cpus=" still comes from CPUCOUNT, and
# the instance lines keep their "name:" prefix.
rec one_cpu -e sched:sched_process_exec -e sched:sched_process_fork -e sched:sched_process_exit \
	-- sh -c "/bin/true; /bin/true; /bin/true"
compare one_cpu "$W/one_cpu.dat"
rec no_top -B a -e syscalls:sys_enter_getppid -F -B b -e sched:sched_process_exit \
	-- sh -c "$HELPER 3"
compare no_top "$W/no_top.dat"
exit $status
