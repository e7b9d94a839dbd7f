# SPDX-License-Identifier: GPL-2.0-only
# Shared by the listen tests: start `ktrace listen` on a free loopback port, stop it, check.
# Needs KTRACE set by the caller; brings ../lib.sh (W, fail, pass, finish, run_clean) with it.

. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
need_trace_cmd
LISTEN_PID=
TC_PID=
LOG=

at_exit '[ -n "$LISTEN_PID" ] && kill "$LISTEN_PID" 2>/dev/null && wait "$LISTEN_PID" 2>/dev/null'
at_exit stop_tc

# start_listener DIR [extra flags]: sets PORT and LOG
start_listener() {
	local dir=$1
	shift
	mkdir -p "$dir"
	LOG=$dir.log
	: > "$LOG"
	"$KTRACE" listen -p 0 --bind 127.0.0.1 -d "$dir" -l "$LOG" "$@" &
	LISTEN_PID=$!
	for _ in $(seq 100); do
		PORT=$(sed -n 's/.*listening on .* port \([0-9]*\) (pid [0-9]*)$/\1/p' "$LOG")
		[ -n "$PORT" ] && return 0
		sleep 0.05
	done
	echo "FAIL: the listener did not start"; cat "$LOG"; exit 1
}

# start_tc_listener DIR: trace-cmd 3.1.6's `trace-cmd listen` writing into DIR; sets TC_PORT.
# It has no "any free port": try a few random ones.
start_tc_listener() {
	mkdir -p "$1"
	for _ in 1 2 3 4 5; do
		TC_PORT=$(shuf -i 20000-60000 -n 1)
		(cd "$1" && exec trace-cmd listen -p "$TC_PORT") > "$W/tc.log" 2>&1 &
		TC_PID=$!
		sleep 0.3
		kill -0 "$TC_PID" 2>/dev/null && return 0
		TC_PID=
	done
	echo "FAIL: trace-cmd listen did not start"; exit 1
}

stop_tc() {
	[ -n "$TC_PID" ] && kill -INT "$TC_PID" 2>/dev/null && wait "$TC_PID" 2>/dev/null
	TC_PID=
}

# wait_tc_files DIR N: waits (up to 30 s) until trace-cmd listen has finished its sessions and
# DIR holds N or more .dat files. It finishes a session about two seconds after the client
# ends, in the session's own process: the .dat exists from the session's start, its temporary
# .cpuN files appear later and go only after the data is put together, so neither the file
# nor the absence of .cpuN files tells that it is complete; the session's process exiting does.
wait_tc_files() {
	for _ in $(seq 300); do
		[ "$(ls "$1"/*.dat 2>/dev/null | wc -l)" -ge "$2" ] &&
			! pgrep -P "$TC_PID" > /dev/null && return 0
		sleep 0.1
	done
	return 1
}

# wait_tc_file DIR: prints the file trace-cmd listen wrote into DIR once it is complete; empty
# after 30 s.
wait_tc_file() {
	wait_tc_files "$1" 1 && ls "$1"/*.dat
}

# summary FILE: `trace-cmd dump --summary` without what differs between any two recordings
# (sizes, the CPU statistics options a local recording adds, the file name).
summary() {
	trace-cmd dump --summary -i "$1" 2>&1 | sed -e 1,2d \
		-e 's/[0-9]* bytes flyrecord data/N bytes flyrecord data/' \
		-e '/options\]$/d' -e '/Saved command lines/d'
}

stop_listener() {
	kill "$LISTEN_PID"
	wait "$LISTEN_PID"
	local rc=$?
	LISTEN_PID=
	# SIGTERM is the normal way to stop it: it exits 0
	[ "$rc" = 0 ] || fail "listener exited with $rc"
}

# wait_log PATTERN [N]: until the log has N lines matching PATTERN (default 1), at most 15 s
wait_log() {
	local want=${2:-1}
	for _ in $(seq 300); do
		[ "$(grep -c -- "$1" "$LOG")" -ge "$want" ] && return 0
		sleep 0.05
	done
	fail "log never had $want line(s) matching '$1'"
	return 1
}

# tc_report FILE: trace-cmd report as the corpus expectations were made
tc_report() {
	run_clean "$(dirname "$1")" trace-cmd report -i "$(basename "$1")"
}

# kt_report_is FILE EXPECTED WHAT: ktrace report prints exactly what trace-cmd report does
kt_report_is() {
	if run_clean "$(dirname "$1")" "$KTRACE" report -i "$(basename "$1")" 2>&1 |
		cmp -s - "$2"; then
		pass "$3: ktrace report identical"
	else
		fail "$3: ktrace report differs"
	fi
}
