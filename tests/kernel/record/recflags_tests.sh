#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# issue 20: trace-cmd 3.4's record flags on the live tracefs, each checked by its effect on
# tracefs while the command runs, what is left after it, and the file it writes (read back by
# trace-cmd report 3.1.6, the reference reader, and compared with trace-cmd record where 3.1.6
# has the flag, under the shim of tests/interop/listen/tcshim.c).
# Run under flock /tmp/ktrace-tracefs.lock (meson does).
#   recflags_tests.sh KTRACE TCSHIM CASE
set -u
K=$(readlink -f "$1")
SHIM=$(readlink -f "$2")
CASE=$3
T=/sys/kernel/tracing
W=$(mktemp -d /tmp/ktrace-recflags.XXXXXX)
chmod 755 "$W"
trap 'rm -rf "$W"' EXIT

fail() {
	echo "FAIL [$CASE]: $*" >&2
	exit 1
}
tc() { TCSHIM_SELF=$SHIM LD_PRELOAD=$SHIM trace-cmd "$@"; }

# what record may touch here; it must be as before once record is done
snapshot() {
	local f
	for f in tracing_on current_tracer set_event buffer_size_kb buffer_subbuf_size_kb \
		 trace_clock options/function-trace events/sched/sched_switch/enable; do
		printf '%s: %s\n' "$f" "$(tr '\n' ' ' < "$T/$f")"
	done
	echo "ftrace_enabled: $(cat /proc/sys/kernel/ftrace_enabled)"
	echo "instances: $(ls "$T/instances" | tr '\n' ' ')"
}

same_state() {	# BEFORE [WHAT]
	local now
	now=$(snapshot)
	[ "$1" = "$now" ] || fail "${2:+$2: }tracefs changed: $(diff <(echo "$1") <(echo "$now"))"
}

rec() {	# ARGS...: ktrace record -q -o $W/t.dat ARGS, must succeed
	"$K" record -q -o "$W/t.dat" "$@" > "$W/out" 2> "$W/err" ||
		fail "record $*: $(cat "$W/err")"
}

# Some hypervisors' kernels refuse every write to buffer_subbuf_size_kb, even of its own value
# (seen: EPERM on a Firecracker 6.18 guest). There the flag cannot take effect, so what is
# asserted is the refusal: record fails at once with one line naming the file, and tracefs is
# as before. Said loudly, so that a run here is never mistaken for the full case.
subbuf_refused() {	# BEFORE OLD
	echo "NOTE [$CASE]: this kernel refuses writes to $T/buffer_subbuf_size_kb (even of" \
		"its own value $2): asserting record's refusal, not the 16 KB pages"
	"$K" record -q -o "$W/t.dat" --subbuf-size 16 -e sched:sched_switch -- true \
		> "$W/out" 2> "$W/err" && fail "--subbuf-size 16 succeeded where the kernel refuses it"
	[ "$(wc -l < "$W/err")" = 1 ] || fail "--subbuf-size 16 refused: not one line: $(cat "$W/err")"
	grep -q "buffer_subbuf_size_kb" "$W/err" || fail "the refusal names no file: $(cat "$W/err")"
	same_state "$1" "refused --subbuf-size 16"
	[ ! -s "$W/t.dat" ] || fail "a refused --subbuf-size left a non-empty $W/t.dat"
	echo "ok: --subbuf-size refused in one line naming the file, tracefs as before"
}

