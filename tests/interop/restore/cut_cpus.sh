# SPDX-License-Identifier: GPL-2.0-only
# Sourced by the restore tests (interop and kernel), with KTRACE and W set: the per-CPU files a
# crashed trace-cmd record leaves, made by cutting the top buffer's pages out of a trace.dat.
#
# cut_cpus SRC PREFIX: PREFIX.cpuN for each CPU of SRC's top buffer (uncompressed), from the
# offsets `ktrace dump --flyrecord` prints (v6: "OFF SIZE [offset, size of cpu N]", v7:
# "N OFF SIZE [id, data offset and size]"); prints the file names, fails without any.
cut_cpus() {
	local src=$1 prefix=$2 n=0 off size
	"$KTRACE" dump --flyrecord -i "$src" > "$W/fly.txt" 2>&1 || return 1
	while read -r off size; do
		dd if="$src" of="$prefix.cpu$n" bs=4096 skip=$((off / 4096)) count=$((size / 4096)) \
			status=none || return 1
		echo "$prefix.cpu$n"
		n=$((n + 1))
	done < <(sed -n \
		-e 's/^[[:space:]]*\([0-9]*\)[[:space:]]*\([0-9]*\)[[:space:]]*\[offset, size of cpu.*/\1 \2/p' \
		-e 's/^[[:space:]]*[0-9]*[[:space:]]\+\([0-9]*\)[[:space:]]\+\([0-9]*\)[[:space:]]*\[id, data offset and size\].*/\1 \2/p' \
		"$W/fly.txt")
	[ "$n" -gt 0 ]
}
