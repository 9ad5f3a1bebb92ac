#!/usr/bin/env bash
# build-kernel.sh FLAVOUR SRC OUT: build bzImage of the kernel source SRC in
# OUT (O=) with ccache, configured as "make tinyconfig" plus
# configs/guest.config plus configs/FLAVOUR.config (guest, debug, bench,
# lockstat), or, for the bisect flavour (never booted), plus
# configs/bisect.config alone. The build log is OUT/build.log.
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

flavour=${1:?usage: build-kernel.sh FLAVOUR SRC OUT}
src=$(cd "${2:?}" && pwd)
mkdir -p "${3:?}"
out=$(cd "$3" && pwd)

case $flavour in
guest) frags=("$TOP/configs/guest.config") ;;
bisect) frags=("$TOP/configs/bisect.config") ;;
*) frags=("$TOP/configs/guest.config" "$TOP/configs/$flavour.config") ;;
esac
for f in "${frags[@]}"; do
	[ -f "$f" ] || die "no config fragment $f for flavour '$flavour'"
done

command -v ccache >/dev/null || die "ccache is not installed (make setup)"
# Relative paths under $WORK let the parent and patched builds, and fresh
# clones, share ccache entries.
export CCACHE_BASEDIR=$WORK CCACHE_NOHASHDIR=1 CCACHE_COMPILERCHECK=content
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-20G}
export KBUILD_BUILD_TIMESTAMP="2026-11-15" KBUILD_BUILD_USER=futex KBUILD_BUILD_HOST=workbench
kmake=(make -C "$src" O="$out" -j"$(jobs_n)" CC="ccache gcc" HOSTCC="ccache gcc")

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

logged "$out/build.log" "${kmake[@]}" bzImage || die "kernel build failed in $out (log: $out/build.log)"
printf '%s\n' "$out/arch/x86/boot/bzImage"
