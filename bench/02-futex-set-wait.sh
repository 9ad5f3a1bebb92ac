#!/bin/bash
# Extra "make bench" job of series 02, run in the guest: the lock benchmark
# of the FUTEX_SET_WAIT proposal as "perf bench futex lock", FUTEX_SET_WAIT
# against FUTEX_WAIT (and FUTEX_LOCK_PI) over a thread sweep. It compares
# lock kinds on the patched kernel (the parent has no FUTEX_SET_WAIT), so
# it needs no parent boots: it runs five sweeps in the first boot of the
# patched kernel and nothing in the others.
# Usage: 02-futex-set-wait.sh PERF OUT TAG
set -u
perf=${1:?} out=${2:?} tag=${3:?}
[ "$tag" = patched.1 ] || exit 0
for s in 1 2 3 4 5; do
	"$perf" bench futex lock -k wait,set-wait,pi -t 1,2,3,4,6,8,16,32 \
		-i 100000 >"$out/lock.patched.$s.txt" 2>&1 || exit 1
done
