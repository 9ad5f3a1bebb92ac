#!/usr/bin/env bash
# bench-ping-table.sh NAME: the ping_bench tables of results/NAME/raw (as
# bench/06-futex-ping-spin.sh writes them; nothing if there are none):
#
# - per workload, proxy setting (pe1, pe0), kernel (parent, patched) and
#   lock kind: the samples of all boots pooled, their number, median, p99
#   and max (results/NAME/ping.tsv);
# - the goals of the series, on the patched kernel: PING's (n) median,
#   p99 and max against PI's (p), and pthread_mutex_t's (m), as ratios of
#   the pooled values, with ministat's verdict on the per-boot medians
#   beside the medians' ratio;
# - the spin: parent against patched, per PING kind, the ratio of the
#   pooled medians and ministat's verdict on the per-boot medians;
# - ministat's tables of the pooled samples as the RFC showed them (x
#   PING, + PI, * pthread_mutex_t), in results/NAME/ping-ministat.txt;
# - how the locks were taken (trace events), and the handoffs and steals
#   per second of the perf bench futex lock ping rows;
# - a gnuplot plot of the latency distributions, results/NAME/ping-cdf.png.
#
# BENCH_RAW and BENCH_OUT as for bench-table.sh.
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=scripts/bench/bench-lib.sh
. "$(dirname "$0")/bench-lib.sh"

name=${1:?usage: bench-ping-table.sh NAME}
raw=${BENCH_RAW:-$RESULTS/$name/raw}
out=${BENCH_OUT:-$RESULTS/$name}
compgen -G "$raw/pb.*.txt" >/dev/null || exit 0
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

declare -A wl_name=([fair]="fair: -a -w 50000 -s 1000 -t 16"
	[rt]="RT inversion: -t 8 -b 16 -r 1 -p -w 10000 -S 500")
declare -A kind_name=([n]=PING [N]="PING+steal" [p]=PI [m]=mutex)

# pooled V K WL KIND: every sample of that cell, all boots, into a file;
# prints its path. medians V K WL KIND: the median of each boot's samples.
pooled() {
	local f=$tmp/$1.$2.$3.$4
	[ -f "$f" ] || cat "$raw"/pb."$1"."$2".*."$3"."$4".txt 2>/dev/null >"$f"
	echo "$f"
}
medians() {
	local f=$tmp/$1.$2.$3.$4.med b
	if [ ! -f "$f" ]; then
		for b in "$raw"/pb."$1"."$2".*."$3"."$4".txt; do
			[ -f "$b" ] && median <"$b"
		done >"$f"
	fi
	echo "$f"
}
# stats FILE: "N MEDIAN P99 MAX" of the samples in FILE ("0 - - -" if none).
stats() {
	sort -n "$1" | awk '{ v[NR] = $1 } END {
		if (!NR) { print 0, "-", "-", "-"; exit }
		p = int(NR * 0.99); if (p < 1) p = 1
		print NR, v[int((NR + 1) / 2)], v[p], v[NR] }'
}
us() { awk -v v="$1" 'BEGIN { if (v == "-") print "-"; else printf "%.1f", v / 1000 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b == "-" || b == 0) print "-"; else printf "%.2f", a / b }'; }

boots=$(find "$raw" -name 'pb.pe1.patched.*.fair.n.txt' | wc -l)
printf '\nping_bench, the RFC'"'"'s two workloads, -n %s acquisitions per thread (the RFC: 10000)\n' \
	"$(cat "$raw"/pb-summary.* 2>/dev/null | sed -n 's/^# ping_bench -n //p' | sort -u | tr '\n' ' ')"
