#!/usr/bin/env bash
# arm64-root.sh: make, once, the root file system of the arm64 guest and
# print its path. virtme-ng boots a foreign kernel on a root of the
# guest's architecture (vng --arch arm64 --root DIR), mounted over 9p:
# here Debian 12 arm64 (minbase), unpacked by the first stage of
# debootstrap, which runs no arm64 program on the host (no binfmt_misc
# and qemu-user-static needed), plus Debian's static busybox, from which
# virtme-ng makes the guest's initramfs, and udev, with which its init
# (the bash virtme-init of a foreign architecture) names the virtio
# ports that carry the command and its output.
#
# The first stage unpacks the essential packages (bash, coreutils,
# util-linux, libc) and only downloads the others; they are unpacked
# here. None is configured: the few things their maintainer scripts
# would make, and virtme-ng's init needs (a passwd file, the mount points
# it binds, poweroff), are made here. Cached in
# $CACHE/arm64-root, with the downloaded packages in
# $CACHE/debootstrap-arm64; the stamp is written last.
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

SUITE=bookworm
root=$CACHE/arm64-root
debs=$CACHE/debootstrap-arm64
stamp=$root/.workbench-complete
want="$SUITE minbase busybox-static udev 4"

if [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
	printf '%s\n' "$root"
	exit 0
fi
command -v debootstrap >/dev/null || die "debootstrap is not installed (make setup)"
lock_file "$CACHE/arm64-root.lock"
if [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
	printf '%s\n' "$root"
	exit 0
fi

# The mirror of the system's own Debian suites.
# shellcheck disable=SC2016 # $(SITE) is apt's format, not the shell's
mirror=$(apt-get indextargets --format '$(SITE)' 'Created-By: Packages' 2>/dev/null |
	grep -m 1 -v security || true)
mirror=${mirror:-http://deb.debian.org/debian}
log=$WORK/arm64-root.log
printf '  arm64 root: debootstrap --foreign %s from %s\n' "$SUITE" "$mirror" >&2
rm -rf "$root"
mkdir -p "$debs"
logged "$log" debootstrap --foreign --arch=arm64 --variant=minbase \
	--include=busybox-static,udev --cache-dir="$debs" "$SUITE" "$root" "$mirror" ||
	die "debootstrap failed (log: $log)"

# The packages the first stage downloaded and did not unpack (busybox-static,
# udev and what they need), unpacked as dpkg would: tar keeps the /bin ->
# usr/bin links of the merged /usr (dpkg-deb -x would replace them).
# debootstrap/debpaths names the file of each package it chose.
read -r -a base <"$root/debootstrap/base"
for p in "${base[@]}"; do
	deb=$(awk -v p="$p" '$1 == p { print $2 }' "$root/debootstrap/debpaths")
	deb=$root$deb
	[ -f "$deb" ] || die "no $p package in $root/debootstrap/debpaths"
	dpkg-deb --fsys-tarfile "$deb" | tar -x --keep-directory-symlink -C "$root" ||
		die "unpacking $deb failed"
done
[ -x "$root/usr/bin/busybox" ] || [ -x "$root/bin/busybox" ] || die "no busybox in $root"
ln -sf /bin/busybox "$root/usr/sbin/poweroff"

# Mount points, which the first stage leaves as links to the host's (or
# not at all), those virtme-ng's init binds files on, and the passwd and
# group files of base-passwd. (scripts/guest/vm.sh adds the directories of the
# host that it shares.)
for d in proc sys dev run tmp opt srv mnt etc/lvm; do
	[ ! -L "$root/$d" ] || rm -f "$root/$d"
	mkdir -p "$root/$d"
done
chmod 1777 "$root/tmp"
touch "$root/etc/hosts" "$root/etc/shadow"
cp "$root/usr/share/base-passwd/passwd.master" "$root/etc/passwd"
cp "$root/usr/share/base-passwd/group.master" "$root/etc/group"
printf '%s\n' "$want" >"$stamp"
printf '%s\n' "$root"