case_subbuf() {
	local before old
	before=$(snapshot)
	# before Linux 6.8 there is no such file: the machine lacks what the case tests
	[ -f $T/buffer_subbuf_size_kb ] || fail "this kernel has no $T/buffer_subbuf_size_kb"
	old=$(cat $T/buffer_subbuf_size_kb)
	if ! (echo "$old" > $T/buffer_subbuf_size_kb) 2> "$W/probe.err"; then
		grep -q "Operation not permitted" "$W/probe.err" ||
			fail "writing $old to buffer_subbuf_size_kb: $(cat "$W/probe.err")"
		subbuf_refused "$before" "$old"
		return
	fi
	[ "$old" != 16 ] || fail "the sub-buffer size is already 16 KB: the test would prove nothing"
	rec --subbuf-size 16 -e sched:sched_switch -- sh -c "cat $T/buffer_subbuf_size_kb > $W/during"
	[ "$(cat "$W/during")" = 16 ] ||
		fail "buffer_subbuf_size_kb was $(cat "$W/during") during the run, not 16"
	same_state "$before" "--subbuf-size 16"
	# the 16 KB pages are read back by trace-cmd, every event of them
	trace-cmd report -i "$W/t.dat" > "$W/report" 2> "$W/report.err" ||
		fail "trace-cmd report of a --subbuf-size 16 file: $(head -3 "$W/report.err")"
	grep -q 'sched_switch:' "$W/report" || fail "no sched_switch in the 16 KB-page file"
	"$K" report -i "$W/t.dat" > "$W/kreport" || fail "ktrace report of the file failed"
	cmp -s "$W/report" "$W/kreport" || fail "ktrace and trace-cmd report differ on the file"
	# per instance: the -B instance's own file
	rec -B kt-recflags --subbuf-size 8 -e sched:sched_switch -- \
		sh -c "cat $T/instances/kt-recflags/buffer_subbuf_size_kb $T/buffer_subbuf_size_kb > $W/during"
	[ "$(tr '\n' ' ' < "$W/during")" = "8 $old " ] ||
		fail "-B kt-recflags --subbuf-size 8: sub-buffer sizes (instance, top) were $(cat "$W/during")"
	same_state "$before" "-B --subbuf-size 8"
	echo "ok: --subbuf-size set during the run, put back after, file read by trace-cmd"
}

case_function_trace() {
	local before
	before=$(snapshot)
	[ "$(cat $T/options/function-trace)" = 1 ] || fail "options/function-trace is not 1 to start"
	rec -d -e sched:sched_switch -- sh -c "cat $T/options/function-trace > $W/during"
	[ "$(cat "$W/during")" = 0 ] || fail "-d: options/function-trace was $(cat "$W/during")"
	same_state "$before" "-d"
	# trace-cmd 3.1.6's -d leaves the same during its run: function-trace 0, ftrace_enabled 1
	rec -d -e sched:sched_switch -- sh -c \
		"cat $T/options/function-trace /proc/sys/kernel/ftrace_enabled > $W/during"
	(cd "$W" && tc record -q -o "$W/tc.dat" -d -e sched:sched_switch sh -c \
		"cat $T/options/function-trace /proc/sys/kernel/ftrace_enabled > $W/tc.during" \
		> "$W/tc.out" 2>&1) || fail "trace-cmd record -d: $(tail -3 "$W/tc.out")"
	cmp -s "$W/during" "$W/tc.during" ||
		fail "-d: ktrace left $(cat "$W/during" | tr '\n' ' '), trace-cmd $(tr '\n' ' ' < "$W/tc.during")"
	"$K" reset > /dev/null || fail "ktrace reset after trace-cmd failed"
	echo 1 > $T/tracing_on
	before=$(snapshot)
	# -d applies to the last instance given
	rec -e sched:sched_switch -B kt-recflags -e sched:sched_switch -d -- \
		sh -c "cat $T/instances/kt-recflags/options/function-trace $T/options/function-trace > $W/during"
	[ "$(tr '\n' ' ' < "$W/during")" = "0 1 " ] ||
		fail "-B X -d: function-trace (instance, top) was $(cat "$W/during")"
	same_state "$before" "-B X -d"
	# -D: ftrace_enabled too; this host refuses it: a clean failure, nothing left changed
	if "$K" record -q -o "$W/d.dat" -D -e sched:sched_switch -- \
		sh -c "cat /proc/sys/kernel/ftrace_enabled > $W/during" 2> "$W/err"; then
		[ "$(cat "$W/during")" = 0 ] || fail "-D: ftrace_enabled was $(cat "$W/during")"
		echo "ok: -D set ftrace_enabled to 0 during the run"
	else
		[ "$(wc -l < "$W/err")" = 1 ] || fail "-D failed with more than one line: $(cat "$W/err")"
		grep -q 'ftrace_enabled' "$W/err" || fail "-D: the message names no file: $(cat "$W/err")"
		[ ! -e "$W/d.dat" ] || fail "-D failed but left its file"
		echo "ok: -D refused by this kernel: $(cat "$W/err")"
	fi
	same_state "$before" "-D"
	echo "ok: -d/-D switch the function tracer off and put it back"
}