printf 'samples of %s boots per kernel and proxy setting pooled; us\n' "$boots"
printf '%-13s %-5s %-8s %-10s %8s %9s %9s %10s\n' workload proxy kernel kind samples median p99 max
: >"$out/ping.tsv"
for wl in fair rt; do
	for v in pe1 pe0; do
		for k in parent patched; do
			for kind in n N p m; do
				f=$(pooled "$v" "$k" "$wl" "$kind")
				[ -s "$f" ] || continue
				read -r cnt med p99 max < <(stats "$f")
				printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$wl" "$v" "$k" "$kind" "$cnt" "$med" "$p99" "$max" >>"$out/ping.tsv"
				printf '%-13s %-5s %-8s %-10s %8s %9s %9s %10s\n' "$wl" "$v" "$k" "${kind_name[$kind]}" "$cnt" \
					"$(us "$med")" "$(us "$p99")" "$(us "$max")"
			done
		done
	done
done

# cell V K WL KIND FIELD: a value of ping.tsv (FIELD 5 samples .. 8 max).
cell() {
	awk -F'\t' -v v="$1" -v k="$2" -v w="$3" -v n="$4" -v f="$5" \
		'$1 == w && $2 == v && $3 == k && $4 == n { print $f; found = 1 } END { if (!found) print "-" }' "$out/ping.tsv"
}

printf '\nGoals (patched kernel): ratios of the pooled values; ministat 95%%: on the per-boot medians\n'
printf '%-5s %-44s %7s %7s %7s  %s\n' proxy "comparison (goal)" median p99 max "ministat 95% (median)"
: >"$out/ping-ministat.txt"
for v in pe1 pe0; do
	for c in "fair n p <= 0.5, p99 and max <= 1" "fair N p <= 0.5, p99 and max <= 1" \
		"rt n p <= 1.2" "rt N p <= 1.2" "rt n m far below 1"; do
		read -r wl a b goal <<<"$c"
		[ "$(cell "$v" patched "$wl" "$a" 5)" != - ] || continue
		printf '%-5s %-44s %7s %7s %7s  %s\n' "$v" "$wl ${kind_name[$a]}/${kind_name[$b]} ($goal)" \
			"$(ratio "$(cell "$v" patched "$wl" "$a" 6)" "$(cell "$v" patched "$wl" "$b" 6)")" \
			"$(ratio "$(cell "$v" patched "$wl" "$a" 7)" "$(cell "$v" patched "$wl" "$b" 7)")" \
			"$(ratio "$(cell "$v" patched "$wl" "$a" 8)" "$(cell "$v" patched "$wl" "$b" 8)")" \
			"$(verdict "$(medians "$v" patched "$wl" "$b")" "$(medians "$v" patched "$wl" "$a")" 1)"
	done
done

printf '\nSpinning (series %s): patched against parent, PING kinds\n' "$name"
printf '%-5s %-13s %-10s %9s %9s %7s  %s\n' proxy workload kind parent patched ratio "ministat 95% (per-boot medians)"
for v in pe1 pe0; do
	for wl in fair rt; do
		for kind in n N; do
			a=$(cell "$v" parent "$wl" "$kind" 6)
			b=$(cell "$v" patched "$wl" "$kind" 6)
			if [ "$a" = - ] || [ "$b" = - ]; then continue; fi
			printf '%-5s %-13s %-10s %9s %9s %7s  %s\n' "$v" "$wl" "${kind_name[$kind]}" "$(us "$a")" "$(us "$b")" \
				"$(ratio "$b" "$a")" "$(verdict "$(medians "$v" parent "$wl" "$kind")" \
				"$(medians "$v" patched "$wl" "$kind")" 1)"
		done
	done
done
printf 'median in us of the pooled samples; ratio patched/parent, below 1 is faster.\n'

# The RFC's tables: x PING, + PI, * pthread_mutex_t, all samples pooled.
for v in pe1 pe0; do
	for wl in fair rt; do
		for kind in n N; do
			x=$(pooled "$v" patched "$wl" "$kind") p=$(pooled "$v" patched "$wl" p) m=$(pooled "$v" patched "$wl" m)
			if [ ! -s "$x" ] || [ ! -s "$p" ] || [ ! -s "$m" ]; then continue; fi
			printf '\n%s, sched_proxy_exec=%s, %s (x), PI (+), pthread_mutex_t (*), ns:\n' \
				"${wl_name[$wl]}" "${v#pe}" "${kind_name[$kind]}"
			# Named for ministat's legend.
			d=$tmp/ministat.$v.$wl.$kind
			mkdir -p "$d"
			ln -sf "$x" "$d/${kind_name[$kind]}"
			ln -sf "$p" "$d/PI"
			ln -sf "$m" "$d/pthread_mutex_t"
			(cd "$d" && ministat -A "${kind_name[$kind]}" PI pthread_mutex_t)
		done
	done
