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

KTRACE=$1
corpus=$(realpath "$2")
. "$(dirname "$0")/../../interop/lib.sh"
need_trace_cmd
passed=0
failed=0

same() {
	local what=$1 file=$2
	shift 2
	run_clean "$W" trace-cmd "$what" "$@" "$file" > "$W/want" 2>&1
	run_clean "$W" "$KTRACE" "$what" "$@" "$file" > "$W/got" 2>&1
	if cmp -s "$W/want" "$W/got"; then
		passed=$((passed + 1))
	else
		echo "--- $what $* $file differs"
		diff -u "$W/want" "$W/got" | sed -n '3,12p'
		failed=$((failed + 1))
	fi
}

for src in "$corpus"/*.dat; do
	name=$(basename "$src" .dat)
	for variant in "${TC_VARIANTS[@]}"; do
		out=$name$(variant_suffix "$variant")
		if ! tc_convert "$src" "$W/$out" "$variant"; then
			echo "--- trace-cmd convert failed for $out"
			failed=$((failed + 1))
			continue
		fi
		same dump "$out" --all
		same report "$out"
		rm -f "$W/$out" "$W/$out.log"
	done
done

echo "converted corpus: $passed identical, $failed different"
[ "$passed" -gt 0 ] && [ "$failed" -eq 0 ]
