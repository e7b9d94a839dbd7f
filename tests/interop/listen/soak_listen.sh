#!/bin/bash
# One `ktrace listen` under load: 1,000 sequential sessions, then three waves of 64 concurrent
# clients, good ones mixed with hostile ones. Every good session's file must be what was sent,
# every hostile client must cost one log line and leave nothing, and the listener's open fds
# and memory must stay flat.
#   soak_listen.sh KTRACE NET_REPLAY CORPUS_DIR [SEQUENTIAL]
#
# What was sent: a v7 session (sched.dat) comes back as one file, the same for every session;
# the first one must report exactly as the corpus expects with trace-cmd (as replay_corpus.sh
# checks), and every later one must be byte-identical to it. A v6 session (sched_v6.dat, every
# 100th) must be byte-identical to the original.
# Flat, sampled with the listener idle (every 100 sessions, after each wave): open fds
# exactly as after the first 100 sessions (an idle listener holds its sockets, log and directory,
# nothing per session); VmRSS within 512 KiB of the first batch's. A session allocates and
# frees its buffers; anything it kept would add up: 512 KiB over the 900 later sessions is
# under 600 bytes per session, the smallest leak this can see. The waves are compared with the
# first wave the same way (their peak is higher: 64 sessions' buffers at once).
set -u
KTRACE=$1
REPLAY=$2
CORPUS=$3
SEQUENTIAL=${4:-1000}
. "$(dirname "$0")/lib.sh"

D=$W/out
start_listener "$D" --timeout 3 --max-clients 100
RSS_TOL=512
# ASan's quarantine holds freed memory back (up to 256 MB): RSS says nothing there.
CHECK_RSS=1
grep -qa __asan_init "$KTRACE" && CHECK_RSS=0

rss() { awk '/^VmRSS:/ { print $2 }' "/proc/$LISTEN_PID/status"; }
hwm() { awk '/^VmHWM:/ { print $2 }' "/proc/$LISTEN_PID/status"; }
fds() { ls "/proc/$LISTEN_PID/fd" | wc -l; }
nwrote() { grep -c ': wrote ' "$LOG"; }
ndropped() { grep -c ': dropped: ' "$LOG"; }

# wait_count FUNCTION N: until FUNCTION prints N or more, at most 60 s (a loaded machine)
wait_count() {
	for _ in $(seq 600); do
		[ "$("$1")" -ge "$2" ] && return 0
		sleep 0.1
	done
	return 1
}

