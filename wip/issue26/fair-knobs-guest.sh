#!/bin/bash
# The RFC's fair workload (ping_bench -a -w 50000 -s 1000 -t 16 -n N) on
# the knobs kernel: PING (n) with each knob setting, and PI (p) and
# pthread_mutex_t (m) once per round, order rotated, ROUNDS rounds in one
# boot. On a kernel without the knobs, only the settings n, p and m
# (fair-guest.sh). One row per run, every thread's waits:
#   row ROUND SETTING SAMPLES MEAN MEDIAN P99 MAX   (ns)
# FAIR_SETTINGS: the settings, by default "n p m n-T0 n-Toff n-rz-off".
# Usage: fair-knobs-guest.sh PING_BENCH ROUNDS [N]
set -u
pb=${1:?} rounds=${2:?} n=${3:-2000}
knobs=/sys/kernel/debug/futex_ping
[ -d "$knobs" ] || mount -t debugfs nodev /sys/kernel/debug 2>/dev/null
defaults="handoff_ns=1000000 one_woken=Y release_zero=Y spin=Y wait_spin=Y donor_zero=Y"
declare -A kv=([n]="" [n-T0]="handoff_ns=0" [n-Toff]="handoff_ns=18446744073709551615"
	[n-rz-off]="release_zero=N" [n-T0-rz-off]="handoff_ns=0 release_zero=N" [p]="" [m]="")
read -r -a all <<<"${FAIR_SETTINGS:-n p m n-T0 n-Toff n-rz-off}"
s=$(mktemp)
for r in $(seq 1 "$rounds"); do
	for i in "${!all[@]}"; do
		set=${all[$(((i + r) % ${#all[@]}))]}
		if [ -d "$knobs" ]; then
			for x in $defaults ${kv[$set]}; do echo "${x#*=}" >"$knobs/${x%%=*}"; done
		elif [ -n "${kv[$set]}" ]; then
			echo "setting $set needs $knobs: not the knobs kernel"
			exit 1
		fi
		k=${set%%-*}
		"$pb" -f "$k" -a -w 50000 -s 1000 -t 16 -n "$n" >"$s" 2>/tmp/pb.err ||
			{ echo "ping_bench -f $k failed"; cat /tmp/pb.err; exit 1; }
		sort -n "$s" | awk -v r="$r" -v k="$set" '
		{ v[NR] = $1; sum += $1 }
		END {
			p = int(NR * 0.99); if (p < 1) p = 1
			printf "row %d %s %d %.0f %d %d %d\n", r, k, NR, sum / NR,
			       v[int((NR + 1) / 2)], v[p], v[NR]
		}'
	done
done
