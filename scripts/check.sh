#!/usr/bin/env bash
# check.sh: "make check". Sets up the host, runs the workbench's own tests,
# applies patches/ on the base, runs checkpatch --strict on every patch,
# builds the debug kernel at every patch in order (and the selftests or perf
# where a patch touches them), then boots the debug kernel with
# panic_on_warn=1 and runs every futex selftest, once with
# sched_proxy_exec=1 and once with =0, failing on any kernel splat.
# Ends with "N passed, N failed, N skipped".
# shellcheck disable=SC2317 # functions called through step and trap
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

t_start=$(date +%s)
out=$WORK/check
src=$WORK/src-check
build=$WORK/build-debug
tools=$WORK/tools-debug
rm -rf "$out"
mkdir -p "$out"
tally=$out/tally

record() { # record PASS|FAIL|SKIP NAME [DETAIL]
	printf '%s %s\n' "$1" "$2" >>"$tally"
	printf '  %-4s %s%s\n' "$1" "$2" "${3:+ ($3)}"
}

finish() {
	local p f s
	p=$(grep -c '^PASS ' "$tally" 2>/dev/null || true)
	f=$(grep -c '^FAIL ' "$tally" 2>/dev/null || true)
	s=$(grep -c '^SKIP ' "$tally" 2>/dev/null || true)
	if [ -n "${1:-}" ]; then
		f=$((f + 1))
		printf 'ERROR: %s\n' "$1" >&2
	fi
	printf '\nmake check: %ss\n' "$(($(date +%s) - t_start))"
	grep '^FAIL ' "$tally" 2>/dev/null | sed 's/^/  /' || true
	printf '%d passed, %d failed, %d skipped\n' "$p" "$f" "$s"
	[ "$f" -eq 0 ]
	exit
}
trap 'finish "interrupted"' INT TERM
touch "$tally"

step "host set-up" "$TOP/scripts/setup.sh" || finish "host set-up failed"

workbench() {
	local l
	"$TOP/tests/workbench.sh" >"$out/workbench.log" 2>&1
	while IFS= read -r l; do
		case $l in
		PASS*) record PASS "workbench: ${l#PASS }" ;;
		FAIL*) record FAIL "workbench: ${l#FAIL }" ;;
		esac
	done <"$out/workbench.log"
	grep -A15 '^FAIL' "$out/workbench.log" | grep -v '^PASS' | head -n 40 >&2 || true
	return 0
}
step "workbench tests" workbench

apply_queue() {
	"$TOP/scripts/queue.sh" "$src" >"$out/queue.txt"
}
step "apply patches/ on the base" apply_queue ||
	finish "patches/ do not apply on $BASE_TAG"
mapfile -t commits <"$out/queue.txt"
printf '  %d patches\n' "${#commits[@]}"

