#!/bin/bash
# futex_ping on the v3 tip, one boot: the whole binary, then one_woken 10 times
cd /work/x26/v3
./futex_ping 2>&1 | grep -E "^(not )?ok|futex_ping.c:[0-9]+:|Totals"
for i in $(seq 10); do ./futex_ping -f one_woken 2>&1 | grep -E "^not ok|futex_ping.c:[0-9]+:|Totals"; done
