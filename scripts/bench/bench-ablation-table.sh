#!/usr/bin/env bash
# bench-ablation-table.sh NAME: the ablation table of results/NAME/raw
# (ablation.patched.R.txt, one file per boot, as bench/NAME.knobs.sh
# writes them; nothing if there are none). Per knob setting, the median
# over the boots of each metric, and beside every setting but "default"
# its ratio to default's median with ministat's verdict on the per-boot
# values (the settings ran in the same boots). The medians also go to
# results/NAME/ablation.tsv. BENCH_RAW and BENCH_OUT as for bench-table.sh.
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=scripts/bench/bench-lib.sh
. "$(dirname "$0")/bench-lib.sh"

name=${1:?usage: bench-ablation-table.sh NAME}
raw=${BENCH_RAW:-$RESULTS/$name/raw}
out=${BENCH_OUT:-$RESULTS/$name}
files=("$raw"/ablation.patched.*.txt)
[ -f "${files[0]}" ] || exit 0
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One file per setting and metric, one value per boot:
# tmp/SETTING/METRIC. Lines: "ab SETTING row ping THREADS OPS/S STDDEV%
# WAITS EAGAIN WAKES NOBODY CPUS CS MIGR WAKEUPS" (bench/lock-row.awk)
# and "ab SETTING pb WORKLOAD SAMPLES MEAN MEDIAN P99 MAX" (ns).
awk -v tmp="$tmp" '
function put(s, m, v) { system("mkdir -p \"" tmp "/" s "\""); print v >> (tmp "/" s "/" m) }
$1 == "ab" && $3 == "row" && NF == 15 {
	put($2, "kops." $5, $6 / 1000)
	put($2, "calls." $5, $8 + $10)
	put($2, "cs." $5, $13)
	put($2, "cpus." $5, $12)
	if (!($2 in seen)) { seen[$2] = 1; order[++n] = $2 }
	next
}
$1 == "ab" && $3 == "pb" && NF == 9 {
	split("mean median p99 max", k, " ")
	for (i = 1; i <= 4; i++) put($2, $4 "." k[i], $(5 + i) / 1000)
	next
}
$1 == "ab" { print "bench-ablation-table: bad line in " FILENAME ": " $0 > "/dev/stderr"; bad = 1 }
END {
	for (i = 1; i <= n; i++) print order[i] > (tmp "/settings")
	exit bad
}' "${files[@]}" || exit 1
mapfile -t settings < <(grep -v '^default$' "$tmp/settings")
[ -d "$tmp/default" ] || die "bench-ablation-table: no default setting in ${files[*]}"
settings=(default "${settings[@]}")

# cell SETTING METRIC DIGITS: the median (DIGITS decimals), and for a
# setting other than default its ratio to default's and ministat's
# verdict, short.
cell() {
	local s=$1 m=$2 f=$tmp/$1/$2 d=$tmp/default/$2 med dmed v
	[ -f "$f" ] || {
		printf '%s' -
		return
	}
	med=$(median <"$f")
	if [ "$s" = default ]; then
		printf '%.*f' "$3" "$med"
		return
	fi
	dmed=$(median <"$d")
	v=$(verdict "$d" "$f" 1)
	case $v in
	"no difference proven") v="=" ;;
	"n < 3: no test") v="n<3" ;;
	*) v=$(printf '%s' "$v" | sed 's/ +\/- /±/') ;;
	esac
	awk -v a="$med" -v b="$dmed" -v v="$v" -v d="$3" 'BEGIN {
		if (b + 0 == 0) printf "%.*f (-, %s)", d, a, v
		else printf "%.*f %.2fx %s", d, a, a / b, v }'
}
# block TITLE DIGITS METRIC:HEADING...: a row per setting, a column per
# metric.
block() {
	local title=$1 digits=$2 s m
	shift 2
	printf '%s\n' "$title"
	printf '%-17s' setting
	for m in "$@"; do printf ' %-26s' "${m#*:}"; done
	printf '\n'
	for s in "${settings[@]}"; do
		printf '%-17s' "$s"
		for m in "$@"; do printf ' %-26s' "$(cell "$s" "${m%%:*}" "$digits")"; done
		printf '\n'
	done
	printf '\n'
}

printf 'Ablation: the patched kernel with bench/%s.knobs.patch, each setting in\n' "$name"
printf 'turn in the same %s boots (default: series %s as it is; T: how long a fair\n' "${#files[@]}" "${name%%-*}"
printf 'waiter may be stolen from, off: never handed the lock; one_woken: one\n'
printf 'release wakeup in flight; release_zero: a contended lock released as 0;\n'
printf 'donor_zero: as 0 also for a donor on its way (off: W); spin: the spin\n'
printf 'of FUTEX_LOCK_PING; wait_spin: the spin of a woken waiter on a running\n'
printf 'owner). Each cell: the median over the boots,\n'
printf 'then the ratio to default'"'"'s median and ministat'"'"'s verdict on the per-boot\n'
printf 'values at 95%% ("=": no difference proven).\n\n'
block "perf bench futex lock -k ping, Kops/s per thread" 1 kops.2:"2 threads" kops.4:"4 threads" \
	kops.8:"8 threads" kops.16:"16 threads"
block "perf bench futex lock -k ping, futex calls per operation (waits + wakes)" 4 calls.2:"2 threads" \
	calls.4:"4 threads" calls.8:"8 threads" calls.16:"16 threads"
block "perf bench futex lock -k ping, context switches per operation; CPUs busy" 4 cs.4:"cs/op 4 threads" \
	cs.16:"cs/op 16 threads" cpus.4:"cpus 4 threads" cpus.16:"cpus 16 threads"
block "ping_bench -f n, fair (-a -w 50000 -s 1000 -t 16), us" 1 fair.mean:mean fair.median:median \
	fair.p99:p99 fair.max:max
block "ping_bench -f n, RT inversion (-t 8 -b 16 -r 1 -p -w 10000 -S 500), thread 0, us" \
	1 rt.mean:mean rt.median:median rt.p99:p99 rt.max:max
block "ping_bench -f n, starve (-t 3 -w 1000 -n 20000: thread 0 against two threads in a tight loop), thread 0, us" \
	1 starve.mean:mean starve.median:median starve.p99:p99 starve.max:"max (the longest wait)"

# The medians, a line per setting.
mapfile -t metrics < <(find "$tmp/default" -type f -printf '%f\n' | sort -V)
{
	printf 'setting'
	for m in "${metrics[@]}"; do printf '\t%s' "$m"; done
	printf '\n'
	for s in "${settings[@]}"; do
		printf '%s' "$s"
		for m in "${metrics[@]}"; do
			if [ -f "$tmp/$s/$m" ]; then printf '\t%s' "$(median <"$tmp/$s/$m")"; else printf '\t-'; fi
		done
		printf '\n'
	done
} >"$out/ablation.tsv"
# make bench writes its tables to .new and moves them into place once
# every boot has completed: name where the file will be.
final=${out%/.new}
printf 'medians: %s\n\n' "${final#"$TOP"/}/ablation.tsv"
