#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Where ktrace finds tracefs: --tracefs PATH and KTRACE_TRACEFS name it (a path that is not a
# tracefs is one line naming it); without them, a tracefs mounted elsewhere is found in
# /proc/self/mountinfo when /sys/kernel/tracing has none (a container's view), and with no
# tracefs at all ktrace mounts one there. The namespaces are private (unshare -m): the host's
# mounts are not touched. Read-only on tracefs; meson runs it under the tracefs lock.
#   tracefs_path.sh KTRACE
set -u
KT=$(readlink -f "$1")
TMP=$(mktemp -d /tmp/ktrace-tfspath.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

fail() {
	echo "FAIL [tracefs_path]: $*" >&2
	exit 1
}

command -v unshare > /dev/null || fail "unshare (util-linux) is missing"
"$KT" --tracefs "$TMP" list -C 2> "$TMP/err" && fail "--tracefs on a plain directory accepted"
grep -q -- "--tracefs $TMP: is not a tracefs mount" "$TMP/err" || fail "--tracefs: $(cat "$TMP/err")"
KTRACE_TRACEFS=$TMP "$KT" list -C 2> "$TMP/err" && fail "KTRACE_TRACEFS on a plain directory accepted"
grep -q "KTRACE_TRACEFS $TMP: is not a tracefs mount" "$TMP/err" || fail "KTRACE_TRACEFS: $(cat "$TMP/err")"
"$KT" --tracefs 2> "$TMP/err" && fail "--tracefs without a path accepted"
"$KT" list -t > "$TMP/host.txt" || fail "list -t"

mkdir "$TMP/tfs"
# in a private mount namespace: the usual place has no tracefs, one is mounted at $TMP/tfs
unshare -m sh -c "
	mount --make-rprivate / &&
	mount -t tracefs nodev '$TMP/tfs' &&
	{ umount /sys/kernel/debug/tracing 2> /dev/null; umount -l /sys/kernel/debug 2> /dev/null; true; } &&
	umount /sys/kernel/tracing &&
	! [ -e /sys/kernel/tracing/trace ] &&
	'$KT' list -t > '$TMP/found.txt' &&
	'$KT' --tracefs '$TMP/tfs' list -t > '$TMP/named.txt' &&
	KTRACE_TRACEFS='$TMP/tfs' '$KT' list -t > '$TMP/env.txt'
" 2> "$TMP/err" || fail "moved tracefs: $(cat "$TMP/err")"
for f in found named env; do
	cmp -s "$TMP/host.txt" "$TMP/$f.txt" || fail "$f: list -t differs: $(head -c 200 "$TMP/$f.txt")"
done
echo "ok: a tracefs elsewhere is found in mountinfo, and --tracefs/KTRACE_TRACEFS name it"

# no tracefs anywhere: ktrace mounts one at /sys/kernel/tracing (in the namespace only)
unshare -m sh -c "
	mount --make-rprivate / &&
	{ umount /sys/kernel/debug/tracing 2> /dev/null; umount -l /sys/kernel/debug 2> /dev/null; true; } &&
	umount /sys/kernel/tracing &&
	! grep -q ' - tracefs ' /proc/self/mountinfo &&
	'$KT' list -t > '$TMP/mounted.txt' &&
	[ -e /sys/kernel/tracing/trace ]
" 2> "$TMP/err" || fail "no tracefs: $(cat "$TMP/err")"
cmp -s "$TMP/host.txt" "$TMP/mounted.txt" || fail "after mounting: list -t differs"
[ -e /sys/kernel/tracing/trace ] || fail "the host's tracefs is gone"
echo "ok: without any tracefs, ktrace mounts one at /sys/kernel/tracing"
