#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Regenerates seeds/dat from the reference corpus: each recording as a small v6 file
# (mkseeds.py, keeping the formats of the events it holds only) and as v7 with zstd, plus
# uncompressed v7 variants of a few (Debian's trace-cmd has no zlib); and seeds/format: every
# format those small files had before that cut, one per input (mkseeds_format.py).
# usage: tests/fuzz/mkseeds.sh   (needs trace-cmd 3.1.6 for the v6 <-> v7 conversions)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
corpus=$here/../data/corpus
out=$here/seeds/dat
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out" "$here/seeds/format"
for dat in "$corpus"/*.dat; do
	name=$(basename "$dat" .dat)
	trace-cmd convert -i "$dat" -o "$tmp/full.dat" --file-version 6 >/dev/null 2>&1
	# the events the recording holds (the name after the timestamp): only their formats stay
	used=$(trace-cmd report -N -i "$tmp/full.dat" 2>/dev/null | awk '{
		for (i = 3; i < NF; i++)
			if ($i ~ /^[0-9]+(\.[0-9]+)?:$/) { sub(/:$/, "", $(i + 1)); print $(i + 1); break }
	}' | sort -u | paste -sd, -)
	python3 "$here/mkseeds.py" "$tmp/full.dat" "$tmp/all.dat"
	python3 "$here/mkseeds_format.py" "$here/seeds/format" "$tmp/all.dat"
	python3 "$here/mkseeds.py" "$tmp/full.dat" "$out/$name.v6.dat" "$used"
	trace-cmd convert -i "$out/$name.v6.dat" -o "$out/$name.v7zstd.dat" \
		--file-version 7 --compression zstd >/dev/null 2>&1
done
for name in sched instance kprobe; do
	trace-cmd convert -i "$out/$name.v6.dat" -o "$out/$name.v7none.dat" \
		--file-version 7 --compression none >/dev/null 2>&1
done
