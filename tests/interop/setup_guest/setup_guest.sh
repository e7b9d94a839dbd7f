#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# ktrace setup-guest against trace-cmd 3.1.6's setup-guest: the same directory and FIFOs with
# the same modes and group, and with -a the same channel XML handed to the same `virsh
# attach-device --config` calls (a stand-in virsh in PATH records them; no libvirt needed).
# trace-cmd writes under /var/lib/trace-cmd/virt only: its guest directory there gets a name
# of its own and is removed, with whatever parents the test made. Then what ktrace refuses,
# each in one line naming the culprit, and a failure that leaves nothing behind.
#
#   setup_guest.sh KTRACE
set -u

KTRACE=$1
. "$(dirname "$0")/../lib.sh"
need_trace_cmd

mkdir -p "$W/bin" "$W/calls"
cat > "$W/bin/virsh" <<'VIRSH'
#!/bin/sh
# stand-in: "vcpucount --maximum G" prints VIRSH_CPUS; attach-device keeps its XML and args
n=$(ls "$VIRSH_LOG" | wc -l)
echo "$*" | sed "s|$VIRSH_TMP_RE|XML|" > "$VIRSH_LOG/$n.args"
case "$1" in
vcpucount) [ -n "${VIRSH_CPUS:-}" ] && echo "$VIRSH_CPUS"; exit 0 ;;
attach-device) cp "$4" "$VIRSH_LOG/$n.xml"; exit "${VIRSH_FAIL:-0}" ;;
esac
exit 1
VIRSH
chmod 755 "$W/bin/virsh"
export PATH="$W/bin:$PATH" VIRSH_TMP_RE='/tmp/[A-Za-z.-]*[A-Za-z0-9]\{6\}'

# tree DIR: each entry's type, mode and group, relative to DIR
tree() {
	(cd "$1" && find . -mindepth 1 | LC_ALL=C sort | while read -r f; do
		stat -c '%A %G %n' "$f"; done)
}

# One command run with a fresh log; $W/calls/$2 holds the virsh calls.
logged() {
	local name=$1
	shift
	rm -rf "$W/calls/$name"
	mkdir -p "$W/calls/$name"
	VIRSH_LOG="$W/calls/$name" "$@"
}

guest=ktrace-test-$$
base=/var/lib/trace-cmd/virt
made=""
for d in /var/lib/trace-cmd /var/lib/trace-cmd/virt; do
	[ -e "$d" ] || made="$d $made"
done
at_exit "rm -rf '$base/$guest'; for d in $made; do rmdir \"\$d\"; done"
group=$(id -gn)

for args in "-c 2" "-c 3 -p 640" "-c 1 -p 600 -g $group" "-c 2 -a" "-a"; do
	rm -rf "$base/$guest" "$W/virt"
	# shellcheck disable=SC2086
	logged tc env VIRSH_CPUS=2 trace-cmd setup-guest $args "$guest" > "$W/tc.out" 2>&1
	tc=$?
	# shellcheck disable=SC2086
	logged kt env VIRSH_CPUS=2 KTRACE_VIRT_DIR="$W/virt" "$KTRACE" setup-guest $args \
		"$guest" > "$W/kt.out" 2>&1
	kt=$?
	if [ "$tc" != 0 ] || [ "$kt" != 0 ]; then
		fail "setup-guest $args: trace-cmd $tc, ktrace $kt: $(head -n 2 "$W/kt.out")"
		continue
	fi
	if [ "$(tree "$base/$guest")" != "$(tree "$W/virt/$guest")" ]; then
		fail "setup-guest $args: the FIFOs differ"
		diff <(tree "$base/$guest") <(tree "$W/virt/$guest")
		continue
	fi
	# the same virsh calls, the XML naming each one's own directory
	sed -i "s|$W/virt|$base|g" "$W"/calls/kt/*.xml 2>/dev/null
	if ! diff -r "$W/calls/tc" "$W/calls/kt" > "$W/diff"; then
		fail "setup-guest $args: other virsh calls: $(head -n 6 "$W/diff")"
		continue
	fi
	pass "setup-guest $args: $(tree "$W/virt/$guest" | wc -l) FIFOs, \
$(ls "$W/calls/kt" | grep -c xml) channel(s) as trace-cmd"
done

# refused in one line naming what is wrong, nothing made
refuse() {	# WHAT ARGS...: the line must contain WHAT
	local what=$1
	shift
	rm -rf "$W/virt"
	logged no env KTRACE_VIRT_DIR="$W/virt" "$KTRACE" setup-guest "$@" > "$W/out" 2>&1
	local rc=$?
	if [ "$rc" = 0 ] || [ "$(wc -l < "$W/out")" != 1 ] || ! grep -qF -- "$what" "$W/out" ||
	   [ -e "$W/virt/g" ]; then
		fail "setup-guest $*: status $rc, '$(cat "$W/out")'"
	else
		pass "setup-guest $* refused: $(cat "$W/out")"
	fi
}
refuse "give -c CPUS" g
refuse "-p '8'" -c 1 -p 8 g
refuse "-g 'no-such-group-$$'" -c 1 -g "no-such-group-$$" g
refuse "-c" -c 0 g
refuse "GUEST" -c 1
refuse "GUEST '../x'" -c 1 ../x
refuse "follows the GUEST" -c 1 g h
export VIRSH_FAIL=1
refuse "attach-device --config' of channel trace-pipe-cpu0 failed" -c 2 -a g
unset VIRSH_FAIL

# a path in the way: named, and what this run made is gone again
rm -rf "$W/virt"
mkdir -p "$W/virt/g"
touch "$W/virt/g/trace-pipe-cpu1.in"
KTRACE_VIRT_DIR="$W/virt" "$KTRACE" setup-guest -c 2 g > "$W/out" 2>&1
rc=$?
if [ "$rc" = 0 ] || ! grep -qF "$W/virt/g/trace-pipe-cpu1.in exists and is not a FIFO" \
   "$W/out" || [ "$(ls "$W/virt/g")" != "trace-pipe-cpu1.in" ]; then
	fail "a file in the way: status $rc, '$(cat "$W/out")', left: $(ls "$W/virt/g" | paste -sd' ')"
else
	pass "a file in the way is named and the FIFOs made before it are removed"
fi
finish
