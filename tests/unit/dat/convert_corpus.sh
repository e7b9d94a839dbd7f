#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The corpus holds one v6 and one uncompressed file; `trace-cmd convert` makes the rest: every
# corpus file as v6, v7 uncompressed and v7 zstd. Each must give the same `dump --all` and the
# same `report` from ktrace as from trace-cmd 3.1.6 (the reader's layouts, instances and
# compressions, end to end).
#
#   convert_corpus.sh KTRACE CORPUS_DIR
set -u

ktrace=$(realpath "$1")
corpus=$(realpath "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0
failed=0

same() {
	local what=$1 file=$2
	shift 2
	(cd "$work" && env -i PATH=/usr/bin:/bin HOME=/nonexistent LC_ALL=C \
		trace-cmd "$what" "$@" "$file" >want 2>&1)
	(cd "$work" && env -i PATH=/usr/bin:/bin HOME=/nonexistent LC_ALL=C \
		"$ktrace" "$what" "$@" "$file" >got 2>&1)
	if cmp -s "$work/want" "$work/got"; then
		passed=$((passed + 1))
	else
		echo "--- $what $* $file differs"
		diff -u "$work/want" "$work/got" | sed -n '3,12p'
		failed=$((failed + 1))
	fi
}

for src in "$corpus"/*.dat; do
	name=$(basename "$src" .dat)
	for variant in "6" "7 none" "7 zstd"; do
		set -- $variant
		out="$name-v$1${2:+-$2}.dat"
		if ! trace-cmd convert --file-version "$1" ${2:+--compression "$2"} -i "$src" \
			-o "$work/$out" >/dev/null 2>&1; then
			echo "--- trace-cmd convert failed for $out"
			failed=$((failed + 1))
			continue
		fi
		same dump "$out" --all
		same report "$out"
		rm -f "$work/$out"
	done
done

echo "converted corpus: $passed identical, $failed different"
[ "$passed" -gt 0 ] && [ "$failed" -eq 0 ]
