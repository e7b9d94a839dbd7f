#!/bin/bash
# ktrace record -N: a recording streamed to `ktrace listen` (file versions 7 and 6, TCP by
# default, -t, --udp) and to trace-cmd 3.1.6's `trace-cmd listen` must report with both tools and
# describe itself as a local recording of the same kind does. The top instance with -B instances
# must arrive as one file per instance (one listener session each, as trace-cmd sends them), each
# holding exactly its instance's events. A listener killed mid-record must
# end the recording with an error saying what was delivered and tracefs as it was; a refused
# connection or handshake must fail clearly without touching tracefs.
# Touches tracefs: run under flock /tmp/ktrace-tracefs.lock (meson does).
#   record_net.sh KTRACE TRACEFS_SNAPSHOT_SH
set -u
KTRACE=$1
SNAPSHOT=$(readlink -f "$2")
. "$(dirname "$0")/../listen/lib.sh"

T=/sys/kernel/tracing
[ -e $T/trace ] || mount -t tracefs nodev $T

# Every setting record may change, the events' enable files included.
tracefs_state() {
	sh "$SNAPSHOT"
	grep -H . $T/events/enable $T/events/*/enable
}

# check_file FILE WHAT: both tools report it the same way, with events of the command.
check_file() {
	local f=$1 what=$2
	tc_report "$f" > "$W/report.txt" 2>&1 || { fail "$what: trace-cmd report failed"; return; }
	head -1 "$W/report.txt" | grep -qx "cpus=$(nproc)" || fail "$what: report header"
	local sched sleeps
	sched=$(grep -c ' sched_[a-z_]*: ' "$W/report.txt")
	sleeps=$(grep -c 'sleep' "$W/report.txt")
	[ "$sched" -gt 0 ] && [ "$sleeps" -gt 0 ] &&
		pass "$what: $sched sched events, $sleeps about the command" ||
		fail "$what: $sched sched events, $sleeps about the command"
	kt_report_is "$f" "$W/report.txt" "$what"
}

# same_summary LOCAL RECEIVED WHAT
same_summary() {
	if diff <(summary "$1") <(summary "$2") > "$W/diff"; then
		pass "$3: dump --summary as a local recording"
	else
		fail "$3: dump --summary differs from a local recording"; cat "$W/diff"
	fi
}

# events_of FILE: the event names trace-cmd report shows in FILE, sorted, one line
events_of() {
	tc_report "$1" 2>/dev/null | awk '{ for (i = 1; i < NF; i++)
		if ($i ~ /^[0-9]+\.[0-9]+:$/) { sub(/:$/, "", $(i + 1)); print $(i + 1); break } }' |
		sort -u | xargs
}

# Instance names of part 3, and the events each one records.
IA=netsend_a
IB=netsend_b
INST_ARGS=(-e sched:sched_switch -B $IA -e sched:sched_wakeup
	   -B $IB -e sched:sched_process_exec -e sched:sched_process_exit)
INST_SETS=("sched_switch" "sched_wakeup" "sched_process_exec sched_process_exit")

# check_instances WHAT FILE...: three files, each reports identically with both tools and holds
# exactly one instance's events, every instance once.
check_instances() {
	local what=$1 f i got seen=()
	shift
	[ $# = 3 ] && pass "$what: 3 files" || { fail "$what: $# files, not 3"; return; }
	for f in "$@"; do
		tc_report "$f" > "$W/report.txt" 2>&1 ||
			{ fail "$what: trace-cmd report $f failed"; continue; }
		kt_report_is "$f" "$W/report.txt" "$what $(basename "$f")"
		got=$(events_of "$f")
		for i in 0 1 2; do
			[ "$got" = "${INST_SETS[$i]}" ] && seen[$i]=$((${seen[$i]:-0} + 1))
		done
	done
	for i in 0 1 2; do
		[ "${seen[$i]:-0}" = 1 ] && pass "$what: one file holds exactly: ${INST_SETS[$i]}" ||
			fail "$what: ${seen[$i]:-0} files hold exactly: ${INST_SETS[$i]}"
	done
}

# after_instances WHAT: tracefs as found, the instances removed
after_instances() {
	[ "$(tracefs_state)" = "$BEFORE" ] && [ ! -e $T/instances/$IA ] && [ ! -e $T/instances/$IB ] &&
		pass "$1: tracefs left as found, instances removed" ||
		fail "$1: tracefs changed or instances left"
}

BEFORE=$(tracefs_state)
D=$W/kt
start_listener "$D"

# 1. loopback to ktrace listen
for version in 7 6; do
	"$KTRACE" record -q -o "$W/local$version.dat" --file-version $version -e sched \
		-- sleep 0.2 || fail "local v$version recording failed"
	for flags in "" "-t" "--udp"; do
		[ "$flags" = --udp ] && [ $version = 6 ] && continue
		what="v$version ${flags:-default}"
		n=$(grep -c ': wrote \|: dropped' "$LOG")
		"$KTRACE" record -N 127.0.0.1:$PORT --file-version $version $flags -e sched \
			-- sleep 1 > "$W/rec.log" 2>&1 ||
			{ fail "$what: record -N failed"; cat "$W/rec.log"; continue; }
		wait_log ': wrote \|: dropped' $((n + 1)) || continue
		got=$(tail -1 "$LOG" | sed -n 's/.*: wrote \([^ ]*\.dat\) .*/\1/p')
		[ -n "$got" ] || { fail "$what: $(tail -1 "$LOG")"; continue; }
		want=TCP
		[ "$flags" = --udp ] && want=UDP
		grep ': protocol 3, ' "$LOG" | tail -1 | grep -q ", $want data\$" ||
			fail "$what: the listener did not get $want data"
		check_file "$D/$got" "$what"
		same_summary "$W/local$version.dat" "$D/$got" "$what"
		rm -f "$D/$got"
	done
done
[ "$(tracefs_state)" = "$BEFORE" ] && pass "tracefs left as found" || fail "tracefs changed"

# 2. to trace-cmd listen
start_tc_listener "$W/tc"
for version in 7 6; do
	what="trace-cmd listen v$version"
	rm -f "$W"/tc/*.dat
	"$KTRACE" record -N 127.0.0.1:$TC_PORT --file-version $version -e sched -- sleep 1 \
		> "$W/rec.log" 2>&1 || { fail "$what: record -N failed"; cat "$W/rec.log"; }
	tc=$(wait_tc_file "$W/tc")
	[ -n "$tc" ] || { fail "$what: no file"; cat "$W/tc.log"; continue; }
	check_file "$tc" "$what"
	same_summary "$W/local$version.dat" "$tc" "$what"
done
stop_tc

# 3. the top instance and two -B instances: one session, one file, per instance
for version in 7 6; do
	what="instances v$version"
	n=$(grep -c ': wrote \|: dropped' "$LOG")
	rm -f "$D"/*.dat
	"$KTRACE" record -q -N 127.0.0.1:$PORT --file-version $version "${INST_ARGS[@]}" \
		-- sleep 0.5 > "$W/rec.log" 2>&1 ||
		{ fail "$what: record -N failed"; cat "$W/rec.log"; }
	wait_log ': wrote \|: dropped' $((n + 3)) || continue
	check_instances "$what" "$D"/*.dat
	after_instances "$what"
done
start_tc_listener "$W/tci"
what="instances to trace-cmd listen"
"$KTRACE" record -q -N 127.0.0.1:$TC_PORT "${INST_ARGS[@]}" -- sleep 0.5 > "$W/rec.log" 2>&1 ||
	{ fail "$what: record -N failed"; cat "$W/rec.log"; }
wait_tc_files "$W/tci" 3 || fail "$what: trace-cmd listen did not finish its 3 sessions"
check_instances "$what" "$W"/tci/*.dat
after_instances "$what"
stop_tc

# 4. the listener killed while recording
n=$(grep -c ': connected' "$LOG")
start=$(date +%s)
"$KTRACE" record -q -N 127.0.0.1:$PORT -e sched -B $IA -e sched -- sleep 30 > "$W/rec.log" 2>&1 &
REC=$!
wait_log ': connected' $((n + 2))
# The recorder threads start once the metadata is sent: kill the listener while they stream.
for _ in $(seq 300); do
	[ "$(ls /proc/$REC/task 2>/dev/null | wc -l)" -gt 1 ] && break
	sleep 0.05
done
sleep 1
kill -9 "$LISTEN_PID"
wait "$LISTEN_PID" 2>/dev/null
LISTEN_PID=
wait "$REC"
rc=$?
took=$(($(date +%s) - start))
[ $rc != 0 ] && pass "killed listener: record exits $rc" || fail "killed listener: record exits 0"
[ $took -lt 20 ] && pass "killed listener: record stopped after ${took}s" ||
	fail "killed listener: record ran ${took}s"
grep -q "^ktrace record: -N 127.0.0.1:$PORT: the listener went away" "$W/rec.log" &&
	grep -q '^  CPU0: [0-9]* bytes ([0-9]* pages)$' "$W/rec.log" &&
	grep -qx ' session 1 (top instance):' "$W/rec.log" &&
	grep -qx " session 2 (instance $IA):" "$W/rec.log" &&
	pass "killed listener: delivered bytes reported per session" ||
	{ fail "killed listener: no delivered-bytes message"; cat "$W/rec.log"; }
[ "$(tracefs_state)" = "$BEFORE" ] && [ ! -e $T/instances/$IA ] &&
	pass "killed listener: tracefs left as found, instance removed" ||
	{ fail "killed listener: tracefs changed"; diff <(echo "$BEFORE") <(tracefs_state); }
[ "$(cat $T/set_event)" = "" ] && [ "$(cat $T/current_tracer)" = nop ] &&
	pass "killed listener: no tracing left on" || fail "killed listener: tracing left on"

# 5. connection refused (the port the killed listener had), handshake refused
"$KTRACE" record -N 127.0.0.1:$PORT -e sched -- true > "$W/rec.log" 2>&1 &&
	fail "refused: record exits 0"
grep -qx "ktrace record: -N 127.0.0.1:$PORT: cannot connect: Connection refused" \
	"$W/rec.log" && pass "refused: clear error" || { fail "refused:"; cat "$W/rec.log"; }
python3 -c '
import socket, sys
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(1)
print(s.getsockname()[1], flush=True)
c, _ = s.accept(); c.sendall(b"HTTP/1.0"); c.recv(100); c.close()
' > "$W/fake.port" &
FAKE=$!
for _ in $(seq 50); do [ -s "$W/fake.port" ] && break; sleep 0.1; done
"$KTRACE" record -N 127.0.0.1:$(cat "$W/fake.port") -e sched -- true > "$W/rec.log" 2>&1 &&
	fail "not a listener: record exits 0"
grep -q "^ktrace record: -N 127.0.0.1:[0-9]*: waiting for the greeting: the listener refused" \
	"$W/rec.log" && pass "not a listener: clear error" ||
	{ fail "not a listener:"; cat "$W/rec.log"; }
wait $FAKE
[ "$(tracefs_state)" = "$BEFORE" ] && pass "refusals: tracefs left as found" ||
	fail "refusals: tracefs changed"

# 6. TLS to ktrace listen, the listener's self-signed certificate as the CA (the refusals and
# the other TLS modes are tests/interop/listen/tls.sh, without the kernel)
if openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 \
	-keyout "$W/tls.key" -out "$W/tls.pem" -subj /CN=listener \
	-addext subjectAltName=IP:127.0.0.1 > "$W/openssl.log" 2>&1; then
	D=$W/tls
	start_listener "$D" --timeout 2 --tls-cert "$W/tls.pem" --tls-key "$W/tls.key"
	what="TLS v7"
	"$KTRACE" record -N 127.0.0.1:$PORT --tls-ca "$W/tls.pem" -e sched -- sleep 1 \
		> "$W/rec.log" 2>&1 || { fail "$what: record -N --tls failed"; cat "$W/rec.log"; }
	if wait_log ': wrote '; then
		got=$(grep ': wrote ' "$LOG" | tail -1 | sed -n 's/.*: wrote \([^ ]*\.dat\) .*/\1/p')
		grep -q ': connected (TLSv1.3, ' "$LOG" && pass "$what: the session was TLS" ||
			fail "$what: not TLS"
		check_file "$D/$got" "$what"
		same_summary "$W/local7.dat" "$D/$got" "$what"
	fi
	"$KTRACE" record -N 127.0.0.1:$PORT -e sched -- true > "$W/rec.log" 2>&1 &&
		fail "plaintext record to a TLS listener exits 0"
	grep -q "waiting for the greeting" "$W/rec.log" &&
		pass "plaintext record to a TLS listener: refused" || cat "$W/rec.log"
	[ "$(tracefs_state)" = "$BEFORE" ] && pass "TLS: tracefs left as found" ||
		fail "TLS: tracefs changed"
	stop_listener
else
	fail "openssl could not make a certificate"; cat "$W/openssl.log"
fi
finish "$LOG"
