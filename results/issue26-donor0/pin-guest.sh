#!/bin/bash
# in the guest: perf bench futex lock, threads pinned (as perf does) or not (LD_PRELOAD nopin.so)
perf=$1 shim=$2
for round in 1 2 3; do
	for kind in wait ping; do
		for t in 4 8 16; do
			for pin in pinned unpinned; do
				if [ $pin = unpinned ]; then pre=$shim; else pre=; fi
				r=$(LD_PRELOAD=$pre "$perf" bench futex lock -s -k $kind -t $t -r 1 2>&1 | grep -o 'Averaged [0-9]*\|([0-9.]* CPUs busy)' | tr -d '()' | awk '{printf "%s ", $2 ~ /^[0-9.]+$/ ? $2 : $1} END{print ""}')
				echo "$round $kind $t $pin $r"
			done
		done
	done
done
