#!/bin/bash
# in the guest: how many wakeups choose a CPU (select_task_rq_fair) during
# perf bench futex lock -k KIND -t 8, threads unpinned; function profiler
perf=$1 shim=$2 out=$3
T=/sys/kernel/tracing
[ -d $T/events ] || mount -t tracefs nodev $T
fns="try_to_wake_up select_task_rq_fair ttwu_runnable ttwu_do_activate"
: > $T/set_ftrace_filter
for f in $fns; do
	if grep -qx "$f" $T/available_filter_functions; then echo "$f" >> $T/set_ftrace_filter; else echo "not traceable: $f"; fi
done
cat $T/set_ftrace_filter
for kind in ping wait; do
	for n in 1 2; do
		echo 0 > $T/function_profile_enabled
		echo 1 > $T/function_profile_enabled
		LD_PRELOAD=$shim "$perf" bench futex lock -s -k $kind -t 8 -r 1 > $out/prof.$kind.$n.perf
		echo 0 > $T/function_profile_enabled
		for c in 0 1; do sed -n '3,$p' $T/trace_stat/function$c; done | awk -v k=$kind.$n '{h[$1]+=$2} END{for (f in h) print k, f, h[f]}' | sort
	done
done
