#!/usr/bin/env bash
# vm.sh [-t TIMEOUT] [-a BOOTARG]... [-p CPUS] KERNEL LOG -- CMD...: boot
# KERNEL (a bzImage) with virtme-ng, run CMD in the guest as root over a
# copy-on-write view of this machine's file system (the repo and work/ are
# visible at the same paths, $RESULTS and $WORK/guest writable), and keep the
# whole console, kernel log included, in LOG.
#
# Fails with one line naming the cause: a guest that does not finish within
# TIMEOUT seconds, a guest kernel panic, or CMD's non-zero exit status.
# KVM is used only where a probe shows that a KVM guest really boots here;
# otherwise TCG. The choice is printed, with its reason.
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

timeout=600 cpus=2 memory=${VM_MEMORY:-4G}
args=()
while getopts t:a:p: o; do
	case $o in
	t) timeout=$OPTARG ;;
	a) args+=(--append "$OPTARG") ;;
	p) cpus=$OPTARG ;;
	*) die "usage: vm.sh [-t TIMEOUT] [-a BOOTARG]... [-p CPUS] KERNEL LOG -- CMD..." ;;
	esac
done
shift $((OPTIND - 1))
kernel=${1:?usage: vm.sh KERNEL LOG -- CMD...}
log=${2:?}
shift 2
[ "${1:-}" = -- ] && shift
[ $# -gt 0 ] || die "vm.sh: no command"
[ -f "$kernel" ] || die "no kernel image $kernel"
command -v vng >/dev/null || die "virtme-ng (vng) is not installed (make setup)"
mkdir -p "$WORK/guest" "$RESULTS" "$(dirname "$log")"

# --rwdir GUEST=HOST: vng 1.35 checks a bare path relative to its cwd.
# --force-9p: the virtiofsd of Debian 12 does not start for vng.
# root=/dev/root: the 9p tag; without CONFIG_BLOCK the kernel has no default.
vng_base=(vng --run "$kernel" --user root --disable-microvm --memory "$memory"
	--force-9p --rwdir "$WORK/guest=$WORK/guest" --rwdir "$RESULTS=$RESULTS"
	--verbose --append "panic=-1" --append "oops=panic"
	--append "root=/dev/root")

# The KVM probe boots KERNEL once with KVM and a short timeout. Its answer
# is kept for this boot of the host (a KVM guest hangs on some hosts).
accel() {
	local cache=$CACHE/kvm-probe bootid res
	bootid=$(cat /proc/sys/kernel/random/boot_id 2>/dev/null || echo unknown)
	if [ -f "$cache" ] && [ "$(head -n 1 "$cache")" = "$bootid" ]; then
		tail -n +2 "$cache"
		return
	fi
	if [ ! -w /dev/kvm ]; then
		res="tcg /dev/kvm is missing or not writable"
	elif timeout -k 5 "${KVM_PROBE_TIMEOUT:-45}" "${vng_base[@]}" --cpus 1 \
		--exec "echo kvm-probe-ok" </dev/null >"$WORK/kvm-probe.log" 2>&1 &&
		grep -q kvm-probe-ok "$WORK/kvm-probe.log"; then
		res="kvm a KVM guest booted in the probe"
	else
		res="tcg a KVM guest did not boot within ${KVM_PROBE_TIMEOUT:-45}s (log: $WORK/kvm-probe.log)"
	fi
	printf '%s\n%s\n' "$bootid" "$res" >"$cache"
	printf '%s\n' "$res"
}

a=$(accel)
case $a in
kvm*) acc=() ;;
*) acc=(--disable-kvm) ;;
esac
printf '  guest: %s vCPUs, %s, %s (%s)\n' "$cpus" "$memory" "${a%% *}" "${a#* }"

# The command runs through a script so that quoting survives vng --exec.
script=$(mktemp "$WORK/guest/cmd.XXXXXX")
{
	printf '#!/bin/bash\ncd %q || exit 125\n' "$TOP"
	printf 'export PATH=%q\n' "$PATH"
	printf '%q ' "$@"
	printf '\necho "vm.sh: exit status $?"\n'
} >"$script"
chmod +x "$script"

set +e
timeout -k 10 "$timeout" "${vng_base[@]}" "${acc[@]}" --cpus "$cpus" \
	"${args[@]}" --exec "$script" </dev/null >"$log" 2>&1
rc=$?
set -e
rm -f "$script"

if grep -q -E 'Kernel panic - not syncing' "$log"; then
	grep -E -B5 -A15 'Kernel panic - not syncing|(WARNING|BUG):' "$log" | head -n 40 >&2
	die "guest kernel panicked (log: $log)"
fi
if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
	tail -n 15 "$log" >&2
	die "guest did not finish within ${timeout}s (log: $log)"
fi
status=$(grep -a -o 'vm.sh: exit status [0-9]*' "$log" | tail -n 1 | awk '{print $4}')
if [ -z "$status" ]; then
	tail -n 15 "$log" >&2
	die "guest ended before the command finished (vng exit $rc; log: $log)"
fi
exit "$status"