case_keep_tracing() {
	local before
	"$K" reset > /dev/null || fail "ktrace reset failed"
	echo 0 > $T/tracing_on
	before=$(snapshot)
	rec -K -e sched:sched_switch -- sh -c "cat $T/tracing_on > $W/during"
	[ "$(cat "$W/during")" = 0 ] || fail "-K wrote tracing_on (it was $(cat "$W/during"))"
	# kept, as -k: the event stays on; tracing_on was never touched
	[ "$(cat $T/events/sched/sched_switch/enable)" = 1 ] || fail "-K did not keep the event on"
	[ "$(cat $T/tracing_on)" = 0 ] || fail "-K left tracing_on at $(cat $T/tracing_on)"
	# the buffer is not cleared before the run: a marker from before is in the file
	echo 1 > $T/tracing_on
	echo kt-recflags-before > $T/trace_marker
	rec -K -e sched:sched_switch -- true
	"$K" report -i "$W/t.dat" | grep -q kt-recflags-before ||
		fail "-K cleared the buffer: the marker written before is not in the file"
	[ "$(cat $T/tracing_on)" = 1 ] || fail "-K switched tracing off"
	"$K" reset > /dev/null || fail "ktrace reset failed"
	echo 1 > $T/tracing_on
	# set refuses it, as trace-cmd set refuses -k
	"$K" set -K -e sched:sched_switch 2> "$W/err" && fail "set -K was accepted"
	grep -q -- '-K' "$W/err" || fail "set -K: the message does not name -K: $(cat "$W/err")"
	echo "ok: -K leaves tracing_on and the buffers alone, keeps the settings"
}

case_user() {
	local before uid
	before=$(snapshot)
	uid=$(id -u nobody) || fail "no user nobody here"
	mkdir -m 777 "$W/who.d"
	rec --user nobody -e sched:sched_switch -F -- sh -c "id -u > $W/who.d/uid; echo \$USER \$LOGNAME >> $W/who.d/uid"
	[ "$(head -1 "$W/who.d/uid")" = "$uid" ] ||
		fail "--user nobody: the command ran as uid $(head -1 "$W/who.d/uid")"
	[ "$(sed -n 2p "$W/who.d/uid")" = "nobody nobody" ] ||
		fail "--user nobody: USER LOGNAME were $(sed -n 2p "$W/who.d/uid")"
	# -F followed the command through the change of user
	trace-cmd report -i "$W/t.dat" 2> /dev/null | grep -q 'sched_switch:' ||
		fail "--user -F: no events of the command"
	same_state "$before" "--user"
	"$K" record -q -o "$W/n.dat" --user kt-no-such-user -e sched:sched_switch -- true \
		2> "$W/err" && fail "--user kt-no-such-user was accepted"
	grep -q "kt-no-such-user.*no such user" "$W/err" || fail "unknown user: $(cat "$W/err")"
	same_state "$before" "--user unknown"
	echo "ok: --user runs the command as the user; an unknown one fails cleanly"
}

