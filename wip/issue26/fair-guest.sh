#!/bin/bash
# The RFC's fair workload (ping_bench -a -w 50000 -s 1000 -t 16 -n N) for
# PING (n), PI (p) and pthread_mutex_t (m), kinds rotated from round to
# round, ROUNDS rounds in one boot. One row per run, every thread's waits:
#   row ROUND KIND SAMPLES MEAN MEDIAN P99 MAX   (ns)
# Usage: fair-guest.sh PING_BENCH ROUNDS [N]
set -u
pb=${1:?} rounds=${2:?} n=${3:-2000}
s=$(mktemp)
all=(n p m)
for r in $(seq 1 "$rounds"); do
	for i in 0 1 2; do
		k=${all[$(((i + r) % 3))]}
		"$pb" -f "$k" -a -w 50000 -s 1000 -t 16 -n "$n" >"$s" 2>/tmp/pb.err ||
			{ echo "ping_bench -f $k failed"; cat /tmp/pb.err; exit 1; }
		sort -n "$s" | awk -v r="$r" -v k="$k" '
		{ v[NR] = $1; sum += $1 }
		END {
			p = int(NR * 0.99); if (p < 1) p = 1
			printf "row %d %s %d %.0f %d %d %d\n", r, k, NR, sum / NR,
			       v[int((NR + 1) / 2)], v[p], v[NR]
		}'
	done
done
