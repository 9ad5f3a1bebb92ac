#!/bin/bash
# futex_ping (l26's, with the lever 3+5 tests) on kernel C, knobs at their defaults
mount -t debugfs nodev /sys/kernel/debug 2>/dev/null
cat /sys/kernel/debug/futex_ping/one_woken /sys/kernel/debug/futex_ping/handoff_ns
cd /work/x26/st && ./futex_ping 2>&1 | tee /work/x26/st/out.$1.txt | grep -E "^(not )?ok|^# (FAIL|Totals)|futex_ping.c:[0-9]+:"
echo "rc ${PIPESTATUS[0]}"