done >>"$out/ping-ministat.txt"
printf '\nministat tables (x PING, + PI, * pthread_mutex_t) of every workload: %s\n' \
	"${RESULTS#"$TOP"/}/$name/ping-ministat.txt"
sed -n '/^fair.*sched_proxy_exec=1, PING (x)/,/^$/p' "$out/ping-ministat.txt" | sed -e '/^$/d'

# How the locks were taken, from the trace events (patched kernel, pe1).
if compgen -G "$raw/how.patched.*.txt" >/dev/null; then
	printf '\nHow PING locks were taken (patched kernel, sched_proxy_exec=1, separate traced runs),\n'
	printf 'per 100 acquisitions, all boots:\n'
	printf '%-13s %-10s %6s %6s %7s %6s %6s %6s %6s %8s | %6s %6s %8s\n' workload kind fast ustole kfree spin \
		woken hoff died "unlock:" wake donor handoff
	for wl in fair rt; do
		for kind in n N; do
			cat "$raw"/how.patched.*."$wl"."$kind".txt 2>/dev/null | awk -v w="$wl" -v k="${kind_name[$kind]}" '
			{ c[$1, $2] += $3 }
			END {
				tot = c["user", "fast"] + c["user", "steal"] + c["user", "kernel-locks"]
				if (!tot) exit
				f = 100 / tot
				printf "%-13s %-10s %6.1f %6.1f %7.1f %6.1f %6.1f %6.1f %6.1f %8s | %6.1f %6.1f %8.1f\n", w, k,
				       c["user", "fast"] * f, c["user", "steal"] * f, c["lock", "free"] * f,
				       c["lock", "spin"] * f, c["lock", "woken"] * f, c["lock", "handoff"] * f,
				       c["lock", "owner_died"] * f, "",
				       c["unlock", "wake"] * f, c["unlock", "wake_donor"] * f,
				       (c["unlock", "handoff"] + c["unlock", "handoff_donor"]) * f
			}'
		done
	done
	printf 'fast, ustole: taken in user space (0 -> TID, W -> TID|W; ping_bench counts them);\n'
	printf 'kfree, spin, woken, hoff, died: taken in the kernel: the word free when the locker\n'
	printf 'looked, after spinning, when it woke in the queue, handed over, owner died;\n'
	printf 'unlock: woke the first waiter, woke the donor, handed the lock over.\n'
fi

if compgen -G "$raw/lockhow.patched.*.txt" >/dev/null; then
	printf '\nperf bench futex lock -k ping (patched, sched_proxy_exec=1, separate traced runs),\n'
	printf 'medians of %s runs, per second:\n' "$(find "$raw" -name 'lockhow.patched.*.txt' | wc -l)"
	printf '%7s %10s %9s %9s %9s %9s %9s %9s %9s\n' threads "ops/s/thr" steals kfree spin woken handoff \
		"u:wake" "u:hoff"
	cat "$raw"/lockhow.patched.*.txt | awk '$1 == "lockhow" { print $2 }' | sort -n -u | while read -r t; do
		line="$(printf '%7s' "$t")"
		for col in 3 4 5 6 7 8 9 10; do
			line="$line $(printf '%9s' "$(cat "$raw"/lockhow.patched.*.txt | awk -v t="$t" -v c="$col" \
				'$1 == "lockhow" && $2 == t { print $c }' | median)")"
		done
		printf '%s\n' "$line"
	done
	printf 'ops/s/thr: lock/unlock pairs per second and thread; steals: W -> TID|W in user space;\n'
	printf 'kfree .. handoff: kernel acquisitions by way; u:wake, u:hoff: unlocks that woke a\n'
	printf 'waiter, that handed the lock over.\n'
