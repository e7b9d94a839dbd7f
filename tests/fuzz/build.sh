#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Builds the libFuzzer targets with clang, ASan and UBSan, outside meson's compiler (the main
# build may use gcc). Called by the custom target in meson.build.
# usage: build.sh SRCROOT DEPFILE FUZZ_DAT FUZZ_NET FUZZ_FILTER FUZZ_FORMAT FUZZ_SQLHIST SOURCE.c...
#   SOURCE.c: the core library's sources and the targets' own files (fuzz_*.c).
set -eu
script=$(realpath "$0")
root=$(realpath "$1") depfile=$2 out_dat=$3 out_net=$4 out_filter=$5 out_format=$6 out_sqlhist=$7
shift 7
objdir=$(dirname "$out_dat")/fuzz-obj
mkdir -p "$objdir"
pkgs="libtracefs libtraceevent zlib libzstd sqlite3 openssl libedit"
san="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
cflags="-g -O1 -fno-omit-frame-pointer -std=gnu11 -D_GNU_SOURCE $san
	-I$root/include -I$root/src/dat -I$root/src/listen -I$root/src/report -I$root/src/control -I$root/tests/unit -I$root/tests/fuzz
	-DSQLHIST_EVENTS_DIR=\\\"$root/tests/data/sqlhist\\\"
	$(pkg-config --cflags $pkgs)"
libs="$(pkg-config --libs $pkgs) -lpthread -lm"

# One object per source, named after its path so that equal base names do not collide.
objname() {
	echo "$objdir/$(realpath "$1" | sed "s|^$root/||; s|/|_|g; s|\.c\$|.o|")"
}
# Only what changed is compiled again: every engineer's `meson test` builds these.
stale() {	# OBJ: missing, or older than a file its last compile read
	[ -e "$1" ] && [ -e "$1.d" ] && [ ! "$script" -nt "$1" ] || return 0
	for dep in $(sed 's/^[^:]*://; s/\\$//' "$1.d"); do
		[ "$dep" -nt "$1" ] && return 0
	done
	return 1
}
for src in "$@"; do
	obj=$(objname "$src")
	stale "$obj" && printf '%s\n%s\n' "$(realpath "$src")" "$obj"
done | xargs -r -n 2 -P "$(nproc)" sh -c \
	'exec clang '"$(echo $cflags)"' -fsanitize=fuzzer-no-link -MD -MF "$1.d" -c "$0" -o "$1"'
core=""
for src in "$@"; do
	case $src in
	*/fuzz_*.c) ;;
	*) core="$core $(objname "$src")" ;;
	esac
done

# fuzz_dat: libtraceevent's leaks on damaged formats are left out (see fuzz_tep_leaks.c)
wrap="$(objname "$root/tests/fuzz/fuzz_tep_leaks.c") -Wl,--wrap=tep_parse_event
	-Wl,--wrap=tep_parse_format -Wl,--wrap=tep_filter_add_filter_str
	-Wl,--wrap=tep_parse_saved_cmdlines"
# shellcheck disable=SC2086
budget=$(objname "$root/tests/fuzz/fuzz_cpu_budget.c")
# shellcheck disable=SC2086
clang $san -fsanitize=fuzzer -o "$out_dat" "$(objname "$root/tests/fuzz/fuzz_dat.c")" $wrap \
	"$budget" $core $libs
# shellcheck disable=SC2086
clang $san -fsanitize=fuzzer -o "$out_net" "$(objname "$root/tests/fuzz/fuzz_net.c")" "$budget" \
	$core $libs
# fuzz_filter: the filters libtraceevent accepts leak the nodes a later condition replaced
# ("a == 1 b == 2"): left out of leak checking as in fuzz_dat
# shellcheck disable=SC2086
clang $san -fsanitize=fuzzer -o "$out_filter" "$(objname "$root/tests/fuzz/fuzz_filter.c")" \
	$wrap "$budget" $core $libs
# fuzz_format: libtraceevent's leaks on damaged formats, as fuzz_dat
# shellcheck disable=SC2086
clang $san -fsanitize=fuzzer -o "$out_format" "$(objname "$root/tests/fuzz/fuzz_format.c")" \
	$wrap "$budget" $core $libs
# fuzz_sqlhist: libtracefs's SQL parser, fed what sqlhist_check() lets through
# shellcheck disable=SC2086
clang $san -fsanitize=fuzzer -o "$out_sqlhist" "$(objname "$root/tests/fuzz/fuzz_sqlhist.c")" \
	"$budget" $core $libs

# Headers too: ninja rebuilds when any file a compile read changes.
{
	printf '%s %s %s %s %s:' "$out_dat" "$out_net" "$out_filter" "$out_format" "$out_sqlhist"
	for o in $core $(objname "$root/tests/fuzz/fuzz_dat.c") \
		 $(objname "$root/tests/fuzz/fuzz_net.c") \
		 $(objname "$root/tests/fuzz/fuzz_filter.c") \
		 $(objname "$root/tests/fuzz/fuzz_format.c") \
		 $(objname "$root/tests/fuzz/fuzz_sqlhist.c") \
		 $(objname "$root/tests/fuzz/fuzz_tep_leaks.c") "$budget"; do
		cat "$o.d"
	done | sed 's/^[^:]*://; s/\\$//' | tr ' ' '\n' | grep . | sort -u | sed 's/^/ /' |
		tr -d '\n'
	echo
} >"$depfile"