# check_files WHAT N: D holds N files, each what was sent (v6: the original, v7: the
# reference); then they are removed
check_files() {
	local what=$1 want=$2 n=0 bad=0 f
	for f in "$D"/*.dat; do
		[ -e "$f" ] || continue
		n=$((n + 1))
		cmp -s "$f" "$CORPUS/sched_v6.dat" || cmp -s "$f" "$W/ref.dat" || bad=$((bad + 1))
	done
	rm -f "$D"/*.dat
	leftover=$(ls -A "$D")
	[ "$bad" = 0 ] && [ "$n" = "$want" ] && [ -z "$leftover" ] && return 0
	fail "$what: $n files (want $want), $bad not as sent${leftover:+; left: $leftover}"
	return 1
}

# sample WHAT: one row of the table at the end, listener idle
SAMPLES=()
sample() {
	SAMPLES+=("$1	$(rss)	$(fds)")
}

# The reference v7 file: one session, checked against the corpus with trace-cmd.
"$REPLAY" 127.0.0.1 "$PORT" "$CORPUS/sched.dat" || fail "first client failed"
wait_count nwrote 1 || fail "first session never written"
mv "$D"/*.dat "$W/ref.dat"
if tc_report "$W/ref.dat" 2>&1 | cmp -s - "$CORPUS/sched.report.txt"; then
	pass "the first session reports as the corpus expects"
else
	fail "the first session's file differs"; finish "$LOG"
fi
sample "start"

# Sequential sessions, each file checked and removed as soon as it is written: the listener
# names a file after the client's port, and a port the kernel hands out again would replace an
# earlier session's file of the same name.
T0=$SECONDS
done_n=1 bad=0
while [ "$done_n" -lt "$SEQUENTIAL" ]; do
	done_n=$((done_n + 1))
	want=$(($(nwrote) + 1))
	if [ $((done_n % 100)) = 50 ]; then
		send=$CORPUS/sched_v6.dat orig=$CORPUS/sched_v6.dat
	else
		send=$CORPUS/sched.dat orig=$W/ref.dat
	fi
	"$REPLAY" 127.0.0.1 "$PORT" "$send" ||
		fail "session $done_n: the client failed"
	for _ in $(seq 3000); do
		[ "$(nwrote)" -ge "$want" ] && break
		sleep 0.02
	done
	got=$(grep ': wrote ' "$LOG" | tail -1 | sed -n 's/.*: wrote \([^ ]*\) .*/\1/p')
	if [ "$(nwrote)" -lt "$want" ] || ! cmp -s "$D/$got" "$orig"; then
		fail "session $done_n: ${got:-no file} is not what was sent"
		bad=$((bad + 1))
		[ "$bad" -lt 5 ] || break
	fi
	rm -f "$D/$got"
	if [ $((done_n % 100)) = 1 ]; then
		leftover=$(ls -A "$D")
		[ -z "$leftover" ] || fail "after $done_n sessions: left in DIR: $leftover"
		sample "after $done_n sessions"
	fi
done
[ $((done_n % 100)) = 1 ] || sample "after $done_n sessions"
SEQ_S=$((SECONDS - T0))
[ "$(ndropped)" = 0 ] && [ "$bad" = 0 ] &&
	pass "$done_n sequential sessions in ${SEQ_S}s: every file as sent" ||
	fail "sequential sessions: $(ndropped) dropped, $bad not as sent"

V3='-1V3\x00766679\x00\x00'
TINIT='\x00\x00\x00\x18\x00\x00\x00\x01\x00\x00\x00\x0c\x00\x00\x00\x02\x00\x00\x10\x00\x00\x00\x00\x00'
# hostile KIND: one bad client, in the background
hostile() {
	case $1 in
	0) ( exec 3<>/dev/tcp/127.0.0.1/"$PORT" && printf 'GET / HTTP/1.0\r\n\r\n' >&3 && sleep 0.5 ) ;;
	1) ( exec 3<>/dev/tcp/127.0.0.1/"$PORT" && printf -- '-1V3\x00123456\x00\x00' >&3 && sleep 0.5 ) ;;
	2) ( exec 3<>/dev/tcp/127.0.0.1/"$PORT" &&
	     printf -- "$V3"'\x7f\xff\xff\xff\x00\x00\x00\x03\x00\x00\x00\x00' >&3 && sleep 0.5 ) ;;
	3) ( exec 3<>/dev/tcp/127.0.0.1/"$PORT" && cat "$W/random" >&3 2>/dev/null; sleep 0.5 ) ;;
	# stalls in the handshake until the listener's --timeout drops it
	4) ( exec 3<>/dev/tcp/127.0.0.1/"$PORT" && printf -- "$V3$TINIT" >&3 && sleep 5 ) ;;
	5) "$REPLAY" --cut-meta 127.0.0.1 "$PORT" "$CORPUS/sched.dat" ;;
	6) "$REPLAY" --cpus 3 127.0.0.1 "$PORT" "$CORPUS/sched.dat" ;;
	# gone before saying anything
	7) ( exec 3<>/dev/tcp/127.0.0.1/"$PORT" ) ;;
	esac > /dev/null 2>&1
}
head -c 65536 /dev/urandom > "$W/random"

