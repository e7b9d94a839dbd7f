#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The Debian package, as a user gets it: dpkg-buildpackage builds ktrace_VERSION_amd64.deb from
# a copy of the source (its unit suite runs at build time), lintian finds no error or warning,
# dpkg installs it into a scratch root (never the machine's own /usr: a developer's own ktrace
# stays untouched), the installed ktrace runs, man finds its pages, bash loads its completion,
# systemd-analyze verifies the service, and purge leaves nothing of it behind. Then
# service.sh boots the package's ktrace-listen.service in a container and sends it a recording.
#   deb.sh SOURCE_DIR WORK_DIR KTRACE
# WORK_DIR (in the meson build dir) receives the source copy and the packages; it is rebuilt
# on every run: the package must build from what is checked out now.
set -u
SRC=$(realpath "$1")
OUT=$2
KTRACE=$3
. "$SRC/tests/interop/lib.sh"

for tool in dpkg-buildpackage dh lintian systemd-analyze systemd-nspawn man; do
	command -v "$tool" > /dev/null ||
		{ echo "FAIL: $tool is missing: run scripts/deps test"; exit 1; }
done
[ -f /usr/share/bash-completion/bash_completion ] ||
	{ echo "FAIL: bash-completion is missing: run scripts/deps test"; exit 1; }
version=$(sed -n "s/^\tversion: '\(.*\)',$/\1/p" "$SRC/meson.build")
[ -n "$version" ] || { echo "FAIL: no version in meson.build"; exit 1; }
grep -q "^ktrace ($version)" "$SRC/debian/changelog" && pass "debian/changelog is at $version" ||
	fail "debian/changelog's first entry is not version $version (meson.build's)"

# 1. Build, from the files git knows (tracked or not ignored): no build dir, no cache.
rm -rf "$OUT"
mkdir -p "$OUT/src"
if git -C "$SRC" rev-parse --git-dir > /dev/null 2>&1; then
	git -C "$SRC" ls-files -z --cached --others --exclude-standard |
		(cd "$SRC" && tar --null -T - -cf -) | tar -C "$OUT/src" -xf -
else
	tar -C "$SRC" --exclude='./build*' -cf - . | tar -C "$OUT/src" -xf -
fi
start=$(date +%s)
if (cd "$OUT/src" && DEB_BUILD_OPTIONS="parallel=$(nproc)" dpkg-buildpackage -us -uc -b) \
	> "$OUT/build.log" 2>&1; then
	pass "dpkg-buildpackage -us -uc -b ($(($(date +%s) - start)) s)"
else
	echo "FAIL: dpkg-buildpackage"; tail -40 "$OUT/build.log"; exit 1
fi
DEB=$OUT/ktrace_${version}_amd64.deb
[ -f "$DEB" ] || { echo "FAIL: no $(basename "$DEB")"; ls "$OUT"; exit 1; }
grep -q '^Ok: *[1-9]' "$OUT/build.log" && grep -q '^Fail: *0' "$OUT/build.log" &&
	pass "the unit suite ran at build time" || fail "no unit suite run in the build log"

# 2. lintian: errors and warnings fail (information tags are listed, not fatal).
if lintian --fail-on error,warning --no-tag-display-limit "$OUT"/ktrace_*.changes \
	> "$OUT/lintian.log" 2>&1; then
	pass "lintian: no error or warning"
else
	fail "lintian"; cat "$OUT/lintian.log"
fi

# scratch_root DIR: an empty dpkg database with usr-merged top directories, as Debian's.
scratch_root() {
	mkdir -p "$1/var/lib/dpkg/info" "$1/var/lib/dpkg/updates" "$1/usr/bin" "$1/usr/sbin" \
		"$1/usr/lib" "$1/usr/lib64" "$1/etc" "$1/var/lib/systemd"
	: > "$1/var/lib/dpkg/status"
	: > "$1/var/lib/dpkg/available"
	for d in bin sbin lib lib64; do ln -s "usr/$d" "$1/$d"; done
}
# dpkg_root DIR ARGS...: dpkg on DIR; the maintainer scripts run outside a chroot with DPKG_ROOT
# (as debhelper's snippets expect); the dependencies are the host's libraries.
dpkg_root() {
	local root=$1
	shift
	dpkg --root="$root" --force-script-chrootless --force-depends \
		--log="$W/dpkg.log" "$@"
}

# 3. Install into a scratch root.
R=$W/root
scratch_root "$R"
# listing DIR: its files but dpkg's database and the account files systemd-sysusers writes.
listing() {
	find "$1" | grep -v -e "^$1/var/lib/dpkg" \
		-e "^$1/etc/\(passwd\|group\|shadow\|gshadow\)-\?$" -e "^$1/etc/.pwd.lock$" | sort
}
listing "$R" > "$W/before"
if dpkg_root "$R" -i "$DEB" > "$W/install.log" 2>&1; then
	pass "dpkg -i into a scratch root"
