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
# A guest whose kernel has not started init (nor CMD) VM_BOOT_TIMEOUT
# seconds (default 300) after QEMU did has stalled in its boot: the
# instruction pointer of each vCPU is read from QEMU (named from the
# System.map beside KERNEL), its console kept in LOG.stalled, and it is
# booted once more; a second stall fails. With VM_NOTES set, a line
# naming the stalled boot's log is added to that file (make check's
# notes).
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
boot=${VM_BOOT_TIMEOUT:-300}
[[ $boot =~ ^[1-9][0-9]*$ ]] || usage_error "VM_BOOT_TIMEOUT must be a positive number of seconds, not '$boot'"
command -v vng >/dev/null || die "virtme-ng (vng) is not installed (make setup)"
mkdir -p "$WORK/guest" "$RESULTS" "$(dirname "$log")"

# --rwdir GUEST=HOST: vng 1.35 checks a bare path relative to its cwd.
# --force-9p: the virtiofsd of Debian 12 does not start for vng.
# root=/dev/root: the 9p tag; without CONFIG_BLOCK the kernel has no default.
# rootflags with cache=loose (the kernel takes the last rootflags=, and
# ours come after vng's): vng mounts the root without a cache, so every
# program started reads itself and its libraries again over 9p. In the
# debug kernel under TCG each command of virtme's init took 3 to 10 s,
# and the init 257 s to start CMD; 56 s with the cache (docs/timings.md).
# Nothing on the host changes the root's files while a guest runs; the
# directories a guest writes ($WORK/guest, $RESULTS) are 9p mounts of
# their own, without the cache.
vng_base=(vng --run "$kernel" --user root --disable-microvm --memory "$memory"
	--force-9p --rwdir "$WORK/guest=$WORK/guest" --rwdir "$RESULTS=$RESULTS"
	--verbose --append "panic=-1" --append "oops=panic"
	--append "root=/dev/root"
	--append "rootflags=version=9p2000.L,trans=virtio,access=any,cache=loose")
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
guest='' script='' qmp='' logger=''
fifo=$(mktemp -u /tmp/vm-console.XXXXXX)
tidy() {
	[ -z "$script" ] || rm -f "$script"
	[ -z "$qmp" ] || rm -f "$qmp"
	[ -z "$logger" ] || kill "$logger" 2>/dev/null || true
	rm -f "$fifo"
}
trap 'stop_guest; tidy' EXIT
trap 'on_signal INT' INT
trap 'on_signal TERM' TERM
trap 'on_signal HUP' HUP
on_signal() {
	trap '' INT TERM HUP
	stop_guest
	tidy
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

# start_guest LOG CMD...: run CMD (timeout ... vng ...) in the background
# with its output in LOG; wait_guest waits for it, its exit status to rc.
# run_guest LOG CMD... does both. The output reaches LOG through a FIFO:
# QEMU opens vng's stdout again (/proc/self/fd/1, the chardev of the
# command's output) with an offset of its own, so in a plain file the
# command's output overwrote the kernel's log from the file's start.
rc=0
start_guest() {
	local out=$1
	shift
	rm -f "$fifo"
	mkfifo "$fifo"
	# Emptied here, not by cat: started() must not read the last boot's.
	: >"$out"
	cat "$fifo" >>"$out" &
	logger=$!
	"$@" </dev/null >"$fifo" 2>&1 &
	guest=$!
}
wait_guest() {
	local n=0
	rc=0
	wait "$guest" || rc=$?
	guest=
	# cat ends once the last writer, the guest's last process, is gone;
	# one that escaped stop_guest must not hold vm.sh.
	while running "$logger" && [ "$n" -lt 100 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	kill "$logger" 2>/dev/null || true
	wait "$logger" || true
	logger=
}
run_guest() {
	start_guest "$@"
	wait_guest
}

# started: wait until the guest's kernel has started init (it says so in
# its log) or the guest has ended (true), or until $boot seconds have
# passed without either (false: a stalled boot). A signal's trap runs
# between two polls. Only the kernel's boot is bounded so: under load
# (two CPUs, a kernel build beside), virtme's init has taken 250 s to
# start the command, its kernel 26 s to start init.
started() {
	local end=$((SECONDS + boot))
	while [ "$SECONDS" -lt "$end" ]; do
		grep -a -q -s -E "$booted" "$log" && return 0
		running "$guest" || return 0
		sleep 1
	done
	grep -a -q -s -E "$booted" "$log"
}

# vcpus: each vCPU's instruction pointer, three times a second apart, read
# over QMP (info registers -a), named from System.map where the kernel
# has one at a fixed address (no KASLR). A vCPU spinning in a loop shows
# the same few symbols in every sample.
vcpus() {
	local map=${kernel%/arch/*}/System.map ips
	ips=$(timeout 20 python3 - "$qmp" 2>/dev/null <<-'PY'
	import json, re, socket, sys, time
	s = socket.socket(socket.AF_UNIX)
	s.settimeout(10)
	s.connect(sys.argv[1])
	f = s.makefile("rw")
	def call(cmd, **args):
	    f.write(json.dumps({"execute": cmd, "arguments": args}) + "\n")
	    f.flush()
	    while True:
	        r = json.loads(f.readline())
	        if "return" in r or "error" in r:
	            return r.get("return", "")
	f.readline()
	call("qmp_capabilities")
	for n in range(3):
	    regs = call("human-monitor-command", **{"command-line": "info registers -a"})
	    cpu = 0
	    for line in regs.splitlines():
	        m = re.match(r"CPU#(\d+)", line)
	        if m:
	            cpu = m.group(1)
	        m = re.search(r"\b(?:RIP|PC)=([0-9a-f]+)", line)
	        if m:
	            print(n, cpu, m.group(1))
	    time.sleep(1)
	PY
	) || { echo "    (no answer from QEMU's QMP socket)"; return 0; }
	if [ ! -f "$map" ] || grep -q '^CONFIG_RANDOMIZE_BASE=y' "${map%/System.map}/.config" 2>/dev/null; then
		map=/dev/null
	fi
	# System.map and the pointers: 16 hex digits each, so a string
	# comparison orders them.
	awk -v map="$map" '
	BEGIN {
		while ((getline l < map) > 0) {
			split(l, f, " ")
			if (f[2] ~ /^[tTwW]$/) { a[++n] = f[1]; name[n] = f[3] }
		}
	}
	{
		s = "?"
		lo = 1
		hi = n
		while (lo <= hi) {
			mid = int((lo + hi) / 2)
			if (a[mid] <= $3) { s = name[mid]; lo = mid + 1 } else hi = mid - 1
		}
		printf "    sample %d, vCPU %d: %s %s\n", $1, $2, $3, s
	}' <<<"$ips"
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
# The kernel's "Run ... as init process" ends its boot; the script's first
# line says so too, for a kernel whose log level hides that line.
marker='vm.sh: command started'
booted=" as init process|$marker"
script=$(mktemp "$WORK/guest/cmd.XXXXXX")
{
	printf '#!/bin/bash\necho "%s"\ncd %q || exit 125\n' "$marker" "$TOP"
	printf 'export PATH=%q\n' "$PATH"
	printf '%q ' "$@"
	printf '\necho "vm.sh: exit status $?"\n'
} >"$script"
chmod +x "$script"

# A stalled boot, seen once (make check of c5c08af: a debug
# kernel under TCG, both vCPUs busy and the console silent from 11 s into
# the boot on, until the 1800 s bound), costs one more boot, not the run;
# what the vCPUs were running is printed, so that the next one is told.
qmp=$(mktemp -u /tmp/vm-qmp.XXXXXX)
for attempt in 1 2; do
	start_guest "$log" timeout -k 10 "$timeout" "${vng_base[@]}" "${acc[@]}" --cpus "$cpus" \
		"${torture[@]}" "${args[@]}" "${qopts[@]}" \
		"--qemu-opts=-qmp unix:$qmp,server=on,wait=off" --exec "$script"
	if started; then
		wait_guest
		break
	fi
	{
		printf 'vm.sh: the guest kernel had not started init %ss after QEMU started: stalled in its boot\n' "$boot"
		tail -n 3 "$log" | sed 's/^/    /'
		vcpus || echo "    (the vCPUs could not be read)"
	} >&2
	stop_guest
	wait_guest
	[ "$attempt" -eq 1 ] ||
		die "the guest stalled in its boot twice, ${boot}s each (logs: $log.stalled, $log)"
	cp "$log" "$log.stalled"
	[ -z "${VM_NOTES:-}" ] ||
		printf 'a guest stalled in its boot and was booted again: %s.stalled\n' "$log" >>"$VM_NOTES"
	printf 'vm.sh: booting it once more (the stalled boot: %s.stalled)\n' "$log" >&2
done
tidy
script='' qmp=

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
# The command's output is in LOG among the kernel's lines: its end says
# why it failed.
if [ "$status" -ne 0 ]; then
	printf 'vm.sh: the command exited with status %s; the end of its output (log: %s):\n' \
		"$status" "$log" >&2
	sed -n "/$marker/,\$p" "$log" | tail -n 20 | sed 's/^/    /' >&2
fi
exit "$status"
