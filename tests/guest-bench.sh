#!/bin/bash
# guest-bench.sh PERF ROWS OUT TAG: runs inside the guest. Runs every row
# of the ROWS file ("name | perf bench futex arguments | metrics") once,
# the output of row N going to OUT/N.TAG.txt.
set -u
perf=${1:?} rows=${2:?} out=${3:?} tag=${4:?}
mkdir -p "$out"
n=0 rc=0
while IFS='|' read -r name args _; do
	case $name in '#'* | '') continue ;; esac
	n=$((n + 1))
	# shellcheck disable=SC2086 # the arguments are words
	if ! "$perf" bench futex $args >"$out/$n.$tag.txt" 2>&1; then
		printf 'bench row %d (%s) failed:\n' "$n" "$name"
		tail -n 5 "$out/$n.$tag.txt"
		rc=1
	fi
done <"$rows"
echo "guest-bench: $n rows"
exit $rc