else
	fail "dpkg -i"; cat "$W/install.log"
fi
got=$("$R/usr/bin/ktrace" version)
[ "$got" = "ktrace $version" ] && pass "ktrace version: $got" || fail "ktrace version: '$got'"
page=$(man -M "$R/usr/share/man" -w ktrace-record 2>&1)
[ "$page" = "$R/usr/share/man/man1/ktrace-record.1.gz" ] && pass "man -w ktrace-record" ||
	fail "man -w ktrace-record: $page"
for p in "$SRC"/man/*.1; do
	man -M "$R/usr/share/man" -w "$(basename "$p" .1)" > /dev/null 2>&1 ||
		fail "man page $(basename "$p") not installed"
done
# The completion, loaded as bash-completion loads it, completing a command and an option.
comp=$(PATH=$R/usr/bin:$PATH bash -c '
	. /usr/share/bash-completion/bash_completion
	. "$1/usr/share/bash-completion/completions/ktrace"
	complete -p ktrace || exit 1
	COMP_WORDS=(ktrace rec); COMP_CWORD=1; COMP_LINE="ktrace rec"; COMP_POINT=${#COMP_LINE}
	_ktrace; echo "${COMPREPLY[*]}"
	COMP_WORDS=(ktrace listen --tls-c); COMP_CWORD=2; COMP_LINE="ktrace listen --tls-c"
	COMP_POINT=${#COMP_LINE}; _ktrace; echo "${COMPREPLY[*]}"' bash "$R" 2>&1)
if grep -q '^complete .*_ktrace.* ktrace$' <<< "$comp" && grep -qx 'record' <<< "$comp" &&
   grep -q -- '--tls-cert' <<< "$comp"; then
	pass "the bash completion loads and completes"
else
	fail "bash completion: $comp"
fi
[ -f "$R/usr/share/doc/ktrace/README.md.gz" ] && [ -f "$R/usr/share/doc/ktrace/copyright" ] &&
	pass "docs installed" || fail "README or copyright missing in /usr/share/doc/ktrace"
grep -q '^_ktrace-listen:' "$R/etc/passwd" 2>/dev/null &&
	pass "the system user _ktrace-listen exists" || fail "no _ktrace-listen user after install"
[ -f "$R/etc/default/ktrace-listen" ] && grep -qx /etc/default/ktrace-listen \
	"$R/var/lib/dpkg/info/ktrace.conffiles" && pass "/etc/default/ktrace-listen is a conffile" ||
	fail "/etc/default/ktrace-listen missing or not a conffile"
[ ! -e "$R/etc/systemd/system/multi-user.target.wants/ktrace-listen.service" ] &&
	pass "the service is not enabled by installing" || fail "the service was enabled on install"
# verify checks ExecStart's binary and Documentation's man page: the scratch root's /usr over the
# host's, in a mount namespace of its own (--root would want a whole system's units there).
UNIT=$R/lib/systemd/system/ktrace-listen.service
if unshare -m sh -c 'mount -t overlay overlay -o "lowerdir=$1/usr:/usr" /usr &&
	MANPATH=/usr/share/man exec systemd-analyze verify "$2"' sh "$R" "$UNIT" \
	> "$W/verify.log" 2>&1 && ! [ -s "$W/verify.log" ]
then
	pass "systemd-analyze verify ktrace-listen.service: clean"
else
	fail "systemd-analyze verify"; cat "$W/verify.log"
fi

# 4. The service, booted in a container from a second scratch root.
C=$W/container
scratch_root "$C"
dpkg_root "$C" -i "$DEB" > "$W/install-c.log" 2>&1 || { fail "dpkg -i (container)"; cat "$W/install-c.log"; }
bash "$SRC/tests/package/service.sh" "$C" "$W" && pass "ktrace-listen.service in a container" ||
	fail "ktrace-listen.service in a container"

# 5. Purge: nothing of the package is left. The system user stays, as Debian's policy wants
# (a later file may still be owned by it). Directories of the bare scratch root that no other
# package owns there (usr/bin, the lib symlink) may go with it: only what is new counts.
if dpkg_root "$R" --purge ktrace > "$W/purge.log" 2>&1; then
	pass "dpkg --purge"
else
	fail "dpkg --purge"; cat "$W/purge.log"
fi
listing "$R" > "$W/after"
comm -13 "$W/before" "$W/after" > "$W/left"
if ! [ -s "$W/left" ]; then
	pass "nothing left after purge"
else
	fail "left after purge:"; cat "$W/left"
fi
finish "$W/install.log" "$W/purge.log"
