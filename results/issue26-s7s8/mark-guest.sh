#!/bin/bash
# mark-guest.sh PERF OUT: perf bench futex lock -k ping -t 8 -r 5 with the
# futex events on (unlock, wait, spin), trace to OUT/trace.txt.
perf=$1 out=$2
mkdir -p "$out"
t=/sys/kernel/tracing
[ -d "$t/events" ] || mount -t tracefs nodev "$t"
echo 0 >"$t/tracing_on"; echo >"$t/trace"; echo 65536 >"$t/buffer_size_kb"
for e in futex_ping_unlock futex_ping_wait futex_ping_spin; do echo 1 >"$t/events/futex/$e/enable"; done
echo 1 >"$t/tracing_on"
"$perf" bench futex lock -k ping -t 8 -r 5 >"$out/perf.log" 2>&1
echo 0 >"$t/tracing_on"
cat "$t/trace" >"$out/trace.txt"
grep -c . "$out/trace.txt"
grep -c "LOST\|lost" "$out/trace.txt"
echo done >"$out/done"
