#!/usr/bin/env bash
# bench-table.sh NAME: the table of results/NAME/raw (written by make bench
# from bench/NAME.rows): per row and metric the median over the runs of the
# parent and the patched kernel and their ratio, or for "base" the median on
# the base kernel. Also writes the values to results/NAME/values.tsv and a
# ministat comparison per row to results/NAME/ministat.txt.
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

name=${1:?usage: bench-table.sh NAME}
rows=$TOP/bench/$name.rows
raw=$RESULTS/$name/raw
[ -f "$rows" ] || exit 0
[ -d "$raw" ] || die "no results in $raw; run make bench"

# metric FILE M: the value of metric M in one perf bench output.
metric() {
	case $2 in
	ops) sed -n 's/^Averaged \([0-9]*\) operations\/sec.*/\1/p' "$1" ;;
	ms) sed -n 's/.* in \([0-9.]*\) ms.*/\1/p' "$1" | tail -n 1 ;;
	us) sed -n 's/^Mean time per wait: \([0-9.]*\) usecs.*/\1/p' "$1" ;;
	sys%) sed -n 's/.*(\([0-9.]*\)% in the kernel).*/\1/p' "$1" ;;
	*) die "unknown metric $2 in $rows" ;;
	esac
}

median() {
	sort -g | awk '{ v[NR] = $1 } END {
		if (NR == 0) { print "-"; exit }
		if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

unit() {
	case $1 in
	ops) echo "ops/s" ;;
	ms) echo "ms" ;;
	us) echo "us/wait" ;;
	sys%) echo "sys %" ;;
	esac
}

if [ "$name" = base ]; then tags=(base); else tags=(parent patched); fi
tsv=$RESULTS/$name/values.tsv
ms=$RESULTS/$name/ministat.txt
: >"$tsv"
: >"$ms"
n=0
# Narrow enough for a changelog: 72 columns.
if [ "$name" = base ]; then
	printf '%-30s %-8s %11s\n' "row" "unit" "median"
else
	printf '%-30s %-8s %11s %11s %7s\n' "row" "unit" "parent" "patched" "ratio"
fi
while IFS='|' read -r label _ metrics; do
	case $label in '#'* | '') continue ;; esac
	n=$((n + 1))
	label=$(printf '%s' "$label" | sed 's/[[:space:]]*$//')
	for m in $(printf '%s' "$metrics" | tr ',' ' '); do
		med=()
		for t in "${tags[@]}"; do
			: >"$WORK/vals.$t"
			for f in "$raw/$n.$t".*.txt; do
				[ -f "$f" ] || continue
				v=$(metric "$f" "$m")
				[ -n "$v" ] || continue
				printf '%s\n' "$v" >>"$WORK/vals.$t"
				r=${f%.txt}
				printf '%s\t%s\t%s\t%s\t%s\n' "$label" "$m" "$t" "${r##*.}" "$v" >>"$tsv"
			done
			med+=("$(median <"$WORK/vals.$t")")
		done
		l=$label
		[ "$m" = "$(printf '%s' "$metrics" | cut -d, -f1 | tr -d ' ')" ] || l=""
		if [ "$name" = base ]; then
			printf '%-30s %-8s %11s\n' "$l" "$(unit "$m")" "${med[0]}"
		else
			ratio=$(awk -v a="${med[0]}" -v b="${med[1]}" 'BEGIN {
				if (a == "-" || b == "-" || a == 0) print "-"; else printf "%.3f", b / a }')
			printf '%-30s %-8s %11s %11s %7s\n' "$l" "$(unit "$m")" "${med[0]}" "${med[1]}" "$ratio"
			if command -v ministat >/dev/null && [ -s "$WORK/vals.parent" ] &&
				[ -s "$WORK/vals.patched" ]; then
				printf '== %s (%s)\n' "$label" "$m" >>"$ms"
				(cd "$WORK" && ministat -A vals.parent vals.patched) >>"$ms" 2>&1 || true
			fi
		fi
	done
done <"$rows"
printf '\nops/s: operations per second per thread (higher is better); ms, us/wait:\n'
printf 'lower is better; sys %%: share of the CPU time spent in the kernel.\n'
