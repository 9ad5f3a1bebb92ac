#!/bin/bash
# idle-guest.sh PERF OUT TAG [KIND]: trace the scheduler (sched_switch,
# sched_wakeup, sched_migrate_task) during "perf bench futex lock -k KIND
# -t 8 -r 1" (KIND: ping unless given), twice, into
# OUT/idle.TAG.N.trace, for idle-cpus.awk.
set -eu
perf=${1:?} out=${2:?} tag=${3:?} kind=${4:-ping}
t=/sys/kernel/tracing
[ -d "$t/events" ] || mount -t tracefs nodev "$t"
mkdir -p "$out"
echo 16384 >"$t/buffer_size_kb"
for e in sched_switch sched_wakeup sched_migrate_task; do
	echo 1 >"$t/events/sched/$e/enable"
done
for n in 1 2; do
	echo 0 >"$t/tracing_on"
	echo >"$t/trace"
	echo 1 >"$t/tracing_on"
	"$perf" bench futex lock -s -k "$kind" -t 8 -r 1 >"$out/idle.$tag.$n.perf"
	echo 0 >"$t/tracing_on"
	cat "$t/trace" >"$out/idle.$tag.$n.trace"
done
