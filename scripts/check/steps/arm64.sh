# shellcheck shell=bash
# arm64.sh: make check-arm64's step.
# shellcheck disable=SC2154 # out, tally, src, tools...: set by scripts/check/check.sh

# arm64: the tip cross-built as the debug kernel (Debian's
# gcc-aarch64-linux-gnu; configs/debug-arm64.config in place of the x86
# part: no KASAN), booted in an emulated arm64 machine (virtme-ng,
# qemu-system-aarch64 -M virt -cpu cortex-a57, TCG) on a Debian arm64
# root (scripts/guest/arm64-root.sh), runs every futex selftest and the
# ping_bench smoke run, judged as on x86_64. cortex-a57 has no LSE
# atomics, so the kernel's futex cmpxchg is the LL/SC loop, whose
# -EAGAIN x86 never returns. TCG runs the guest's CPUs one instruction
# block at a time with sequentially consistent host atomics: it does
# not reorder memory as arm64 hardware may, so a missing barrier passes
# here (README).
arm64_tests() {
	local kbuild=$WORK/build-arm64-debug atools=$WORK/tools-arm64 log=$out/arm64.log
	local res=$WORK/guest/check-arm64 cmd
	if ! ARCH=arm64 "$TOP/scripts/build/build-kernel.sh" debug "$src" "$kbuild" >/dev/null; then
		record FAIL "build: arm64 debug kernel" "log: $kbuild/build.log"
		return 1
	fi
	record PASS "build: arm64 debug kernel"
	if ! ARCH=arm64 "$TOP/scripts/build/build-tools.sh" "$src" "$atools" selftests ping_bench; then
		record FAIL "build: arm64 futex selftests and ping_bench"
		return 1
	fi
	record PASS "build: arm64 futex selftests and ping_bench"
	rm -rf "$res"
	cmd=$(printf '%q ' "$TOP/tests/guest-selftests.sh" "$atools/kselftest/futex/functional" "$res")
	[ ! -x "$atools/ping_bench" ] ||
		cmd="$cmd; $(printf '%q ' "$TOP/tests/guest-ping-bench.sh" "$atools/ping_bench" "$res")"
	ARCH=arm64 guest_run "arm64 selftests, sched_proxy_exec=1" "$log" -t "${SELFTEST_TIMEOUT:-1800}" \
		-r "$TOP/tests" -r "$atools" -a sched_proxy_exec=1 -a panic_on_warn=1 -a kmemleak=off \
		"$kbuild/arch/arm64/boot/Image" "$log" -- bash -c "$cmd"
	cat "$skips" "$TOP/tests/selftests-arm64.skips" >"$out/selftests-arm64.skips"
	{
		selftest_verdict "$res" "$expected" "$out/selftests-arm64.skips"
		[ ! -x "$atools/ping_bench" ] || ping_bench_verdict "$res/ping_bench.log"
		splat_scan "arm64" "$log" "$res/dmesg.txt"
	} | record_lines " (arm64)"
}
