#!/bin/bash
# Issue 26 experiment, in the guest: KERNEL(A|C) ROUND OUT PERF PING_BENCH.
# A: series 06's tip (the old rule, pass count + stolen-once).
# C: lever 1 + levers 3+5, with the bench-only knobs
#    /sys/kernel/debug/futex_ping/{handoff_ns,one_woken}, measured at
#    several (one_woken, T) in the same boot. A policy is O<0|1>T<ns>.
set -u
kern=$1 r=$2 out=$3 perf=$4 pb=$5
awkrow=/work/main/bench/lock-row.awk
tr=/sys/kernel/tracing
[ -d $tr/events ] || mount -t tracefs nodev $tr || exit 1
[ -d /sys/kernel/debug/tracing ] || mount -t debugfs nodev /sys/kernel/debug 2>/dev/null
knob=/sys/kernel/debug/futex_ping/handoff_ns
knob1=/sys/kernel/debug/futex_ping/one_woken
mkdir -p "$out"
if [ "$kern" = C ]; then
	[ -f $knob ] && [ -f $knob1 ] || { echo "no $knob or $knob1"; exit 1; }
	pols=(O0T0 O0T100000 O0T1000000 O1T0 O1T100000 O1T1000000)
else
	pols=(old)
fi
setpol() {
	case $1 in
	old | -) ;;
	O?T*)
		echo "${1:1:1}" >$knob1 || exit 1
		echo "${1#O?T}" >$knob || exit 1
		;;
	*) echo "bad policy $1"; exit 1 ;;
	esac
}
rows=(wait)
for p in "${pols[@]}"; do rows+=("ping@$p"); done
n=${#rows[@]}
rot=()
for ((i = 0; i < n; i++)); do rot+=("${rows[$(((i + r) % n))]}"); done
wakeup=$(cat $tr/events/sched/sched_wakeup/id)
rowf=$(mktemp) stat=$(mktemp)
echo "x26 $kern round $r: rows ${rot[*]}"
for t in 2 4 8 16; do
	for row in "${rot[@]}"; do
		k=${row%@*} p=${row#*@}
		[ "$k" = wait ] && p=-
		setpol "$p"
		"$perf" stat -x, -o "$stat" -e context-switches,cpu-migrations,"tracepoint/config=$wakeup/" \
			-- "$perf" bench futex lock -s -m -k "$k" -t "$t" -r 2 >"$rowf" 2>&1 || { cat "$rowf"; exit 1; }
		cat "$rowf" >>"$out/lock-raw.$kern.$r.txt"
		echo "p=$p $(awk -v k="$k" -v t="$t" -v stat="$stat" -f $awkrow "$rowf")"
	done
done >"$out/lock.$kern.$r.txt"
cat "$out/lock.$kern.$r.txt"

# ping_bench, the RFC's workloads: n at every policy, p and m.
declare -A args=([fair]="-a -w 50000 -s 1000 -t 16" [rt]="-t 8 -b 16 -r 1 -p -w 10000 -S 500")
pbrows=(p m)
for p in "${pols[@]}"; do pbrows+=("n@$p"); done
n=${#pbrows[@]}
rot=()
for ((i = 0; i < n; i++)); do rot+=("${pbrows[$(((i + r) % n))]}"); done
for wl in fair rt; do
	for row in "${rot[@]}"; do
		k=${row%@*} p=${row#*@}
		[ "$k" = n ] || p=-
		setpol "$p"
		# shellcheck disable=SC2086
		"$pb" -f "$k" ${args[$wl]} -n 2000 >"$out/pb.$kern.$r.$wl.$k.$p.txt" 2>"$rowf" || { cat "$rowf"; exit 1; }
		sed "s/^/$wl $k p=$p /" "$rowf"
	done
done >"$out/pb.$kern.$r.txt"
cat "$out/pb.$kern.$r.txt"

# How the ping rows took the lock: hist triggers, 8 and 4 threads.
ev=$tr/events/futex
cp $ev/futex_ping_unlock/format "$out/unlock.format.$kern"
cp $ev/futex_ping_lock/format "$out/lock.format.$kern"
cp $ev/futex_ping_spin/format "$out/spin.format.$kern"
cp $ev/futex_ping_wait/format "$out/wait.format.$kern"
for t in 4 8; do
	for p in "${pols[@]}"; do
		setpol "$p"
		echo 'hist:keys=how:vals=hitcount' >$ev/futex_ping_lock/trigger
		echo 'hist:keys=how,why:vals=hitcount' >$ev/futex_ping_unlock/trigger
		echo 'hist:keys=reason:vals=hitcount,ns' >$ev/futex_ping_spin/trigger
		echo 'hist:keys=look:vals=hitcount' >$ev/futex_ping_wait/trigger
		"$perf" bench futex lock -s -m -k ping -t "$t" -r 2 >"$rowf" 2>&1
		{
			echo "== t=$t p=$p"
			grep -E '^Averaged|^Futex calls|^CPU time|^Steals' "$rowf"
			grep '^{' $ev/futex_ping_lock/hist | sed 's/^/lock /'
			grep '^{' $ev/futex_ping_unlock/hist | sed 's/^/unlock /'
			grep '^{' $ev/futex_ping_spin/hist | sed 's/^/spin /'
			grep '^{' $ev/futex_ping_wait/hist | sed 's/^/wait /'
		} >>"$out/how.$kern.$r.txt"
		echo '!hist:keys=how:vals=hitcount' >$ev/futex_ping_lock/trigger
		echo '!hist:keys=how,why:vals=hitcount' >$ev/futex_ping_unlock/trigger
		echo '!hist:keys=reason:vals=hitcount,ns' >$ev/futex_ping_spin/trigger
		echo '!hist:keys=look:vals=hitcount' >$ev/futex_ping_wait/trigger
	done
done
cat "$out/how.$kern.$r.txt"
