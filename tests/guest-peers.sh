#!/bin/bash
# guest-peers.sh LIB_DIR OUT_DIR: runs inside the guest, on a kernel with
# FUTEX_*_PING. Runs libpingmutex's tests (LIB_DIR: make -C pingmutex
# O=LIB_DIR) in both of its modes, then programs that nobody here wrote,
# unmodified Debian binaries, with their pthread mutexes on PING through
# the library (LD_PRELOAD): rt-tests' pi_stress and pip_stress, stress-ng's
# mutex and futex stressors with --verify, sysbench's mutex test, and
# memcached under memcslap.
#
# Same contract as guest-selftests.sh, for the host's selftest_verdict:
# each program's KTAP output in OUT_DIR/NAME.log (pingmutex_test-pi,
# pingmutex_test-all, peers), "NAME STATUS SECONDS" in OUT_DIR/status.tsv,
# the kernel log in OUT_DIR/dmesg.txt, OUT_DIR/done last. Each peer's own
# output stays in OUT_DIR/peers/CASE.out.
#
# A peer case passes when the program exits 0, its own verification (where
# it has one) holds, and the library's counters (PINGMUTEX_STATS=1, one
# line per process) show locks taken through PING: a library that fell
# back to the C library's mutexes fails every case.
set -u
lib=${1:?usage: guest-peers.sh LIB_DIR OUT_DIR}
top=$(cd "$(dirname "$0")/.." && pwd)
out=${2:?}
case $out in /*) ;; *) out=$PWD/$out ;; esac
case $lib in /*) ;; *) lib=$PWD/$lib ;; esac
limit=${TEST_TIMEOUT:-300}
mkdir -p "$out/peers" || exit 2
if [ ! -f "$lib/libpingmutex.so" ] || [ ! -x "$lib/pingmutex_test" ]; then
	echo "guest-peers.sh: no libpingmutex.so and pingmutex_test in $lib"
	exit 2
fi
rm -f "$out/done" "$out/status.tsv"
cd /tmp || exit 2
printf 'kernel: %s, cmdline: %s\n' "$(uname -r)" "$(cat /proc/cmdline)"

status() { # status NAME RC T0
	printf '%s %s %s\n' "$1" "$2" "$(($(date +%s) - $3))" >>"$out/status.tsv"
	printf 'peers %-36s exit %3s %4ss\n' "$1" "$2" "$(($(date +%s) - $3))"
}

for mode in pi all; do
	t0=$(date +%s)
	PINGMUTEX=$mode PINGMUTEX_STATS=1 LD_PRELOAD=$lib/libpingmutex.so \
		timeout -k 5 "$limit" "$lib/pingmutex_test" >"$out/pingmutex_test-$mode.log" 2>&1
	status "pingmutex_test-$mode" $? "$t0"
done

# ping_locks FILE MODE: the locks that the library's counter lines in FILE
# report as taken through PING, summed over its processes; nothing (and
# status 1) if no line says that MODE's mutexes were on PING.
ping_locks() {
	awk -v mode="$2" -f "$top/pingmutex/ping-locks.awk" "$1"
}

# peer NAME MODE MIN CMD...: run CMD with the library in MODE (pi: the
# PTHREAD_PRIO_INHERIT mutexes; all: every mutex), KTAP result NAME: exit
# status 0, and at least MIN locks through PING.
n=0 peers_rc=0
peer() {
	local name=$1 mode=$2 min=$3 rc locks f=$out/peers/$1.out pmode=PTHREAD_PRIO_INHERIT t0
	shift 3
	t0=$(date +%s)
	n=$((n + 1))
	[ "$mode" = pi ] || pmode=all
	PINGMUTEX=$mode PINGMUTEX_STATS=1 LD_PRELOAD=$lib/libpingmutex.so \
		timeout -k 5 "$limit" "$@" >"$f" 2>&1
	rc=$?
	locks=$(ping_locks "$f" "$pmode")
	printf '# %s: exit status %s, %s locks through PING, %ss\n' "$name" "$rc" "${locks:-no}" \
		"$(($(date +%s) - t0))"
	grep '^libpingmutex\[' "$f" | sed 's/^/# /' | head -n 20
	if [ "$rc" != 0 ]; then
		tail -n 5 "$f" | sed 's/^/# /'
		result "$name" 1
	elif [ -z "$locks" ] || [ "$locks" -lt "$min" ]; then
		printf '# %s: fewer than %s locks through PING\n' "$name" "$min"
		result "$name" 1
	else
		result "$name" 0
	fi
}
result() { # result NAME FAILED
	if [ "$2" = 0 ]; then
		printf 'ok %d %s\n' "$n" "$1"
	else
		printf 'not ok %d %s\n' "$n" "$1"
		peers_rc=1
	fi
}

# memcached under memcslap: sets, gets and multi-gets from 8 client
# threads against 4 server threads, every mutex of the server on PING
# (the debug kernel has no INET: a Unix socket). The server's own counters
# must show every get a hit and every key stored; then the server is shut
# down by its "shutdown" command and must exit with status 0.
memcached_case() {
	local sock=/tmp/peers-memcached.sock pre=$LD_PRELOAD pid st rc=0
	unset LD_PRELOAD
	rm -f "$sock"
	LD_PRELOAD=$pre memcached -u root -A -s "$sock" -t 4 -m 64 &
	pid=$!
	for _ in $(seq 1 100); do
		memcstat --servers="$sock" >/dev/null 2>&1 && break
		sleep 0.1
	done
	memcslap --servers="$sock" --concurrency=8 --execute-number=400 -t get || rc=1
	memcslap --servers="$sock" --concurrency=8 --execute-number=100 -t mget || rc=1
	st=$(memcstat --servers="$sock")
	printf '%s\n' "$st"
	python3 -c 'import socket, sys
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
s.sendall(b"shutdown\r\n")
s.recv(16)' "$sock" || rc=1
	wait "$pid" || {
		echo "memcached: exit status $?"
		rc=1
	}
	printf '%s\n' "$st" | awk '
		{ gsub(/[\t :]+/, " "); v[$1] = $2 }
		END {
			bad = !(v["cmd_get"] > 0 && v["get_hits"] == v["cmd_get"] && v["get_misses"] == 0 &&
				v["curr_items"] == 500)
			printf "memcached: cmd_get %s get_hits %s get_misses %s curr_items %s: %s\n",
				v["cmd_get"], v["get_hits"], v["get_misses"], v["curr_items"],
				bad ? "wrong" : "as stored"
			exit bad
		}' || rc=1
	return $rc
}

t0=$(date +%s)
{
	echo "TAP version 13"
	echo "1..6"
	# pi_stress's own checks. Its inversion check did not fire with
	# sched_proxy_exec=0 either, where PING lends nothing: this case
	# checks the locks under its SCHED_FIFO load, not inheritance
	# (futex_ping's inversion cases do that).
	peer pi_stress pi 100 pi_stress --duration=10 --groups=1 --quiet
	# Process-shared PI mutex; exits non-zero if the inversion was not
	# resolved by inheritance.
	peer pip_stress pi 1 pip_stress
	peer stress-ng_mutex all 1000 stress-ng --mutex 1 --mutex-procs 4 --mutex-ops 5000 --timeout 60 --verify --metrics-brief
	# Raw futex words, no pthread mutex: run under the library for its
	# exit status and --verify (no lock through PING expected).
	peer stress-ng_futex all 0 stress-ng --futex 2 --futex-ops 5000 --timeout 60 --verify --metrics-brief
	# sysbench's mutex test has no verification of its own: its exit
	# status and the counters.
	peer sysbench_mutex all 1000 sysbench mutex --threads=4 --mutex-num=64 --mutex-locks=5000 run
	export -f memcached_case
	peer memcached all 1000 bash -c memcached_case
} >"$out/peers.log" 2>&1
status peers "$peers_rc" "$t0"

dmesg >"$out/dmesg.txt" 2>&1
echo ok >"$out/done"
