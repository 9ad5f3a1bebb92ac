#!/usr/bin/env bash
# ping-bucket.sh PARENT_SRC PATCHED_SRC [RUNS]: how long unlocks and exits
# of a PING lock hold its wait lock (a raw spinlock, interrupts off) when
# unrelated FUTEX_WAIT sleepers share the lock's hash bucket
# (bench/ping-bucket.c). Builds lock statistics kernels
# (configs/lockstat.config) of the two kernel trees, boots each RUNS times
# (default 3), alternating, in a 2-vCPU guest that runs
# tests/guest-ping-bucket.sh, and prints the median over the boots of the
# wait lock class's holdtime-max and holdtime-total (us) per mode and
# number of sleepers. Raw files: $RESULTS/ping-bucket/raw/, the table:
# $RESULTS/ping-bucket/table.txt, guest consoles: $WORK/ping-bucket-logs/.
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

[ $# -ge 2 ] || usage_error "usage: ping-bucket.sh PARENT_SRC PATCHED_SRC [RUNS]"
declare -A src
src[parent]=$(cd "$1" && pwd) || die "no tree $1"
src[patched]=$(cd "$2" && pwd) || die "no tree $2"
runs=${3:-3}
case $runs in '' | *[!0-9]* | 0) usage_error "RUNS $runs: a number, at least 1" ;; esac
out=$RESULTS/ping-bucket
logs=$WORK/ping-bucket-logs
rm -rf "$out/raw" "$logs"
mkdir -p "$out/raw" "$logs"

for k in parent patched; do
	step "lock statistics kernel of the $k tree (${src[$k]})" \
		"$TOP/scripts/build/build-kernel.sh" lockstat "${src[$k]}" "$WORK/build-lockstat-bucket-$k"
	step_failed && die "the $k lock statistics kernel did not build"
done
prog=$WORK/ping-bucket
gcc -O2 -Wall -Werror -static -pthread -o "$prog" "$TOP/bench/ping-bucket.c" || die "bench/ping-bucket.c did not build"

boot() {
	local k=$1 r=$2
	"$TOP/scripts/guest/vm.sh" -t 1800 "$WORK/build-lockstat-bucket-$k/arch/x86/boot/bzImage" \
		"$logs/$k.$r.log" -- "$TOP/tests/guest-ping-bucket.sh" "$prog" "$out/raw" "$k.$r"
}
for ((r = 1; r <= runs; r++)); do
	for k in parent patched; do
		step "boot $r/$runs of the $k kernel" boot "$k" "$r"
		step_failed && die "boot $r of the $k kernel failed (console: $logs/$k.$r.log)"
	done
done

# The lock_stat line after the class name: con-bounces contentions
# waittime-min -max -total -avg acq-bounces acquisitions holdtime-min -max
# -total -avg: holdtime-max is field 10, holdtime-total field 11.
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
field() { sed -n "s/^ *&$3: *//p" "$1" | awk -v f="$2" '{ print $f }'; }
{
	printf 'PING wait lock hold time, us, median of %d boots (lock statistics kernels, 2 vCPUs)\n' "$runs"
	printf '%-7s %8s %14s %14s %14s %14s\n' mode sleepers max-parent max-patched total-parent total-patched
	for mode in unlock exit; do
		for n in 0 1000 2000 4000; do
			row=("$mode" "$n")
			for f in 10 11; do
				for k in parent patched; do
					row+=("$(for ((r = 1; r <= runs; r++)); do
						field "$out/raw/$k.$r.$mode.$n.txt" "$f" 'ps->pi_mutex\.wait_lock'
					done | median)")
				done
			done
			printf '%-7s %8s %14s %14s %14s %14s\n' "${row[@]}"
		done
	done
	printf '\nunlock rounds in which the donor, not the top waiter, took the lock first\n'
	printf '(the unlock looked for it among the bucket'"'"'s waiters), per boot:\n'
	for k in parent patched; do
		printf '  %-8s' "$k"
		for n in 0 1000 2000 4000; do
			printf ' %s:' "$n"
			for ((r = 1; r <= runs; r++)); do
				printf ' %s' "$(sed -n 's/.*took the lock first in \([0-9]*\).*/\1/p' \
					"$out/raw/$k.$r.unlock.$n.txt")"
			done
		done
		printf '\n'
	done
	printf '\nTask pi_futex_lock hold time, us, median of %d boots: a task that exits holding\n' "$runs"
	printf 'S PING and S PI locks, a waiter on each (3 exits per boot)\n'
	printf '%-7s %8s %14s %14s %14s %14s\n' mode S max-parent max-patched total-parent total-patched
	for n in 0 500 1000 2000; do
		row=(states "$n")
		for f in 10 11; do
			for k in parent patched; do
				row+=("$(for ((r = 1; r <= runs; r++)); do
					field "$out/raw/$k.$r.states.$n.txt" "$f" '[a-z]*->pi_futex_lock'
				done | median)")
			done
		done
		printf '%-7s %8s %14s %14s %14s %14s\n' "${row[@]}"
	done
} | tee "$out/table.txt"
