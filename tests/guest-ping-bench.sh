#!/bin/bash
# guest-ping-bench.sh PING_BENCH OUT_DIR: runs inside the guest. A short
# smoke run of tools/testing/futex/ping_bench: every lock kind in both of
# the RFC's workload shapes (scaled down to a few hundred acquisitions),
# and PING uncontended. Each run's summary lines (standard error) and
# "exit N" go to OUT_DIR/ping_bench.log, separated by "== ARGS" lines;
# the host (ping_bench_verdict in scripts/check/verdict.sh) judges them. Its
# numbers are not asserted: make bench measures.
set -u
pb=${1:?usage: guest-ping-bench.sh PING_BENCH OUT_DIR}
out=${2:?}
mkdir -p "$out"
log=$out/ping_bench.log
: >"$log"
run() {
	local rc=0
	printf '== %s\n' "$*" >>"$log"
	timeout "${TEST_TIMEOUT:-300}" "$pb" -q "$@" 2>>"$log" || rc=$?
	printf 'exit %s\n' "$rc" >>"$log"
}
for k in f m n N p; do
	run -f "$k" -a -w 5000 -s 100 -t 8 -n 200
	run -f "$k" -t 4 -b 2 -r 1 -p -w 1000 -S 50 -n 200
done
# Uncontended: no call into the kernel.
for k in n N p; do
	run -f "$k" -t 1 -n 1000
done
cat "$log"
