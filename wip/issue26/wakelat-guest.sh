#!/bin/bash
# How long a woken ping_bench thread waits for a CPU, in the RFC's fair
# workload (ping_bench -a -w 50000 -s 1000 -t 16 -n N): the time from
# sched_waking to the sched_switch that runs it, as a log2 histogram in
# us (a synthetic event and histogram triggers), for PING (n), PI (p) and
# pthread_mutex_t (m), with the number of runnable tasks sampled every
# 10 ms from /proc/loadavg's running count. ping_bench's lock threads only
# sleep in the lock, so every wakeup is one of the lock's.
# Usage: wakelat-guest.sh PING_BENCH [N]
# shellcheck disable=SC2016 # $ts0 and $lat are the trigger's variables
set -u
pb=${1:?} n=${2:-2000}
t=/sys/kernel/tracing
[ -d $t/events ] || mount -t tracefs nodev $t
echo 'wakeup_lat u64 lat; pid_t pid' >>$t/synthetic_events
for k in n p m; do
	echo 'hist:keys=pid:ts0=common_timestamp.usecs if comm=="ping_bench"' >$t/events/sched/sched_waking/trigger
	echo 'hist:keys=next_pid:lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_waking).trace(wakeup_lat,$lat,next_pid)' \
		>$t/events/sched/sched_switch/trigger
	echo 'hist:keys=lat.log2:sort=lat' >$t/events/synthetic/wakeup_lat/trigger
	( while :; do awk '{split($4, a, "/"); print a[1]}' /proc/loadavg; sleep 0.01; done ) >/tmp/rq &
	sampler=$!
	"$pb" -f "$k" -a -w 50000 -s 1000 -t 16 -n "$n" >/tmp/s 2>/tmp/err
	kill $sampler
	echo "== kind $k: $(tail -n 2 /tmp/err | head -n 1)"
	sort -n /tmp/rq | awk '{v[NR] = $1} END {print "runnable tasks (incl. the sampler): median", v[int(NR / 2)], "p90", v[int(NR * .9)]}'
	grep -E '^\{|Hits|Entries' $t/events/synthetic/wakeup_lat/hist
	echo '!hist:keys=lat.log2:sort=lat' >$t/events/synthetic/wakeup_lat/trigger
	echo '!hist:keys=next_pid:lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_waking).trace(wakeup_lat,$lat,next_pid)' \
		>$t/events/sched/sched_switch/trigger
	echo '!hist:keys=pid:ts0=common_timestamp.usecs if comm=="ping_bench"' >$t/events/sched/sched_waking/trigger
done
