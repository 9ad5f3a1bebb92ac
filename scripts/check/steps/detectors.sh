# shellcheck shell=bash
# detectors.sh: the boots that plant faults, which the verdict functions
# must judge red.
# shellcheck disable=SC2154 # out, tally, src, tools...: set by scripts/check/check.sh

# The detectors are trusted only once seen to fire: a hung guest, and two
# boots with planted faults whose evidence the same verdict functions as
# the real runs must judge red, each for its own reason, and which end in
# a panic that vm.sh must report as one. futex_wait_timeout runs
# unchanged and must stay green.
# expect_red VERDICT_FILE WHAT REGEX: the planted fault WHAT was judged
# red: a line of VERDICT_FILE matches REGEX.
expect_red() {
	if grep -q -E "$3" "$1"; then
		record PASS "detector fires: $2"
	else
		record FAIL "detector fires: $2" "no '$3' in $1"
	fi
}
hung_guest() {
	# Fires while the guest still boots or once it sleeps: the same
	# timeout ends both.
	if "$TOP/scripts/guest/vm.sh" -t 30 -a kmemleak=off "$kernel" "$out/vm-hang.log" -- sleep 600 \
		2>"$out/vm-hang.err" || ! grep -q 'did not finish within 30s' "$out/vm-hang.err"; then
		record FAIL "detector fires: hung guest"
		cat "$out/vm-hang.err" >&2
	else
		record PASS "detector fires: hung guest"
	fi
}
# The planted-fault boot: the guest leaves the same evidence as a real
# run, and the verdict functions must judge it red. The same boot
# tortures locktorture's lock_busted, a "lock" that excludes nobody,
# which locktorture_verdict must judge red, and ends with a panic
# (sysrq c).
planted() {
	local res=$WORK/guest/check-planted v
	rm -rf "$res"
	if "$TOP/scripts/guest/vm.sh" -t 1200 -a kmemleak=off -a locktorture.torture_type=lock_busted \
		-a locktorture.stat_interval=5 -a locktorture.nwriters_stress=2 "$kernel" "$out/planted.log" -- \
		"$TOP/tests/guest-planted.sh" "$tdir" "$res" >"$out/planted.out" 2>&1 ||
		! grep -q 'guest kernel panicked' "$out/planted.out"; then
		record FAIL "detector fires: guest panic"
		tail -n 5 "$out/planted.out" >&2
	else
		record PASS "detector fires: guest panic"
	fi
	v=$(
		selftest_verdict "$res" <(grep -E '^(futex_wait_timeout|futex_requeue|futex_wait_wouldblock) ' "$expected") /dev/null
		splat_scan planted "$res/dmesg.txt"
		locktorture_verdict lock_busted "$res/torture-dmesg.txt"
	)
	printf '%s\n' "$v" >"$out/planted.verdict"
	v=$out/planted.verdict
	expect_red "$v" "a failing selftest case" '^FAIL selftest futex_requeue: global.requeue_multiple$'
	expect_red "$v" "a missing selftest" '^FAIL selftest futex_wait_wouldblock: did not run$'
	expect_red "$v" "a kernel WARNING" '^FAIL kernel log clean \(planted\): WARNING: '
	expect_red "$v" "a lockdep report" '^FAIL kernel log clean \(planted\): lockdep: '
	expect_red "$v" "a hung task" '^FAIL kernel log clean \(planted\): hung task: '
	expect_red "$v" "locktorture of a broken lock" '^FAIL locktorture lock_busted: mutual exclusion broken'
	expect_red "$v" "a passing selftest stays green" '^PASS selftest futex_wait_timeout: global.wait_bitset$'
	if grep -q -E '^FAIL selftest futex_wait_timeout' "$v"; then
		record FAIL "detector fires: only on the planted faults" "$(grep -m 1 '^FAIL selftest futex_wait_timeout' "$v")"
	fi
}
# The second planted-fault boot: the reports that taint the kernel (which
# turns lockdep off, so they cannot come before the first boot's lockdep
# plant, nor after it: its spinlock held leaves that CPU atomic). Beside
# the first boot, after the hung guest, which takes a fraction of its time.
planted_oops() {
	local res=$WORK/guest/check-planted-oops v=$out/planted-oops.verdict
	rm -rf "$res"
	# Its own panic, at its end: not one of an oops plant (oops=panic).
	if "$TOP/scripts/guest/vm.sh" -t 600 -a kmemleak=off "$kernel" "$out/planted-oops.log" -- \
		"$TOP/tests/guest-planted-oops.sh" "$res" >"$out/planted-oops.out" 2>&1 ||
		! grep -q 'guest kernel panicked' "$out/planted-oops.out" || [ ! -e "$res/done" ] ||
		! grep -a -q 'Kernel panic - not syncing: sysrq triggered crash' "$out/planted-oops.log"; then
		record FAIL "guest run: planted oopses" "the boot did not end in its own panic (sysrq c)"
		tail -n 5 "$out/planted-oops.out" >&2
	else
		record PASS "guest run: planted oopses"
	fi
	splat_scan "planted oops" "$res/dmesg.txt" >"$v"
	expect_red "$v" "a KASAN report" '^FAIL kernel log clean \(planted oops\): KASAN: BUG: KASAN: slab-use-after-free'
	expect_red "$v" "an oops (BUG())" '^FAIL kernel log clean \(planted oops\): oops: kernel BUG at '
	expect_red "$v" "a soft lockup" '^FAIL kernel log clean \(planted oops\): soft lockup: '
	expect_red "$v" "an RCU stall" '^FAIL kernel log clean \(planted oops\): RCU stall: '
}
hung_then_oops() {
	hung_guest
	planted_oops
}
