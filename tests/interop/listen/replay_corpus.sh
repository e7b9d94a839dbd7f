#!/bin/bash
# Replays reference recordings to `ktrace listen` as a `record -N` client would send them, and
# checks the received files: v6 comes back byte for byte, v7 reports exactly as the original
# with trace-cmd; sessions cut short leave no file or a *.partial.dat that still reads.
#   replay_corpus.sh KTRACE NET_REPLAY CORPUS_DIR
set -u
KTRACE=$1
REPLAY=$2
CORPUS=$3
. "$(dirname "$0")/lib.sh"

D=$W/out
start_listener "$D"

# replay NAME [flags]: sets GOT to the file the listener wrote for it
replay() {
	local name=$1 n
	shift
	n=$(grep -c ': wrote \|: dropped' "$LOG")
	"$REPLAY" "$@" 127.0.0.1 "$PORT" "$CORPUS/$name.dat" || fail "$name $*: client failed"
	wait_log ': wrote \|: dropped' $((n + 1))
	GOT=$(grep ': wrote \|: dropped' "$LOG" | tail -1 | sed -n 's/.*: wrote \([^ ]*\) .*/\1/p')
	[ -n "$GOT" ] && GOT=$D/$GOT
}

for flags in "" "--udp"; do
	replay sched_v6 $flags
	if cmp -s "$GOT" "$CORPUS/sched_v6.dat"; then
		pass "v6 ${flags:-tcp}: byte-identical to the original"
	else
		fail "v6 ${flags:-tcp}: differs from the original"
	fi
	kt_report_is "$GOT" "$CORPUS/sched_v6.report.txt" "v6 ${flags:-tcp}"
	rm -f "$GOT"
done

for name in sched sched_none block; do
	for flags in "" "--udp"; do
		replay $name $flags
		if [ -n "$GOT" ] && tc_report "$GOT" 2>&1 | cmp -s - "$CORPUS/$name.report.txt"; then
			pass "v7 $name ${flags:-tcp}: trace-cmd report identical"
		else
			fail "v7 $name ${flags:-tcp}: trace-cmd report differs"
		fi
		kt_report_is "$GOT" "$CORPUS/$name.report.txt" "v7 $name ${flags:-tcp}"
		rm -f "$GOT"
	done
done

# Each line from "[CPU] timestamp:" on.
no_comm() {
	sed -E 's/^.*(\[[0-9]{3}\] +[0-9]+\.[0-9]+:)/\1/' "$1"
}

# Protocol 1 sends only the headers: no saved command lines, so tasks print as <...>.
for flags in "--v1" "--v1 --udp"; do
	replay sched_v6 $flags
	tc_report "$GOT" > "$W/v1.txt" 2>&1
	if diff <(no_comm "$W/v1.txt") <(no_comm "$CORPUS/sched_v6.report.txt") >/dev/null; then
		pass "$flags: the same events as the original"
	else
		fail "$flags: events differ from the original"
	fi
	kt_report_is "$GOT" "$W/v1.txt" "$flags"
	rm -f "$GOT"
done

replay sched --cut-meta
if [ -z "$GOT" ] && tail -1 "$LOG" | grep -q 'dropped: closed during setup; no file written'; then
	pass "cut during metadata: no file, one log line"
else
	fail "cut during metadata"
fi

for flags in --cut-data --no-close; do
	replay sched $flags
	case "$GOT" in
	*.partial.dat)
		if tc_report "$GOT" >/dev/null 2>&1; then
			pass "$flags: $(basename "$GOT") reads with trace-cmd"
		else
			fail "$flags: $(basename "$GOT") does not read"
		fi ;;
	*) fail "$flags: expected a .partial.dat, got '$GOT'" ;;
	esac
	rm -f "$GOT"
done

# 16 clients at once: 16 complete, correct files.
n=$(grep -c ': wrote ' "$LOG")
pids=
for i in $(seq 16); do
	case $i in
	1 | 2 | 3 | 4) name=sched_v6 ;;
	*) name=sched ;;
	esac
	flags=
	[ $((i % 2)) = 0 ] && flags=--udp
	"$REPLAY" $flags 127.0.0.1 "$PORT" "$CORPUS/$name.dat" &
	pids="$pids $!"
done
for p in $pids; do
	wait "$p" || fail "a concurrent client failed"
done
wait_log ': wrote ' $((n + 16))
good=0
for f in "$D"/*.dat; do
	if [ "$(head -c 11 "$f" | tail -c 1)" = 6 ]; then
		cmp -s "$f" "$CORPUS/sched_v6.dat" && good=$((good + 1))
	else
		tc_report "$f" 2>&1 | cmp -s - "$CORPUS/sched.report.txt" && good=$((good + 1))
	fi
	rm -f "$f"
done
[ "$good" = 16 ] && pass "16 concurrent clients: 16 correct files" ||
	fail "16 concurrent clients: $good correct files"

leftover=$(ls -A "$D")
[ -z "$leftover" ] && pass "nothing else left in DIR" || fail "left in DIR: $leftover"
stop_listener
finish "$LOG"
