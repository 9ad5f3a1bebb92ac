#!/bin/bash
# futex_ping with the reworked one_woken test on C + 0004; then one_woken with the levers off (must fail)
mount -t debugfs nodev /sys/kernel/debug 2>/dev/null
cd /work/x26/st
./futex_ping 2>&1 | grep -E "^(not )?ok|futex_ping.c:[0-9]+:|Totals"
echo "== one_woken=0"
echo 0 > /sys/kernel/debug/futex_ping/one_woken
./futex_ping -f one_woken 2>&1 | grep -E "^(not )?ok|futex_ping.c:[0-9]+:|Totals"
