#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# ktrace convert against trace-cmd 3.1.6. Every corpus file (v6, v7 none and zstd, instances),
# a v6 file with instances (the dat fuzz seed), the latency files of the dat_roundtrip unit
# test, and the zlib files convert makes (read back by converting them again) are converted
# to v6, v7 none, v7 zstd and v7 zlib. Each output must print, through trace-cmd report
# (Debian's has no zlib: not for those) and ktrace report, the same bytes as its input does
# through the same tool, plain, with -R and with --stat (but for the offsets of the CPU data);
# trace-cmd dump --summary and ktrace dump must read it and agree. Then what convert refuses:
# one line on stderr, exit 1, no output left.
#   ktrace_convert.sh KTRACE ROUNDTRIP_TEST CORPUS_DIR SEEDS_DIR
set -u
KTRACE=$1
RT=$(realpath "$2")
CORPUS=$(realpath "$3")
SEEDS=$(realpath "$4")
. "$(dirname "$0")/../lib.sh"
need_trace_cmd

VARIANTS=("6" "7 none" "7 zstd" "7 zlib")
REPORTS=("" "-R" "--stat")
CONVERTED=0

# The reports of one tool on one file, every REPORTS variant, into $W/reports/NAME.TOOL.
reports_of() {	# TOOL FILE NAME
	local tool=$1 dir base opt i=0
	dir=$(dirname "$2")
	base=$(basename "$2")

	for opt in "${REPORTS[@]}"; do
		# shellcheck disable=SC2086 # "" is no option
		run_clean "$dir" "$tool" report $opt -i "$base" > "$W/reports/$3.$i" 2>&1 ||
			echo "exit status $?" >> "$W/reports/$3.$i"
		# --stat says where each CPU's data lies: another layout puts it elsewhere
		sed -i 's/data recorded at offset=0x[0-9a-f]*/data recorded at offset=X/' \
			"$W/reports/$3.$i"
		i=$((i + 1))
	done
}

