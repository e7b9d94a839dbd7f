#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# trace-cmd 3.4's input rules under `report --layout 3.4` (trace-read.c of 3.4; no 3.4 binary
# is at hand, so each case is checked against the -i form it must equal):
#  - every bare FILE after the first is one more input (3.1.6 reads the first only);
#  - a -F before the first input filters every file (before the file's own -F), and so do
#    the first file's later -F (3.4's first file shares the global list);
#  - -i and a bare FILE together are refused (exit 255).
#
#   run_multi34.sh KTRACE CORPUS_DIR
set -u

KTRACE=$1
corpus=$(realpath "$2")
. "$(dirname "$0")/../lib.sh"

kt() {	# ARG...: ktrace report --layout 3.4 ARG... in the corpus, stdout in $W/out.N
	n=$((n + 1))
	run_clean "$corpus" "$KTRACE" report --layout 3.4 "$@" > "$W/out.$n" 2> "$W/err.$n"
	echo $? > "$W/rc.$n"
}
n=0

# same WHAT ARGS1... -- ARGS2...: both runs succeed, print the same, more than a header
same() {
	local what=$1 a b
	shift
	local -a one=()
	while [ "$1" != "--" ]; do
		one+=("$1")
		shift
	done
	shift
	kt "${one[@]}"
	a=$n
	kt "$@"
	b=$n
	if [ "$(cat "$W/rc.$a")" != 0 ] || [ "$(cat "$W/rc.$b")" != 0 ]; then
		fail "$what: exit status $(cat "$W/rc.$a")/$(cat "$W/rc.$b"): $(head -1 "$W/err.$a")"
	elif ! cmp -s "$W/out.$a" "$W/out.$b"; then
		fail "$what: '${one[*]}' and '$*' differ"
		diff "$W/out.$a" "$W/out.$b" | head -6
	elif [ "$(wc -l < "$W/out.$a")" -lt 4 ]; then
		fail "$what: '${one[*]}' printed almost nothing"
	else
		pass "$what ($(wc -l < "$W/out.$a") lines)"
	fi
}

f='sched_switch: prev_pid != 0'
same "bare files are all inputs" sched.dat sched_v6.dat sched_zstd.dat -- \
	-i sched.dat -i sched_v6.dat -i sched_zstd.dat
same "-F before bare files filters each" -F "$f" sched.dat sched_v6.dat -- \
	-i sched.dat -F "$f" -i sched_v6.dat -F "$f"
same "-F before the first -i filters each" -F "$f" -i sched.dat -i sched_v6.dat -- \
	-i sched.dat -F "$f" -i sched_v6.dat -F "$f"
same "the first file's later -F joins the global ones" \
	-F sched_switch -i sched.dat -F 'sched_switch: next_pid != 0' -i sched_v6.dat -- \
	-i sched.dat -F sched_switch -F 'sched_switch: next_pid != 0' \
	-i sched_v6.dat -F sched_switch -F 'sched_switch: next_pid != 0'
# without a -F before the first -i, the first file's -F stays its own: the second file's
# sched_wakeup lines are there
kt -i sched.dat -F sched_switch -i sched_v6.dat
if grep -q "sched_v6.dat: .*sched_wakeup:" "$W/out.$n" &&
   ! grep -q "^ *sched.dat: .*sched_wakeup:" "$W/out.$n"; then
	pass "a -F after the first -i filters that file only"
else
	fail "a -F after the first -i filters that file only: $(head -1 "$W/err.$n")"
fi
# the 3.1 layout keeps 3.1.6's rule: the first bare file only
run_clean "$corpus" "$KTRACE" report sched.dat sched_v6.dat > "$W/a" 2>&1
run_clean "$corpus" "$KTRACE" report -i sched.dat > "$W/b" 2>&1
cmp -s "$W/a" "$W/b" && pass "--layout 3.1: one bare file" ||
	fail "--layout 3.1: 'report sched.dat sched_v6.dat' is not 'report -i sched.dat'"
kt -i sched.dat sched_v6.dat
[ "$(cat "$W/rc.$n")" = 255 ] && [ "$(wc -l < "$W/err.$n")" = 1 ] &&
	pass "-i and a bare file refused" ||
	fail "-i and a bare file: exit status $(cat "$W/rc.$n"), $(cat "$W/err.$n")"
finish
