#!/bin/sh
# futex-lava.sh selftests|bench: runs inside a LAVA job's guest (the
# busybox ramdisk of scripts/lab/lava-ramdisk.sh, POSIX sh). Reports every
# result with lava-test-case where LAVA's test shell provides it, and
# prints the same lines otherwise, so that a run by hand reads alike.
#
#   selftests [PROGRAM...]
#              every futex selftest program, or the ones named; each
#              KTAP case becomes a test case PROGRAM_CASE (dots as
#              underscores, as LKFT names kselftest cases), pass, fail or
#              skip; a program that exits non-zero or times out is also
#              one case, PROGRAM; kernel_log_clean fails on any kernel
#              report in dmesg.
#   torture SECONDS
#              the kernel was booted with locktorture.torture_type=: let
#              the torture run SECONDS from its start, then report
#              locktorture (every statistics line says Fail: 0) and
#              kernel_log_clean.
#   failfutex SECONDS [PROGRAM...]
#              the futex stress programs (or the ones named), each for up
#              to SECONDS, while fail_futex fails one futex operation in
#              ten; the programs' own verdicts do not count, the
#              kernel's do: failfutex_injected (the number of faults, a
#              measurement: none fails), kmemleak_clean (two scans after
#              the stress; the kernel booted with kmemleak on) and
#              kernel_log_clean.
#   bench      the perf bench futex rows of make bench (bench/*.rows) and
#              ping_bench, each number a measurement.
#
# Raw output is printed between "=== BEGIN NAME" and "=== END NAME" lines,
# from which scripts/lab/lava-results.py rebuilds results/ on the host.
# (POSIX sh: no "local"; the functions' variables are global.)
set -u
dir=$(cd "$(dirname "$0")" && pwd)
limit=${TEST_TIMEOUT:-600}
# The kernel log. A busybox shell runs its own dmesg applet before any
# dmesg on PATH, so the workbench's test names its stand-in here.
dmesg=${FUTEX_LAVA_DMESG:-dmesg}

report() { # report NAME RESULT [MEASUREMENT UNITS]
	if command -v lava-test-case >/dev/null 2>&1; then
		if [ $# -ge 4 ]; then
			lava-test-case "$1" --result "$2" --measurement "$3" --units "$4"
		else
			lava-test-case "$1" --result "$2"
		fi
	fi
	echo "RESULT $*"
}

# name STRING: a LAVA test case name ([-_.a-zA-Z0-9], no dots).
name() {
	echo "$1" | sed -e 's/[^-_a-zA-Z0-9]/_/g'
}

selftests() {
	cd "$dir/kselftest/futex/functional" || exit 2
	named=$#
	[ $# -gt 0 ] || set -- *
	for t; do
		if [ ! -f "$t" ] || [ ! -x "$t" ]; then
			# A program named on the command line must be there.
			[ "$named" -eq 0 ] || report "$(name "$t")" fail
			continue
		fi
		case $t in *.sh) continue ;; esac
		echo "=== BEGIN selftest $t"
		timeout "$limit" "./$t" >"/tmp/$t.log" 2>&1
		rc=$?
		cat "/tmp/$t.log"
		echo "=== END selftest $t exit $rc"
		# "ok N NAME", "not ok N NAME", "ok N NAME # SKIP why"; a
		# nameless "ok N # SKIP why" inside "#  RUN NAME ..." (a
		# fixture's set-up) makes NAME a skip, as on the host
		# (selftest_verdict in scripts/check/verdict.sh).
		awk '
		/^#  RUN / { cur = $0; sub(/^#  RUN +/, "", cur); sub(/ \.\.\.$/, "", cur); next }
		!/^(not )?ok [0-9]+/ { next }
		{
			m = ($0 ~ /^ok/) ? "ok" : "not ok"
			d = $0; sub(/^(not )?ok [0-9]+ */, "", d)
			dir = ""; k = index(d, "# ")
			if (k) { dir = substr(d, k + 2); d = substr(d, 1, k - 1) }
			sub(/[ \t]+$/, "", d)
			if (d == "") { if (cur != "" && dir ~ /^(SKIP|skip)/) inner[cur] = 1; next }
			if (m == "ok" && (dir ~ /^(SKIP|skip)/ || (d in inner))) r = "skip"
			else if (m == "ok") r = "pass"
			else r = "fail"
			print d "|" r
		}' "/tmp/$t.log" |
			while IFS='|' read -r case res; do
				report "$(name "${t}_$case")" "$res"
			done
		# The program: 0 passed, 4 (KSFT_SKIP) skipped, else failed.
		case $rc in
		0) report "$(name "$t")" pass ;;
		4) report "$(name "$t")" skip ;;
		*) report "$(name "$t")" fail ;;
		esac
	done
	kernel_log
}

