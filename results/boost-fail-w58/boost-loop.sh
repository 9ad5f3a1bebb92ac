#!/bin/bash
cd /work/w58
pass=0 fail=0
for i in $(seq 1 40); do
	if /work/w58/work/tools-debug/kselftest/futex/functional/futex_ping -r inversion.other_cpu.boost > /work/w58/work/guest/boost.$i.txt 2>&1; then pass=$((pass+1)); else fail=$((fail+1)); fi
done
echo "boost-loop: $pass passed, $fail failed" | tee /work/w58/work/guest/boost-summary.txt
