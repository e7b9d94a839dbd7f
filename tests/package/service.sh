#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# ktrace-listen.service started by systemd under its own settings: ROOT has the package
# installed (dpkg --root); systemd-nspawn boots the machine's own systemd in a container whose
# /usr is the host's with ROOT's /usr over it, so the unit runs exactly as installed: its user,
# its config file, its hardening, its journal. The test enables it as an administrator would
# (systemctl --root enable), gives it a free port, records with `ktrace record -N` on the host
# (the container shares the host's network) and checks the file arrives, owned by the service's
# user, readable by ktrace report, and that the journal has the listener's log. Called by
# deb.sh; PID 1 need not be systemd (nspawn runs without the host's systemd or machined).
#   service.sh ROOT WORK_DIR
set -u
R=$1
W=$2
KT=$R/usr/bin/ktrace
NSPAWN_PID=
fails=0
fail() { echo "FAIL: service: $*"; fails=$((fails + 1)); }
pass() { echo "ok: service: $*"; }
stop_container() {
	[ -n "$NSPAWN_PID" ] || return 0
	# nspawn turns SIGTERM into a clean poweroff of the container.
	kill -TERM "$NSPAWN_PID" 2>/dev/null
	for _ in $(seq 300); do
		kill -0 "$NSPAWN_PID" 2>/dev/null || break
		sleep 0.1
	done
	kill -KILL "$NSPAWN_PID" 2>/dev/null
	wait "$NSPAWN_PID" 2>/dev/null
	NSPAWN_PID=
}
trap stop_container EXIT

port_busy() { ss -Htln "sport = :$1" | grep -q .; }
for _ in 1 2 3 4 5 6 7 8; do
	PORT=$(shuf -i 20000-60000 -n 1)
	port_busy "$PORT" || break
done
sed -i "s/^KTRACE_LISTEN_PORT=.*/KTRACE_LISTEN_PORT=$PORT/" "$R/etc/default/ktrace-listen"
systemctl --root="$R" enable ktrace-listen.service > "$W/enable.log" 2>&1 ||
	{ fail "systemctl --root enable"; cat "$W/enable.log"; exit 1; }
cp /etc/os-release "$R/etc/os-release" 2>/dev/null || cp /usr/lib/os-release "$R/etc/os-release"
: > "$R/etc/machine-id"

start=$(date +%s.%N)
systemd-nspawn -q --register=no --keep-unit -D "$R" --overlay-ro="/usr:$R/usr:/usr" \
	-M "ktrace-pkg-$$" -b --console=pipe < /dev/null > "$W/boot.log" 2>&1 &
NSPAWN_PID=$!
for _ in $(seq 600); do
	port_busy "$PORT" && break
	kill -0 "$NSPAWN_PID" 2>/dev/null || break
	sleep 0.1
done
if ! port_busy "$PORT"; then
	fail "nothing listens on port $PORT"; cat "$W/boot.log"; exit 1
fi
pass "listening on port $PORT $(echo "$(date +%s.%N) - $start" | bc | cut -c1-4) s after boot"

# The service's process: its user and hardening, as the kernel sees them.
pid=$(ss -Htlnp "sport = :$PORT" | sed -n 's/.*pid=\([0-9]*\).*/\1/p' | head -1)
uid=$(awk -F: '$1 == "_ktrace-listen" { print $3 }' "$R/etc/passwd")
st=/proc/$pid/status
grep -q "^Uid:[[:space:]]*$uid[[:space:]]" "$st" && pass "runs as _ktrace-listen (uid $uid)" ||
	fail "not run as _ktrace-listen: $(grep Uid "$st")"
grep -q '^NoNewPrivs:[[:space:]]*1' "$st" && grep -q '^CapEff:[[:space:]]*0*$' "$st" &&
	grep -q '^Seccomp:[[:space:]]*2' "$st" && pass "no new privileges, no capabilities, seccomp" ||
	fail "hardening not applied: $(grep -E 'NoNewPrivs|CapEff|Seccomp:' "$st" | xargs)"

T=/sys/kernel/tracing
[ -e $T/trace ] || mount -t tracefs nodev $T
# record touches the live tracefs: the tests' shared lock.
if flock /tmp/ktrace-tracefs.lock "$KT" record -N "127.0.0.1:$PORT" -e sched:sched_switch \
	sleep 0.2 > "$W/record.log" 2>&1; then
	pass "ktrace record -N 127.0.0.1:$PORT"
else
	fail "ktrace record -N"; cat "$W/record.log"
fi
DIR=$R/var/lib/ktrace-listen
for _ in $(seq 100); do
	f=$(ls "$DIR"/trace.*.dat 2>/dev/null | head -1)
	[ -n "$f" ] && grep -q 'wrote trace' <(journalctl -D "$R/var/log/journal" \
		-u ktrace-listen.service --no-pager 2>/dev/null) && break
	sleep 0.1
done
if [ -n "$f" ] && [ "$(stat -c %u "$f")" = "$uid" ] &&
   "$KT" report -i "$f" 2>/dev/null | grep -q 'sched_switch:'; then
	pass "$(basename "$f") arrived, owned by _ktrace-listen, reports sched_switch events"
else
	fail "no readable recording owned by _ktrace-listen in $DIR"; ls -la "$DIR"
fi
journalctl -D "$R/var/log/journal" -u ktrace-listen.service --no-pager > "$W/journal.log" 2>&1
grep -q 'listening on .* port '"$PORT" "$W/journal.log" && grep -q 'wrote trace' "$W/journal.log" &&
	pass "the journal has the listener's log" ||
	{ fail "the listener's log is not in the journal"; cat "$W/journal.log"; }
stop_container
[ "$fails" = 0 ]
