# SPDX-License-Identifier: GPL-2.0-only
# Sourced (bash) by the interop tests, by path: . "$(dirname "$0")/../lib.sh". What they all need:
# a scratch directory, failures counted into one exit status, trace-cmd 3.1.6 (the peer) at
# hand, and both tools run as the corpus expectations were made. The caller sets KTRACE (the
# binary under test) first; sourcing makes it an absolute path and makes W, the scratch
# directory, removed at exit unless KEEP is set.
#
#   at_exit COMMAND      runs COMMAND at exit, the last registered first
#   fail / pass MESSAGE  one line each; fail counts into FAILS
#   finish [LOG...]      exits 1, showing each LOG, if anything failed, else 0
#   need_trace_cmd       trace-cmd installed by scripts/deps where missing, or a loud failure
#   run_clean DIR CMD... CMD in DIR with the environment the corpus expectations were made in
#   same_reports NAME FILE [OPTION...]   trace-cmd report = ktrace report
#   tc_convert SRC OUT VARIANT           trace-cmd convert SRC to OUT, VARIANT of TC_VARIANTS

FAILS=0
AT_EXIT=()

run_at_exit() {
	local i

	for ((i = ${#AT_EXIT[@]} - 1; i >= 0; i--)); do
		eval "${AT_EXIT[$i]}"
	done
}
trap run_at_exit EXIT

at_exit() {
	AT_EXIT+=("$1")
}

KTRACE=$(realpath "$KTRACE")
W=$(mktemp -d "/tmp/ktrace-$(basename "$0" .sh).XXXXXX") || exit 1
at_exit '[ -n "${KEEP:-}" ] || rm -rf "$W"'

fail() {
	echo "FAIL: $*"
	FAILS=$((FAILS + 1))
}

pass() {
	echo "ok: $*"
}

finish() {	# [LOG...]: files worth reading when something failed
	local log

	if [ "$FAILS" != 0 ]; then
		for log; do
			echo "--- $log"
			cat "$log" 2>/dev/null
		done
		echo "$FAILS failure(s)"
		exit 1
	fi
	echo "all passed"
	exit 0
}

# Every expectation was made against trace-cmd 3.1.6: a test without it must not pass by
# comparing nothing.
need_trace_cmd() {
	command -v trace-cmd > /dev/null && return 0
	"$(dirname "${BASH_SOURCE[0]}")/../../scripts/deps" test >&2
	command -v trace-cmd > /dev/null && return 0
	fail "trace-cmd is missing: run scripts/deps test as root (Debian package trace-cmd)"
	finish
}

# A clean environment (no locale, no ~/.traceevent plugins), but an ASan build
# (scripts/sanitize) keeps its settings: without them a suppressed leak inside libtraceevent
# would change ktrace's exit status.
CLEAN_ENV=(env -i PATH=/usr/bin:/bin HOME=/nonexistent LC_ALL=C)
for v in ASAN_OPTIONS LSAN_OPTIONS UBSAN_OPTIONS; do
	[ -z "${!v:-}" ] || CLEAN_ENV+=("$v=${!v}")
done

run_clean() {	# DIR COMMAND...
	local dir=$1

	shift
	(cd "$dir" && "${CLEAN_ENV[@]}" "$@")
}

# same_reports NAME FILE [OPTION...]: trace-cmd report and ktrace report of FILE, with the bare
# file name as the corpus was made, both succeed and print the same, at least 3 lines. The
# outputs stay in $W/NAME.tc and $W/NAME.kt; returns 1 after a failure.
same_reports() {
	local name=$1 dir base
	dir=$(dirname "$2")
	base=$(basename "$2")
	shift 2

	run_clean "$dir" trace-cmd report "$@" -i "$base" > "$W/$name.tc" 2>&1 || {
		fail "$name: trace-cmd report failed: $(head -3 "$W/$name.tc")"
		return 1
	}
	run_clean "$dir" "$KTRACE" report "$@" -i "$base" > "$W/$name.kt" 2>&1 || {
		fail "$name: ktrace report failed: $(head -3 "$W/$name.kt")"
		return 1
	}
	if ! cmp -s "$W/$name.tc" "$W/$name.kt"; then
		fail "$name: ktrace report differs from trace-cmd report:"
		diff "$W/$name.tc" "$W/$name.kt" | head -20
		return 1
	fi
	[ "$(wc -l < "$W/$name.tc")" -ge 3 ] || { fail "$name: too few lines to compare"; return 1; }
}

# What trace-cmd convert makes of a file: "VERSION [COMPRESSION]", and the suffix of its name.
TC_VARIANTS=("6" "7 none" "7 zstd")

variant_suffix() {	# VARIANT
	# shellcheck disable=SC2086 # "7 zstd" is two words
	set -- $1
	echo "-v$1${2:+-$2}.dat"
}

tc_convert() {	# SRC OUT VARIANT: 1, with trace-cmd's message in OUT.log, when it fails
	local src=$1 out=$2

	# shellcheck disable=SC2086 # "7 zstd" is two words
	set -- $3
	trace-cmd convert --file-version "$1" ${2:+--compression "$2"} -i "$src" -o "$out" \
		> "$out.log" 2>&1
}
