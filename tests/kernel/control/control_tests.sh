#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Kernel tests of plan apply/undo and of start/stop/reset/show/stat/list on the live tracefs.
# Run under flock /tmp/ktrace-tracefs.lock (meson does). Each case leaves tracefs as it found it.
#   control_tests.sh KTRACE APPLY_UNDO SNAPSHOT CASE
set -u
KT=$(readlink -f "$1")
APPLY_UNDO=$(readlink -f "$2")
SNAP=$(readlink -f "$3")
CASE=$4
T=/sys/kernel/tracing
TMP=$(mktemp -d /tmp/ktrace-control.XXXXXX)
ORIG_ON=$(cat $T/tracing_on 2>/dev/null || echo 1)
# "7 (expanded: 1408)" before the first use: the configured size is the expanded one.
ORIG_BUF=$(sed 's/.*expanded: \([0-9]*\).*/\1/' $T/buffer_size_kb)

fail() {
	echo "FAIL ($CASE): $*" >&2
	exit 1
}

# A custom state a restore must give back exactly: an option, a filter, a buffer size,
# an event enabled, tracing off.
CUSTOM=0
custom_state() {
	CUSTOM=1
	echo 1 > $T/options/sym-offset
	echo 'common_pid > 1' > $T/events/sched/sched_wakeup/filter
	echo 1500 > $T/buffer_size_kb
	echo 1 > $T/events/irq/irq_handler_entry/enable
	echo 0 > $T/tracing_on
}

# Undoes custom_state (the values every test starts from are the boot defaults).
clear_custom_state() {
	CUSTOM=0
	echo 0 > $T/options/sym-offset
	echo 0 > $T/events/sched/sched_wakeup/filter
	echo "$ORIG_BUF" > $T/buffer_size_kb
	echo 0 > $T/events/irq/irq_handler_entry/enable
	echo "$ORIG_ON" > $T/tracing_on
}

# A failing case must not leave its custom state (or tracing on) behind for the next tests.
cleanup() {
	[ "$CUSTOM" = 1 ] && clear_custom_state
	rm -rf "$TMP"
}
trap cleanup EXIT

same_state() {
	"$SNAP" > "$TMP/after"
	diff -u "$TMP/before" "$TMP/after" >&2 || fail "tracefs differs from before ($1)"
}

# apply + undo of a plan that touches every kind of setting gives the custom state back.
case_apply_undo() {
	custom_state
	"$SNAP" > "$TMP/before"
	"$APPLY_UNDO" "$SNAP > $TMP/during" -e sched:sched_switch -f 'prev_pid > 0' \
		-R stacktrace -e irq -b 2000 -C global -O nosym-offset -T -P 1 -c \
		--cmdlines-size 256 -B kt_ctl_a -e sched_wakeup -M 1 -b 500 ||
		fail "apply_undo exited $?"
	grep -q 'sched/sched_switch/filter: (prev_pid > 0)' "$TMP/during" || fail "filter not set"
	grep -q 'sched_switch/trigger: stacktrace' "$TMP/during" || fail "trigger not set"
	grep -q "^$T/trace_clock: local \[global\]" "$TMP/during" || fail "clock not set"
	grep -q "^$T/buffer_size_kb: 2000" "$TMP/during" || fail "buffer size not set"
	grep -q "^instance: kt_ctl_a" "$TMP/during" || fail "instance not created"
	grep -q "instances/kt_ctl_a/set_event: sched:sched_wakeup" "$TMP/during" ||
		fail "instance event not enabled"
	same_state "apply then undo"
	# A system-wide -e takes its filter where the fields exist, and fails where none has them.
	"$APPLY_UNDO" "grep -l 'prev_pid > 0' $T/events/sched/*/filter > $TMP/filtered" \
		-e sched -f 'prev_pid > 0' || fail "system filter refused"
	[ "$(cat "$TMP/filtered")" = "$T/events/sched/sched_switch/filter" ] ||
		fail "system filter landed on: $(cat "$TMP/filtered")"
	"$APPLY_UNDO" true -e sched -f 'no_such_field > 0' 2> "$TMP/err" && fail "bad filter taken"
	grep -q 'no matching event accepts the filter' "$TMP/err" || fail "$(cat "$TMP/err")"
	same_state "system filter"
	clear_custom_state
}

