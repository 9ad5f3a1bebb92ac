#!/usr/bin/env bash
# apt-private.sh APT-GET-ARGS...: run apt-get against Debian trixie and
# trixie-backports through a private configuration (own sources list, own
# lists and archive cache). The system's apt sources are never touched; the
# mirror is the one the system already uses. The queries of apt-cache work
# too: "apt-private.sh madison linux-source-7.3" lists the versions there.
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

APT=$CACHE/apt
mkdir -p "$APT/lists/partial" "$APT/archives/partial"

mirror() {
	local uri
	uri=$(grep -h -E '^(URIs:|deb )' /etc/apt/sources.list.d/*.sources \
		/etc/apt/sources.list 2>/dev/null |
		grep -v -- '-security' | head -n 1 |
		sed -E 's/^URIs:[[:space:]]*//; s/^deb[[:space:]]+(\[[^]]*\][[:space:]]+)?//; s/[[:space:]].*//')
	[ -n "$uri" ] || die "no Debian mirror found in the system's apt sources"
	printf '%s\n' "$uri"
}

if [ ! -s "$APT/sources.list" ]; then
	m=$(mirror)
	kr=/usr/share/keyrings/debian-archive-keyring.gpg
	cat >"$APT/sources.list" <<-EOF
		deb [signed-by=$kr] $m trixie main
		deb [signed-by=$kr] $m trixie-backports main
	EOF
fi

opts=(
	-o "Dir::Etc::SourceList=$APT/sources.list"
	-o "Dir::Etc::SourceParts=/nonexistent"
	-o "Dir::State::Lists=$APT/lists"
	-o "Dir::Cache::Archives=$APT/archives"
	-o "Dir::Cache::pkgcache=$APT/pkgcache.bin"
	-o "Dir::Cache::srcpkgcache=$APT/srcpkgcache.bin"
	-o "APT::Get::List-Cleanup=0"
)

# Refresh the private lists at most once a day.
stamp=$APT/lists/.updated
if [ ! -f "$stamp" ] || [ -n "$(find "$stamp" -mmin +1440)" ]; then
	apt-get -q "${opts[@]}" update >"$APT/update.log" 2>&1 ||
		{ tail -n 20 "$APT/update.log" >&2; die "apt-get update of the private trixie lists failed"; }
	touch "$stamp"
fi

case ${1:-} in
policy | madison | show | showsrc | search | depends | rdepends)
	exec apt-cache "${opts[@]}" "$@"
	;;
esac
exec apt-get "${opts[@]}" "$@"
