# shellcheck shell=bash
# boots.sh: the boots of the debug kernel that run the futex selftests,
# ping_bench, pingmutex, ping_fuzz, locktorture and fault injection; and
# guest_run, which every virtme-ng boot of a step goes through.
# shellcheck disable=SC2154 # out, tally, src, tools...: set by scripts/check/check.sh

# guest_run NAME LOG VM_ARGS... -- CMD...: boot the debug kernel and run
# CMD; a time-out, a panic or a guest that ends early is a failure, named
# with vm.sh's one-line reason.
# kmemleak is built in but switched off at boot (kmemleak=off) except in
# the fault-injection boot: its tracking and its scans of guest memory
# slow a TCG guest down by minutes.
guest_run() {
	local name=$1 log=$2 rc=0
	shift 2
	"$TOP/scripts/guest/vm.sh" "$@" >"$log.out" 2>&1 || rc=$?
	if [ "$rc" -ne 0 ]; then
		record FAIL "guest run: $name" "$(grep -m 1 '^ERROR' "$log.out" || echo "vm.sh exit $rc")"
		tail -n 25 "$log.out" >&2
		return 0
	fi
	record PASS "guest run: $name"
}


# The futex selftests with Proxy Execution, every case judged from its
# KTAP output; then a smoke run of ping_bench, the i386 build of the
# selftests, through the compat entry (FUTEX_SET_WAIT's val2 in a 32-bit
# uaddr2 slot, the PING ops, compat robust lists, 32-bit time), and
# pthread mutexes on PING: libpingmutex's tests and unmodified Debian
# programs on it (tests/guest-peers.sh, judged against tests/peers.expected);
# last, ping_fuzz (fuzz_check).
selftests_pe1() {
	local log=$out/selftests-pe1.log res=$WORK/guest/check-pe1 cmd
	rm -rf "$res"
	cmd=$(printf '%q ' "$TOP/tests/guest-selftests.sh" "$tdir" "$res")
	[ ! -x "$tools/ping_bench" ] ||
		cmd="$cmd; $(printf '%q ' "$TOP/tests/guest-ping-bench.sh" "$tools/ping_bench" "$res")"
	cmd="$cmd; $(printf '%q ' "$TOP/tests/guest-selftests.sh" "$tdir32" "$res/i386")"
	cmd="$cmd; $(printf '%q ' "$TOP/tests/guest-peers.sh" "$tools/pingmutex" "$res/peers")"
	[ ! -x "$tools/ping_fuzz" ] ||
		cmd="$cmd; $(printf '%q ' "$TOP/tests/guest-fuzz.sh" "$tools/ping_fuzz" "$res/fuzz" "$fuzz_secs" "${fuzz_args[@]}")"
	guest_run "selftests, sched_proxy_exec=1" "$log" -t "${SELFTEST_TIMEOUT:-1800}" \
		-a sched_proxy_exec=1 -a panic_on_warn=1 -a kmemleak=off "$kernel" "$log" -- \
		bash -c "$cmd"
	{
		selftest_verdict "$res" "$expected" "$skips"
		if [ -x "$tools/ping_bench" ]; then
			ping_bench_verdict "$res/ping_bench.log"
		else
			printf 'SKIP ping_bench smoke: not in this queue (no tools/testing/futex)\n'
		fi
		splat_scan "sched_proxy_exec=1" "$log" "$res/dmesg.txt"
	} | record_lines " (sched_proxy_exec=1)"
	cat "$skips" "$TOP/tests/selftests-i386.skips" >"$out/selftests-i386.skips"
	{
		selftest_verdict "$res/i386" "$expected" "$out/selftests-i386.skips"
		splat_scan "i386, sched_proxy_exec=1" "$res/i386/dmesg.txt"
	} | record_lines " (i386, sched_proxy_exec=1)"
	{
		selftest_verdict "$res/peers" "$TOP/tests/peers.expected" /dev/null
		splat_scan "pingmutex, sched_proxy_exec=1" "$res/peers/dmesg.txt"
	} | record_lines " (pingmutex, sched_proxy_exec=1)"
	fuzz_check "$res/fuzz" "sched_proxy_exec=1"
}

