#!/usr/bin/env bash
# fetch-base.sh DEST: download Debian's linux-source-7.3 package (pinned
# version and sha256, cached) and unpack its kernel source into DEST.
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

[ $# -eq 1 ] || usage_error "usage: fetch-base.sh DEST"
dest=$1
[ ! -e "$dest" ] || usage_error "$dest already exists"
lock_workbench
dl=$CACHE/downloads
deb=$dl/${BASE_PKG}_${BASE_VER//:/%3a}_all.deb
mkdir -p "$dl"

verify() {
	local sum
	sum=$(sha256sum "$1" | cut -d' ' -f1)
	[ "$sum" = "$BASE_SHA256" ] && return 0
	printf 'ERROR: %s: sha256 %s, expected %s (corrupt or wrong download)\n' \
		"$1" "$sum" "$BASE_SHA256" >&2
	return 1
}

if [ -f "$deb" ] && ! verify "$deb" 2>/dev/null; then
	warn "cached $deb does not match its pinned sha256; downloading it again"
	rm -f "$deb"
fi
# apt's words for a version that the archive no longer has (Debian drops
# superseded backports): the pin in lib.sh must move on.
gone="Unable to locate package|Version '.*' for '.*' was not found|Can't find a source to download"
if [ ! -f "$deb" ]; then
	if ! (cd "$dl" && "$TOP/scripts/setup/apt-private.sh" -q download "$BASE_PKG=$BASE_VER") \
		>"$dl/download.log" 2>&1; then
		if grep -q -E "$gone" "$dl/download.log"; then
			die "apt-get download $BASE_PKG=$BASE_VER failed: that version is no longer in the Debian archive; re-pin: set BASE_VER, BASE_SHA256 and BASE_FILES in scripts/lib.sh to a version that 'scripts/setup/apt-private.sh madison $BASE_PKG' lists"
		fi
		tail -n 5 "$dl/download.log" >&2
		die "apt-get download $BASE_PKG=$BASE_VER failed (log: $dl/download.log)"
	fi
fi
verify "$deb" || exit 1

tmp=$dest.unpack
rm -rf "$tmp"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp"
dpkg-deb --fsys-tarfile "$deb" |
	tar -x -O "./usr/src/$BASE_PKG.tar.xz" |
	tar -xJ -C "$tmp" ||
	die "unpacking $deb failed"
[ -f "$tmp/$BASE_PKG/Makefile" ] || die "$deb did not contain $BASE_PKG/Makefile"
n=$(cd "$tmp/$BASE_PKG" && find . \( -type f -o -type l \) | wc -l)
[ "$n" -eq "$BASE_FILES" ] || die "$deb unpacked to $n files, expected $BASE_FILES"
mv "$tmp/$BASE_PKG" "$dest"
rmdir "$tmp"
