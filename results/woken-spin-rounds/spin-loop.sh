#!/bin/bash
# in the guest: woken_spin.owner_runs N times; the rounds each run needed
n=${1:-40} bin=${2:-/work/x/futex_ping3}
out=/work/w58/work/guest/spin
mkdir -p $out; rm -f $out/*
for i in $(seq 1 $n); do
	$bin -r woken_spin.owner_runs > $out/run.$i.txt 2>&1
	echo "run $i rc=$? $(grep -h 'spun after\|no look=spin' $out/run.$i.txt)"
done | tee $out/summary.txt
