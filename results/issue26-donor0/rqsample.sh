#!/bin/bash
# in the guest: while perf bench futex lock -k ping -t 8 runs unpinned, sample each CPU's
# .curr->pid and .nr_running from /sys/kernel/debug/sched/debug
perf=$1 shim=$2 tag=$3 out=$4
D=/sys/kernel/debug
[ -d $D/sched ] || mount -t debugfs none $D
LD_PRELOAD=$shim "$perf" bench futex lock -s -k ping -t 8 -r 3 > $out/rq.$tag.perf &
sleep 0.5
for i in $(seq 1 150); do
	awk '/^cpu#/{c=$1} /\.nr_running/ && c && !n[c]++ {nr[c]=$3} /\.curr->pid/ && c {cur[c]=$3} END{for (k in nr) print k, nr[k], cur[k]}' $D/sched/debug
	sleep 0.0$((RANDOM % 9 + 1))
done > $out/rq.$tag.samples
wait