# kernel_log: the kernel's verdict, no report of a class in
# kernel-log-badness (warning, lockdep, KASAN, lockup, stall...), which the
# host's verdict reads too; an empty log or a missing pattern file fails.
# The log itself framed for the host.
kernel_log() {
	log=$("$dmesg")
	echo "=== BEGIN dmesg"
	printf '%s\n' "$log"
	echo "=== END dmesg"
	badness=$dir/kernel-log-badness
	re=$(grep -v -e '^#' -e '^$' -e '^ignore|' "$badness" 2>/dev/null |
		sed 's/^[^|]*|//' | tr '\n' '|')
	ignore=$(sed -n 's/^ignore|//p' "$badness" 2>/dev/null)
	if [ -z "$log" ] || [ -z "$re" ] ||
		printf '%s\n' "$log" | grep -v -E "${ignore:-^\$}" | grep -q -E "${re%|}"; then
		report kernel_log_clean fail
	else
		report kernel_log_clean pass
	fi
}

# torture SECONDS: see above. The host judges the framed log again
# (locktorture_verdict in scripts/check/verdict.sh).
torture() {
	secs=$1
	start=$("$dmesg" | sed -n 's/^\[ *\([0-9]*\)\.[0-9]*\] .*-torture:--- Start of test.*/\1/p' | head -n 1)
	if [ -z "$start" ]; then
		report locktorture fail
		kernel_log
		return
	fi
	now=$(cut -d. -f1 /proc/uptime)
	[ $((start + secs - now)) -le 0 ] || sleep $((start + secs - now))
	if [ "$("$dmesg" | grep -c 'Writes: *Total:')" -ge 2 ] &&
		! "$dmesg" | grep 'Writes: *Total:' | grep -q -v -E 'Fail: 0( |$)'; then
		report locktorture pass
	else
		report locktorture fail
	fi
	kernel_log
}

# failfutex SECONDS [PROGRAM...]: see above.
failfutex() {
	secs=$1
	shift
	[ $# -gt 0 ] || set -- futex_lock_pi_exiting futex_requeue_pi_signal_restart \
		futex_wait_precheck futex_set_wait futex_waitv futex_wait robust_list \
		futex_requeue futex_ping
	dbg=/sys/kernel/debug
	grep -q " $dbg debugfs " /proc/mounts || mount -t debugfs none "$dbg"
	ff=$dbg/fail_futex
	if [ ! -d "$ff" ] || [ ! -w "$dbg/kmemleak" ]; then
		echo "failfutex: no $ff or $dbg/kmemleak (CONFIG_FAIL_FUTEX, CONFIG_DEBUG_KMEMLEAK, kmemleak=on)"
		report failfutex_injected fail
		kernel_log
		return
	fi
	cd "$dir/kselftest/futex/functional" || exit 2
	# The scans are ours: an automatic one in the middle of the stress
	# would only slow the TCG guest down. Objects that boot left
	# unreferenced are not this pass's leaks.
	echo scan=off >"$dbg/kmemleak"
	echo scan >"$dbg/kmemleak"
	echo clear >"$dbg/kmemleak"
	# One futex operation in ten fails, for the whole pass, quietly;
	# times counts down with every injected fault: the proof that faults
	# were injected at all.
	budget=1000000
	echo 10 >"$ff/probability"
	echo 1 >"$ff/interval"
	echo $budget >"$ff/times"
	echo 0 >"$ff/verbose"
	echo 0 >"$ff/space"
	echo N >"$ff/ignore-private"
	for t; do
		if [ ! -x "$t" ]; then
			report "$(name "failfutex_$t")" fail
			continue
		fi
		echo "=== BEGIN failfutex $t"
		# SIGKILL 5 s after SIGTERM: a program that ignores it must
		# not hold the job (tests/guest-failfutex.sh did the same).
		timeout -k 5 "$secs" "./$t" >"/tmp/$t.log" 2>&1
		rc=$?
		cat "/tmp/$t.log"
		echo "=== END failfutex $t exit $rc"
	done
	echo 0 >"$ff/probability"
	n=$((budget - $(cat "$ff/times")))
	if [ "$n" -gt 0 ]; then
		report failfutex_injected pass "$n" faults
	else
		report failfutex_injected fail "$n" faults
	fi
	# Give the programs' exits time to free what they held, then scan
	# twice: kmemleak reports an object only once it has stayed
	# unreferenced for a full scan after its minimum age (5 s).
	sleep 6
	echo scan >"$dbg/kmemleak"
	sleep 1
	echo scan >"$dbg/kmemleak"
	cat "$dbg/kmemleak" >/tmp/kmemleak.txt
	echo "=== BEGIN kmemleak"
	cat /tmp/kmemleak.txt
	echo "=== END kmemleak"
	if [ -s /tmp/kmemleak.txt ]; then
		report kmemleak_clean fail
	else
		report kmemleak_clean pass
	fi
	kernel_log
}

# value METRIC FILE: the figure of a perf bench futex run that make bench
# tabulates for METRIC (scripts/bench/bench-table.sh): ops (operations per
# second), ms (the last "in N ms"), us (mean time per wait).
value() {
	case $1 in
	ops) sed -n 's/^Averaged \([0-9]*\) operations\/sec.*/\1/p' "$2" ;;
	ms) sed -n 's/.* in \([0-9.]*\) ms.*/\1/p' "$2" | tail -n 1 ;;
	us) sed -n 's/^Mean time per wait: \([0-9.]*\) usecs.*/\1/p' "$2" ;;
	ns) sed -n 's/.* median \([0-9]*\) ns.*/\1/p' "$2" | head -n 1 ;;
	esac
}

