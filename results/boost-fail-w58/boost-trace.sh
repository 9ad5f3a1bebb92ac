#!/bin/bash
# in the guest: run inversion.other_cpu.boost N times with a trace; keep the trace of failures
n=${1:-100}
out=/work/w58/work/guest/bt
mkdir -p $out; rm -f $out/*
T=/sys/kernel/tracing
[ -d $T/events ] || mount -t tracefs none $T
echo 16384 > $T/buffer_size_kb
for e in futex/futex_ping_lock futex/futex_ping_unlock futex/futex_ping_wait futex/futex_ping_spin sched/sched_switch sched/sched_wakeup sched/sched_waking sched/sched_migrate_task; do
	echo 1 > $T/events/$e/enable || echo "no event $e"
done
pass=0 fail=0
for i in $(seq 1 $n); do
	[ -n "$DROP" ] && { sync; echo 3 > /proc/sys/vm/drop_caches; }
	echo > $T/trace
	echo 1 > $T/tracing_on
	if /work/w58/work/tools-debug/kselftest/futex/functional/futex_ping -r inversion.other_cpu.boost > $out/run.$i.txt 2>&1; then
		pass=$((pass+1)); rm -f $out/run.$i.txt
	else
		fail=$((fail+1))
		echo 0 > $T/tracing_on
		cat $T/trace > $out/trace.$i.txt
		echo "iteration $i failed"
	fi
	echo 0 > $T/tracing_on
done
echo "boost-trace: $pass passed, $fail failed" | tee $out/summary.txt
