# SPDX-License-Identifier: GPL-2.0-only
# bench/lib.sh: shared by bench/report, bench/record and bench/listen (source it from bash).
# Builds what the benchmarks need (ktrace with meson in release mode, the C helpers with cc),
# keeps scratch files in one work directory, and saves/restores tracefs around recordings.

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$BENCH_DIR/.." && pwd)
# KTRACE_BENCH_KTRACE: use this ktrace binary (and the library next to it) instead of building
# build-bench/; the meson test of `bench/report --smoke` sets it.
if [ -n "${KTRACE_BENCH_KTRACE:-}" ]; then
	KTRACE=$KTRACE_BENCH_KTRACE
	BUILD=$(dirname "$KTRACE")
else
	BUILD=${KTRACE_BENCH_BUILD:-$REPO/build-bench}
	KTRACE=$BUILD/ktrace
fi
TOOLS=$BUILD/bench-tools
TRACECMD=${TRACECMD:-/usr/bin/trace-cmd}
TRACEFS=/sys/kernel/tracing
LOCK=/tmp/ktrace-tracefs.lock

die() { echo "bench: $*" >&2; exit 1; }
log() { echo "bench: $*" >&2; }

# Release build: the timings must come from optimized code. -Werror is off only here, so that a
# new compiler warning at -O3 does not stop a benchmark (the normal builds keep it).
bench_build() {
	command -v meson >/dev/null || die "meson is missing"
	command -v "$TRACECMD" >/dev/null || die "trace-cmd ($TRACECMD) is missing"
	if [ -n "${KTRACE_BENCH_KTRACE:-}" ]; then
		[ -x "$KTRACE" ] || die "$KTRACE is not executable"
	elif [ ! -f "$BUILD/build.ninja" ]; then
		meson setup "$BUILD" "$REPO" --buildtype=release -Dwerror=false >/dev/null ||
			die "meson setup $BUILD failed"
	fi
	[ -n "${KTRACE_BENCH_KTRACE:-}" ] ||
		ninja -C "$BUILD" ktrace >/dev/null || die "ninja -C $BUILD ktrace failed"
	mkdir -p "$TOOLS"
	build_tool loadgen loadgen.c -pthread
	build_tool runstat runstat.c
	# The one trace-cmd shim, the tests' (tests/interop/listen/tcshim.c).
	build_tool tcshim.so ../tests/interop/listen/tcshim.c -shared -fPIC -ldl
	# evcount links ktrace's own reader (the report, dat and util layers, in that order);
	# rebuild it whenever one of them changed.
	local libs="$BUILD/libktrace-report.a $BUILD/libktrace-dat.a $BUILD/libktrace-util.a" lib
	local stale=no
	[ -x "$TOOLS/evcount" ] && [ ! "$BENCH_DIR/evcount.c" -nt "$TOOLS/evcount" ] || stale=yes
	for lib in $libs; do
		[ "$lib" -nt "$TOOLS/evcount" ] && stale=yes
	done
	if [ $stale = yes ]; then
		# shellcheck disable=SC2046,SC2086
		cc -O2 -Wall -D_GNU_SOURCE -I"$REPO/include" -o "$TOOLS/evcount" \
			"$BENCH_DIR/evcount.c" $libs \
			$(pkg-config --cflags --libs libtracefs libtraceevent zlib libzstd) \
			-pthread -lm || die "cannot build evcount"
	fi
}

# build_tool OUT SRC [CFLAGS...]: cc when OUT is missing or older than its source.
build_tool() {
	local out=$1 src=$2
	shift 2
	if [ ! -e "$TOOLS/$out" ] || [ "$BENCH_DIR/$src" -nt "$TOOLS/$out" ]; then
		cc -O2 -Wall -o "$TOOLS/$out" "$BENCH_DIR/$src" "$@" ||
			die "cannot build $src"
	fi
}

# trace-cmd with the shim, for recording on this kernel (see tests/interop/listen/tcshim.c).
tracecmd_shim() {
	TCSHIM_SELF=$TOOLS/tcshim.so LD_PRELOAD=$TOOLS/tcshim.so${LD_PRELOAD:+:$LD_PRELOAD} \
		exec "$TRACECMD" "$@"
}

