#!/usr/bin/env bash
# bench-lock-table.sh NAME: the tables of the "perf bench futex lock" sweeps
# in results/NAME/raw/lock.patched.*.txt and, of boots with
# sched_proxy_exec=0, lock-pe0.patched.*.txt; one sweep per file, each file
# a separate run. Per lock kind and thread count the row of the median run,
# the run whose ops/s is the median of the N runs (of an even N, the lower
# of the middle two), with every column from that same run; the ops/s of
# every run; the throughput ratios of set-wait, mutex, pi and ping to wait
# of those medians; and a gnuplot plot of the throughput,
# results/NAME/lock.png (lock-pe0.png). A kind and thread count that some
# run lacks or holds twice is named, not averaged over. BENCH_RAW and
# BENCH_OUT as for bench-table.sh.
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

name=${1:?usage: bench-lock-table.sh NAME}
raw=${BENCH_RAW:-$RESULTS/$name/raw}
out=${BENCH_OUT:-$RESULTS/$name}
# table PREFIX TITLE: the table and plot of the runs in PREFIX.patched.*.txt.
table() {
	local prefix=$1 title=$2 files kinds plot
	files=("$raw"/"$prefix".patched.*.txt)
	[ -f "${files[0]}" ] || return 0
	mkdir -p "$out"
	printf '%s\n\n' "$title"

	# Rows (bench/lock-row.awk): "row" kind threads ops/s stddev% waits
	# eagain wakes woke-nobody cpus [cs migrations wakeups], one line per row
	# of every run; the file is the run.
	awk -v runs="${#files[@]}" -v dat="$out/$prefix-median.dat" '
	$1 == "row" && (NF == 10 || NF == 13) {
		key = $2 SUBSEP $3
		if (!($2 in kseen)) { kseen[$2] = 1; kinds[++nkinds] = $2 }
		if (!($3 in tseen)) { tseen[$3] = 1; thr[++nthr] = $3 }
		seen[key] = 1
		if ((key, FILENAME) in dup) { twice[key] = twice[key] " " FILENAME; next }
		dup[key, FILENAME] = 1
		n[key]++
		ops[key, n[key]] = $4
		row[key, n[key]] = NF == 13 ? $0 : $0 " - - -"
	}
	END {
		# Grouped by kind, wait first, threads in the order of the sweep.
		nk = 0
		split("wait set-wait mutex pi ping", pref, " ")
		for (a = 1; a <= 5; a++) rank[pref[a]] = a
		for (a = 1; a <= 5; a++)
			if (pref[a] in kseen) kind[++nkind] = pref[a]
		for (a = 1; a <= nkinds; a++)
			if (!(kinds[a] in rank)) kind[++nkind] = kinds[a]
		for (a = 1; a <= nkind; a++)
			for (b = 1; b <= nthr; b++)
				if ((kind[a], thr[b]) in seen) order[++nk] = kind[a] SUBSEP thr[b]
		printf "%-9s %7s %10s %7s %9s %8s %9s %8s %6s %7s %7s %7s\n", "kind", "threads",
		       "Kops/s", "+-%", "waits/op", "EAGAIN", "wakes/op", "nobody", "cpus",
		       "cs/op", "migr/op", "wkup/op"
		for (i = 1; i <= nk; i++) {
			key = order[i]
			m = n[key]
			# Sort the runs of this row by ops/s (insertion sort, m is small).
			for (a = 1; a <= m; a++) idx[a] = a
			for (a = 2; a <= m; a++)
				for (b = a; b > 1 && ops[key, idx[b]] + 0 < ops[key, idx[b - 1]] + 0; b--) {
					t = idx[b]; idx[b] = idx[b - 1]; idx[b - 1] = t
				}
			split(row[key, idx[int((m + 1) / 2)]], f, " ")
			printf "%-9s %7s %10.1f %7s %9s %8s %9s %8s %6s %7s %7s %7s", f[2], f[3],
			       f[4] / 1000, f[5], f[6], f[7], f[8], f[9], f[10], f[11], f[12], f[13]
			if (m != runs) printf "  (%d of %d runs)", m, runs
			printf "\n"
			med[key] = f[4]
			print f[2], f[3], f[4] / 1000 > dat
		}
		printf "\nKops/s: lock/unlock operations per second per thread, averaged over the\n"
		printf "threads (perf'"'"'s \"Averaged\"). Every line is one run, the run with the\n"
		printf "median ops/s of %d runs (of an even number, the lower of the middle two).\n", runs
		printf "+-%%: the spread of the threads of that run. waits/op, wakes/op: futex\n"
		printf "calls per lock/unlock; EAGAIN: waits that returned EAGAIN, nobody: wakes\n"
		printf "that woke nobody, per operation (\"-\": not counted, the mutex kind\n"
		printf "waits inside the C library). cpus: CPU time over wall time. cs, migr:\n"
		printf "context switches and migrations of the threads, wkup: the wakeups they\n"
		printf "made (sched:sched_wakeup), per operation of all threads, counted by perf\n"
		printf "stat (\"-\": not counted).\n"
		printf "\nKops/s of every run, in the order of the files:\n"
		for (i = 1; i <= nk; i++) {
			split(order[i], kt, SUBSEP)
			printf "%-9s %7s", kt[1], kt[2]
			for (a = 1; a <= n[order[i]]; a++) printf " %8.1f", ops[order[i], a] / 1000
			printf "\n"
		}
		for (c = 1; c <= 4; c++) {
			k = c == 1 ? "set-wait" : c == 2 ? "mutex" : c == 3 ? "pi" : "ping"
			hdr = 0
			for (i = 1; i <= nk; i++) {
				split(order[i], kt, SUBSEP)
				if (kt[1] != "wait" || !((k, kt[2]) in med)) continue
				if (!hdr++) printf "\n%s/wait throughput ratio (median runs):\n", k
				printf "  %3s threads: %6.2fx\n", kt[2], med[k, kt[2]] / med[order[i]]
			}
		}
		for (key in twice) {
			split(key, kt, SUBSEP)
			printf "warning: %s %s threads found twice in:%s; the second ignored\n",
			       kt[1], kt[2], twice[key] > "/dev/stderr"
		}
	}' "${files[@]}"

	command -v gnuplot >/dev/null || return 0
	kinds=$(awk '{print $1}' "$out/$prefix-median.dat" | awk '!s[$0]++')
	plot=""
	for k in $kinds; do
		plot="$plot${plot:+, }'$out/$prefix-median.dat' using 2:(stringcolumn(1) eq '$k' ? \$3 : 1/0) with linespoints title '$k'"
	done
	gnuplot <<-EOF 2>"$WORK/gnuplot.log" || warn "gnuplot failed (log: $WORK/gnuplot.log)"
		set terminal pngcairo size 800,500
		set output '$out/$prefix.png'
		set title '$title, median of ${#files[@]} runs'
		set xlabel 'threads'
		set ylabel 'Kops/s'
		set logscale x 2
		set key top right
		set grid
		plot $plot
	EOF
	# Where the plot ends up once make bench has moved its staged run in.
	printf '\nplot: %s\n\n' "${RESULTS#"$TOP"/}/$name/$prefix.png"
}

table lock "perf bench futex lock"
table lock-pe0 "perf bench futex lock, sched_proxy_exec=0"
