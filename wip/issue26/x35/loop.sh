#!/bin/bash
# one_woken, attach_cycle and starvation 30 times in a row on C + 0004
mount -t debugfs nodev /sys/kernel/debug 2>/dev/null
cd /work/x26/st
p=0 f=0
for i in $(seq 30); do
	for t in one_woken attach_cycle starvation; do
		if ./futex_ping -f $t > /tmp/o.txt 2>&1; then p=$((p + 1)); else f=$((f + 1)); grep -E "^not ok|futex_ping.c:[0-9]+:" /tmp/o.txt; fi
	done
done
echo "LOOP passed $p failed $f"
