#!/bin/bash
# peers.sh LIB_DIR OUT TAG: runs in the guest, from bench/06-futex-ping-spin.sh
# on the patched kernel (the tip), in every boot it has there. Unmodified
# Debian programs with three kinds of pthread mutex, through
# pingmutex/libpingmutex.so (LIB_DIR):
#   glibc     the C library's default mutexes (no library);
#   glibc-pi  the C library's PI mutexes (PINGMUTEX=glibc-pi: every
#             pthread_mutex_init() asks for PTHREAD_PRIO_INHERIT);
#   ping      PING (PINGMUTEX=all: every mutex on FUTEX_*_PING).
# Throughput at 2, 4, 8 and 16 threads, kinds and thread counts in an order
# rotated from boot to boot:
#   sysbench  sysbench mutex, 4 mutexes: locks per second;
#   stress-ng stress-ng --mutex, one worker of THREADS threads on one
#             mutex, for 3 s: bogo operations per second (wall clock).
# And pi_stress (rt-tests, PI mutexes) for 10 s per kind, glibc-normal
# (PINGMUTEX=glibc-normal: its mutexes without PI) in place of glibc: its
# exit status (non-zero: it saw a failure; it did not see the missing
# inheritance of PING without Proxy Execution in make check) and inversions done.
#
# Rows to OUT/peers.VARIANT.TAG.txt: "PROGRAM KIND THREADS VALUE", and
# "pi_stress KIND STATUS INVERSIONS"; BENCH_VARIANT names the boot.
set -u
lib=${1:?usage: peers.sh LIB_DIR OUT TAG} out=${2:?} tag=${3:?}
variant=${BENCH_VARIANT:-pe1}
top=$(cd "$(dirname "$0")/.." && pwd)
r=${tag#*.}
f=$out/peers.$variant.$tag.txt
log=$out/peers.$variant.$tag.log
[ -f "$lib/libpingmutex.so" ] || {
	echo "peers: no $lib/libpingmutex.so"
	exit 1
}
: >"$f"
: >"$log"
# stress-ng and sysbench write temporary files in their working directory;
# the guest's root is read-only, its /tmp private and writable.
cd /tmp || exit 1

# with KIND CMD...: CMD on the mutexes of KIND.
with() {
	local kind=$1
	shift
	case $kind in
	glibc) "$@" ;;
	ping) PINGMUTEX=all PINGMUTEX_STATS=1 LD_PRELOAD=$lib/libpingmutex.so "$@" ;;
	*) PINGMUTEX=$kind LD_PRELOAD=$lib/libpingmutex.so "$@" ;;
	esac
}

# proven KIND OUTPUT WHAT: a ping row counts only if the library's counters
# in OUTPUT show locks through PING; a library that was not preloaded or
# fell back to glibc would make it a glibc number.
proven() {
	local n
	[ "$1" = ping ] || return 0
	n=$(awk -v mode=all -f "$top/pingmutex/ping-locks.awk" <<<"$2")
	[ "${n:-0}" -gt 0 ] && return 0
	echo "peers: $3 on ping: no locks through PING (the library's counters: ${n:-none})"
	exit 1
}

rot() { # rot N WORDS...: the WORDS rotated by N
	local n=$1
	shift
	local a=("$@") i
	for ((i = 0; i < ${#a[@]}; i++)); do
		printf '%s ' "${a[$(((i + n) % ${#a[@]}))]}"
	done
}

kinds=$(rot "$r" glibc glibc-pi ping)
for t in $(rot "$r" 2 4 8 16); do
	for k in $kinds; do
		# sysbench: every thread takes one of 4 mutexes 20000 times.
		o=$(with "$k" sysbench mutex --threads="$t" --mutex-num=4 --mutex-locks=20000 \
			--mutex-loops=100 run 2>&1) || {
			printf '%s\n' "$o"
			exit 1
		}
		printf '%s\n' "$o" >>"$log"
		proven "$k" "$o" "sysbench ($t threads)"
		awk -v k="$k" -v t="$t" '/total time:/ { s = $3; sub(/s$/, "", s) }
			END { if (s > 0) printf "sysbench %s %d %.0f\n", k, t, t * 20000 / s; else exit 1 }' \
			<<<"$o" >>"$f" || {
			echo "peers: no total time from sysbench ($k, $t threads)"
			exit 1
		}
		o=$(with "$k" stress-ng --mutex 1 --mutex-procs "$t" --timeout 3 --metrics-brief 2>&1) || {
			printf '%s\n' "$o"
			exit 1
		}
		printf '%s\n' "$o" >>"$log"
		proven "$k" "$o" "stress-ng ($t threads)"
		# "metrc: [PID] mutex OPS REAL USR SYS OPS/S(REAL) OPS/S(CPU)"
		awk -v k="$k" -v t="$t" '$4 == "mutex" && $5 ~ /^[0-9]+$/ { v = $9 }
			END { if (v > 0) printf "stress-ng %s %d %.0f\n", k, t, v; else exit 1 }' \
			<<<"$o" >>"$f" || {
			echo "peers: no bogo ops/s from stress-ng ($k, $t threads)"
			exit 1
		}
	done
done
for k in $(rot "$r" glibc-normal glibc-pi ping); do
	st=0
	o=$(with "$k" timeout -k 5 60 pi_stress --duration=10 --groups=1 --quiet 2>&1) || st=$?
	printf '%s\n' "$o" >>"$log"
	proven "$k" "$o" pi_stress
	n=$(sed -n 's/^Total inversion performed: //p' <<<"$o")
	printf 'pi_stress %s %s %s\n' "$k" "$st" "${n:-0}" >>"$f"
done
cat "$f"
