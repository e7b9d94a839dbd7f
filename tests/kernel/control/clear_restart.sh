#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# ktrace clear and ktrace restart against trace-cmd 3.1.6 on the live tracefs: each flag
# combination is run by both from the same state (two scratch instances and the top one,
# each with a trace_marker event in its buffer and tracing off), and what they leave (buffer
# empty or not, tracing_on) must be the same. Run under flock /tmp/ktrace-tracefs.lock (meson
# does); tracefs is left as it was found, but -a clears the buffers of every instance.
#   clear_restart.sh KTRACE CASE      CASE: clear | restart | errors
set -u
KT=$(readlink -f "$1")
CASE=$2
T=/sys/kernel/tracing
A=kt_clr_a
B=kt_clr_b
TMP=$(mktemp -d /tmp/ktrace-clear.XXXXXX)

fail() {
	echo "FAIL ($CASE): $*" >&2
	exit 1
}

command -v trace-cmd > /dev/null || fail "trace-cmd (the peer, 3.1.6) is not installed"
[ -w $T/tracing_on ] || fail "$T is not writable (not root, or tracefs not mounted)"

# tracing_on of the top instance and of every instance that was there before, to put back.
for d in $T $T/instances/*; do
	[ -f "$d/tracing_on" ] && echo "$d $(cat "$d/tracing_on")"
done > "$TMP/orig_on"

cleanup() {
	for i in $A $B; do
		[ -d $T/instances/$i ] && rmdir $T/instances/$i
	done
	while read -r d on; do
		[ -f "$d/tracing_on" ] && echo "$on" > "$d/tracing_on"
	done < "$TMP/orig_on"
	rm -rf "$TMP"
}
trap cleanup EXIT

for i in $A $B; do
	[ -d $T/instances/$i ] && fail "instance $i exists already (a test left it?)"
	mkdir $T/instances/$i || fail "cannot create instance $i"
done

# Every buffer holds one event and tracing is off: what clear and restart start from.
prepare() {
	for d in $T $T/instances/*; do
		echo 1 > "$d/tracing_on"
		echo "kt-clear-test" > "$d/trace_marker" || fail "trace_marker of $d"
		echo "${PREPARE_ON:-0}" > "$d/tracing_on"
	done
}

# One line per instance: its tracing_on and whether its buffer holds events.
state() {
	for d in $T $T/instances/*; do
		if grep -q -v '^#' "$d/trace"; then buf=events; else buf=empty; fi
		echo "${d#$T}: tracing_on=$(cat "$d/tracing_on") buffer=$buf"
	done
}

# compare CMD FLAGS...: the state after trace-cmd CMD FLAGS and after ktrace CMD FLAGS.
compare() {
	cmd=$1
	shift
	prepare
	trace-cmd "$cmd" "$@" > "$TMP/tc.out" 2>&1 || fail "trace-cmd $cmd $* exited $?"
	state > "$TMP/tc"
	prepare
	"$KT" "$cmd" "$@" > "$TMP/kt.out" 2>&1 || fail "ktrace $cmd $* exited $?: $(cat "$TMP/kt.out")"
	state > "$TMP/kt"
	diff -u "$TMP/tc" "$TMP/kt" >&2 || fail "ktrace $cmd $* differs from trace-cmd"
	[ -s "$TMP/kt.out" ] && fail "ktrace $cmd $* printed: $(cat "$TMP/kt.out")"
	# the comparison means something only when the command changed something
	prepare
	state > "$TMP/before"
	cmp -s "$TMP/before" "$TMP/kt" && fail "$cmd $* changed nothing"
	echo "same: $cmd $*"
}

case_clear() {
	compare clear
	compare clear -B $A
	compare clear -B $A -B $B
	compare clear -a
	compare clear --all
	compare clear -a -B $A
	# tracing on stays on, and the cleared buffer records again
	prepare
	echo 1 > $T/instances/$A/tracing_on
	"$KT" clear -B $A || fail "clear of a tracing instance exited $?"
	[ "$(cat $T/instances/$A/tracing_on)" = 1 ] || fail "clear turned tracing off"
	echo again > $T/instances/$A/trace_marker
	grep -q again $T/instances/$A/trace || fail "the cleared buffer does not record"
}

case_restart() {
	compare restart
	compare restart -t
	compare restart -B $A
	compare restart -B $A -B $B
	compare restart -B $A -t
	compare restart -t -B $A
	compare restart -a
	compare restart -a -B $A
	compare restart -a -t -B $A
}

# stop starts from tracing on everywhere; trace-cmd stop -a stops the top instance too
case_stop() {
	PREPARE_ON=1
	compare stop
	compare stop -t
	compare stop -B $A
	compare stop -B $A -B $B
	compare stop -B $A -t
	compare stop -a
	compare stop -a -B $A
	compare stop -a -t -B $A
	PREPARE_ON=0
}

# A bad flag or instance: one line naming it, a failing status, nothing changed.
refused() {
	prepare
	state > "$TMP/before"
	"$KT" "$@" > "$TMP/out" 2> "$TMP/err" && fail "ktrace $* succeeded"
	[ "$(wc -l < "$TMP/err")" = 1 ] || fail "ktrace $*: not one line: $(cat "$TMP/err")"
	grep -q -e "$WANT" "$TMP/err" || fail "ktrace $*: '$WANT' not named: $(cat "$TMP/err")"
	[ -s "$TMP/out" ] && fail "ktrace $* printed on stdout"
	state > "$TMP/after"
	diff -u "$TMP/before" "$TMP/after" >&2 || fail "ktrace $* changed tracefs"
	echo "refused: $*"
}

case_errors() {
	for cmd in clear restart; do
		WANT="-B 'kt_no_such'" refused $cmd -B $A -B kt_no_such
		WANT="-B '\.\.'" refused $cmd -B ..
		WANT="-B ''" refused $cmd -B ''
		WANT="'-x'" refused $cmd -x
		WANT="'-B'" refused $cmd -B
		WANT="argument" refused $cmd stray
	done
	WANT="'-t'" refused clear -t
}

case "$CASE" in
clear | restart | stop | errors)
	"case_$CASE"
	;;
*)
	fail "unknown case"
	;;
esac
echo "ok $CASE"
