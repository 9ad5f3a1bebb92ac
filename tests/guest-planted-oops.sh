#!/bin/bash
# guest-planted-oops.sh OUT_DIR: runs inside the guest, for make check's
# second planted-failure boot. It plants the reports that taint the
# kernel, and a taint turns lockdep off: they cannot share a boot with
# the lockdep plant of guest-planted.sh (seen: after a KASAN report the
# lockdep report never came). Each through LKDTM:
#   - a KASAN report: READ_AFTER_FREE;
#   - an oops: BUG (the shell that wrote it dies);
#   - a soft lockup and an RCU stall: SOFTLOCKUP, a task that spins with
#     preemption disabled for ever, pinned to the last CPU, with the
#     soft lockup threshold at 2 s and RCU's stall time-out at 3 s.
# The kernel log goes to OUT_DIR/dmesg.txt, then the guest panics (sysrq
# c): with a CPU locked up, a power-off could wait for it for ever.
set -u
out=${1:?usage: guest-planted-oops.sh OUT_DIR}
case $out in /*) ;; *) out=$PWD/$out ;; esac
mkdir -p "$out"
last=$(($(nproc) - 1))
[ "$last" -gt 0 ] || {
	echo "guest-planted-oops.sh: needs two CPUs, the lockup takes one" >&2
	exit 2
}
# This script stays off the CPU that is to lock up.
taskset -p -c 0 $$ >/dev/null || exit 2
dbg=/sys/kernel/debug
mountpoint -q "$dbg" || mount -t debugfs none "$dbg" || exit 2
direct=$dbg/provoke-crash/DIRECT

# wait_log REGEX: until the kernel log has a line matching REGEX (60 s).
wait_log() {
	for _ in $(seq 60); do
		dmesg | grep -q -E "$1" && return 0
		sleep 1
	done
	echo "guest-planted-oops.sh: no '$1' in the kernel log after 60 s" >&2
}

echo READ_AFTER_FREE >"$direct"
wait_log 'BUG: KASAN'
# vm.sh boots with oops=panic: this oops is to be reported, not fatal.
echo 0 >/proc/sys/kernel/panic_on_oops
sh -c "echo BUG >$direct"
wait_log 'kernel BUG at'
echo 1 >/proc/sys/kernel/watchdog_thresh
echo 3 >/sys/module/rcupdate/parameters/rcu_cpu_stall_timeout
taskset -c "$last" sh -c "echo SOFTLOCKUP >$direct" &
wait_log 'BUG: soft lockup'
wait_log 'self-detected stall on CPU|detected stalls on CPUs'
dmesg >"$out/dmesg.txt" 2>&1
echo ok >"$out/done"
sync
echo c >/proc/sysrq-trigger
sleep 60
