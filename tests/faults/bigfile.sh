#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Resource bounds: ktrace report streams a file, its memory does not grow with it. bigdat writes
# a SMALL_MB and a BIG_MB trace.dat of the same events (no kernel); report of each goes to
# /dev/null under /usr/bin/time, and the big file's peak RSS must stay within 1.2x + 4 MB of the
# small one's. report must print every event written (counted by its lines, one per event).
# Usage: bigfile.sh KTRACE BIGDAT [BIG_MB] [SMALL_MB]   (BIGFILE_DIR: where the files go, /tmp)
set -u
K=$(realpath "$1")
GEN=$(realpath "$2")
BIG_MB=${3:-2560}
SMALL_MB=${4:-160}
CPUS=4
ROOT=$(dirname "$0")/../..
W=$(mktemp -d "${BIGFILE_DIR:-/tmp}/ktrace-bigfile.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT

fail() {
	echo "FAIL [bigfile]: $*" >&2
	exit 1
}

[ -x /usr/bin/time ] || "$ROOT/scripts/deps" test || fail "/usr/bin/time is missing (package time)"

# bigdat needs twice the file (the CPU pages, then the file); the small file is written and
# deleted first. A margin of 1 GB for everyone else on this disk.
need=$(( (2 * BIG_MB + 1024) * 1024 ))
free=$(df -Pk "$W" | awk 'NR == 2 { print $4 }')
[ "$free" -ge "$need" ] ||
	fail "$W has $((free / 1024)) MB free, this test needs $((need / 1024)) MB" \
		"(set BIGFILE_DIR to a roomier directory)"

# Writes a MB file, checks report's event count, prints report's peak RSS in KB.
measure() {
	local mb=$1 dat=$W/$1.dat events lines rss
	events=$("$GEN" "$dat" "$mb" "$CPUS") || fail "bigdat could not write $dat ($mb MB)"
	/usr/bin/time -o "$W/time" -f %M "$K" report -i "$dat" 2> "$W/err" |
		grep -c ': cpu [0-9]* page [0-9]* event ' > "$W/lines"
	[ "${PIPESTATUS[0]}" = 0 ] || fail "ktrace report -i $dat ($mb MB) failed: $(head -3 "$W/err")"
	lines=$(cat "$W/lines")
	[ "$lines" = "$events" ] || fail "report of $mb MB printed $lines events, bigdat wrote $events"
	rss=$(tail -1 "$W/time")
	echo "bigfile: $mb MB ($(stat -c %s "$dat") bytes), $events events, report peak RSS $rss KB" >&2
	rm -f "$dat"
	echo "$rss"
}

small=$(measure "$SMALL_MB") || exit 1
big=$(measure "$BIG_MB") || exit 1
limit=$((small * 12 / 10 + 4096))
[ "$big" -le "$limit" ] ||
	fail "report's peak RSS grew with the file: $SMALL_MB MB -> $small KB, $BIG_MB MB ->" \
		"$big KB (limit $limit KB)"
echo "bigfile: ok, peak RSS $small KB ($SMALL_MB MB) and $big KB ($BIG_MB MB), limit $limit KB"
