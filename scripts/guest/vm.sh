#!/usr/bin/env bash
# vm.sh [-t TIMEOUT] [-a BOOTARG]... [-p CPUS] [-q QEMU_OPTS] [-r DIR]... KERNEL LOG -- CMD...:
# boot KERNEL (a bzImage) with virtme-ng, run CMD in the guest as root over
# a copy-on-write view of this machine's file system (the repo and work/
# are visible at the same paths, $RESULTS and $WORK/guest writable), and
# keep the whole console, kernel log included, in LOG.
#
# ARCH=arm64: KERNEL is an arm64 Image, booted in an emulated arm64
# machine (qemu-system-aarch64, TCG) on the Debian arm64 root of
# scripts/guest/arm64-root.sh; of this machine's files the guest sees only
# $WORK/guest and $RESULTS (writable) and each DIR given with -r (read
# only), at the same paths.
#
# Fails with one line naming the cause: a guest that does not finish within
# TIMEOUT seconds, a guest kernel panic, or CMD's non-zero exit status.
# KVM is used only where a probe shows that a KVM guest really boots here;
# otherwise TCG. The choice is printed, with its reason.
# shellcheck disable=SC2317 # functions called from the traps
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

timeout=600 cpus=2 memory=${VM_MEMORY:-4G}
args=() qopts=()
# The debug kernel has locktorture built in, which starts a spin_lock
# torture at every boot unless told otherwise: only a boot that names a
# torture type (-a locktorture.torture_type=...) runs one. In any other
# boot, a type that does not exist makes its init give up at once (it
# says so in the kernel log); kernels without locktorture ignore it.
torture=(--append locktorture.torture_type=none)
rodirs=()
while getopts t:a:p:q:r: o; do
	case $o in
	t) timeout=$OPTARG ;;
	a)
		args+=(--append "$OPTARG")
		case $OPTARG in locktorture.torture_type=*) torture=() ;; esac
		;;
	p) cpus=$OPTARG ;;
	q) qopts=(--qemu-opts "$OPTARG") ;;
	r) rodirs+=("$(cd "$OPTARG" && pwd)") ;;
	*) usage_error "usage: vm.sh [-t TIMEOUT] [-a BOOTARG]... [-p CPUS] [-q QEMU_OPTS] [-r DIR]... KERNEL LOG -- CMD..." ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 2 ] || usage_error "usage: vm.sh [-t TIMEOUT] [-a BOOTARG]... [-p CPUS] [-q QEMU_OPTS] [-r DIR]... KERNEL LOG -- CMD..."
kernel=$1
log=$2
shift 2
[ "${1:-}" = -- ] && shift
[ $# -gt 0 ] || usage_error "vm.sh: no command"
[ -f "$kernel" ] || usage_error "no kernel image $kernel"
command -v vng >/dev/null || die "virtme-ng (vng) is not installed (make setup)"
mkdir -p "$WORK/guest" "$RESULTS" "$(dirname "$log")"

# --rwdir GUEST=HOST: vng 1.35 checks a bare path relative to its cwd.
# --force-9p: the virtiofsd of Debian 12 does not start for vng.
# root=/dev/root: the 9p tag; without CONFIG_BLOCK the kernel has no default.
vng_base=(vng --run "$kernel" --user root --disable-microvm --memory "$memory"
	--force-9p --rwdir "$WORK/guest=$WORK/guest" --rwdir "$RESULTS=$RESULTS"
	--verbose --append "panic=-1" --append "oops=panic"
	--append "root=/dev/root")
arch=${ARCH:-x86_64}
[ "$arch" != x86 ] || arch=x86_64
case $arch in
x86_64) ;;
arm64)
	# The directories it shares need mount points in the (read-only)
	# root: made in the cached root, one empty directory each.
	root=$("$TOP/scripts/guest/arm64-root.sh")
	for d in "$WORK/guest" "$RESULTS" "${rodirs[@]}"; do
		mkdir -p "$root$d"
	done
	vng_base+=(--arch arm64 --root "$root")
	for d in "${rodirs[@]}"; do
		vng_base+=(--rodir "$d=$d")
	done
	;;
