#!/bin/bash
# Extra "make bench" job of series 02, run in the guest: the seed's lock
# benchmark, FUTEX_SET_WAIT against FUTEX_WAIT (and FUTEX_LOCK_PI) over a
# thread sweep, on the patched kernel only (the parent has no
# FUTEX_SET_WAIT). Usage: 02-futex-set-wait.sh PERF OUT TAG
set -u
perf=${1:?} out=${2:?} tag=${3:?}
case $tag in parent.*) exit 0 ;; esac
exec "$perf" bench futex lock -k wait,set-wait,pi -t 1,2,3,4,6,8,16,32 \
	-i "${LOCK_ITERATIONS:-100000}" >"$out/lock.$tag.txt" 2>&1
