#!/bin/bash
# Hostile and broken clients against `ktrace listen`: each must cost one log line and nothing
# else. The listener must stay up, keep serving a good client (also while a bad one stalls),
# and leave nothing in DIR but the good client's file.
#   hostile.sh KTRACE NET_REPLAY CORPUS_DIR
set -u
KTRACE=$1
REPLAY=$2
CORPUS=$3
. "$(dirname "$0")/lib.sh"

D=$W/out
start_listener "$D" --timeout 2 --max-clients 8 --max-file 2M

# send_raw BYTES (printf format): one connection that sends BYTES and hangs up
send_raw() {
	exec 3<>/dev/tcp/127.0.0.1/"$PORT" || return 1
	printf -- "$1" >&3
	sleep 0.1
	exec 3>&-
}

# expect_drop NAME PATTERN PRINTF-BYTES
expect_drop() {
	local n
	n=$(grep -c "dropped: $2" "$LOG")
	send_raw "$3"
	wait_log "dropped: $2" $((n + 1)) && pass "$1: '$2'"
}

V3='-1V3\x00766679\x00\x00'
TINIT='\x00\x00\x00\x18\x00\x00\x00\x01\x00\x00\x00\x0c\x00\x00\x00\x02\x00\x00\x10\x00\x00\x00\x00\x00'
expect_drop "HTTP request" "not a trace-cmd client" 'GET / HTTP/1.0\r\n\r\n'
expect_drop "unknown version" "not a trace-cmd client" '-1V9\x00'
expect_drop "bad magic" "bad protocol 3 magic" '-1V3\x00123456\x00\x00'
expect_drop "oversized length" "malformed message: Message too long" \
	"$V3"'\x7f\xff\xff\xff\x00\x00\x00\x03\x00\x00\x00\x00'
expect_drop "negative length" "malformed message: Message too long" \
	"$V3"'\xff\xff\xff\xf0\x00\x00\x00\x03\x00\x00\x00\x00'
expect_drop "length below the header" "malformed message: Message too long" \
	"$V3"'\x00\x00\x00\x04\x00\x00\x00\x03\x00\x00\x00\x00'
expect_drop "command size beyond the message" "malformed message: Bad message" \
	"$V3"'\x00\x00\x00\x10\x00\x00\x00\x03\x00\x00\x10\x00abcd'
expect_drop "unknown command" "malformed message: No message of desired type" \
	"$V3"'\x00\x00\x00\x0c\x00\x00\x00\x63\x00\x00\x00\x00'
expect_drop "absurd CPU count" "malformed message: Invalid argument" \
	"$V3"'\x00\x00\x00\x18\x00\x00\x00\x01\x00\x00\x00\x0c\x00\x0f\x42\x40\x00\x00\x10\x00\x00\x00\x00\x00'
expect_drop "data before TINIT" "message out of order: SEND_DATA" \
	"$V3"'\x00\x00\x00\x10\x00\x00\x00\x03\x00\x00\x00\x00abcd'
expect_drop "CLOSE before the metadata ends" "message out of order: CLOSE" \
	"$V3$TINIT"'\x00\x00\x00\x0c\x00\x00\x00\x00\x00\x00\x00\x00'
expect_drop "metadata that is not a trace.dat" "bad metadata: file magic at offset 0" \
	"$V3$TINIT"'\x00\x00\x00\x20\x00\x00\x00\x03\x00\x00\x00\x00nothing like a trace\x00\x00\x00\x0c\x00\x00\x00\x04\x00\x00\x00\x00'
expect_drop "gone during setup" "closed during setup" "$V3$TINIT"
expect_drop "gone before the handshake" "closed before the handshake" ''

head -c 65536 /dev/urandom > "$W/random"
n=$(grep -c "dropped:" "$LOG")
exec 3<>/dev/tcp/127.0.0.1/"$PORT"
cat "$W/random" >&3 2>/dev/null
exec 3>&-
wait_log "dropped:" $((n + 1)) && pass "random bytes: dropped"

