#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Runs one libFuzzer target for a while from its seeds; fails on any crash, leak, timeout or
# undefined behaviour, leaving the input that caused it where the log says.
# usage: run.sh TARGET SEEDS_DIR SECONDS [CORPUS_DIR]
#   CORPUS_DIR keeps what the fuzzer found between runs (scripts/fuzz); default: a temp dir.
#   FUZZ_SEED: libFuzzer's -seed, 1 by default, so that the suite's run walks the same inputs
#   every time (a test that passed passes again; a slower machine walks a prefix of them) and
#   a new crash is found by scripts/fuzz's long runs (random seeds), not by chance in CI.
set -eu
bin=$1 seeds=$2 secs=$3
here=$(cd "$(dirname "$0")" && pwd)
name=$(basename "$bin")
work=$(mktemp -d "${TMPDIR:-/tmp}/ktrace-$name.XXXXXX")
corpus=${4:-$work/corpus}
mkdir -p "$corpus"
# ASan's and UBSan's defaults, but any report is fatal and leaks are hunted too.
# libtraceevent allocates a lot: a 16 MB quarantine (not 256: every input is small), no filling
# of new blocks and two frames of allocation stack make each input about 2.5 times as fast
# (20 frames, recorded for each token libtraceevent's parser allocates, cost fuzz_dat a quarter
# more CPU per input). The stack of a bad access is whole whatever this says; for the allocation
# and free stacks of a report, replay its input with ASAN_OPTIONS unset (README).
export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1:malloc_context_size=2:quarantine_size_mb=16:max_malloc_fill_size=0}"
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$here/lsan.supp:print_suppressions=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
status=0
# a target's dictionary, when it has one (filter.dict: the tokens of a -F filter)
dict=$here/${name#fuzz_}.dict
set --
[ -f "$dict" ] && set -- -dict="$dict"
# fuzz_format: nothing of ktrace's allocates on its path (dat_format_guard.c does not), while
# libtraceevent leaks on most damaged formats: libFuzzer's leak check after each such input
# (run it again, scan the heap) would only find the library's leaks, at 6 times the cost
[ "$name" = fuzz_format ] && set -- "$@" -detect_leaks=0
# fuzz_sqlhist: libtracefs 1.6.4's SQL parser leaks on many refused queries (an unknown event:
# the first error message, replaced by the second), and nothing of ktrace's allocates there
# (LeakSanitizer's own check at exit too: it would report the library's leaks of the whole run)
[ "$name" = fuzz_sqlhist ] && set -- "$@" -detect_leaks=0 &&
	export ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0"
set -- "$@" -seed="${FUZZ_SEED:-1}"
# A hang is caught by the targets' CPU budget (fuzz_cpu_budget.c, 10 s of CPU per input), which
# load does not inflate; the wall-clock -timeout only catches an input that blocks.
# Inputs up to 32 KB, or the largest seed if that is longer: libFuzzer cuts a seed past -max_len
# (a v6 seed of fuzz_dat loses its last pages, and the last byte that picks its command);
# larger inputs mostly cost time.
max_len=$(find "$seeds" -type f -exec wc -c {} + |
	awk '$2 != "total" && $1 > m { m = $1 } END { print (m > 32768 ? m : 32768) }')
# stdout and stderr of the code under test are the report's output and its error lines:
# closed (close_fd_mask), libFuzzer and the sanitizers keep their own copy of stderr.
"$bin" "$@" -max_total_time="$secs" -timeout=200 -max_len="$max_len" -rss_limit_mb=2048 \
	-close_fd_mask=3 -print_final_stats=1 -artifact_prefix="$work/" "$corpus" "$seeds" \
	>"$work/log" 2>&1 ||
	status=$?
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log")
if [ "$status" != 0 ]; then
	tail -n 60 "$work/log"
	echo "$name: FAILED after ${runs:-?} executions; input(s):" "$work"/crash-* "$work"/leak-* \
		"$work"/timeout-* "$work"/oom-* 2>/dev/null
	echo "$name: add the input to tests/fuzz/regressions/${name#fuzz_}/ once fixed"
	exit 1
fi
echo "$name: $runs executions in $secs s, no crash, leak, hang or undefined behaviour"
grep -E '^(stat::|INFO: seed corpus|#[0-9]+ *DONE)' "$work/log" || true
rm -rf "$work"