# measure NAME METRIC UNITS CMD...: run CMD, print its output framed, and
# report its value for METRIC as a measurement in UNITS.
measure() {
	n=$1 metric=$2 units=$3
	shift 3
	echo "=== BEGIN bench $n"
	"$@" >/tmp/bench.out 2>&1
	rc=$?
	cat /tmp/bench.out
	echo "=== END bench $n exit $rc"
	v=$(value "$metric" /tmp/bench.out)
	if [ "$rc" -eq 0 ] && [ -n "$v" ]; then
		report "$(name "$n")" pass "$v" "$units"
	else
		report "$(name "$n")" fail
	fi
}

# The rows of make bench (bench/NN-topic.rows: "name | perf bench futex
# arguments | metrics"), each its own case NN_NAME with the row's first
# metric, and ping_bench with the RFC's two workloads for each lock kind,
# with the median latency.
bench() {
	perf=$dir/perf pb=$dir/ping_bench
	if [ -x "$perf" ]; then
		for rows in "$dir"/bench/*.rows; do
			[ -f "$rows" ] || continue
			series=$(basename "$rows" .rows)
			series=${series%%-*}
			grep -v -E '^[[:space:]]*(#|$)' "$rows" | while IFS='|' read -r row args metrics; do
				row=$(echo "$row" | sed 's/^ *//; s/ *$//')
				metric=$(echo "$metrics" | sed 's/^ *//; s/[ ,].*//')
				case $metric in
				ops) units=ops/s ;;
				ms) units=ms ;;
				us) units=us/wait ;;
				*) units=$metric ;;
				esac
				# shellcheck disable=SC2086 # the arguments, split
				measure "${series}_$row" "$metric" "$units" timeout "$limit" "$perf" bench futex $args
			done
		done
	fi
	if [ -x "$pb" ]; then
		for k in f m n N p; do
			measure "ping_bench_fair_$k" ns ns timeout "$limit" "$pb" -q -f "$k" -a -w 5000 -s 100 -t 8 -n 2000
			measure "ping_bench_rt_$k" ns ns timeout "$limit" "$pb" -q -f "$k" -t 4 -b 2 -r 1 -p -w 1000 -S 50 -n 2000
		done
	fi
}

case ${1:-} in
selftests)
	shift
	selftests "$@"
	;;
torture) torture "${2:?usage: futex-lava.sh torture SECONDS}" ;;
failfutex)
	shift
	: "${1:?usage: futex-lava.sh failfutex SECONDS [PROGRAM...]}"
	failfutex "$@"
	;;
bench) bench ;;
*)
	echo "usage: futex-lava.sh selftests [PROGRAM...]|torture SECONDS|failfutex SECONDS [PROGRAM...]|bench" >&2
	exit 2
	;;
esac