# median of the numbers on stdin
median() {
	sort -g | awk '{ v[NR] = $1 } END {
		if (!NR) { print "NA"; exit }
		if (NR % 2) print v[(NR + 1) / 2]; else printf "%.6g\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# statval FILE KEY: a value from a runstat stat file
statval() { sed -n "s/^$2=//p" "$1"; }

# Machine-wide busy CPU seconds (all CPUs) since boot, to tell how busy the machine was.
cpu_busy_s() {
	awk -v hz="$(getconf CLK_TCK)" \
		'/^cpu / { printf "%.2f\n", ($2 + $3 + $4 + $7 + $8 + $9) / hz; exit }' /proc/stat
}

# --- tracefs (call only while holding $LOCK) ---

tfs_check_idle() {
	# a fresh boot may have no tracefs mounted yet: mount it where ktrace would
	[ -e "$TRACEFS/trace" ] || mount -t tracefs nodev "$TRACEFS" 2> /dev/null
	[ -e "$TRACEFS/trace" ] || die "tracefs is not mounted at $TRACEFS and cannot be mounted"
	[ "$(cat "$TRACEFS/events/enable")" = 0 ] && [ "$(cat "$TRACEFS/current_tracer")" = nop ] ||
		die "tracefs is busy (events enabled or a tracer set); not touching it"
}

tfs_save() {
	TFS_ON=$(cat "$TRACEFS/tracing_on")
	TFS_BUF=$(cat "$TRACEFS/per_cpu/cpu0/buffer_size_kb")
	TFS_PCT=$(cat "$TRACEFS/buffer_percent")
}

# tfs_restore EVENT_DIR...: events off, the given events' filters cleared, pids, buffer size,
# buffer_percent and tracing_on as saved, buffer emptied.
tfs_restore() {
	local d
	echo 0 > "$TRACEFS/events/enable"
	for d in "$@"; do
		echo 0 > "$TRACEFS/events/$d/filter" 2>/dev/null
	done
	[ -s "$TRACEFS/set_event_pid" ] && : > "$TRACEFS/set_event_pid"
	[ "$(cat "$TRACEFS/per_cpu/cpu0/buffer_size_kb")" = "$TFS_BUF" ] ||
		echo "$TFS_BUF" > "$TRACEFS/buffer_size_kb"
	echo "$TFS_PCT" > "$TRACEFS/buffer_percent"
	echo "$TFS_ON" > "$TRACEFS/tracing_on"
	: > "$TRACEFS/trace"
}

# Ring-buffer stats summed over CPUs: "written lost", written = entries + overrun + read
# (every event committed since the last clear), lost = overrun + commit overrun + dropped.
tfs_stats() {
	awk '/^entries:/ { e += $2 } /^overrun:/ { o += $2 } /^commit overrun:/ { c += $3 }
	     /^dropped events:/ { d += $3 } /^read events:/ { r += $3 }
	     END { printf "%d %d\n", e + o + r, o + c + d }' "$TRACEFS"/per_cpu/cpu*/stats
}

# bench_record_load OUT RATE DUR BUFKB LOG RECORDER...: records OUT with `RECORDER -b BUFKB -o OUT
# EVENTS -- load` (takes $LOCK, leaves tracefs as found): raw_syscalls enter/exit of getppid
# from 2 threads at RATE calls/s, openat enter/exit (file name strings) at RATE/10, sched
# switch/wakeup/waking, irq and hrtimer events, for DUR seconds.
bench_record_load() {
	local out=$1 rate=$2 dur=$3 bufkb=$4 logf=$5 lockfd
	local dirs=(raw_syscalls/sys_enter raw_syscalls/sys_exit)
	shift 5
	exec {lockfd}>"$LOCK"
	flock "$lockfd"
	tfs_check_idle
	tfs_save
	trap 'tfs_restore "${dirs[@]}"' EXIT
	rm -f "$out"
	log "recording $out with ${1##*/}: ${dur}s, getppid at $rate/s (+ openat at $((rate / 10))/s)"
	"$@" -b "$bufkb" -o "$out" \
		-e raw_syscalls:sys_enter -f 'id == 110' -e raw_syscalls:sys_exit -f 'id == 110' \
		-e syscalls:sys_enter_openat -e syscalls:sys_exit_openat \
		-e sched:sched_switch -e sched:sched_wakeup -e sched:sched_waking \
		-e irq -e timer:hrtimer_start -e timer:hrtimer_expire_entry \
		-e timer:hrtimer_expire_exit -e timer:hrtimer_cancel \
		-- bash -c "$TOOLS/loadgen -t 2 -r $rate -d $dur >/dev/null &
			    $TOOLS/loadgen -o -t 1 -r $((rate / 10)) -d $dur >/dev/null; wait" \
		> "$logf" 2>&1 || die "$1 record failed: $(tail -3 "$logf")"
	tfs_restore "${dirs[@]}"
	trap - EXIT
	exec {lockfd}>&-
}
