#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The tracefs side of the completion: `ktrace __complete values KIND` gives what tracefs offers
# (the tracers, events, options, clocks and instances `ktrace list` reads), _ktrace offers them
# after -p/-e/-O/-C/-B, nothing is written to tracefs, and without access to tracefs (another
# user) there is no candidate and no message. Read-only; under flock /tmp/ktrace-tracefs.lock.
#   completion.sh KTRACE COMPLETION_SCRIPT SNAPSHOT
set -u
KT=$(readlink -f "$1")
SCRIPT=$(readlink -f "$2")
SNAP=$(readlink -f "$3")
T=/sys/kernel/tracing
TMP=$(mktemp -d /tmp/ktrace-completion.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
status=0

fail()
{
	echo "FAIL: $*"
	status=1
}

[ -r $T/available_tracers ] || { echo "FAIL: $T is not readable (not root? no tracefs?)"; exit 1; }
"$SNAP" > "$TMP/before"

# same KIND EXPECTED_FILE: __complete values KIND is exactly the lines of the file, in any order
same()
{
	"$KT" __complete values "$1" 2> "$TMP/err" | sort > "$TMP/got"
	sort "$2" > "$TMP/want"
	[ -s "$TMP/err" ] && fail "values $1 printed on stderr: $(cat "$TMP/err")"
	if [ ! -s "$TMP/want" ]; then
		fail "no $1 to compare with"
	elif ! diff -u "$TMP/want" "$TMP/got" > "$TMP/diff"; then
		fail "values $1 differ from tracefs:"
		sed 's/^/    /' "$TMP/diff" | head -20
	else
		echo "ok: $1: $(wc -l < "$TMP/got") values, as tracefs has them"
	fi
}

tr -s ' \n' '\n\n' < $T/available_tracers | grep . > "$TMP/tracers"
same TRACER "$TMP/tracers"
tr -s ' []\n' '\n\n\n\n' < $T/trace_clock | grep . > "$TMP/clocks"
same CLOCK "$TMP/clocks"
for o in $T/options/*; do
	o=${o##*/}
	printf '%s\nno%s\n' "$o" "$o"
done > "$TMP/options"
same OPTION "$TMP/options"
{
	for s in $T/events/*/; do
		[ -e "$s/enable" ] && basename "$s"
	done
	cat $T/available_events
} > "$TMP/events"
same EVENT "$TMP/events"
# Instances: whatever exists now (none is fine), this test creates none.
ls -A $T/instances > "$TMP/instances"
"$KT" __complete values INSTANCE | sort > "$TMP/got"
sort "$TMP/instances" | diff -u - "$TMP/got" > /dev/null ||
	fail "values INSTANCE differ from $T/instances"

# _ktrace after the options whose argument names a kernel thing
. "$SCRIPT"
complete_words()
{
	COMP_WORDS=("$KT" "$@")
	COMP_CWORD=$#
	COMPREPLY=()
	_ktrace
	printf '%s\n' "${COMPREPLY[@]}" | sort
}
grep -x nop "$TMP/tracers" > /dev/null || fail "no nop tracer"
[ "$(complete_words record -p no)" = nop ] || fail "record -p no<TAB> is not nop"
got=$(complete_words start -C "")
[ "$got" = "$(sort "$TMP/clocks")" ] || fail "start -C <TAB> is not the clocks: $got"
got=$(complete_words record -e sched : sched_swi)
[ "$got" = sched_switch ] || fail "record -e sched:sched_swi<TAB> is '$got', not sched_switch"
got=$(complete_words stream -O nosym-off)
[ "$got" = nosym-offset ] || fail "stream -O nosym-off<TAB> is '$got', not nosym-offset"
# report -O is a plugin option, not a trace option
got=$(complete_words report -O sym)
[ -z "$got" ] || fail "report -O sym<TAB> offers trace options: $got"
echo "ok: _ktrace completes -p, -C, -e, -O from tracefs"

# Another user cannot read tracefs: no candidate, no message, status 0.
cp "$KT" "$TMP/ktrace"
chmod 755 "$TMP" "$TMP/ktrace"
for kind in TRACER EVENT OPTION CLOCK INSTANCE; do
	# libtracefs leaks its tracing-dir string when it cannot reach tracefs: not ours to find
	out=$(ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		setpriv --reuid=65534 --regid=65534 --clear-groups "$TMP/ktrace" __complete values \
		"$kind" 2>&1)
	rc=$?
	[ $rc -eq 0 ] && [ -z "$out" ] ||
		fail "values $kind as nobody: status $rc, output '$out' (want 0 and nothing)"
done
echo "ok: without access to tracefs: nothing"

"$SNAP" > "$TMP/after"
diff -u "$TMP/before" "$TMP/after" || fail "tracefs changed"
exit $status
