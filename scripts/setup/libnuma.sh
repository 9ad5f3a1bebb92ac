#!/usr/bin/env bash
# libnuma.sh: build a static libnuma 2.0.19 (libnuma.a, numa.h, numa.pc)
# from Debian trixie's numactl source into $CACHE/libnuma-2.0.19 and print
# on stdout the directory to put in PKG_CONFIG_PATH. Cached: once built, a
# run only prints that directory.
#
# Why: the futex selftest futex_numa_mpol SKIPs unless pkg-config finds
# libnuma >= 2.0.18; Debian 12 has 2.0.16, and trixie's binary libnuma1
# needs glibc 2.38 (the host has 2.36). So the source is fetched through a
# private apt configuration (apt-private.sh, with our own deb-src list and
# lists under $CACHE/apt-src, the system's apt sources untouched) and built
# with the host's gcc. Only the .a is installed, no .so: "-lnuma" then
# links libnuma statically, and the test also runs in the guest, whose
# root file system is the host's (libnuma.so.1 2.0.16).
#
# The orig tarball is a git snapshot without Makefile.in, config.h.in or
# build-aux (Debian's build runs autoreconf); rather than install autoconf,
# automake and libtool on the host, the six library sources are compiled
# directly, with the two results of configure that they use (TLS, the
# symver attribute) in config.h.
#
# libnuma.sh i386 and libnuma.sh arm64 build it for the 32-bit x86 and the
# arm64 selftests (Debian's i686-linux-gnu-gcc and aarch64-linux-gnu-gcc)
# into their own prefix.
#
# Use with the selftests' lib.mk, whose Makefile adds a bare -lnuma:
#   pc=$(scripts/setup/libnuma.sh)
#   PKG_CONFIG_PATH=$pc make -C .../selftests TARGETS=futex ... \
#	USERCFLAGS="$(PKG_CONFIG_PATH=$pc pkg-config --cflags numa)" \
#	USERLDFLAGS="$(PKG_CONFIG_PATH=$pc pkg-config --libs-only-L numa)"
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

NUMA_VER=2.0.19
NUMA_DEB_VER=2.0.19-1
NUMA_ORIG=numactl_$NUMA_VER.orig.tar.gz
NUMA_ORIG_SHA256=8b84ffdebfa0d730fb2fc71bb7ec96bb2d38bf76fb67246fde416a68e04125e4
NUMA_DSC=numactl_$NUMA_DEB_VER.dsc
NUMA_LIB_SRCS=(libnuma.c syscall.c distance.c affinity.c sysfs.c rtnetlink.c)
NUMA_HEADERS=(numa.h numaif.h numacompat1.h)

[ $# -le 1 ] || usage_error "usage: libnuma.sh [i386|arm64] (prints the PKG_CONFIG_PATH directory)"
target=${1:-}
# The test program runs here unless it is a cross-compiled one.
case $target in
'') cc=(gcc) ar=ar runs=1 ;;
i386) cc=(i686-linux-gnu-gcc) ar=i686-linux-gnu-ar runs='' ;;
arm64) cc=(aarch64-linux-gnu-gcc) ar=aarch64-linux-gnu-ar runs='' ;;
*) usage_error "libnuma.sh: unknown target $target (i386, arm64)" ;;
esac

prefix=$CACHE/libnuma-$NUMA_VER${target:+-$target}
pcdir=$prefix/lib/pkgconfig
stamp=$prefix/.complete
SRC=$CACHE/apt-src
DL=$SRC/numactl
LOGS=$WORK/libnuma-logs${target:+-$target}

# The stamp is written last: a prefix without it is a failed run's leftover.
built() {
	[ -f "$stamp" ] && [ -f "$prefix/lib/libnuma.a" ] && [ -f "$pcdir/numa.pc" ]
}

if built; then
	printf '%s\n' "$pcdir"
	exit 0
fi

for t in "${cc[0]}:${cc[0]%-gcc}" "$ar:binutils" tar:tar sha256sum:coreutils pkg-config:pkgconf ldd:libc-bin; do
	command -v "${t%%:*}" >/dev/null ||
		die "${t%%:*} not found: apt-get install ${t#*:}"
