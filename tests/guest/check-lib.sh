# Helpers for the host side of the cases, sourced before each case's check(). check() runs in
# the case's result folder; $OUT is that folder, $KTRACE the ktrace under test, $BOOT the
# tracefs snapshot the guest took right after boot. fail stops the check at the first problem.

fail()
{
	echo "check failed: $*"
	exit 1
}

# Both report tools run as the reference corpus was made: no user plugins, C locale, the
# file given by its bare name.
tc_report()
{
	env -i PATH=/usr/bin:/bin HOME=/nonexistent LC_ALL=C trace-cmd report "$@"
}

kt_report()
{
	env -i PATH=/usr/bin:/bin HOME=/nonexistent LC_ALL=C "$KTRACE" report "$@"
}

# same_report DAT [ARGS...]: trace-cmd report and ktrace report print the same bytes. Leaves
# DAT.tc.txt and DAT.kt.txt (and DAT.diff when they differ) for a human.
same_report()
{
	dat=$1
	shift
	[ -s "$dat" ] || fail "no $dat in $OUT"
	tc_report "$@" -i "$dat" > "$dat.tc.txt" 2>&1 || fail "trace-cmd report $* -i $dat failed"
	kt_report "$@" -i "$dat" > "$dat.kt.txt" 2>&1 || {
		head -n 5 "$dat.kt.txt"
		fail "ktrace report $* -i $dat failed"
	}
	if ! diff -u "$dat.tc.txt" "$dat.kt.txt" > "$dat.diff"; then
		head -n 20 "$dat.diff"
		fail "ktrace report $* -i $dat differs from trace-cmd report (see $OUT/$dat.diff)"
	fi
	rm -f "$dat.diff"
	echo "ok: ktrace report $* -i $dat = trace-cmd report ($(wc -l < "$dat.tc.txt") lines)"
}

# expect FILE REGEX WHAT: some line of FILE matches the extended REGEX.
expect()
{
	grep -E -q -- "$2" "$1" || fail "$3: no line of $1 matches '$2'"
	echo "ok: $3"
}

# expect_none FILE REGEX WHAT: no line of FILE matches.
expect_none()
{
	if grep -E -- "$2" "$1" > "$1.unexpected"; then
		head -n 5 "$1.unexpected"
		fail "$3: $(wc -l < "$1.unexpected") line(s) of $1 match '$2'"
	fi
	rm -f "$1.unexpected"
	echo "ok: $3"
}

# graph_check REPORT COMM [MAXDEPTH]: reads a function_graph report (trace-cmd's default
# format) and checks, for every task, that each "}" closes a "{" of the same task and that a
# call lasts at least as long as the calls made inside it. Tasks named COMM (the traced
# command) must be balanced from start to end; others may be cut by the start or end of the
# recording. With MAXDEPTH, no call may be nested deeper than that. Prints one summary line.
graph_check()
{
	awk -v comm="$2" -v maxdepth="${3:-0}" -f "$GUEST/graph-check.awk" "$1" ||
		fail "function_graph structure of $1"
}

# tracefs_at_defaults: the guest's tracefs after the case equals the fresh boot's. The one
# allowed difference is the clock: trace-cmd reset selects "local" even where the kernel chose
# "global" at boot (it does under TCG, where the TSC is unstable), and ktrace reset does the same.
tracefs_at_defaults()
{
	clock=$(sed -n 's/^trace_clock: .*\[\(.*\)\].*/\1/p' tracefs-after.txt)
	case "$clock" in
	local) ;;
	*) grep -q -x -F "$(grep '^trace_clock: ' tracefs-after.txt)" "$BOOT" ||
		fail "trace clock $clock after the case: neither local nor the boot's" ;;
	esac
	grep -v '^trace_clock: ' tracefs-after.txt > tracefs-after.noclock
	if ! grep -v '^trace_clock: ' "$BOOT" | diff -u - tracefs-after.noclock > tracefs.diff; then
		head -n 20 tracefs.diff
		fail "tracefs after the case differs from the boot defaults (see $OUT/tracefs.diff)"
	fi
	rm -f tracefs.diff tracefs-after.noclock
	echo "ok: tracefs back at the boot defaults (clock $clock)"
}

# only_task REPORT COMM: every event of the report is from one task, named COMM (-F, -P).
only_task()
{
	tasks=$(grep -o -E '^ *[^ ]+-[0-9]+ +\[[0-9]+\]' "$1" | sed -E 's/ +\[[0-9]+\]$//; s/^ +//' |
		sort -u)
	[ -n "$tasks" ] || fail "no event in $1"
	[ "$(echo "$tasks" | wc -l)" = 1 ] && [ "${tasks%-*}" = "$2" ] ||
		fail "tasks other than one $2 in $1: $(echo $tasks)"
	echo "ok: only $tasks"
}

# latency_check TRACER [FILE...]: what latency_cases (guest-lib.sh) left: each file's report
# (rec.dat ext.dat tc.dat by default) is the same in both tools and is TRACER's max-latency
# text; record put tracing_max_latency back; stream refused the tracer.
latency_check()
{
	tracer=$1
	shift
	[ $# -gt 0 ] || set -- rec.dat ext.dat tc.dat
	for dat in "$@"; do
		same_report $dat
		expect $dat.tc.txt "^# $tracer latency trace v1\\.1\\.5 on " \
			"$dat holds the $tracer latency text"
		expect $dat.tc.txt '^# latency: [0-9]+ us, #[0-9]+/[0-9]+, CPU#[0-9]+' "$dat: its latency line"
	done
	expect max.txt '^after 7$' 'record put tracing_max_latency back'
	if [ -f stream.txt ]; then
		expect stream.txt 'nothing to stream' 'stream refuses a latency tracer'
		expect stream.txt '^status [1-9]' 'stream exits non-zero'
	fi
	tracefs_at_defaults
}
