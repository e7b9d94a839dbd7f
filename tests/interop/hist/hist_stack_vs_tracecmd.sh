#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# ktrace hist [-P] without a kind (trace-cmd's call-stack histogram) vs trace-cmd 3.1.6 hist on
# every corpus file: byte-identical output. usage: hist_stack_vs_tracecmd.sh KTRACE CORPUS
KTRACE=$(realpath "$1")
CORPUS=$(realpath "$2")
. "$(dirname "$0")/../lib.sh"
need_trace_cmd

T="env -i PATH=/usr/bin:/bin HOME=/nonexistent LC_ALL=C"
n=0 bad=0
for f in "$CORPUS"/*.dat; do
	for P in "" -P; do
		n=$((n + 1))
		if ! cmp -s <(cd "$CORPUS" && $T trace-cmd hist $P -i "${f##*/}" 2>&1) \
			    <(cd "$CORPUS" && $T "$KTRACE" hist $P -i "${f##*/}" 2>&1); then
			echo "FAIL: hist $P -i ${f##*/} differs from trace-cmd's"
			bad=$((bad + 1))
		fi
	done
done
echo "hist call-stack: $((n - bad))/$n byte-identical"
[ "$n" -ge 40 ] && [ "$bad" -eq 0 ]
