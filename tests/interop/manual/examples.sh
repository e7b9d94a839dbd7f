#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Every man page's EXAMPLES that read trace.dat files run as printed, on the corpus: each
# command line is taken from man/*.1 (".TP/.B" items, ".nf" blocks, "$ " prompts where a block
# shows output too), run by bash in a scratch directory where the file names the examples use
# are corpus recordings, and must exit 0 and print something or write the file it names
# (-o, convert's output). Examples that need tracefs, a network peer or a workload (record,
# listen, start, ...) are counted as such and left to the kernel and interop suites. Then
# `ktrace help`'s topics are exactly the commands with a page.
#   examples.sh KTRACE MAN_DIR CORPUS_DIR
set -u
KTRACE=$1
MAN=$(realpath "$2")
CORPUS=$(realpath "$3")
. "$(dirname "$0")/../lib.sh"
need_trace_cmd
for tool in jq sqlite3; do
	command -v $tool > /dev/null || { echo "FAIL: $tool is missing: run scripts/deps test"; exit 1; }
done

# The commands that only read files (and write their outputs).
FILE_COMMANDS=" report dump convert export hist sql split "
# corpus_for NAME COMMAND: the corpus recording an example's file NAME stands for. trace.dat,
# the default input, is the scheduler recording, or the system-call one for an example about
# system calls.
corpus_for() {
	case $1 in
	trace.dat) [[ $2 == *syscall* ]] && echo syscalls_irq.dat || echo sched.dat ;;
	graph.dat) echo fgraph_depth.dat ;;
	t.dat | run.dat | old.dat) echo sched.dat ;;
	*) [ -f "$CORPUS/$1" ] && echo "$1" ;;
	esac
}

# examples PAGE: its EXAMPLES' command lines, de-roffed, one per line.
examples() {
	awk '
	function unroff(s) { gsub(/\\-/, "-", s); gsub(/\\\\/, "\\", s); gsub(/\\\(aq/, "'\''", s); return s }
	/^\.SH / { ex = ($2 == "EXAMPLES"); next }
	!ex { next }
	/^\.nf/ { nf = 1; n = 0; prompt = 0; next }
	/^\.fi/ {
		nf = 0
		for (i = 1; i <= n; i++) {
			l = lines[i]
			if (prompt && l !~ /^\$ /) continue
			sub(/^\$ /, "", l); sub(/[ \t]+# .*$/, "", l)
			if (l != "") print l
		}
		next
	}
	nf {
		l = unroff($0)
		# a continued line joins the next
		if (cont) { lines[n] = lines[n] " " l; sub(/^ +/, "", l) } else lines[++n] = l
		cont = (lines[n] ~ /\\$/); if (cont) sub(/ *\\$/, "", lines[n])
		if (l ~ /^\$ /) prompt = 1
		next
	}
	prev == ".TP" && /^\.B / { sub(/^\.B /, ""); print unroff($0) }
	{ prev = $0 }' "$1"
}

run=0
skipped=0
for page in "$MAN"/*.1; do
	name=$(basename "$page" .1)
	i=0
	while IFS= read -r cmd; do
		i=$((i + 1))
		sub=$(awk '{ for (j = 1; j <= NF; j++) if ($j ~ /^ktrace$/) { print $(j + 1); exit } }' \
			<<< "$cmd")
		if [[ $FILE_COMMANDS != *" $sub "* ]]; then
			skipped=$((skipped + 1))
			continue
		fi
		d=$W/$name.$i
		mkdir -p "$d"
		for f in trace.dat $(grep -o '[A-Za-z0-9_.-]*\.dat' <<< "$cmd"); do
			c=$(corpus_for "$f" "$cmd")
			[ -n "$c" ] && cp -n "$CORPUS/$c" "$d/$f"
		done
		# An input that a recording of the page's previous example made (-i FILE): the
		# kernel suite's part.
		in=$(grep -o -- '-i [^ ]*' <<< "$cmd" | head -1 | cut -c4-)
		if [ -n "$in" ] && [ ! -f "$d/$in" ]; then
			skipped=$((skipped + 1))
			continue
		fi
		out=$(grep -o -- '\(-o\|--perfetto\|--parquet\) [^ ]*' <<< "$cmd" | head -1 |
			sed 's/^[^ ]* //')
		[ "$sub" = convert ] && [ -z "$out" ] && out=$(awk '{ print $NF }' <<< "$cmd")
		[[ $out == *.dat ]] || [[ $out == *.pftrace ]] || [[ $out == *.db ]] ||
			[[ $cmd == *--parquet* ]] || [ "$sub" = split ] || out=
		# sqlite3 in an example opens a shell: give it a query instead of a terminal.
		if (cd "$d" && PATH=$(dirname "$KTRACE"):$PATH timeout 60 bash -o pipefail -c "$cmd") \
			< <(echo 'SELECT count(*) FROM events;') > "$d/stdout" 2> "$d/stderr"; then
			# --parquet DIR: a directory of tables
			if [ -s "$d/stdout" ] || { [ -n "$out" ] && [ -f "$d/$out" ] && [ -s "$d/$out" ]; } ||
			   { [ -n "$out" ] && [ -d "$d/$out" ] && [ -n "$(ls -A "$d/$out")" ]; } ||
			   { [ "$sub" = split ] && ls "$d" | grep -q '\.dat\.[0-9]\|part'; }; then
				pass "$name: $cmd"
			else
				fail "$name: $cmd: no output"; cat "$d/stderr"
			fi
		else
			fail "$name: $cmd: exit status $?"; head -5 "$d/stderr"
		fi
		run=$((run + 1))
	done < <(examples "$page")
done
[ "$run" -ge 10 ] && pass "$run examples run, $skipped need tracefs, a peer or a workload" ||
	fail "only $run examples found to run ($skipped skipped): is the extraction broken?"

# ktrace help's topics and the pages: the same commands.
topics=$("$KTRACE" help | awk '/^commands:/ { c = 1; next } !NF { c = 0 } c { print $1 }' |
	grep -v -x -e help -e version | sort)
pages=$(ls "$MAN" | sed -n 's/^ktrace-\(.*\)\.1$/\1/p' | sort)
if [ "$topics" = "$pages" ] && [ -n "$topics" ]; then
	pass "ktrace help's $(wc -l <<< "$topics") topics are the pages' commands"
else
	fail "ktrace help topics and man pages differ:"; diff <(echo "$topics") <(echo "$pages")
fi
for t in $topics; do
	"$KTRACE" help "$t" > "$W/help.txt" 2>&1 && grep -q "$t" "$W/help.txt" ||
		fail "ktrace help $t"
done
finish