case_stderr() {
	local before
	before=$(snapshot)
	# stream: the events go to stderr, the command's own output stays on stdout
	"$K" stream --stderr -e sched:sched_switch -- sh -c 'echo kt-command-out; sleep 0.2' \
		> "$W/out" 2> "$W/err" || fail "stream --stderr: $(head -3 "$W/err")"
	[ "$(cat "$W/out")" = kt-command-out ] ||
		fail "stream --stderr: stdout has more than the command's line: $(head -3 "$W/out")"
	grep -q 'sched_switch:' "$W/err" || fail "stream --stderr: no events on stderr"
	# without it the events are on stdout (what --stderr changes)
	"$K" stream -e sched:sched_switch -- sh -c 'echo kt-command-out; sleep 0.2' \
		> "$W/out" 2> "$W/err" || fail "stream: $(head -3 "$W/err")"
	grep -q 'sched_switch:' "$W/out" || fail "stream: no events on stdout"
	rec --stderr -e sched:sched_switch -- echo kt-command-out
	[ "$(cat "$W/out")" = kt-command-out ] || fail "record --stderr: stdout is $(head -3 "$W/out")"
	same_state "$before" "--stderr"
	echo "ok: --stderr moves ktrace's output to stderr, the command keeps stdout"
}

# OFFSET option's text of FILE (trace-cmd dump --options)
offset_of() {
	trace-cmd dump --options -i "$1" 2> /dev/null | sed -n '/Option OFFSET/{n;p}'
}

case_ts_offset() {
	local before raw shifted want
	before=$(snapshot)
	rec --ts-offset 1000000000 -e sched:sched_switch -- sleep 0.1
	[ "$(offset_of "$W/t.dat")" = 1000000000 ] ||
		fail "no OFFSET 1000000000 option: '$(offset_of "$W/t.dat")'"
	same_state "$before" "--ts-offset"
	# trace-cmd 3.1.6 writes the same option for the same flag (and leaves its events on)
	command -v trace-cmd > /dev/null || fail "trace-cmd is not installed"
	(cd "$W" && tc record -q -o "$W/tc.dat" --ts-offset 1000000000 -e sched:sched_switch \
		sleep 0.1 > "$W/tc.out" 2>&1) || fail "trace-cmd record --ts-offset: $(tail -3 "$W/tc.out")"
	"$K" reset > /dev/null || fail "ktrace reset after trace-cmd failed"
	echo 1 > $T/tracing_on
	before=$(snapshot)
	[ "$(offset_of "$W/tc.dat")" = "$(offset_of "$W/t.dat")" ] ||
		fail "OFFSET differs from trace-cmd's: '$(offset_of "$W/tc.dat")'"
	# readers add it: first event's time in seconds, with and without the offset
	raw=$(trace-cmd report --raw-ts -i "$W/t.dat" 2> /dev/null | grep -m1 -o '\] *[0-9]*:' | tr -dc 0-9)
	shifted=$(trace-cmd report -t -i "$W/t.dat" 2> /dev/null | grep -m1 -o '\] *[0-9.]*:' | tr -dc 0-9)
	want=$((raw + 1000000000))
	[ "$shifted" = "$want" ] || fail "trace-cmd report: first timestamp $shifted, expected $want"
	"$K" report -t -i "$W/t.dat" | grep -m1 -o '\] *[0-9.]*:' | tr -dc 0-9 > "$W/k"
	[ "$(cat "$W/k")" = "$want" ] || fail "ktrace report: first timestamp $(cat "$W/k"), expected $want"
	"$K" record -q -o "$W/x.dat" --date --ts-offset 5 -e sched:sched_switch -- true \
		2> "$W/err" && fail "--date --ts-offset was accepted"
	grep -q -- '--ts-offset' "$W/err" || fail "--date --ts-offset: $(cat "$W/err")"
	same_state "$before" "--ts-offset"
	echo "ok: --ts-offset writes trace-cmd's OFFSET option; reports shift by it"
}