fi

# Every unlock and spin of those runs per lock/unlock pair, from the
# "lockcount" lines (kernels whose trace events say why and where).
if grep -qs '^lockcount ' "$raw"/lockhow.patched.*.txt; then
	cols="free wake wdonor hoff hdonor asleep queued woken rt stolen passes spins took osleeps budget spin_ns"
	for f in "$raw"/lockhow.patched.*.txt; do
		awk '
		$1 != "lockcount" { next }
		{ t = $2; ops[t] = $3; seen[t] = 1 }
		$4 == "unlock" { u[t, $5] += $6 }
		$4 == "unlock-why" && $5 != "free" {
			# how why next_state n: where the woken or handed-to waiter was
			if ($7 == "asleep") asleep[t] += $8
			if ($7 == "queued") queued[t] += $8
			if ($7 == "woken") woken[t] += $8
			if ($5 ~ /^handoff/) why[t, $6] += $8
		}
		$4 == "spin" { sp[t] += $6; end[t, $5] += $6; ns[t] += $7 }
		END {
			for (t in seen) {
				o = ops[t] > 0 ? ops[t] : 1
				woke = u[t, "wake"] + u[t, "wake_donor"] + u[t, "handoff"] + u[t, "handoff_donor"]
				printf "%s free %.4f\n", t, u[t, "free"] / o
				printf "%s wake %.4f\n", t, u[t, "wake"] / o
				printf "%s wdonor %.4f\n", t, u[t, "wake_donor"] / o
				printf "%s hoff %.4f\n", t, u[t, "handoff"] / o
				printf "%s hdonor %.4f\n", t, u[t, "handoff_donor"] / o
				printf "%s asleep %.1f\n", t, woke ? 100 * asleep[t] / woke : 0
				printf "%s queued %.1f\n", t, woke ? 100 * queued[t] / woke : 0
				printf "%s woken %.1f\n", t, woke ? 100 * woken[t] / woke : 0
				printf "%s rt %.4f\n", t, why[t, "rt"] / o
				printf "%s stolen %.4f\n", t, why[t, "stolen"] / o
				printf "%s passes %.4f\n", t, why[t, "passes"] / o
				printf "%s spins %.4f\n", t, sp[t] / o
				printf "%s took %.1f\n", t, sp[t] ? 100 * end[t, "took"] / sp[t] : 0
				printf "%s osleeps %.1f\n", t, sp[t] ? 100 * end[t, "owner_sleeps"] / sp[t] : 0
				printf "%s budget %.1f\n", t, sp[t] ? 100 * end[t, "budget"] / sp[t] : 0
				printf "%s spin_ns %.0f\n", t, sp[t] ? ns[t] / sp[t] : 0
			}
		}' "$f"
	done >"$tmp/lockcount"
	printf '\nPING unlocks in the kernel and spins per lock/unlock pair (the same runs), medians\n'
	printf '%7s' threads
	for c in $cols; do printf ' %7s' "$c"; done
	printf '\n'
	awk '{ print $1 }' "$tmp/lockcount" | sort -n -u | while read -r t; do
		printf '%7s' "$t"
		for c in $cols; do
			printf ' %7s' "$(awk -v t="$t" -v c="$c" '$1 == t && $2 == c { print $3 }' "$tmp/lockcount" | median)"
		done
		printf '\n'
	done
	printf 'free .. hdonor: FUTEX_UNLOCK_PING per pair by what it did (no waiter; woke the\n'
	printf 'first waiter, the donor; handed the lock to the first waiter, the donor); asleep,\n'
	printf 'queued, woken: %% of those wakeups and handoffs whose waiter was off the run queue,\n'
	printf 'blocked on it (Proxy Execution), woken before but not yet on a CPU; rt .. passes:\n'
	printf 'handoffs per pair by the rule that owed the waiter the lock; spins: spins per pair;\n'
	printf 'took, osleeps, budget: %% of spins that took the lock, ended as the owner stopped\n'
	printf 'running, reached the bound; spin_ns: the mean spin.\n'