same_as_input() {	# TOOL INPUT_NAME OUTPUT_NAME
	local i

	for ((i = 0; i < ${#REPORTS[@]}; i++)); do
		if ! cmp -s "$W/reports/$2.$i" "$W/reports/$3.$i"; then
			fail "$3: $1 report ${REPORTS[$i]} differs from the input's:"
			diff "$W/reports/$2.$i" "$W/reports/$3.$i" | head -10
			return 1
		fi
	done
	[ "$(wc -l < "$W/reports/$2.0")" -ge 2 ] || fail "$2: too short a report to compare"
}

same_dumps() {	# FILE NAME
	local dir base
	dir=$(dirname "$1")
	base=$(basename "$1")

	run_clean "$dir" trace-cmd dump --summary -i "$base" > "$W/$2.dump.tc" 2>&1 ||
		{ fail "$2: trace-cmd dump: $(head -3 "$W/$2.dump.tc")"; return 1; }
	run_clean "$dir" "$KTRACE" dump --summary -i "$base" > "$W/$2.dump.kt" 2>&1 ||
		{ fail "$2: ktrace dump: $(head -3 "$W/$2.dump.kt")"; return 1; }
	cmp -s "$W/$2.dump.tc" "$W/$2.dump.kt" ||
		{ fail "$2: ktrace dump differs from trace-cmd dump:"; diff "$W/$2.dump.tc" \
			"$W/$2.dump.kt" | head -10; }
}

# Converts FILE (named NAME) to every variant and checks each output against FILE's reports;
# trace-cmd's against those of the file named REF when FILE is one trace-cmd cannot read.
check_file() {	# FILE NAME [REF]
	local src=$1 name=$2 ref=${3:-$2} v out

	[ -n "${3:-}" ] || reports_of trace-cmd "$src" "$name.tc"
	reports_of "$KTRACE" "$src" "$name.kt"
	for v in "${VARIANTS[@]}"; do
		# shellcheck disable=SC2086 # "7 zstd" is two words
		set -- $v
		out=$W/out/$name$(variant_suffix "$v")
		if ! "$KTRACE" convert --file-version "$1" ${2:+--compression "$2"} -i "$src" \
			-o "$out" > "$W/convert.log" 2>&1; then
			fail "convert $name to $(basename "$out"): $(head -3 "$W/convert.log")"
			continue
		fi
		[ -s "$W/convert.log" ] && fail "convert $name: printed $(head -1 "$W/convert.log")"
		CONVERTED=$((CONVERTED + 1))
		reports_of "$KTRACE" "$out" "$(basename "$out").kt"
		same_as_input ktrace "$name.kt" "$(basename "$out").kt"
		[ "${2:-}" != zlib ] || continue
		reports_of trace-cmd "$out" "$(basename "$out").tc"
		same_as_input trace-cmd "$ref.tc" "$(basename "$out").tc"
		same_dumps "$out" "$(basename "$out")"
	done
}

mkdir -p "$W/reports" "$W/out" "$W/in"
"$RT" "$CORPUS" "$W/in" > "$W/roundtrip.log" 2>&1 ||
	fail "the roundtrip test could not write the latency files: $(tail -3 "$W/roundtrip.log")"
for f in "$CORPUS"/*.dat "$SEEDS/instance.v6.dat" "$W"/in/latency-v6.dat \
	"$W"/in/latency-v7-zstd.dat; do
	check_file "$f" "$(basename "$f" .dat)"
done
# zlib input: what convert wrote, converted again
for ref in sched instance latency-v6; do
	cp "$W/out/$ref-v7-zlib.dat" "$W/in/$ref-zlib.dat"
	check_file "$W/in/$ref-zlib.dat" "$ref-zlib" "$ref"
done
[ "$CONVERTED" -ge 100 ] || fail "only $CONVERTED conversions made"

# What convert refuses.
refused() {	# WHY ARGS...: exit 1, one line naming ktrace convert, no file x.dat left
	local why=$1
	shift
	rm -f "$W/x.dat"
	(cd "$W" && "$KTRACE" convert "$@") > "$W/refused.out" 2> "$W/refused.err"
	local rc=$?
	if [ "$rc" != 1 ] || [ "$(wc -l < "$W/refused.err")" != 1 ] ||
		! grep -q '^ktrace convert: ' "$W/refused.err" || [ -s "$W/refused.out" ]; then
		fail "$why: exit $rc, stderr: $(head -3 "$W/refused.err")"
	elif [ -e "$W/x.dat" ] || compgen -G "$W/.x.dat.*" > /dev/null; then
		fail "$why: left a file behind"
	else
		pass "$why: $(cat "$W/refused.err")"
	fi
}
head -c 5000 "$CORPUS/sched.dat" > "$W/trunc-head.dat"
v6=$W/out/sched-v6.dat
head -c $(($(stat -c %s "$v6") - 5000)) "$v6" > "$W/trunc-data.dat"
# a chunk of CPU 0's compressed data damaged: its offset from the BUFFER option
cp "$CORPUS/sched.dat" "$W/damaged.dat"
at=$("$KTRACE" dump --flyrecord -i "$W/damaged.dat" |
	awk '/data offset and size/ && $1 == 0 { print $2; exit }')
printf '\xff\xff\xff\xff\xff\xff\xff\xff' |
	dd of="$W/damaged.dat" bs=1 seek=$((at + 20)) conv=notrunc status=none
refused "a damaged compressed chunk" -i damaged.dat -o x.dat
refused "a truncated header" -i trunc-head.dat -o x.dat
refused "truncated CPU data" -i trunc-data.dat -o x.dat
refused "an unknown compression" --compression lz4 -i "$CORPUS/sched.dat" -o x.dat
refused "file version 5" --file-version 5 -i "$CORPUS/sched.dat" -o x.dat
refused "no output" -i "$CORPUS/sched.dat"
refused "a second -i" -i "$CORPUS/sched.dat" -i "$CORPUS/kmem.dat" x.dat
refused "a missing input" -i nothing.dat x.dat
cp "$v6" "$W/self.dat"
sum=$(md5sum < "$W/self.dat")
refused "the input as output" -i self.dat -o ./self.dat
[ "$(md5sum < "$W/self.dat")" = "$sum" ] || fail "the input was changed"

# The defaults: version 7, zstd; a compression makes --file-version 6 a version 7 file.
(cd "$W" && cp "$CORPUS/sched_v6.dat" trace.dat && "$KTRACE" convert d.dat &&
	"$KTRACE" convert --file-version 6 --compression any -i trace.dat u.dat) ||
	fail "convert with the defaults"
for f in d.dat u.dat; do
	run_clean "$W" "$KTRACE" dump --summary -i "$f" | grep -q 'zstd	\[Compression algorithm\]' ||
		fail "$f: not version 7 with zstd"
done
echo "$CONVERTED conversions read the same as their inputs"
finish
