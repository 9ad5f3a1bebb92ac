#!/usr/bin/env bash
# bench-lock-table.sh NAME: the table of the "perf bench futex lock" sweeps
# in results/NAME/raw/lock.patched.*.txt, one sweep per file, each file a
# separate run: per lock kind and thread count the row of the median run,
# the run whose Kiter/s is the median of the N runs (of an even N, the
# lower of the middle two), with every column from that same run; the
# set-wait/wait throughput ratio of those medians; and a gnuplot plot of
# the throughput, results/NAME/lock.png. A kind and thread count that some
# run lacks or holds twice is named, not averaged over. BENCH_RAW and
# BENCH_OUT as for bench-table.sh.
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

name=${1:?usage: bench-lock-table.sh NAME}
raw=${BENCH_RAW:-$RESULTS/$name/raw}
out=${BENCH_OUT:-$RESULTS/$name}
files=("$raw"/lock.patched.*.txt)
[ -f "${files[0]}" ] || exit 0
mkdir -p "$out"

# Rows: kind threads Kiter/s user system wall cores futex/iter steals
# handoffs, one line per row of every run; the file is the run.
awk -v runs="${#files[@]}" -v dat="$out/lock-median.dat" '
!/^#/ && NF == 10 {
	key = $1 SUBSEP $2
	if (!(key in seen)) { seen[key] = 1; order[++nk] = key }
	if ((key, FILENAME) in dup) { twice[key] = twice[key] " " FILENAME; next }
	dup[key, FILENAME] = 1
	n[key]++
	kiter[key, n[key]] = $3
	row[key, n[key]] = $0
}
END {
	printf "%-9s %7s %10s %8s %9s %8s %6s %10s %9s %9s\n", "kind", "threads",
	       "Kiter/s", "user(s)", "system(s)", "wall(s)", "cores", "futex/iter",
	       "steals", "handoffs"
	for (i = 1; i <= nk; i++) {
		key = order[i]
		m = n[key]
		# Sort the runs of this row by Kiter/s (insertion sort, m is small).
		for (a = 1; a <= m; a++) idx[a] = a
		for (a = 2; a <= m; a++)
			for (b = a; b > 1 && kiter[key, idx[b]] + 0 < kiter[key, idx[b - 1]] + 0; b--) {
				t = idx[b]; idx[b] = idx[b - 1]; idx[b - 1] = t
			}
		split(row[key, idx[int((m + 1) / 2)]], f, " ")
		printf "%-9s %7s %10s %8s %9s %8s %6s %10s %9s %9s", f[1], f[2], f[3], f[4],
		       f[5], f[6], f[7], f[8], f[9], f[10]
		if (m != runs) printf "  (%d of %d runs)", m, runs
		printf "\n"
		med[key] = f[3]
		print f[1], f[2], f[3] > dat
	}
	printf "\nEvery line is one run, the run with the median Kiter/s of %d runs\n", runs
	printf "(of an even number, the lower of the middle two).\n"
	printf "\nset-wait/wait throughput ratio (median runs):\n"
	for (i = 1; i <= nk; i++) {
		split(order[i], kt, SUBSEP)
		if (kt[1] != "wait" || !(("set-wait", kt[2]) in med)) continue
		printf "  %3s threads: %6.2fx\n", kt[2], med["set-wait", kt[2]] / med[order[i]]
	}
	for (key in twice) {
		split(key, kt, SUBSEP)
		printf "warning: %s %s threads found twice in:%s; the second ignored\n",
		       kt[1], kt[2], twice[key] > "/dev/stderr"
	}
}' "${files[@]}"

if command -v gnuplot >/dev/null; then
	kinds=$(awk '{print $1}' "$out/lock-median.dat" | awk '!s[$0]++')
	plot=""
	for k in $kinds; do
		plot="$plot${plot:+, }'$out/lock-median.dat' using 2:(stringcolumn(1) eq '$k' ? \$3 : 1/0) with linespoints title '$k'"
	done
	gnuplot <<-EOF 2>"$WORK/gnuplot.log" || warn "gnuplot failed (log: $WORK/gnuplot.log)"
		set terminal pngcairo size 800,500
		set output '$out/lock.png'
		set title 'perf bench futex lock, median of ${#files[@]} runs'
		set xlabel 'threads'
		set ylabel 'Kiter/s'
		set logscale x 2
		set key top right
		set grid
		plot $plot
	EOF
	# Where the plot ends up once make bench has moved its staged run in.
	printf '\nplot: %s\n' "${RESULTS#"$TOP"/}/$name/lock.png"
fi
