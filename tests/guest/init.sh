#!/bin/sh
# /init of the test guest, installed by mkinitramfs.
#
# Mounts the pseudo file systems and tracefs, loads the virtio disk driver, records the tracefs
# state of a fresh boot, then runs every case named in /cases/list, each in its own folder
# /out/NAME with a time limit. Everything in /out goes back to the host as a tar written onto
# the raw disk /dev/vda after each case; then the guest powers off. The host never reads the console for
# results: it only shows it when something went wrong.

export PATH=/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root
hostname ktrace-guest

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tracefs nodev /sys/kernel/tracing
mount -t tmpfs tmpfs /tmp

kver=$(uname -r)
moddir=/lib/modules/$kver
while read -r m; do
	[ -n "$m" ] && insmod "$moddir/$m"
done < "$moddir/load-order"

i=0
while [ ! -b /dev/vda ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done

# The tar of /out goes onto the raw disk /dev/vda, which the host unpacks.
save_results()
{
	if [ -b /dev/vda ]; then
		tar -cf /dev/vda -C /out . && sync
	else
		echo "=== no /dev/vda: results lost"
	fi
}

# Kills every process but this one: what a case left running (a recorder that outlived a time
# limit, a background workload) must not run into the next case. Kernel threads have no exe.
# Only shell builtins here, so that the loop does not kill its own helpers.
kill_leftovers()
{
	for p in /proc/[0-9]*; do
		[ "${p#/proc/}" != 1 ] && [ -e "$p/exe" ] && kill -9 "${p#/proc/}" 2> /dev/null
	done
}

mkdir -p /out /work
. /cases/guest-lib.sh
tracefs_snapshot > /out/tracefs-boot.txt
echo "kernel $kver, $(nproc) cpus" > /out/guest-info.txt
save_results

t=$(sed -n 's/.*casetimeout=\([0-9]*\).*/\1/p' /proc/cmdline)
for name in $(cat /cases/list); do
	OUT=/out/$name
	mkdir -p "$OUT"
	echo "=== case $name start $(cut -d' ' -f1 /proc/uptime)"
	# The case's output goes to a file, not the console: a console writer would add its
	# own activity to every trace.
	(cd /work && OUT=$OUT timeout "${t:-120}" sh -c \
		". /cases/guest-lib.sh; . /cases/$name.sh; set -x; guest" > "$OUT/guest.log" 2>&1)
	echo $? > "$OUT/status"
	kill_leftovers
	tracefs_snapshot > "$OUT/tracefs-after.txt"
	echo "=== case $name end $(cut -d' ' -f1 /proc/uptime) status $(cat "$OUT/status")"
	# The next case starts from a clean tracefs whatever this one left behind.
	tracefs_cleanup > /dev/null 2>&1
	# Saved after every case, so that a guest that hangs in a later case keeps these.
	save_results
done
echo "=== all cases done"

# Without ACPI (the test kernel) poweroff halts the CPUs and qemu keeps running; a reboot ends
# qemu, which runs with -no-reboot.
[ -d /sys/firmware/acpi ] || reboot -f
poweroff -f
