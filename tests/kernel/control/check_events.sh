#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# ktrace check-events on the live tracefs, compared with trace-cmd check-events 3.1.6.
#
# What trace-cmd gives to compare with: it parses the same formats with the same
# libtraceevent and plugins, but prints nothing on stdout and exits 0 whatever fails (it
# computes EINVAL and drops it; and libtracefs counts only formats the library refuses
# outright, not the events kept as "failed", which is what fails on 6.18: dma's sg events,
# maple_tree's, kvm_inj_exception, mc_event). Its --verbose shows libtraceevent's warnings, and
# only some name their event ("[kvm:kvm_inj_exception] bad op token }"). So: the same exit
# status, the same (empty) stderr, and every event trace-cmd names is in ktrace's list, with
# and without -N. Reads tracefs only; run under flock /tmp/ktrace-tracefs.lock (meson does).
#   check_events.sh KTRACE
set -u
KT=$(readlink -f "$1")
TMP=$(mktemp -d /tmp/ktrace-check-events.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

command -v trace-cmd > /dev/null || fail "trace-cmd (the peer, 3.1.6) is not installed"
[ -r /sys/kernel/tracing/events/header_page ] || fail "tracefs is not readable (not root?)"

for mode in plugins no_plugins; do
	flag=
	[ $mode = no_plugins ] && flag=-N
	# shellcheck disable=SC2086 # no flag, or -N
	trace-cmd check-events $flag > "$TMP/tc.$mode" 2> "$TMP/tc.err.$mode"
	tc_status=$?
	"$KT" check-events $flag > "$TMP/kt.$mode" 2> "$TMP/kt.err.$mode"
	kt_status=$?
	[ "$kt_status" = "$tc_status" ] ||
		fail "check-events $flag: ktrace exited $kt_status, trace-cmd $tc_status"
	[ -s "$TMP/tc.$mode" ] && fail "trace-cmd check-events $flag printed (a newer one?): " \
		"$(head -3 "$TMP/tc.$mode"); compare the lists then"
	[ -s "$TMP/kt.err.$mode" ] && fail "ktrace check-events $flag: $(cat "$TMP/kt.err.$mode")"
	# one sorted "SYSTEM:EVENT: why" line per failing event
	grep -v -E '^[A-Za-z0-9_]+:[A-Za-z0-9_.-]+: [a-z]' "$TMP/kt.$mode" &&
		fail "check-events $flag: lines not 'SYSTEM:EVENT: why'"
	sort -c "$TMP/kt.$mode" || fail "check-events $flag: not sorted"
	cut -d: -f1,2 "$TMP/kt.$mode" > "$TMP/kt_events.$mode"

	# shellcheck disable=SC2086
	trace-cmd check-events $flag --verbose=warning > /dev/null 2> "$TMP/tc.warn.$mode"
	sed -n 's/^ *\[\([^]:]*:[^]]*\)\].*/\1/p' "$TMP/tc.warn.$mode" | sort -u \
		> "$TMP/tc_events.$mode"
	missing=$(comm -23 "$TMP/tc_events.$mode" "$TMP/kt_events.$mode")
	[ -z "$missing" ] || fail "check-events $flag: trace-cmd warns about $missing, ktrace not"
	echo "$mode: status $kt_status as trace-cmd; $(wc -l < "$TMP/kt.$mode") failing," \
	     "$(wc -l < "$TMP/tc_events.$mode") named by trace-cmd --verbose, all listed"
done

# Without the plugins, everything that failed with them still fails, and more: their print
# helpers (jbd2, kvmmmu) are missing.
[ -z "$(comm -23 "$TMP/kt_events.plugins" "$TMP/kt_events.no_plugins")" ] ||
	fail "an event fails with the plugins but not without"
[ "$(wc -l < "$TMP/kt_events.no_plugins")" -gt "$(wc -l < "$TMP/kt_events.plugins")" ] ||
	fail "-N lists no more than the plugins' run: were the plugins loaded?"

# Usage errors: trace-cmd's status 255, one line naming the flag.
for args in -x stray -B; do
	"$KT" check-events $args > "$TMP/out" 2> "$TMP/err"
	status=$?
	[ $status = 255 ] || fail "check-events $args exited $status, not 255 as trace-cmd"
	[ "$(wc -l < "$TMP/err")" = 1 ] && grep -q -e "'$args'" "$TMP/err" ||
		fail "check-events $args: not one line naming it: $(cat "$TMP/err")"
	[ -s "$TMP/out" ] && fail "check-events $args printed on stdout"
done
"$KT" check-events > /dev/full 2> "$TMP/err" && fail "check-events to a full disk succeeded"
echo "ok check_events"