# A failure half way (a bad filter on the last event) restores what had been changed.
case_apply_failure() {
	custom_state
	"$SNAP" > "$TMP/before"
	"$APPLY_UNDO" true -b 2000 -C global -e sched:sched_switch -e irq:irq_handler_exit \
		-f 'no_such_field == 1' 2> "$TMP/err"
	[ $? -eq 1 ] || fail "apply should fail"
	grep -q 'irq_handler_exit/filter' "$TMP/err" || fail "message does not name the file"
	same_state "failed apply"
	clear_custom_state
}

# Function tracing is refused by this kernel: fail before any change, naming the file.
case_eperm() {
	"$SNAP" > "$TMP/before"
	for args in "-p function" "-e sched:sched_switch -l schedule" "-e irq -n schedule" \
		    "-e sched:sched_switch --func-stack"; do
		# shellcheck disable=SC2086
		"$KT" start $args 2> "$TMP/err" && fail "start $args succeeded"
		grep -q 'set_ftrace_filter (EPERM' "$TMP/err" || fail "no EPERM message: $(cat "$TMP/err")"
		same_state "start $args"
	done
	# Event tracing alone never opens those files.
	"$APPLY_UNDO" true -e sched:sched_switch -b 1000 || fail "event-only apply failed"
	same_state "event-only"
}

# Unknown names fail with suggestions, before any change.
case_suggestions() {
	"$SNAP" > "$TMP/before"
	"$KT" start -e sched:sched_swich 2> "$TMP/err" && fail "unknown event accepted"
	grep -q "did you mean 'sched:sched_switch'" "$TMP/err" || fail "event: $(cat "$TMP/err")"
	"$KT" start -p functon 2> "$TMP/err" && fail "unknown tracer accepted"
	grep -q "did you mean 'function'" "$TMP/err" || fail "tracer: $(cat "$TMP/err")"
	"$KT" start -e sched:sched_switch -C glob 2> "$TMP/err" && fail "unknown clock accepted"
	grep -q "did you mean 'global'" "$TMP/err" || fail "clock: $(cat "$TMP/err")"
	"$KT" start -e sched:sched_switch -O sym-ofset 2> "$TMP/err" && fail "unknown option"
	grep -q "sym-offset'" "$TMP/err" || fail "option: $(cat "$TMP/err")"
	"$KT" start -C global 2> "$TMP/err" && fail "start with nothing to trace succeeded"
	grep -q 'no event or tracer' "$TMP/err" || fail "nothing to start: $(cat "$TMP/err")"
	"$KT" start -i -e no_such_event_xyz -e sched:sched_switch 2> "$TMP/err" ||
		fail "-i did not ignore the missing event"
	"$KT" reset
	echo "$ORIG_ON" > $T/tracing_on
	same_state "suggestions"
}

# A ktrace killed after apply leaves a journal; reset --restore undoes its changes.
case_journal() {
	custom_state
	"$SNAP" > "$TMP/before"
	"$APPLY_UNDO" --kill -e sched:sched_switch -f 'prev_pid > 0' -R stacktrace -b 3000 \
		-C global -O nosym-offset -B kt_ctl_j -e irq
	[ $? -eq 137 ] || fail "the helper was not killed"
	[ -d $T/instances/kt_ctl_j ] || fail "the killed run's instance is missing"
	"$KT" reset --restore > "$TMP/out" || fail "reset --restore failed"
	grep -q 'restored .* setting(s) left by ktrace pid' "$TMP/out" || fail "$(cat "$TMP/out")"
	same_state "reset --restore"
	"$KT" reset --restore | grep -q 'nothing to restore' || fail "journal not removed"
	clear_custom_state
}

# A plain reset after a killed ktrace also removes the instances that ktrace created.
case_journal_reset() {
	"$SNAP" > "$TMP/before"
	"$APPLY_UNDO" --kill -B kt_ctl_k -e sched:sched_switch
	[ $? -eq 137 ] || fail "the helper was not killed"
	[ -d $T/instances/kt_ctl_k ] || fail "the killed run's instance is missing"
	"$KT" reset || fail "reset failed"
	[ -d $T/instances/kt_ctl_k ] && fail "reset kept the instance of the killed run"
	echo "$ORIG_ON" > $T/tracing_on
	same_state "reset after kill"
}

