#!/usr/bin/env bash
# build-kernel.sh FLAVOUR SRC OUT: build the kernel source SRC in OUT (O=)
# with ccache, configured as "make tinyconfig" plus configs/guest.config
# plus configs/FLAVOUR.config (guest, debug, bench, lockstat), each
# followed by its architecture's part where there is one
# (configs/guest-ARCH.config, configs/FLAVOUR-ARCH.config), or, for the
# bisect flavour (never booted), plus configs/bisect.config alone. ARCH
# is x86_64 (bzImage) or arm64 (Image, with Debian's
# gcc-aarch64-linux-gnu). Prints the image's path; the build log is
# OUT/build.log. BUILD_TARGETS="dir/ file.o ..." builds those make
# targets of the configured tree instead of the image (a compile check),
# and prints nothing.
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

flavour=${1:?usage: build-kernel.sh FLAVOUR SRC OUT}
src=$(cd "${2:?}" && pwd)
mkdir -p "${3:?}"
out=$(cd "$3" && pwd)

arch=${ARCH:-x86_64}
[ "$arch" != x86 ] || arch=x86_64
case $arch in
x86_64 | x86) karch=x86 cross='' image=arch/x86/boot/bzImage ;;
arm64) karch=arm64 cross=aarch64-linux-gnu- image=arch/arm64/boot/Image ;;
*) die "ARCH=$arch: x86_64 or arm64" ;;
esac
case $flavour in
guest) names=(guest) ;;
bisect) names=(bisect) ;;
*) names=(guest "$flavour") ;;
esac
frags=()
for n in "${names[@]}"; do
	[ -f "$TOP/configs/$n.config" ] || die "no config fragment configs/$n.config for flavour '$flavour'"
	frags+=("$TOP/configs/$n.config")
	[ ! -f "$TOP/configs/$n-$arch.config" ] || frags+=("$TOP/configs/$n-$arch.config")
done

command -v ccache >/dev/null || die "ccache is not installed (make setup)"
# Relative paths under $WORK let the parent and patched builds, and fresh
# clones, share ccache entries.
export CCACHE_BASEDIR=$WORK CCACHE_NOHASHDIR=1 CCACHE_COMPILERCHECK=content
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-20G}
export KBUILD_BUILD_TIMESTAMP="2026-11-15" KBUILD_BUILD_USER=futex KBUILD_BUILD_HOST=workbench
command -v "${cross}gcc" >/dev/null || die "${cross}gcc is not installed (make setup)"
kmake=(make -C "$src" O="$out" -j"$(jobs_n)" ARCH="$karch" CROSS_COMPILE="$cross"
	CC="ccache ${cross}gcc" HOSTCC="ccache gcc")

# Reconfigure when a fragment changed since the last configuration.
stamp=$out/.config-stamp
want=$(cat "${frags[@]}" | sha256sum | cut -d' ' -f1)
if [ ! -f "$out/.config" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
	logged "$out/config.log" "${kmake[@]}" tinyconfig ||
		die "make tinyconfig failed in $out"
	logged "$out/config.log" "$src/scripts/kconfig/merge_config.sh" -m -O "$out" \
		"$out/.config" "${frags[@]}" || die "merge_config.sh failed in $out"
	logged "$out/config.log" "${kmake[@]}" olddefconfig ||
		die "make olddefconfig failed in $out"
	printf '%s\n' "$want" >"$stamp"
else
	logged "$out/config.log" "${kmake[@]}" olddefconfig ||
		die "make olddefconfig failed in $out"
fi

# Every option the fragments ask for must have survived olddefconfig.
bad=$(grep -h -E '^CONFIG_[A-Z0-9_]+=' "${frags[@]}" | sort -u | while IFS= read -r l; do
	opt=${l%%=*} val=${l#*=}
	if [ "$val" = n ]; then
		grep -q -x "$opt=[ym]" "$out/.config" && printf '%s ' "$l"
	else
		grep -q -x -F "$l" "$out/.config" || printf '%s ' "$l"
	fi
done || true)
[ -z "$bad" ] || die "config options not set as requested in $out/.config: $bad"

if [ -n "${BUILD_TARGETS:-}" ]; then
	# shellcheck disable=SC2086 # one make target per word
	logged "$out/build.log" "${kmake[@]}" $BUILD_TARGETS ||
		die "kernel build ($BUILD_TARGETS) failed in $out (log: $out/build.log)"
	exit 0
fi
logged "$out/build.log" "${kmake[@]}" "${image##*/}" || die "kernel build failed in $out (log: $out/build.log)"
printf '%s\n' "$out/$image"
