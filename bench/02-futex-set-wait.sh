#!/bin/bash
# Extra "make bench" job of series 02, run in the guest: the lock benchmark
# of the FUTEX_SET_WAIT proposal as "perf bench futex lock", FUTEX_SET_WAIT
# against FUTEX_WAIT, glibc's pthread_mutex_t and FUTEX_LOCK_PI over a
# thread sweep. It compares lock kinds on the patched kernel (the parent
# has no FUTEX_SET_WAIT), so it runs nothing in the parent's boots and one
# sweep in every boot of the patched kernel: RUNS sweeps in RUNS separate
# boots, lock.patched.R.txt, of which bench-lock-table.sh shows the median
# run.
# Every row is a perf process of its own (-s: the summary only, -r
# LOCK_RUNTIME seconds), the kinds in an order rotated from boot to boot:
# in a TCG guest a row's throughput depends on what ran before it in the
# same process (an uncontended set-wait row, the same code as the wait
# row, ran 1.4x faster after the 32-thread wait row).
# Output: the perf summaries, each followed by one row line
#   row KIND THREADS OPS/S STDDEV% WAITS EAGAIN WAKES WOKE-NOBODY CPUS
# (futex calls per operation; "-" where the kind does not count them).
# Usage: 02-futex-set-wait.sh PERF OUT TAG (TAG: parent.R or patched.R)
set -u
perf=${1:?} out=${2:?} tag=${3:?}
case $tag in patched.*) ;; *) exit 0 ;; esac
r=${tag#patched.}
runtime=${LOCK_RUNTIME:-2}
all=(wait set-wait mutex pi)
kinds=()
for i in 0 1 2 3; do kinds+=("${all[$(((i + r) % 4))]}"); done
echo "02-futex-set-wait: lock sweep $r, kinds in the order ${kinds[*]}, $runtime s a row"
row=$(mktemp)
trap 'rm -f "$row"' EXIT
for t in 1 2 3 4 6 8 16 32; do
	for k in "${kinds[@]}"; do
		"$perf" bench futex lock -s -m -k "$k" -t "$t" -r "$runtime" >"$row" 2>&1 || {
			cat "$row"
			exit 1
		}
		cat "$row"
		awk -v k="$k" -v t="$t" -f "$(dirname "$0")/lock-row.awk" "$row" || exit 1
	done
done >"$out/lock.patched.$r.txt" 2>&1
