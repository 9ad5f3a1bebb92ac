#!/bin/bash
# Extra "make bench" job of series 06, run in the guest, in every boot of
# the parent (series 05: PING futexes without spinning) and the patched
# kernel (series 06: spinning), once with sched_proxy_exec=1 and once with
# =0 (bench/06-futex-ping-spin.boots):
#
# - ping_bench (tools/testing/futex) with the two workloads of the
#   FUTEX_*_PING RFC, for PING (n), PING with the user space steal (N), PI
#   (p) and pthread_mutex_t (m): every sample (ns) to
#   OUT/pb.VARIANT.TAG.WORKLOAD.KIND.txt, the summary lines to
#   OUT/pb-summary.VARIANT.TAG.txt. The kinds run in an order rotated from
#   boot to boot. The RFC ran 10000 acquisitions per thread; here PB_N
#   (default 2000), so that a round of boots fits make bench (a fair
#   run of 10000 takes about 40 s per kind in a 2-vCPU TCG guest).
# - on the patched kernel, with both proxy settings: unmodified programs
#   on the C library's mutexes, its PI mutexes and PING (bench/peers.sh,
#   OUT/peers.VARIANT.TAG.txt), and the "perf bench futex lock" sweep of
#   wait, set-wait, pi and ping under perf stat (OUT/lock.patched.R.txt
#   with sched_proxy_exec=1, OUT/lock-pe0.patched.R.txt with =0; rows as
#   bench/lock-row.awk writes them, read by scripts/bench/bench-lock-table.sh);
# - with sched_proxy_exec=1 only, on the patched kernel only: how the PING
#   locks were taken, from the futex:futex_ping_{lock,unlock,spin,wait}
#   trace events, in a run of its own of each workload for n and N,
#   counted with histogram triggers (OUT/how.TAG.WORKLOAD.KIND.txt: "lock
#   HOW COUNT", "unlock HOW COUNT" ... and ping_bench's own counts of user
#   space acquisitions); and the same for the ping rows of the sweep, in
#   separate runs (OUT/lockhow.patched.R.txt).
#
# Usage: 06-futex-ping-spin.sh PERF OUT TAG (TAG: parent.R or patched.R);
# BENCH_VARIANT: pe1 or pe0 (the boot's sched_proxy_exec).
set -u
perf=${1:?} out=${2:?} tag=${3:?}
variant=${BENCH_VARIANT:-pe1}
pb=$(dirname "$perf")/../ping_bench
r=${tag#*.}
n=${PB_N:-2000}
runtime=${LOCK_RUNTIME:-2}
tracing=/sys/kernel/tracing

case "$(cat /proc/cmdline)" in
*sched_proxy_exec=0*) [ "$variant" = pe0 ] ;;
*) [ "$variant" = pe1 ] ;;
esac || {
	echo "06-futex-ping-spin: variant $variant does not match the boot: $(cat /proc/cmdline)"
	exit 1
}
[ -x "$pb" ] || {
	echo "06-futex-ping-spin: no ping_bench at $pb"
	exit 1
}

declare -A args=(
	[fair]="-a -w 50000 -s 1000 -t 16"
	[rt]="-t 8 -b 16 -r 1 -p -w 10000 -S 500"
)
all=(n N p m)
kinds=()
for i in 0 1 2 3; do kinds+=("${all[$(((i + r) % 4))]}"); done

echo "06-futex-ping-spin: $variant $tag, ping_bench -n $n, kinds in the order ${kinds[*]}"
summary=$out/pb-summary.$variant.$tag.txt
echo "# ping_bench -n $n" >"$summary"
for wl in fair rt; do
	for k in "${kinds[@]}"; do
		f=$out/pb.$variant.$tag.$wl.$k.txt
		# shellcheck disable=SC2086 # the arguments are words
		if ! "$pb" -f "$k" ${args[$wl]} -n "$n" >"$f" 2>"$f.err"; then
			echo "ping_bench -f $k ${args[$wl]} -n $n failed:"
			cat "$f.err"
			exit 1
		fi
		sed "s/^/$wl /" "$f.err" >>"$summary"
		rm -f "$f.err"
	done
