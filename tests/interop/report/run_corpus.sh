#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs every `trace-cmd report ...` row of the reference corpus through `ktrace report` and
# compares stdout byte for byte and the exit status with what trace-cmd 3.1.6 gave; with
# --layout 3.4, through `ktrace report --layout 3.4` against what trace-cmd 3.4 printed
# (CORPUS34_DIR: tests/data/corpus-3.4, made from /work/shared/corpus-3.4, see its README; a
# row whose 3.4 output equals 3.1.6's names the 3.1.6 file, ../corpus/NAME).
#
#   run_corpus.sh [--layout 3.4 CORPUS34_DIR] KTRACE CORPUS_DIR [KNOWN_FAILURES] [PATTERN]
#
# KNOWN_FAILURES lists expected-output file names (first column, tab, then the reason) of rows
# known to differ: such a row must still differ, and any other row must match. PATTERN (a grep
# -E regex on the expected-output name) restricts the run, for use by hand.
set -u

layout=()
expected_dir=
if [ "${1:-}" = --layout ]; then
	layout=(--layout "$2")
	expected_dir=$3
	shift 3
fi
KTRACE=$1
corpus=$2
known=${3:-}
pattern=${4:-.}
expected_dir=${expected_dir:-$corpus}
. "$(dirname "$0")/../lib.sh"

passed=0
failed=0

is_known() {
	[ -n "$known" ] && [ -f "$known" ] && grep -q -P "^\\Q$1\\E\t" "$known"
}

# One row: 0 when stdout and the exit status match.
run_row() {
	local expected=$1 cmd=$2 status=$3 out="$W/out" rc

	eval "set -- ${cmd#trace-cmd report}"
	run_clean "$corpus" "$KTRACE" report "${layout[@]}" "$@" >"$out" 2>"$W/err"
	rc=$?
	if ! cmp -s "$expected_dir/$expected" "$out"; then
		echo "--- $expected: output differs ($cmd)"
		diff -u "$expected_dir/$expected" "$out" | sed -n '3,22p'
		head -n 3 "$W/err"
		return 1
	fi
	if [ "$rc" != "$status" ]; then
		echo "--- $expected: exit status $rc, expected $status ($cmd)"
		head -n 3 "$W/err"
		return 1
	fi
	return 0
}

# The rows: expected output, command, exit status. Tabs are blanks to `read`, so empty columns
# would shift: the three are taken with awk (the 3.4 manifest has just those three).
rows() {
	if [ ${#layout[@]} -gt 0 ]; then
		awk -F'\t' 'NR > 1 { print $1 "\x1f" $2 "\x1f" $3 }' "$expected_dir/MANIFEST.tsv"
	else
		awk -F'\t' 'NR > 1 { print $9 "\x1f" $10 "\x1f" $11 }' "$corpus/MANIFEST.tsv"
	fi
}

while IFS=$'\x1f' read -r expected cmd status; do
	case "$cmd" in
	"trace-cmd report"*) ;;
	*) continue ;;
	esac
	echo "$expected" | grep -q -E -- "$pattern" || continue
	if run_row "$expected" "$cmd" "$status"; then
		if is_known "$expected"; then
			echo "--- $expected: listed as known failure but now matches; remove it from the list"
			failed=$((failed + 1))
		else
			passed=$((passed + 1))
		fi
	elif is_known "$expected"; then
		echo "    (known failure: $(grep -P "^\\Q$expected\\E\t" "$known" | cut -f2-))"
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
	fi
done < <(rows)

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
