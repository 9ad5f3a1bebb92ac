#!/usr/bin/env bash
# bench-table.sh NAME: the table of results/NAME/raw (written by make bench
# from bench/NAME.rows): per row and metric the median over the runs of the
# parent and the patched kernel, their ratio and ministat's verdict at 95%
# confidence, or for "base" the median on the base kernel. Also writes the
# values to results/NAME/values.tsv and ministat's comparison per row to
# results/NAME/ministat.txt. BENCH_RAW and BENCH_OUT override the raw
# directory read and the directory written (make bench stages a run there).
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=scripts/bench/bench-lib.sh
. "$TOP/scripts/bench/bench-lib.sh"

name=${1:?usage: bench-table.sh NAME}
rows=$TOP/bench/$name.rows
raw=${BENCH_RAW:-$RESULTS/$name/raw}
out=${BENCH_OUT:-$RESULTS/$name}
[ -f "$rows" ] || exit 0
[ -d "$raw" ] || die "no results in $raw; run make bench"

# metric FILE M: the value of metric M in one perf bench output. hbwait%
# and hbcont% come from the runs on the lock statistics kernels
# (N.lockstat-TAG.R.txt, tests/guest-lockstat.sh): the time spent waiting
# for hb->lock (lock_stat's waittime-total, us) in % of the CPU time of
# the run, and the contended share of its acquisitions.
metric() {
	case $2 in
	hbwait%) awk '/^CPU time: / { cpu = ($3 + $5) * 1e6 }
		/^ *&fhb->lock: / { w = $6 } END { if (cpu > 0 && w != "") printf "%.2f\n", w / cpu * 100 }' "$1" ;;
	hbcont%) awk '/^ *&fhb->lock: / { if ($9 > 0) printf "%.2f\n", $3 / $9 * 100 }' "$1" ;;
	ops) sed -n 's/^Averaged \([0-9]*\) operations\/sec.*/\1/p' "$1" ;;
	ms) sed -n 's/.* in \([0-9.]*\) ms.*/\1/p' "$1" | tail -n 1 ;;
	us) sed -n 's/^Mean time per wait: \([0-9.]*\) usecs.*/\1/p' "$1" ;;
	sys%) sed -n 's/.*(\([0-9.]*\)% in the kernel).*/\1/p' "$1" ;;
	*) die "unknown metric $2 in $rows" ;;
	esac
}

unit() {
	case $1 in
	ops) echo "ops/s" ;;
	ms) echo "ms" ;;
	us) echo "us/wait" ;;
	sys%) echo "sys %" ;;
	hbwait%) echo "hb wait %" ;;
	hbcont%) echo "hb cont %" ;;
	esac
}

# rawtag M TAG: the name of the raw files of metric M for kernel TAG.
rawtag() {
	case $1 in hb*) echo "lockstat-$2" ;; *) echo "$2" ;; esac
}

tmp=$(mktemp -d "$WORK/bench-table.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
if [ "$name" = base ]; then tags=(base); else tags=(parent patched); fi
mkdir -p "$out"
tsv=$out/values.tsv
ms=$out/ministat.txt
: >"$tsv"
: >"$ms"
n=0
unparsed=()
if [ "$name" = base ]; then
	printf '%-30s %-8s %11s\n' "row" "unit" "median"
else
	printf '%-30s %-8s %11s %11s %7s  %s\n' "row" "unit" "parent" "patched" "ratio" "ministat 95%"
fi
while IFS='|' read -r label _ metrics; do
	case $label in '#'* | '') continue ;; esac
	n=$((n + 1))
	label=$(printf '%s' "$label" | sed 's/[[:space:]]*$//')
	for m in $(printf '%s' "$metrics" | tr ',' ' '); do
		med=()
		for t in "${tags[@]}"; do
			: >"$tmp/$t"
			for f in "$raw/$n.$(rawtag "$m" "$t")".*.txt; do
				[ -f "$f" ] || continue
				v=$(metric "$f" "$m")
				if [ -z "$v" ]; then
					unparsed+=("${f#"$raw"/} ($m)")
					continue
				fi
				printf '%s\n' "$v" >>"$tmp/$t"
				r=${f%.txt}
				printf '%s\t%s\t%s\t%s\t%s\n' "$label" "$m" "$t" "${r##*.}" "$v" >>"$tsv"
			done
			med+=("$(median <"$tmp/$t")")
		done
		l=$label
		[ "$m" = "$(printf '%s' "$metrics" | cut -d, -f1 | tr -d ' ')" ] || l=""
		if [ "$name" = base ]; then
			printf '%-30s %-8s %11s\n' "$l" "$(unit "$m")" "${med[0]}"
		else
			ratio=$(awk -v a="${med[0]}" -v b="${med[1]}" 'BEGIN {
				if (a == "-" || b == "-" || a == 0) print "-"; else printf "%.3f", b / a }')
			printf '== %s (%s)\n' "$label" "$m" >>"$ms"
			v=$(cd "$tmp" && verdict parent patched 1 "$ms")
			printf '%-30s %-8s %11s %11s %7s  %s\n' "$l" "$(unit "$m")" "${med[0]}" "${med[1]}" "$ratio" "$v"
		fi
	done
done <"$rows"
printf '\nops/s: operations per second per thread (higher is better); ms, us/wait:\n'
printf 'lower is better; sys %%: share of the CPU time spent in the kernel.\n'
if grep -q 'hbwait%\|hbcont%' "$rows"; then
	printf 'hb wait %%: time spent waiting for a hash bucket lock (hb->lock), in %% of\n'
	printf 'the CPU time of the run; hb cont %%: share of the hb->lock acquisitions\n'
	printf 'that found it taken. Both from /proc/lock_stat, in separate boots of\n'
	printf 'the same kernels built with CONFIG_LOCK_STAT (configs/lockstat.config),\n'
	printf 'which slows every lock operation.\n'
fi
if [ "$name" != base ]; then
	printf 'ministat 95%%: the difference of the patched mean from the parent mean that\n'
	printf 'ministat proves at 95%% confidence (Student'"'"'s t), else "no difference proven".\n'
fi
# A raw file without the value its row measures is a run that went wrong
# (perf failed, its output changed): no median hides it.
if [ "${#unparsed[@]}" -gt 0 ]; then
	printf 'ERROR: %s raw files in %s hold no value for their metric:\n' "${#unparsed[@]}" "$raw" >&2
	printf '  %s\n' "${unparsed[@]}" >&2
	exit 1
fi
