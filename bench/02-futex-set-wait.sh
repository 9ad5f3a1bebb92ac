#!/bin/bash
# Extra "make bench" job of series 02, run in the guest: the lock benchmark
# of the FUTEX_SET_WAIT proposal as "perf bench futex lock", FUTEX_SET_WAIT
# against FUTEX_WAIT (and FUTEX_LOCK_PI) over a thread sweep. It compares
# lock kinds on the patched kernel (the parent has no FUTEX_SET_WAIT), so
# it runs nothing in the parent's boots and one sweep in every boot of the
# patched kernel: RUNS sweeps in RUNS separate boots, lock.patched.R.txt,
# of which bench-lock-table.sh shows the median run.
# Each kind sweeps in a perf process of its own, wait and set-wait in
# alternating order from boot to boot: in a TCG guest a row's throughput
# depends on what ran before it in the same process (an uncontended
# set-wait row, the same code as the wait row, ran 1.4x faster after the
# 32-thread wait row).
# The futex word locks run 20x more iterations than FUTEX_LOCK_PI, which
# is about 250x slower once contended in a TCG guest: each row then takes
# a few tenths of a second, and a sweep stays around a minute.
# Usage: 02-futex-set-wait.sh PERF OUT TAG (TAG: parent.R or patched.R)
set -u
perf=${1:?} out=${2:?} tag=${3:?}
case $tag in patched.*) ;; *) exit 0 ;; esac
r=${tag#patched.}
threads=1,2,3,4,6,8,16,32
if [ $((r % 2)) = 1 ]; then kinds="wait set-wait"; else kinds="set-wait wait"; fi
echo "02-futex-set-wait: lock sweep $r, kinds in the order $kinds pi"
for k in $kinds pi; do
	i=2000000
	[ "$k" = pi ] && i=100000
	"$perf" bench futex lock -k "$k" -t "$threads" -i "$i" || exit 1
done >"$out/lock.patched.$r.txt" 2>&1
