#!/bin/bash
# The bash completion (completions/ktrace) and what it asks ktrace (`ktrace __complete`), without
# tracefs: the options `__complete options CMD` gives are those `ktrace CMD -h` prints, with the
# same arguments, for every command; and _ktrace, driven as bash drives it (COMP_WORDS,
# COMP_CWORD), offers commands, options, files and directories, and puts back the words bash
# splits at ':' and '='. The values read from tracefs come from a stub here (the kernel suite
# checks the real ones: tests/kernel/control/completion.sh).
#
# usage: test_completion.sh KTRACE COMPLETION_SCRIPT
set -u
KTRACE=$(realpath "${1:?usage: test_completion.sh KTRACE COMPLETION_SCRIPT}")
SCRIPT=$(realpath "${2:?usage: test_completion.sh KTRACE COMPLETION_SCRIPT}")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0

fail()
{
	echo "FAIL: $*"
	status=1
}

# "FLAG<TAB>ARG" of each option line of `ktrace CMD -h` (ARG "[NAME]" when optional). The left
# column (flags, then the argument of the last one) ends at two spaces; when it fills its
# width, one space parts it from the help text, and an argument is then a word in capitals.
help_table()
{
	"$KTRACE" "$1" -h | awk '
	/^  +-/ {
		line = $0
		sub(/^ +/, "", line)
		wide = !match(line, /  /)
		left = wide ? line : substr(line, 1, RSTART - 1)
		nf = split(left, t, " ")
		n = 0; arg = ""
		for (i = 1; i <= nf; i++) {
			if (t[i] !~ /^-/) {
				if (!wide || t[i] ~ /^[A-Z][A-Z0-9_:=.>\[\]-]*$/)
					arg = t[i]
				break
			}
			f = t[i]
			sub(/,$/, "", f)
			if (f ~ /\[=/) {
				arg = f
				sub(/^[^[]*\[=/, "[", arg)
				sub(/\[=.*/, "", f)
			}
			flags[++n] = f
			if (t[i] !~ /,$/) {
				if (arg == "" && i < nf && (!wide || t[i + 1] ~ /^[A-Z][A-Z0-9_:=.>\[\]-]*$/))
					arg = t[i + 1]
				break
			}
		}
		for (j = 1; j <= n; j++)
			printf "%s\t%s\n", flags[j], arg
	}' | sort
}

# --- the tables: every command's completion table is its -h ---
commands=$("$KTRACE" __complete commands) || fail "__complete commands failed"
for c in help version; do
	grep -q -x "$c" <<<"$commands" || fail "__complete commands lacks $c"
done
overview=$("$KTRACE" help | sed -n 's/^  \([a-z][a-z-]*\) .*/\1/p')
[ "$(sort <<<"$commands")" = "$(sort <<<"$overview")" ] ||
	fail "__complete commands ($commands) is not the list of 'ktrace help' ($overview)"
for cmd in $commands; do
	[ "$cmd" = help ] || [ "$cmd" = version ] && continue
	table=$("$KTRACE" __complete options "$cmd") || { fail "__complete options $cmd"; continue; }
	expected=$(help_table "$cmd")
	if [ "$(sort <<<"$table")" != "$expected" ]; then
		fail "__complete options $cmd differs from 'ktrace $cmd -h':"
		diff <(echo "$expected") <(sort <<<"$table") | sed 's/^/    /'
	else
		echo "ok: $cmd: $(wc -l <<<"$table") option spellings, as its -h"
	fi
done
"$KTRACE" __complete options no-such-command > "$tmp/out" || fail "options of an unknown command"
[ -s "$tmp/out" ] && fail "__complete options no-such-command printed: $(cat "$tmp/out")"
"$KTRACE" __complete values NO_SUCH_KIND > "$tmp/out" || fail "values of an unknown kind failed"
[ -s "$tmp/out" ] && fail "__complete values NO_SUCH_KIND printed: $(cat "$tmp/out")"
"$KTRACE" __complete bogus 2> /dev/null
[ $? -eq 2 ] || fail "__complete bogus: exit status is not 2"

# --- _ktrace as bash drives it ---
# A stub in front of ktrace: the tracefs values are fixed, everything else is ktrace's.
cat > "$tmp/ktrace" <<EOF
#!/bin/sh
if [ "\$1" = __complete ] && [ "\$2" = values ]; then
	case \$3 in
	EVENT) printf 'sched\nsched:sched_switch\nsched:sched_wakeup\nirq:irq_handler_entry\n' ;;
	TRACER) printf 'function\nfunction_graph\nnop\n' ;;
	*) exec "$KTRACE" "\$@" ;;
	esac
	exit 0
fi
exec "$KTRACE" "\$@"
EOF
chmod +x "$tmp/ktrace"
# shellcheck source=/dev/null
. "$SCRIPT" || fail "sourcing $SCRIPT failed"
[ "$(complete -p ktrace 2>/dev/null)" = "complete -F _ktrace ktrace" ] ||
	fail "the script does not register _ktrace for ktrace"

# expect WORDS... %% CANDIDATES...: COMP_WORDS is WORDS with the stub as ktrace, the cursor
# in the last word; the sorted COMPREPLY must be the sorted CANDIDATES.
expect()
{
	local words=("$tmp/ktrace") got want
	while [ "$1" != "%%" ]; do
		words+=("$1")
		shift
	done
	shift
	COMP_WORDS=("${words[@]}")
	COMP_CWORD=$((${#words[@]} - 1))
	COMPREPLY=()
	_ktrace
	got=$(printf '%s\n' "${COMPREPLY[@]}" | sort)
	want=$(printf '%s\n' "$@" | sort)
	if [ "$got" != "$want" ]; then
		fail "ktrace ${words[*]:1}<TAB>: got [${got//$'\n'/ }], want [${want//$'\n'/ }]"
	else
		echo "ok: ktrace ${words[*]:1}<TAB>: ${#COMPREPLY[@]} candidates"
	fi
}

# the commands, from the binary's table
mapfile -t all <<<"$commands"
expect "" %% "${all[@]}"
mapfile -t st < <(grep '^st' <<<"$commands")
expect st %% "${st[@]}"
expect rep %% report
expect help rep %% report
expect no-such-command -x %%

# options: all of a command's, or those with the prefix typed
mapfile -t flags < <("$KTRACE" __complete options record | cut -f1)
expect record - %% "${flags[@]}"
mapfile -t flags < <("$KTRACE" __complete options report | cut -f1 | grep '^--in')
expect report --in %% "${flags[@]}"

# files and directories
mkdir "$tmp/dir" "$tmp/dir/sub"
touch "$tmp/dir/a.dat" "$tmp/dir/b.dat"
cd "$tmp/dir" || exit 1
expect report -i "" %% a.dat b.dat sub
expect report -i a %% a.dat
expect report --input = "" %% a.dat b.dat sub
expect report --input = b %% b.dat
expect report --input=b %% --input=b.dat
expect report b %% b.dat
expect listen -d "" %% sub
expect record -- s %% sub
# restore: -i/-k/-o a file, -t a directory, CPU files after the options
expect restore - %% -c -o -i -t -k -h --help
expect restore -t "" %% sub
expect restore -i a %% a.dat
expect restore -i a.dat "" %% a.dat b.dat sub
cd / || exit 1

# tracefs values by the option's argument name; ':' split words put back together
expect record -p func %% function function_graph
expect record -e sched %% sched sched:sched_switch sched:sched_wakeup
expect record -e sched : %% sched_switch sched_wakeup
expect record -e sched : sched_s %% sched_switch
expect record -e sched:sched_w %% sched:sched_wakeup
expect record -e irq : %% irq_handler_entry
expect start -e "" %% sched sched:sched_switch sched:sched_wakeup irq:irq_handler_entry
# values ktrace knows itself (the stub passes them through)
expect report --layout "" %% 3.1 3.4
expect report --layout=3. %% --layout=3.1 --layout=3.4
# report -O is not a trace option (PLUGIN:OPT), listen -p not a tracer
expect report -O "" %%
expect listen -p "" %%
exit $status