# start leaves tracing on with the plan applied; stop; reset gives the defaults.
case_start_stop_reset() {
	"$SNAP" > "$TMP/before"
	"$KT" start -e sched:sched_switch -f 'prev_pid > 0' -R stacktrace -C global -b 2000 \
		-O sym-offset || fail "start failed"
	[ "$(cat $T/tracing_on)" = 1 ] || fail "start left tracing off"
	[ "$(cat $T/set_event)" = sched:sched_switch ] || fail "start: set_event $(cat $T/set_event)"
	"$KT" stat > "$TMP/stat" || fail "stat failed"
	grep -q '^        sched_switch' "$TMP/stat" || fail "stat: no event"
	grep -q 'sched:sched_switch "(prev_pid > 0)"' "$TMP/stat" || fail "stat: no filter"
	grep -q 'sched:sched_switch "stacktrace' "$TMP/stat" || fail "stat: no trigger"
	grep -q 'Clock: global' "$TMP/stat" || fail "stat: no clock"
	grep -q '^   sym-offset' "$TMP/stat" || fail "stat: changed option missing"
	grep -q 'Tracing is enabled' "$TMP/stat" || fail "stat: tracing state"
	# Apart from the changed options (a ktrace addition), the layout is trace-cmd stat's.
	sed '/^Options changed/,/^$/d' "$TMP/stat" > "$TMP/stat_k"
	trace-cmd stat > "$TMP/stat_t"
	cmp -s "$TMP/stat_k" "$TMP/stat_t" || { diff "$TMP/stat_k" "$TMP/stat_t" >&2; fail "stat"; }
	"$KT" stat -o > "$TMP/stat_k"
	trace-cmd stat -o > "$TMP/stat_t"
	cmp -s "$TMP/stat_k" "$TMP/stat_t" || { diff "$TMP/stat_k" "$TMP/stat_t" >&2; fail "stat -o"; }
	"$KT" stop || fail "stop failed"
	[ "$(cat $T/tracing_on)" = 0 ] || fail "stop left tracing on"
	"$KT" show --tracing_on | grep -qx 0 || fail "show --tracing_on"
	"$KT" reset || fail "reset failed"
	[ "$(cat $T/tracing_on)" = 1 ] || fail "reset: tracing_on is not 1"
	[ -z "$(cat $T/set_event)" ] || fail "reset: events still on"
	grep -q '^none' $T/events/sched/sched_switch/filter || fail "reset: filter kept"
	grep -qv '^#' $T/events/sched/sched_switch/trigger && fail "reset: trigger kept"
	grep -q '^\[local\]' $T/trace_clock || fail "reset: clock"
	[ "$(cat $T/options/sym-offset)" = 0 ] || fail "reset: option kept"
	grep -q nop $T/current_tracer || fail "reset: tracer"
	echo "$ORIG_ON" > $T/tracing_on
	same_state "start, stop, reset"
}