# ping_fuzz (tools/testing/futex, series 06) for FUZZ_SECONDS at the end
# of a boot of the debug kernel: it must end by its deadline with exit
# status 0 (its seed, printed, replays its decisions: ping_fuzz -s SEED),
# and the kernel log must stay clean. A queue without it says so.
fuzz_check() { # fuzz_check DIR LABEL
	if [ ! -x "$tools/ping_fuzz" ]; then
		record SKIP "ping_fuzz: not in this queue (no tools/testing/futex/ping_fuzz.c)"
		return
	fi
	{
		fuzz_verdict "$1"
		splat_scan "ping_fuzz, $2" "$1/dmesg.txt"
	} | record_lines " ($2)"
}

# lava_boot NAME DIR VAR=VALUE...: the x86_64 LAVA job of lava/ that the
# variables make (LAVA_PROXY_EXEC, LAVA_CPUS, LAVA_PROGRAMS, LAVA_TORTURE:
# scripts/lab/lava.sh) under lava-run on this kernel and the static
# selftests, in DIR: its log DIR/run/job.log, its results
# DIR/results/results.tsv, the guest's console DIR/results/console-job.txt.
# A boot from the LAVA ramdisk (busybox) takes a fraction of a virtme-ng
# boot of the host's root, whose init spends minutes in a KASAN guest.
lava_boot() {
	local name=$1 d=$2
	shift 2
	mkdir -p "$d"
	if ! env "$@" LAVA_RUN_TIMEOUT="${SELFTEST_TIMEOUT:-1800}" "$TOP/scripts/lab/lava.sh" check "$kernel" \
		"$static_tools" "$d" >"$d/lava.out" 2>&1; then
		record FAIL "lava-run: $name" "$(grep -m 1 '^  lava-run: [0-9]' "$d/lava.out" | sed 's/^ *lava-run: //'), log: $d/run/job.log"
		# The guest's last words, where a boot that never reached its
		# prompt shows why.
		tail -n 15 "$d/results/console-job.txt" >&2 2>/dev/null || true
	else
		record PASS "lava-run: $name"
	fi
	# A boot that LAVA tried again (failure_retry): said, with why, here
	# and in the summary.
	[ -f "$d/run/job.log" ] || return 0
	sed -n 's/.*"lvl": "error", "msg": "\(boot-[a-z-]*retry failed: [0-9]* of [0-9]* attempts[^"]*\)".*/\1/p' \
		"$d/run/job.log" | while IFS= read -r why; do
		printf '  NOTE %s: %s\n' "$name" "$why"
		printf 'LAVA tried a boot again, %s: %s\n' "$name" "$why" >>"$out/notes"
	done
}

# The futex selftests without Proxy Execution, as the x86_64 debug job of
# lava/ run end to end under lava-run (Debian's lava-dispatcher) on a
# local QEMU device, on this kernel, with a ramdisk of the statically
# linked selftests: every case a LAVA result, judged against the same
# list (the priority inheritance cases and the donor wake may skip
# without Proxy Execution: tests/selftests-pe0.skips), and the guest's
# console scanned as every other boot's log.
selftests_pe0_lava() {
	local d=$out/lava allowed=$out/selftests-pe0.skips
	cat "$skips" "$TOP/tests/selftests-pe0.skips" >"$allowed"
	lava_boot "x86_64 debug job, sched_proxy_exec=0" "$d" LAVA_PROXY_EXEC=0
	{
		lava_verdict "$d/results/results.tsv" "$d/run/job.log" "$expected" "$allowed" \
			"$d/results/console-job.txt"
		splat_scan "LAVA" "$d/results/console-job.txt"
	} | record_lines " (LAVA, sched_proxy_exec=0)"
}
# locktorture's mutex and ww_mutex torture with Proxy Execution on: series
# 05 changes how task_struct::blocked_on names a mutex, and mutexes must
# work as before. A broken lock turns this red (planted()). Each torture
# runs from boot for LOCKTORTURE_SECONDS in a guest of its own (its
# writers starve anything beside them on two vCPUs), the LAVA torture
# job, whose ramdisk boots in seconds.
torture() { # torture TYPE
	local t=$1 d=$out/locktorture-$1
	lava_boot "locktorture $t" "$d" LAVA_TORTURE="$t" LAVA_TORTURE_SECONDS="${LOCKTORTURE_SECONDS:-60}"
	{
		if grep -q -P '\tlocktorture\tpass\t' "$d/results/results.tsv" 2>/dev/null; then
			printf 'PASS lava locktorture %s\n' "$t"
		else
			printf 'FAIL lava locktorture %s: no pass result (%s)\n' "$t" "$d/results/results.tsv"
		fi
		locktorture_verdict "$t" "$d/results/console-job.txt"
		splat_scan "locktorture $t" "$d/results/console-job.txt"
	} | record_lines ""
}