*) die "ARCH=$arch: x86_64 or arm64" ;;
esac

# Ctrl-C or a CI cancel must stop the guest at once. GNU timeout puts
# itself in a process group of its own, so a terminal's Ctrl-C never
# reaches it, vng or QEMU; and bash runs a trap only once the foreground
# command has ended. So the guest runs in the background (run_guest), and
# the traps stop it with everything it started, then die by the same
# signal: a calling shell stops too only if its command died by the
# signal (an "exit 130" would let it go on to its next boot).
guest='' script=''
trap '[ -z "$script" ] || rm -f "$script"' EXIT
trap 'on_signal INT' INT
trap 'on_signal TERM' TERM
trap 'on_signal HUP' HUP
on_signal() {
	trap '' INT TERM HUP
	stop_guest
	[ -z "$script" ] || rm -f "$script"
	trap - "$1" EXIT
	kill -s "$1" "$$"
}

# stop_guest: SIGTERM to timeout, vng and QEMU (QEMU exits at once on it;
# the process group catches what is being started right now), SIGKILL to
# whatever is still there 2 seconds later.
stop_guest() {
	local pids n=0
	[ -n "$guest" ] || return 0
	pids=$(tree_pids "$guest")
	# shellcheck disable=SC2086 # one pid per word
	kill -TERM -- "-$guest" $pids 2>/dev/null || true
	# shellcheck disable=SC2086
	while running $pids && [ "$n" -lt 20 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	# shellcheck disable=SC2086
	kill -KILL -- "-$guest" $pids 2>/dev/null || true
}

# run_guest LOG CMD...: run CMD (timeout ... vng ...) in the background with
# its output in LOG, and wait for it; its exit status goes to rc.
rc=0
run_guest() {
	local out=$1
	shift
	"$@" </dev/null >"$out" 2>&1 &
	guest=$!
	rc=0
	wait "$guest" || rc=$?
	guest=
}

# The KVM probe boots KERNEL once with KVM and a short timeout. Its answer
# (in $a) is kept, with the probe's log, in $CACHE for this boot of the host
# (a KVM guest hangs on some hosts), and so shared by every clone.
accel() {
	local cache=$CACHE/kvm-probe bootid
	bootid=$(cat /proc/sys/kernel/random/boot_id 2>/dev/null || echo unknown)
	if [ -f "$cache" ] && [ "$(head -n 1 "$cache")" = "$bootid" ]; then
		a=$(tail -n +2 "$cache")
		return
	fi
	if [ ! -w /dev/kvm ]; then
		a="tcg /dev/kvm is missing or not writable"
	else
		run_guest "$CACHE/kvm-probe.log" timeout -k 5 "${KVM_PROBE_TIMEOUT:-45}" \
			"${vng_base[@]}" --cpus 1 --exec "echo kvm-probe-ok"
		if [ "$rc" -eq 0 ] && grep -q kvm-probe-ok "$CACHE/kvm-probe.log"; then
			a="kvm a KVM guest booted in the probe"
		else
			a="tcg a KVM guest did not boot within ${KVM_PROBE_TIMEOUT:-45}s (log: $CACHE/kvm-probe.log)"
		fi
	fi
	printf '%s\n%s\n' "$bootid" "$a" >"$cache"
}

a=
if [ "$arch" = arm64 ]; then
	a="tcg an emulated arm64 machine on $(uname -m)"
else
	accel
fi
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

run_guest "$log" timeout -k 10 "$timeout" "${vng_base[@]}" "${acc[@]}" --cpus "$cpus" \
	"${torture[@]}" "${args[@]}" "${qopts[@]}" --exec "$script"
rm -f "$script"
script=

if grep -q -E 'Kernel panic - not syncing' "$log"; then
	grep -E -B5 -A15 'Kernel panic - not syncing|(WARNING|BUG):' "$log" | head -n 40 >&2 || true
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
