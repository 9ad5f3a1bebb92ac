#!/usr/bin/env bash
# check.sh: "make check". Sets up the host, runs the workbench's own tests
# and the model of the PING word protocol, applies patches/ on the base,
# runs checkpatch --strict on every patch, builds every patch in order as
# the small bisect kernel (and the selftests or perf, warnings as errors,
# where a patch touches them; in the background, reported at the end),
# builds the tip as the debug kernel, then boots the debug kernel:
#   - as a hung and as a panicking guest, and with planted faults (a
#     failing and a missing selftest, a WARNING, a lockdep report), to
#     see each detected, for its own reason;
#   - with panic_on_warn=1 for every futex selftest, once with
#     sched_proxy_exec=1 and once with =0, judged from their KTAP output
#     against tests/selftests.expected and tests/selftests.skips; the
#     first boot also runs ping_bench and the i386 build of the
#     selftests (the compat entry);
#   - with 20 vCPUs for futex_priv_hash, which needs more than 16 CPUs;
#   - with fail_futex injecting faults under futex stress programs, which
#     may fail, while the kernel must not warn, leak or hang;
#   - under lava-run, as the x86_64 debug job of lava/ (every LAVA job is
#     first checked against lava-common's schema);
#   - cross-built for arm64 and booted in an emulated arm64 machine for
#     the futex selftests and ping_bench (CHECK_ARM64_ONLY=1, make
#     check-arm64, runs only that).
# Any failed or missing test case, unexplained skip, guest time-out, panic
# or kernel report fails it. Ends with "N passed, N failed, N skipped".
# CHECK_PLANTED_ONLY=1 (make check-planted) builds the tip only and runs
# only the detector boots; CHECK_TIP_ONLY=1 builds the tip only (no
# bisect kernel) and runs everything else (for a quick run while
# developing; what CI runs builds every patch).
# shellcheck disable=SC2317 # functions called through step and trap
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=scripts/verdict.sh
. "$TOP/scripts/verdict.sh"

t_start=$(date +%s)
planted_only=${CHECK_PLANTED_ONLY:-}
lock_workbench
out=$WORK/check
src=$WORK/src-check
build=$WORK/build-debug
bisect=$WORK/build-bisect
bisect_src=$WORK/src-bisect
bisect_tools=$WORK/tools-bisect
tools=$WORK/tools-debug
expected=$TOP/tests/selftests.expected
skips=$TOP/tests/selftests.skips
rm -rf "$out"
mkdir -p "$out"
tally=$out/tally

record() { # record PASS|FAIL|SKIP NAME [DETAIL]
	printf '%s %s\n' "$1" "$2" >>"$tally"
	printf '  %-4s %s%s\n' "$1" "$2" "${3:+ ($3)}"
}

# record_lines SUFFIX: record the verdict lines on stdin, each name with
# SUFFIX; print the failures and skips, and the passes as one count.
record_lines() {
	local r rest n=0
	while read -r r rest; do
		case $r in PASS | FAIL | SKIP) ;; *) continue ;; esac
		printf '%s %s%s\n' "$r" "$rest" "$1" >>"$tally"
		if [ "$r" = PASS ]; then
			n=$((n + 1))
		else
			printf '  %-4s %s%s\n' "$r" "$rest" "$1"
		fi
	done
	printf '  PASS %d more%s\n' "$n" "$1"
}

