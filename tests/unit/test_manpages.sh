#!/bin/sh
# Every command of ktrace's table has a man page that names each of its options.
#
# usage: test_manpages.sh --list MAIN_C           print the command names of src/main.c's table
#        test_manpages.sh KTRACE MANDIR CMD...     check man/ktrace-CMD.1 against `ktrace CMD -h`
#        test_manpages.sh --overview KTRACE MANDIR check that man/ktrace.1 lists every command
#
# --overview takes the commands from the binary (`ktrace __complete commands`: its table, help
# and version), so a new command needs only its entry in ktrace.1: a tagged paragraph
# (.TP, then ".B CMD") in the COMMANDS section. An entry that is not a command fails too.
#
# -h/--help is left out: kt_usage gives it to every command, it is not the command's own.
# An option counts as documented when the page, with roff escapes removed, has it as a whole
# flag: "-i" must not be found only inside "--input".
set -u

if [ "${1:-}" = --list ]; then
	sed -n 's/^[[:space:]]*{ "\([a-z-]*\)", cmd_[a-z_]*,.*/\1/p' "${2:?usage: --list MAIN_C}"
	exit 0
fi
if [ "${1:-}" = --overview ]; then
	KTRACE=${2:?usage: --overview KTRACE MANDIR}
	page=${3:?usage: --overview KTRACE MANDIR}/ktrace.1
	commands=$("$KTRACE" __complete commands) || { echo "ktrace __complete commands failed"; exit 1; }
	[ -n "$commands" ] || { echo "ktrace __complete commands listed nothing"; exit 1; }
	# the tags of the .TP paragraphs between ".SH COMMANDS" and the next .SH
	listed=$(awk '/^\.SH/ { in_cmds = ($0 ~ /^\.SH "?COMMANDS"?$/); next }
		in_cmds && tp && /^\.B / { print $2 } { tp = (in_cmds && /^\.TP/) }' "$page")
	status=0
	for c in $commands; do
		printf '%s\n' "$listed" | grep -q -x -F -e "$c" ||
			{ echo "$page does not list command $c"; status=1; }
	done
	for c in $listed; do
		printf '%s\n' "$commands" | grep -q -x -F -e "$c" ||
			{ echo "$page lists $c, which is not a command"; status=1; }
	done
	[ $status = 0 ] && echo "$page lists all $(echo "$commands" | wc -l) commands"
	exit $status
fi
KTRACE=${1:?usage: test_manpages.sh KTRACE MANDIR CMD...}
MANDIR=${2:?usage: test_manpages.sh KTRACE MANDIR CMD...}
shift 2
[ $# -gt 0 ] || { echo "test_manpages: no command given" >&2; exit 1; }

status=0
for cmd in "$@"; do
	page=$MANDIR/ktrace-$cmd.1
	if [ ! -f "$page" ]; then
		echo "ktrace $cmd: no man page $page"
		status=1
		continue
	fi
	if ! help=$("$KTRACE" "$cmd" -h 2>&1); then
		echo "ktrace $cmd -h failed: $help"
		status=1
		continue
	fi
	# roff: \- is a minus, \fB \fI \fR \f[B] \fP switch fonts, \& is nothing
	text=$(sed -e 's/\\-/-/g' -e 's/\\f\[[A-Z]*\]//g' -e 's/\\f[A-Z]//g' -e 's/\\&//g' "$page")
	flags=$(echo "$help" | grep -E '^  +-' |
		grep -o -E '(^|[ ,])--?[A-Za-z0-9][A-Za-z0-9-]*' | sed 's/^[ ,]//' |
		grep -v -x -e -h -e --help | sort -u)
	# A command without options of its own (options) still shows its usage and -h.
	if [ -z "$flags" ]; then
		if echo "$help" | grep -q "^usage: ktrace $cmd" &&
		   echo "$help" | grep -q -E '^  +-h, --help'; then
			echo "ktrace $cmd: no options besides -h"
		else
			echo "ktrace $cmd -h lists no option"
			status=1
		fi
		continue
	fi
	missing=
	for f in $flags; do
		echo "$text" | grep -q -E -- "(^|[^-A-Za-z0-9])$f([^A-Za-z0-9-]|\$)" ||
			missing="$missing $f"
	done
	if [ -n "$missing" ]; then
		echo "ktrace $cmd: $page does not document:$missing"
		status=1
	else
		echo "ktrace $cmd: $page documents all $(echo "$flags" | wc -l) options"
	fi
done
exit $status
