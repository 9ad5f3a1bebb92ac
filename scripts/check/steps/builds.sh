# shellcheck shell=bash
# builds.sh: what make check's guests boot and run: the debug kernel of
# the tip, the futex selftests (x86_64, i386, static), ping_bench and
# pingmutex.
# shellcheck disable=SC2154 # out, tally, src, tools...: set by scripts/check/check.sh

build_tip() {
	if ! "$TOP/scripts/build/build-kernel.sh" debug "$src" "$build" >/dev/null; then
		record FAIL "build: debug kernel" "log: $build/build.log"
		return 1
	fi
	record PASS "build: debug kernel"
}

build_tools() {
	"$TOP/scripts/build/build-tools.sh" "$src" "$tools" selftests selftests32 ping_bench pingmutex
	# The LAVA job's ramdisk has no C library.
	STATIC=1 "$TOP/scripts/build/build-tools.sh" "$src" "$static_tools" selftests
}

# has_selftests, has_selftests32: in the runner's shell (the table's
# "sh"), after the builds: the selftests the boots run are there.
has_selftests() {
	[ -n "$(ls -A "$tdir" 2>/dev/null)" ]
}
has_selftests32() {
	[ -n "$(ls -A "$tdir32" 2>/dev/null)" ]
}
