#!/bin/bash
# Issue 26 experiment, on the host: ROUNDS boots of A (series 06 tip) and
# C (lever 1, levers 3+5, knobs), interleaved, 2 vCPUs, TCG, bench config.
set -u
rounds=${1:-3}
cd /work/main || exit 1
out=/work/main/work/guest/x35
mkdir -p "$out"
perf=/work/x26/tools/perf/perf
pb=/work/main/work/tools-debug/ping_bench
for ((r = 0; r < rounds; r++)); do
	if ((r % 2)); then order=(C A); else order=(A C); fi
	for k in "${order[@]}"; do
		s=$(date +%s)
		scripts/guest/vm.sh -t 1800 -p 2 /work/x26/bzImage-$k "$out/console.$k.$r" -- \
			/work/x26/guest35.sh "$k" "$r" "$out" "$perf" "$pb" >"$out/vm.$k.$r.txt" 2>&1
		echo "boot $k round $r: rc $? in $(($(date +%s) - s)) s"
	done
done
