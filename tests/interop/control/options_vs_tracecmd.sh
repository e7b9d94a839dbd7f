#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# ktrace options prints the plugin options byte for byte as trace-cmd options 3.1.6 (the
# libtraceevent plugins' options, then trace-cmd's own fgraph ones), and refuses what it does
# not take with one line.
#   options_vs_tracecmd.sh KTRACE
KTRACE=${1:?usage: options_vs_tracecmd.sh KTRACE}
. "$(dirname "$0")/../lib.sh"
need_trace_cmd

run_clean "$W" trace-cmd options > "$W/tc" 2> "$W/tc.err" || fail "trace-cmd options exited $?"
run_clean "$W" "$KTRACE" options > "$W/kt" 2> "$W/kt.err" || fail "ktrace options exited $?"
if cmp -s "$W/tc" "$W/kt"; then
	pass "same output as trace-cmd options ($(wc -l < "$W/kt") lines)"
else
	fail "ktrace options differs from trace-cmd options:"
	diff "$W/tc" "$W/kt" | head -20
fi
[ -s "$W/kt.err" ] && fail "ktrace options wrote to stderr: $(cat "$W/kt.err")"
# the comparison means something only with the plugins and fgraph in it
grep -q 'plugin:	fgraph' "$W/kt" || fail "no fgraph option listed"
[ "$(grep -c '^  plugin:' "$W/kt")" -ge 4 ] || fail "fewer than 4 options listed"

for args in "-x" "stray" "--all"; do
	# shellcheck disable=SC2086 # one flag or word each
	"$KTRACE" options $args > "$W/out" 2> "$W/err" && fail "ktrace options $args succeeded"
	[ "$(wc -l < "$W/err")" = 1 ] && grep -q -e "'$args'" "$W/err" ||
		fail "ktrace options $args: not one line naming it: $(cat "$W/err")"
	[ -s "$W/out" ] && fail "ktrace options $args printed on stdout"
done
"$KTRACE" options > /dev/full 2> "$W/err" && fail "ktrace options to a full disk succeeded"
grep -q 'No space' "$W/err" || fail "full disk: $(cat "$W/err")"
finish "$W/kt.err"
