#!/bin/bash
# Kernel at "Wake one PING waiter at a time" (W kept): the selftests of the
# patch before it (all must pass), then the final one_woken tests (must fail:
# the word stays W).
cd /work/x26/v3
./futex_ping_prep 2>&1 | grep -E "^(not )?ok|futex_ping.c:[0-9]+:|Totals"
echo "== final one_woken on W release"
./futex_ping_new -f one_woken 2>&1 | grep -E "^(not )?ok|futex_ping.c:[0-9]+:|Totals"
