#!/bin/bash
# guest-planted.sh TEST_DIR OUT_DIR: runs inside the guest, for the
# planted-failure check of make check. Plants the faults that make
# check's detectors exist for, and leaves the evidence where the real run
# would leave it, so that the same verdict functions must turn red:
#   - a selftest fails: futex_requeue is replaced by a program whose KTAP
#     output reports one case as "not ok";
#   - a selftest is missing: futex_wait_wouldblock is not in the test
#     directory;
#   - a kernel WARNING: LKDTM's WARNING crash point;
#   - a KASAN report, a BUG, a hung task, a soft lockup and an RCU stall:
#     LKDTM's READ_AFTER_FREE, BUG, HUNG_TASK and, last, SOFTLOCKUP (on
#     the second CPU), with the detectors' thresholds lowered;
#   - a lockdep report: LKDTM's SPINLOCKUP taken once, which returns to
#     user space with a spinlock held (before the BUG: an oops turns
#     lockdep off);
#   - a lock that excludes nobody: the boot runs locktorture's
#     lock_busted (the host's command line names it); its log goes to
#     OUT_DIR/torture-dmesg.txt, the rest to OUT_DIR/dmesg.txt;
#   - a panic: sysrq c, last, once the evidence is written.
# futex_wait_timeout runs unchanged, so that a verdict that fails
# everything is not mistaken for one that detects.
set -u
src=${1:?usage: guest-planted.sh TEST_DIR OUT_DIR}
out=${2:?}
# Absolute: the programs run from a copy in /tmp.
case $out in /*) ;; *) out=$PWD/$out ;; esac
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
# locktorture's lock_busted runs from boot: two statistics lines for its
# verdict (at most 60 s), kept apart; then the log is cleared, so that
# the torture's own warning does not stand for the planted one below.
for _ in $(seq 60); do
	[ "$(dmesg | grep -c 'Writes: *Total:')" -lt 2 ] || break
	sleep 1
done
dmesg >"$out/torture-dmesg.txt" 2>&1
dmesg -C
dir=$(mktemp -d /tmp/planted.XXXXXX)
cp -a "$src/futex_wait_timeout" "$dir/" || exit 2
cat >"$dir/futex_requeue" <<-'EOF'
	#!/bin/sh
	echo 'TAP version 13'
	echo '1..2'
	echo 'ok 1 global.requeue_single'
	echo '# planted: this case fails on purpose'
	echo 'not ok 2 global.requeue_multiple'
	exit 1
EOF
chmod +x "$dir/futex_requeue"
"$here/guest-selftests.sh" "$dir" "$out"
rm -f "$out/done"

dbg=/sys/kernel/debug
mountpoint -q "$dbg" || mount -t debugfs none "$dbg" || exit 2
# This shell on CPU 0, the soft lockup below on CPU 1.
taskset -p -c 0 $$ >/dev/null
echo WARNING >"$dbg/provoke-crash/DIRECT"
sleep 1
# A lockdep report, before anything that oopses (an oops turns lockdep
# off): the shell returns to user space holding a spinlock that nobody
# will release; its next sleep is a "scheduling while atomic".
sh -c "echo SPINLOCKUP >$dbg/provoke-crash/DIRECT"
sleep 1
# A KASAN report: a read of freed slab memory.
echo READ_AFTER_FREE >"$dbg/provoke-crash/DIRECT"
sleep 1
# A BUG: it kills the shell that writes it, with an oops, which every
# guest turns into a panic (oops=panic): not this one from here on.
echo 0 >/proc/sys/kernel/panic_on_oops
sh -c "echo BUG >$dbg/provoke-crash/DIRECT"
sleep 1
# A hung task: a task in D state that nobody wakes, reported after 1 s.
echo 1 >/proc/sys/kernel/hung_task_timeout_secs
sh -c "echo HUNG_TASK >$dbg/provoke-crash/DIRECT" &
for _ in $(seq 60); do
	dmesg | grep -q 'blocked for more than' && break
	sleep 1
done
# A soft lockup and an RCU stall, last: CPU 1 loops in the kernel with
# preemption disabled for good (interrupts still come, so the log still
# reaches the host); reported after 2 s and 3 s.
echo 1 >/proc/sys/kernel/watchdog_thresh
echo 3 >/sys/module/rcupdate/parameters/rcu_cpu_stall_timeout
taskset -c 1 sh -c "echo SOFTLOCKUP >$dbg/provoke-crash/DIRECT" &
for _ in $(seq 60); do
	dmesg | grep -q 'soft lockup' && dmesg | grep -q -E 'detected stalls|self-detected stall' && break
	sleep 1
done
dmesg >"$out/dmesg.txt" 2>&1
echo ok >"$out/done"
sync
echo c >/proc/sysrq-trigger
sleep 60