done

# Two runs at once would build into the same prefix.
lock_file "$CACHE/libnuma${target:+-$target}.lock"
if built; then
	printf '%s\n' "$pcdir"
	exit 0
fi

t0=$(date +%s)
tmp=$(mktemp -d /tmp/libnuma.XXXXXX)
cleanup() {
	rm -rf "$tmp"
	[ -f "$stamp" ] || rm -rf "$prefix"
}
trap cleanup EXIT
mkdir -p "$LOGS" "$DL"

sha256() {
	sha256sum "$1" | cut -d' ' -f1
}

# apt_src APT-GET-ARGS...: apt-private.sh (trixie, its private dirs and
# options) with our sources list, lists and caches on top: its -o options
# come first, so ours win. In $DL, where apt-get source downloads.
apt_src() {
	(cd "$DL" && "$TOP/scripts/setup/apt-private.sh" \
		-o "Dir::Etc::SourceList=$SRC/sources.list" \
		-o "Dir::State::Lists=$SRC/lists" \
		-o "Dir::Cache::Archives=$SRC/archives" \
		-o "Dir::Cache::pkgcache=$SRC/pkgcache.bin" \
		-o "Dir::Cache::srcpkgcache=$SRC/srcpkgcache.bin" \
		-q "$@")
}

# Our deb-src line: apt-private.sh's "deb ... trixie main" line, same
# mirror and keyring. Any apt-private.sh call writes that file first.
write_sources() {
	local main=$CACHE/apt/sources.list line
	if [ ! -s "$main" ]; then
		logged "$LOGS/apt-private.log" "$TOP/scripts/setup/apt-private.sh" policy ||
			die "apt-private.sh failed (log: $LOGS/apt-private.log)"
	fi
	line=$(sed -n -E 's/^deb[[:space:]]+(.*[[:space:]]trixie[[:space:]]+main)[[:space:]]*$/deb-src \1/p' "$main")
	case $line in
	'' | *$'\n'*) die "no single 'deb ... trixie main' line in $main" ;;
	esac
	mkdir -p "$SRC/lists/partial" "$SRC/archives/partial"
	printf '%s\n' "$line" >"$SRC/sources.list"
}

# The orig tarball: apt checks it against the Sources index (signed by
# the archive through InRelease), then against the pin above.
orig=$DL/$NUMA_ORIG
if [ -f "$orig" ] && [ "$(sha256 "$orig")" != "$NUMA_ORIG_SHA256" ]; then
	warn "cached $orig does not match its pinned sha256; downloading it again"
	rm -f "$orig"
fi
if [ ! -f "$orig" ]; then
	printf 'libnuma: fetching numactl %s source from trixie\n' "$NUMA_DEB_VER" >&2
	write_sources
	logged "$LOGS/apt-update.log" apt_src update ||
		die "apt-get update of the private trixie deb-src list failed (log: $LOGS/apt-update.log)"
	logged "$LOGS/apt-source.log" apt_src source --download-only --tar-only "numactl=$NUMA_DEB_VER" ||
		die "apt-get source numactl=$NUMA_DEB_VER failed (log: $LOGS/apt-source.log); if trixie moved on, re-pin NUMA_* in scripts/setup/libnuma.sh"
	# The .dsc, when the mirror has it, must list the same tarball.
	rm -f "$DL/$NUMA_DSC"
	if apt_src source --download-only --dsc-only "numactl=$NUMA_DEB_VER" \
		>"$LOGS/apt-dsc.log" 2>&1; then
		grep -q -E "^ $NUMA_ORIG_SHA256 [0-9]+ $NUMA_ORIG\$" "$DL/$NUMA_DSC" ||
			die "$DL/$NUMA_DSC does not list $NUMA_ORIG with sha256 $NUMA_ORIG_SHA256"
		printf 'libnuma: %s matches %s\n' "$NUMA_ORIG" "$NUMA_DSC" >&2
	else
		printf 'libnuma: the mirror does not serve %s (log: %s); %s is checked against the signed Sources index and the pin\n' \
			"$NUMA_DSC" "$LOGS/apt-dsc.log" "$NUMA_ORIG" >&2
	fi
	[ -f "$orig" ] || die "apt-get source did not leave $orig (log: $LOGS/apt-source.log)"
	sum=$(sha256 "$orig")
	[ "$sum" = "$NUMA_ORIG_SHA256" ] ||
		die "$orig: sha256 $sum, expected $NUMA_ORIG_SHA256"