finish() {
	local p f s
	if [ -n "${bisect_pid:-}" ]; then
		[ "${1:-}" != interrupted ] || kill_tree "$bisect_pid"
		bisect_wait
	fi
	p=$(grep -c '^PASS ' "$tally" 2>/dev/null || true)
	f=$(grep -c '^FAIL ' "$tally" 2>/dev/null || true)
	s=$(grep -c '^SKIP ' "$tally" 2>/dev/null || true)
	if [ -n "${1:-}" ]; then
		f=$((f + 1))
		printf 'ERROR: %s\n' "$1" >&2
	fi
	printf '\nmake check: %ss (results: %s)\n' "$(($(date +%s) - t_start))" "$tally"
	if [ "$s" -gt 0 ]; then
		printf 'allowed skips:\n'
		grep '^SKIP ' "$tally" | sed 's/^SKIP /  /' | sort -u
	fi
	if [ "$f" -gt 0 ]; then
		printf 'failures:\n'
		grep '^FAIL ' "$tally" 2>/dev/null | sed 's/^FAIL /  /' || true
	fi
	printf '%d passed, %d failed, %d skipped\n' "$p" "$f" "$s"
	[ "$f" -eq 0 ]
	exit
}
# kill_tree PID: PID and every process below it (a background step: its
# make and compilers ignore the SIGINT of a Ctrl-C, as any asynchronous
# command of a script does).
# Each process is stopped before its children are listed, so that none
# escapes by being forked, or by being reparented when its parent dies.
kill_tree() {
	local c
	kill -STOP "$1" 2>/dev/null || return 0
	for c in $(pgrep -P "$1"); do
		kill_tree "$c"
	done
	kill -TERM "$1" 2>/dev/null || true
	kill -CONT "$1" 2>/dev/null || true
}
trap 'finish "interrupted"' INT TERM
touch "$tally"

# check_step NAME CMD...: step, and a step that fails is a failure in the
# tally even where CMD recorded nothing (it died half-way).
check_step() {
	step "$@"
	if step_failed; then
		record FAIL "step: $1" "exit status $STEP_RC"
	fi
}

# kmemleak is built in but switched off at boot (kmemleak=off) except in
# the fault-injection boot: its tracking and its scans of guest memory
# slow a TCG guest down by minutes.
# guest_run NAME LOG VM_ARGS... -- CMD...: boot the debug kernel and run
# CMD; a time-out, a panic or a guest that ends early is a failure, named
# with vm.sh's one-line reason.
guest_run() {
	local name=$1 log=$2 rc=0
	shift 2
	"$TOP/scripts/vm.sh" "$@" >"$log.out" 2>&1 || rc=$?
	if [ "$rc" -ne 0 ]; then
		record FAIL "guest run: $name" "$(grep -m 1 '^ERROR' "$log.out" || echo "vm.sh exit $rc")"
		tail -n 5 "$log.out" >&2
		return 0
	fi
	record PASS "guest run: $name"
}

step "host set-up" "$TOP/scripts/setup.sh"
! step_failed || finish "host set-up failed"

workbench() {
	local rc=0
	"$TOP/tests/workbench.sh" >"$out/workbench.log" 2>&1 || rc=$?
	grep -E '^(PASS|FAIL) ' "$out/workbench.log" | sed 's/^\(PASS\|FAIL\) /\1 workbench: /' |
		record_lines ""
	grep -A15 '^FAIL' "$out/workbench.log" | grep -v '^PASS' | head -n 40 >&2 || true
	if [ "$rc" -ne 0 ] && ! grep -q '^FAIL ' "$out/workbench.log"; then
		record FAIL "workbench tests" "exit status $rc, log: $out/workbench.log"
	fi
}
model() {
	local rc=0
	"$TOP/scripts/model.sh" >"$out/model.log" 2>&1 || rc=$?
	grep -E '^(PASS|FAIL) ' "$out/model.log" | record_lines ""
	grep -A10 '^FAIL' "$out/model.log" | head -n 30 >&2 || true
	if [ "$rc" -ne 0 ] && ! grep -q '^FAIL ' "$out/model.log"; then
		record FAIL "model" "exit status $rc, log: $out/model.log"
	fi
}
if [ -z "$planted_only" ] && [ -z "${CHECK_ARM64_ONLY:-}" ]; then
	check_step "workbench tests" workbench
	if [ -x "$TOP/scripts/model.sh" ]; then
		check_step "model of the PING word protocol" model
	fi
