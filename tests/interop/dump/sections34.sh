#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# trace-cmd 3.4's sections in a file made by gen_sections34 from corpus files: a LAST_BOOT_INFO
# option, a MODULES_FILE section (/proc/modules) and a BTF_FILE section. ktrace dump prints them
# as trace-cmd 3.4's trace-dump.c does (the option text; "[Saved modules]", the content and its
# size, even in the summary; the section's header with --modules; BTF_FILE as an unknown
# option, 3.4 has no case for it); both tools' reports read past them unchanged; convert keeps
# them in v7 and leaves them out of v6, which has no sections.
#   sections34.sh KTRACE GEN_SECTIONS34 CORPUS_DIR
set -u
KTRACE=$1
GEN=$(realpath "$2")
CORPUS=$(realpath "$3")
. "$(dirname "$0")/../lib.sh"
need_trace_cmd

MODULES='virtio_net 73728 0 - Live 0xffffffffc0400000
net_failover 24576 1 virtio_net, Live 0xffffffffc03f0000'

# has FILE TEXT WHAT: FILE holds TEXT (several lines) as it is
has() {
	grep -qzF -- "$2" "$1" || fail "$3: no $(printf %q "$2") in $1"
}

for name in sched instance fgraph_events; do
	src=$CORPUS/$name.dat
	out=$W/$name.34.dat
	"$GEN" "$src" "$out" || { fail "$name: gen_sections34 failed"; continue; }

	"$KTRACE" dump --options "$out" > "$W/$name.options" 2>&1 || fail "$name: dump --options"
	has "$W/$name.options" $'\t\t[Option LAST_BOOT_INFO, 51 bytes]\nboot_map:# Last boot\n0xffffffff81000000 [kernel]\n' \
		"$name: LAST_BOOT_INFO"
	grep -qE $'^\t\t\\[Option MODULES_FILE, 8 bytes\\] @ [0-9]+$' "$W/$name.options" ||
		fail "$name: no MODULES_FILE option line"
	has "$W/$name.options" $' 23 8\t[Unknown option, size - skipping]\n' "$name: BTF_FILE"

	"$KTRACE" dump "$out" > "$W/$name.summary" 2>&1 || fail "$name: dump"
	has "$W/$name.summary" $'\t[Saved modules]\n'"$MODULES"$'\n\n[102 bytes]\n' \
		"$name: summary's modules"
	"$KTRACE" dump --modules "$out" > "$W/$name.modules" 2>&1 || fail "$name: dump --modules"
	grep -qE $'^\t\\[Section 25 @ [0-9]+: "modules", flags 0x1, [0-9]+ bytes\\]$' \
		"$W/$name.modules" || fail "$name: --modules shows no section 25 header"
	[ "$(grep -c . "$W/$name.modules")" = 5 ] ||
		fail "$name: --modules printed more than the section: $(head -c 300 "$W/$name.modules")"

	same_reports "$name-34" "$out" || continue
	cmp -s "$W/$name-34.kt" <(run_clean "$CORPUS" "$KTRACE" report -i "$name.dat" 2>&1) ||
		fail "$name: the report of the file with the 3.4 sections differs from its source's"

	"$KTRACE" convert --compression zlib -i "$out" -o "$W/$name.zlib.dat" 2> "$W/err" ||
		fail "$name: convert to zlib: $(cat "$W/err")"
	"$KTRACE" dump "$W/$name.zlib.dat" > "$W/$name.zlib.summary" 2>&1
	has "$W/$name.zlib.summary" $'\t[Saved modules]\n'"$MODULES"$'\n\n[102 bytes]\n' \
		"$name: zlib copy's modules"
	"$KTRACE" dump --options "$W/$name.zlib.dat" > "$W/$name.zlib.options" 2>&1
	has "$W/$name.zlib.options" $'\t\t[Option LAST_BOOT_INFO, 51 bytes]\n' "$name: zlib copy"
	grep -q "Unknown option" "$W/$name.zlib.options" && grep -q "^ 23 8" "$W/$name.zlib.options" ||
		fail "$name: the zlib copy lost BTF_FILE"
	"$KTRACE" convert --file-version 6 -i "$out" -o "$W/$name.v6.dat" 2> "$W/err" ||
		fail "$name: convert to v6: $(cat "$W/err")"
	"$KTRACE" dump "$W/$name.v6.dat" 2>&1 | grep -q "Saved modules" &&
		fail "$name: a v6 file cannot hold the modules section"
	cmp -s <(run_clean "$W" "$KTRACE" report -i "$name.v6.dat" 2>&1) "$W/$name-34.kt" ||
		fail "$name: the v6 copy reports otherwise"
	pass "$name: 3.4's sections dumped, read past, kept by convert"
done
finish
