#!/bin/bash
# The ablation job of series 06, run in the guest by "make bench" in one
# boot a round of the patched kernel built again with
# bench/06-futex-ping-spin.knobs.patch: each mechanism of the contended
# PING path off (or its time changed) in turn, all in the same boot, set
# through /sys/kernel/debug/futex_ping/, in an order rotated from boot to
# boot. Per setting:
#
# - the ping rows of the "perf bench futex lock" sweep (2, 4, 8 and 16
#   threads) under perf stat, as bench/06-futex-ping-spin.sh runs them:
#   "ab SETTING row ..." (bench/lock-row.awk's row);
# - ping_bench -f n with the RFC's two workloads, and "starve": thread 0
#   against two other threads taking and releasing the lock in a tight
#   loop (a short critical section, no pause; 20000 acquisitions each, so
#   that they overlap), all SCHED_OTHER, three threads on the guest's two
#   CPUs, where thread 0's longest wait shows the bound of the fair
#   handoff: "ab SETTING pb WORKLOAD SAMPLES MEAN MEDIAN P99 MAX"
#   (ns, of the samples ping_bench prints: every thread's in the fair
#   workload, thread 0's in the others).
#
# Output: OUT/ablation.TAG.txt, read by scripts/bench/bench-ablation-table.sh.
# Usage: 06-futex-ping-spin.knobs.sh PERF OUT TAG (TAG: patched.R).
set -u
perf=${1:?} out=${2:?} tag=${3:?}
pb=$(dirname "$perf")/../ping_bench
r=${tag#*.}
n=${PB_N:-2000}
runtime=${LOCK_RUNTIME:-2}
knobs=/sys/kernel/debug/futex_ping
tracing=/sys/kernel/tracing

[ -d /sys/kernel/debug/tracing ] || mount -t debugfs nodev /sys/kernel/debug 2>/dev/null
[ -d "$knobs" ] || {
	echo "06-futex-ping-spin.knobs: no $knobs: not the kernel of bench/06-futex-ping-spin.knobs.patch"
	exit 1
}
[ -d "$tracing/events" ] || mount -t tracefs nodev "$tracing" || exit 1
[ -x "$pb" ] || {
	echo "06-futex-ping-spin.knobs: no ping_bench at $pb"
	exit 1
}

# SETTING=knob=value,...: "default" is every knob as series 06 has it.
# KNOB_SETTINGS (words) replaces the list, for an experiment.
read -r -a settings <<<"${KNOB_SETTINGS:-default T=0 T=100us T=10ms T=off one_woken=off release_zero=off donor_zero=off spin=off wait_spin=off}"
declare -A knob_values=([default]=""
	[T=0]="handoff_ns=0" [T=100us]="handoff_ns=100000" [T=10ms]="handoff_ns=10000000"
	[T=off]="handoff_ns=18446744073709551615"
	[one_woken=off]="one_woken=N" [release_zero=off]="release_zero=N" [spin=off]="spin=N"
	[wait_spin=off]="wait_spin=N" [donor_zero=off]="donor_zero=N")
for s in "${settings[@]}"; do
	[ -n "${knob_values[$s]+set}" ] || {
		echo "06-futex-ping-spin.knobs: no setting $s"
		exit 1
	}
done
defaults="handoff_ns=1000000 one_woken=Y release_zero=Y spin=Y wait_spin=Y donor_zero=Y"
# set_knobs "knob=value ...": write each, and check that it took.
set_knobs() {
	local kv k v got
	for kv in $1; do
		k=${kv%%=*} v=${kv#*=}
		echo "$v" >"$knobs/$k" || return 1
		got=$(cat "$knobs/$k")
		[ "$got" = "$v" ] || {
			echo "06-futex-ping-spin.knobs: $k reads $got after writing $v"
			return 1
		}
	done
}
set_knobs "$defaults" || exit 1

declare -A args=(
	[fair]="-a -w 50000 -s 1000 -t 16"
	[rt]="-t 8 -b 16 -r 1 -p -w 10000 -S 500"
	[starve]="-t 3 -w 1000 -n 20000"
)
wakeup=$(cat "$tracing/events/sched/sched_wakeup/id") || exit 1
row=$(mktemp)
stat=$(mktemp)
samples=$(mktemp)
trap 'rm -f "$row" "$stat" "$samples"' EXIT

ns=${#settings[@]}
order=("${settings[@]:$((r % ns))}" "${settings[@]:0:$((r % ns))}")
echo "06-futex-ping-spin.knobs: $tag, settings in the order ${order[*]}"
for s in "${order[@]}"; do
	set_knobs "$defaults ${knob_values[$s]}" || exit 1
	for t in 2 4 8 16; do
		"$perf" stat -x, -o "$stat" -e context-switches,cpu-migrations,"tracepoint/config=$wakeup/" \
			-- "$perf" bench futex lock -s -m -k ping -t "$t" -r "$runtime" >"$row" 2>&1 || {
			cat "$row" "$stat"
			exit 1
		}
		printf 'ab %s ' "$s"
		awk -v k=ping -v t="$t" -v stat="$stat" -f "$(dirname "$0")/lock-row.awk" "$row" || exit 1
	done
	for wl in fair rt starve; do
		# shellcheck disable=SC2086 # the arguments are words
		"$pb" -f n -n "$n" ${args[$wl]} >"$samples" 2>"$row" || {
			echo "ping_bench -f n -n $n ${args[$wl]} failed:"
			cat "$row"
			exit 1
		}
		sort -n "$samples" | awk -v s="$s" -v wl="$wl" '
		{ v[NR] = $1; sum += $1 }
		END {
			if (!NR) { print "ping_bench printed no samples" > "/dev/stderr"; exit 1 }
			p = int(NR * 0.99); if (p < 1) p = 1
			printf "ab %s pb %s %d %.0f %d %d %d\n", s, wl, NR, sum / NR,
			       v[int((NR + 1) / 2)], v[p], v[NR]
		}' || exit 1
	done
done >"$out/ablation.$tag.txt" 2>&1 || {
	tail -n 20 "$out/ablation.$tag.txt"
	exit 1
}
set_knobs "$defaults" || exit 1
cat "$out/ablation.$tag.txt"