# futex_priv_hash checks the automatic growth of the private hash, which
# happens only with more than 16 CPUs: a 17-vCPU TCG guest has them on
# this 2-CPU host (the LAVA debug job with only this program). Skipping
# is not allowed here.
priv_hash() {
	local d=$out/priv-hash
	lava_boot "futex_priv_hash, 17 vCPUs" "$d" LAVA_CPUS=17 LAVA_PROGRAMS=futex_priv_hash
	{
		lava_verdict "$d/results/results.tsv" "$d/run/job.log" <(grep '^futex_priv_hash ' "$expected") /dev/null \
			"$d/results/console-job.txt"
		splat_scan "17 vCPUs" "$d/results/console-job.txt"
	} | record_lines " (17 vCPUs)"
}

# fail_futex: faults injected under stress, as the fault-injection job of
# lava/ (futex-lava.sh failfutex: nine stress programs of at most
# FAILFUTEX_SECONDS each). The programs' own verdicts do not count; the
# kernel's do: no report, no leak (kmemleak), no hang, and faults must
# really have been injected. The ramdisk boots in a minute where a
# virtme-ng boot of the host's root with kmemleak on took six.
failfutex() {
	local d=$out/failfutex
	lava_boot "fault injection" "$d" LAVA_FAILFUTEX="${FAILFUTEX_SECONDS:-30}"
	{
		failfutex_verdict "$d/results"
		splat_scan "fault injection" "$d/results/console-job.txt"
	} | record_lines ""
}
# pthread mutexes on PING without Proxy Execution: libpingmutex's tests
# and the programs run on it, as in selftests_pe1.
peers_pe0() {
	local log=$out/peers-pe0.log res=$WORK/guest/check-peers-pe0 cmd
	rm -rf "$res"
	cmd=$(printf '%q ' "$TOP/tests/guest-peers.sh" "$tools/pingmutex" "$res")
	[ ! -x "$tools/ping_fuzz" ] ||
		cmd="$cmd; $(printf '%q ' "$TOP/tests/guest-fuzz.sh" "$tools/ping_fuzz" "$res/fuzz" "$fuzz_secs" "${fuzz_args[@]}")"
	guest_run "pingmutex and ping_fuzz, sched_proxy_exec=0" "$log" -t "${SELFTEST_TIMEOUT:-1800}" \
		-a sched_proxy_exec=0 -a panic_on_warn=1 -a kmemleak=off "$kernel" "$log" -- \
		bash -c "$cmd"
	{
		selftest_verdict "$res" "$TOP/tests/peers.expected" /dev/null
		splat_scan "pingmutex, sched_proxy_exec=0" "$log" "$res/dmesg.txt"
	} | record_lines " (pingmutex, sched_proxy_exec=0)"
	fuzz_check "$res/fuzz" "sched_proxy_exec=0"
}
# The LAVA jobs, one after the other (one lava-run at a time), beside the
# virtme-ng boots of the host's root (the selftests with Proxy Execution,
# pingmutex and ping_fuzz without): their busybox ramdisk boots in a
# minute.
lava_jobs() {
	# Each a step of its own: one that crashes is a "FAIL step:" line
	# and the jobs after it still run.
	check_step "futex selftests, sched_proxy_exec=0 (the LAVA debug job)" selftests_pe0_lava
	check_step "locktorture mutex_lock (LAVA)" torture mutex_lock
	check_step "locktorture ww_mutex_lock (LAVA)" torture ww_mutex_lock
	check_step "futex_priv_hash with 17 vCPUs (LAVA)" priv_hash
	check_step "futex stress under fault injection (LAVA)" failfutex
}
