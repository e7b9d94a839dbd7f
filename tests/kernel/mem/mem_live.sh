#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# ktrace mem on live kmem recordings of this kernel vs trace-cmd 3.1.6 mem on the same files:
# the same stdout, byte for byte. One recording of the whole system (thousands of call sites
# and frees, many rows of equal waste: trace-cmd's bucket order), one of a single command (-F).
# tracefs's events and tracing_on are as before. Usage: mem_live.sh KTRACE (under flock
# /tmp/ktrace-tracefs.lock, as meson runs it).
set -u
K=$1
W=$(mktemp -d /tmp/ktrace-mem-test.XXXXXX)
trap 'rm -rf "$W"' EXIT
T=/sys/kernel/tracing
FAILS=0

fail() {
	echo "FAIL [mem]: $*" >&2
	FAILS=$((FAILS + 1))
}

command -v trace-cmd > /dev/null || { echo "FAIL [mem]: trace-cmd is missing" >&2; exit 1; }
state() {
	cat "$T/set_event" "$T/tracing_on"
}
before=$(state)
EV=(-e kmem:kmalloc -e kmem:kfree -e kmem:kmem_cache_alloc -e kmem:kmem_cache_free)

check() {	# NAME MIN_ROWS: the recording $W/NAME.dat
	local name=$1 min=$2 rows

	trace-cmd mem -i "$W/$name.dat" > "$W/$name.tc" 2> "$W/$name.tc.err" ||
		{ fail "$name: trace-cmd mem failed: $(head -3 "$W/$name.tc.err")"; return; }
	"$K" mem -i "$W/$name.dat" > "$W/$name.kt" 2> "$W/$name.kt.err" ||
		{ fail "$name: ktrace mem failed: $(head -3 "$W/$name.kt.err")"; return; }
	if ! cmp -s "$W/$name.tc" "$W/$name.kt"; then
		fail "$name: ktrace mem differs from trace-cmd mem:"
		diff "$W/$name.tc" "$W/$name.kt" | head -20 >&2
		return
	fi
	rows=$(($(wc -l < "$W/$name.kt") - 2))
	if [ "$rows" -lt "$min" ]; then
		fail "$name: $rows call sites, expected at least $min"
		return
	fi
	echo "ok: $name: $rows call sites, as trace-cmd mem"
}

"$K" record -q -o "$W/all.dat" "${EV[@]}" -- sh -c 'ls -lR /usr/include > /dev/null' \
	2> "$W/record.err" || fail "record failed: $(cat "$W/record.err")"
check all 20
"$K" record -q -o "$W/one.dat" "${EV[@]}" -F -- sh -c 'ls -l /usr/bin /etc > /dev/null' \
	2> "$W/record.err" || fail "record -F failed: $(cat "$W/record.err")"
check one 5
[ "$(state)" = "$before" ] || fail "tracefs's set_event or tracing_on changed"
[ "$FAILS" = 0 ]