done
cat "$summary"

# Unmodified programs on three kinds of pthread mutex (bench/peers.sh), on
# the patched kernel, with both proxy settings.
case $tag in
patched.*) "$(dirname "$0")/peers.sh" "$(dirname "$perf")/../pingmutex" "$out" "$tag" || exit 1 ;;
esac

case $tag in patched.*) ;; *) exit 0 ;; esac
[ -d "$tracing/events" ] || mount -t tracefs nodev "$tracing" || exit 1

# The lock sweep, on the patched kernel with both proxy settings
# (OUT/lock.patched.R.txt with sched_proxy_exec=1, OUT/lock-pe0.patched.R.txt
# with =0), kinds rotated from boot to boot; each row a perf process of its
# own, as in bench/02-futex-set-wait.sh, counted by perf stat: the context
# switches and migrations of its threads and the wakeups they made
# (sched:sched_wakeup fires in the waker's context; named by its id
# through the tracepoint PMU, as this perf is built without
# libtraceevent), which lock-row.awk divides by the operations of the
# run. Every kind pays the same counting, in the kernel only.
wakeup=$(cat "$tracing/events/sched/sched_wakeup/id") || exit 1
sweep=(wait set-wait pi ping)
lk=()
for i in 0 1 2 3; do lk+=("${sweep[$(((i + r) % 4))]}"); done
row=$(mktemp)
stat=$(mktemp)
trap 'rm -f "$row" "$stat"' EXIT
lockfile=$out/lock.$tag.txt
[ "$variant" = pe1 ] || lockfile=$out/lock-$variant.$tag.txt
for t in 1 2 4 8 16; do
	for k in "${lk[@]}"; do
		"$perf" stat -x, -o "$stat" -e context-switches,cpu-migrations,"tracepoint/config=$wakeup/" \
			-- "$perf" bench futex lock -s -m -k "$k" -t "$t" -r "$runtime" >"$row" 2>&1 || {
			cat "$row" "$stat"
			exit 1
		}
		cat "$row" "$stat"
		awk -v k="$k" -v t="$t" -v stat="$stat" -f "$(dirname "$0")/lock-row.awk" "$row" || exit 1
	done
done >"$lockfile" 2>&1 || {
	tail -n 20 "$lockfile"
	exit 1
}

[ "$variant" = pe1 ] || exit 0

# How the PING locks were taken: the trace events, counted by how with
# histogram triggers (in the kernel, no buffer to overflow), in runs of
# their own apart from the timed ones.
ev=$tracing/events/futex
for e in lock unlock spin wait; do
	[ -d "$ev/futex_ping_$e" ] || {
		echo "06-futex-ping-spin: no futex_ping_$e trace event in $tracing"
		exit 1
	}
done
# counted CMD...: run CMD with the four PING events counted by histogram
# triggers. Prints "lock HOW N" and "unlock HOW N" for every how seen,
# "unlock-why HOW WHY NEXT_STATE N", "spin REASON N NS" (NS: the nanoseconds
# of those spins together) and "wait LOOK N" (what queued waiters found
# when they looked), each value by the name that the event's print format
# gives the number (its __print_symbolic table for that field).
declare -A hist=([lock]="keys=how:vals=hitcount" [unlock]="keys=how,why,next_state:vals=hitcount"
	[spin]="keys=reason:vals=hitcount,ns" [wait]="keys=look:vals=hitcount")