# start with a COMMAND runs it with tracing set up (-F: only it) and waits; --fork returns once
# it runs. The settings stay. start refuses the options about a trace.dat file, as trace-cmd's
# does, before anything changes. (trace-cmd start itself fails on this kernel: its write of
# /proc/sys/kernel/ftrace_enabled gets EPERM; it refuses the same flags while parsing.)
case_start_command() {
	"$SNAP" > "$TMP/before"
	"$KT" start -e sched:sched_switch -F sh -c "echo \$\$ > $TMP/pid" ||
		fail "start -F COMMAND failed"
	[ -s "$TMP/pid" ] || fail "start -F: the command did not run"
	[ "$(cat $T/set_event_pid)" = "$(cat "$TMP/pid")" ] ||
		fail "start -F: set_event_pid '$(cat $T/set_event_pid)', the command was $(cat "$TMP/pid")"
	[ "$(cat $T/tracing_on)" = 1 ] || fail "start -F left tracing off"
	[ "$(cat $T/set_event)" = sched:sched_switch ] || fail "start -F: set_event $(cat $T/set_event)"
	"$KT" reset > /dev/null || fail "reset failed"
	echo "$ORIG_ON" > $T/tracing_on
	same_state "start -F COMMAND, reset"

	# without --fork start returns once the command has exited
	"$KT" start -e sched:sched_switch sh -c "sleep 0.5; echo done > $TMP/waited" ||
		fail "start COMMAND failed"
	[ -s "$TMP/waited" ] || fail "start COMMAND returned before the command exited"
	[ "$(cat $T/set_event)" = sched:sched_switch ] || fail "start COMMAND: set_event $(cat $T/set_event)"
	"$KT" start -e sched:sched_switch --fork sh -c "sleep 2; echo done > $TMP/forked" ||
		fail "start --fork COMMAND failed"
	[ -e "$TMP/forked" ] && fail "start --fork waited for the command"
	n=0
	while [ ! -s "$TMP/forked" ] && [ $n -lt 100 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	[ -s "$TMP/forked" ] || fail "start --fork: the command did not finish"
	"$KT" reset > /dev/null || fail "reset failed"
	echo "$ORIG_ON" > $T/tracing_on
	same_state "start --fork COMMAND, reset"

	# refused: one line naming the flag, the usage status, nothing changed
	for flag in "-m 100" "--compression zstd" "--file-version 6"; do
		"$KT" start -e sched:sched_switch $flag -- echo ran > "$TMP/out" 2> "$TMP/err"
		[ $? = 1 ] || fail "start $flag: not the usage status"
		[ "$(wc -l < "$TMP/err")" = 1 ] || fail "start $flag: not one line: $(cat "$TMP/err")"
		grep -q "^ktrace start: ${flag%% *} '${flag#* }' .*record" "$TMP/err" ||
			fail "start $flag: unclear error: $(cat "$TMP/err")"
		[ -s "$TMP/out" ] && fail "start $flag ran the command"
		trace-cmd start -e sched:sched_switch $flag > /dev/null 2>&1 &&
			fail "trace-cmd start $flag succeeded: the refusal is not trace-cmd's"
	done
	"$KT" start -e sched:sched_switch --fork 2> "$TMP/err" && fail "start --fork without COMMAND"
	grep -q "ktrace start: --fork needs a COMMAND" "$TMP/err" ||
		fail "start --fork: unclear error: $(cat "$TMP/err")"
	"$KT" start -e sched:sched_switch -F "$TMP/no-such-command" 2> "$TMP/err" &&
		fail "start with a missing command succeeded"
	grep -q "cannot run '$TMP/no-such-command'" "$TMP/err" ||
		fail "start, missing command: unclear error: $(cat "$TMP/err")"
	same_state "refused start"
}

# reset -B NAME -d deletes an instance; -a resets every instance.
case_reset_instances() {
	"$SNAP" > "$TMP/before"
	"$KT" start -B kt_ctl_r -e sched:sched_switch || fail "start -B failed"
	[ "$(cat $T/instances/kt_ctl_r/tracing_on)" = 1 ] || fail "instance not started"
	"$KT" stop -B kt_ctl_r || fail "stop -B"
	[ "$(cat $T/instances/kt_ctl_r/tracing_on)" = 0 ] || fail "stop -B left it on"
	"$KT" stat -B kt_ctl_r | grep -q 'Instance: kt_ctl_r' || fail "stat -B"
	"$KT" list -B | grep -qx kt_ctl_r || fail "list -B"
	"$KT" reset -B kt_ctl_r -d || fail "reset -B -d"
	[ -d $T/instances/kt_ctl_r ] && fail "instance not deleted"
	"$KT" stop -B kt_ctl_r 2> /dev/null && fail "stop of a missing instance succeeded"
	same_state "instances"
}

# reset removes every dynamic event (this kernel has uprobes but no kprobe_events: libtracefs's
# remove-all failed on the missing file, and reset exited 1), one still enabled in an instance
# too; -k KIND keeps that kind (trace-cmd 3.4), a wrong KIND is one line.
case_reset_dynevents() {
	"$SNAP" > "$TMP/before"
	[ -e $T/uprobe_events ] || fail "this kernel has no uprobe_events"
	echo 'p:kt_ctl/up /bin/true:0x1000' >> $T/uprobe_events || fail "cannot add a uprobe"
	echo 'r:kt_ctl/uret /bin/true:0x1000' >> $T/uprobe_events || fail "cannot add a uretprobe"
	mkdir $T/instances/kt_ctl_dyn || fail "cannot make an instance"
	echo 1 > $T/instances/kt_ctl_dyn/events/kt_ctl/up/enable || fail "cannot enable the uprobe"
	"$KT" reset -k uretprobe || fail "reset -k uretprobe exited $?"
	grep -q '^p:kt_ctl/up ' $T/dynamic_events && fail "the enabled uprobe is still there"
	grep -q '^r:kt_ctl/uret ' $T/dynamic_events || fail "-k uretprobe did not keep the uretprobe"
	"$KT" reset -k bogus 2> "$TMP/err" && fail "reset -k bogus accepted"
	grep -q "\-k 'bogus' is not one of" "$TMP/err" || fail "-k bogus: $(cat "$TMP/err")"
	"$KT" reset || fail "reset with a uretprobe left exited $?"
	[ -s $T/dynamic_events ] && fail "reset left: $(cat $T/dynamic_events)"
	rmdir $T/instances/kt_ctl_dyn
	same_state "reset of dynamic events"
}

# list, show and stat print sane content.
case_list_show() {
	"$SNAP" > "$TMP/before"
	"$KT" list -t | grep -qw nop || fail "list -t"
	"$KT" list -e 'sched:sched_switch$' | grep -qx 'sched:sched_switch' || fail "list -e"
	"$KT" list -e 'sched:sched_switch$' -F > "$TMP/fmt" || fail "list -F"
	grep -q '^system: sched' "$TMP/fmt" && grep -q 'field:pid_t next_pid' "$TMP/fmt" ||
		fail "list -F content"
	grep -q 'print fmt' "$TMP/fmt" && fail "print fmt without --full"
	"$KT" list -e 'sched:sched_switch$' -F --full | grep -q 'print fmt' || fail "--full"
	"$KT" list -o | grep -qx 'print-parent' || fail "list -o"
	"$KT" list -C | grep -q '\[' || fail "list -C"
	"$KT" list -c | grep -q 'zstd' || fail "list -c"
	"$KT" list | grep -q '^event systems:' || fail "list"
	"$KT" list -f sched 2> "$TMP/err"
	[ $? -eq 0 ] || grep -q 'available_filter_functions' "$TMP/err" || fail "list -f"
	"$KT" show | grep -q '^# tracer: ' || fail "show"
	"$KT" show -f --current_tracer | grep -q "$T/current_tracer" || fail "show -f"
	"$KT" show --buffer_size | grep -q '^[0-9]' || fail "show --buffer_size"
	"$KT" show --ftrace_filter 2> "$TMP/err"
	[ $? -eq 0 ] || grep -q 'set_ftrace_filter' "$TMP/err" || fail "show --ftrace_filter"
	"$KT" stat | grep -q 'Buffer size in kilobytes' || fail "stat"
	# Same output as trace-cmd list (the peer is installed on the test machine).
	for args in "-o" "-o -t" "-t" "-p" "-s" "-P" "-O" "-t -s" "-s --debug" "-C" "-e sched_switch -F" \
		    "-e sched_switch -F --full" "-e sched -l" \
		    "-e sched:sw" "-e SCHED_SW" "-e ftrace" "-e ^irq:.*entry\$" "-e sched:"; do
		# shellcheck disable=SC2086
		"$KT" list $args > "$TMP/k" 2>&1
		# shellcheck disable=SC2086
		trace-cmd list $args > "$TMP/t" 2>&1
		cmp -s "$TMP/k" "$TMP/t" || { diff "$TMP/k" "$TMP/t" | head >&2; fail "list $args"; }
	done
	# -o REGEX: trace-cmd 3.4 lists the options whose name matches (3.1.6 ignores REGEX), so
	# 3.1.6's list filtered by name, case-insensitively, as 3.4's regcomp(REG_ICASE)
	trace-cmd list -o > "$TMP/t"
	for re in print '^NO' '^sym-\(addr\|offset\)'; do
		"$KT" list -o "$re" > "$TMP/k" || fail "list -o $re"
		case $re in ^*) pat=$re ;; *) pat="^[^	]*$re" ;; esac
		sed 's/^no//' "$TMP/t" | paste - "$TMP/t" | grep -i "$pat" | cut -f2 |
			cmp -s - "$TMP/k" || { diff "$TMP/k" "$TMP/t" | head >&2; fail "list -o $re"; }
		[ -s "$TMP/k" ] || [ "$re" = '^NO' ] || fail "list -o $re matched nothing"
	done
	same_state "list/show/stat"
}