# A client that stalls mid-handshake must not hold up a good client, and must time out.
exec 4<>/dev/tcp/127.0.0.1/"$PORT"
printf -- "$V3$TINIT" >&4
"$REPLAY" 127.0.0.1 "$PORT" "$CORPUS/sched.dat" || fail "good client beside a staller"
wait_log ": wrote " 1 && pass "a good client is served while another stalls"
wait_log "dropped: timed out during setup" 1 && pass "the stalled client timed out"
exec 4>&-
rm -f "$D"/*.dat

n=$(grep -c "dropped: bad metadata: it declares 2 CPUs" "$LOG")
"$REPLAY" --cpus 3 127.0.0.1 "$PORT" "$CORPUS/sched.dat" 2>/dev/null
wait_log "dropped: bad metadata: it declares 2 CPUs" $((n + 1)) &&
	pass "metadata contradicting TINIT: dropped"

n=$(grep -c ": wrote " "$LOG")
"$REPLAY" --udp --bad-datagram 127.0.0.1 "$PORT" "$CORPUS/sched.dat" || fail "bad datagram client"
wait_log ": wrote " $((n + 1))
got=$D/$(tail -1 "$LOG" | sed -n 's/.*: wrote \([^ ]*\) .*/\1/p')
grep -q "dropped a datagram that is not one page" "$LOG" &&
	tc_report "$got" | cmp -s - "$CORPUS/sched.report.txt" &&
	pass "a datagram that is not a page is dropped, the file is still right" ||
	fail "datagram that is not a page"
rm -f "$got"

# Limits: a client over --max-file, and more clients than --max-clients.
"$REPLAY" 127.0.0.1 "$PORT" "$CORPUS/sched_none.dat" 2>/dev/null
wait_log "dropped: over --max-file" 1 && pass "--max-file enforced"
for i in $(seq 10); do
	eval "exec $((i + 10))<>/dev/tcp/127.0.0.1/$PORT"
done
wait_log "refused a client: 8 clients already" 2 && pass "--max-clients enforced"
for i in $(seq 10); do
	eval "exec $((i + 10))>&-"
done

# Many connections opened and dropped.
sleep 0.5
n=$(grep -c "closed before the handshake\|refused a client" "$LOG")
for i in $(seq 300); do
	exec 3<>/dev/tcp/127.0.0.1/"$PORT" && exec 3>&-
done
wait_log "closed before the handshake\|refused a client" $((n + 300)) && pass "300 connections dropped, 300 lines"

# Still alive, still serving.
kill -0 "$LISTEN_PID" || fail "the listener died"
n=$(grep -c ": wrote " "$LOG")
"$REPLAY" 127.0.0.1 "$PORT" "$CORPUS/sched.dat" || fail "good client at the end"
wait_log ": wrote " $((n + 1))
got=$D/$(tail -1 "$LOG" | sed -n 's/.*: wrote \([^ ]*\) .*/\1/p')
tc_report "$got" | cmp -s - "$CORPUS/sched.report.txt" &&
	pass "a good client afterwards gets a correct file" || fail "good client's file"
rm -f "$got"
leftover=$(ls -A "$D")
[ -z "$leftover" ] && pass "nothing else left in DIR" || fail "left in DIR: $leftover"
stop_listener

# -D: the command returns at once, the daemon serves, and its pid is in the log.
mkdir "$W/daemon"
"$KTRACE" listen -D -p 0 --bind 127.0.0.1 -d "$W/daemon" -l "$W/daemon.log" ||
	fail "-D did not start"
LOG=$W/daemon.log
wait_log "listening on"
DPID=$(sed -n 's/.* (pid \([0-9]*\))$/\1/p' "$LOG")
DPORT=$(sed -n 's/.*listening on .* port \([0-9]*\) (pid [0-9]*)$/\1/p' "$LOG")
"$REPLAY" 127.0.0.1 "$DPORT" "$CORPUS/sched.dat" || fail "client of the daemon"
wait_log ": wrote " && pass "-D: the daemon serves"
kill "$DPID"
wait_log "stopping on signal" && pass "-D: the daemon stops on SIGTERM"

"$KTRACE" listen -p 0 -o ../escape 2> "$W/err" && fail "-o with a '/' accepted"
grep -q "a file name prefix without '/'" "$W/err" && pass "-o cannot leave DIR"
"$KTRACE" listen -p 99999 2> "$W/err" && fail "-p 99999 accepted"
grep -q "expected a port number" "$W/err" && pass "-p out of range refused"
finish "$LOG"
