#!/bin/bash
# private_hash_resize 5 times, then the kernel log's warnings
cd /work/x26/v3
for i in 1 2 3 4 5; do ./futex_ping_rs -t private_hash_resize 2>&1 | grep -E "^(not )?ok|futex_ping.c:[0-9]+:"; done
dmesg | grep -E -A3 "WARNING|BUG|lost" | head -20
echo "== end"