fi

# What queued waiters found each time they looked (futex:futex_ping_wait),
# per lock/unlock pair, from the "lockcount THREADS OPS wait LOOK N" lines.
if grep -qs '^lockcount [0-9]* [0-9]* wait ' "$raw"/lockhow.patched.*.txt; then
	looks="handoff took sleep walk retry timeout signal error"
	for f in "$raw"/lockhow.patched.*.txt; do
		awk -v looks="$looks" '
		$1 == "lockcount" { t = $2; ops[t] = $3; seen[t] = 1 }
		$1 == "lockcount" && $4 == "wait" { c[t, $5] += $6; all[t] += $6 }
		END {
			n = split(looks, l, " ")
			for (t in seen) {
				o = ops[t] > 0 ? ops[t] : 1
				for (i = 1; i <= n; i++) printf "%s %s %.4f\n", t, l[i], c[t, l[i]] / o
				printf "%s all %.4f\n", t, all[t] / o
			}
		}' "$f"
	done >"$tmp/looks"
	printf '\nLooks of queued PING waiters at the lock per lock/unlock pair (the same runs), medians\n'
	printf '%7s' threads
	for c in $looks all; do printf ' %8s' "$c"; done
	printf '\n'
	awk '{ print $1 }' "$tmp/looks" | sort -n -u | while read -r t; do
		printf '%7s' "$t"
		for c in $looks all; do
			printf ' %8s' "$(awk -v t="$t" -v c="$c" '$1 == t && $2 == c { print $3 }' "$tmp/looks" | median)"
		done
		printf '\n'
	done
	printf 'handoff: an unlock had made the waiter the owner; took: it took the free word;\n'
	printf 'sleep: the lock was held, it slept (again); walk: a new owner, whose chain it\n'
	printf 'checked first; retry: the word changed under it; timeout, signal, error: it left.\n'
fi

# Latency distributions: the share of acquisitions up to a latency, per
# kind, for each workload and proxy setting (patched kernel).
if command -v gnuplot >/dev/null; then
	dat=$out/ping-cdf.dat
	: >"$dat"
	for v in pe1 pe0; do
		for wl in fair rt; do
			for kind in n N p m; do
				f=$(pooled "$v" patched "$wl" "$kind")
				[ -s "$f" ] || continue
				# 200 quantiles are enough for the curve.
				sort -n "$f" | awk -v v="$v" -v w="$wl" -v k="$kind" '{ s[NR] = $1 } END {
					for (i = 1; i <= 200; i++) { j = int(NR * i / 200); if (j < 1) j = 1
						print v, w, k, s[j] / 1000, i / 200 } }' >>"$dat"
			done
		done
	done
	plots=()
	for v in pe1 pe0; do
		for wl in fair rt; do
			grep -q "^$v $wl " "$dat" || continue
			p=""
			for kind in n N p m; do
				p="$p${p:+, }'$dat' using (strcol(1) eq '$v' && strcol(2) eq '$wl' && strcol(3) eq '$kind' ? \$4 : 1/0):5 with lines title '${kind_name[$kind]}'"
			done
			plots+=("set title '${wl_name[$wl]}, sched_proxy_exec=${v#pe}'; plot $p")
		done
	done
	gnuplot <<-EOF 2>"$WORK/gnuplot-ping.log" || warn "gnuplot failed (log: $WORK/gnuplot-ping.log)"
		set terminal pngcairo size 1200,$((450 * ((${#plots[@]} + 1) / 2)))
		set termoption noenhanced
		set output '$out/ping-cdf.png'
		set multiplot layout $(((${#plots[@]} + 1) / 2)),2
		set logscale x 10
		set xlabel 'acquisition latency (us)'
		set ylabel 'share of acquisitions'
		set key bottom right
		set grid
		$(printf '%s\n' "${plots[@]}")
		unset multiplot
	EOF
	printf '\nplot: %s\n' "${RESULTS#"$TOP"/}/$name/ping-cdf.png"
fi