counted() {
	local e rc=0
	for e in lock unlock spin wait; do
		echo "hist:${hist[$e]}" >"$ev/futex_ping_$e/trigger" || return 1
	done
	"$@" || rc=$?
	for e in lock unlock spin wait; do
		awk -v e="$e" '
		FNR == NR {
			# print fmt: ..., __print_symbolic(REC->how, { 0, "free" }, ...), ...
			s = $0
			while (match(s, /__print_symbolic\(REC->[a-z_]+, [^)]*\)/)) {
				t = substr(s, RSTART, RLENGTH); s = substr(s, RSTART + RLENGTH)
				match(t, /REC->[a-z_]+/); f = substr(t, RSTART + 5, RLENGTH - 5)
				while (match(t, /\{ *[0-9]+, *"[a-z_]+" *\}/)) {
					pair = substr(t, RSTART, RLENGTH); t = substr(t, RSTART + RLENGTH)
					gsub(/[{}" ]/, "", pair); split(pair, kv, ",")
					name[f, kv[1]] = kv[2]
				}
			}
			next
		}
		# { how: 1, why: 1, next_state: 1 } hitcount: 12 ns: 345
		/^\{ / {
			line = $0; gsub(/[{},]/, " ", line); n = split(line, w, " ")
			key = ""; hits = 0; ns = 0
			for (i = 1; i < n; i += 2) {
				f = w[i]; sub(/:$/, "", f); v = w[i + 1]
				if (f == "hitcount") hits = v
				else if (f == "ns") ns = v
				else key = key " " ((f, v) in name ? name[f, v] : v)
			}
			if (e == "lock" || e == "wait") print e key, hits
			else if (e == "spin") print "spin" key, hits, ns
			else {
				print "unlock-why" key, hits
				split(key, k, " "); u[k[1]] += hits
			}
		}
		END { for (h in u) print "unlock", h, u[h] }' "$ev/futex_ping_$e/format" "$ev/futex_ping_$e/hist"
		echo "!hist:${hist[$e]}" >"$ev/futex_ping_$e/trigger"
	done
	return "$rc"
}
for wl in fair rt; do
	for k in n N; do
		f=$out/how.$tag.$wl.$k.txt
		# shellcheck disable=SC2086
		counted "$pb" -q -f "$k" ${args[$wl]} -n "$n" >"$f" 2>"$f.err" || {
			cat "$f.err"
			exit 1
		}
		sed -n 's/^ping_bench: kind .: locks: \([0-9]*\) fast path, \([0-9]*\) user space steals, \([0-9]*\) in the kernel; unlocks in the kernel: \([0-9]*\)$/user fast \1\nuser steal \2\nuser kernel-locks \3\nuser kernel-unlocks \4/p' "$f.err" >>"$f"
		rm -f "$f.err"
		echo "how $wl $k: $(tr '\n' ';' <"$f")"
	done
done

# Handoffs, wakeups and steals of the ping rows, in runs of their own:
# the trace events counted by how, perf bench counting the user space
# steals. "lockhow THREADS OPS/S STEALS/S then per second: lock by way
# (free spin woken handoff) and unlock by way (wake handoff)"; then every
# line of counted() as "lockcount THREADS OPS LINE", OPS the lock/unlock
# pairs of the run, all threads together.
for t in 2 4 8 16; do
	counted "$perf" bench futex lock -s -m -k ping -t "$t" -r "$runtime" >"$row" 2>&1 || {
		cat "$row"
		exit 1
	}
	awk -v t="$t" '
	/^Averaged/ { ops = $2; secs = $NF }
	/^Steals in user space:/ { steals = $(NF - 2) }
	$1 == "lock" || $1 == "unlock" { c[$1, $2] = $3 }
	$1 ~ /^(lock|unlock|unlock-why|spin|wait)$/ { counts[++n] = $0 }
	END {
		if (secs <= 0) { print "lockhow: no Averaged line" > "/dev/stderr"; exit 1 }
		printf "lockhow %s %s %.0f", t, ops, steals
		split("free spin woken handoff", l, " ")
		for (i = 1; i <= 4; i++) printf " %.0f", c["lock", l[i]] / secs
		printf " %.0f %.0f\n", c["unlock", "wake"] / secs, c["unlock", "handoff"] / secs
		for (i = 1; i <= n; i++) printf "lockcount %s %.0f %s\n", t, ops * t * secs, counts[i]
	}' "$row" || exit 1
done >"$out/lockhow.$tag.txt"
cat "$out/lockhow.$tag.txt"
