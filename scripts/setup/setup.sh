#!/usr/bin/env bash
# setup.sh: install what the workbench needs on Debian 12: build tools and
# QEMU from the system's suites, virtme-ng from trixie through the private
# apt configuration (its dependencies still come from Debian 12). Installs
# only what is missing, so a second run costs a few dpkg queries.
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

# procps: pgrep, with which vm.sh stops a guest on Ctrl-C. git-email (with
# Mail::Address, and SASL and TLS for SMTP servers) and b4: scripts/queue/send.sh
# and make check's mailable step. gcc-i686-linux-gnu: the i386 selftests
# (not gcc-multilib, which Debian 12 will not install beside a cross
# compiler); gcc-aarch64-linux-gnu, qemu-system-arm, debootstrap: the
# arm64 guest.
# lava-common (the job schema), lava-dispatcher (lava-run), lavacli,
# python3-jinja2: the LAVA jobs (scripts/lab/lava.sh). rt-tests, stress-ng,
# sysbench, memcached and libmemcached-tools: programs run unmodified on
# PING through pingmutex/ (tests/guest-peers.sh).
pkgs=(build-essential bc bison flex cpio rsync xz-utils zstd ccache
	libelf-dev libssl-dev python3 python3-ply python3-git perl git
	qemu-system-x86 udev busybox-static procps
	gcc-i686-linux-gnu libc6-dev-i386-cross gcc-aarch64-linux-gnu libc6-dev-arm64-cross
	qemu-system-arm debootstrap
	lava-common lava-dispatcher lavacli python3-jinja2 python3-yaml
	shellcheck gnuplot-nox ministat pkg-config spin
	git-email libmailtools-perl libauthen-sasl-perl libio-socket-ssl-perl b4
	rt-tests stress-ng sysbench memcached libmemcached-tools)

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done
log=$WORK/setup.log
if [ ${#missing[@]} -gt 0 ]; then
	[ "$(id -u)" = 0 ] || die "missing packages (${missing[*]}) and not root to install them"
	printf '  installing: %s\n' "${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	logged "$log" apt-get update -q || die "apt-get update failed (log: $log)"
	logged "$log" apt-get install -y -q --no-install-recommends "${missing[@]}" ||
		die "apt-get install ${missing[*]} failed (log: $log)"
fi

if ! command -v vng >/dev/null; then
	[ "$(id -u)" = 0 ] || die "virtme-ng is missing and not root to install it"
	dl=$CACHE/downloads
	mkdir -p "$dl"
	rm -f "$dl"/virtme-ng_*.deb
	(cd "$dl" && "$TOP/scripts/setup/apt-private.sh" -q download virtme-ng) >>"$log" 2>&1 ||
		die "apt-get download virtme-ng (trixie) failed (log: $log)"
	deb=$(ls "$dl"/virtme-ng_*.deb)
	printf '  installing: %s\n' "${deb##*/}"
	logged "$log" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$deb" ||
		die "installing $deb failed (log: $log)"
fi
printf '  vng %s, %s, %s\n' "$(vng --version 2>/dev/null | awk '{print $NF}')" \
	"$(qemu-system-x86_64 --version | head -n 1 | awk '{print $1, $4}')" \
	"$(ccache --version | head -n 1)"
# A guest whose writes into work/ fail leaves results the checks read as
# "did not run"; a full disk is one way to get there: what was free at the
# start is printed, so that a failed run's log can rule it in or out.
printf '  free: %s on the disk of %s, %s of memory\n' \
	"$(df -h --output=avail "$TOP" | tail -n 1 | tr -d ' ')" "$TOP" \
	"$(free -h | awk '/^Mem:/ {print $7}')"