fi

apply_queue() {
	"$TOP/scripts/queue.sh" "$src" >"$out/queue.txt"
}
step "apply patches/ on the base" apply_queue
! step_failed || finish "patches/ do not apply on $BASE_TAG"
mapfile -t commits <"$out/queue.txt"
printf '  %d patches\n' "${#commits[@]}"

# arm64: the tip cross-built as the debug kernel (Debian's
# gcc-aarch64-linux-gnu; configs/debug-arm64.config in place of the x86
# part: no KASAN), booted in an emulated arm64 machine (virtme-ng,
# qemu-system-aarch64 -M virt -cpu cortex-a57, TCG) on a Debian arm64
# root (scripts/arm64-root.sh), runs every futex selftest and the
# ping_bench smoke run, judged as on x86_64. cortex-a57 has no LSE
# atomics, so the kernel's futex cmpxchg is the LL/SC loop, whose
# -EAGAIN x86 never returns. TCG runs the guest's CPUs one instruction
# block at a time with sequentially consistent host atomics: it does
# not reorder memory as arm64 hardware may, so a missing barrier passes
# here (README).
arm64_tests() {
	local kbuild=$WORK/build-arm64-debug atools=$WORK/tools-arm64 log=$out/arm64.log
	local res=$WORK/guest/check-arm64 cmd
	if ! ARCH=arm64 "$TOP/scripts/build-kernel.sh" debug "$src" "$kbuild" >/dev/null; then
		record FAIL "build: arm64 debug kernel" "log: $kbuild/build.log"
		return 1
	fi
	record PASS "build: arm64 debug kernel"
	if ! ARCH=arm64 "$TOP/scripts/build-tools.sh" "$src" "$atools" selftests ping_bench; then
		record FAIL "build: arm64 futex selftests and ping_bench"
		return 1
	fi
	record PASS "build: arm64 futex selftests and ping_bench"
	rm -rf "$res"
	cmd=$(printf '%q ' "$TOP/tests/guest-selftests.sh" "$atools/kselftest/futex/functional" "$res")
	[ ! -x "$atools/ping_bench" ] ||
		cmd="$cmd; $(printf '%q ' "$TOP/tests/guest-ping-bench.sh" "$atools/ping_bench" "$res")"
	ARCH=arm64 guest_run "arm64 selftests, sched_proxy_exec=1" "$log" -t "${SELFTEST_TIMEOUT:-1200}" \
		-r "$TOP/tests" -r "$atools" -a sched_proxy_exec=1 -a panic_on_warn=1 -a kmemleak=off \
		"$kbuild/arch/arm64/boot/Image" "$log" -- bash -c "$cmd"
	cat "$skips" "$TOP/tests/selftests-arm64.skips" >"$out/selftests-arm64.skips"
	{
		selftest_verdict "$res" "$expected" "$out/selftests-arm64.skips"
		[ ! -x "$atools/ping_bench" ] || ping_bench_verdict "$res/ping_bench.log"
		splat_scan "arm64" "$log" "$res/dmesg.txt"
	} | record_lines " (arm64)"
}
if [ -n "${CHECK_ARM64_ONLY:-}" ]; then
	check_step "arm64: cross-build, emulated guest, futex selftests" arm64_tests
	finish
fi

