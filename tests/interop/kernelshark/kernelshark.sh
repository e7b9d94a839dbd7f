#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Debian's KernelShark (2.2.1) opens the files ktrace writes: version 7 with zstd, version 6,
# and with instances, each written by ktrace convert from a corpus recording. Two checks:
# KernelShark's own loader (libkshark, through kshark_load) must find one stream per buffer
# and exactly the events ktrace report prints; and the GUI, on an X server of its own (Xvfb:
# Qt's offscreen platform has no OpenGL for KernelShark's graph, and KernelShark reports a
# file it cannot load only once its window is up), must load each file without an ERROR line.
# A truncated file must make both fail: the checks can tell.
#   kernelshark.sh KTRACE KSHARK_LOAD CORPUS_DIR
set -u
KTRACE=$1
LOAD=$(realpath "$2")
# Under scripts/sanitize, kshark_load is an ASan binary: what KernelShark's library leaks is
# not ktrace's to find.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
CORPUS=$(realpath "$3")
. "$(dirname "$0")/../lib.sh"
for tool in kernelshark xvfb-run; do
	command -v $tool > /dev/null || { echo "FAIL: $tool is missing: run scripts/deps test"; exit 1; }
done
# The GUI warns in a dialog when run as root: nobody runs it, in a home of its own.
chmod 755 "$W"
mkdir -m 777 "$W/home"

write() {	# NAME SOURCE ARGS...: ktrace convert SOURCE into $W/NAME
	local name=$1 src=$2
	shift 2
	"$KTRACE" convert -i "$CORPUS/$src" "$@" -o "$W/$name" > "$W/convert.log" 2>&1 ||
		{ fail "ktrace convert $src $*"; cat "$W/convert.log"; }
	chmod 644 "$W/$name"
}
write v7-zstd.dat sched.dat --file-version 7 --compression zstd
write v6.dat sched.dat --file-version 6
write v7-instances.dat instance.dat --file-version 7
write v6-instances.dat instance.dat --file-version 6
head -c 3000 "$W/v7-zstd.dat" > "$W/truncated.dat"
chmod 644 "$W/truncated.dat"

# gui FILE: KernelShark's own messages after it loaded FILE for 8 seconds.
gui() {
	# -ac: nobody cannot read root's X authority file.
	HOME=$W/home timeout 60 xvfb-run -a -s '-ac -screen 0 1280x800x24' runuser -u nobody -- \
		timeout 8 kernelshark "$1" 2>&1 | grep -v -e '^QStandardPaths' -e 'propagateSizeHints'
}

# FILE:STREAMS: instance.dat has the top buffer and the instance inst1.
for case in v7-zstd:1 v6:1 v7-instances:2 v6-instances:2; do
	f=${case%:*}
	buffers=${case#*:}
	dat=$W/$f.dat
	if ! "$LOAD" "$dat" > "$W/streams" 2> "$W/load.err"; then
		fail "$f: KernelShark's loader: $(cat "$W/load.err")"
		continue
	fi
	streams=$(wc -l < "$W/streams")
	ks_events=$(awk '{ n += $2 } END { print n + 0 }' "$W/streams")
	kt_events=$("$KTRACE" report -i "$dat" | grep -c ' [0-9]*\.[0-9]*: ')
	if [ "$streams" = "$buffers" ] && [ "$ks_events" = "$kt_events" ] && [ "$ks_events" -gt 0 ]
	then
		pass "$f: libkshark loads $streams stream(s), $ks_events events, as ktrace report"
	else
		fail "$f: libkshark: $streams streams ($buffers buffers), $ks_events events" \
			"($kt_events in ktrace report)"
	fi
	gui "$dat" > "$W/gui.log"
	if grep -q "^Loading  *\"$dat\"" "$W/gui.log" && ! grep -q ERROR "$W/gui.log"; then
		pass "$f: the KernelShark GUI loads it"
	else
		fail "$f: the KernelShark GUI:"; cat "$W/gui.log"
	fi
done
"$LOAD" "$W/truncated.dat" > /dev/null 2>&1 && fail "libkshark loaded a truncated file" ||
	pass "libkshark refuses a truncated file"
gui "$W/truncated.dat" | grep -q ERROR && pass "the GUI reports an ERROR for a truncated file" ||
	fail "the GUI shows no error for a truncated file"
finish
