#!/bin/bash
# smoke test of guest35.sh's knobs on C: one row each
set -u
tr=/sys/kernel/tracing
mount -t debugfs nodev /sys/kernel/debug 2>/dev/null
k=/sys/kernel/debug/futex_ping
ls $k || exit 1
echo 1 > $k/one_woken && echo 100000 > $k/handoff_ns && cat $k/one_woken $k/handoff_ns || exit 1
/work/x26/tools/perf/perf bench futex lock -s -m -k ping -t 4 -r 1 2>&1 | tail -5
echo 0 > $k/one_woken
/work/x26/tools/perf/perf bench futex lock -s -m -k ping -t 4 -r 1 2>&1 | tail -5
/work/main/work/tools-debug/ping_bench -f n -a -w 50000 -s 1000 -t 16 -n 200 > /dev/null || exit 1
echo SMOKE-OK
