#!/bin/sh
# Makes the expected outputs of one host+guest pair with the installed trace-cmd 3.1.6 and
# appends its rows to MANIFEST.tsv (written with its header when missing). Run in this folder:
#
#   sh make-expected.sh CASE GUESTFILE 'WORKLOAD' FORM...
#
# FORM: a report of the pair (host first): plain, l, t, R, stat or cpu0 (CASE.report[-FORM].txt),
# or guest (the guest file alone, GUEST.report.txt). The dumps (--summary, --options,
# --flyrecord) of both files are always made.
# CASE.dat (host), GUESTFILE (the guest's, as trace-cmd named it) and CASE-a.case.sh /
# CASE-b.case.sh (the two guests' scripts) must be here. Every command runs twice in a clean
# environment; the two runs must be byte-identical.
set -eu
case=$1 guest=$2 workload=$3
shift 3
forms=$*
host=$case.dat
tc() { env -i PATH=/usr/bin:/bin HOME=/nonexistent LC_ALL=C trace-cmd "$@"; }
[ -f MANIFEST.tsv ] || printf 'case\tdat\tdat_bytes\treport_lines\tscratch_disk\tguest_setup\tguest_record_command\tworkload\texpected_output\thost_command\texit_status\tstderr_file\n' > MANIFEST.tsv
rec=$(grep -m1 '^trace-cmd record' "$case-a.case.sh")
bytes() { for f; do stat -c %s "$f"; done | paste -sd' '; }
row() { # expected dats lines command...
	out=$1 dats=$2 lines=$3; shift 3
	set +e
	tc "$@" > "$out" 2> "$out.err"; st=$?
	tc "$@" > "$out.again" 2>/dev/null
	set -e
	cmp -s "$out" "$out.again" || { echo "$out: two runs differ" >&2; exit 1; }
	rm -f "$out.again"
	err=; [ -s "$out.err" ] && err=$out.err && mv "$out.err" "${out%.txt}.stderr.txt" && err=${out%.txt}.stderr.txt
	rm -f "$out.err"
	[ "$lines" = n ] && lines=$(wc -l < "$out") || lines=
	# shellcheck disable=SC2086
	printf '%s\t%s\t%s\t%s\t\t\t%s\t%s\t%s\t%s\t%s\t%s\n' "$case" "$dats" "$(bytes $dats)" \
		"$lines" "$rec" "$workload" "$out" "trace-cmd $*" "$st" "$err" >> MANIFEST.tsv
}
g=${guest%.dat}
for f in $forms; do
	case $f in
	plain) row "$case.report.txt" "$host $guest" n report -i "$host" -i "$guest" ;;
	stat) row "$case.report-stat.txt" "$host $guest" n report --stat -i "$host" -i "$guest" ;;
	cpu0) row "$case.report-cpu0.txt" "$host $guest" n report --cpu 0 -i "$host" -i "$guest" ;;
	guest) row "$g.report.txt" "$guest" n report -i "$guest" ;;
	*) row "$case.report-$f.txt" "$host $guest" n report "-$f" -i "$host" -i "$guest" ;;
	esac
done
for f in "$host" "$guest"; do
	b=${f%.dat}
	row "$b.dump.txt" "$f" - dump --summary -i "$f"
	row "$b.dump-options.txt" "$f" - dump --options -i "$f"
	row "$b.dump-flyrecord.txt" "$f" - dump --flyrecord -i "$f"
done
