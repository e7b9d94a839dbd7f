#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# report's looking-glass flags against trace-cmd 3.1.6 (--boundary and --debug on every file
# are in run_matrix.sh):
#   --ts-check on a file whose CPU 0 goes back in time (its second page's header moved to the
#     first page's time): the same warnings on stderr, the same events; -q silences them;
#     nothing on a file in order
#   -V/--verbose: "version = N" and the plugins registered, in trace-cmd's order; the same
#     handler messages (ktrace registers the function_graph ones later, so the order differs);
#     the same events; a bad level is one line naming the flag
#   --debug on a file with an instance: "CPU N is empty" where trace-cmd says it
#
#   run_debug_flags.sh KTRACE CORPUS_DIR
set -u

KTRACE=$1
corpus=$2
. "$(dirname "$0")/../lib.sh"
need_trace_cmd

both() {	# NAME FILE OPTION...: stdout and stderr of each tool in $W/NAME.{tc,kt}{,.err}
	local name=$1 file=$2

	shift 2
	(cd "$(dirname "$file")" && "${CLEAN_ENV[@]}" trace-cmd report "$@" -i "$(basename "$file")" \
		> "$W/$name.tc" 2> "$W/$name.tc.err")
	echo $? > "$W/$name.tc.rc"
	(cd "$(dirname "$file")" && "${CLEAN_ENV[@]}" "$KTRACE" report "$@" -i "$(basename "$file")" \
		> "$W/$name.kt" 2> "$W/$name.kt.err")
	echo $? > "$W/$name.kt.rc"
}

same() {	# NAME SUFFIX WHAT
	if cmp -s "$W/$1.tc$2" "$W/$1.kt$2"; then
		pass "$1: $3 as trace-cmd's"
	else
		fail "$1: $3 differs from trace-cmd's:"
		diff "$W/$1.tc$2" "$W/$1.kt$2" | head -10
	fi
}

# --- --ts-check
src=$corpus/sched_v6.dat
cp "$src" "$W/back.dat"
# CPU 0's data: two pages at the offset dump gives; page 2 gets page 1's header time
cpu0=$("$KTRACE" dump --flyrecord -i "$src" | awk '/size of cpu 0/ { print $1 }')
if [ -z "$cpu0" ]; then
	fail "no CPU 0 data offset in dump --flyrecord of $src"
	finish
fi
dd if="$src" bs=1 skip="$cpu0" count=8 status=none |
	dd of="$W/back.dat" bs=1 seek=$((cpu0 + 4096)) conv=notrunc status=none
both tscheck "$W/back.dat" --ts-check
same tscheck "" "--ts-check events"
same tscheck .err "--ts-check warnings"
n=$(grep -c "WARNING: Record on cpu 0 went backwards" "$W/tscheck.kt.err")
[ "$n" -ge 1 ] && pass "--ts-check: $n warnings" || fail "--ts-check warned of nothing"
both tscheck_q "$W/back.dat" --ts-check -q
[ ! -s "$W/tscheck_q.kt.err" ] && pass "--ts-check -q: no warning" ||
	fail "--ts-check -q printed: $(head -2 "$W/tscheck_q.kt.err")"
both tscheck_ok "$src" --ts-check
[ ! -s "$W/tscheck_ok.kt.err" ] && pass "--ts-check on a file in order: silent" ||
	fail "--ts-check on $src printed: $(head -2 "$W/tscheck_ok.kt.err")"

# --- -V / --verbose
for flag in -V --verbose=debug -V4; do
	both verbose "$corpus/sched.dat" "$flag"
	grep -v "^overriding\|^removing" "$W/verbose.tc" > "$W/verbose.tc.plain"
	grep -v "^overriding\|^removing" "$W/verbose.kt" > "$W/verbose.kt.plain"
	same verbose .plain "$flag: version, plugins and events"
	grep "^overriding" "$W/verbose.tc" | sort > "$W/verbose.tc.handlers"
	grep "^overriding" "$W/verbose.kt" | sort > "$W/verbose.kt.handlers"
	same verbose .handlers "$flag: handler messages"
	[ "$(grep -c "^registering plugin" "$W/verbose.kt")" -ge 1 ] &&
		pass "$flag: plugins named" || fail "$flag: no plugin named"
done
both quiet_level "$corpus/sched.dat" -V1
same quiet_level "" "-V1 (critical only)"
for bad in --verbose=bogus -Vx; do
	"$KTRACE" report "$bad" -i "$corpus/sched.dat" > /dev/null 2> "$W/bad.err"
	rc=$?
	if [ "$rc" != 0 ] && [ "$(wc -l < "$W/bad.err")" = 1 ] &&
	   grep -q "invalid verbose level" "$W/bad.err"; then
		pass "$bad refused: $(cat "$W/bad.err")"
	else
		fail "$bad: exit $rc, $(head -3 "$W/bad.err")"
	fi
done

# --- --debug's library lines on files with empty CPUs and an instance
for f in instance lost; do
	both "debug_$f" "$corpus/$f.dat" --debug
	same "debug_$f" "" "--debug on $f.dat"
done

finish