# FILE_PATH_CHANGES ("does MAINTAINERS need updating?") fires for every new
# file; instead, every file a patch adds must have a maintainer entry.
# UNKNOWN_COMMIT_ID (a Fixes: tag naming a commit the tree lacks) can only
# be checked in a tree with upstream history: on the Debian import, a
# single commit, it is skipped; with KERNEL_SRC=upstream tree it runs.
checkpatch() {
	local c p r f m ignore=FILE_PATH_CHANGES
	if [ "$(git -C "$src" rev-list --count "$BASE_TAG")" = 1 ]; then
		ignore=$ignore,UNKNOWN_COMMIT_ID
	fi
	for c in "${commits[@]}"; do
		p=$PATCHES/${c#* }
		# /usr/bin first: spdxcheck.py needs python3-ply from Debian.
		r=$(cd "$src" && PATH=/usr/bin:$PATH ./scripts/checkpatch.pl --strict --terse --no-summary \
			--ignore "$ignore" "$p" 2>&1) || true
		for f in $(git -C "$src" diff --name-only --diff-filter=A "${c%% *}^" "${c%% *}"); do
			m=$(cd "$src" && ./scripts/get_maintainer.pl --no-git --no-git-fallback -f "$f" 2>&1) || true
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
if [ -z "$planted_only" ] && [ ${#commits[@]} -gt 0 ]; then
	check_step "checkpatch --strict" checkpatch
fi

# Every series can be mailed: scripts/send.sh sends it through a sendmail
# stand-in that keeps the messages. One message per file of the series,
# each To someone MAINTAINERS names, none to the workbench's own identity
# (the patches' author) or to the committer of the base import.
mailable() {
	local d n m want stub=$out/sendmail bad f
	# shellcheck disable=SC2016 # expanded by the stand-in
	printf '#!/bin/sh\n# make check: keep the message, send nothing.\ncat >"$MAILDIR/$(date +%%s%%N).eml"\n' >"$stub"
	chmod +x "$stub"
	while IFS= read -r d; do
		n=${d##*/}
		rm -rf "$out/mail/$n"
		mkdir -p "$out/mail/$n"
		if ! MAILDIR=$out/mail/$n SEND=1 SENDMAIL=$stub KERNEL_TREE=$src "$TOP/scripts/send.sh" "$n" \
			--from="make check <make-check@localhost.invalid>" >"$out/mail/$n.log" 2>&1; then
			record FAIL "mailable: $n" "send.sh failed, log: $out/mail/$n.log"
			tail -n 5 "$out/mail/$n.log" | sed 's/^/       /'
			continue
		fi
		m=$(find "$out/mail/$n" -name '*.eml' | wc -l)
		want=$(find "$d" -name '*.patch' | wc -l)
		bad=$(for f in "$out/mail/$n"/*.eml; do
			[ -f "$f" ] || continue
			awk 'NR == 1, /^$/' "$f" | grep -v '^From:' |
				grep -i -o -E '[^ <,]*(a-seed-|workbench@localhost)[^ >,]*' || true
		done | sort -u | tr '\n' ' ')
		if [ "$m" -ne "$want" ]; then
			record FAIL "mailable: $n" "$m messages for $want files, log: $out/mail/$n.log"
		elif [ -n "$bad" ]; then
			record FAIL "mailable: $n" "addressed to $bad"
		elif for f in "$out/mail/$n"/*.eml; do grep -q '^To: ' "$f" || echo "$f"; done | grep -q .; then
			record FAIL "mailable: $n" "a message without To:"
		else
			record PASS "mailable: $n ($m messages)"
		fi
	done < <(series_dirs)
}
if [ -z "$planted_only" ] && [ ${#commits[@]} -gt 0 ]; then
	check_step "series mailable (git send-email)" mailable
fi

# Bisectability: the kernel builds at every patch, and so do the selftests
# and perf at the patches that change them, warnings as errors. The
# kernel of this step is the bisect flavour (configs/bisect.config: every
# futex path and lock debugging on tinyconfig), which a patch to a header
# included everywhere (restart_block.h, sched.h) rebuilds in minutes; the
# tip is built as the debug kernel, the one the guests boot. A patch that
# changes nothing the kernel build reads (kernel_unchanged) leaves the
# kernel of the patch before it, already built, and is not built again.
# A failing command here fails the step (step runs it with errexit), so a
# failed checkout cannot pass as the previous build.
#
# The step runs in the background at nice 19, in a tree and build
# directories of its own, while the debug kernel builds and boots: a
# TCG selftest boot leaves about a third of the two CPUs idle. The
# guests, at nice 0, still lose to it (a selftest boot 14%, the
# fault-injection boot 42%, README), far less than the step would take
# after them. Its output is printed, and waited for, at the end.
build_each() {
	local c name files built='' note bcommits
	"$TOP/scripts/queue.sh" "$bisect_src" >"$out/queue-bisect.txt"
	mapfile -t bcommits <"$out/queue-bisect.txt"
	for c in "${bcommits[@]}"; do
		name=${c#* }
		git -C "$bisect_src" checkout -q --detach "${c%% *}"
		files=$(git -C "$bisect_src" diff --name-only "${c%% *}^" "${c%% *}")
		note=''
		if [ -n "$built" ] && kernel_unchanged <<<"$files"; then
			note="kernel unchanged"
		elif ! "$TOP/scripts/build-kernel.sh" bisect "$bisect_src" "$bisect" >/dev/null; then
			record FAIL "build: $name" "kernel, log: $bisect/build.log"
			return 1
		fi
		built=1
		if grep -q '^tools/testing/selftests/futex/' <<<"$files" &&
			! "$TOP/scripts/build-tools.sh" "$bisect_src" "$bisect_tools" selftests; then
			record FAIL "build: $name" "selftests"
			return 1
		fi
		if grep -q '^tools/testing/futex/' <<<"$files" &&
			! "$TOP/scripts/build-tools.sh" "$bisect_src" "$bisect_tools" ping_bench; then
			record FAIL "build: $name" "ping_bench"
			return 1
		fi
		if grep -q -E '^tools/(perf|include)/' <<<"$files" &&
			! "$TOP/scripts/build-tools.sh" "$bisect_src" "$bisect_tools" perf; then
			record FAIL "build: $name" "perf"
			return 1
		fi
		record PASS "build: $name" "$note"
	done
}
bisect_pid=''
if [ ${#commits[@]} -gt 0 ] && [ -z "$planted_only" ] && [ -z "${CHECK_TIP_ONLY:-}" ]; then
	printf '==> build every patch (bisect kernel): in the background, reported at the end\n'
	(
		renice -n 19 -p "$BASHPID" >/dev/null
		check_step "build every patch (bisect kernel)" build_each
	) >"$out/bisect.out" 2>&1 &
	bisect_pid=$!
fi
# bisect_wait: wait for the background step and print what it printed.
bisect_wait() {
	local rc=0
	[ -n "$bisect_pid" ] || return 0
	printf '==> waiting for: build every patch (bisect kernel)\n'
	wait "$bisect_pid" || rc=$?
	bisect_pid=''
	sed 's/^/  /' "$out/bisect.out"
	[ "$rc" -eq 0 ] || record FAIL "step: build every patch (bisect kernel)" "exit status $rc"
}
build_tip() {
	if ! "$TOP/scripts/build-kernel.sh" debug "$src" "$build" >/dev/null; then
		record FAIL "build: debug kernel" "log: $build/build.log"
		return 1
	fi
	record PASS "build: debug kernel"
}
step "build the debug kernel" build_tip
! step_failed || finish "the debug kernel does not build"
step "build the futex selftests (x86_64, i386) and ping_bench" "$TOP/scripts/build-tools.sh" "$src" "$tools" \
	selftests selftests32 ping_bench
! step_failed || finish "the futex selftests do not build"
kernel=$build/arch/x86/boot/bzImage
tdir=$tools/kselftest/futex/functional
tdir32=$tools/kselftest32/futex/functional
[ -n "$(ls -A "$tdir" 2>/dev/null)" ] || finish "no futex selftests in $tdir"
[ -n "$(ls -A "$tdir32" 2>/dev/null)" ] || finish "no i386 futex selftests in $tdir32"

# The detectors are trusted only once seen to fire: a hung guest, a
# panicking guest, and one boot with planted faults whose evidence the
# same verdict functions as the real runs must judge red, each for its
# own reason. futex_wait_timeout runs unchanged and must stay green.
detectors() {
	local v
	if "$TOP/scripts/vm.sh" -t 60 -a kmemleak=off "$kernel" "$out/vm-hang.log" -- sleep 600 \
		2>"$out/vm-hang.err" || ! grep -q 'did not finish within 60s' "$out/vm-hang.err"; then
		record FAIL "detector fires: hung guest"
		cat "$out/vm-hang.err" >&2
	else
		record PASS "detector fires: hung guest"
	fi
	# The same boot tortures locktorture's lock_busted, a "lock" that
	# excludes nobody, which locktorture_verdict must judge red.
	if "$TOP/scripts/vm.sh" -t 900 -a kmemleak=off -a locktorture.torture_type=lock_busted \
		-a locktorture.stat_interval=5 -a locktorture.nwriters_stress=2 "$kernel" "$out/vm-panic.log" -- \
		sh -c 'sleep 20; echo c >/proc/sysrq-trigger; sleep 60' 2>"$out/vm-panic.err" ||
		! grep -q 'guest kernel panicked' "$out/vm-panic.err"; then
		record FAIL "detector fires: guest panic"
		cat "$out/vm-panic.err" >&2
	else
		record PASS "detector fires: guest panic"
	fi
	# In a variable: grep -q would end the pipe early (pipefail).
	v=$(locktorture_verdict lock_busted "$out/vm-panic.log")
	if grep -q '^FAIL locktorture lock_busted: mutual exclusion broken' <<<"$v"; then
		record PASS "detector fires: locktorture of a broken lock"
	else
		record FAIL "detector fires: locktorture of a broken lock" "$(head -n 1 <<<"$v")"
	fi
}
# The planted-fault boot: the guest leaves the same evidence as a real
# run, and the verdict functions must judge it red.
planted() {
	local res=$WORK/guest/check-planted v
	rm -rf "$res"
	"$TOP/scripts/vm.sh" -t 1200 -a kmemleak=off "$kernel" "$out/planted.log" -- \
		"$TOP/tests/guest-planted.sh" "$tdir" "$res" >"$out/planted.out" 2>&1 || true
	v=$(
		selftest_verdict "$res" <(grep -E '^(futex_wait_timeout|futex_requeue|futex_wait_wouldblock) ' "$expected") /dev/null
		splat_scan planted "$out/planted.log" "$res/dmesg.txt"
	)
	printf '%s\n' "$v" >"$out/planted.verdict"
	expect_red() { # expect_red WHAT REGEX
		if grep -q -E "$2" <<<"$v"; then
			record PASS "detector fires: $1"
		else
			record FAIL "detector fires: $1" "no '$2' in $out/planted.verdict"
		fi
	}
	expect_red "a failing selftest case" '^FAIL selftest futex_requeue: global.requeue_multiple$'
	expect_red "a missing selftest" '^FAIL selftest futex_wait_wouldblock: did not run$'
	expect_red "a kernel WARNING" '^FAIL kernel log clean \(planted\): WARNING: '
	expect_red "a lockdep report" '^FAIL kernel log clean \(planted\): lockdep: '
	expect_red "a passing selftest stays green" '^PASS selftest futex_wait_timeout: global.wait_bitset$'
	if grep -q -E '^FAIL selftest futex_wait_timeout' <<<"$v"; then
		record FAIL "detector fires: only on the planted faults" "$(grep -m 1 '^FAIL selftest futex_wait_timeout' <<<"$v")"
	fi
}
check_step "guest failure detection" detectors
check_step "detectors fire on planted faults" planted
[ -z "$planted_only" ] || finish

# The futex selftests, every case judged from its KTAP output.
selftests() {
	local pe=$1 log=$out/selftests-pe$1.log res=$WORK/guest/check-pe$1 allowed=$skips
	rm -rf "$res"
	# Without Proxy Execution the priority inheritance tests skip.
	if [ "$pe" = 0 ]; then
		allowed=$out/selftests-pe0.skips
		cat "$skips" "$TOP/tests/selftests-pe0.skips" >"$allowed"
	fi
	# With Proxy Execution, a smoke run of ping_bench follows the tests,
	# then the i386 build of the selftests, through the compat entry
	# (FUTEX_SET_WAIT's val2 in a 32-bit uaddr2 slot, the PING ops,
	# compat robust lists, 32-bit time).
	local cmd
	cmd=$(printf '%q ' "$TOP/tests/guest-selftests.sh" "$tdir" "$res")
	if [ "$pe" = 1 ]; then
		[ ! -x "$tools/ping_bench" ] ||
			cmd="$cmd; $(printf '%q ' "$TOP/tests/guest-ping-bench.sh" "$tools/ping_bench" "$res")"
		cmd="$cmd; $(printf '%q ' "$TOP/tests/guest-selftests.sh" "$tdir32" "$res/i386")"
	fi
	guest_run "selftests, sched_proxy_exec=$pe" "$log" -t "${SELFTEST_TIMEOUT:-1200}" \
		-a "sched_proxy_exec=$pe" -a panic_on_warn=1 -a kmemleak=off "$kernel" "$log" -- \
		bash -c "$cmd"
	{
		selftest_verdict "$res" "$expected" "$allowed"
		[ "$pe" = 0 ] || [ ! -x "$tools/ping_bench" ] || ping_bench_verdict "$res/ping_bench.log"
		splat_scan "sched_proxy_exec=$pe" "$log" "$res/dmesg.txt"
	} | record_lines " (sched_proxy_exec=$pe)"
	if [ "$pe" = 1 ]; then
		cat "$skips" "$TOP/tests/selftests-i386.skips" >"$out/selftests-i386.skips"
		{
			selftest_verdict "$res/i386" "$expected" "$out/selftests-i386.skips"
			splat_scan "i386, sched_proxy_exec=1" "$res/i386/dmesg.txt"
		} | record_lines " (i386, sched_proxy_exec=1)"
	fi
}
check_step "futex selftests, sched_proxy_exec=1" selftests 1
check_step "futex selftests, sched_proxy_exec=0" selftests 0

# locktorture's mutex and ww_mutex torture with Proxy Execution on:
# series 04 changes how task_struct::blocked_on names a mutex, and mutexes
# must work as before. A broken lock turns this red (detectors()).
locktorture() {
	local t log res
	for t in mutex_lock ww_mutex_lock; do
		log=$out/locktorture-$t.log res=$WORK/guest/check-locktorture-$t
		rm -rf "$res"
		guest_run "locktorture $t" "$log" -t 900 -a sched_proxy_exec=1 -a panic_on_warn=1 \
			-a kmemleak=off -a "locktorture.torture_type=$t" -a locktorture.stat_interval=15 \
			-a locktorture.nwriters_stress=4 "$kernel" "$log" -- \
			"$TOP/tests/guest-locktorture.sh" "${LOCKTORTURE_SECONDS:-60}" "$res"
		{
			if [ -f "$res/done" ]; then
				locktorture_verdict "$t" "$res/dmesg.txt"
			else
				printf 'FAIL locktorture %s: run did not complete (no %s)\n' "$t" "$res/done"
			fi
			splat_scan "locktorture $t" "$log" "$res/dmesg.txt"
		} | record_lines ""
	done
}
check_step "locktorture mutex_lock, ww_mutex_lock, sched_proxy_exec=1" locktorture

# futex_priv_hash checks the automatic growth of the private hash, which
# happens only with more than 16 CPUs: a 20-vCPU TCG guest has them on
# this 2-CPU host. Skipping is not allowed here.
priv_hash() {
	local log=$out/priv-hash.log res=$WORK/guest/check-priv-hash
	rm -rf "$res"
	guest_run "futex_priv_hash, 20 vCPUs" "$log" -t 900 -p 20 -a panic_on_warn=1 -a kmemleak=off \
		"$kernel" "$log" -- "$TOP/tests/guest-selftests.sh" "$tdir" "$res" futex_priv_hash
	{
		selftest_verdict "$res" <(grep '^futex_priv_hash ' "$expected") /dev/null
		splat_scan "20 vCPUs" "$log" "$res/dmesg.txt"
	} | record_lines " (20 vCPUs)"
}
check_step "futex_priv_hash with 20 vCPUs" priv_hash

# fail_futex: faults injected under stress. The programs' own verdicts do
# not count; the kernel's do: no report, no leak, no hang, and faults
# must really have been injected.
failfutex() {
	local log=$out/failfutex.log res=$WORK/guest/check-failfutex n
	rm -rf "$res"
	guest_run "fault injection" "$log" -t 900 "$kernel" "$log" -- \
		"$TOP/tests/guest-failfutex.sh" "$tdir" "$res"
	n=$(cat "$res/injected" 2>/dev/null || echo 0)
	if [ -f "$res/done" ] && [ "$n" -gt 0 ]; then
		record PASS "fault injection: $n faults injected"
	else
		record FAIL "fault injection: faults injected" "$n, done: $(cat "$res/done" 2>/dev/null || echo no)"
	fi
	if [ -s "$res/kmemleak.txt" ]; then
		record FAIL "fault injection: no kmemleak report" "$(grep -c '^unreferenced object' "$res/kmemleak.txt") objects, $res/kmemleak.txt"
		head -n 20 "$res/kmemleak.txt" >&2
	elif [ -f "$res/kmemleak.txt" ]; then
		record PASS "fault injection: no kmemleak report"
	fi
	splat_scan "fault injection" "$log" "$res/dmesg.txt" | record_lines ""
}
# LAVA: every job of lava/ (debug and bench, x86_64 and arm64, QEMU and
# boards) checked offline against lava-common's job schema, which must
# also reject a job with a planted error; and the x86_64 debug job run end
# to end under lava-run (Debian's lava-dispatcher) on a local QEMU device,
# on this kernel, with a ramdisk of the statically linked selftests: every
# case a LAVA result, judged like the selftest boots.
lava() {
	local d=$out/lava v bad=$out/lava/planted-invalid.yaml tools=$WORK/tools-lava
	mkdir -p "$d"
	"$TOP/scripts/lava.sh" validate | record_lines ""
	sed 's/^    method: qemu$/    method: qemu-typo/' "$WORK/lava/validate/futex-debug-x86_64.yaml" >"$bad"
	v=$(/usr/bin/python3 "$TOP/scripts/lava-validate.py" "$bad" || true)
	if grep -q '^FAIL lava job planted-invalid.yaml' <<<"$v"; then
		record PASS "detector fires: an invalid LAVA job"
	else
		record FAIL "detector fires: an invalid LAVA job" "$v"
	fi
	if ! STATIC=1 "$TOP/scripts/build-tools.sh" "$src" "$tools" selftests; then
		record FAIL "build: static futex selftests (LAVA ramdisk)"
		return 1
	fi
	if ! "$TOP/scripts/lava.sh" check "$kernel" "$tools" "$d" >"$d/lava.out" 2>&1; then
		record FAIL "lava-run: x86_64 debug job" "$(tail -n 1 "$d/lava.out"), log: $d/run/job.log"
	else
		record PASS "lava-run: x86_64 debug job"
	fi
	{
		lava_verdict "$d/results/results.tsv" "$d/run/job.log" "$expected" "$skips"
		splat_scan "LAVA" "$d/results/console-job.txt"
	} | record_lines " (LAVA)"
}
check_step "futex stress under fault injection" failfutex
check_step "LAVA jobs: schema, and the x86_64 debug job under lava-run" lava
check_step "arm64: cross-build, emulated guest, futex selftests" arm64_tests

finish
