#!/usr/bin/env bash
# bench-pathlen-table.sh NAME: the path-length table of series NAME from
# results/NAME/raw/pathlen.{parent,patched}.BOOT.RUN.txt (bench/pathlen.c,
# run K times in each boot of the 1-vCPU icount guest): per row the median
# ns per call on the parent and the patched kernel, the spread of each
# ((max - min) / median of all runs of all boots), their ratio and
# ministat's verdict. Writes ministat's comparisons to
# results/NAME/pathlen-ministat.txt and the values to
# results/NAME/pathlen.tsv. BENCH_RAW and BENCH_OUT as for bench-table.sh.
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=scripts/bench/bench-lib.sh
. "$TOP/scripts/bench/bench-lib.sh"

name=${1:?usage: bench-pathlen-table.sh NAME}
raw=${BENCH_RAW:-$RESULTS/$name/raw}
out=${BENCH_OUT:-$RESULTS/$name}
[ -f "$raw/pathlen.rows" ] || exit 0

tmp=$(mktemp -d "$WORK/bench-pathlen.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
tsv=$out/pathlen.tsv
ms=$out/pathlen-ministat.txt
: >"$tsv"
: >"$ms"
boots=$(find "$raw" -name 'pathlen.patched.*.txt' | sed 's/.*\.\([0-9]*\)\.[0-9]*\.txt$/\1/' | sort -u | wc -l)
runs=$(find "$raw" -name 'pathlen.patched.*.txt' | wc -l)

printf '\npath length: ns per call in a 1-vCPU TCG guest with -icount shift=0,sleep=off\n'
printf '(guest time: 1 ns per instruction); %s runs in %s boots of each kernel\n' "$runs" "$boots"
setwait=0
unparsed=()
printf '%-21s %9s %8s %9s %8s %6s  %s\n' "row" "parent" "spread" "patched" "spread" "ratio" "ministat 95%"
while IFS= read -r row; do
	[ -n "$row" ] || continue
	med=() spr=()
	for t in parent patched; do
		: >"$tmp/$t"
		for f in "$raw/pathlen.$t".*.txt; do
			[ -f "$f" ] || continue
			v=$(awk -v r="$row" '$1 == r { print $2; exit }' "$f")
			case $v in
			unsupported) continue ;;
			'')
				# bench/pathlen.c prints the derived row only
				# where the kernel has both of its ops.
				if [ "$row" = set-wait-extra ] &&
					grep -q -x 'set-wait-expired unsupported' "$f"; then
					continue
				fi ;;
			esac
			if ! [[ $v =~ ^-?[0-9]+(\.[0-9]+)?$ ]]; then
				unparsed+=("${f#"$raw"/} ($row: ${v:-missing})")
				continue
			fi
			printf '%s\n' "$v" >>"$tmp/$t"
			b=${f%.txt}
			printf '%s\t%s\t%s\t%s\t%s\n' "$row" "$t" "$(echo "$b" | awk -F. '{print $(NF-1)}')" "${b##*.}" "$v" >>"$tsv"
		done
		med+=("$(median <"$tmp/$t")")
		spr+=("$(spread <"$tmp/$t")")
	done
	[ "${med[0]}${med[1]}" != -- ] || continue
	case $row in set-wait*) setwait=1 ;; esac
	ratio=$(awk -v a="${med[0]}" -v b="${med[1]}" 'BEGIN {
		if (a == "-" || b == "-" || a == 0) print "-"; else printf "%.4f", b / a }')
	if [ "${med[0]}" = - ] || [ "${med[1]}" = - ]; then
		v="-"
	else
		printf '== pathlen %s (ns per call)\n' "$row" >>"$ms"
		v=$(cd "$tmp" && verdict parent patched 2 "$ms")
	fi
	fmt() { if [ "$1" = - ]; then echo -; else printf '%.1f' "$1"; fi; }
	printf '%-21s %9s %8s %9s %8s %6s  %s\n' "$row" "$(fmt "${med[0]}")" "${spr[0]}" \
		"$(fmt "${med[1]}")" "${spr[1]}" "$ratio" "$v"
done <"$raw/pathlen.rows"
printf '\nns per call: lower is better; "-": the kernel has no such op. spread: (max -\n'
printf 'min) / median over all runs of one kernel.\n'
if [ "$setwait" = 1 ]; then
	printf 'set-wait-extra: set-wait-expired minus wait-expired in the same run:\n'
	printf "FUTEX_SET_WAIT's way to the same wait, the word holding val2 already.\n"
fi
# A run file without a value its row should have is a run that went
# wrong (pathlen failed, its output changed): no median hides it.
if [ "${#unparsed[@]}" -gt 0 ]; then
	printf 'ERROR: %s values in %s did not parse:\n' "${#unparsed[@]}" "$raw" >&2
	printf '  %s\n' "${unparsed[@]}" >&2
	exit 1
fi