fi

printf 'libnuma: building %s\n' "$prefix" >&2
tar -xzf "$orig" -C "$tmp" || die "unpacking $orig failed"
src=$tmp/numactl-$NUMA_VER
[ "$(cat "$src/VERSION")" = "$NUMA_VER" ] || die "$orig is not numactl $NUMA_VER"

# config.h as configure would write it here.
{
	printf '#define TLS __thread\n'
	printf '#define PACKAGE_VERSION "%s"\n' "$NUMA_VER"
	# configure's test, with -Werror as there.
	if printf '__attribute__ ((symver ("foo@foo_1"))) void frob (void) { }\n' |
		"${cc[@]}" -Werror -x c -c -o /dev/null - 2>/dev/null; then
		printf '#define HAVE_ATTRIBUTE_SYMVER 1\n'
	fi
} >"$src/config.h"

# -fPIC: the archive may end up in a PIE or a shared object.
(cd "$src" && logged "$LOGS/compile.log" nice -n 5 "${cc[@]}" -g -O2 -Wall -fPIC -I. -c "${NUMA_LIB_SRCS[@]}") ||
	die "compiling libnuma failed (log: $LOGS/compile.log)"
rm -rf "$prefix"
mkdir -p "$prefix/include" "$pcdir"
(cd "$src" && logged "$LOGS/ar.log" "$ar" rcs "$prefix/lib/libnuma.a" "${NUMA_LIB_SRCS[@]/%.c/.o}") ||
	die "ar failed (log: $LOGS/ar.log)"
(cd "$src" && cp "${NUMA_HEADERS[@]}" "$prefix/include/") || die "copying the headers failed"
# shellcheck disable=SC2016 # ${prefix} and ${exec_prefix} are pkg-config's
sed -e "s|@prefix@|$prefix|" -e 's|@exec_prefix@|${prefix}|' \
	-e 's|@libdir@|${exec_prefix}/lib|' -e 's|@includedir@|${prefix}/include|' \
	-e "s|@VERSION@|$NUMA_VER|" -e 's|@LIBS@||' \
	"$src/numa.pc.in" >"$pcdir/numa.pc"

# Check what the selftest needs: the version test of its Makefile, the
# 2.0.18 API, and a link that leaves no libnuma.so in ldd.
PKG_CONFIG_PATH=$pcdir pkg-config numa --atleast-version 2.0.18 ||
	die "pkg-config does not see libnuma >= 2.0.18 in $pcdir"
cat >"$tmp/check.c" <<-'EOF'
	#include <numa.h>
	#include <numaif.h>
	int main(void)
	{
		int (*f)(void *, unsigned long, int, int) =
			numa_set_mempolicy_home_node;
		return numa_available() < -1 || !f;
	}
EOF
read -r -a cflags <<<"$(PKG_CONFIG_PATH=$pcdir pkg-config --cflags numa)"
read -r -a libs <<<"$(PKG_CONFIG_PATH=$pcdir pkg-config --libs numa)"
logged "$LOGS/check.log" "${cc[@]}" -Wall -Werror "${cflags[@]}" -o "$tmp/check" "$tmp/check.c" "${libs[@]}" ||
	die "a test program does not link against $prefix/lib/libnuma.a (log: $LOGS/check.log)"
if [ -n "$runs" ]; then
	deps=$(ldd "$tmp/check") || die "ldd $tmp/check failed"
	case $deps in *libnuma*) die "the test program links libnuma dynamically: $deps" ;; esac
	"$tmp/check" || die "the test program linked against $prefix/lib/libnuma.a fails"
fi

printf 'numactl %s %s\n' "$NUMA_DEB_VER" "$NUMA_ORIG_SHA256" >"$stamp"
printf 'libnuma: %s built in %ss\n' "$prefix" "$(($(date +%s) - t0))" >&2
printf '%s\n' "$pcdir"