# Waves of 64 at once: 40 good (every 4th sending its CPUs in parallel, as a recording client
# does; two v6), 24 hostile (three of each kind).
T0=$SECONDS
for wave in 1 2 3; do
	w0=$(nwrote) d0=$(ndropped) pids= bad_pids=
	for i in $(seq 0 63); do
		if [ "$i" -lt 40 ]; then
			flags=
			[ $((i % 4)) = 0 ] && flags=--parallel
			name=sched
			[ "$i" = 7 ] || [ "$i" = 21 ] && name=sched_v6
			"$REPLAY" $flags 127.0.0.1 "$PORT" "$CORPUS/$name.dat" &
			pids="$pids $!"
		else
			hostile $((i % 8)) &
			bad_pids="$bad_pids $!"
		fi
	done
	for p in $pids; do
		wait "$p" || fail "wave $wave: a good client failed"
	done
	# shellcheck disable=SC2086
	wait $bad_pids
	wait_count nwrote $((w0 + 40)) || fail "wave $wave: $(($(nwrote) - w0)) of 40 written"
	wait_count ndropped $((d0 + 24)) || fail "wave $wave: $(($(ndropped) - d0)) of 24 dropped"
	[ "$(ndropped)" = $((d0 + 24)) ] || fail "wave $wave: $(($(ndropped) - d0)) dropped, not 24"
	# sessions that ended before another began may share a client port, hence a file name
	names=$(grep ': wrote ' "$LOG" | tail -n +$((w0 + 1)) | sed -n 's/.*: wrote \([^ ]*\) .*/\1/p' |
		sort | uniq -c)
	same=$(awk '$1 > 1 { n += $1 - 1 } END { print n + 0 }' <<< "$names")
	[ "$same" = 0 ] ||
		echo "note: wave $wave: $same file(s) replaced by a later session of the same name"
	check_files "wave $wave" $((40 - same)) &&
		pass "wave $wave: 40 good sessions, their files as sent; 24 hostile dropped"
	sample "after wave $wave"
done
WAVE_S=$((SECONDS - T0))
kill -0 "$LISTEN_PID" || fail "the listener died"
grep -q "refused a client" "$LOG" && fail "a client was refused"

# Flat: sequential batches against the first batch, waves against the first wave.
base_rss= base_fds= wave_rss=
for s in "${SAMPLES[@]}"; do
	IFS=$'\t' read -r what r f <<< "$s"
	case $what in
	"after 101 sessions") base_rss=$r base_fds=$f ;;
	"after wave 1") wave_rss=$r ;;
	esac
done
[ -n "$base_rss" ] || { IFS=$'\t' read -r _ base_rss base_fds <<< "${SAMPLES[0]}"; }
flat=1
for s in "${SAMPLES[@]}"; do
	IFS=$'\t' read -r what r f <<< "$s"
	[ "$f" = "$base_fds" ] || { fail "$what: $f open fds, $base_fds after the first batch"; flat=0; }
	case $what in
	"after wave"*) ref=$wave_rss ;;
	start) continue ;;
	*) ref=$base_rss ;;
	esac
	[ "$CHECK_RSS" = 0 ] || [ "$r" -le $((ref + RSS_TOL)) ] ||
		{ fail "$what: VmRSS $r kB, more than $RSS_TOL kB over $ref kB"; flat=0; }
done
if [ "$CHECK_RSS" = 0 ]; then
	[ "$flat" = 1 ] && pass "fds flat at $base_fds (an ASan build: VmRSS not judged)"
else
	[ "$flat" = 1 ] && pass "fds flat at $base_fds; VmRSS flat (within $RSS_TOL kB)"
fi
echo "sequential: $done_n sessions in ${SEQ_S}s; waves: 3 x 64 clients in ${WAVE_S}s; peak VmRSS $(hwm) kB"
echo "samples (what, VmRSS kB, open fds):"
printf '    %s\n' "${SAMPLES[@]}"
stop_listener
finish "$LOG"
