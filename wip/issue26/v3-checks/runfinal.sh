#!/bin/bash
# the final tip's futex_ping, then private_hash_resize and one_woken 5 times more
cd /work/x26/v3
./futex_ping 2>&1 | grep -E "^(not )?ok|futex_ping.c:[0-9]+:|Totals"
for i in 1 2 3 4 5; do ./futex_ping -t private_hash_resize -f one_woken 2>&1 | grep -E "^not ok|futex_ping.c:[0-9]+:.*Expected|Totals"; done
dmesg | grep -E -A5 "WARNING|BUG|Oops" | head -30
echo "== end"
