#!/usr/bin/env bash
# lava-ramdisk.sh ARCH TOOLS OUT: write OUT (a gzipped newc cpio), the
# ramdisk of the LAVA jobs for ARCH (x86_64, arm64): Debian's static
# busybox, an /init that mounts the kernel's file systems and gives LAVA a
# shell on the console (prompt "/ # "), and in /opt/futex the statically
# linked futex selftests, ping_bench and perf of TOOLS (build-tools.sh
# with STATIC=1; perf where TOOLS has it), make bench's rows and
# lava/futex-lava.sh. LAVA unpacks it to add its test shell overlay
# (format cpio.newc, overlays: lava), so it needs no C library and no
# block device.
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

arch=${1:?usage: lava-ramdisk.sh ARCH TOOLS OUT}
tools=$(cd "${2:?}" && pwd)
out=${3:?}
case $arch in
x86_64) bb=/bin/busybox ;;
arm64) bb=$("$TOP/scripts/guest/arm64-root.sh")/usr/bin/busybox ;;
*) die "lava-ramdisk.sh: ARCH x86_64 or arm64, not $arch" ;;
esac
[ -x "$bb" ] || die "no static busybox at $bb (make setup)"
tdir=$tools/kselftest/futex/functional
[ -d "$tdir" ] || die "no futex selftests in $tdir"

tmp=$(mktemp -d)
# shellcheck disable=SC2064
trap "rm -rf '$tmp'" EXIT
r=$tmp/root
mkdir -p "$r"/{bin,sbin,dev,proc,sys,tmp,root,etc,opt/futex/bench}
install -m 755 "$bb" "$r/bin/busybox"
ln -s busybox "$r/bin/sh"
cat >"$r/init" <<'EOF'
#!/bin/sh
# The LAVA ramdisk's init: the kernel's file systems, busybox's applets,
# and a shell on the console for LAVA's test shell.
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
mount -t tmpfs tmpfs /tmp
hostname futex-lava
echo "futex-lava: $(uname -r) $(uname -m), cmdline: $(cat /proc/cmdline)"
cd /
exec setsid cttyhack /bin/sh -l
EOF
chmod 755 "$r/init"
printf 'root:x:0:0:root:/root:/bin/sh\n' >"$r/etc/passwd"
printf 'root:x:0:\n' >"$r/etc/group"
printf 'export PATH=/bin:/sbin:/opt/futex\nexport HOME=/root\n' >"$r/etc/profile"

mkdir -p "$r/opt/futex/kselftest/futex"
cp -a "$tdir" "$r/opt/futex/kselftest/futex/functional"
for f in "$r"/opt/futex/kselftest/futex/functional/*; do
	if [ ! -f "$f" ] || [ ! -x "$f" ]; then
		continue
	fi
	case $f in *.sh) continue ;; esac
	file -b "$f" | grep -q 'statically linked' || die "$f is not statically linked (STATIC=1 build-tools.sh)"
done
[ ! -x "$tools/ping_bench" ] || install -m 755 "$tools/ping_bench" "$r/opt/futex/ping_bench"
[ ! -x "$tools/perf/perf" ] || install -m 755 "$tools/perf/perf" "$r/opt/futex/perf"
cp "$TOP"/bench/*.rows "$r/opt/futex/bench/"
install -m 755 "$TOP/lava/futex-lava.sh" "$r/opt/futex/futex-lava.sh"
install -m 644 "$TOP/lava/kernel-log-badness" "$r/opt/futex/kernel-log-badness"

mkdir -p "$(dirname "$out")"
(cd "$r" && find . | LC_ALL=C sort | cpio --quiet -o -H newc --owner 0:0) | gzip -9 >"$out.tmp"
mv "$out.tmp" "$out"
printf '%s\n' "$out"