case_temp() {
	local before
	before=$(snapshot)
	mkdir "$W/tmp" "$W/out.d"
	# the recorders' temp files are unnamed: they show up as open fds under DIR
	"$K" record -q -o "$W/out.d/t.dat" --temp "$W/tmp" -e sched:sched_switch -- \
		sh -c "ls -l /proc/\$PPID/fd/ 2> /dev/null > $W/fds; sleep 0.1" 2> "$W/err" ||
		fail "record --temp: $(cat "$W/err")"
	grep -q "$W/tmp/" "$W/fds" || fail "--temp: no recorder file under $W/tmp: $(cat "$W/fds")"
	grep -q "$W/out.d/#\|$W/out.d/.*(deleted)" "$W/fds" &&
		fail "--temp: temp files still beside the output"
	trace-cmd report -i "$W/out.d/t.dat" > /dev/null 2>&1 || fail "the --temp file does not read"
	"$K" record -q -o "$W/t.dat" --temp "$W/none" -e sched:sched_switch -- true 2> "$W/err" &&
		fail "--temp into a missing directory was accepted"
	grep -q "$W/none" "$W/err" || fail "--temp missing dir: $(cat "$W/err")"
	[ ! -e "$W/t.dat" ] || fail "--temp failure left the output file"
	same_state "$before" "--temp"
	echo "ok: --temp puts the per-CPU files in DIR"
}

case_rt_prio() {
	local before n
	before=$(snapshot)
	# the command's parent is ktrace: one line per thread, policy and priority
	rec -r 5 -e sched:sched_switch -- sh -c \
		"for t in /proc/\$PPID/task/*; do chrt -p \${t##*/}; done > $W/sched"
	n=$(grep -c "policy: SCHED_FIFO" "$W/sched")
	[ "$n" -ge "$(nproc)" ] || fail "-r 5: $n SCHED_FIFO threads, expected one per CPU: $(cat "$W/sched")"
	[ "$(grep -c "priority: 5$" "$W/sched")" = "$n" ] || fail "-r 5: priorities: $(cat "$W/sched")"
	grep -q "policy: SCHED_OTHER" "$W/sched" || fail "-r 5: the main thread changed policy too"
	"$K" record -q -o "$W/x.dat" -r 100 -e sched:sched_switch -- true 2> "$W/err" &&
		fail "-r 100 was accepted"
	grep -q -- "-r" "$W/err" || fail "-r 100: $(cat "$W/err")"
	same_state "$before" "-r"
	echo "ok: -r PRIO runs the recorders (only) at SCHED_FIFO PRIO"
}

case_no_filter() {
	local before
	before=$(snapshot)
	rec -e sched:sched_switch -- sh -c "cat $T/set_event_notrace_pid > $W/during; echo \$PPID > $W/ppid"
	grep -qx "$(cat "$W/ppid")" "$W/during" ||
		fail "ktrace ($(cat "$W/ppid")) is not in set_event_notrace_pid: $(cat "$W/during")"
	rec --no-filter -e sched:sched_switch -- sh -c "cat $T/set_event_notrace_pid > $W/during"
	[ ! -s "$W/during" ] || fail "--no-filter: set_event_notrace_pid holds $(cat "$W/during")"
	same_state "$before" "--no-filter"
	echo "ok: --no-filter leaves ktrace's threads in the events"
}

case_poll() {
	local before
	before=$(snapshot)
	rec --poll -s 20000 -e sched:sched_switch -- sleep 0.3
	trace-cmd report -i "$W/t.dat" 2> /dev/null | grep -q 'sleep-[0-9]* .*sched_switch:' ||
		fail "--poll: the sleep's sched_switch is not in the file"
	same_state "$before" "--poll"
	echo "ok: --poll records by reading every -s"
}

