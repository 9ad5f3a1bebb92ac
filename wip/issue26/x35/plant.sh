#!/bin/bash
# the new tests against planted faults: $1 = knob0 (levers 3+5 off) or nofb (kernel without the fallback)
mount -t debugfs nodev /sys/kernel/debug 2>/dev/null
[ "$1" = knob0 ] && echo 0 > /sys/kernel/debug/futex_ping/one_woken
cat /sys/kernel/debug/futex_ping/one_woken
cd /work/x26/st
for f in one_woken starvation attach_cycle $([ "$1" = nofb ] && echo handoff steal_after_unlock); do ./futex_ping -f $f 2>&1; done | tee out.plant.$1.txt | grep -E "^(not )?ok|futex_ping.c:[0-9]+:|Totals"
