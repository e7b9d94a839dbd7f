#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Every `trace-cmd report ...` row of the corpus as trace-cmd 3.4 printed it (tests/data/
# corpus-3.4, made from /work/shared/corpus-3.4: see its README), through `ktrace report
# --layout 3.4`, byte for byte, with the exit status. A row whose 3.4 output equals 3.1.6's
# names the 3.1.6 file (../corpus/NAME) instead of a copy.
#
#   run_corpus34.sh KTRACE CORPUS_DIR CORPUS34_DIR [KNOWN_FAILURES] [PATTERN]
#
# KNOWN_FAILURES, as in run_corpus.sh: expected-output names (first column) of rows known to
# differ, which must still differ. PATTERN (grep -E on the expected name) restricts the run.
set -u

KTRACE=$1
corpus=$2
corpus34=$3
known=${4:-}
pattern=${5:-.}
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
	run_clean "$corpus" "$KTRACE" report --layout 3.4 "$@" >"$out" 2>"$W/err"
	rc=$?
	if ! cmp -s "$corpus34/$expected" "$out"; then
		echo "--- $expected: output differs ($cmd)"
		diff -u "$corpus34/$expected" "$out" | sed -n '3,12p'
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

while IFS=$'\t' read -r expected cmd status; do
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
done < <(tail -n +2 "$corpus34/MANIFEST.tsv")

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
