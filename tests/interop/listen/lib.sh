# Shared by the listen tests: start `ktrace listen` on a free loopback port, stop it, check.
# Needs KTRACE set by the caller.

KTRACE=$(readlink -f "$KTRACE")
WORK=$(mktemp -d /tmp/ktrace-listen-test.XXXXXX)
LISTEN_PID=
FAILS=0

cleanup() {
	[ -n "$LISTEN_PID" ] && kill "$LISTEN_PID" 2>/dev/null && wait "$LISTEN_PID" 2>/dev/null
	rm -rf "$WORK"
}
trap cleanup EXIT

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

fail() {
	echo "FAIL: $*"
	FAILS=$((FAILS + 1))
}

pass() {
	echo "ok: $*"
}

finish() {
	if [ "$FAILS" != 0 ]; then
		echo "--- listener log"; cat "$LOG" 2>/dev/null
		echo "$FAILS failure(s)"
		exit 1
	fi
	echo "all passed"
}

# tc_report FILE: trace-cmd report as the corpus expectations were made
tc_report() {
	(cd "$(dirname "$1")" && env -i PATH=/usr/bin:/bin HOME=/nonexistent LC_ALL=C \
		trace-cmd report -i "$(basename "$1")")
}

# kt_report_is FILE EXPECTED WHAT: ktrace report prints exactly what trace-cmd report does
kt_report_is() {
	if (cd "$(dirname "$1")" && env -i PATH=/usr/bin:/bin HOME=/nonexistent LC_ALL=C \
		"$KTRACE" report -i "$(basename "$1")") 2>&1 | cmp -s - "$2"; then
		pass "$3: ktrace report identical"
	else
		fail "$3: ktrace report differs"
	fi
}