# The PROCMAPS options' texts of FILE, one line per option, as trace-cmd dump prints them:
# "<pid> <count> <exe> | <start> <end> <path> | ..."
procmaps_of() {
	trace-cmd dump --options -i "$1" 2> /dev/null |
		awk '/Option PROCMAPS/ { if (o != "") print o; o = "-"; next }
		     /^[[:space:]]*\[Option/ { if (o != "") print o; o = ""; next }
		     o != "" && NF { o = (o == "-") ? $0 : o " | " $0 }
		     END { if (o != "") print o }'
}

# A map line of /proc/PID/maps as PROCMAPS holds it: hex start, end and the path's first word.
maps_as_option() {	# MAPS-FILE
	awk '$6 != "" { split($1, r, "-"); printf "%s%s %s %s", sep, r[1], r[2], $6; sep = " | " }
	     END { print "" }' "$1" | sed 's/\b0*\([0-9a-f]\)/\1/g'
}

case_proc_map() {
	local before sh_pid want got n sleeper
	before=$(snapshot)
	# the shell reads its own maps, runs one more child and exits: read at its exit
	rec --proc-map -e sched:sched_process_exit -- sh -c "echo \$\$ > $W/sh.pid; cat /proc/\$\$/maps > $W/sh.maps; /bin/true"
	same_state "$before" "--proc-map"
	procmaps_of "$W/t.dat" > "$W/opts"
	[ "$(wc -l < "$W/opts")" = 1 ] || fail "--proc-map: $(wc -l < "$W/opts") PROCMAPS options, not 1 (the command's): $(cut -c1-80 "$W/opts")"
	sh_pid=$(printf %x "$(cat "$W/sh.pid")")
	got=$(grep "^$sh_pid " "$W/opts") || fail "no PROCMAPS option for the shell (pid 0x$sh_pid)"
	n=$(awk '$6 != ""' "$W/sh.maps" | wc -l)
	want="$sh_pid $(printf %x "$n") $(readlink -f /bin/sh) | $(maps_as_option "$W/sh.maps")"
	[ "$got" = "$want" ] || fail "the shell's PROCMAPS: '${got:0:160}', not '${want:0:160}'"
	"$K" report -i "$W/t.dat" > /dev/null || fail "ktrace report of a --proc-map file"
	trace-cmd report -i "$W/t.dat" > /dev/null 2>&1 || fail "trace-cmd report of a --proc-map file"
	# with -F -c the children it follows too (trace-cmd 3.1.6 means to, but reads the command's
	# only)
	rec --proc-map -F -c -e sched:sched_process_exit -- sh -c "cat /proc/\$\$/maps > /dev/null; /bin/true"
	procmaps_of "$W/t.dat" | awk '{ print $3 }' | sort > "$W/kt.exes"
	[ "$(cat "$W/kt.exes" | tr '\n' ' ')" = "$(printf '%s\n' /usr/bin/cat /usr/bin/true "$(readlink -f /bin/sh)" | sort | tr '\n' ' ')" ] ||
		fail "-F -c --proc-map: PROCMAPS of $(tr '\n' ' ' < "$W/kt.exes")"
	same_state "$before" "-F -c --proc-map"
	command -v trace-cmd > /dev/null || fail "trace-cmd is not installed"
	# without -c: the same processes as trace-cmd 3.1.6 (whose -F with --proc-map hangs here,
	# under the shim)
	command -v trace-cmd > /dev/null || fail "trace-cmd is not installed"
	(cd "$W" && tc record -q -o "$W/tc.dat" --proc-map -e sched:sched_process_exit \
		sh -c "cat /proc/\$\$/maps > /dev/null; /bin/true" > "$W/tc.out" 2>&1) ||
		fail "trace-cmd record --proc-map: $(tail -3 "$W/tc.out")"
	"$K" reset > /dev/null || fail "ktrace reset after trace-cmd failed"
	echo 1 > $T/tracing_on
	rec --proc-map -e sched:sched_process_exit -- \
		sh -c "cat /proc/\$\$/maps > /dev/null; /bin/true"
	[ "$(procmaps_of "$W/tc.dat" | awk '{ print $3 }')" = \
	  "$(procmaps_of "$W/t.dat" | awk '{ print $3 }')" ] ||
		fail "trace-cmd's PROCMAPS are of $(procmaps_of "$W/tc.dat" | awk '{ print $3 }' | tr '\n' ' '), ktrace's of $(procmaps_of "$W/t.dat" | awk '{ print $3 }' | tr '\n' ' ')"
	before=$(snapshot)
	# -P: read when tracing starts; record ends with the process
	sleep 1 &
	sleeper=$!
	rec --proc-map -P "$sleeper" -e sched:sched_switch
	procmaps_of "$W/t.dat" | grep -q "^$(printf %x $sleeper) [0-9a-f]* $(readlink -f "$(command -v sleep)") | " ||
		fail "-P --proc-map: no PROCMAPS option for the sleep: $(procmaps_of "$W/t.dat" | cut -c1-80)"
	same_state "$before" "-P --proc-map"
	# nothing to read the maps of: a warning, and the recording is made (as trace-cmd)
	timeout -s INT 1 "$K" record -q -o "$W/t.dat" --proc-map -e sched:sched_switch \
		> /dev/null 2> "$W/err"
	grep -q "^ktrace record: --proc-map is ignored: no COMMAND and no -P" "$W/err" ||
		fail "no warning for --proc-map alone: $(cat "$W/err")"
	[ -z "$(procmaps_of "$W/t.dat")" ] || fail "PROCMAPS options without a process"
	"$K" report -i "$W/t.dat" > /dev/null || fail "--proc-map alone: no readable file"
	same_state "$before" "--proc-map alone"
	echo "ok: --proc-map writes trace-cmd's PROCMAPS options for the command (-c: its children) and -P"
}

# --daemonize: the shell gets its prompt back once recording runs; SIGINT to the pid in the
# pid file ends it as Ctrl-C would; a failure before recording is the shell's status.
PIDFILE=/var/run/ktrace-record.pid
case_daemonize() {
	local before pid i rc start
	before=$(snapshot)
	[ ! -e $PIDFILE ] || fail "$PIDFILE exists before the test"
	timeout 30 "$K" record --daemonize -o "$W/t.dat" -e sched:sched_switch \
		> "$W/out" 2> "$W/err" || fail "record --daemonize: status $?: $(cat "$W/err")"
	pid=$(cat $PIDFILE) || fail "no pid file once record --daemonize returned"
	kill -0 "$pid" 2> /dev/null || fail "the daemon $pid is not running"
	[ "$(ps -o sid= -p "$pid" | tr -d ' ')" = "$pid" ] || fail "the daemon has no session of its own"
	[ "$(ps -o ppid= -p "$pid" | tr -d ' ')" != $$ ] || fail "the daemon is still our child"
	grep -q "^Send SIGINT/SIGTERM to pid $pid to stop recording$" "$W/out" ||
		fail "no 'Send SIGINT' line: $(cat "$W/out")"
	[ "$(cat $T/events/sched/sched_switch/enable)" = 1 ] || fail "sched_switch is not on while it runs"
	sleep 0.5
	kill -INT "$pid"
	for i in $(seq 100); do
		kill -0 "$pid" 2> /dev/null || break
		sleep 0.1
	done
	kill -0 "$pid" 2> /dev/null && fail "the daemon did not stop on SIGINT"
	[ ! -e $PIDFILE ] || fail "the pid file is left"
	trace-cmd report -i "$W/t.dat" 2> /dev/null | grep -q 'sched_switch:' ||
		fail "--daemonize: no events in the file"
	same_state "$before" "--daemonize"
	# with a command: back at once, the file written when the command ends
	start=$(date +%s%N)
	timeout 30 "$K" record -q --daemonize -o "$W/c.dat" -e sched:sched_switch -- sleep 2 \
		> "$W/out" 2> "$W/err" || fail "record --daemonize COMMAND: $(cat "$W/err")"
	[ $(( ($(date +%s%N) - start) / 1000000 )) -lt 1500 ] ||
		fail "record --daemonize COMMAND waited for the command"
	for i in $(seq 100); do
		[ -e $PIDFILE ] || break
		sleep 0.1
	done
	[ ! -e $PIDFILE ] || fail "the daemon of 'sleep 2' did not end"
	"$K" report -i "$W/c.dat" > /dev/null || fail "--daemonize COMMAND: no readable file"
	same_state "$before" "--daemonize COMMAND"
	# a failure before recording: the daemon's status and its one message, no pid file
	timeout 30 "$K" record --daemonize -o "$W/x.dat" -e kt_nosuch:event > "$W/out" 2> "$W/err"
	rc=$?
	[ "$rc" = 1 ] || fail "--daemonize with a bad event: status $rc, not 1"
	grep -q "kt_nosuch" "$W/err" || fail "--daemonize with a bad event: $(cat "$W/err")"
	[ ! -e $PIDFILE ] || fail "a pid file after a failure"
	"$K" record --daemonize -W -e sched:sched_switch > /dev/null 2> "$W/err" &&
		fail "--daemonize -W was accepted"
	grep -q -- "--daemonize" "$W/err" || fail "--daemonize -W: $(cat "$W/err")"
	same_state "$before" "--daemonize failures"
	echo "ok: --daemonize returns once recording runs, stops on SIGINT, fails as record does"
}

# extract -k and --date: tracing left as it is, the DATE option in the file
case_extract() {
	"$K" reset > /dev/null || fail "ktrace reset failed"
	"$K" start -e sched:sched_switch > /dev/null 2>&1 || fail "ktrace start failed"
	sleep 0.2
	"$K" extract -k --date -o "$W/x.dat" > /dev/null 2> "$W/err" ||
		fail "extract -k --date: $(cat "$W/err")"
	[ "$(cat $T/tracing_on)" = 1 ] || fail "extract -k switched tracing off"
	[ "$(cat $T/events/sched/sched_switch/enable)" = 1 ] || fail "extract changed the events"
	trace-cmd dump --options -i "$W/x.dat" 2> /dev/null | grep -q 'Option DATE' ||
		fail "extract --date: no DATE option"
	trace-cmd report -i "$W/x.dat" 2> /dev/null | grep -q 'sched_switch:' ||
		fail "extract --date: no events"
	"$K" reset > /dev/null || fail "ktrace reset failed"
	echo 1 > $T/tracing_on
	echo "ok: extract -k --date leaves tracing on and writes DATE"
}

# extract -O: the options set while the buffers are read (strace shows the writes), put back
# afterwards as trace-cmd puts them back, kept with -k as trace-cmd keeps them
case_extract_options() {
	local tool opt

	for opt in sym-addr irq-info; do
		[ -f "$T/options/$opt" ] || { fail "this kernel has no options/$opt"; return; }
	done
	echo 0 > $T/options/sym-addr
	echo 1 > $T/options/irq-info
	for tool in ktrace trace-cmd; do
		if [ $tool = ktrace ]; then
			# LeakSanitizer cannot run under ptrace: no leak check for this one run
			ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
				strace -f -e trace=openat -o "$W/st" "$K" extract -O sym-addr \
				-O noirq-info -o "$W/$tool.dat" > /dev/null 2> "$W/err" ||
				fail "ktrace extract -O: $(cat "$W/err")"
			grep -c 'options/sym-addr", O_WRONLY' "$W/st" | grep -qx 2 ||
				fail "ktrace extract -O sym-addr: not set then put back"
		else
			tc extract -O sym-addr -O noirq-info -o "$W/$tool.dat" > /dev/null 2>&1 ||
				fail "trace-cmd extract -O failed"
			echo 1 > $T/tracing_on	# trace-cmd switches it off without -k
		fi
		[ "$(cat $T/options/sym-addr)$(cat $T/options/irq-info)" = 01 ] ||
			fail "$tool extract -O: options not put back ($(cat $T/options/sym-addr)," \
			     "$(cat $T/options/irq-info))"
		if [ $tool = ktrace ]; then
			"$K" extract -k -O sym-addr -o "$W/$tool.dat" > /dev/null 2>&1
		else
			tc extract -k -O sym-addr -o "$W/$tool.dat" > /dev/null 2>&1
		fi
		[ "$(cat $T/options/sym-addr)" = 1 ] || fail "$tool extract -k -O: option not kept"
		echo 0 > $T/options/sym-addr
	done
	"$K" extract -O nosuchopt -o "$W/x.dat" > /dev/null 2> "$W/err" &&
		fail "extract -O nosuchopt succeeded"
	[ "$(wc -l < "$W/err")" = 1 ] && grep -q "^ktrace extract: -O 'nosuchopt'" "$W/err" ||
		fail "extract -O nosuchopt: $(cat "$W/err")"
	echo "ok: extract -O sets the options while reading and puts them back as trace-cmd"
}

"case_$CASE"
