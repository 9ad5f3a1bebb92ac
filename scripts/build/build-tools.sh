#!/usr/bin/env bash
# build-tools.sh SRC OUT [selftests] [selftests32] [perf] [ping_bench] [pingmutex]:
# install SRC's uapi headers into OUT/usr/include and build, against them,
# the futex selftests (installed in OUT/kselftest), the same for 32-bit x86
# (OUT/kselftest32, run through the compat entry of the x86_64 kernel), a
# minimal perf (OUT/perf/perf) and, where SRC has it,
# tools/testing/futex/ping_bench and ping_fuzz (OUT/ping_bench,
# OUT/ping_fuzz), and the workbench's
# pingmutex/ library and its tests (OUT/pingmutex). With no target named,
# builds the selftests and perf. New FUTEX_* constants thus come from the
# tree, not from the host's linux-libc-dev. ARCH=arm64 cross-builds them
# for arm64 (not selftests32). STATIC=1 links every program
# statically (for the busybox ramdisk of the LAVA jobs, which has no C
# library).
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

src=$(cd "${1:?usage: build-tools.sh SRC OUT [selftests] [selftests32] [perf] [ping_bench] [pingmutex]}" && pwd)
mkdir -p "${2:?}"
out=$(cd "$2" && pwd)
shift 2
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(selftests perf)

# ARCH: x86_64 (default) or arm64, with Debian's gcc-aarch64-linux-gnu.
arch=${ARCH:-x86_64}
[ "$arch" != x86 ] || arch=x86_64
case $arch in
x86_64 | x86) karch=x86 cc=gcc numa='' ;;
arm64) karch=arm64 cc=aarch64-linux-gnu-gcc numa=arm64 ;;
*) die "ARCH=$arch: x86_64 or arm64" ;;
esac

# build_selftests DEST CC EXTRA_CFLAGS LDFLAGS LIBNUMA_TARGET: the futex
# selftests, installed in DEST.
build_selftests() {
	local dest=$1 tcc=$2 extra=$3 ldflags=$4 numa_pc
	rm -rf "$dest"
	# futex_numa_mpol needs libnuma >= 2.0.18 (Debian 12 has 2.0.16): a
	# static one built from trixie's source. The Makefile adds a bare
	# -lnuma, so its paths come through lib.mk's USERCFLAGS and
	# USERLDFLAGS.
	numa_pc=$("$TOP/scripts/setup/libnuma.sh" ${5:+"$5"})
	# -Werror: a warning in a test is a build failure, as for perf.
	# CFLAGS comes from the environment because the selftest Makefiles
	# append to it (a command-line CFLAGS would replace their flags).
	logged "$dest.log" env CFLAGS="-Werror${extra:+ $extra}${SELFTEST_CFLAGS:+ $SELFTEST_CFLAGS}" \
		LDFLAGS="$ldflags" PKG_CONFIG_PATH="$numa_pc" \
		make -C "$src/tools/testing/selftests" \
		TARGETS=futex O="$dest-build" KHDR_INCLUDES="-isystem $hdr" \
		USERCFLAGS="$(PKG_CONFIG_PATH=$numa_pc pkg-config --cflags numa)" \
		USERLDFLAGS="$(PKG_CONFIG_PATH=$numa_pc pkg-config --libs-only-L numa)" \
		CC="ccache $tcc" INSTALL_PATH="$dest" -j"$(jobs_n)" install ||
		die "futex selftests do not build (log: $dest.log)"
}

static=${STATIC:+-static}

hdr=$out/usr/include
logged "$out/headers.log" make -C "$src" O="$out/hdr-build" ARCH="$karch" \
	INSTALL_HDR_PATH="$out/usr" headers_install ||
	die "headers_install failed (log: $out/headers.log)"

