#!/bin/bash
# guest-pathlen.sh PATHLEN K ROUND DIR:TAG...: runs inside the 1-vCPU
# icount guest of "make bench". Runs PATHLEN (bench/pathlen.c) K times; run
# I of round ROUND runs the rows in table order rotated by
# ((ROUND-1)*K + I-1), so that every row takes every place in the sequence
# over the runs. The output of run I goes to DIR/pathlen.TAG.ROUND.I.txt
# for every DIR:TAG given (one boot can be the patched kernel of a series
# and the parent of the next); DIR/pathlen.rows gets the rows in table
# order, for the tables.
set -u
pathlen=${1:?} k=${2:?} round=${3:?}
shift 3
[ $# -gt 0 ] || { echo "guest-pathlen: no DIR:TAG" >&2; exit 2; }
mapfile -t rows < <("$pathlen" -l | awk '{print $1}')
total=${#rows[@]}
[ "$total" -gt 0 ] || { echo "guest-pathlen: $pathlen -l lists no rows" >&2; exit 1; }
for d; do
	mkdir -p "${d%:*}"
	printf '%s\n' "${rows[@]}" set-wait-extra >"${d%:*}/pathlen.rows"
done
tmp=${1%:*}/pathlen.tmp.$$
trap 'rm -f "$tmp"' EXIT
for ((i = 1; i <= k; i++)); do
	rot=$((((round - 1) * k + i - 1) % total))
	order=("${rows[@]:rot}" "${rows[@]:0:rot}")
	echo "guest-pathlen: run $i/$k, rows: ${order[*]}"
	if ! "$pathlen" "${order[@]}" >"$tmp" 2>&1; then
		cat "$tmp"
		echo "guest-pathlen: run $i failed"
		exit 1
	fi
	cat "$tmp"
	for d; do
		cp "$tmp" "${d%:*}/pathlen.${d##*:}.$round.$i.txt"
	done
done