# -O OPTION that flips OPTION's current value
flip() {
	if [ "$(cat $T/options/$1)" = 1 ]; then echo "no$1"; else echo "$1"; fi
}

# -O takes every option of options/, each flipped at once, and record puts them all back. The
# kernel refuses two flips, and the error names the file: the nop tracer's test_nop_refuse, and
# trace_printk_dest off in the top instance (only another instance taking it clears it).
REFUSED="test_nop_refuse trace_printk_dest"
case_options_all() {
	"$SNAP" > "$TMP/before"
	set --
	: > "$TMP/want"
	for f in $T/options/*; do
		o=${f##*/}
		case " $REFUSED " in *" $o "*) continue ;; esac
		set -- "$@" -O "$(flip "$o")"
		echo "$o: $((1 - $(cat "$f")))" >> "$TMP/want"
	done
	[ $# -gt 40 ] || fail "only $(($# / 2)) options in $T/options"
	"$KT" record -q -o "$TMP/o.dat" -e sched:sched_process_exit "$@" -- sh -c \
		"for f in $T/options/*; do echo \"\${f##*/}: \$(cat \$f)\"; done > $TMP/during" \
		2> "$TMP/err" || fail "record with every option flipped: $(cat "$TMP/err")"
	grep -v -E "^(${REFUSED% *}|${REFUSED#* }):" "$TMP/during" | diff -u "$TMP/want" - >&2 ||
		fail "options during the record differ from the -O given"
	same_state "every option flipped by record -O"
	for o in $REFUSED; do
		[ -e $T/options/$o ] || continue
		"$KT" record -q -o "$TMP/o.dat" -e sched:sched_process_exit -O "$(flip $o)" -- true \
			2> "$TMP/err" && fail "-O $(flip $o) accepted"
		grep -q "options/$o: Invalid argument" "$TMP/err" ||
			fail "-O $(flip $o): unclear error: $(cat "$TMP/err")"
	done
	same_state "-O refused"
}

