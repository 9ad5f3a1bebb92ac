#!/usr/bin/env bash
# bench-lock-table.sh NAME: the table of the "perf bench futex lock" sweeps
# in results/NAME/raw/lock.patched.*.txt: per lock kind and thread count
# the median over the runs of every column, the set-wait/wait throughput
# ratio, and a gnuplot plot of the throughput, results/NAME/lock.png.
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

name=${1:?usage: bench-lock-table.sh NAME}
raw=$RESULTS/$name/raw
out=$RESULTS/$name
files=("$raw"/lock.patched.*.txt)
[ -f "${files[0]}" ] || exit 0

# kind threads Kiter/s user system wall cores futex/iter steals handoffs,
# one line per row of every run.
grep -h -v '^#' "${files[@]}" | awk 'NF == 10' >"$WORK/lock.rows"

awk -v runs="${#files[@]}" '
function median(key, col,    n, i, j, t, v) {
	n = split(vals[key, col], v, " ")
	for (i = 1; i <= n; i++)
		for (j = i + 1; j <= n; j++)
			if (v[j] + 0 < v[i] + 0) { t = v[i]; v[i] = v[j]; v[j] = t }
	if (v[1] == "-") return "-"
	return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
{
	key = $1 SUBSEP $2
	if (!(key in seen)) { seen[key] = 1; order[++nk] = key }
	for (c = 3; c <= 10; c++) vals[key, c] = vals[key, c] " " $c
}
END {
	printf "%-9s %7s %10s %8s %9s %8s %6s %10s %9s %9s\n", "kind", "threads",
	       "Kiter/s", "user(s)", "system(s)", "wall(s)", "cores", "futex/iter",
	       "steals", "handoffs"
	for (i = 1; i <= nk; i++) {
		split(order[i], kt, SUBSEP)
		printf "%-9s %7s", kt[1], kt[2]
		for (c = 3; c <= 10; c++) printf " %*s", (c == 3 ? 10 : c == 4 ? 8 : c == 5 ? 9 : c == 6 ? 8 : c == 7 ? 6 : c == 8 ? 10 : 9), median(order[i], c)
		printf "\n"
		kiter[kt[1], kt[2]] = median(order[i], 3)
		threads[kt[2]] = 1
	}
	printf "\nset-wait/wait throughput ratio (medians of %d runs):\n", runs
	for (i = 1; i <= nk; i++) {
		split(order[i], kt, SUBSEP)
		if (kt[1] != "wait" || !(("set-wait", kt[2]) in kiter)) continue
		printf "  %3s threads: %6.2fx\n", kt[2], kiter["set-wait", kt[2]] / kiter["wait", kt[2]]
	}
	for (i = 1; i <= nk; i++) {
		split(order[i], kt, SUBSEP)
		print kt[1], kt[2], kiter[kt[1], kt[2]] > "'"$out/lock-median.dat"'"
	}
}' "$WORK/lock.rows"

if command -v gnuplot >/dev/null; then
	kinds=$(awk '{print $1}' "$out/lock-median.dat" | awk '!s[$0]++')
	plot=""
	for k in $kinds; do
		plot="$plot${plot:+, }'$out/lock-median.dat' using 2:(stringcolumn(1) eq '$k' ? \$3 : 1/0) with linespoints title '$k'"
	done
	gnuplot <<-EOF 2>"$WORK/gnuplot.log" || warn "gnuplot failed (log: $WORK/gnuplot.log)"
		set terminal pngcairo size 800,500
		set output '$out/lock.png'
		set title 'perf bench futex lock, medians of ${#files[@]} runs'
		set xlabel 'threads'
		set ylabel 'Kiter/s'
		set logscale x 2
		set key top right
		set grid
		plot $plot
	EOF
	printf '\nplot: %s\n' "${out#"$TOP"/}/lock.png"
fi