# FILE_PATH_CHANGES ("does MAINTAINERS need updating?") fires for every new
# file; instead, every file a patch adds must have a maintainer entry.
checkpatch() {
	local c p r f m
	for c in "${commits[@]}"; do
		p=$PATCHES/${c#* }
		# /usr/bin first: spdxcheck.py needs python3-ply from Debian.
		r=$(cd "$src" && PATH=/usr/bin:$PATH ./scripts/checkpatch.pl --strict --terse --no-summary \
			--ignore FILE_PATH_CHANGES "$p" 2>&1)
		for f in $(git -C "$src" diff --name-only --diff-filter=A "${c%% *}^" "${c%% *}"); do
			m=$(cd "$src" && ./scripts/get_maintainer.pl --no-git --no-git-fallback -f "$f" 2>&1)
			case $m in
			*"(maintainer:"*) ;;
			*) r="$r${r:+
}$f: no MAINTAINERS entry covers this new file" ;;
			esac
		done
		if [ -z "$r" ]; then
			record PASS "checkpatch --strict: ${c#* }"
		else
			record FAIL "checkpatch --strict: ${c#* }"
			printf '%s\n' "$r" | head -n 10 | sed 's/^/       /'
		fi
	done
}
[ ${#commits[@]} -eq 0 ] || step "checkpatch --strict" checkpatch

# Bisectability: the kernel builds at every patch, and so do the selftests
# and perf at the patches that change them. The last build is the tip.
build_each() {
	local c name files
	if [ ${#commits[@]} -eq 0 ]; then
		"$TOP/scripts/build-kernel.sh" debug "$src" "$build" >/dev/null ||
			{ record FAIL "build: $BASE_TAG"; return 1; }
		record PASS "build: $BASE_TAG"
		return 0
	fi
	for c in "${commits[@]}"; do
		name=${c#* }
		git -C "$src" checkout -q --detach "${c%% *}"
		files=$(git -C "$src" diff --name-only "${c%% *}^" "${c%% *}")
		if ! "$TOP/scripts/build-kernel.sh" debug "$src" "$build" >/dev/null; then
			record FAIL "build: $name" "kernel, log: $build/build.log"
			return 1
		fi
		if grep -q '^tools/testing/selftests/futex/' <<<"$files" &&
			! "$TOP/scripts/build-tools.sh" "$src" "$tools" selftests; then
			record FAIL "build: $name" "selftests"
			return 1
		fi
		if grep -q -E '^tools/(perf|include)/' <<<"$files" &&
			! "$TOP/scripts/build-tools.sh" "$src" "$tools" perf; then
			record FAIL "build: $name" "perf"
			return 1
		fi
		record PASS "build: $name"
	done
}
step "build the debug kernel at every patch" build_each ||
	finish "a patch does not build"
step "build the futex selftests" "$TOP/scripts/build-tools.sh" "$src" "$tools" selftests ||
	finish "the futex selftests do not build"
kernel=$build/arch/x86/boot/bzImage

# The guest runner must turn a hung guest and a panicking guest into
# failures, not hangs or green runs.
vm_failures() {
	if "$TOP/scripts/vm.sh" -t 60 "$kernel" "$out/vm-hang.log" -- sleep 600 \
		2>"$out/vm-hang.err" || ! grep -q 'did not finish within 60s' "$out/vm-hang.err"; then
		record FAIL "workbench: hung guest is reported"
		cat "$out/vm-hang.err" >&2
	else
		record PASS "workbench: hung guest is reported"
	fi
	if "$TOP/scripts/vm.sh" -t 300 "$kernel" "$out/vm-panic.log" -- \
		sh -c 'echo c >/proc/sysrq-trigger; sleep 60' 2>"$out/vm-panic.err" ||
		! grep -q 'guest kernel panicked' "$out/vm-panic.err"; then
		record FAIL "workbench: guest panic is reported"
		cat "$out/vm-panic.err" >&2
	else
		record PASS "workbench: guest panic is reported"
	fi
}
step "guest failure detection" vm_failures

# The kernel log must hold no warning, bug, lockdep or KASAN report.
# Lockdep's reports start with WARNING: or INFO: as well.
splats='(WARNING:|BUG:|INFO: |general protection fault|Oops|KASAN|UBSAN|Kernel panic|DEBUG_LOCKS_WARN_ON|turning off the locking correctness validator)'

selftests() {
	# The guest writes only under $WORK/guest and $RESULTS.
	local pe=$1 log=$out/selftests-pe$1.log res=$WORK/guest/check-pe$1 bad
	rm -rf "$res"
	"$TOP/scripts/vm.sh" -t "${SELFTEST_TIMEOUT:-1200}" -a "sched_proxy_exec=$pe" \
		-a panic_on_warn=1 "$kernel" "$log" -- \
		"$TOP/tests/guest-selftests.sh" "$tools/kselftest" "$res" >"$out/vm-pe$pe.out" 2>&1
	tr -d '\r' <"$log" | grep -a -E '^(PASS|FAIL|SKIP) ' | while read -r r t _; do
		record "$r" "selftest $t (sched_proxy_exec=$pe)"
	done
	grep -a -E '^ +(exit|not ok|#)' "$log" | head -n 20 >&2 || true
	if ! grep -a -q '^guest: .* passed' "$log"; then
		record FAIL "selftests (sched_proxy_exec=$pe) finished" "$(grep ERROR "$out/vm-pe$pe.out" | head -n 1)"
		tail -n 5 "$out/vm-pe$pe.out" >&2
	fi
	bad=$(cat "$log" "$res/dmesg.txt" 2>/dev/null | grep -a -E "$splats" | head -n 20 || true)
	if [ -n "$bad" ]; then
		record FAIL "kernel log clean (sched_proxy_exec=$pe)" "$log"
		printf '%s\n' "$bad" >&2
	else
		record PASS "kernel log clean (sched_proxy_exec=$pe)"
	fi
}
step "futex selftests, sched_proxy_exec=1" selftests 1
step "futex selftests, sched_proxy_exec=0" selftests 0

finish
