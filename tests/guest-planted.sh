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
#   - a hung task: LKDTM's HUNG_TASK, the hung task detector's threshold
#     lowered to 1 s;
#   - a lockdep report: LKDTM's SPINLOCKUP taken once, which returns to
#     user space with a spinlock held;
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
echo WARNING >"$dbg/provoke-crash/DIRECT"
sleep 1
# A hung task: a task in D state that nobody wakes, reported after 1 s.
echo 1 >/proc/sys/kernel/hung_task_timeout_secs
sh -c "echo HUNG_TASK >$dbg/provoke-crash/DIRECT" &
for _ in $(seq 60); do
	dmesg | grep -q 'blocked for more than' && break
	sleep 1
done
# The lock stays held by nobody who will release it, and the CPU of the
# shell that took it runs with preemption disabled from then on: after
# it, the guest only reads its log and panics. Nothing can be planted
# after it, and before it nothing that turns lockdep off: a KASAN report
# (its taint does, seen) or an oops; nor a lockup of a CPU that the rest
# needs. Those are planted in a boot of their own (guest-planted-oops.sh).
# That shell's exit may never end (seen once: exit_mmap() on its CPU for
# the 20 minutes of the boot's time-out, this script waiting for it), so
# it runs on CPU 1 in the background, and this script on CPU 0, waiting
# only for the report.
taskset -pc 0 $$ >/dev/null || exit 2
taskset -c 1 sh -c "echo SPINLOCKUP >$dbg/provoke-crash/DIRECT" &
for _ in $(seq 60); do
	dmesg | grep -q 'lock held when returning to user space' && break
	sleep 1
done
dmesg >"$out/dmesg.txt" 2>&1
echo ok >"$out/done"
sync
echo c >/proc/sysrq-trigger
sleep 60
