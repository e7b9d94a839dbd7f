# issue 4: -p function -l 'vfs_*' traces only the functions the glob matches.

guest()
{
	$REC record -p function -l 'vfs_*' -o "$OUT/glob.dat" -- wc /init || return
	$REC reset
}

check()
{
	same_report glob.dat
	r=glob.dat.tc.txt
	expect $r '^ +wc-[0-9]+ .*function: +vfs_read$' 'wc calls vfs_read'
	expect $r '^ +wc-[0-9]+ .*function: +vfs_open$' 'wc calls vfs_open'
	others=$(grep -E ' function: ' $r | awk '{ print $NF }' | grep -v '^vfs_' | sort -u)
	[ -z "$others" ] || fail "functions that 'vfs_*' does not match: $others"
	echo "ok: only vfs_* functions"
	tracefs_at_defaults
}
