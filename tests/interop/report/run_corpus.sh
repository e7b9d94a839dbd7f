#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs every `trace-cmd report ...` row of the reference corpus through `ktrace report` and
# compares stdout byte for byte and the exit status with what trace-cmd 3.1.6 gave.
#
#   run_corpus.sh KTRACE CORPUS_DIR [KNOWN_FAILURES] [PATTERN]
#
# KNOWN_FAILURES lists expected-output file names (first column, tab, then the reason) of rows
# known to differ: such a row must still differ, and any other row must match. PATTERN (a grep
# -E regex on the expected-output name) restricts the run, for use by hand.
set -u

KTRACE=$1
corpus=$2
known=${3:-}
pattern=${4:-.}
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
	run_clean "$corpus" "$KTRACE" report "$@" >"$out" 2>"$W/err"
	rc=$?
	if ! cmp -s "$corpus/$expected" "$out"; then
		echo "--- $expected: output differs ($cmd)"
		diff -u "$corpus/$expected" "$out" | sed -n '3,22p'
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

# Tabs are blanks to `read`, so empty columns would shift: take the three we need with awk.
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
done < <(awk -F'\t' 'NR > 1 { print $9 "\x1f" $10 "\x1f" $11 }' "$corpus/MANIFEST.tsv")

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
