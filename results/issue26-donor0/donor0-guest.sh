#!/bin/bash
# donor0-guest.sh PERF OUT ROUNDS: in one boot of make bench's ablation
# kernel (bench/06-futex-ping-spin.knobs.patch), ROUNDS rounds of
# bench/06-futex-ping-spin.knobs.sh with two settings: default (series 06)
# and donor_zero=on (a release that wakes a donor publishes 0 while the top
# waiter's clock is young), their order alternating from round to round.
# Writes OUT/ablation.patched.R.txt for each round.
set -eu
perf=${1:?} out=${2:?} rounds=${3:?}
top=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"
for r in $(seq 1 "$rounds"); do
	KNOB_SETTINGS="default donor_zero=on" "$top/bench/06-futex-ping-spin.knobs.sh" \
		"$perf" "$out" "patched.$r" >/dev/null
	echo "donor0-guest: round $r of $rounds done"
done
