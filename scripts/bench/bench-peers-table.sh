#!/usr/bin/env bash
# bench-peers-table.sh NAME: the tables of unmodified programs on three
# kinds of pthread mutex (bench/peers.sh) in results/NAME/raw; nothing if
# there are none:
#
# - per proxy setting (pe1, pe0), program (sysbench mutex, stress-ng
#   --mutex) and thread count: the median over boots of each kind's
#   throughput, PING's ratio to the C library's default mutex and to its
#   PI mutex, with ministat's verdict on the per-boot values beside each
#   ratio (results/NAME/peers.tsv, ministat's whole output in
#   results/NAME/peers-ministat.txt);
# - pi_stress per kind: in how many boots it passed (exit status 0: no
#   inversion, no stall seen) and the median of the inversions it made in
#   its 10 s.
#
# BENCH_RAW and BENCH_OUT as for bench-table.sh.
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=scripts/bench/bench-lib.sh
. "$(dirname "$0")/bench-lib.sh"

name=${1:?usage: bench-peers-table.sh NAME}
raw=${BENCH_RAW:-$RESULTS/$name/raw}
out=${BENCH_OUT:-$RESULTS/$name}
compgen -G "$raw/peers.*.txt" >/dev/null || exit 0
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# values V PROGRAM KIND THREADS: one value per boot, into a file; its path.
values() {
	local f=$tmp/$1.$2.$3.$4
	[ -f "$f" ] || awk -v p="$2" -v k="$3" -v t="$4" '$1 == p && $2 == k && $3 == t { print $4 }' \
		"$raw"/peers."$1".patched.*.txt >"$f"
	echo "$f"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b == "-" || b == 0) print "-"; else printf "%.2f", a / b }'; }
k() { awk -v v="$1" 'BEGIN { if (v == "-") print "-"; else printf "%.0f", v / 1000 }'; }

boots=$(find "$raw" -name 'peers.pe1.patched.*.txt' | wc -l)
printf '\nUnmodified programs on three mutex kinds (tip kernel, %s boots per proxy setting; bench/peers.sh)\n' "$boots"
printf 'glibc: default mutex; glibc-pi: glibc PI mutex; ping: libpingmutex (PINGMUTEX=all); medians, k/s\n'
printf '%-5s %-10s %3s %9s %9s %9s %9s  %-30s %9s  %s\n' proxy program thr glibc glibc-pi ping \
	ping/glibc "ministat 95% (ping vs glibc)" ping/pi "ministat 95% (ping vs glibc-pi)"
: >"$out/peers.tsv"
: >"$out/peers-ministat.txt"
for v in pe1 pe0; do
	compgen -G "$raw/peers.$v.patched.*.txt" >/dev/null || continue
	for p in sysbench stress-ng; do
		for t in 2 4 8 16; do
			g=$(median <"$(values "$v" "$p" glibc "$t")")
			gp=$(median <"$(values "$v" "$p" glibc-pi "$t")")
			pg=$(median <"$(values "$v" "$p" ping "$t")")
			printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$v" "$p" "$t" "$g" "$gp" "$pg" >>"$out/peers.tsv"
			printf '== %s %s %s threads: glibc (x) against ping (+)\n' "$v" "$p" "$t" >>"$out/peers-ministat.txt"
			a=$(verdict "$(values "$v" "$p" glibc "$t")" "$(values "$v" "$p" ping "$t")" 1 \
				"$out/peers-ministat.txt")
			printf '== %s %s %s threads: glibc-pi (x) against ping (+)\n' "$v" "$p" "$t" >>"$out/peers-ministat.txt"
			b=$(verdict "$(values "$v" "$p" glibc-pi "$t")" "$(values "$v" "$p" ping "$t")" 1 \
				"$out/peers-ministat.txt")
			printf '%-5s %-10s %3s %9s %9s %9s %9s  %-30s %9s  %s\n' "$v" "$p" "$t" "$(k "$g")" "$(k "$gp")" \
				"$(k "$pg")" "$(ratio "$pg" "$g")" "$a" "$(ratio "$pg" "$gp")" "$b"
		done
	done
done

printf '\npi_stress --duration=10 --groups=1 per kind: boots passed (exit status 0) and median inversions\n'
printf '%-5s %-13s %7s %11s\n' proxy kind passed inversions
for v in pe1 pe0; do
	compgen -G "$raw/peers.$v.patched.*.txt" >/dev/null || continue
	for kind in glibc-normal glibc-pi ping; do
		awk -v k="$kind" '$1 == "pi_stress" && $2 == k { n++; if ($3 == 0) ok++; print $4 > "/dev/stderr" }
			END { printf "%d/%d\n", ok, n }' "$raw"/peers."$v".patched.*.txt 2>"$tmp/inv" >"$tmp/pass"
		printf '%-5s %-13s %7s %11s\n' "$v" "$kind" "$(cat "$tmp/pass")" "$(median <"$tmp/inv")"
	done
done
