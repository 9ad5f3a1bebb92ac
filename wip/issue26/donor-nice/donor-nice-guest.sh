#!/bin/bash
# The release as 0 for a donor (series 06 patch 29) against a donor of
# lower weight: thread 0 (nice 0) against two nice 0 threads and one
# nice 19 thread, all taking one PING lock in a tight loop on the guest's
# two CPUs (ping_bench -f n -t 4 -w 1000 -n 20000, the last thread nice 19
# by nice-last.patch), and the same with every thread nice 0. Each with
# the knobs kernel's donor_zero on (the series) and off (W for every
# donor), alternating, ROUNDS rounds in one boot. One row per run:
#   row ROUND SETTING WORKLOAD SAMPLES MEAN MEDIAN P99 MAX   (ns, thread 0)
# With THREADS (stop 58): ping_bench -t THREADS -n 5000, every thread but
# thread 0 nice 19 (rest19, PB_NICE_REST) or nice 0 (rest0) instead.
# Usage: donor-nice-guest.sh PING_BENCH OUT ROUNDS [THREADS]
set -u
pb=${1:?} out=${2:?} rounds=${3:?} threads=${4:-}
knobs=/sys/kernel/debug/futex_ping
[ -d "$knobs" ] || mount -t debugfs nodev /sys/kernel/debug
[ -w "$knobs/donor_zero" ] || { echo "no $knobs/donor_zero"; exit 1; }
mkdir -p "$out"
samples=$(mktemp)
for r in $(seq 1 "$rounds"); do
	if [ $((r % 2)) = 1 ]; then order="Y N"; else order="N Y"; fi
	for s in $order; do
		echo "$s" >"$knobs/donor_zero"
		[ "$(cat "$knobs/donor_zero")" = "$s" ] || { echo "donor_zero did not take $s"; exit 1; }
		if [ -n "$threads" ]; then wls="rest19 rest0"; else wls="nice19 nice0"; fi
		for wl in $wls; do
			case $wl in *19) n=19 ;; *) n=0 ;; esac
			if [ -n "$threads" ]; then
				PB_NICE_REST=$n "$pb" -f n -t "$threads" -w 1000 -n 5000
			else
				PB_NICE_LAST=$n "$pb" -f n -t 4 -w 1000 -n 20000
			fi >"$samples" 2>>"$out/pb.err" ||
				{ echo "ping_bench failed"; tail "$out/pb.err"; exit 1; }
			sort -n "$samples" | awk -v r="$r" -v s="$s" -v wl="$wl" '
			{ v[NR] = $1; sum += $1 }
			END {
				p = int(NR * 0.99); if (p < 1) p = 1
				printf "row %d donor_zero=%s %s %d %.0f %d %d %d\n", r, s, wl, NR,
				       sum / NR, v[int((NR + 1) / 2)], v[p], v[NR]
			}'
		done
	done
done | tee "$out/rows.txt"
echo Y >"$knobs/donor_zero"
