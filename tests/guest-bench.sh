#!/bin/bash
# guest-bench.sh PERF ROWS OUT TAG [ROTATE]: runs inside the guest. Runs
# every row of the ROWS file ("name | perf bench futex arguments |
# metrics") once, the output of row N (numbered in file order) going to
# OUT/N.TAG.txt. The rows run in file order rotated by ROTATE (0: from the
# first row; 1: from the second, the first last; ...), so that over the
# boots of a run every row takes every place in the sequence.
set -u
perf=${1:?} rows=${2:?} out=${3:?} tag=${4:?} rotate=${5:-0}
mkdir -p "$out"
names=() argv=()
while IFS='|' read -r name args _; do
	case $name in '#'* | '') continue ;; esac
	names+=("$name")
	argv+=("$args")
done <"$rows"
total=${#names[@]}
order=()
for ((i = 0; i < total; i++)); do
	order+=($(((i + rotate) % total + 1)))
done
echo "guest-bench: row order ${order[*]}"
rc=0
for n in "${order[@]}"; do
	# shellcheck disable=SC2086 # the arguments are words
	if ! "$perf" bench futex ${argv[$((n - 1))]} >"$out/$n.$tag.txt" 2>&1; then
		printf 'bench row %d (%s) failed:\n' "$n" "${names[$((n - 1))]}"
		tail -n 5 "$out/$n.$tag.txt"
		rc=1
	fi
done
echo "guest-bench: $total rows"
exit $rc
