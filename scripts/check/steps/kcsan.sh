# shellcheck shell=bash
# kcsan.sh: make check-kcsan's steps.
# shellcheck disable=SC2154 # out, tally, src, tools...: set by scripts/check/check.sh

# KCSAN (make check-kcsan): the tip built as configs/kcsan.config (the
# data-race detector in place of KASAN, which it excludes; lockdep kept),
# booted twice side by side: every futex selftest, the ping_bench smoke
# run, then ping_fuzz for FUZZ_SECONDS, with sched_proxy_exec=1; ping_fuzz
# alone with =0. Once booted, KCSAN watches one access in
# KCSAN_SKIP_WATCH (100) instead of its default 4000: PING's lockless
# code runs a few thousand times in a TCG guest's minute, too few for a
# watch one in 4000 to land there (docs/ping-fuzz.md); so dense a watch
# from boot on slowed the boot until the hung-task detector fired. KCSAN's
# own boot-time selftest must pass. A KCSAN report with an access on a
# line the queue adds or changes fails (scripts/check/kcsan-verdict.sh); one
# elsewhere is listed (NOTE, and in the summary) and does not; every
# other kernel report fails as in make check.
kcsan_boot() { # kcsan_boot PE
	local pe=$1 log=$out/kcsan-pe$1.log res=$WORK/guest/check-kcsan-pe$1 cmd
	rm -rf "$res"
	cmd="echo ${KCSAN_SKIP_WATCH:-100} >/sys/module/kcsan/parameters/skip_watch; "
	[ "$pe" = 0 ] ||
		cmd="$cmd$(printf '%q ' "$TOP/tests/guest-selftests.sh" "$tdir" "$res"); "
	[ "$pe" = 0 ] || [ ! -x "$tools/ping_bench" ] ||
		cmd="$cmd$(printf '%q ' "$TOP/tests/guest-ping-bench.sh" "$tools/ping_bench" "$res"); "
	cmd="$cmd$(printf '%q ' "$TOP/tests/guest-fuzz.sh" "$tools/ping_fuzz" "$res/fuzz" "$fuzz_secs" "${fuzz_args[@]}")"
	# KCSAN's counters (watchpoints set up, races seen), for the record.
	cmd="$cmd; mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug"
	cmd="$cmd; cat /sys/kernel/debug/kcsan >$(printf '%q' "$res/kcsan-counters.txt")"
	# Without panic_on_warn: KCSAN panics on its first report with it,
	# even one in code the queue does not touch (a maple tree race ended
	# the first boot with CONFIG_KCSAN_REPORT_VALUE_CHANGE_ONLY=n). Any
	# WARNING still fails the run (splat_scan below).
	guest_run "KCSAN, sched_proxy_exec=$pe" "$log" -t "${SELFTEST_TIMEOUT:-1800}" \
		-a sched_proxy_exec="$pe" "$kbuild/arch/x86/boot/bzImage" "$log" -- \
		bash -c "$cmd"
	# The kernel log without the KCSAN reports, for the other classes: a
	# report runs from the line of = before "BUG: KCSAN:" to the line of =
	# after "Reported by Kernel Concurrency Sanitizer".
	awk '/BUG: KCSAN: / { skip = 1; held = ""; next }
		skip == 1 { if (/Reported by Kernel Concurrency Sanitizer/) skip = 2; next }
		skip == 2 { if (/====================/) skip = 0; next }
		held != "" { print held; held = "" }
		/====================/ { held = $0; next }
		{ print }
		END { if (held != "") print held }' "$log" >"$log.other"
	{
		[ "$pe" = 0 ] || selftest_verdict "$res" "$expected" "$skips"
		[ "$pe" = 0 ] || [ ! -x "$tools/ping_bench" ] || ping_bench_verdict "$res/ping_bench.log"
		fuzz_verdict "$res/fuzz"
		if grep -q 'kcsan: selftest: [0-9]*/[0-9]* tests passed' "$log" &&
			! grep -q 'kcsan: selftest: .*FAIL' "$log"; then
			echo "PASS KCSAN boot selftest"
		else
			echo "FAIL KCSAN boot selftest: $(grep -m 1 'kcsan: selftest' "$log" || echo 'no result in the log')"
		fi
		splat_scan "KCSAN, sched_proxy_exec=$pe" "$log.other"
		"$TOP/scripts/check/kcsan-verdict.sh" "$log" "$kbuild/vmlinux" "$src" "$BASE_TAG" HEAD
	} >"$out/kcsan-pe$pe.verdict"
	record_lines " (KCSAN, sched_proxy_exec=$pe)" <"$out/kcsan-pe$pe.verdict"
	sed -n "s/^NOTE /  NOTE /p" "$out/kcsan-pe$pe.verdict"
	sed -n "s/^NOTE \(.*\)/\1 (sched_proxy_exec=$pe)/p" "$out/kcsan-pe$pe.verdict" >>"$out/notes"
}
kcsan_build() {
	if ! "$TOP/scripts/build/build-kernel.sh" kcsan "$src" "$kbuild" >/dev/null; then
		record FAIL "build: KCSAN kernel" "log: $kbuild/build.log"
		return 1
	fi
	record PASS "build: KCSAN kernel"
	if ! "$TOP/scripts/build/build-tools.sh" "$src" "$tools" selftests ping_bench >"$out/tools.log" 2>&1; then
		record FAIL "build: futex selftests and ping_fuzz" "log: $out/tools.log"
		return 1
	fi
	record PASS "build: futex selftests and ping_fuzz"
}
kcsan_pe1() { kcsan_boot 1; }
kcsan_pe0() { kcsan_boot 0; }
