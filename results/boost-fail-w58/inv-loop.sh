#!/bin/bash
# in the guest: the inversion cases of the hardened futex_ping N times
n=${1:-10}
out=/work/w58/work/guest/inv-$2
mkdir -p $out; rm -f $out/*
pass=0 fail=0 skip=0
for i in $(seq 1 $n); do
	${3:-/work/x/futex_ping} -r inversion.same_cpu.boost -r inversion.other_cpu.boost > $out/run.$i.txt 2>&1
	rc=$?
	p=$(grep -c '^ok .* # SKIP' $out/run.$i.txt); o=$(grep -c '^ok ' $out/run.$i.txt)
	if [ $rc = 0 ] && [ "$o" = 2 ] && [ "$p" = 0 ]; then pass=$((pass+1)); rm $out/run.$i.txt
	elif [ "$p" != 0 ]; then skip=$((skip+1))
	else fail=$((fail+1)); fi
done
echo "inv-loop $2: $pass passed, $fail failed, $skip skipped" | tee $out/summary.txt
