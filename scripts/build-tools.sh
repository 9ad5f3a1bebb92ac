#!/usr/bin/env bash
# build-tools.sh SRC OUT [selftests] [perf] [ping_bench]: install SRC's uapi
# headers into OUT/usr/include and build, against them, the futex selftests
# (installed in OUT/kselftest), a minimal perf (OUT/perf/perf) and, where
# SRC has it, tools/testing/futex/ping_bench (OUT/ping_bench). With no
# target named, builds the selftests and perf. New FUTEX_* constants thus come from the tree, not from the
# host's linux-libc-dev.
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

src=$(cd "${1:?usage: build-tools.sh SRC OUT [selftests] [perf] [ping_bench]}" && pwd)
mkdir -p "${2:?}"
out=$(cd "$2" && pwd)
shift 2
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(selftests perf)

hdr=$out/usr/include
logged "$out/headers.log" make -C "$src" O="$out/hdr-build" \
	INSTALL_HDR_PATH="$out/usr" headers_install ||
	die "headers_install failed (log: $out/headers.log)"

for t in "${targets[@]}"; do
	case $t in
	selftests)
		rm -rf "$out/kselftest"
		# futex_numa_mpol needs libnuma >= 2.0.18 (Debian 12 has
		# 2.0.16): a static one built from trixie's source. The
		# Makefile adds a bare -lnuma, so its paths come through
		# lib.mk's USERCFLAGS and USERLDFLAGS.
		numa_pc=$("$TOP/scripts/libnuma.sh")
		# -Werror: a warning in a test is a build failure, as for perf.
		# CFLAGS comes from the environment because the selftest
		# Makefiles append to it (a command-line CFLAGS would replace
		# their flags).
		logged "$out/selftests.log" env CFLAGS="-Werror${SELFTEST_CFLAGS:+ $SELFTEST_CFLAGS}" \
			PKG_CONFIG_PATH="$numa_pc" \
			make -C "$src/tools/testing/selftests" \
			TARGETS=futex O="$out/kselftest-build" KHDR_INCLUDES="-isystem $hdr" \
			USERCFLAGS="$(PKG_CONFIG_PATH=$numa_pc pkg-config --cflags numa)" \
			USERLDFLAGS="$(PKG_CONFIG_PATH=$numa_pc pkg-config --libs-only-L numa)" \
			CC="ccache gcc" INSTALL_PATH="$out/kselftest" -j"$(jobs_n)" install ||
			die "futex selftests do not build (log: $out/selftests.log)"
		;;
	perf)
		# The smallest perf that still has "perf bench": no libelf,
		# libtraceevent, jevents, python, perl, slang, ...: libc and libm.
		# Built with perf's default flags, warnings as errors included
		# (WERROR=1 is perf's default).
		mkdir -p "$out/perf"
		logged "$out/perf.log" make -C "$src/tools/perf" O="$out/perf" \
			-j"$(jobs_n)" CC="ccache gcc" \
			EXTRA_CFLAGS="-isystem $hdr" \
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
			CC="ccache gcc" \
			CFLAGS="-g -O2 -Wall -Wextra -Werror -isystem $hdr -D_GNU_SOURCE" ||
			die "ping_bench does not build (log: $out/ping_bench.log)"
		cp "$src/tools/testing/futex/ping_bench" "$out/ping_bench"
		;;
	*) die "unknown target $t" ;;
	esac
done
