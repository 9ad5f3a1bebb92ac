#!/bin/bash
# in the guest: the whole futex_ping N times; keep the logs of failures
n=${1:-8}
out=/work/w58/work/guest/pl
mkdir -p $out; rm -f $out/*
pass=0 fail=0
for i in $(seq 1 $n); do
	s=$(date +%s)
	if /work/w58/work/tools-debug/kselftest/futex/functional/futex_ping > $out/run.$i.txt 2>&1; then
		pass=$((pass+1))
	else
		fail=$((fail+1)); echo "run $i failed: $(grep '^not ok' $out/run.$i.txt | tr '\n' ' ')"
	fi
	echo "run $i: $(( $(date +%s) - s )) s"
done
echo "ping-loop: $pass passed, $fail failed" | tee $out/summary.txt
