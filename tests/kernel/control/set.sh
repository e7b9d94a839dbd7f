#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# ktrace set against trace-cmd 3.1.6's set on the live tracefs: from the same state (an irq
# event already on, tracing off), each command line is run by both and what they leave
# (tracefs-snapshot.sh, plus the scratch instance) must be the same; then the refusals.
# trace-cmd runs under the shim that lets it work on this kernel (tests/interop/listen/tcshim.c).
# Run under flock /tmp/ktrace-tracefs.lock (meson does); tracefs is put back as found.
#   set.sh KTRACE TCSHIM SNAPSHOT
set -u
K=$(readlink -f "$1")
SHIM=$(readlink -f "$2")
SNAP=$3
T=/sys/kernel/tracing
X=kt-set-test
W=$(mktemp -d /tmp/ktrace-set.XXXXXX)

fail() {
	echo "FAIL [set]: $*" >&2
	exit 1
}
command -v trace-cmd > /dev/null || fail "trace-cmd (the peer, 3.1.6) is not installed"
tc() { TCSHIM_SELF=$SHIM LD_PRELOAD=$SHIM trace-cmd "$@"; }

sh "$SNAP" > "$W/orig"
cleanup() {
	[ -d $T/instances/$X ] && rmdir $T/instances/$X
	"$K" reset > /dev/null 2>&1
	sh "$SNAP" > "$W/end"
	diff "$W/orig" "$W/end" > /dev/null || echo "note: tracefs differs from the start" >&2
	rm -rf "$W"
}
trap cleanup EXIT

state() {
	sh "$SNAP"
	[ -d $T/instances/$X ] && echo "$X: $(cat $T/instances/$X/buffer_size_kb)" \
		"$(sort $T/instances/$X/set_event | tr '\n' ' ')"
	return 0
}

# the state both start from: defaults, irq_handler_entry on, tracing off; then PRE by the tool
prepare() {
	[ -d $T/instances/$X ] && rmdir $T/instances/$X
	"$K" reset > /dev/null || fail "ktrace reset failed"
	echo 1 > $T/events/irq/irq_handler_entry/enable
	echo 0 > $T/tracing_on
}

# same PRE -- ARGS: PRE (a set before, may be empty) then set ARGS, by both tools
same() {
	local pre=$1 tool
	shift
	for tool in tc "$K"; do
		prepare
		[ -n "$pre" ] && { $tool set $pre > /dev/null 2>&1 || fail "$tool set $pre failed"; }
		$tool set "$@" > "$W/out" 2>&1 || fail "$tool set $*: $(cat "$W/out")"
		state > "$W/$(basename "$tool").state"
	done
	diff -u "$W/tc.state" "$W/ktrace.state" > "$W/diff" ||
		fail "set $* (after '$pre'): ktrace leaves tracefs otherwise than trace-cmd:
$(head -20 "$W/diff")"
	echo "ok: set $*${pre:+ (after set $pre)} = trace-cmd set"
}

same "" -e sched:sched_switch -f 'prev_pid > 1'
same "-e sched:sched_switch" -v -e sched:sched_switch
same "-e sched:sched_switch" -e sched:sched_wakeup
same "" -B $X -b 2048 -e sched:sched_wakeup
same "-B $X" -v -B $X
same "" -b 2000
same "" -C global
same "" -O noirq-info
same "" -p nop

# the other tracing_on stays too
prepare
echo 1 > $T/tracing_on
"$K" set -e sched:sched_switch || fail "set -e failed with tracing on"
[ "$(cat $T/tracing_on)" = 1 ] || fail "set turned tracing_on off"
echo "ok: tracing_on stays on"

# what only a recording means is refused, in trace-cmd's words, and nothing changes
for flag in -s -k -a --date; do
	arg=
	[ "$flag" = -s ] && arg=10
	prepare
	state > "$W/before"
	"$K" set $flag $arg -e sched:sched_switch 2> "$W/err" && fail "set $flag was accepted"
	grep -q -- "$flag has no effect with the command set" "$W/err" ||
		fail "set $flag: message '$(cat "$W/err")'"
	state > "$W/after"
	diff -q "$W/before" "$W/after" > /dev/null || fail "a refused set $flag changed tracefs"
done
echo "ok: -s, -k, -a, --date refused as trace-cmd refuses them"

# a failure half way puts back what set had changed
prepare
state > "$W/before"
"$K" set -b 3000 -e sched:sched_switch -f 'no_such_field == 1' 2> "$W/err" &&
	fail "a filter on a missing field was accepted"
state > "$W/after"
diff -u "$W/before" "$W/after" > "$W/diff" ||
	fail "a failed set left changes behind: $(head -10 "$W/diff")"
echo "ok: a failed set puts back what it had changed"
