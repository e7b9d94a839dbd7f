#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs every `trace-cmd dump ...` row of the reference corpus MANIFEST.tsv through
# `ktrace dump` in the corpus folder, with the bare file name as trace-cmd was run, and
# compares stdout byte for byte and the exit status.
#
#   dump_corpus.sh KTRACE CORPUS_DIR
set -u

KTRACE=$1
corpus=$2
. "$(dirname "$0")/../../interop/lib.sh"
out=$W/out
passed=0
failed=0

# awk, not read: empty columns next to each other would merge under IFS=tab
while IFS='|' read -r expected cmd status; do
	eval "set -- ${cmd#trace-cmd dump}"
	run_clean "$corpus" "$KTRACE" dump "$@" >"$out"
	rc=$?
	if ! cmp -s "$corpus/$expected" "$out"; then
		echo "--- $expected: output differs ($cmd)"
		diff -u "$corpus/$expected" "$out" | sed -n '3,22p'
		failed=$((failed + 1))
	elif [ "$rc" != "$status" ]; then
		echo "--- $expected: exit status $rc, trace-cmd gave $status"
		failed=$((failed + 1))
	else
		passed=$((passed + 1))
	fi
done < <(awk -F'\t' 'NR > 1 && $10 ~ /^trace-cmd dump/ { print $9 "|" $10 "|" $11 }' \
	"$corpus/MANIFEST.tsv")

echo "dump corpus: $passed identical, $failed different"
[ "$passed" -gt 0 ] && [ "$failed" -eq 0 ]