for t in "${targets[@]}"; do
	case $t in
	selftests) build_selftests "$out/kselftest" "$cc" "" "$static" "$numa" ;;
	selftests32)
		[ "$karch" = x86 ] || die "selftests32: 32-bit x86 tests, not for ARCH=$arch"
		# The i386 (compat) selftests, with Debian's i686 cross
		# compiler (gcc-multilib would do, but Debian 12 does not let
		# it be installed beside gcc-aarch64-linux-gnu), linked
		# statically: the guest's root (this machine's) has no i386
		# C library. kselftest_harness.h's ASSERT_*() cast every
		# operand to intmax_t, pointers included, which
		# -Wpointer-to-int-cast reports on 32-bit for each pointer
		# assertion; every other warning is an error, as for the
		# 64-bit build.
		build_selftests "$out/kselftest32" i686-linux-gnu-gcc "-Wno-pointer-to-int-cast" -static i386
		;;
	perf)
		# ARCH=arm64: cross-built (perf's ARCH and CROSS_COMPILE),
		# with no pkg-config libraries of this machine's architecture.
		cross=()
		[ "$karch" = x86 ] ||
			cross=(ARCH="$karch" CROSS_COMPILE="${cc%gcc}" PKG_CONFIG_LIBDIR=/nonexistent)
		# The smallest perf that still has "perf bench": no libelf,
		# libtraceevent, jevents, python, perl, slang, ...: libc and libm.
		# Built with perf's default flags, warnings as errors included
		# (WERROR=1 is perf's default).
		mkdir -p "$out/perf"
		logged "$out/perf.log" make -C "$src/tools/perf" O="$out/perf" \
			-j"$(jobs_n)" CC="ccache $cc" "${cross[@]}" \
			EXTRA_CFLAGS="-isystem $hdr" ${static:+LDFLAGS=$static} \
			NO_LIBELF=1 NO_LIBTRACEEVENT=1 NO_JEVENTS=1 NO_LIBPYTHON=1 \
			NO_LIBPERL=1 NO_SLANG=1 NO_GTK2=1 NO_LIBUNWIND=1 NO_LIBDW=1 \
			NO_LIBNUMA=1 NO_LIBAUDIT=1 NO_LIBBPF=1 NO_BPF_SKEL=1 \
			NO_LIBCRYPTO=1 NO_LIBZSTD=1 NO_LZMA=1 NO_ZLIB=1 NO_LIBCAP=1 \
			NO_LIBBABELTRACE=1 NO_DEMANGLE=1 NO_LIBLLVM=1 NO_CAPSTONE=1 \
			NO_LIBPFM4=1 NO_SDT=1 NO_AUXTRACE=1 NO_LIBDEBUGINFOD=1 \
			NO_JVMTI=1 NO_SHELLCHECK=1 NO_RUST=1 NO_LIBTRACEFS=1 NO_LIBDW_DWARF_UNWIND=1 \
			perf ||
			die "perf does not build (log: $out/perf.log)"
		;;
	ping_bench)
		# tools/testing/futex/ping_bench, where the tree has it, into
		# OUT/ping_bench; its Makefile builds in the source tree.
		rm -f "$out/ping_bench"
		[ -f "$src/tools/testing/futex/Makefile" ] || continue
		logged "$out/ping_bench.log" make -C "$src/tools/testing/futex" clean all \
			CC="ccache $cc" \
			CFLAGS="-g -O2 -Wall -Wextra -Werror -isystem $hdr -D_GNU_SOURCE" LDFLAGS="$static" ||
			die "ping_bench does not build (log: $out/ping_bench.log)"
		cp "$src/tools/testing/futex/ping_bench" "$out/ping_bench"
		# ping_fuzz beside it, where the tree has it (series 06).
		rm -f "$out/ping_fuzz"
		[ ! -x "$src/tools/testing/futex/ping_fuzz" ] ||
			cp "$src/tools/testing/futex/ping_fuzz" "$out/ping_fuzz"
		;;
	pingmutex)
		# The library knows glibc's x86_64 pthread_mutex_t only.
		[ "$karch" = x86 ] || die "pingmutex: x86_64 only, not for ARCH=$arch"
		rm -rf "$out/pingmutex"
		mkdir -p "$out/pingmutex"
		logged "$out/pingmutex.log" env CFLAGS="-O2 -g -Werror -isystem $hdr" \
			make -C "$TOP/pingmutex" O="$out/pingmutex" CC="ccache $cc" ||
			die "pingmutex does not build (log: $out/pingmutex.log)"
		;;
	*) die "unknown target $t" ;;
	esac
done
