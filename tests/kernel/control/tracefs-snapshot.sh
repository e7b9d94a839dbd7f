#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Prints the tracefs settings ktrace may touch, one "file: value" per line, so that two
# snapshots can be diffed (the restore-state tests). Event filters and triggers are listed
# only where set, to keep it fast.
T=${TRACEFS:-/sys/kernel/tracing}
snap_instance() {
	d=$1
	for f in tracing_on current_tracer buffer_size_kb trace_clock tracing_cpumask \
		 set_event_pid set_event_notrace_pid; do
		[ -r "$d/$f" ] && printf '%s: %s\n' "$d/$f" "$(tr '\n' ' ' < "$d/$f")"
	done
	printf '%s: %s\n' "$d/set_event" "$(sort "$d/set_event" | tr '\n' ' ')"
	for f in "$d"/options/*; do
		printf '%s: %s\n' "$f" "$(cat "$f")"
	done
	grep -L '^none' "$d"/events/*/*/filter 2>/dev/null | while read -r f; do
		printf '%s: %s\n' "$f" "$(cat "$f")"
	done
	grep -l -v '^#' "$d"/events/*/*/trigger 2>/dev/null | while read -r f; do
		printf '%s: %s\n' "$f" "$(grep -v '^#' "$f" | tr '\n' ' ')"
	done
}
snap_instance "$T"
printf 'saved_cmdlines_size: %s\n' "$(cat "$T/saved_cmdlines_size")"
for i in "$T"/instances/*; do
	[ -d "$i" ] || continue
	printf 'instance: %s\n' "${i##*/}"
	snap_instance "$i"
done