# show FILE prints any tracefs file (a folder: its entries) and refuses paths out of tracefs;
# show --hist says what is missing.
case_show_files() {
	"$SNAP" > "$TMP/before"
	"$KT" show tracing_thresh events/sched/sched_switch/format > "$TMP/out" || fail "show FILE"
	cat $T/tracing_thresh $T/events/sched/sched_switch/format | cmp -s - "$TMP/out" ||
		fail "show FILE differs from the files"
	mkdir $T/instances/kt_ctl_show || fail "cannot create an instance"
	"$KT" show -B kt_ctl_show options/ > "$TMP/out"
	rc=$?
	rmdir $T/instances/kt_ctl_show
	[ $rc = 0 ] || fail "show -B INSTANCE options/ failed"
	grep -qx overwrite "$TMP/out" || fail "show options/ lists no overwrite: $(head -3 "$TMP/out")"
	"$KT" show events/ | grep -qx 'sched/' || fail "show events/ lists no sched/"
	for bad in /etc/passwd ../../etc/passwd events/../../x; do
		"$KT" show "$bad" > "$TMP/out" 2> "$TMP/err" && fail "show $bad accepted"
		[ -s "$TMP/out" ] && fail "show $bad printed something"
		grep -q "FILE '$bad'" "$TMP/err" || fail "show $bad: unclear error: $(cat "$TMP/err")"
	done
	"$KT" show no_such_file 2> "$TMP/err" && fail "show of a missing file succeeded"
	grep -q "$T/no_such_file" "$TMP/err" || fail "show no_such_file: unclear error"
	"$KT" show --hist > "$TMP/out" || fail "show --hist"
	grep -qx 'no event has a hist trigger' "$TMP/out" || fail "show --hist: $(cat "$TMP/out")"
	"$KT" show --hist sched:sched_switch 2> "$TMP/err" && fail "show --hist of no hist"
	if [ -e $T/events/sched/sched_switch/hist ]; then
		grep -q 'the event has no hist trigger' "$TMP/err"
	else
		grep -q 'CONFIG_HIST_TRIGGERS' "$TMP/err"
	fi || fail "show --hist sched:sched_switch: unclear error: $(cat "$TMP/err")"
	"$KT" show --hist no_such_event 2> "$TMP/err" && fail "show --hist of no event"
	grep -q "'no_such_event': no such event" "$TMP/err" || fail "no event: $(cat "$TMP/err")"
	# trace-cmd 3.4's --hist=EVENT, --trigger EVENT (the file, then a newline), and the
	# files of --buffer_subbuf_size and --buffer_percent
	"$KT" show --hist=sched:sched_switch 2> "$TMP/err2" && fail "show --hist= of no hist"
	cmp -s "$TMP/err" "$TMP/err2" && fail "show --hist=EVENT ignored EVENT"
	{ cat $T/events/sched/sched_switch/trigger; echo; } > "$TMP/want"
	for ev in sched:sched_switch sched_switch; do
		"$KT" show --trigger $ev > "$TMP/out" || fail "show --trigger $ev"
		cmp -s "$TMP/want" "$TMP/out" || fail "show --trigger $ev: $(cat "$TMP/out")"
	done
	"$KT" show --trigger no_such_event 2> "$TMP/err" && fail "show --trigger of no event"
	[ "$(wc -l < "$TMP/err")" = 1 ] && grep -q "'no_such_event': no such event" "$TMP/err" ||
		fail "show --trigger no_such_event: $(cat "$TMP/err")"
	for f in buffer_subbuf_size:buffer_subbuf_size_kb buffer_percent:buffer_percent; do
		"$KT" show --${f%%:*} > "$TMP/out" || fail "show --${f%%:*}"
		cat $T/${f#*:} | cmp -s - "$TMP/out" || fail "show --${f%%:*}: $(cat "$TMP/out")"
	done
	same_state "show FILE"
}

# ktrace record puts the custom state back after recording.
case_record_restore() {
	custom_state
	"$SNAP" > "$TMP/before"
	(cd "$TMP" && "$KT" record -q -e sched:sched_switch -f 'prev_pid >= 0' -b 2000 \
		-C global -O nosym-offset -o "$TMP/r.dat" -- sleep 0.1) || fail "record failed"
	[ -s "$TMP/r.dat" ] || fail "no trace file"
	same_state "record"
	clear_custom_state
}

# A record ended by SIGINT, SIGTERM or SIGHUP puts the custom state back too.
case_record_signals() {
	custom_state
	"$SNAP" > "$TMP/before"
	for sig in INT TERM HUP; do
		"$KT" record -q -e sched:sched_switch -f 'prev_pid >= 0' -b 2000 -C global \
			-O nosym-offset -B kt_ctl_s -e irq -o "$TMP/s.dat" > /dev/null 2>&1 &
		pid=$!
		# Wait until the plan is applied (the instance exists), then signal.
		n=0
		while [ ! -d $T/instances/kt_ctl_s ] && [ $n -lt 50 ]; do
			sleep 0.1
			n=$((n + 1))
		done
		sleep 0.3
		kill -"$sig" "$pid"
		wait "$pid"
		same_state "record ended by SIG$sig"
	done
	clear_custom_state
}

case "$CASE" in
apply_undo | apply_failure | eperm | suggestions | journal | journal_reset | start_stop_reset | \
start_command | reset_instances | reset_dynevents | list_show | record_restore | \
record_signals | options_all | show_files)
	"case_$CASE"
	;;
*)
	fail "unknown case"
	;;
esac
echo "ok $CASE"
